"""The one way a video gets into the memory: the `Writer` commits what `Pipeline.extract` produced
(the pipeline plans which roles run and runs them; it never writes), and snapshots what is stored.

A batch's writer holds a memory URI: a DuckDB file memory is opened only while committing and closed
in between, so that other processes (`vidmem sql`, notebooks) can open it between commits; a DuckLake
memory stays open, since its readers never wait for the writer (and another ingest's commits only
retry on a conflict). A writer given an open `Memory` uses it and leaves it open. `ingest_video`
extracts and commits one video in this process.

>>> with open_memory("m.duckdb") as mem:                                      # doctest: +SKIP
...     ingest_video("clip.mp4", mem, Pipeline(IngestSettings().only("asr"))).status
'ok'
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

import duckdb

from ingest.pipeline import Extraction, IngestResult, Pipeline, Progress, stored_ok
from ingest.settings import IngestSettings
from ingest.workers import StoredByVideo
from memory import FailedFile, Memory, MemoryURI, RoleRun, RoleState, StoreError, VideoRows, open_memory
from memory.store import is_conflict, is_locked

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
    failed: Mapping[str, FailedFile]  # path -> its failure with these settings (size then, reason)


def _known(memory: Memory, settings_hash: str, options: BatchOptions) -> Known:
    if options.force:
        return Known({}, {})  # every selected role runs again; the others keep their rows
    stored = memory.role_states()
    if options.retry_failed:  # a failed role is then missing: it runs again
        stored = {vid: {r: s for r, s in roles.items() if s.status != "failed"} for vid, roles in stored.items()}
        return Known(stored, {})
    return Known(stored, memory.failed_files(settings_hash))


def file_size(path: Path) -> int | None:
    try:
        return path.stat().st_size if path.is_file() else None
    except OSError:
        return None


def failed_earlier(path: Path, known: Known) -> IngestResult | None:
    """The earlier failure of `path` if the file is unchanged since (same size, or still absent)."""
    earlier = known.failed.get(str(path))
    if earlier is None or earlier.size_bytes != file_size(path):
        return None
    return IngestResult(
        path, "failed", error=f"{earlier.error} (failed before with these settings; --retry-failed tries again)"
    )


# -- the single writer ---------------------------------------------------------------------------


def _is_lock_error(exc: StoreError) -> bool:
    cause = exc.__cause__
    return (isinstance(cause, duckdb.IOException) and is_locked(cause)) or (
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
    """Commits extractions. Given a URI, a DuckDB file is opened per group of commits and closed in
    between, so readers get the file between videos; DuckLake stays open (its readers never wait).
    Given an open `Memory`, the writer uses it and never closes it: that is its opener's."""

    def __init__(
        self, memory: MemoryURI | Memory, pipeline: Pipeline, lock_timeout_s: float = DEFAULT_LOCK_TIMEOUT_S
    ) -> None:
        self._pipeline = pipeline
        self._lock_timeout_s = lock_timeout_s
        given = isinstance(memory, Memory)
        self.uri: MemoryURI = memory.uri if isinstance(memory, Memory) else memory
        self._memory: Memory | None = memory if isinstance(memory, Memory) else None
        self._owned = not given  # an open Memory stays its caller's to close
        self._keep_open = given or self.uri.kind == "ducklake"
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

    def stored_roles(self, video_id: str) -> Mapping[str, RoleState] | None:
        """What `role_runs` holds for `video_id` now (None: a video the memory does not have)."""
        memory = self._open()
        try:
            return memory.role_states(video_id).get(video_id) if memory.stored_video(video_id) else None
        finally:
            self._release(memory)

    def ingest(self, path: str | Path, *, force: bool = False, progress: Progress | None = None) -> IngestResult:
        """Extract one file in this process and commit it: the roles that are missing or whose
        settings changed run (`Pipeline.roles_to_run`), and their rows commit together with their
        provenance; `force` runs every role again."""
        extraction = self._pipeline.extract(path, stored=None if force else self.stored_roles, progress=progress)
        return self.commit([extraction])[0]

    def commit(self, extractions: Sequence[Extraction]) -> list[IngestResult]:
        if all(ex.rows is None for ex in extractions):
            return [ex.result for ex in extractions]  # nothing to write: don't take the file
        memory = self._open()
        try:
            return [self._commit_one(memory, ex) for ex in extractions]
        finally:
            self._release(memory)

    def _commit_one(self, memory: Memory, extraction: Extraction) -> IngestResult:
        result = extraction.result
        if result.status == "ok" and result.video_id in self._committed:
            first = self._committed[result.video_id]
            log.info("%s: same content as %s, stored once", result.path, first)
            return IngestResult(result.path, "skipped", result.video_id, duration_s=result.duration_s)
        try:
            stored = _store(extraction, memory)
        except StoreError as exc:
            if result.status != "ok":
                raise  # cannot even record a failure: the memory itself is the problem
            stored = _store(self._pipeline.failure(result.path, f"could not store its rows: {exc}"), memory)
        if stored.status == "ok" and stored.video_id:
            self._committed[stored.video_id] = stored.path
            memory.forget_failures(str(stored.path), stored.video_id)
        return stored

    def close(self) -> None:
        if self._memory is not None and self._owned:
            self._memory.close()
        self._memory = None


def ingest_video(
    path: str | Path,
    memory: Memory,
    pipeline: Pipeline | IngestSettings | None = None,
    *,
    force: bool = False,
    progress: Progress | None = None,
) -> IngestResult:
    """Ingest one video into an open, writable `memory` through a `Writer` (see `Writer.ingest`).
    Pass a `Pipeline` to reuse its loaded models across videos; settings (or none: the defaults)
    build a one-off pipeline."""
    if not isinstance(pipeline, Pipeline):
        pipeline = Pipeline(pipeline)
    return Writer(memory, pipeline).ingest(path, force=force, progress=progress)


# -- one video's commit ---------------------------------------------------------------------------


def _store(extraction: Extraction, memory: Memory) -> IngestResult:
    """Commit what `Pipeline.extract` produced: a video's rows in one transaction, or its failure."""
    rows, result = extraction.rows, extraction.result
    if rows is None:
        return result
    # ingested_at means "committed at": workers may finish well before the writer gets to them.
    record = replace(rows.record, ingested_at=datetime.now(UTC).replace(tzinfo=None))
    t0 = time.perf_counter()
    if record.status == "failed":
        memory.record_failure(record)
        return result
    runs = rows.runs
    if runs:
        states = memory.role_states(record.video_id).get(record.video_id)
        runs += tuple(_stale_readers(states, {r.role for r in runs if r.status == "ok"}, {r.role for r in runs}))
    memory.write_video(VideoRows(record, rows.tables, runs))
    if result.status == "skipped":
        return result  # only how unavailable roles went was recorded
    write = time.perf_counter() - t0
    log.info("%s: stored %s in %.1fs", result.path, result.rows, result.seconds + write)
    return replace(result, seconds=result.seconds + write, stage_seconds={**result.stage_seconds, "write": write})


def _stale_readers(
    states: Mapping[str, RoleState] | None, replaced: set[str], ran: set[str]
) -> list[RoleRun]:
    """Stored roles that read the output of a role whose rows this run replaced, but were not run
    (not selected, e.g. `--only tracking --force` with appearance stored): their rows no longer
    describe what is stored, so they are marked skipped with the reason, and the next ingest that
    selects them runs them again (a skipped role always runs again)."""
    from ingest.roles.registry import EXTRACTORS

    out = []
    for cls in EXTRACTORS:
        state = (states or {}).get(cls.role)
        if cls.role in ran or state is None or state.status != "ok":
            continue
        inputs = sorted(set(cls.after) & replaced)
        if inputs:
            reads = [r for r in cls.after if stored_ok((states or {}).get(r))]
            reason = (f"{', '.join(inputs)} was recomputed without it; run it again with the roles it reads "
                      f"(vidmem ingest --only {','.join([*reads, cls.role])})")
            out.append(RoleRun(cls.role, "skipped", reason, state.attempt_settings_hash))
    return out

