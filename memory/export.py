"""Exporting a memory for sharing: a standalone DuckDB file, or a folder of Parquet files.

Either works from any memory (DuckDB file or DuckLake). The DuckDB file is a complete vidmem
memory (schema, comments, schema version) that `open_memory` and `vidmem sql` open as they are;
the Parquet folder holds one `<table>.parquet` per table plus `schema.json` (what each column
means), readable by any tool. An export is written under a temporary name and renamed when
complete, so a failed or interrupted export never leaves a half-written target.

>>> with open_memory("archive.duckdb", read_only=True) as mem:              # doctest: +SKIP
...     export_memory(mem, "share/archive.duckdb")
"""

import json
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

from memory.ddl import arrow_schema
from memory.description import schema_dict
from memory.errors import StoreError
from memory.schema import VIDEO_TABLES, metadata
from memory.store import Memory, open_memory
from memory.uri import MemoryURI

EXPORT_FORMATS = ("duckdb", "parquet")
_DUCKDB_SUFFIXES = (".duckdb", ".db", ".ddb")
_BATCH_ROWS = 100_000  # rows per Arrow batch while streaming a table into a DuckDB export


@dataclass(frozen=True)
class ExportResult:
    target: Path
    format: str  # 'duckdb' | 'parquet'
    rows: dict[str, int]  # table -> rows written
    lost: dict[str, str] = field(default_factory=dict)  # salvage: table -> why it could not be read


def export_format(target: str | Path) -> str:
    """'duckdb' for a .duckdb/.db/.ddb target, else 'parquet' (a folder)."""
    return "duckdb" if Path(target).suffix.lower() in _DUCKDB_SUFFIXES else "parquet"


def export_memory(
    memory: Memory, target: str | Path, format: str | None = None, *, overwrite: bool = False, salvage: bool = False
) -> ExportResult:
    """Copy every table of `memory` to `target` as a DuckDB file or a folder of Parquet files.

    `salvage`: a table that cannot be read whole (a damaged memory opened with `salvage=True`) is
    left empty in the copy and named in `lost`, instead of failing the export."""
    fmt = format or export_format(target)
    if fmt not in EXPORT_FORMATS:
        raise StoreError(f"unknown export format {fmt!r}; expected one of {list(EXPORT_FORMATS)}")
    target = Path(target).expanduser().resolve()
    if memory.uri.kind == "duckdb" and Path(memory.uri.location) == target:
        raise StoreError(f"cannot export memory {target} onto itself; choose another target")
    if target.exists() and not overwrite:
        raise StoreError(f"{target} already exists; choose another target or overwrite it (vidmem export --force)")
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.partial-{os.getpid()}")
    _remove(partial)
    lost: dict[str, str] = {}
    try:
        if fmt == "duckdb":
            rows = _to_duckdb(memory, partial, lost if salvage else None)
        else:
            rows = _to_parquet(memory, partial, lost if salvage else None)
        _remove(target)
        os.replace(partial, target)
    finally:
        _remove(partial)
    return ExportResult(target, fmt, rows, lost)


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink(missing_ok=True)
    Path(f"{path}.wal").unlink(missing_ok=True)


def _to_duckdb(memory: Memory, path: Path, lost: dict[str, str] | None = None) -> dict[str, int]:
    """Every table's rows into a new memory file, in one transaction; with `lost` (salvage) one per
    table, and a table that fails to read is left empty and recorded there."""
    rows: dict[str, int] = {}
    # open_memory creates the schema with its comments and version; only the rows are copied.
    with open_memory(MemoryURI("duckdb", str(path))) as out:
        cur = out.con.cursor()
        try:
            if lost is None:
                cur.execute("BEGIN TRANSACTION")
            for table in VIDEO_TABLES:
                if lost is not None:
                    cur.execute("BEGIN TRANSACTION")
                try:
                    _copy_table(memory, cur, table.name)
                except duckdb.Error as exc:
                    if lost is None:
                        raise
                    cur.execute("ROLLBACK")
                    lost[table.name] = _first_line(exc)
                    continue
                if lost is not None:
                    cur.execute("COMMIT")
                rows[table.name] = _count(cur, table.name)
            if lost is None:
                cur.execute("COMMIT")
        except Exception as exc:
            raise StoreError(f"export to {path} failed: {exc}") from exc
        finally:
            cur.close()
    return rows


def _copy_table(memory: Memory, cur: duckdb.DuckDBPyConnection, name: str) -> None:
    src = memory.cursor()
    try:
        reader = src.execute(f"SELECT * FROM {name}").to_arrow_reader(_BATCH_ROWS)
        cur.register("_vidmem_export", reader)
        try:
            cur.execute(f"INSERT INTO {name} BY NAME SELECT * FROM _vidmem_export")
        finally:
            cur.unregister("_vidmem_export")
    finally:
        src.close()


def _first_line(exc: Exception) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


def _count(cur: duckdb.DuckDBPyConnection, name: str) -> int:
    row = cur.execute(f"SELECT count(*) FROM {name}").fetchone()
    return int(row[0]) if row else 0


def _to_parquet(memory: Memory, folder: Path, lost: dict[str, str] | None = None) -> dict[str, int]:
    folder.mkdir(parents=True)
    rows: dict[str, int] = {}
    cur = memory.cursor()
    try:
        for table in metadata.sorted_tables:
            file = folder / f"{table.name}.parquet"
            quoted = str(file).replace("'", "''")
            try:
                cur.execute(f"COPY (SELECT * FROM {table.name}) TO '{quoted}' (FORMAT parquet, COMPRESSION zstd)")
            except duckdb.Error as exc:
                if lost is None:
                    raise
                lost[table.name] = _first_line(exc)
                pq.write_table(arrow_schema(table).empty_table(), file)  # the folder stays a whole export
                continue
            rows[table.name] = _count(cur, table.name)
    except Exception as exc:
        raise StoreError(f"export to {folder} failed: {exc}") from exc
    finally:
        cur.close()
    (folder / "schema.json").write_text(json.dumps(schema_dict(), indent=2) + "\n")
    return rows


def read_parquet_export(folder: str | Path) -> dict[str, pa.Table]:
    """The tables of a Parquet export, by name (for checking an export, or loading it elsewhere)."""
    import pyarrow.parquet as pq

    folder = Path(folder)
    return {t.name: pq.read_table(folder / f"{t.name}.parquet") for t in metadata.sorted_tables}
