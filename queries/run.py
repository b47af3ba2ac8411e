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


#: What to do when a query runs out of memory, in place of DuckDB's advice: its "Possible solutions"
#: are settings (SET threads, memory_limit), which the read-only sessions lock.
OUT_OF_MEMORY_HINT = (
    "the query needs more memory than this session may use: filter with WHERE (video_id, times), "
    "aggregate in SQL, select fewer or shorter columns, or avoid joining detections to itself"
)


def duckdb_message(exc: duckdb.Error | str) -> str:
    r"""DuckDB's message without blank lines (its caret lines kept: they point at the error); an
    out-of-memory error with advice a locked session can follow instead of DuckDB's settings.

    >>> oom = "Out of Memory Error: failed to allocate 16.0 MiB\n\nPossible solutions:\n* (SET threads=X)\n"
    >>> print(duckdb_message(oom))  # doctest: +ELLIPSIS
    Out of Memory Error: failed to allocate 16.0 MiB
    the query needs more memory than this session may use: filter with WHERE (video_id, times), ...
    """
    text = str(exc).strip()
    if text.startswith("Out of Memory Error") and "Possible solutions" in text:
        text = text[: text.index("Possible solutions")].rstrip() + "\n" + OUT_OF_MEMORY_HINT
    return "\n".join(line for line in text.splitlines() if line.strip())
