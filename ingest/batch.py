"""Batch ingestion of archives: many files, parallel workers, one writer, resumable, with progress.

Workers (processes on this machine, or Ray actors on a cluster) each build the model roles once
and run `Pipeline.extract` on one video at a time, touching no memory. This process is the run's
only writer: its `Writer` commits each video's rows in one transaction. That split exists
because a DuckDB file has exactly one writing process; it also keeps a DuckLake catalog free of
competing writers.

Re-running a batch is safe and cheap:

- per video (by content, SHA-256), only the selected roles that are missing or whose own settings
  changed run (plus the roles they read, see `Pipeline.roles_to_run`); a video with nothing to
  run is skipped after hashing; `force` re-runs the selected roles, and no other;
- a file that failed before with the same settings is not tried again while it is unchanged
  (same path, same size): failures are mostly deterministic (corrupt or not a video) and an
  archive's bad files should not cost time on every re-run. `retry_failed` (`--retry-failed`)
  tries them again (and roles that failed), e.g. after fixing permissions;
- an interrupted run resumes: each video's new rows commit atomically with their provenance, so a
  killed run leaves every role's earlier rows as they were, and the next run does what is left.

Where each part lives: the writer in ingest/writer.py, the executors in ingest/workers.py (this
machine) and ingest/ray_workers.py (a cluster); how progress looks to a person is the command
line's (vidmem/display.py), behind the `BatchDisplay` shape.

>>> from ingest.sources import expand_sources                                  # doctest: +SKIP
>>> report = run_batch(expand_sources(["archive/"]), "archive.duckdb", IngestSettings())  # doctest: +SKIP
>>> report.counts                                                             # doctest: +SKIP
{'ok': 998, 'skipped': 0, 'failed': 2}
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from ingest.errors import SettingsError
from ingest.pipeline import IngestResult, Pipeline
from ingest.settings import IngestSettings
from ingest.workers import (
    WORKER_DIED,
    Extractions,
    ExtractorClasses,
    available_cpus,
    default_workers,
    in_process,
    process_pool,
)
from ingest.writer import DEFAULT_LOCK_TIMEOUT_S, Writer, failed_earlier, file_size, open_when_free
from memory import MemoryURI, parse_uri

__all__ = [
    "DEFAULT_LOCK_TIMEOUT_S",
    "WORKER_DIED",
    "BatchDisplay",
    "BatchInterrupted",
    "BatchOptions",
    "BatchReport",
    "available_cpus",
    "default_workers",
    "open_when_free",
    "run_batch",
]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class BatchOptions:
    """How a batch runs (what it extracts is `IngestSettings`).

    workers: parallel extraction workers; None sizes them to the machine (or to the Ray cluster).
    ray_address: None for local processes; 'local' starts a Ray cluster on this machine; anything
        else is passed to `ray.init(address=...)` (e.g. 'auto' or 'ray://head:10001').
    """

    workers: int | None = None
    ray_address: str | None = None
    retry_failed: bool = False
    force: bool = False
    lock_timeout_s: float = DEFAULT_LOCK_TIMEOUT_S

    def __post_init__(self) -> None:
        if self.workers is not None and self.workers < 1:
            raise SettingsError(f"workers must be at least 1, got {self.workers}")
        if self.lock_timeout_s < 0:
            raise SettingsError(f"lock_timeout_s must be >= 0, got {self.lock_timeout_s}")


class BatchInterrupted(KeyboardInterrupt):
    """Ctrl-C during a batch: what was committed stays (re-run to resume); `report` says what was done."""

    def __init__(self, report: BatchReport) -> None:
        super().__init__("batch interrupted")
        self.report = report


@dataclass
class BatchReport:
    """What a batch did, one result per input path (in completion order)."""

    memory: str
    workers: int
    results: list[IngestResult] = field(default_factory=list)
    wall_s: float = 0.0

    @property
    def counts(self) -> dict[str, int]:
        counts = {"ok": 0, "skipped": 0, "failed": 0}
        for r in self.results:
            counts[r.status] += 1
        return counts

    @property
    def failures(self) -> list[IngestResult]:
        return [r for r in self.results if r.status == "failed"]

    @property
    def video_s(self) -> float:
        """Seconds of video ingested by this run (skipped and failed files excluded)."""
        return sum(r.duration_s or 0.0 for r in self.results if r.status == "ok")

    @property
    def video_hours_per_hour(self) -> float:
        return self.video_s / self.wall_s if self.wall_s > 0 else 0.0

    def summary(self) -> str:
        c = self.counts
        return f"{c['ok']} ingested, {c['skipped']} already stored, {c['failed']} failed -> {self.memory}"


# -- progress, as the caller shows it -------------------------------------------------------------


class BatchDisplay(Protocol):
    """Shows a batch's progress to a person: start, one call per finished file, free-form notes."""

    def start(self, total_files: int, total_bytes: int) -> None: ...

    def result(self, result: IngestResult, size_bytes: int) -> None: ...

    def note(self, text: str, *, error: bool = False) -> None: ...

    def finish(self) -> None: ...


class _NoDisplay:
    def start(self, total_files: int, total_bytes: int) -> None: ...

    def result(self, result: IngestResult, size_bytes: int) -> None: ...

    def note(self, text: str, *, error: bool = False) -> None:
        log.info("%s", text)

    def finish(self) -> None: ...


# -- the batch -----------------------------------------------------------------------------------


def run_batch(
    paths: Sequence[str | Path],
    memory: str | Path | MemoryURI,
    settings: IngestSettings | None = None,
    options: BatchOptions | None = None,
    *,
    display: BatchDisplay | None = None,
    on_result: Callable[[IngestResult], None] | None = None,
    extractors: ExtractorClasses = None,
) -> BatchReport:
    """Ingest `paths` (see `ingest.sources.expand_sources`) into `memory`; failures are recorded
    per file and the batch goes on. Settings and options are checked before any video is read.
    `extractors` replaces the registry's roles, as in `Pipeline` (classes must be importable by name
    in worker processes)."""
    options = options or BatchOptions()
    uri = memory if isinstance(memory, MemoryURI) else parse_uri(memory)
    display = display or _NoDisplay()
    started = time.monotonic()
    # Built here even when workers do the work: it validates settings and says which roles run.
    pipeline = Pipeline(settings, extractors)
    for role, avail in pipeline.availability.items():
        if not avail.ok:
            display.note(f"role {role} skipped: {avail.detail}", error=True)
    files = [Path(p).expanduser().absolute() for p in paths]
    sizes = {p: file_size(p) or 0 for p in files}
    writer = Writer(uri, pipeline, options.lock_timeout_s)
    report = BatchReport(str(uri), 0)

    def emit(result: IngestResult) -> None:
        report.results.append(result)
        display.result(result, sizes.get(result.path, file_size(result.path) or 0))
        if on_result is not None:
            on_result(result)

    try:
        known = writer.known(options)
        to_run: list[Path] = []
        earlier: list[IngestResult] = []
        for p in files:
            failed = failed_earlier(p.resolve(), known)
            if failed is not None:
                earlier.append(failed)
            else:
                to_run.append(p)
        display.start(len(files), sum(sizes.values()))
        for result in earlier:
            emit(result)
        if not to_run:
            extractions: Extractions = iter(())
        elif options.ray_address:
            from ingest.ray_workers import ray_actors

            report.workers, extractions = ray_actors(
                pipeline, extractors, to_run, known.stored, options.ray_address, options.workers
            )
        else:
            report.workers = options.workers or default_workers(len(to_run))
            if report.workers == 1 or len(to_run) <= 1:
                extractions = in_process(pipeline, to_run, known.stored)
            else:
                extractions = process_pool(pipeline, extractors, to_run, known.stored, report.workers)
        try:
            for group in extractions:
                for result in writer.commit(group):
                    emit(result)
        except KeyboardInterrupt:
            raise BatchInterrupted(report) from None
        finally:
            close = getattr(extractions, "close", None)
            if close is not None:
                close()  # stops workers (and a Ray cluster we started) even when the writer failed
    finally:
        writer.close()
        report.wall_s = time.monotonic() - started
        display.finish()
    return report
