"""Turning what a user names (files, folders, globs, list files) into the videos to ingest."""

import glob
from collections.abc import Iterable
from pathlib import Path

#: Extensions picked up when a folder is named (a named file is taken whatever its extension).
VIDEO_EXTENSIONS = frozenset(
    {".mp4", ".m4v", ".mov", ".avi", ".mkv", ".webm", ".mpg", ".mpeg", ".ts", ".mts", ".wmv", ".flv", ".3gp", ".ogv"}
)
LIST_EXTENSIONS = frozenset({".txt", ".list", ".lst"})


def expand_sources(sources: Iterable[str | Path]) -> list[Path]:
    """Files, folders (recursively, video extensions only), globs and list files (one path per
    line, '#' comments) -> unique absolute paths in a stable order. A path that does not exist is
    kept, so that ingesting it records a clear 'file not found'."""
    seen: dict[Path, None] = {}
    for source in sources:
        for path in _expand(str(source)):
            seen.setdefault(path.expanduser().absolute(), None)
    return list(seen)


def _expand(source: str) -> list[Path]:
    path = Path(source).expanduser()
    if path.is_dir():
        return sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in VIDEO_EXTENSIONS)
    if path.is_file() and path.suffix.lower() in LIST_EXTENSIONS:
        base = path.parent
        lines = (ln.strip() for ln in path.read_text().splitlines())
        return [p for ln in lines if ln and not ln.startswith("#") for p in _expand(str(base / ln))]
    if not path.exists() and glob.has_magic(source):
        return [Path(p) for p in sorted(glob.glob(str(path), recursive=True)) if Path(p).is_file()]
    return [path]
