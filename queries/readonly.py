"""A read-only SQL session over a memory, for analysts (`vidmem sql`) and SQLAlchemy engines.

Nothing run in it can change or destroy the memory or any file. Two layers:

1. DuckDB's own locks, the floor (`queries.lockdown.lock_down`, shared with SQLAlchemy engines and
   the sandbox): the memory is open read-only, external access is off (only what the memory itself
   needs stays reachable: a DuckLake's data folder, plus the folders an analyst named with
   `read_dirs`), Python replacement scans are off, and the configuration is locked, so no statement
   can switch any of that back on.
2. `check_readonly`, before anything runs: DuckDB's own parser splits the text into statements;
   only SELECT (also DESCRIBE, SHOW, SUMMARIZE, PRAGMA table_info, EXPLAIN of a SELECT) may run,
   and the functions a SELECT names are read from DuckDB's parse tree: those that write, log,
   run SQL text or change state are refused, and those that read files need `read_dirs`. Each
   refusal is a `ReadOnlyError` whose one-line message says what to do instead (results go to
   files through `vidmem sql --format ... --output FILE`).

    with open_memory("archive.duckdb", read_only=True) as mem:
        session = ReadOnlySession(mem)
        session.run("SELECT count(*) FROM tracks")          # a pyarrow Table
        session.run("COPY tracks TO 'x.csv'")               # ReadOnlyError: COPY writes files ...
"""

import contextlib
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

import duckdb
import pyarrow as pa

from memory import Memory
from queries.errors import QueryError
from queries.library import cursor
from queries.lockdown import lock_down
from queries.run import duckdb_message
from queries.sql_names import ParseError, split_statements, statement_names

__all__ = ["ReadOnlyError", "ReadOnlySession", "check_readonly"]


class ReadOnlyError(QueryError):
    """A statement that a read-only session refuses; the message is one line saying why."""


_OUTPUT_HINT = "write results with --format csv|json|parquet --output FILE"
_READ_HINT = "reading files needs --allow-read DIR (vidmem sql) or read_dirs= (queries.ReadOnlySession)"

#: Why each kind of statement is refused (DuckDB's StatementType names).
_REFUSED: dict[str, str] = {
    "COPY": f"COPY reads or writes files and cannot run here; {_OUTPUT_HINT}",
    "EXPORT": f"EXPORT DATABASE writes files and cannot run here; {_OUTPUT_HINT}",
    "COPY_DATABASE": "COPY FROM DATABASE writes another database and cannot run here",
    "ATTACH": "ATTACH opens another database and cannot run here; open it on its own (vidmem sql -m OTHER)",
    "DETACH": "DETACH cannot run here: the session reads only this memory",
    "LOAD": "INSTALL and LOAD cannot run here: the extensions the memory needs are loaded already",
    "EXTENSION": "extensions cannot be installed or updated here",
    "UPDATE_EXTENSIONS": "extensions cannot be installed or updated here",
    "SET": "SET, RESET and USE cannot run here: the settings of a read-only session are locked",
    "VARIABLE_SET": "SET VARIABLE cannot run here: the settings of a read-only session are locked",
    "PRAGMA": "this PRAGMA changes a setting, and the settings of a read-only session are locked",
    "CALL": "CALL cannot run here; for a table function write SELECT * FROM function(...)",
    "TRANSACTION": "transactions are not needed here: every query reads the memory as it is",
    "PREPARE": "PREPARE and EXECUTE cannot run here; write the query itself",
    "EXECUTE": "PREPARE and EXECUTE cannot run here; write the query itself",
}
_WRITES = "{kind} would change the memory, and this session is read-only (vidmem ingest writes the memory)"

#: Functions refused whatever the flags: they write files or logs, run SQL text (which this check
#: would not see), change state, or reach other databases.
_NEVER = frozenset(
    {
        "enable_logging", "disable_logging", "truncate_duckdb_logs", "write_log", "enable_profiling",
        "disable_profiling", "checkpoint", "force_checkpoint", "query", "query_table",
        "json_execute_serialized_sql", "python_map_function", "pandas_scan", "arrow_scan", "arrow_scan_dumb",
        "setseed", "nextval", "make_secret", "load_extension", "install_extension",
    }
)  # fmt: skip
_NEVER_SUFFIXES = ("_attach", "_execute", "_query", "_clear_cache")
#: DuckLake's functions that only read (snapshots, file lists); the others rewrite or delete files.
_DUCKLAKE_READS = frozenset(
    {"ducklake_snapshots", "ducklake_table_info", "ducklake_list_files", "ducklake_table_changes",
     "ducklake_table_insertions", "ducklake_table_deletions", "ducklake_current_snapshot",
     "ducklake_last_committed_snapshot", "ducklake_options", "ducklake_settings"}
)  # fmt: skip
#: Functions that read files (allowed with read_dirs, and then only inside those folders).
_FILE_PREFIXES = ("read_", "parquet_", "iceberg_", "delta_", "st_read")
_FILE_NAMES = frozenset({"glob", "sniff_csv", "sqlite_scan", "postgres_scan", "mysql_scan"})

_EXPLAIN = re.compile(r"^\s*EXPLAIN\s+(?:ANALYZE\s+|\(\s*FORMAT\s+\w+\s*\)\s+)?", re.IGNORECASE)


def _refused_function(name: str, allow_read_files: bool) -> str | None:
    """Why function `name` may not run, or None."""
    if name in _NEVER or name.endswith(_NEVER_SUFFIXES):
        return f"{name}() cannot run here: it writes, logs, runs SQL text or changes state"
    if name.startswith("ducklake_") and name not in _DUCKLAKE_READS:
        return f"{name}() cannot run here: it rewrites the DuckLake's files"
    if not allow_read_files and (name in _FILE_NAMES or name.startswith(_FILE_PREFIXES)):
        return f"{name}() reads files: {_READ_HINT}"
    return None


def _looks_like_file(name: str) -> bool:
    return any(ch in name for ch in "/\\:*~") or bool(re.search(r"\.\w+$", name))


def check_readonly(sql: str, *, allow_read_files: bool = False) -> list[str]:
    """The statements of `sql`, each checked; raises ReadOnlyError (one line) at the first that
    may not run, before any of them runs."""
    if not sql.strip():
        raise ReadOnlyError("empty SQL: give a SELECT statement")
    try:
        statements = split_statements(sql)
    except ParseError as exc:
        raise ReadOnlyError(_one_line(str(exc)), sql=sql) from None
    if not statements:
        raise ReadOnlyError("no statement found: give a SELECT statement", sql=sql)
    texts = []
    for statement in statements:
        text, kind = statement.text, statement.kind
        if kind == "EXPLAIN":
            inner = _EXPLAIN.sub("", text, count=1)
            if inner == text:
                raise ReadOnlyError("write EXPLAIN as EXPLAIN [ANALYZE] SELECT ...", sql=text)
            check_readonly(inner, allow_read_files=allow_read_files)
        elif kind == "SELECT":
            _check_select(text, allow_read_files)
        elif re.match(r"(?i)(FORCE\s+)?CHECKPOINT\b", text):
            raise ReadOnlyError("CHECKPOINT writes the memory, and this session is read-only", sql=text)
        else:
            # by DuckDB's kind, else as written: DuckDB names ANALYZE 'VACUUM' and UPDATE EXTENSIONS nothing
            written = statement.written
            reason = _REFUSED.get(kind) or _REFUSED.get(written.replace(" ", "_")) or _WRITES.format(kind=written)
            raise ReadOnlyError(reason, sql=text)
        texts.append(text)
    return texts


def _check_select(text: str, allow_read_files: bool) -> None:
    try:
        names = statement_names(text)
    except ParseError as exc:
        raise ReadOnlyError(f"cannot check this SELECT: {exc}", sql=text) from None
    for name in sorted(names.table_functions | names.functions):
        why = _refused_function(name, allow_read_files)
        if why:
            raise ReadOnlyError(why, sql=text)
    if not allow_read_files:
        for table in names.tables:
            bare = not table.schema and not table.catalog and table.name.lower() not in names.ctes
            if bare and _looks_like_file(table.name):
                raise ReadOnlyError(f"FROM '{table.name}' reads a file: {_READ_HINT}", sql=text)


class ReadOnlySession:
    """Runs checked statements over a read-only memory whose DuckDB instance is locked down.

    The memory must be open read-only; its instance stays locked until it is closed (DuckDB has no
    unlock), so open a separate one for writing.
    """

    def __init__(self, memory: Memory, *, read_dirs: Iterable[str | Path] = ()) -> None:
        if not memory.read_only:
            raise QueryError(f"a read-only session needs the memory open read-only: open_memory({str(memory.uri)!r}, "
                             "read_only=True)")  # fmt: skip
        self.memory = memory
        self.read_dirs = tuple(Path(d).expanduser().resolve() for d in read_dirs)
        missing = [str(d) for d in self.read_dirs if not d.is_dir()]
        if missing:
            raise QueryError(f"no such folder to read from: {', '.join(missing)}")
        memory.load_extension("fts")  # the keyword index's match_bm25, if the memory has one
        self._cur = cursor(memory)  # the query library in reach, before the settings lock
        memory.on_close(self.close)  # the locked instance goes with the memory, cursor included
        lock_down(memory.con, memory.uri, read_dirs=self.read_dirs)

    @property
    def allow_read_files(self) -> bool:
        return bool(self.read_dirs)

    def run(self, sql: str) -> pa.Table:
        """Every statement of `sql` checked, then run in order; the last one's rows.

        Raises ReadOnlyError for a refused statement (nothing ran) and QueryError with DuckDB's
        message when a statement fails.
        """
        statements = check_readonly(sql, allow_read_files=self.allow_read_files)
        result = pa.table({})
        for text in statements:
            try:
                result = self._cur.execute(text).to_arrow_table()
            except duckdb.PermissionException as exc:
                raise ReadOnlyError(f"not allowed in a read-only session: {_one_line(str(exc))}", sql=text) from exc
            except duckdb.Error as exc:
                raise QueryError(duckdb_message(exc), sql=text) from exc
        return result

    def stream(self, sql: str, *, batch_rows: int = 65_536) -> tuple[pa.Schema, Iterator[pa.RecordBatch]]:
        """Like `run`, but the last statement's rows as Arrow batches, for a file of any size (the
        earlier statements run first). Iterate before the next call on this session."""
        statements = check_readonly(sql, allow_read_files=self.allow_read_files)
        for i, text in enumerate(statements):
            try:
                if i < len(statements) - 1:
                    self._cur.execute(text).fetchall()
                    continue
                reader = self._cur.execute(text).to_arrow_reader(batch_rows)
            except duckdb.PermissionException as exc:
                raise ReadOnlyError(f"not allowed in a read-only session: {_one_line(str(exc))}", sql=text) from exc
            except duckdb.Error as exc:
                raise QueryError(duckdb_message(exc), sql=text) from exc
        return reader.schema, _batches(reader, statements[-1])

    def close(self) -> None:
        with contextlib.suppress(duckdb.Error):
            self._cur.close()


def _batches(reader: pa.RecordBatchReader, sql: str) -> Iterator[pa.RecordBatch]:
    while True:
        try:
            yield reader.read_next_batch()
        except StopIteration:
            return
        except Exception as exc:  # DuckDB's error while the rows are produced
            raise QueryError(duckdb_message(str(exc)), sql=sql) from None


def _one_line(message: str) -> str:
    return " ".join(message.split())
