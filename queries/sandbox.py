"""The sandbox: one query over a memory on its own locked-down DuckDB instance, under row, byte,
time and memory limits.

For SQL nobody has read (a model's, a web page's): the caller checks it first (the agents' SQL guard,
`agents.guard.SQLGuard`, allows one read-only SELECT over known tables and functions); the
sandbox is the floor under that check, and it bounds what an allowed query may cost:

- The memory's file (or DuckLake catalog) is attached READ_ONLY to a private in-memory instance
  and locked down (`queries.lockdown`): external access and Python replacement scans off, the
  configuration locked, `memory_limit` set and one thread. The analyst's connections (`vidmem sql`,
  `Memory.con`) are separate instances and keep their settings.
- The query library's views and macros are created there as TEMP objects (`queries.library`).
- A row cap and a byte cap: results are streamed as Arrow batches and measured before they become
  Python objects. A time limit and a bound on the process's memory growth: a watchdog thread
  interrupts the query.

    box = shared_sandbox(memory)                 # one per open memory, cached
    result = box.run("SELECT count(*) AS n FROM tracks", max_rows=50, timeout_s=5)
    result.columns, result.rows, result.truncated, result.truncated_by, result.seconds

Failures are `QueryError`s whose messages say what to do (they are shown to models as they are);
what the locked instance itself refuses is a `ReadOnlyError`.
bench/guard_rss.py measures the process's peak memory under hostile and heavy queries.
"""

import contextlib
import os
import queue
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import duckdb
import pyarrow as pa

from memory import Memory, load_extension
from queries.errors import ParameterError, QueryBusy, QueryError
from queries.library import install
from queries.lockdown import attach_memory, lock_down
from queries.pylist import to_pylist
from queries.readonly import ReadOnlyError
from queries.run import duckdb_message

__all__ = [
    "DEFAULT_MAX_BYTES",
    "DEFAULT_MAX_ROWS",
    "DEFAULT_MEMORY_LIMIT",
    "DEFAULT_TIMEOUT_S",
    "LibraryInstaller",
    "QueryResult",
    "Sandbox",
    "release_sandbox",
    "shared_sandbox",
]

DEFAULT_MAX_ROWS = 200
#: Bytes of a result (as Arrow holds it) a query may return: rows past it are left out.
DEFAULT_MAX_BYTES = 1_000_000
DEFAULT_TIMEOUT_S = 10.0
DEFAULT_MEMORY_LIMIT = "1GB"

_FILE_HINT = "only the memory's tables can be queried; files, URLs and other databases cannot be read"


@dataclass(frozen=True)
class QueryResult:
    """Rows of one sandboxed query: at most the row cap, `truncated` when more existed."""

    sql: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    truncated: bool
    seconds: float
    truncated_by: str = ""  # 'rows' or 'bytes': which cap left rows out
    nbytes: int = 0  # size of the rows returned, as Arrow held them

    def dicts(self) -> list[dict[str, Any]]:
        return [dict(zip(self.columns, row, strict=True)) for row in self.rows]


#: Called with the sandbox's connection before it is locked, to create the analyst library's views
#: and macros (TEMP objects: the memory is attached read-only). Defaults to `queries.library.install`.
LibraryInstaller = Callable[[duckdb.DuckDBPyConnection], object]

_CATALOG = "vidmem"
_BASE_CONFIG = {"autoinstall_known_extensions": False, "autoload_known_extensions": False}


#: Queries one sandbox runs at once: a slow one (up to its time limit) must not hold up the others.
DEFAULT_CONCURRENCY = 4


class Sandbox:
    """A locked-down DuckDB instance over one memory, running up to `concurrency` queries at once
    within limits.

    Opened read-only by attaching the memory's file (or DuckLake catalog) to a private in-memory
    instance, so that switching external access off and locking the configuration touch nothing
    else in the process. Thread-safe: each query takes one of `concurrency` connections to the
    instance, prepared before it was locked, and waits when all are busy. Raises QueryError when the
    memory cannot be attached (open for writing in this process, most often).
    """

    def __init__(
        self,
        memory: Memory,
        *,
        install_library: LibraryInstaller | None = install,
        memory_limit: str = DEFAULT_MEMORY_LIMIT,
        concurrency: int = DEFAULT_CONCURRENCY,
    ) -> None:
        if concurrency < 1:
            raise ParameterError(f"concurrency must be >= 1, got {concurrency}")
        self.uri = memory.uri  # not the Memory itself: `shared_sandbox` caches by weak reference to it
        #: The watchdog's bound on the process's growth during a query (DuckDB's memory_limit
        #: leaves out strings built in vectors and results on their way out).
        self.memory_bytes = _bytes(memory_limit)
        con = duckdb.connect(":memory:", config=dict(_BASE_CONFIG))
        try:
            attach_memory(con, memory.uri, _CATALOG)
            for ext in ("fts", "vss"):  # search helpers the library may use; optional
                load_extension(con, ext)
            if install_library is not None:
                # Library objects go to the private in-memory catalog (the memory is read-only);
                # their bodies name memory tables unqualified.
                con.execute(f"USE memory; SET search_path = 'memory.main,{_CATALOG}.main'")
                install_library(con)
            # Memory tables first; a CREATE that slipped through would hit the read-only memory.
            con.execute(f"SET search_path = '{_CATALOG}.main,memory.main'")
            # Every view and macro now visible: the library's, wherever it was installed (in the memory
            # file by a writable open, or here), and any an analyst stored in the memory.
            self.library_views, self.library_functions = _catalog_names(con)
            # Each query's connection, set up like this one before the configuration is locked: the
            # catalog, the search path and TEMP objects (an installer's) are a connection's own.
            pool = [con.cursor() for _ in range(concurrency)]
            for cur in pool:
                if install_library is not None:
                    cur.execute(f"USE memory; SET search_path = 'memory.main,{_CATALOG}.main'")
                    install_library(cur)
                cur.execute(f"USE {_CATALOG}; SET search_path = '{_CATALOG}.main,memory.main'")
            # One thread: one vector of 2048 values in flight at a time, so that a query whose values
            # grow (replace() with a long replacement) overshoots the watchdog by one vector, not two.
            # Concurrent queries each run on their caller's thread.
            lock_down(con, memory.uri, memory_limit=memory_limit, threads=1)
        except BaseException:
            con.close()
            raise
        self._con = con
        self._free: queue.SimpleQueue[duckdb.DuckDBPyConnection] = queue.SimpleQueue()
        for cur in pool:
            self._free.put(cur)
        self._closed = False

    def run(
        self,
        sql: str,
        *,
        max_rows: int = DEFAULT_MAX_ROWS,
        timeout_s: float = DEFAULT_TIMEOUT_S,
        max_bytes: int = DEFAULT_MAX_BYTES,
        cancel: threading.Event | None = None,
        long_slots: threading.Semaphore | None = None,
        long_after_s: float = 2.0,
    ) -> QueryResult:
        """Run `sql` (checked by the caller), return at most `max_rows` rows and `max_bytes` bytes.
        Raises ReadOnlyError when the locked instance refuses it and QueryError when it fails, runs
        past `timeout_s` (waiting for a free connection included), outgrows the memory limit, is
        cancelled (`cancel` set: its client went away) or its first row alone is over `max_bytes`.

        `long_slots` bounds how many queries may run past `long_after_s` at once (a server keeps
        cores for short queries that way): one that gets there with no slot free is stopped with
        QueryBusy."""
        if max_rows < 1 or timeout_s <= 0 or max_bytes < 1:
            raise ValueError(f"max_rows, max_bytes must be >= 1 and timeout_s > 0, got {max_rows}, {max_bytes}, "
                             f"{timeout_s}")  # fmt: skip
        start = time.perf_counter()
        con = self._take(sql, timeout_s)
        try:
            left_s = max(timeout_s - (time.perf_counter() - start), 0.01)  # the wait for a connection counts
            watchdog = _Watchdog(con, left_s, self.memory_bytes, cancel, long_slots, long_after_s)
            try:
                watchdog.start()
                con.execute(sql)
                columns = tuple(d[0] for d in con.description or ())
                # Streamed in small Arrow batches, measured before any row becomes Python objects:
                # the row and byte caps hold however big the result.
                taken = _capped_rows(con.to_arrow_reader(_BATCH_ROWS), max_rows, max_bytes)
            except (duckdb.Error, _Interrupted) as exc:
                raise self._failure(exc, watchdog, timeout_s, sql, long_after_s) from None
            finally:
                watchdog.stop()
                with contextlib.suppress(duckdb.Error):
                    con.execute("SELECT 1").fetchall()  # drop what is left of a streamed result
        finally:
            self._free.put(con)
        rows, truncated_by, nbytes = taken
        if truncated_by == "bytes" and not rows:
            raise QueryError(
                f"one row of the result is over {max_bytes:,} bytes: select fewer or shorter columns "
                "(e.g. left(text, 200)), or aggregate in SQL",
                sql=sql,
            )
        return QueryResult(
            sql=sql,
            columns=columns,
            rows=rows,
            truncated=bool(truncated_by),
            seconds=time.perf_counter() - start,
            truncated_by=truncated_by,
            nbytes=nbytes,
        )

    @contextlib.contextmanager
    def stream(
        self, sql: str, *, timeout_s: float, batch_rows: int = 65_536, cancel: threading.Event | None = None
    ) -> Iterator[tuple[pa.Schema, Iterator[pa.RecordBatch]]]:
        """Every row of `sql` (checked by the caller) as Arrow batches, for a file the user asked for:
        no row or byte cap, the time limit and the memory bound as in `run`, `cancel` to stop. The
        query runs (and fails, with QueryError) before the block is entered, so a caller can still
        answer with an error; a failure while the batches are read raises from the iterator.

            with box.stream(sql, timeout_s=300) as (schema, batches):
                for batch in batches: ...
        """
        start = time.perf_counter()
        con = self._take(sql, timeout_s)
        watchdog = _Watchdog(con, max(timeout_s - (time.perf_counter() - start), 0.01), self.memory_bytes, cancel)
        try:
            watchdog.start()
            try:
                con.execute(sql)
                reader = con.to_arrow_reader(batch_rows)
            except duckdb.Error as exc:
                raise self._failure(exc, watchdog, timeout_s, sql) from None

            def batches() -> Iterator[pa.RecordBatch]:
                while True:
                    try:
                        batch = reader.read_next_batch()
                    except StopIteration:
                        return
                    except Exception as exc:  # the stream surfaces DuckDB's interrupt as its own error
                        raise self._failure(exc, watchdog, timeout_s, sql) from None
                    yield batch

            yield reader.schema, batches()
        finally:
            watchdog.stop()
            with contextlib.suppress(duckdb.Error):
                con.execute("SELECT 1").fetchall()  # drop what is left of the result
            self._free.put(con)

    def _take(self, sql: str, timeout_s: float) -> duckdb.DuckDBPyConnection:
        """A free connection, waiting up to `timeout_s` (the caller puts it back)."""
        if self._closed:
            raise QueryError("the sandbox is closed", sql=sql)
        try:
            return self._free.get(timeout=timeout_s)
        except queue.Empty:
            raise QueryError(
                f"every connection of the sandbox stayed busy for {timeout_s:g} s: try again shortly", sql=sql
            ) from None

    def _failure(
        self, exc: Exception, watchdog: "_Watchdog", timeout_s: float, sql: str, long_after_s: float = 0.0
    ) -> QueryError:
        """The error to raise for `exc`, in words: first why the watchdog stopped the query, if it did."""
        if watchdog.reason == "busy":
            return QueryBusy(
                f"the query ran over {long_after_s:g} s while the long queries this server runs at once "
                "were running: try again shortly, or narrow it (WHERE video_id = ..., a time range)",
                sql=sql,
            )
        if watchdog.reason == "cancelled":
            return QueryError("the query was cancelled: its client went away", sql=sql)
        if watchdog.reason == "memory":
            return QueryError(
                f"the query needed more than {self.memory_bytes / 2**20:,.0f} MB of memory and was stopped: "
                "filter with WHERE, aggregate in SQL, or select shorter values",
                sql=sql,
            )
        if watchdog.reason == "time" or isinstance(exc, duckdb.InterruptException | _Interrupted):
            return QueryError(
                f"the query ran longer than {timeout_s:g} s and was stopped: filter with WHERE (video_id, "
                "times), aggregate in SQL, or avoid joining detections to itself",
                sql=sql,
            )
        if isinstance(exc, duckdb.PermissionException):
            return ReadOnlyError(f"not allowed: {_first_lines(str(exc), 1)}; {_FILE_HINT}", sql=sql)
        return QueryError(_first_lines(duckdb_message(str(exc))), sql=sql)

    def close(self) -> None:
        """Close the instance; queries running now are interrupted (DuckDB closes their connections)."""
        self._closed = True
        self._con.close()


_BATCH_ROWS = 16
_WATCH_EVERY_S = 0.02


def _bytes(size: str) -> int:
    """'1GB' -> bytes (the units DuckDB's memory_limit takes)."""
    text = size.strip().upper().replace(" ", "").removesuffix("B").removesuffix("I")
    scale = {"K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}
    try:
        return int(float(text[:-1]) * scale[text[-1]]) if text and text[-1] in scale else int(float(text))
    except ValueError:
        raise ParameterError(f"memory_limit {size!r}: expected a size such as '1GB' or '512MB'") from None


def _rss() -> int | None:
    """This process's resident memory in bytes (Linux), or None where /proc is not there."""
    try:
        with open("/proc/self/statm", "rb") as f:
            return int(f.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        return None


_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


class _Watchdog:
    """Interrupts the query on `con` when it runs past `timeout_s`, when this process's RSS grows
    more than `memory_bytes` past what it was when the query started, or when `cancel` is set;
    `reason` says which ('time', 'memory', 'cancelled')."""

    def __init__(
        self, con: duckdb.DuckDBPyConnection, timeout_s: float, memory_bytes: int,
        cancel: threading.Event | None = None, long_slots: threading.Semaphore | None = None,
        long_after_s: float = 2.0,
    ) -> None:  # fmt: skip
        self.reason = ""
        self._cancel = cancel
        self._long_slots = long_slots
        self._long_at = time.monotonic() + long_after_s
        self._holds_long_slot = False
        self._con = con
        self._deadline = time.monotonic() + timeout_s
        start = _rss()
        self._cap = None if start is None else start + memory_bytes
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="sandbox-watchdog", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._done.set()
        self._thread.join()
        if self._holds_long_slot and self._long_slots is not None:
            self._long_slots.release()

    def _watch(self) -> None:
        while not self._done.wait(_WATCH_EVERY_S):
            if self._cancel is not None and self._cancel.is_set():
                self.reason = "cancelled"
            elif self._long_slots is not None and not self._holds_long_slot and time.monotonic() >= self._long_at:
                self._holds_long_slot = self._long_slots.acquire(blocking=False)
                if not self._holds_long_slot:
                    self.reason = "busy"
                else:
                    continue
            elif time.monotonic() >= self._deadline:
                self.reason = "time"
            elif self._cap is not None and (_rss() or 0) > self._cap:
                self.reason = "memory"
            else:
                continue
            self._con.interrupt()
            return


class _Interrupted(Exception):
    """The time limit stopped the query while its Arrow stream was read."""


def _capped_rows(
    reader: Any, max_rows: int, max_bytes: int
) -> tuple[tuple[tuple[Any, ...], ...], str, int]:
    """Rows from an Arrow stream up to `max_rows` rows and `max_bytes` bytes; which cap cut it
    ('rows', 'bytes' or ''), and the bytes kept. Each row is measured as Arrow holds it."""
    rows: list[tuple[Any, ...]] = []
    total = 0
    while True:
        try:
            batch = reader.read_next_batch()
        except StopIteration:
            return tuple(rows), "", total
        except Exception as exc:  # the stream surfaces DuckDB's interrupt as its own error
            if "interrupt" in str(exc).lower():
                raise _Interrupted() from exc
            raise duckdb.Error(str(exc)) from exc
        for i in range(batch.num_rows):
            if len(rows) == max_rows:
                return tuple(rows), "rows", total
            row = batch.slice(i, 1)
            if total + row.nbytes > max_bytes:
                return tuple(rows), "bytes", total
            total += row.nbytes
            rows.append(tuple(to_pylist(column)[0] for column in row.columns))  # 'infinity' dates as text


def _first_lines(message: str, lines: int = 4, chars: int = 600) -> str:
    text = "\n".join(message.strip().splitlines()[:lines])
    return text if len(text) <= chars else text[:chars] + "..."


def _catalog_names(con: duckdb.DuckDBPyConnection) -> tuple[frozenset[str], frozenset[str]]:
    """The views and the functions (scalar, aggregate, macros) not built in: the library's and any
    stored in the memory."""
    views = con.execute("SELECT view_name FROM duckdb_views() WHERE NOT internal").fetchall()
    functions = con.execute(
        "SELECT DISTINCT lower(function_name) FROM duckdb_functions() "
        "WHERE function_type IN ('scalar', 'aggregate', 'macro', 'table_macro') AND NOT internal"
    ).fetchall()
    return frozenset(r[0].lower() for r in views), frozenset(r[0] for r in functions)


_SANDBOXES: "weakref.WeakKeyDictionary[Memory, Sandbox]" = weakref.WeakKeyDictionary()
_SANDBOXES_LOCK = threading.Lock()


def shared_sandbox(memory: Memory) -> Sandbox:
    """The Sandbox of an open memory, created on first use and reused while the memory lives.

    It holds its own read-only attachment of the memory's file, released when the memory closes
    (or by `release_sandbox(memory)`): DuckDB allows one attachment per file in a process.
    """
    with _SANDBOXES_LOCK:
        box = _SANDBOXES.get(memory)
        if box is None:
            box = _SANDBOXES[memory] = Sandbox(memory)
            # Its read-only attachment of the file must not outlive the memory.
            memory.on_close(lambda: release_sandbox(memory))
        return box


def release_sandbox(memory: Memory) -> None:
    """Close the shared Sandbox of `memory`, if any (it is created again on next use)."""
    with _SANDBOXES_LOCK:
        box = _SANDBOXES.pop(memory, None)
    if box is not None:
        box.close()
