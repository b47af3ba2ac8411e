"""Bookkeeping for derived search structures kept in a memory (indexes), and once-only log lines."""

import logging
import weakref

import duckdb

from memory import Memory
from queries.errors import QueryError
from queries.run import run_sql

log = logging.getLogger("queries")

#: Schema of the derived structures (full-text documents, HNSW vectors, their state).
SEARCH_SCHEMA = "vidmem_search"
STATE_TABLE = f"{SEARCH_SCHEMA}.state"


def memory_fingerprint(memory: Memory) -> str:
    """Changes whenever a video's rows are replaced (each write stamps a new ingested_at)."""
    row = run_sql(
        memory,
        "SELECT count(*) AS n, coalesce(bit_xor(hash(video_id, status, ingested_at)), 0) AS h FROM videos",
    ).to_pylist()[0]
    return f"{row['n']}:{row['h']}"


def ensure_state_table(cur: duckdb.DuckDBPyConnection) -> None:
    cur.execute(f"CREATE SCHEMA IF NOT EXISTS {SEARCH_SCHEMA}")
    cur.execute(f"CREATE TABLE IF NOT EXISTS {STATE_TABLE} (name VARCHAR, value VARCHAR, built_at TIMESTAMP)")


def set_state(cur: duckdb.DuckDBPyConnection, name: str, value: str) -> None:
    cur.execute(f"DELETE FROM {STATE_TABLE} WHERE name = ?", [name])
    cur.execute(f"INSERT INTO {STATE_TABLE} VALUES (?, ?, now()::TIMESTAMP)", [name, value])


def get_state(memory: Memory, name: str) -> str | None:
    try:
        rows = run_sql(memory, f"SELECT value FROM {STATE_TABLE} WHERE name = ?", [name]).column("value")
    except QueryError as exc:
        if isinstance(exc.__cause__, duckdb.CatalogException):
            return None  # no search structures built in this memory
        raise
    return str(rows[0]) if len(rows) else None


_logged: "weakref.WeakKeyDictionary[Memory, set[str]]" = weakref.WeakKeyDictionary()


def log_once(memory: Memory, key: str, message: str) -> None:
    """Log `message` (info) the first time `key` comes up for this memory."""
    seen = _logged.setdefault(memory, set())
    if key not in seen:
        seen.add(key)
        log.info("%s: %s", memory.uri, message)
