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
2. The sandbox (`queries.sandbox`, reading the memory is the queries package's job) runs checked
   SQL on its own DuckDB instance: the memory attached READ_ONLY, external access and Python
   replacement scans off, the configuration locked, a memory limit, a row cap, a byte cap and a
   time limit.

`guarded(memory).run(sql)` is the one call agents and vidmem use: check, then run in the memory's
shared sandbox; a refusal is a `GuardError`, a failure an `SQLRunError`, both written for the model.

    runner = guarded(memory)
    result = runner.run("SELECT count(*) AS n FROM tracks", max_rows=50, timeout_s=5)
    result.columns, result.rows, result.truncated, result.truncated_by, result.seconds

`SELECT * FROM duckdb_settings()` and the other `duckdb_*()` catalog functions are rejected: they
are harmless to the data but show paths and configuration, and the prompt already has the schema.
"""

import contextlib
import functools
import logging
import threading
from collections.abc import Iterable, Iterator
from importlib import resources

import pyarrow as pa
import sqlglot
from sqlglot import exp
from sqlglot.errors import ErrorLevel, SqlglotError

from agents.errors import AgentError, GuardError, SQLRunError
from memory import Memory, metadata
from queries.errors import QueryBusy, QueryError
from queries.readonly import ReadOnlyError
from queries.sandbox import (
    DEFAULT_MAX_BYTES,
    DEFAULT_MAX_ROWS,
    DEFAULT_TIMEOUT_S,
    QueryResult,
    Sandbox,
    shared_sandbox,
)
from queries.sql_names import ParseError, ReadsFilesError, builtin_function_names, split_statements, statement_names

__all__ = [
    "MAX_SQL_CHARS",
    "MEMORY_TABLES",
    "SAFE_TABLE_FUNCTIONS",
    "GuardedSQL",
    "SQLGuard",
    "allowed_functions",
    "builtin_functions",
    "guarded",
    "is_denied_function",
]

log = logging.getLogger(__name__)

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
    return frozenset(n for n in builtin_function_names() if not is_denied_function(n))


#: How a query may begin: SELECT, WITH, DuckDB's FROM-first form, VALUES, TABLE t, or a parenthesis.
_SELECT_WORDS = frozenset({"SELECT", "WITH", "FROM", "VALUES", "TABLE", "("})

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
        except ReadsFilesError as exc:
            raise GuardError(str(exc)) from None
        except ParseError as exc:
            raise GuardError(f"SQL syntax error: {_first_lines(str(exc))}") from None
        if len(statements) != 1:
            raise GuardError(
                f"exactly one statement may run; found {len(statements)} (no stacked statements separated by ';')"
            )
        # By the words written, not only DuckDB's kind: it files ANALYZE under VACUUM, has no kind for
        # UPDATE EXTENSIONS, and rewrites PRAGMA, SHOW, DESCRIBE and SUMMARIZE into SELECTs.
        statement = statements[0]
        if statement.kind != "SELECT" or statement.written not in _SELECT_WORDS:
            raise GuardError(
                "only a read-only SELECT (or WITH ... SELECT) may run; this is "
                f"{'an' if statement.written[0] in 'AEIOU' else 'a'} {statement.written} statement"
            )

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


# -- checking, then running ------------------------------------------------------------------
class GuardedSQL:
    """Model-written SQL checked by `SQLGuard`, then run in a `queries.sandbox.Sandbox`.

    The guard allows the memory's tables plus the views and macros the sandbox sees (the query
    library's, and any stored in the memory). Errors are for the model: GuardError when the SQL
    may not run, SQLRunError when it fails, runs too long or returns too much.
    """

    def __init__(self, sandbox: Sandbox) -> None:
        self.sandbox = sandbox
        self.library_views = sandbox.library_views
        self.library_functions = frozenset(f for f in sandbox.library_functions if not is_denied_function(f))
        functions = allowed_functions() | self.library_functions
        self.guard = SQLGuard(MEMORY_TABLES | self.library_views, functions=functions)

    def run(
        self,
        sql: str,
        *,
        max_rows: int = DEFAULT_MAX_ROWS,
        timeout_s: float = DEFAULT_TIMEOUT_S,
        max_bytes: int = DEFAULT_MAX_BYTES,
        cancel: threading.Event | None = None,
        long_slots: threading.Semaphore | None = None,
    ) -> QueryResult:
        """Check `sql`, run it, return at most `max_rows` rows and `max_bytes` bytes. Raises
        GuardError when it may not run and SQLRunError when it fails, runs past `timeout_s`, is
        cancelled (`cancel` set) or its first row alone is over `max_bytes`; both messages are for
        the model. QueryBusy passes through: the query was shed (`long_slots`, see the sandbox)."""
        checked = self.guard.check(sql)
        try:
            return self.sandbox.run(
                checked, max_rows=max_rows, timeout_s=timeout_s, max_bytes=max_bytes, cancel=cancel,
                long_slots=long_slots,
            )  # fmt: skip
        except QueryBusy:
            raise
        except ReadOnlyError as exc:
            log.warning("guard let through SQL that DuckDB refused: %r (%s)", checked, exc)
            raise GuardError(str(exc)) from None
        except QueryError as exc:
            raise SQLRunError(str(exc)) from None


    @contextlib.contextmanager
    def stream(
        self, sql: str, *, timeout_s: float, cancel: threading.Event | None = None
    ) -> Iterator[tuple[pa.Schema, Iterator[pa.RecordBatch]]]:
        """Check `sql` and stream every row (`Sandbox.stream`: for a file the user asked for, no row
        cap). GuardError / SQLRunError before the block when it may not run or fails to start."""
        checked = self.guard.check(sql)
        with contextlib.ExitStack() as stack:
            try:
                found = stack.enter_context(self.sandbox.stream(checked, timeout_s=timeout_s, cancel=cancel))
            except ReadOnlyError as exc:
                raise GuardError(str(exc)) from None
            except QueryError as exc:
                raise SQLRunError(str(exc)) from None
            yield found


def guarded(memory: Memory) -> GuardedSQL:
    """The one way agents and vidmem run model-written SQL: `guarded(memory).run(sql, ...)`, checked
    here and run in the memory's shared sandbox (`queries.sandbox.shared_sandbox`, released when
    the memory closes). Raises AgentError when the memory cannot be opened read-only for it."""
    try:
        sandbox = shared_sandbox(memory)
    except QueryError as exc:
        raise AgentError(str(exc)) from exc
    return GuardedSQL(sandbox)
