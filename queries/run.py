"""Running SQL on a memory with the library in reach, and turning DuckDB's errors into QueryError."""

import threading
import weakref
from collections.abc import Sequence
from typing import Any

import duckdb
import pyarrow as pa

from memory import Memory
from queries.errors import QueryError
from queries.library import cursor

Params = Sequence[Any] | dict[str, Any] | None


def run_sql(memory: Memory, sql: str, params: Params = None) -> pa.Table:
    """Run one statement with bound `params` (never format values into `sql`); rows as Arrow.

    Raises QueryError carrying DuckDB's own message (parser, binder, catalog or runtime error) and
    the statement.

    >>> run_sql(memory, "SELECT * FROM when_visible(?, ?, gap_s := ?)", ["v1", "person", 2.0])  # doctest: +SKIP
    """
    if not isinstance(sql, str) or not sql.strip():
        raise QueryError("empty SQL: give one SELECT statement", sql=sql)
    cur = _thread_cursor(memory)
    try:
        return cur.execute(sql, params).to_arrow_table()
    except duckdb.Error as exc:
        raise QueryError(duckdb_message(exc), sql=sql) from exc


_local = threading.local()


def _thread_cursor(memory: Memory) -> duckdb.DuckDBPyConnection:
    """This thread's cursor on `memory`, kept between calls: a new one costs a search-path setup
    (milliseconds) when the library lives beside the memory, and cursors are not thread-safe."""
    pool: weakref.WeakKeyDictionary[Memory, duckdb.DuckDBPyConnection] | None = getattr(_local, "cursors", None)
    if pool is None:
        pool = _local.cursors = weakref.WeakKeyDictionary()
    cur = pool.get(memory)
    if cur is None:
        cur = pool[memory] = cursor(memory)
    return cur


def duckdb_message(exc: duckdb.Error) -> str:
    """DuckDB's message without blank lines (its caret lines kept: they point at the error)."""
    return "\n".join(line for line in str(exc).strip().splitlines() if line.strip())
