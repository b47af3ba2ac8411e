"""The batch's single writer: commits each video's extraction, and snapshots what is stored.

A DuckDB file memory is opened only while committing and closed in between, so that other
processes (`vidmem sql`, notebooks) can open it between commits; a DuckLake memory stays open,
since its readers never wait for the writer (and another ingest's commits only retry on a conflict).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import duckdb

from ingest.pipeline import Extraction, IngestResult, Pipeline, store
from ingest.workers import StoredByVideo
from memory import Memory, MemoryURI, StoreError, open_memory
from memory.store import is_conflict

if TYPE_CHECKING:
    from ingest.batch import BatchOptions

log = logging.getLogger(__name__)

#: How long the writer waits for a DuckDB file that another process (a reader) holds open.
DEFAULT_LOCK_TIMEOUT_S = 600.0

# -- what the memory already holds ---------------------------------------------------------------


@dataclass(frozen=True)
class Known:
    """A snapshot of the memory taken when the run starts."""

    stored: StoredByVideo  # video id -> role -> stored state: workers run only what is missing or changed
    failed: Mapping[str, tuple[int | None, str]]  # path -> (size when it failed, reason), for these settings


def _known(memory: Memory, settings_hash: str, options: BatchOptions) -> Known:
    if options.force:
        return Known({}, {})  # every selected role runs again; the others keep their rows
    stored = memory.role_states()
    if options.retry_failed:  # a failed role is then missing: it runs again
        stored = {vid: {r: s for r, s in roles.items() if s.status != "failed"} for vid, roles in stored.items()}
    rows = memory.query(
        "SELECT path, size_bytes, error FROM videos WHERE status = 'failed' AND settings_hash = ?", [settings_hash]
    ).to_pylist()
    failed = {} if options.retry_failed else {r["path"]: (r["size_bytes"], r["error"] or "failed") for r in rows}
    return Known(stored, failed)


def file_size(path: Path) -> int | None:
    try:
        return path.stat().st_size if path.is_file() else None
    except OSError:
        return None


def failed_earlier(path: Path, known: Known) -> IngestResult | None:
    """The earlier failure of `path` if the file is unchanged since (same size, or still absent)."""
    earlier = known.failed.get(str(path))
    if earlier is None or earlier[0] != file_size(path):
        return None
    return IngestResult(
        path, "failed", error=f"{earlier[1]} (failed before with these settings; --retry-failed tries again)"
    )


# -- the single writer ---------------------------------------------------------------------------


def _is_lock_error(exc: StoreError) -> bool:
    cause = exc.__cause__
    return (isinstance(cause, duckdb.IOException) and "lock" in str(cause).lower()) or (
        cause is not None and is_conflict(cause)  # another ingest committing to the same DuckLake catalog
    )


def open_when_free(uri: MemoryURI, timeout_s: float = DEFAULT_LOCK_TIMEOUT_S) -> Memory:
    """Open `uri` writable, waiting up to `timeout_s` while another process holds the DuckDB file."""
    deadline = time.monotonic() + timeout_s
    delay, last_warning = 0.02, time.monotonic()
    while True:
        try:
            return open_memory(uri)
        except StoreError as exc:
            if not _is_lock_error(exc):
                raise
            now = time.monotonic()
            if now >= deadline:
                raise StoreError(
                    f"gave up after waiting {timeout_s:.0f}s for {uri}, which another process keeps open. "
                    "Close readers that hold it (notebooks: open read-only and close after each query), or "
                    "ingest into a DuckLake memory (ducklake:sqlite:PATH), which readers never block. "
                    "Videos already committed stay; re-run to resume."
                ) from exc
            if now - last_warning > 10:
                log.warning("waiting for %s: another process has it open", uri)
                last_warning = now
            time.sleep(delay)
            delay = min(delay * 2, 0.5)


class Writer:
    """Commits extractions. A DuckDB file is opened per group of commits and closed in between,
    so readers get the file between videos; DuckLake stays open (its readers never wait)."""

    def __init__(self, uri: MemoryURI, pipeline: Pipeline, lock_timeout_s: float) -> None:
        self.uri = uri
        self._pipeline = pipeline
        self._lock_timeout_s = lock_timeout_s
        self._keep_open = uri.kind == "ducklake"
        self._memory: Memory | None = None
        self._committed: dict[str, Path] = {}  # video id -> path, for duplicate content within a run

    def _open(self) -> Memory:
        if self._memory is not None:
            return self._memory
        memory = open_when_free(self.uri, self._lock_timeout_s)
        if self._keep_open:
            self._memory = memory
        return memory

    def _release(self, memory: Memory) -> None:
        if not self._keep_open:
            memory.close()

    def known(self, options: BatchOptions) -> Known:
        memory = self._open()
        try:
            return _known(memory, self._pipeline.settings_hash, options)
        finally:
            self._release(memory)

    def commit(self, extractions: Sequence[Extraction]) -> list[IngestResult]:
        if all(ex.rows is None for ex in extractions):
            return [ex.result for ex in extractions]  # nothing to write: don't take the file
        memory = self._open()
        try:
            return [self._store(memory, ex) for ex in extractions]
        finally:
            self._release(memory)

    def _store(self, memory: Memory, extraction: Extraction) -> IngestResult:
        result = extraction.result
        if result.status == "ok" and result.video_id in self._committed:
            first = self._committed[result.video_id]
            log.info("%s: same content as %s, stored once", result.path, first)
            return IngestResult(result.path, "skipped", result.video_id, duration_s=result.duration_s)
        try:
            stored = store(extraction, memory)
        except StoreError as exc:
            if result.status != "ok":
                raise  # cannot even record a failure: the memory itself is the problem
            stored = store(self._pipeline.failure(result.path, f"could not store its rows: {exc}"), memory)
        if stored.status == "ok" and stored.video_id:
            self._committed[stored.video_id] = stored.path
            memory.forget_failures(str(stored.path), stored.video_id)
        return stored

    def close(self) -> None:
        if self._memory is not None:
            self._memory.close()
            self._memory = None

