"""Reaching a memory from other tools: SQLAlchemy (pandas, BI tools) through duckdb-engine.

See ACCESS.md beside this file for the DuckDB CLI and plain Python.
"""

from pathlib import Path
from typing import Any
from urllib.parse import quote

from memory import MemoryURI, parse_uri
from queries.errors import QueryError
from queries.lockdown import attach_memory, lock_down, locked_settings
from queries.readonly import check_readonly


def sqlalchemy_url(memory_uri: str | Path | MemoryURI, *, read_only: bool = True) -> str:
    """A duckdb-engine URL for a DuckDB-file memory, read-only and locked down by default.

    >>> sqlalchemy_url("/data/archive.duckdb")  # doctest: +ELLIPSIS
    'duckdb:////data/archive.duckdb?access_mode=read_only&enable_external_access=false...&lock_configuration=true'

    Use it with `sqlalchemy.create_engine(url)` or `pandas.read_sql(sql, url)`. A DuckLake memory
    is attached, not opened by path: use `sqlalchemy_engine`, which does that on connect.
    Within one process, DuckDB opens a file once per configuration: close a writable `Memory` on
    the same file before connecting through SQLAlchemy.
    """
    uri = memory_uri if isinstance(memory_uri, MemoryURI) else parse_uri(memory_uri)
    if uri.kind != "duckdb":
        raise QueryError(
            f"{uri} is a DuckLake memory: there is no URL for it; use queries.sqlalchemy_engine({str(uri)!r})"
        )
    url = "duckdb:///" + quote(uri.location, safe="/:")
    return url + "?access_mode=read_only" + _url_params(uri) if read_only else url


def _url_params(uri: MemoryURI) -> str:
    """`queries.lockdown.lock_down`'s settings as connection parameters: DuckDB applies them when the
    engine connects (no files beside the memory, no Python variables as tables, nothing changes back)."""
    # All booleans: a DuckDB file needs no allowed_directories, and no other knob is asked for.
    return "".join(f"&{name}={str(value).lower()}" for name, value in locked_settings(uri).items())


def sqlalchemy_engine(memory_uri: str | Path | MemoryURI, *, read_only: bool = True) -> Any:
    """A SQLAlchemy engine over the memory (DuckDB file or DuckLake), read-only by default.

    Read-only engines refuse, before DuckDB sees it, any statement that `queries.readonly` refuses
    (COPY, ATTACH, INSTALL/LOAD, SET, writes), and their DuckDB instance is locked down too.

    >>> import pandas as pd                                                          # doctest: +SKIP
    >>> pd.read_sql("SELECT * FROM category_counts", sqlalchemy_engine("archive.duckdb"))  # doctest: +SKIP
    """
    from sqlalchemy import create_engine, event

    uri = memory_uri if isinstance(memory_uri, MemoryURI) else parse_uri(memory_uri)
    if uri.kind == "duckdb":
        engine = create_engine(sqlalchemy_url(uri, read_only=read_only))
        if read_only:
            _check_statements(engine)
        return engine
    engine = create_engine("duckdb:///:memory:")

    @event.listens_for(engine, "connect")
    def _attach(dbapi_con: Any, _record: Any) -> None:
        attach_memory(dbapi_con, uri, "lake", read_only=read_only)
        if read_only:
            lock_down(dbapi_con, uri)

    if read_only:
        _check_statements(engine)
    return engine


def _check_statements(engine: Any) -> None:
    """Refuse, with queries.readonly's one-line reasons, what a read-only engine may not run."""
    from sqlalchemy import event

    @event.listens_for(engine, "before_cursor_execute")
    def _check(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        check_readonly(statement)
