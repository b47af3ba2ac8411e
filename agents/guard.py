"""The SQL guard: model-written SQL runs only if it is one read-only query over the memory.

Two layers, each enough on its own for the common attacks:

1. `SQLGuard.check` parses the text with DuckDB's own parser (what would really run: the
   statement kind, and through `queries.sql_names` every function and table it names) and with
   sqlglot (DuckDB dialect, for the tree), and allows exactly one SELECT / WITH ... SELECT
   (UNION and friends fine) whose tables are memory tables, library views or the query's own CTEs,
   whose table functions are a short allow-list (range, unnest, ...) and whose functions are on
   the ALLOW-list agents/guard_functions.txt (plus the library's macros): nothing that takes SQL
   text, settings or files, and nothing that builds values far bigger than its input (repeat,
   lpad). Everything else (DDL, DML, PRAGMA, SET, ATTACH, COPY, INSTALL/LOAD, CALL, stacked
   statements, `FROM 'file.csv'`, `read_csv(...)`) is a `GuardError` whose message says what to
   write instead.
2. `GuardedSQL` runs checked SQL on its own DuckDB instance: the memory attached READ_ONLY,
   `enable_external_access=false`, Python replacement scans off, the configuration locked, a
   memory limit, a row cap and a byte cap (results streamed as Arrow batches and measured before
   they become Python objects) and a time limit (`interrupt()` from a timer thread). The analyst's
   connections (`vidmem sql`, `Memory.con`) are separate instances and keep their settings.

    runner = guarded(memory)                   # one per open memory, cached
    result = runner.run("SELECT count(*) AS n FROM tracks", max_rows=50, timeout_s=5)
    result.columns, result.rows, result.truncated, result.truncated_by, result.seconds

bench/guard_rss.py measures the process's peak memory under the hostile corpus and heavy queries.

`SELECT * FROM duckdb_settings()` and the other `duckdb_*()` catalog functions are rejected: they
are harmless to the data but show paths and configuration, and the prompt already has the schema.
"""

import contextlib
import functools
import logging
import os
import threading
import time
import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from importlib import resources
from typing import Any

import duckdb
import sqlglot
from sqlglot import exp
from sqlglot.errors import ErrorLevel, SqlglotError

from agents.errors import AgentError, GuardError, SQLRunError
from memory import Memory, load_extension, metadata
from queries.errors import QueryError
from queries.lockdown import attach_memory, lock_down
from queries.pylist import to_pylist
from queries.sql_names import ParseError, split_statements, statement_names

__all__ = [
    "DEFAULT_MAX_BYTES",
    "DEFAULT_MAX_ROWS",
    "DEFAULT_TIMEOUT_S",
    "MEMORY_TABLES",
    "GuardedSQL",
    "QueryResult",
    "SQLGuard",
    "allowed_functions",
    "guarded",
    "release_guarded",
]

log = logging.getLogger(__name__)

DEFAULT_MAX_ROWS = 200
#: Bytes of a result (as Arrow holds it) a query may return: rows past it are left out.
DEFAULT_MAX_BYTES = 1_000_000
DEFAULT_TIMEOUT_S = 10.0
DEFAULT_MEMORY_LIMIT = "1GB"
MAX_SQL_CHARS = 20_000

#: The memory's tables a query may read (bookkeeping `schema_info` too: harmless and tiny).
MEMORY_TABLES: frozenset[str] = frozenset(metadata.tables)

#: Table functions that only compute (no I/O): time bins, list expansion, JSON walks.
SAFE_TABLE_FUNCTIONS: frozenset[str] = frozenset({"range", "generate_series", "unnest", "json_each", "json_tree"})

# Functions that read or change state outside the query: files, settings, variables, sequences,
# logs, serialized plans, other databases. Matched on the lower-cased name.
_DENY_NAMES = frozenset(
    {
        "current_setting", "getvariable", "getenv", "nextval", "currval", "setseed", "write_log",
        "json_execute_serialized_sql", "json_deserialize_sql", "json_serialize_sql", "glob", "query",
        "query_table", "checkpoint", "force_checkpoint", "sniff_csv", "summary", "which_secret",
        "enable_logging", "disable_logging", "enable_profiling", "disable_profiling", "truncate_duckdb_logs",
        "python_map_function", "pandas_scan", "arrow_scan", "arrow_scan_dumb", "seq_scan", "repeat_row",
        "load_extension", "install_extension", "make_secret", "http_get", "http_post",
    }
)  # fmt: skip
_DENY_PREFIXES = (
    "read_", "write_", "pragma_", "duckdb_", "ducklake_", "sqlite_", "postgres_", "mysql_", "iceberg_",
    "delta_", "parquet_", "http", "s3_", "test_", "fts_", "create_", "drop_",
)  # fmt: skip
_DENY_SUFFIXES = ("_scan", "_query", "_attach", "_execute", "_secret", "_secrets")

_FILE_HINT = "only the memory's tables can be queried; files, URLs and other databases cannot be read"


def is_denied_function(name: str) -> bool:
    """Whether a function name reads or changes anything outside the query (see _DENY_*)."""
    n = name.lower()
    return n in _DENY_NAMES or n.startswith(_DENY_PREFIXES) or n.endswith(_DENY_SUFFIXES)


#: Left off the allow-list because they build values far larger than their input: one call can
#: outgrow any memory limit (a 1.5 GB repeat() string took a process to 4.6 GB).
_AMPLIFIERS = frozenset(
    {"repeat", "lpad", "rpad", "printf", "format", "bar", "list_resize", "array_resize", "range", "generate_series",
     "equi_width_bins", "fill", "to_base", "bitstring", "enum_range", "regexp_replace"}
)  # fmt: skip


@functools.cache
def allowed_functions() -> frozenset[str]:
    """The ALLOW-list of functions (agents/guard_functions.txt), lower-cased."""
    text = resources.files("agents").joinpath("guard_functions.txt").read_text(encoding="utf-8")
    names = (line.strip().lower() for line in text.splitlines())
    return frozenset(n for n in names if n and not n.startswith("#"))


@functools.cache
def builtin_functions() -> frozenset[str]:
    """DuckDB's built-in scalar, aggregate and macro functions, minus the denied ones."""
    con = duckdb.connect(":memory:", config={"autoload_known_extensions": False})
    try:
        rows = con.execute(
            "SELECT DISTINCT lower(function_name) FROM duckdb_functions() "
            "WHERE function_type IN ('scalar', 'aggregate', 'macro')"
        ).fetchall()
    finally:
        con.close()
    return frozenset(r[0] for r in rows if not is_denied_function(r[0]))


# Statement kinds that never belong in a query tree, wherever they hide (CTE, subquery).
_FORBIDDEN_NODES: tuple[type[exp.Expr], ...] = tuple(
    cls
    for name in (
        "Insert", "Update", "Delete", "Merge", "Create", "Drop", "Alter", "AlterTable", "Command", "Copy",
        "Set", "Pragma", "Attach", "Detach", "Install", "Use", "Transaction", "Commit", "Rollback", "Into",
        "Describe", "Summarize", "Export", "Load", "LoadData", "Refresh", "Cache", "Uncache", "TruncateTable",
        "Grant", "Revoke", "Analyze", "Kill", "Show", "Declare", "Execute",
    )
    if isinstance(cls := getattr(exp, name, None), type) and issubclass(cls, exp.Expr)
)  # fmt: skip


def _func_name(node: exp.Expr) -> str:
    if isinstance(node, exp.Anonymous):
        return str(node.name).lower()
    if isinstance(node, exp.Func):
        return node.sql_name().lower()
    return type(node).__name__.lower()


def _looks_like_path(name: str) -> bool:
    return any(ch in name for ch in "/\\:.~*") or name.lower().endswith(("csv", "parquet", "json"))


def _first_lines(message: str, lines: int = 4, chars: int = 600) -> str:
    text = "\n".join(message.strip().splitlines()[:lines])
    return text if len(text) <= chars else text[:chars] + "..."


class SQLGuard:
    """Checks model-written SQL against allow-lists (see the module docstring).

    >>> SQLGuard().check("SELECT count(*) FROM tracks;")
    'SELECT count(*) FROM tracks;'
    >>> SQLGuard().check("DROP TABLE tracks")
    Traceback (most recent call last):
    ...
    agents.errors.GuardError: only a read-only SELECT (or WITH ... SELECT) may run; this is a DROP statement
    """

    def __init__(
        self,
        tables: Iterable[str] = MEMORY_TABLES,
        *,
        table_functions: Iterable[str] = SAFE_TABLE_FUNCTIONS,
        functions: Iterable[str] | None = None,
    ) -> None:
        self.tables = frozenset(t.lower() for t in tables)
        self.table_functions = frozenset(f.lower() for f in table_functions)
        funcs = allowed_functions() if functions is None else frozenset(f.lower() for f in functions)
        self.functions = frozenset(f for f in funcs if not is_denied_function(f))

    def check(self, sql: str) -> str:
        """`sql` itself when it is one allowed query; raises GuardError saying why not."""
        text = sql.strip()
        if not text:
            raise GuardError("empty SQL: write one SELECT statement")
        if len(text) > MAX_SQL_CHARS:
            raise GuardError(f"SQL is {len(text)} characters long; keep a query under {MAX_SQL_CHARS}")
        self._check_statement_kind(text)
        self._check_names(text)
        tree = self._parse(text)
        self._check_tree(tree)
        return text

    # -- layers ------------------------------------------------------------------------------
    @staticmethod
    def _check_statement_kind(text: str) -> None:
        try:
            statements = split_statements(text)
        except duckdb.PermissionException as exc:
            raise GuardError(str(exc)) from None
        except duckdb.Error as exc:
            raise GuardError(f"SQL syntax error: {_first_lines(str(exc))}") from None
        if len(statements) != 1:
            raise GuardError(
                f"exactly one statement may run; found {len(statements)} (no stacked statements separated by ';')"
            )
        kind = statements[0].type
        if kind != duckdb.StatementType.SELECT:
            raise GuardError(f"only a read-only SELECT (or WITH ... SELECT) may run; this is a {kind.name} statement")

    def _check_names(self, text: str) -> None:
        """Every function and table as DuckDB itself parses them, against the allow-lists."""
        try:
            names = statement_names(text)
        except ParseError as exc:
            raise GuardError(f"SQL syntax error: {_first_lines(str(exc))}") from None
        for name in sorted(names.table_functions):
            if name not in self.table_functions and name not in self.functions:
                self._check_table_function(exp.Anonymous(this=name))
        for name in sorted(names.functions):
            if name in self.functions or name == "unnest":  # unnest(list) in SELECT expands rows, like in FROM
                continue
            if is_denied_function(name):
                raise GuardError(f"function {name}() is not allowed: {_FILE_HINT}, and settings stay hidden")
            if name in _AMPLIFIERS:
                raise GuardError(
                    f"function {name}() is not allowed: it can build values far larger than the memory holds"
                )
            raise GuardError(
                f"unknown or disallowed function {name}(): use DuckDB's common SQL functions (text, math, "
                "dates, lists, aggregates, window functions)"
            )
        for table in names.tables:
            if table.catalog or (table.schema and table.schema.lower() != "main"):
                raise GuardError(
                    f"{table.qualified()}: use the bare table name ({table.name}); other databases and schemas "
                    "are off limits"
                )
            if table.name.lower() not in self.tables and table.name.lower() not in names.ctes:
                if _looks_like_path(table.name):
                    raise GuardError(f"FROM {table.name!r} would read a file: {_FILE_HINT}")
                raise GuardError(f"unknown table {table.name!r}; the tables you can query are {self._table_list()}")

    @staticmethod
    def _parse(text: str) -> exp.Query:
        try:
            trees = [t for t in sqlglot.parse(text, read="duckdb", error_level=ErrorLevel.RAISE) if t is not None]
        except SqlglotError as exc:
            raise GuardError(
                f"the SQL guard could not parse this query ({_first_lines(str(exc), 2)}); "
                "write it in plainer SQL (standard SELECT, JOIN, GROUP BY, window functions)"
            ) from None
        if len(trees) != 1:
            raise GuardError(f"exactly one statement may run; found {len(trees)}")
        tree = trees[0]
        if not isinstance(tree, exp.Query):
            raise GuardError(f"only a SELECT (or WITH ... SELECT) may run, not {type(tree).__name__.upper()}")
        return tree

    def _check_tree(self, tree: exp.Query) -> None:
        for node in tree.walk():
            if isinstance(node, _FORBIDDEN_NODES):
                what = "SELECT ... INTO" if isinstance(node, exp.Into) else type(node).__name__.upper()
                raise GuardError(f"{what} is not allowed: only read-only queries may run")
        ctes = {cte.alias_or_name.lower() for cte in tree.find_all(exp.CTE)}
        table_sources: set[int] = set()
        for table in tree.find_all(exp.Table):
            source = table.this
            if isinstance(source, exp.Func):
                table_sources.add(id(source))
                self._check_table_function(source)
            else:
                self._check_table_name(table, ctes)
        for func in tree.find_all(exp.Func):
            if id(func) in table_sources:
                continue
            name = _func_name(func)
            if is_denied_function(name):
                raise GuardError(f"function {name}() is not allowed: {_FILE_HINT}, and settings stay hidden")
            if isinstance(func, exp.Anonymous) and name not in self.functions and name not in self.table_functions:
                raise GuardError(f"unknown or disallowed function {name}(): use DuckDB's built-in SQL functions")

    def _check_table_function(self, func: exp.Func) -> None:
        name = _func_name(func)
        if name in self.table_functions and not is_denied_function(name):
            return
        if name in self.functions:  # a library table macro
            return
        if is_denied_function(name) or name.startswith("read"):
            raise GuardError(f"table function {name}() is not allowed: {_FILE_HINT}")
        raise GuardError(
            f"table function {name}() is not allowed; query the tables {self._table_list()} "
            f"(table functions allowed: {', '.join(sorted(self.table_functions))})"
        )

    def _check_table_name(self, table: exp.Table, ctes: set[str]) -> None:
        name = table.name
        ident = table.this
        if isinstance(ident, exp.Identifier) and ident.quoted and _looks_like_path(name):
            raise GuardError(f"FROM {name!r} would read a file: {_FILE_HINT}")
        if not name:
            raise GuardError(f"cannot read from {table.sql(dialect='duckdb')!r}: {_FILE_HINT}")
        if table.catalog or (table.db and table.db.lower() != "main"):
            qualified = ".".join(p for p in (table.catalog, table.db, name) if p)
            raise GuardError(
                f"{qualified}: use the bare table name ({name}); other databases and schemas are off limits"
            )
        if name.lower() in ctes and not table.db:
            return
        if name.lower() not in self.tables:
            raise GuardError(f"unknown table {name!r}; the tables you can query are {self._table_list()}")

    def _table_list(self) -> str:
        return ", ".join(sorted(self.tables - {"schema_info"}))


# -- running -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class QueryResult:
    """Rows of one guarded query: at most the row cap, `truncated` when more existed."""

    sql: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    truncated: bool
    seconds: float
    truncated_by: str = ""  # 'rows' or 'bytes': which cap left rows out
    nbytes: int = 0  # size of the rows returned, as Arrow held them

    def dicts(self) -> list[dict[str, Any]]:
        return [dict(zip(self.columns, row, strict=True)) for row in self.rows]


#: Called with the guarded connection before it is locked, to create the analyst library's views
#: and macros (TEMP objects: the memory is attached read-only). See `library_installer`.
LibraryInstaller = Callable[[duckdb.DuckDBPyConnection], None]

_CATALOG = "vidmem"
_BASE_CONFIG = {"autoinstall_known_extensions": False, "autoload_known_extensions": False}


def library_installer() -> LibraryInstaller | None:
    """The `queries` package's installer of views and macros, when that package provides one."""
    try:
        import queries
    except ImportError:
        return None
    for name in ("install_library", "install", "create_views"):
        hook = getattr(queries, name, None)
        if callable(hook):
            return hook
    return None


class GuardedSQL:
    """A locked-down DuckDB instance over one memory, running `SQLGuard`-checked queries.

    Opened read-only by attaching the memory's file (or DuckLake catalog) to a private in-memory
    instance, so that switching external access off and locking the configuration touch nothing
    else in the process. Thread-safe: queries run one at a time.
    """

    def __init__(
        self,
        memory: Memory,
        *,
        install_library: LibraryInstaller | None = None,
        memory_limit: str = DEFAULT_MEMORY_LIMIT,
    ) -> None:
        self.uri = memory.uri  # not the Memory itself: `guarded` caches by weak reference to it
        con = duckdb.connect(":memory:", config=dict(_BASE_CONFIG))
        try:
            self._attach(con, memory)
            installer = install_library if install_library is not None else library_installer()
            if installer is not None:
                # Library objects go to the private in-memory catalog (the memory is read-only);
                # their bodies name memory tables unqualified.
                con.execute(f"USE memory; SET search_path = 'memory.main,{_CATALOG}.main'")
                installer(con)
            # Memory tables first; a CREATE that slipped through would hit the read-only memory.
            con.execute(f"SET search_path = '{_CATALOG}.main,memory.main'")
            # Every view and macro now visible: the library's, wherever it was installed (in the memory
            # file by a writable open, or here), and any an analyst stored in the memory.
            views, funcs = _catalog_names(con)
            self.library_views = frozenset(views)
            self.library_functions = frozenset(funcs)
            #: The watchdog's bound on the process's growth during a query (DuckDB's memory_limit
            #: leaves out strings built in vectors and results on their way out).
            self.memory_bytes = _bytes(memory_limit)
            # One thread: one vector of 2048 values in flight at a time, so that a query whose values
            # grow (replace() with a long replacement) overshoots the watchdog by one vector, not two.
            lock_down(con, memory.uri, memory_limit=memory_limit, threads=1)
        except BaseException:
            con.close()
            raise
        # One connection, one query at a time: TEMP library objects live on this connection only,
        # and guarded queries are short (they have a time limit).
        self._con = con
        self._con_lock = threading.Lock()
        functions = allowed_functions() | self.library_functions
        self.guard = SQLGuard(MEMORY_TABLES | self.library_views, functions=functions)

    @staticmethod
    def _attach(con: duckdb.DuckDBPyConnection, memory: Memory) -> None:
        try:
            attach_memory(con, memory.uri, _CATALOG)
        except QueryError as exc:
            raise AgentError(str(exc)) from exc
        for ext in ("fts", "vss"):  # search helpers the library may use; optional
            load_extension(con, ext)

    def run(
        self,
        sql: str,
        *,
        max_rows: int = DEFAULT_MAX_ROWS,
        timeout_s: float = DEFAULT_TIMEOUT_S,
        max_bytes: int = DEFAULT_MAX_BYTES,
    ) -> QueryResult:
        """Check `sql`, run it, return at most `max_rows` rows and `max_bytes` bytes. Raises
        GuardError when it may not run and SQLRunError when it fails, runs past `timeout_s` or its
        first row alone is over `max_bytes`; both messages are for the model."""
        if max_rows < 1 or timeout_s <= 0 or max_bytes < 1:
            raise ValueError(f"max_rows, max_bytes must be >= 1 and timeout_s > 0, got {max_rows}, {max_bytes}, "
                             f"{timeout_s}")  # fmt: skip
        checked = self.guard.check(sql)
        with self._con_lock:
            con = self._con
            watchdog = _Watchdog(con, timeout_s, self.memory_bytes)
            start = time.perf_counter()
            try:
                watchdog.start()
                con.execute(checked)
                columns = tuple(d[0] for d in con.description or ())
                # Streamed in small Arrow batches, measured before any row becomes Python objects:
                # the row and byte caps hold however big the result.
                taken = _capped_rows(con.to_arrow_reader(_BATCH_ROWS), max_rows, max_bytes)
            except (duckdb.InterruptException, _Interrupted):
                if watchdog.reason == "memory":
                    raise SQLRunError(
                        f"the query needed more than {self.memory_bytes / 2**20:,.0f} MB of memory and was stopped: "
                        "filter with WHERE, aggregate in SQL, or select shorter values"
                    ) from None
                raise SQLRunError(
                    f"the query ran longer than {timeout_s:g} s and was stopped: filter with WHERE (video_id, "
                    "times), aggregate in SQL, or avoid joining detections to itself"
                ) from None
            except duckdb.PermissionException as exc:
                log.warning("guard let through SQL that DuckDB refused: %r (%s)", checked, exc)
                raise GuardError(f"not allowed: {_first_lines(str(exc), 1)}; {_FILE_HINT}") from None
            except duckdb.Error as exc:
                raise SQLRunError(_first_lines(str(exc))) from None
            finally:
                watchdog.stop()
                with contextlib.suppress(duckdb.Error):
                    con.execute("SELECT 1").fetchall()  # drop what is left of a streamed result
        rows, truncated_by, nbytes = taken
        if truncated_by == "bytes" and not rows:
            raise SQLRunError(
                f"one row of the result is over {max_bytes:,} bytes: select fewer or shorter columns "
                "(e.g. left(text, 200)), or aggregate in SQL"
            )
        return QueryResult(
            sql=checked,
            columns=columns,
            rows=rows,
            truncated=bool(truncated_by),
            seconds=time.perf_counter() - start,
            truncated_by=truncated_by,
            nbytes=nbytes,
        )

    def close(self) -> None:
        with self._con_lock:
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
        raise AgentError(f"memory_limit {size!r}: expected a size such as '1GB' or '512MB'") from None


def _rss() -> int | None:
    """This process's resident memory in bytes (Linux), or None where /proc is not there."""
    try:
        with open("/proc/self/statm", "rb") as f:
            return int(f.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        return None


_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


class _Watchdog:
    """Interrupts the query on `con` when it runs past `timeout_s`, or when this process's RSS grows
    more than `memory_bytes` past what it was when the query started; `reason` says which."""

    def __init__(self, con: duckdb.DuckDBPyConnection, timeout_s: float, memory_bytes: int) -> None:
        self.reason = ""
        self._con = con
        self._deadline = time.monotonic() + timeout_s
        start = _rss()
        self._cap = None if start is None else start + memory_bytes
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="guard-watchdog", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._done.set()
        self._thread.join()

    def _watch(self) -> None:
        while not self._done.wait(_WATCH_EVERY_S):
            if time.monotonic() >= self._deadline:
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


def _catalog_names(con: duckdb.DuckDBPyConnection) -> tuple[set[str], set[str]]:
    views = {r[0].lower() for r in con.execute("SELECT view_name FROM duckdb_views() WHERE NOT internal").fetchall()}
    return views, _function_names(con, internal=False)


def _function_names(con: duckdb.DuckDBPyConnection, *, internal: bool | None = None) -> set[str]:
    where = "" if internal is None else f" AND {'' if internal else 'NOT '}internal"
    rows = con.execute(
        "SELECT DISTINCT lower(function_name) FROM duckdb_functions() "
        f"WHERE function_type IN ('scalar', 'aggregate', 'macro', 'table_macro'){where}"
    ).fetchall()
    return {r[0] for r in rows if not is_denied_function(r[0])}


_RUNNERS: "weakref.WeakKeyDictionary[Memory, GuardedSQL]" = weakref.WeakKeyDictionary()
_RUNNERS_LOCK = threading.Lock()


def guarded(memory: Memory) -> GuardedSQL:
    """The GuardedSQL of an open memory, created on first use and reused while the memory lives.

    It holds its own read-only attachment of the memory's file, released when the memory closes
    (or by `release_guarded(memory)`): DuckDB allows one attachment per file in a process.
    """
    with _RUNNERS_LOCK:
        runner = _RUNNERS.get(memory)
        if runner is None:
            runner = _RUNNERS[memory] = GuardedSQL(memory)
            # Its read-only attachment of the file must not outlive the memory.
            memory.on_close(lambda: release_guarded(memory))
        return runner


def release_guarded(memory: Memory) -> None:
    """Close the GuardedSQL of `memory`, if any (it is created again on next use)."""
    with _RUNNERS_LOCK:
        runner = _RUNNERS.pop(memory, None)
    if runner is not None:
        runner.close()
