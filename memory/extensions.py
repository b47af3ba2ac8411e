"""Loading DuckDB extensions without the network.

DuckDB normally downloads extensions at run time. We load, in order: the binary shipped by the
pip package `duckdb-extension-<name>` (pinned to our DuckDB release), an extension already
installed in DuckDB's own folder, and only then `INSTALL` (the network). Callers degrade with a
clear message when all three fail.
"""

import importlib.util
import logging
import os
import shutil
import threading
from pathlib import Path

import duckdb

from memory.cache import cache_dir

log = logging.getLogger(__name__)

# The file name DuckDB expects inside the binary (it checks it on LOAD).
_FILE_NAMES = {"sqlite": "sqlite_scanner", "postgres": "postgres_scanner"}


def packaged_extension(name: str) -> Path | None:
    """Path of the extension binary shipped by `duckdb-extension-<name>`, if installed."""
    spec = importlib.util.find_spec(f"duckdb_extension_{name}")
    if spec is None or not spec.submodule_search_locations:
        return None
    root = Path(next(iter(spec.submodule_search_locations)))
    binary = root / "extensions" / f"v{duckdb.__version__}" / f"{name}.duckdb_extension"
    if not binary.is_file():
        return None
    wanted = _FILE_NAMES.get(name, name)
    if wanted == name:
        return binary
    # sqlite ships as sqlite.duckdb_extension but must be loaded as sqlite_scanner.duckdb_extension.
    cache = cache_dir("duckdb-extensions") / f"v{duckdb.__version__}"
    target = cache / f"{wanted}.duckdb_extension"
    if not target.is_file() or target.stat().st_size != binary.stat().st_size:
        cache.mkdir(parents=True, exist_ok=True)
        # a copy of its own per process and thread: an ingest and a `vidmem sql` started beside it both
        # copied to one '.tmp', and the second rename found it gone (CI, test_batch's ducklake test)
        tmp = target.with_name(f"{wanted}.{os.getpid()}.{threading.get_ident()}.tmp")
        shutil.copyfile(binary, tmp)
        tmp.replace(target)  # atomic: a reader sees the old file or the whole new one
    return target


def load_extension(con: duckdb.DuckDBPyConnection, name: str) -> bool:
    """Load extension `name` into `con`; True if it is usable, False (logged once) if not."""
    if _is_loaded(con, name):
        return True
    errors = []
    binary = packaged_extension(name)
    attempts = [f"LOAD '{binary}'"] if binary else []
    attempts += [f"LOAD {_FILE_NAMES.get(name, name)}", f"INSTALL {name}; LOAD {name}"]
    for sql in attempts:
        try:
            con.execute(sql)
        except duckdb.Error as exc:
            errors.append(f"{sql.split(';')[0]}: {str(exc).splitlines()[0]}")
            continue
        return True
    log.warning(
        "DuckDB extension %r is unavailable (pip install duckdb-extension-%s==%s); tried: %s",
        name,
        name,
        duckdb.__version__,
        "; ".join(errors),
    )
    return False


def _is_loaded(con: duckdb.DuckDBPyConnection, name: str) -> bool:
    row = con.execute(
        "SELECT loaded FROM duckdb_extensions() WHERE extension_name = ?", [_FILE_NAMES.get(name, name)]
    ).fetchone()
    return bool(row and row[0])
