"""DuckLake with a PostgreSQL catalog (the across-machines setup), against a real local server.

Skipped where PostgreSQL's server binaries or the DuckDB postgres extension wheel are missing:
`apt-get install postgresql` and `pip install duckdb-extension-postgres-scanner==<duckdb version>`.
"""

import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest

from memory.cache import cache_root
from tests.test_batch import GOOD, _env, _per_video, _vidmem, good_dir, reference, reference_memory, shared_dir

__all__ = ["good_dir", "reference", "reference_memory", "shared_dir"]  # module fixtures reused from test_batch

PG_BIN = Path("/usr/lib/postgresql")


def _pg_bin(tool: str) -> Path | None:
    found = sorted(PG_BIN.glob(f"*/bin/{tool}"))
    return found[-1] if found else None


def _postgres_extension() -> Path | None:
    """The postgres extension binary from a pip wheel (DuckDB names it postgres_scanner)."""
    for module, name in (("duckdb_extension_postgres_scanner", "postgres_scanner"),
                         ("duckdb_extension_postgres", "postgres")):
        spec = importlib.util.find_spec(module)
        if spec and spec.submodule_search_locations:
            root = Path(next(iter(spec.submodule_search_locations)))
            binary = root / "extensions" / f"v{duckdb.__version__}" / f"{name}.duckdb_extension"
            if binary.is_file():
                return binary
    return None


@pytest.fixture(scope="module")
def postgres() -> Iterator[dict[str, str]]:
    """A throwaway PostgreSQL server on a Unix socket, and a HOME whose DuckDB extension folder
    holds the postgres extension (memory.extensions loads it from there, offline)."""
    initdb, pg_ctl, extension = _pg_bin("initdb"), _pg_bin("pg_ctl"), _postgres_extension()
    if not (initdb and pg_ctl):
        pytest.skip("PostgreSQL server binaries not installed (apt-get install postgresql)")
    if extension is None:
        pytest.skip("no DuckDB postgres extension wheel "
                    f"(pip install duckdb-extension-postgres-scanner=={duckdb.__version__})")
    # Not under pytest's tmp_path: that lies in a folder only we may enter, and the server runs as
    # the 'postgres' user when we are root.
    root = Path(tempfile.mkdtemp(prefix="vidmem-pg-"))
    root.chmod(0o777)
    as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    data, port = root / "data", "55439"
    subprocess.run([*as_user, str(initdb), "-D", str(data), "-A", "trust", "-U", "postgres"],
                   check=True, capture_output=True)
    subprocess.run([*as_user, str(pg_ctl), "-D", str(data), "-l", str(root / "log"), "-w",
                    "-o", f"-p {port} -k {root} -c listen_addresses=''", "start"], check=True, capture_output=True)
    try:
        home = root / "home"
        ext_dir = home / ".duckdb" / "extensions" / f"v{duckdb.__version__}" / _platform()
        ext_dir.mkdir(parents=True)
        shutil.copyfile(extension, ext_dir / "postgres_scanner.duckdb_extension")
        psql = _pg_bin("psql") or "psql"
        subprocess.run([*as_user, str(psql), "-h", str(root), "-p", port, "-U", "postgres", "-c",
                        "CREATE DATABASE vidmem"], check=True, capture_output=True)
        yield {
            "uri": f"ducklake:postgres:dbname=vidmem host={root} port={port} user=postgres?data={root / 'lake'}",
            "HOME": str(home),
        }
    finally:
        subprocess.run([*as_user, str(pg_ctl), "-D", str(data), "-m", "immediate", "stop"], capture_output=True)
        shutil.rmtree(root, ignore_errors=True)


def _platform() -> str:
    row = duckdb.execute("PRAGMA platform").fetchone()
    return str(row[0]) if row else "linux_amd64"


def test_ducklake_on_postgres_takes_a_parallel_batch_and_serves_sql(
    postgres: dict[str, str], good_dir: Path, reference: dict[str, dict[str, Any]]
) -> None:
    env = _env(HOME=postgres["HOME"], VIDMEM_CACHE=str(cache_root()))
    uri = postgres["uri"]
    started = time.monotonic()
    done = _vidmem("ingest", str(good_dir), "--only", "asr", "--workers", "2", "--memory", uri, env=env)
    assert done.returncode == 0, done.stderr
    assert f"{len(GOOD)} ingested, 0 already stored, 0 failed" in done.stdout
    out = _vidmem("sql", "SELECT count(*) AS n FROM transcript_words", "--memory", uri, "--format", "csv", env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["n", str(sum(len(v["rows"]["transcript_words"]) for v in reference.values()))]
    print(f"postgres-catalog batch + sql: {time.monotonic() - started:.1f}s", file=sys.stderr)
    old_home = os.environ.get("HOME")
    os.environ["HOME"] = postgres["HOME"]  # this process loads the extension from the same place
    try:
        assert _per_video(uri) == reference
    finally:
        if old_home is not None:
            os.environ["HOME"] = old_home
