"""Opening a memory and writing one video's rows atomically."""

import contextlib
import logging
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, Self

import duckdb
import pandas as pd
import pyarrow as pa

from memory.ddl import comment_sql, create_table_sql
from memory.errors import SchemaError, StoreError
from memory.extensions import load_extension
from memory.rows import VideoRecord, VideoRows
from memory.schema import SCHEMA_VERSION, VIDEO_TABLES, metadata, schema_info
from memory.uri import DEFAULT_URI, MemoryURI, attach_sql, parse_uri

log = logging.getLogger(__name__)

# Extensions never download behind the user's back; memory.extensions loads them explicitly.
_CONFIG = {"autoinstall_known_extensions": False, "autoload_known_extensions": False}
_LAKE = "lake"

#: Schema migrations: MIGRATIONS[n] upgrades a memory from version n to n + 1, inside a transaction.
MIGRATIONS: dict[int, Callable[[duckdb.DuckDBPyConnection], None]] = {}


@dataclass(frozen=True)
class StoredVideo:
    """What the memory knows about a video already: enough to decide whether to ingest again."""

    video_id: str
    path: str
    status: str
    settings_hash: str | None
    error: str | None


class Memory:
    """An open memory: a DuckDB connection whose current catalog holds the vidmem tables.

    Use `open_memory()` to get one. The raw connection is `memory.con` for anything DuckDB can do;
    the methods here are the operations vidmem itself relies on.
    """

    def __init__(self, uri: MemoryURI, con: duckdb.DuckDBPyConnection, read_only: bool) -> None:
        self.uri = uri
        self.con = con
        self.read_only = read_only
        self._write_lock = threading.Lock()
        self._on_close: list[Callable[[], None]] = []

    def cursor(self) -> duckdb.DuckDBPyConnection:
        """A new cursor (one per thread), already pointed at the memory's catalog."""
        cur = self.con.cursor()
        if self.uri.kind == "ducklake":
            cur.execute(f"USE {_LAKE}")  # cursors do not inherit the connection's USE
        return cur

    # -- reading -------------------------------------------------------------------------------
    def query(self, sql: str, params: Sequence[Any] | dict[str, Any] | None = None) -> pa.Table:
        """Run `sql` with bound `params` on a fresh cursor; rows as an Arrow table."""
        cur = self.cursor()
        try:
            return cur.execute(sql, params).to_arrow_table()
        finally:
            cur.close()

    def query_df(self, sql: str, params: Sequence[Any] | dict[str, Any] | None = None) -> pd.DataFrame:
        return self.query(sql, params).to_pandas()

    def stored_video(self, video_id: str) -> StoredVideo | None:
        rows = self.query(
            "SELECT video_id, path, status, settings_hash, error FROM videos WHERE video_id = ?", [video_id]
        ).to_pylist()
        return StoredVideo(**rows[0]) if rows else None

    def table_counts(self) -> dict[str, int]:
        return {t.name: int(self.query(f"SELECT count(*) AS n FROM {t.name}")["n"][0].as_py()) for t in VIDEO_TABLES}

    def load_extension(self, name: str) -> bool:
        return load_extension(self.con, name)

    # -- writing -------------------------------------------------------------------------------
    def write_video(self, rows: VideoRows) -> None:
        """Replace every row of `rows.record.video_id` with `rows`, in one transaction."""
        video_id = rows.record.video_id
        with self._transaction(f"could not store video {rows.record.path} ({video_id})") as cur:
            for t in VIDEO_TABLES:
                cur.execute(f"DELETE FROM {t.name} WHERE video_id = ?", [video_id])
            self._insert(cur, "videos", rows.record.to_arrow())
            for name, tbl in rows.tables.items():
                if tbl.num_rows:
                    self._insert(cur, name, tbl)

    def record_failure(self, record: VideoRecord) -> None:
        """Record a failed ingestion without losing rows a previous success stored."""
        if record.status != "failed":
            raise SchemaError(f"record_failure needs status 'failed', got {record.status!r}")
        with self._transaction(f"could not record the failure of {record.path}") as cur:
            prev = cur.execute("SELECT status FROM videos WHERE video_id = ?", [record.video_id]).fetchone()
            if prev and prev[0] == "ok":
                # Keep the good rows; remember that the latest attempt failed and why.
                cur.execute("UPDATE videos SET error = ? WHERE video_id = ?", [record.error, record.video_id])
            else:
                cur.execute("DELETE FROM videos WHERE video_id = ?", [record.video_id])
                self._insert(cur, "videos", record.to_arrow())

    def forget_failures(self, path: str, except_video_id: str) -> None:
        """Drop failure records of `path` under other ids: a file that failed before (truncated
        download, no permission) and has now landed under its content id is no longer failed."""
        # Failure rows own no content rows, so one DELETE keeps the memory consistent.
        with self._transaction(f"could not clear old failures of {path}") as cur:
            cur.execute(
                "DELETE FROM videos WHERE path = ? AND status = 'failed' AND video_id <> ?", [path, except_video_id]
            )

    @contextlib.contextmanager
    def _transaction(self, what: str) -> Iterator[duckdb.DuckDBPyConnection]:
        """One writer at a time, one transaction: committed on success, rolled back and raised as
        StoreError(`what`: cause) on any error."""
        self._require_writable()
        with self._write_lock:
            cur = self.cursor()
            try:
                cur.execute("BEGIN TRANSACTION")
                yield cur
                cur.execute("COMMIT")
            except Exception as exc:
                _rollback(cur)
                raise StoreError(f"{what}: {exc}") from exc
            finally:
                cur.close()

    @staticmethod
    def _insert(cur: duckdb.DuckDBPyConnection, name: str, tbl: pa.Table) -> None:
        # Arrow in, BY NAME: one bulk insert per table, column order irrelevant.
        cur.register("_vidmem_rows", tbl)
        try:
            cur.execute(f"INSERT INTO {name} BY NAME SELECT * FROM _vidmem_rows")
        finally:
            cur.unregister("_vidmem_rows")

    def _require_writable(self) -> None:
        if self.read_only:
            raise StoreError(f"memory {self.uri} is open read-only; open it with read_only=False to write")

    # -- lifecycle -----------------------------------------------------------------------------
    def on_close(self, callback: Callable[[], None]) -> None:
        """Run `callback` when the memory closes (e.g. to close connections derived from it)."""
        self._on_close.append(callback)

    def close(self) -> None:
        callbacks, self._on_close = self._on_close, []
        for callback in callbacks:
            callback()
        self.con.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object | TracebackType) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Memory({str(self.uri)!r}, read_only={self.read_only})"


def _rollback(cur: duckdb.DuckDBPyConnection) -> None:
    # The transaction may already be aborted; nothing was committed either way.
    with contextlib.suppress(duckdb.Error):
        cur.execute("ROLLBACK")


def open_memory(uri: str | Path | MemoryURI = DEFAULT_URI, *, read_only: bool = False) -> Memory:
    """Open (and, when writable, create or migrate) the memory at `uri`.

    >>> mem = open_memory("archive.duckdb")                      # doctest: +SKIP
    >>> mem.query("SELECT count(*) FROM videos")                 # doctest: +SKIP
    """
    parsed = uri if isinstance(uri, MemoryURI) else parse_uri(uri)
    con = _connect_ducklake(parsed, read_only) if parsed.kind == "ducklake" else _connect_file(parsed, read_only)
    try:
        _ensure_schema(con, parsed, read_only)
    except BaseException:
        con.close()
        raise
    return Memory(parsed, con, read_only)


def _connect_file(uri: MemoryURI, read_only: bool) -> duckdb.DuckDBPyConnection:
    path = Path(uri.location)
    if read_only and not path.exists():
        raise StoreError(f"no memory at {path}: ingest a video first (vidmem ingest VIDEO --memory {path})")
    if not read_only:
        path.parent.mkdir(parents=True, exist_ok=True)
    try:
        return duckdb.connect(str(path), read_only=read_only, config=dict(_CONFIG))
    except duckdb.IOException as exc:
        if "lock" in str(exc).lower():
            raise StoreError(
                f"memory {path} is locked by another process (a DuckDB file has one writer and no readers "
                "beside it). Wait for it, or use a DuckLake memory (ducklake:sqlite:PATH) for concurrent "
                f"reading while ingesting. DuckDB said: {str(exc).splitlines()[0]}"
            ) from exc
        raise StoreError(f"cannot open memory {path}: {exc}") from exc
    except duckdb.Error as exc:
        raise StoreError(f"cannot open memory {path} (is it a DuckDB file?): {exc}") from exc


def _connect_ducklake(uri: MemoryURI, read_only: bool) -> duckdb.DuckDBPyConnection:
    con = duckdb.connect(":memory:", config=dict(_CONFIG))
    needed = ["ducklake"] + (["sqlite"] if uri.location.startswith("sqlite:") else ["postgres"])
    missing = [name for name in needed if not load_extension(con, name)]
    if missing:
        con.close()
        raise StoreError(
            f"DuckLake memory {uri} needs the DuckDB extensions {missing}, which could not be loaded offline or "
            f"installed: pip install " + " ".join(f"duckdb-extension-{m}=={duckdb.__version__}" for m in missing)
        )
    catalog = uri.location.split(":", 1)[1]
    if uri.location.startswith("sqlite:") and read_only and not Path(catalog).exists():
        con.close()
        raise StoreError(f"no DuckLake catalog at {catalog}: ingest into it first")
    if uri.location.startswith("sqlite:"):
        Path(catalog).parent.mkdir(parents=True, exist_ok=True)
    try:
        con.execute(attach_sql(uri, _LAKE, read_only=read_only))
        con.execute(f"USE {_LAKE}")
    except duckdb.Error as exc:
        con.close()
        raise StoreError(f"cannot attach DuckLake memory {uri}: {exc}") from exc
    return con


def _schema_version(con: duckdb.DuckDBPyConnection) -> int | None:
    exists = con.execute(
        "SELECT count(*) FROM duckdb_tables() WHERE table_name = 'schema_info' AND database_name = current_database()"
    ).fetchone()
    if not exists or not exists[0]:
        return None
    row = con.execute("SELECT value FROM schema_info WHERE key = 'schema_version'").fetchone()
    return int(row[0]) if row else None


def _ensure_schema(con: duckdb.DuckDBPyConnection, uri: MemoryURI, read_only: bool) -> None:
    version = _schema_version(con)
    if version is not None and version > SCHEMA_VERSION:
        raise SchemaError(
            f"memory {uri} has schema version {version}, newer than this vidmem's {SCHEMA_VERSION}: upgrade vidmem"
        )
    if read_only:
        if version is None:
            raise SchemaError(f"{uri} is not a vidmem memory (no schema_info table)")
        if version < SCHEMA_VERSION:
            raise SchemaError(
                f"memory {uri} has schema version {version}; open it once writable to migrate to {SCHEMA_VERSION}"
            )
        return
    con.execute("BEGIN TRANSACTION")
    try:
        if version is None:
            for t in metadata.sorted_tables:
                con.execute(create_table_sql(t))
            if uri.kind == "duckdb":  # DuckLake keeps no comments
                for t in metadata.sorted_tables:
                    for stmt in comment_sql(t):
                        con.execute(stmt)
            con.execute(f"INSERT INTO {schema_info.name} VALUES ('schema_version', ?)", [str(SCHEMA_VERSION)])
        else:
            for v in range(version, SCHEMA_VERSION):
                log.info("migrating memory %s from schema %d to %d", uri, v, v + 1)
                MIGRATIONS[v](con)
            con.execute("UPDATE schema_info SET value = ? WHERE key = 'schema_version'", [str(SCHEMA_VERSION)])
        con.execute("COMMIT")
    except Exception:
        _rollback(con)
        raise
