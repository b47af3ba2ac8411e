"""Checking a memory: its schema version, every table read whole, and each video's rows per table
against what the roles recorded storing (`role_runs.rows`). What `vidmem check` prints.

Reading every value is the point (a count alone is answered from metadata and misses a damaged
block), so a check reads the whole memory once: seconds for hours of video.
"""

import json
from dataclasses import dataclass, field

from memory import SCHEMA_VERSION, VIDEO_TABLES, Memory
from queries.errors import QueryError
from queries.run import run_sql

__all__ = ["MemoryCheck", "RowMismatch", "TableCheck", "check_memory"]


@dataclass(frozen=True)
class TableCheck:
    table: str
    rows: int | None  # None when it could not be read
    error: str = ""


@dataclass(frozen=True)
class RowMismatch:
    """A video whose stored rows in `table` differ from what its roles recorded storing."""

    video_id: str
    path: str
    table: str
    recorded: int
    stored: int


@dataclass(frozen=True)
class MemoryCheck:
    schema_version: int | None
    tables: tuple[TableCheck, ...]
    mismatches: tuple[RowMismatch, ...] = field(default=())

    @property
    def problems(self) -> list[str]:
        """Each thing found wrong, in words; empty when the memory is sound."""
        found = []
        if self.schema_version != SCHEMA_VERSION:
            found.append(f"schema version {self.schema_version}, this vidmem writes {SCHEMA_VERSION}")
        found += [f"table {t.table} cannot be read: {t.error}" for t in self.tables if t.error]
        found += [
            f"{m.path or m.video_id}: {m.table} holds {m.stored} rows, its role recorded storing {m.recorded}"
            for m in self.mismatches
        ]
        return found


def check_memory(memory: Memory) -> MemoryCheck:
    """Read every table of `memory` whole and compare each video's rows with `role_runs`."""
    version = _schema_version(memory)
    tables = tuple(_read_whole(memory, t.name) for t in VIDEO_TABLES)
    readable = {t.table for t in tables if not t.error}
    if "role_runs" not in readable or "videos" not in readable:
        return MemoryCheck(version, tables)
    paths = {r["video_id"]: r["path"] for r in run_sql(memory, "SELECT video_id, path FROM videos").to_pylist()}
    recorded: dict[tuple[str, str], int] = {}
    for r in run_sql(memory, "SELECT video_id, rows FROM role_runs WHERE rows IS NOT NULL").to_pylist():
        try:
            counts = json.loads(r["rows"])
        except ValueError:
            continue
        for table, n in (counts.items() if isinstance(counts, dict) else ()):
            key = (str(r["video_id"]), str(table))
            recorded[key] = recorded.get(key, 0) + int(n)
    stored: dict[tuple[str, str], int] = {}
    for table in sorted({t for _, t in recorded} & readable):
        for r in run_sql(memory, f"SELECT video_id, count(*) AS n FROM {table} GROUP BY video_id").to_pylist():
            stored[(str(r["video_id"]), table)] = int(r["n"])
    mismatches = tuple(
        RowMismatch(vid, str(paths.get(vid, "")), table, recorded.get((vid, table), 0), stored.get((vid, table), 0))
        for vid, table in sorted(set(recorded) | set(stored))
        if recorded.get((vid, table), 0) != stored.get((vid, table), 0)
    )
    return MemoryCheck(version, tables, mismatches)


def _schema_version(memory: Memory) -> int | None:
    try:
        rows = run_sql(memory, "SELECT value FROM schema_info WHERE key = 'schema_version'").to_pylist()
    except QueryError:
        return None
    return int(rows[0]["value"]) if rows else None


def _read_whole(memory: Memory, table: str) -> TableCheck:
    try:  # hashing each row reads every value; count(*) alone comes from metadata
        row = run_sql(memory, f"SELECT count(*) AS n, sum(hash(t)) AS h FROM {table} AS t").to_pylist()[0]
    except QueryError as exc:
        return TableCheck(table, None, " ".join(str(exc).split())[:300])
    return TableCheck(table, int(row["n"]))
