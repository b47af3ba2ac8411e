"""Turning what a user names (files, folders, globs, list files) into the videos to ingest."""

import glob
from collections.abc import Iterable
from pathlib import Path

from ingest.errors import SettingsError

#: Extensions picked up when a folder is named (a named file is taken whatever its extension).
VIDEO_EXTENSIONS = frozenset(
    {".mp4", ".m4v", ".mov", ".avi", ".mkv", ".webm", ".mpg", ".mpeg", ".ts", ".mts", ".wmv", ".flv", ".3gp", ".ogv"}
)
LIST_EXTENSIONS = frozenset({".txt", ".list", ".lst"})


def expand_sources(sources: Iterable[str | Path]) -> list[Path]:
    """Files, folders (recursively, video extensions only), globs and list files (one path per
    line, '#' comments) -> unique absolute paths in a stable order. A path that does not exist is
    kept, so that ingesting it records a clear 'file not found'. A list file that cannot be read as
    UTF-8 text, or that names itself (directly or through other lists), is a SettingsError."""
    seen: dict[Path, None] = {}
    for source in sources:
        for path in _expand(str(source), ()):
            seen.setdefault(path.expanduser().absolute(), None)
    return list(seen)


def _expand(source: str, reading: tuple[Path, ...]) -> list[Path]:
    """`reading`: the list files this one was named from, outermost first (to catch cycles)."""
    path = Path(source).expanduser()
    if path.is_dir():
        return sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in VIDEO_EXTENSIONS)
    if path.is_file() and path.suffix.lower() in LIST_EXTENSIONS:
        here = path.resolve()
        if here in reading:
            chain = " -> ".join(str(p) for p in (*reading[reading.index(here) :], here))
            raise SettingsError(f"list file {path} names itself ({chain}); remove that line")
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            raise SettingsError(
                f"list file {path} is not UTF-8 text (byte {exc.start}); a list holds one path per line"
            ) from None
        except OSError as exc:
            raise SettingsError(f"cannot read list file {path}: {exc.strerror or exc}") from None
        base = path.parent
        lines = (ln.strip() for ln in text.splitlines())
        return [p for ln in lines if ln and not ln.startswith("#") for p in _expand(str(base / ln), (*reading, here))]
    if not path.exists() and glob.has_magic(source):
        return [Path(p) for p in sorted(glob.glob(str(path), recursive=True)) if Path(p).is_file()]
    return [path]
