"""Where vidmem keeps what it makes once and reuses: one root, $VIDMEM_CACHE (default ~/.cache/vidmem).

    weights/             real weights that `vidmem models pull` fetched (weights/huggingface: the hub's layout)
    models/              files derived from weights: the detector's ONNX export and its int8 copy, whisper's
                         joined packaged parts
    ocr/                 the recognizer's key list, written out of its packaged config
    duckdb-extensions/   packaged DuckDB extensions under the file names DuckDB loads them by
    fixtures/            the test media (tests/fixtures/make_fixtures.py; $VIDMEM_FIXTURES wins)
    qset/                the question set's videos and their memory (bench/qset; $VIDMEM_QSET wins)
    bench/               the benchmarks' generated memories ($VIDMEM_BENCH_DIR wins)

Everything below the root can be deleted: it is made again when next needed. The root is read at each
call, so that a process (a test, CI's empty cache of its own) can point it elsewhere.
"""

import os
from pathlib import Path


def cache_root() -> Path:
    return Path(os.environ.get("VIDMEM_CACHE") or Path.home() / ".cache" / "vidmem").expanduser()


def cache_dir(name: str, override: str | None = None) -> Path:
    """The folder `name` below the root, or the folder the environment variable `override` names."""
    env = os.environ.get(override) if override else None
    return Path(env).expanduser() if env else cache_root() / name
