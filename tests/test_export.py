"""Exporting a memory for sharing: a DuckDB file or Parquet files hold exactly what the memory holds."""

from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest

from ingest import IngestSettings
from ingest.batch import BatchOptions, run_batch
from memory import (
    SCHEMA_VERSION,
    Memory,
    StoreError,
    arrow_schema,
    export_memory,
    metadata,
    open_memory,
    read_parquet_export,
    table,
)
from vidmem.cli import main


def _content(mem: Memory) -> dict[str, list[str]]:
    return {t.name: sorted(map(repr, mem.query(f"SELECT * FROM {t.name}").to_pylist())) for t in metadata.sorted_tables}


def _arrow_content(tables: dict[str, pa.Table]) -> dict[str, list[str]]:
    return {name: sorted(map(repr, t.to_pylist())) for name, t in tables.items()}


def test_duckdb_export_is_a_memory_with_the_same_rows(asr_memory: Path, tmp_path: Path) -> None:
    target = tmp_path / "share" / "copy.duckdb"
    with open_memory(asr_memory, read_only=True) as src:
        result = export_memory(src, target)
        expected = _content(src)
    assert result.format == "duckdb" and result.rows["transcript"] >= 2
    with open_memory(target, read_only=True) as copy:
        assert _content(copy) == expected
        assert copy.query("SELECT value FROM schema_info")["value"][0].as_py() == str(SCHEMA_VERSION)
        comment = copy.query(
            "SELECT comment FROM duckdb_columns() WHERE table_name = 'transcript' AND column_name = 'start_s'"
        )["comment"][0].as_py()
    assert "speech starts" in comment  # the schema's meaning travels with the file
    assert not list(tmp_path.glob("share/.*partial*"))


def test_parquet_export_round_trips(asr_memory: Path, tmp_path: Path) -> None:
    folder = tmp_path / "parquet"
    with open_memory(asr_memory, read_only=True) as src:
        result = export_memory(src, folder)
        expected = _content(src)
    assert result.format == "parquet"
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        [f"{t}.parquet" for t in metadata.tables] + ["schema.json"]
    )
    tables = read_parquet_export(folder)
    assert _arrow_content(tables) == expected
    for name, tbl in tables.items():  # same column names and types as the memory (FLOAT[] included)
        want = arrow_schema(table(name))
        assert [(f.name, f.type) for f in tbl.schema] == [(f.name, f.type) for f in want], name
    # ...and loads back into a fresh memory unchanged.
    with open_memory(tmp_path / "back.duckdb") as back:
        cur = back.cursor()
        for name, tbl in tables.items():
            cur.execute(f"DELETE FROM {name}")
            cur.register("t", tbl)
            cur.execute(f"INSERT INTO {name} BY NAME SELECT * FROM t")
            cur.unregister("t")
        assert _content(back) == expected


def test_export_from_ducklake_keeps_failures_too(media: dict[str, Path], tmp_path: Path) -> None:
    uri = f"ducklake:sqlite:{tmp_path / 'lake' / 'cat.sqlite'}"
    clips = [media["no_audio"], media["bad_zero"]]
    report = run_batch(clips, uri, IngestSettings().only("asr"), BatchOptions(workers=1))
    assert report.counts == {"ok": 1, "skipped": 0, "failed": 1}
    with open_memory(uri, read_only=True) as src:
        export_memory(src, tmp_path / "lake.duckdb")
        expected: dict[str, Any] = _content(src)
    with open_memory(tmp_path / "lake.duckdb", read_only=True) as copy:
        assert _content(copy) == expected
        assert copy.query("SELECT error FROM videos WHERE status = 'failed'")["error"][0].as_py().endswith(
            "empty file (0 bytes)"
        )


def test_export_refuses_to_overwrite(asr_memory: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "x.duckdb"
    assert main(["export", str(target), "--memory", str(asr_memory)]) == 0
    assert "as duckdb ->" in capsys.readouterr().out
    assert main(["export", str(target), "--memory", str(asr_memory)]) == 2
    assert "already exists" in capsys.readouterr().err
    assert main(["export", str(target), "--memory", str(asr_memory), "--force"]) == 0
    with open_memory(asr_memory, read_only=True) as src, pytest.raises(StoreError, match="onto itself"):
        export_memory(src, asr_memory, overwrite=True)
