"""The one lock-down of a DuckDB instance that reads a memory: what every read-only path shares.

Three paths read a memory with the same floor under them: the analyst's shell (`vidmem sql`,
`queries.ReadOnlySession`), SQLAlchemy engines (`queries.sqlalchemy_engine`) and the sandbox that
runs model-written SQL (`queries.sandbox`). Each gets from here:

- `attach_memory`: the memory attached (read-only by default) under a catalog name, with the DuckDB
  extensions it needs (a DuckLake's catalog) loaded first;
- `lock_down`: the settings `locked_settings` lists, set in order: only the memory's own data
  folder (a DuckLake's Parquet files) and the `read_dirs` asked for stay reachable, external
  access is off, Python replacement scans are off, and the configuration is locked, so that no
  statement can switch any of it back on. The knobs that differ per path are parameters
  (`memory_limit`, `threads`, `read_dirs`).

A SQLAlchemy URL over a DuckDB file passes the same settings as connection parameters
(`locked_settings(uri)` rendered by `queries.connect`).

    con = duckdb.connect(":memory:")
    attach_memory(con, parse_uri("archive.duckdb"), "vidmem")
    lock_down(con, parse_uri("archive.duckdb"), memory_limit="1GB", threads=1)
    con.execute("SET enable_external_access = true")  # duckdb.InvalidInputException: locked
"""

from collections.abc import Iterable
from pathlib import Path

import duckdb

from memory import MemoryURI, attach_sql, load_extension
from queries.errors import QueryError

__all__ = ["Setting", "attach_memory", "lock_down", "locked_settings"]

#: A DuckDB setting's value: a boolean, a number, text, or a list of text (allowed_directories).
Setting = bool | int | str | list[str]


def locked_settings(
    uri: MemoryURI,
    *,
    read_dirs: Iterable[str | Path] = (),
    memory_limit: str | None = None,
    threads: int | None = None,
) -> dict[str, Setting]:
    """The settings of a locked-down instance over the memory at `uri`, in the order they are set:
    allowed_directories before external access goes off, lock_configuration last.

    >>> locked_settings(MemoryURI("duckdb", "/data/archive.duckdb"), threads=1)
    {'threads': 1, 'enable_external_access': False, 'python_enable_replacements': False, 'lock_configuration': True}
    """
    folders = [str(Path(d).expanduser().resolve()) for d in read_dirs]
    if uri.kind == "ducklake" and uri.data_path:
        folders += _spellings(uri.data_path)  # DuckLake reads its Parquet files through the file system
    settings: dict[str, Setting] = {}
    if folders:
        settings["allowed_directories"] = [f.rstrip("/") + "/" for f in dict.fromkeys(folders)]
    if memory_limit is not None:
        settings["memory_limit"] = memory_limit  # a runaway join fails, not the host
    if threads is not None:
        settings["threads"] = threads
    settings["enable_external_access"] = False
    settings["python_enable_replacements"] = False  # no reading the caller's DataFrames as tables
    settings["lock_configuration"] = True
    return settings


def lock_down(
    con: duckdb.DuckDBPyConnection,
    uri: MemoryURI,
    *,
    read_dirs: Iterable[str | Path] = (),
    memory_limit: str | None = None,
    threads: int | None = None,
) -> None:
    """Set `locked_settings(uri, ...)` on `con`'s database instance (all its connections).

    Run it last: afterwards no setting of the instance can change (search_path still can), and no
    extension can be loaded.
    """
    for name, value in locked_settings(uri, read_dirs=read_dirs, memory_limit=memory_limit, threads=threads).items():
        con.execute(f"SET {name} = {_sql_value(value)}")


def attach_memory(con: duckdb.DuckDBPyConnection, uri: MemoryURI, catalog: str, *, read_only: bool = True) -> None:
    """Attach the memory at `uri` to `con` as `catalog` (read-only unless asked) and make it the
    current database; a DuckLake's catalog extensions are loaded first. Raises QueryError saying why
    it cannot be opened (a writable open of the same file in this process, most often)."""
    try:
        if uri.kind == "ducklake":
            needed = ["ducklake", "sqlite" if uri.location.startswith("sqlite:") else "postgres"]
            missing = [e for e in needed if not load_extension(con, e)]
            if missing:
                raise QueryError(f"cannot open {uri}: DuckDB extensions {missing} unavailable")
        con.execute(attach_sql(uri, catalog, read_only=read_only))
        con.execute(f"USE {catalog}")
    except duckdb.Error as exc:
        message = " ".join(str(exc).strip().splitlines()[:2])
        hint = (
            " The memory is open for writing in this process: open it with read_only=True."
            if read_only and ("conflict" in message.lower() or "lock" in message.lower())
            else ""
        )
        mode = "read-only" if read_only else "for writing"
        raise QueryError(f"cannot open memory {uri} {mode}: {message}.{hint}") from exc


def _spellings(folder: str) -> list[str]:
    """`folder` as given (what DuckLake asks for) and, when local and different, resolved."""
    if "://" in folder:
        return [folder]
    return list(dict.fromkeys([folder, str(Path(folder).expanduser().resolve())]))


def _sql_value(value: Setting) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, list):
        return "[" + ", ".join(_sql_value(v) for v in value) + "]"
    return "'" + value.replace("'", "''") + "'"
