"""What SQL text is, as DuckDB itself parses it: its statements (their kind, and the kind as the
user wrote it), and what a SELECT names: functions, table functions and tables.

Checks that allow or refuse SQL by the functions and tables it uses (`queries.readonly`, the
agents' guard) read them from DuckDB's own parse tree (`json_serialize_sql`), not from a second
parser's idea of DuckDB: the names are exactly the ones DuckDB would bind.

    >>> names = statement_names("SELECT upper(text) FROM transcript, range(3) WHERE x IN (SELECT 1)")
    >>> sorted(names.functions), sorted(names.table_functions), sorted(t.name for t in names.tables)
    (['upper'], ['range'], ['transcript'])
"""

import functools
import json
import re
import threading
from dataclasses import dataclass, field
from typing import Any

import duckdb

__all__ = ["READS_FILES_TO_PARSE", "ParseError", "ReadsFilesError", "Statement", "StatementNames", "TableRef",
           "builtin_function_names", "split_statements", "statement_names"]

READS_FILES_TO_PARSE = (
    "this statement reads files just to be parsed (IMPORT DATABASE runs the files of a folder): "
    "reading files is not allowed here"
)


class ParseError(ValueError):
    """DuckDB could not parse the text (as one SELECT, for `statement_names`); the message is DuckDB's."""


class ReadsFilesError(ParseError):
    """Parsing the text would read files (IMPORT DATABASE reads a folder's SQL while splitting)."""


@dataclass(frozen=True)
class Statement:
    """One statement of SQL text: DuckDB's kind ('SELECT', 'INSERT', 'VACUUM', '???'...), its text,
    and its kind as the user wrote it (its leading keywords: 'ANALYZE', 'UPDATE EXTENSIONS',
    'PRAGMA'), which is what a message should name: DuckDB files ANALYZE under VACUUM, has no name for
    UPDATE EXTENSIONS and rewrites PRAGMA and SHOW into SELECTs.

    >>> [(s.kind, s.written) for s in split_statements("ANALYZE; UPDATE EXTENSIONS; with t as (select 1) from t")]
    [('VACUUM', 'ANALYZE'), ('???', 'UPDATE EXTENSIONS'), ('SELECT', 'WITH')]
    >>> [(s.kind, s.written, s.text) for s in split_statements("pragma version")]
    [('SELECT', 'PRAGMA', 'SELECT * FROM pragma_version();')]
    """

    kind: str
    text: str
    written: str


#: Keywords whose next word belongs to the statement's name.
_TWO_WORDS = frozenset({"UPDATE EXTENSIONS", "FORCE CHECKPOINT", "EXPORT DATABASE", "IMPORT DATABASE", "COPY FROM"})


def _written(text: str) -> str:
    text = re.sub(r"/\*.*?\*/|--[^\n]*", " ", text, flags=re.DOTALL)  # comments before the first keyword
    words = re.findall(r"[A-Za-z_]+|\(", text)[:2]
    if not words:
        return "empty"
    pair = " ".join(words).upper()
    return pair if pair in _TWO_WORDS else words[0].upper()


@dataclass(frozen=True)
class TableRef:
    """A table named in FROM: `catalog.schema.name` (parts empty when not written)."""

    name: str
    schema: str = ""
    catalog: str = ""

    def qualified(self) -> str:
        return ".".join(p for p in (self.catalog, self.schema, self.name) if p)


@dataclass(frozen=True)
class StatementNames:
    functions: frozenset[str] = frozenset()  # scalar, aggregate and window functions, operators included
    table_functions: frozenset[str] = frozenset()  # functions in FROM
    tables: tuple[TableRef, ...] = ()
    ctes: frozenset[str] = field(default_factory=frozenset)


@functools.cache
def _parser() -> tuple[duckdb.DuckDBPyConnection, threading.Lock]:
    # A private instance that only parses: nothing is attached, nothing runs. Parsing is not always
    # harmless: DuckDB expands IMPORT DATABASE 'DIR' while splitting, by reading DIR/schema.sql and
    # DIR/load.sql, so the instance has no file access and its configuration is locked.
    config: dict[str, str | bool | int | float | list[str]] = {
        "autoload_known_extensions": False,
        "autoinstall_known_extensions": False,
        "enable_external_access": False,
        "lock_configuration": True,
    }
    return duckdb.connect(":memory:", config=config), threading.Lock()


def split_statements(sql: str) -> list[Statement]:
    """DuckDB's own split of `sql` into statements, on the private parser instance:
    `duckdb.extract_statements` uses the process's default connection, which any other code (a
    notebook, a library, a test) may have left in an aborted transaction.

    Raises ParseError (DuckDB's message, blank lines dropped) when `sql` does not parse, and
    ReadsFilesError when parsing it would read a file (IMPORT DATABASE).
    """
    con, lock = _parser()
    with lock:
        cur = con.cursor()
        try:
            found = list(cur.extract_statements(sql))
        except duckdb.PermissionException:
            raise ReadsFilesError(READS_FILES_TO_PARSE) from None
        except duckdb.Error as exc:
            raise ParseError("\n".join(line for line in str(exc).strip().splitlines() if line.strip())) from None
        finally:
            cur.close()
    # DuckDB hands back some statements rewritten (PRAGMA version -> SELECT * FROM pragma_version()):
    # a lone statement is named from the text as given
    return [Statement(s.type.name, s.query.strip(), _written(sql if len(found) == 1 else s.query)) for s in found]


@functools.cache
def builtin_function_names() -> frozenset[str]:
    """DuckDB's built-in scalar, aggregate and macro functions (lower case), from a bare instance."""
    con = duckdb.connect(":memory:", config={"autoload_known_extensions": False})
    try:
        rows = con.execute(
            "SELECT DISTINCT lower(function_name) FROM duckdb_functions() "
            "WHERE function_type IN ('scalar', 'aggregate', 'macro')"
        ).fetchall()
    finally:
        con.close()
    return frozenset(str(r[0]) for r in rows)


def _serialized(sql: str) -> tuple[Any, ...] | None:
    con, lock = _parser()
    with lock:
        cur = con.cursor()  # its own transaction context: one failed parse cannot poison the next
        try:
            return cur.execute("SELECT json_serialize_sql(?::VARCHAR)", [sql]).fetchone()
        except (duckdb.TransactionException, duckdb.FatalException):
            raise
        except duckdb.Error as exc:
            raise ParseError(str(exc).splitlines()[0]) from None
        finally:
            cur.close()


def statement_names(sql: str) -> StatementNames:
    """The names one SELECT statement uses (lower-cased function names, tables as written).

    Raises ParseError when DuckDB cannot read it as SELECT statements (its message says why).
    """
    try:
        row = _serialized(sql)
    except (duckdb.TransactionException, duckdb.FatalException):
        # The shared parser instance itself is unusable (seen once in a full test run: "Current
        # transaction is aborted"): a parse must not fail for that, so start a fresh one.
        _parser.cache_clear()
        row = _serialized(sql)
    tree = json.loads(row[0]) if row else {"error": True, "error_message": "no parse"}
    if tree.get("error"):
        raise ParseError(str(tree.get("error_message", "cannot parse")))
    functions: set[str] = set()
    table_functions: set[str] = set()
    tables: list[TableRef] = []
    ctes: set[str] = set()
    _walk(tree.get("statements", []), functions, table_functions, tables, ctes)
    return StatementNames(frozenset(functions), frozenset(table_functions), tuple(tables), frozenset(ctes))


def _walk(node: Any, functions: set[str], table_functions: set[str], tables: list[TableRef], ctes: set[str]) -> None:
    if isinstance(node, list):
        for item in node:
            _walk(item, functions, table_functions, tables, ctes)
        return
    if not isinstance(node, dict):
        return
    kind = node.get("type")
    if kind == "TABLE_FUNCTION" and isinstance(node.get("function"), dict):
        table_functions.add(str(node["function"].get("function_name", "")).lower())
        _walk(node["function"].get("children", []), functions, table_functions, tables, ctes)
        for key, value in node.items():
            if key != "function":
                _walk(value, functions, table_functions, tables, ctes)
        return
    if kind == "BASE_TABLE":
        parts = (str(node.get(key, "")) for key in ("table_name", "schema_name", "catalog_name"))
        tables.append(TableRef(*parts))
    if node.get("class") in ("FUNCTION", "WINDOW") and "function_name" in node:
        functions.add(str(node["function_name"]).lower())
    cte_map = node.get("cte_map")
    if isinstance(cte_map, dict):
        ctes.update(str(entry.get("key", "")).lower() for entry in cte_map.get("map", []) if isinstance(entry, dict))
    for value in node.values():
        if isinstance(value, dict | list):
            _walk(value, functions, table_functions, tables, ctes)
