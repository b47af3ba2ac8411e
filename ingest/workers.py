"""Where extraction runs: in this process, or over a pool of spawned worker processes.

Each worker builds the model roles once and runs `Pipeline.extract` on one video at a time,
touching no memory; the batch's writer commits what they return (ingest/writer.py).
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import os
import signal
import sys
from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

from ingest.pipeline import Extraction, Pipeline
from ingest.roles.extractor import Extractor
from ingest.settings import IngestSettings
from memory import RoleState

log = logging.getLogger(__name__)

#: Rough resident memory of one worker with its models loaded; caps the default worker count.
WORKER_MEMORY_BYTES = 2 << 30

#: video id -> role -> its stored state: a snapshot taken when the run starts, handed to every worker.
StoredByVideo = Mapping[str, Mapping[str, RoleState]]

WORKER_DIED = (
    "the worker process died while ingesting this file (a crash in a decoder or model library, "
    "or killed for lack of memory); other files were not affected"
)


def available_cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def default_workers(num_files: int) -> int:
    """Workers for this machine: one per CPU, no more than files, no more than memory allows."""
    cpus = available_cpus()
    try:
        free = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        by_memory = max(1, free // WORKER_MEMORY_BYTES)
    except (ValueError, OSError, AttributeError):
        by_memory = cpus
    return max(1, min(cpus, num_files, by_memory))



Extractions = Iterator[list[Extraction]]


def extract_guarded(pipeline: Pipeline, path: Path, stored: StoredByVideo) -> Extraction:
    try:
        return pipeline.extract(path, stored=stored.get)
    except Exception as exc:  # a bug must not end a batch of thousands: record it against the file
        log.exception("internal error while ingesting %s", path)
        return pipeline.failure(path, f"internal error while ingesting ({type(exc).__name__}: {exc}); please report it")


def in_process(pipeline: Pipeline, paths: Sequence[Path], stored: StoredByVideo) -> Extractions:
    for path in paths:
        yield [extract_guarded(pipeline, path, stored)]


_WORKER: tuple[Pipeline, StoredByVideo] | None = None

#: Extractor classes for a Pipeline; None means the registry (ingest.roles.registry.EXTRACTORS).
ExtractorClasses = Sequence[type[Extractor]] | None


def _die_with_parent() -> None:
    # Without this, a SIGKILLed run leaves its workers running (and holding memory) as orphans.
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # 1 = PR_SET_PDEATHSIG


def _init_worker(
    settings: IngestSettings, extractors: ExtractorClasses, stored: StoredByVideo, threads: int, log_level: int
) -> None:
    global _WORKER
    _die_with_parent()
    # Ctrl-C reaches the whole process group: the parent stops the batch; workers just go with it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # Before any model library loads: N workers x all cores each would oversubscribe the CPU.
    for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        os.environ[var] = str(threads)
    logging.basicConfig(level=log_level, format="%(levelname)s %(name)s[%(process)d]: %(message)s")
    _WORKER = (Pipeline(settings, extractors), stored)


def _extract_in_worker(path: Path) -> Extraction:
    if _WORKER is None:
        raise RuntimeError("worker used before _init_worker ran")
    pipeline, stored = _WORKER
    return extract_guarded(pipeline, path, stored)


def process_pool(
    pipeline: Pipeline, extractors: ExtractorClasses, paths: Sequence[Path], stored: StoredByVideo, workers: int
) -> Extractions:
    """Extract over `workers` spawned processes. A worker that dies (a native crash, the OOM
    killer) breaks the whole pool, so the files then in flight are re-run one at a time in a fresh
    pool: the one that breaks it again alone is recorded as failed, the others land normally."""
    import multiprocessing

    threads = max(1, available_cpus() // workers)
    level = logging.getLogger().getEffectiveLevel()

    def new_pool() -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            max_workers=workers,
            # spawn, not fork: this process holds DuckDB and model threads that fork would copy mid-flight.
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_init_worker,
            initargs=(pipeline.settings, extractors, stored, threads, level),
        )

    queue: deque[Path] = deque(paths)
    suspects: deque[Path] = deque()
    pending: dict[Future[Extraction], Path] = {}
    in_flight_limit = 2 * workers  # enough to keep workers busy while the writer commits, bounded memory
    pool = new_pool()
    try:
        while queue or suspects or pending:
            isolating = bool(suspects)
            if isolating and not pending:
                path = suspects.popleft()
                pending[pool.submit(_extract_in_worker, path)] = path
            elif not isolating:
                while queue and len(pending) < in_flight_limit:
                    path = queue.popleft()
                    pending[pool.submit(_extract_in_worker, path)] = path
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            out: list[Extraction] = []
            broken = False
            for fut in finished:
                path = pending.pop(fut)
                try:
                    out.append(fut.result())
                except BrokenProcessPool:
                    broken = True
                    if isolating:
                        log.error("%s: %s", path, WORKER_DIED)
                        out.append(pipeline.failure(path, WORKER_DIED))
                    else:
                        suspects.append(path)
            if broken:
                suspects.extend(pending.values())  # their futures fail too: the pool is gone
                pending.clear()
                pool.shutdown(wait=False, cancel_futures=True)
                pool = new_pool()
            if out:
                yield out
    finally:
        # Idle workers exit at once: wait for them (and reap them) unless work is being abandoned.
        pool.shutdown(wait=not pending, cancel_futures=True)

