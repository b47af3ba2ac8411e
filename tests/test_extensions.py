"""The packaged DuckDB extensions load without the network, from many processes at once."""

import threading
from pathlib import Path

import pytest

from memory.extensions import packaged_extension


def test_processes_copying_the_sqlite_extension_at_once_all_get_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An ingest and `vidmem sql` beside it, on a new machine, both copied sqlite.duckdb_extension to
    one temporary name; the second rename failed (FileNotFoundError). Sixteen threads stand in."""
    monkeypatch.setenv("VIDMEM_CACHE", str(tmp_path))
    if packaged_extension("sqlite") is None:
        pytest.skip("duckdb-extension-sqlite is not installed")
    for f in tmp_path.rglob("*.duckdb_extension"):
        f.unlink()
    start = threading.Barrier(16)
    got: list[Path | None] = []
    errors: list[BaseException] = []

    def copy() -> None:
        start.wait()
        try:
            got.append(packaged_extension("sqlite"))
        except BaseException as exc:  # the test reports what any thread raised
            errors.append(exc)

    threads = [threading.Thread(target=copy) for _ in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(got) == 16 and len(set(got)) == 1
    path = got[0]
    assert path is not None and path.name == "sqlite_scanner.duckdb_extension" and path.stat().st_size > 0
    assert not list(path.parent.glob("*.tmp"))
