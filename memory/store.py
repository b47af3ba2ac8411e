"""Opening a memory and writing one video's rows atomically."""

import contextlib
import json
import logging
import random
import re
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from types import TracebackType
from typing import Any, Self

import duckdb
import pandas as pd
import pyarrow as pa

from memory.ddl import comment_sql, create_table_sql
from memory.errors import SchemaError, StoreError
from memory.extensions import load_extension
from memory.migrations import MIGRATIONS
from memory.rows import RoleState, VideoRecord, VideoRows
from memory.schema import SCHEMA_VERSION, VIDEO_TABLES, metadata, schema_info
from memory.uri import DEFAULT_URI, MemoryURI, attach_sql, parse_uri

log = logging.getLogger(__name__)

# Extensions never download behind the user's back; memory.extensions loads them explicitly.
_CONFIG = {"autoinstall_known_extensions": False, "autoload_known_extensions": False}
_LAKE = "lake"

#: A commit that loses a race with another writer of the same DuckLake catalog is tried again this
#: many times in all, after a growing, jittered pause (two ingests into one lake both land).
COMMIT_ATTEMPTS = 12
_FIRST_BACKOFF_S, _MAX_BACKOFF_S = 0.05, 2.0

__all__ = ["MIGRATIONS", "FailedFile", "Memory", "StoredVideo", "open_memory"]


@dataclass(frozen=True)
class StoredVideo:
    """What the memory knows about a video already: enough to decide whether to ingest again."""

    video_id: str
    path: str
    status: str
    settings_hash: str | None
    error: str | None


@dataclass(frozen=True)
class FailedFile:
    """A file whose latest ingestion failed: where it was, how big it was then, and why."""

    path: str
    size_bytes: int | None  # None: the file did not exist (or could not be read) when it failed
    error: str


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

    def role_states(self, video_id: str | None = None) -> dict[str, dict[str, RoleState]]:
        """video id -> role -> what `role_runs` holds (of one video, or of all)."""
        where, params = ("WHERE video_id = ?", [video_id]) if video_id else ("", [])
        rows = self.query(
            "SELECT video_id, role, status, reason, settings_hash, settings, attempt_settings_hash "
            f"FROM role_runs {where}",
            params,
        ).to_pylist()
        out: dict[str, dict[str, RoleState]] = {}
        for r in rows:
            video_id_, role = r.pop("video_id"), r.pop("role")
            out.setdefault(video_id_, {})[role] = RoleState(**r)
        return out

    def failed_files(self, settings_hash: str) -> dict[str, FailedFile]:
        """path -> the failure recorded for it by a run with these settings (`settings_hash`):
        what lets a batch leave an unchanged bad file alone instead of failing on it again.
        A failure recorded without a reason reads as 'failed'."""
        rows = self.query(
            "SELECT path, size_bytes, error FROM videos WHERE status = 'failed' AND settings_hash = ?", [settings_hash]
        ).to_pylist()
        return {r["path"]: FailedFile(r["path"], r["size_bytes"], r["error"] or "failed") for r in rows}

    # -- writing -------------------------------------------------------------------------------
    def write_video(self, rows: VideoRows) -> None:
        """Store one video's rows in one transaction.

        Without `rows.runs`, every row of the video is replaced. With them, each role that ran 'ok'
        has its tables replaced and its `role_runs` row rewritten; a role that failed or was skipped
        keeps its rows, and its `role_runs` row only records how the latest run went.
        """
        video_id = rows.record.video_id

        def replace_all(cur: duckdb.DuckDBPyConnection) -> None:
            for t in VIDEO_TABLES:
                cur.execute(f"DELETE FROM {t.name} WHERE video_id = ?", [video_id])
            self._insert(cur, "videos", rows.record.to_arrow())
            for name, tbl in rows.tables.items():
                if tbl.num_rows:
                    self._insert(cur, name, tbl)

        def replace_roles(cur: duckdb.DuckDBPyConnection) -> None:
            at = rows.record.ingested_at
            prev = cur.execute("SELECT roles FROM videos WHERE video_id = ? AND status = 'ok'", [video_id]).fetchone()
            roles = {**(json.loads(prev[0] or "{}") if prev else {}), **rows.record.roles}
            cur.execute("DELETE FROM videos WHERE video_id = ?", [video_id])
            self._insert(cur, "videos", replace(rows.record, roles=roles).to_arrow())
            for run in rows.runs:
                if run.status == "ok":
                    counts: dict[str, int] = {}
                    for name in run.tables:
                        cur.execute(f"DELETE FROM {name} WHERE video_id = ?", [video_id])
                        tbl = rows.tables.get(name)
                        counts[name] = tbl.num_rows if tbl is not None else 0
                        if tbl is not None and tbl.num_rows:
                            self._insert(cur, name, tbl)
                    cur.execute("DELETE FROM role_runs WHERE video_id = ? AND role = ?", [video_id, run.role])
                    self._insert(cur, "role_runs", run.to_arrow(video_id, counts, at))
                    continue
                known = cur.execute(
                    "SELECT count(*) FROM role_runs WHERE video_id = ? AND role = ?", [video_id, run.role]
                ).fetchone()
                if known and known[0]:
                    cur.execute(
                        "UPDATE role_runs SET status = ?, reason = ?, attempt_settings_hash = ?, attempted_at = ? "
                        "WHERE video_id = ? AND role = ?",
                        [run.status, run.reason, run.settings_hash, at, video_id, run.role],
                    )
                else:
                    self._insert(cur, "role_runs", run.to_arrow(video_id, {}, at))

        what = f"could not store video {rows.record.path} ({video_id})"
        self._write(what, replace_roles if rows.runs else replace_all)

    def record_failure(self, record: VideoRecord) -> None:
        """Record a failed ingestion of `record.path` without losing rows a previous success stored.

        Failures are kept per path: two copies of one bad file each keep their own row and reason.
        """
        if record.status != "failed":
            raise SchemaError(f"record_failure needs status 'failed', got {record.status!r}")

        def body(cur: duckdb.DuckDBPyConnection) -> None:
            good = cur.execute(
                "SELECT video_id FROM videos WHERE status = 'ok' AND (video_id = ? OR content_hash = ?)",
                [record.video_id, record.content_hash],
            ).fetchall()
            if good:
                # Keep the good rows; remember that the latest attempt failed and why.
                for (vid,) in good:
                    cur.execute("UPDATE videos SET error = ? WHERE video_id = ?", [record.error, vid])
                return
            cur.execute("DELETE FROM videos WHERE status = 'failed' AND path = ?", [record.path])
            self._insert(cur, "videos", record.to_arrow())

        self._write(f"could not record the failure of {record.path}", body)

    def forget_failures(self, path: str, except_video_id: str) -> None:
        """Drop failure records of `path` under other ids: a file that failed before (truncated
        download, no permission) and has now landed under its content id is no longer failed."""
        # Failure rows own no content rows, so one DELETE keeps the memory consistent.
        self._write(
            f"could not clear old failures of {path}",
            lambda cur: cur.execute(
                "DELETE FROM videos WHERE path = ? AND status = 'failed' AND video_id <> ?", [path, except_video_id]
            ),
        )

    def _write(self, what: str, body: Callable[[duckdb.DuckDBPyConnection], object]) -> None:
        """Run `body` in one transaction, one writer at a time in this process. A commit that
        conflicts with another process writing the same DuckLake catalog is tried again (bounded,
        with backoff); any other error rolls back and is raised as StoreError(`what`: cause)."""
        self._require_writable()
        pause = _FIRST_BACKOFF_S
        for attempt in range(1, COMMIT_ATTEMPTS + 1):
            with self._write_lock:
                cur: duckdb.DuckDBPyConnection | None = None
                try:
                    cur = self.cursor()
                    cur.execute("BEGIN TRANSACTION")
                    body(cur)
                    cur.execute("COMMIT")
                    return
                except Exception as exc:
                    if cur is not None:
                        _rollback(cur)
                    if not (is_conflict(exc) and attempt < COMMIT_ATTEMPTS):
                        raise StoreError(f"{what}: {exc}") from exc
                    log.info("%s: commit conflict with another writer (try %d), trying again", what, attempt)
                finally:
                    if cur is not None:
                        cur.close()
            time.sleep(pause * (1 + random.random()))
            pause = min(pause * 2, _MAX_BACKOFF_S)

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


def is_conflict(exc: BaseException) -> bool:
    """Whether `exc` is a lost race with another writer of a DuckLake catalog: a 'Transaction
    conflict', or its SQLite catalog busy with the other's commit ('database is locked')."""
    text = str(exc).lower()
    return isinstance(exc, duckdb.Error) and ("conflict" in text or "database is locked" in text)


def _rollback(cur: duckdb.DuckDBPyConnection) -> None:
    # The transaction may already be aborted; nothing was committed either way.
    with contextlib.suppress(duckdb.Error):
        cur.execute("ROLLBACK")


def open_memory(
    uri: str | Path | MemoryURI = DEFAULT_URI, *, read_only: bool = False, salvage: bool = False
) -> Memory:
    """Open (and, when writable, create or migrate) the memory at `uri`.

    `salvage` (read-only only) opens a DuckDB file that the size check finds damaged, to copy out
    what can still be read (`export_memory(..., salvage=True)`); reads of missing blocks then fail.

    >>> mem = open_memory("archive.duckdb")                      # doctest: +SKIP
    >>> mem.query("SELECT count(*) FROM videos")                 # doctest: +SKIP
    """
    parsed = uri if isinstance(uri, MemoryURI) else parse_uri(uri)
    if salvage and not read_only:
        raise StoreError("a damaged memory is only ever opened read-only (salvage=True needs read_only=True)")
    con = (
        _connect_ducklake(parsed, read_only)
        if parsed.kind == "ducklake"
        else _connect_file(parsed, read_only, check_intact=not salvage)
    )
    try:
        _ensure_schema(con, parsed, read_only)
    except duckdb.Error as exc:
        if not salvage:  # salvaging: the tables that read are copied whatever schema_info says
            con.close()
            raise StoreError(f"cannot read the schema of memory {parsed}: {exc}") from exc
    except BaseException:
        con.close()
        raise
    return Memory(parsed, con, read_only)


def _connect_file(uri: MemoryURI, read_only: bool, *, check_intact: bool = True) -> duckdb.DuckDBPyConnection:
    path = Path(uri.location)
    if read_only and not path.exists():
        raise StoreError(f"no memory at {path}: ingest a video first (vidmem ingest VIDEO --memory {path})")
    if not read_only:
        path.parent.mkdir(parents=True, exist_ok=True)
    try:
        con = duckdb.connect(str(path), read_only=read_only, config=dict(_CONFIG))
    except duckdb.IOException as exc:
        if any(sign in str(exc) for sign in _DAMAGE_SIGNS):
            raise StoreError(_damaged(path, str(exc).splitlines()[0], salvageable=False)) from exc
        if is_locked(exc):
            raise StoreError(
                f"memory {path} is locked by another process (a DuckDB file has one writer and no readers "
                "beside it). Wait for it, or use a DuckLake memory (ducklake:sqlite:PATH) for concurrent "
                f"reading while ingesting. DuckDB said: {str(exc).splitlines()[0]}"
            ) from exc
        raise StoreError(f"cannot open memory {path}: {exc}") from exc
    except duckdb.Error as exc:
        raise StoreError(f"cannot open memory {path} (is it a DuckDB file?): {exc}") from exc
    try:
        if check_intact:
            _check_intact(con, path)
    except BaseException:
        con.close()
        raise
    return con


def is_locked(exc: BaseException) -> bool:
    """DuckDB refused the file because another process holds its lock. The word, not the letters:
    a damaged file's message names pragma_storage_info's block_id, and 'block' holds 'lock' (an
    ingest once waited ten minutes for a lock on a file cut in half)."""
    return re.search(r"\block\b", str(exc), re.IGNORECASE) is not None


#: DuckDB's words for a file whose blocks are missing or garbled.
_DAMAGE_SIGNS = ("Could not read enough bytes", "Corrupt database file", "checksum")
#: A DuckDB file starts with three 4 KiB headers, then its blocks.
_FILE_HEADERS_BYTES = 3 * 4096


def _check_intact(con: duckdb.DuckDBPyConnection, path: Path) -> None:
    """Refuse a file shorter than the last block its tables' data lies in (a copy cut short, a disk
    that filled mid-copy): DuckDB opens such a file, then fails on the first read of a missing block,
    and a write into it leaves even the tables that could still be read unreadable. (Not the header's
    block count: trailing free blocks may be cut off a healthy file.) Reads metadata only."""
    if Path(f"{path}.wal").exists():
        return  # blocks in a write-ahead log are not in the file yet
    try:
        needed = _data_bytes(con)
    except duckdb.IOException as exc:  # a metadata block itself is missing
        raise StoreError(_damaged(path, str(exc).splitlines()[0])) from exc
    except duckdb.Error:  # a catalog this check does not know: DuckDB's own errors come on reading
        return
    size = path.stat().st_size
    if needed is not None and size < needed:
        raise StoreError(_damaged(path, f"it holds {size:,} bytes where its tables' data needs {needed:,}"))


def _data_bytes(con: duckdb.DuckDBPyConnection) -> int | None:
    """Bytes up to the end of the last block any table's data lies in (None: no data blocks)."""
    block_size = con.execute("SELECT block_size FROM pragma_database_size()").fetchone()
    tables = con.execute(
        "SELECT schema_name, table_name FROM duckdb_tables() WHERE database_name = current_database() "
        "AND NOT temporary"
    ).fetchall()
    last = -1
    for schema, name in tables:  # full-text indexes keep theirs in schemas of their own
        qualified = ".".join('"' + part.replace('"', '""') + '"' for part in (schema, name)).replace("'", "''")
        sql = f"SELECT max(block_id) FROM pragma_storage_info('{qualified}') WHERE block_id >= 0"
        row = con.execute(sql).fetchone()
        if row and row[0] is not None:
            last = max(last, int(row[0]))
    if block_size is None or last < 0:
        return None
    return _FILE_HEADERS_BYTES + int(block_size[0]) * (last + 1)


def _damaged(path: Path, detail: str, *, salvageable: bool = True) -> str:
    """The refusal in words; the salvage advice only when DuckDB could open the file at all."""
    salvage = (
        f"copy out the tables that can still be read (vidmem export SALVAGED.duckdb --salvage --memory {path}), "
        if salvageable
        else ""
    )
    return (
        f"memory {path} is damaged ({detail}); it was not opened, and nothing was written to it. Restore it "
        f"from a backup, {salvage}or re-ingest the videos into a new memory (vidmem ingest VIDEOS --memory NEW.duckdb)"
    )


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
    if version == SCHEMA_VERSION:
        # Current: nothing is written, so that writers of one DuckLake catalog never race on the check.
        # The empty transaction ends the read one DuckLake left open on its SQLite catalog, whose
        # lock would otherwise block every other connection's commits.
        con.execute("BEGIN TRANSACTION")
        con.execute("COMMIT")
        return
    con.execute("BEGIN TRANSACTION")
    try:
        if version is None:
            for t in metadata.sorted_tables:
                con.execute(create_table_sql(t))
            con.execute(f"INSERT INTO {schema_info.name} VALUES ('schema_version', ?)", [str(SCHEMA_VERSION)])
        else:
            for v in range(version, SCHEMA_VERSION):
                log.info("migrating memory %s from schema %d to %d", uri, v, v + 1)
                MIGRATIONS[v](con)
            con.execute("UPDATE schema_info SET value = ? WHERE key = 'schema_version'", [str(SCHEMA_VERSION)])
        if uri.kind == "duckdb":  # DuckLake keeps no comments
            for t in metadata.sorted_tables:
                for stmt in comment_sql(t):
                    con.execute(stmt)
        con.execute("COMMIT")
    except Exception as exc:
        _rollback(con)
        # Another process migrated it at the same time: fine if it now is current.
        if version is not None and is_conflict(exc) and _schema_version(con) == SCHEMA_VERSION:
            return
        raise
