"""Batch ingestion of archives: many files, parallel workers, one writer, resumable, with progress.

Workers (processes on this machine, or Ray actors on a cluster) each build the model roles once
and run `Pipeline.extract` on one video at a time, touching no memory. This process is the run's
only writer: it commits each video's rows with `store()` in one transaction. That split exists
because a DuckDB file has exactly one writing process; it also keeps a DuckLake catalog free of
competing writers.

Re-running a batch is safe and cheap:

- a video whose content (SHA-256) is stored `ok` with the same settings hash is skipped;
- a file that failed before with the same settings is not tried again while it is unchanged
  (same path, same size): failures are mostly deterministic (corrupt or not a video) and an
  archive's bad files should not cost time on every re-run. `retry_failed` (`--retry-failed`)
  tries them again, e.g. after fixing permissions; `force` re-ingests everything;
- an interrupted run resumes: each video's rows commit atomically, so a killed run leaves whole
  videos or nothing of a video, and the next run skips the whole ones.

A DuckDB file memory is opened only while committing and closed in between, so that other
processes (`vidmem sql`, notebooks) can open it between commits; a DuckLake memory stays open,
since its readers never wait for the writer.

>>> from ingest.sources import expand_sources                                  # doctest: +SKIP
>>> report = run_batch(expand_sources(["archive/"]), "archive.duckdb", IngestSettings())  # doctest: +SKIP
>>> report.counts                                                             # doctest: +SKIP
{'ok': 998, 'skipped': 0, 'failed': 2}
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Protocol

import duckdb

from ingest.errors import SettingsError
from ingest.extractor import Extractor
from ingest.pipeline import Extraction, IngestResult, Pipeline, store
from ingest.settings import IngestSettings
from memory import Memory, MemoryURI, StoreError, open_memory, parse_uri

log = logging.getLogger(__name__)

#: Rough resident memory of one worker with its models loaded; caps the default worker count.
WORKER_MEMORY_BYTES = 2 << 30
#: How long the writer waits for a DuckDB file that another process (a reader) holds open.
DEFAULT_LOCK_TIMEOUT_S = 600.0

WORKER_DIED = (
    "the worker process died while ingesting this file (a crash in a decoder or model library, "
    "or killed for lack of memory); other files were not affected"
)


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


# -- progress ------------------------------------------------------------------------------------


class BatchDisplay(Protocol):
    """Shows a batch's progress to a person: start, one call per finished file, free-form notes."""

    def start(self, total_files: int, total_bytes: int) -> None: ...

    def result(self, result: IngestResult, size_bytes: int) -> None: ...

    def note(self, text: str, *, error: bool = False) -> None: ...

    def finish(self) -> None: ...


@dataclass
class ProgressState:
    """Counters behind every display: files, video-hours, rate, ETA, failures."""

    total_files: int = 0
    total_bytes: int = 0
    started: float = field(default_factory=time.monotonic)
    done_files: int = 0
    failed: int = 0
    skipped: int = 0
    done_bytes: int = 0
    work_bytes: int = 0  # bytes of files actually processed (not skipped): what the rate is made of
    video_s: float = 0.0

    def add(self, result: IngestResult, size_bytes: int) -> None:
        self.done_files += 1
        self.done_bytes += size_bytes
        if result.status == "failed":
            self.failed += 1
        if result.status == "skipped":
            self.skipped += 1
        else:
            self.work_bytes += size_bytes
        if result.status == "ok":
            self.video_s += result.duration_s or 0.0

    def eta_s(self, now: float | None = None) -> float | None:
        """Seconds left, from the bytes still to do at the byte rate so far; None before any data."""
        elapsed = (now if now is not None else time.monotonic()) - self.started
        if self.work_bytes <= 0 or elapsed <= 0:
            return None
        return max(0.0, (self.total_bytes - self.done_bytes) * elapsed / self.work_bytes)

    def line(self, now: float | None = None) -> str:
        now = now if now is not None else time.monotonic()
        elapsed = now - self.started
        rate = self.video_s / elapsed if elapsed > 0 else 0.0
        eta = self.eta_s(now)
        return (
            f"{self.done_files}/{self.total_files} files, {self.failed} failed, {self.skipped} already stored"
            f" | {self.video_s / 3600:.3f} video-h in {_clock(elapsed)} ({rate:.2f} video-h/h)"
            f" | ETA {_clock(eta) if eta is not None and self.done_files < self.total_files else '-'}"
        )


def _clock(seconds: float) -> str:
    s = round(seconds)
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"


class LogDisplay:
    """Plain lines for logs and pipes: notes as they come, and a progress line every `interval_s`
    (from a timer, so that a long video still shows the run is alive)."""

    def __init__(
        self, interval_s: float = 30.0, out: IO[str] | None = None, err: IO[str] | None = None
    ) -> None:
        self.interval_s = interval_s
        self._out, self._err = out, err
        self.state = ProgressState()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._timer: threading.Thread | None = None

    def _stream(self, error: bool) -> IO[str]:
        # Looked up at write time so that redirected sys.stdout/sys.stderr (tests, notebooks) work.
        chosen = self._err if error else self._out
        return chosen if chosen is not None else (sys.stderr if error else sys.stdout)

    def start(self, total_files: int, total_bytes: int) -> None:
        self.state = ProgressState(total_files, total_bytes)
        if self.interval_s > 0:
            self._timer = threading.Thread(target=self._tick, name="vidmem-progress", daemon=True)
            self._timer.start()

    def _tick(self) -> None:
        while not self._stop.wait(self.interval_s):
            self._progress_line()

    def _progress_line(self) -> None:
        with self._lock:
            print(f"progress: {self.state.line()}", file=self._stream(True), flush=True)

    def result(self, result: IngestResult, size_bytes: int) -> None:
        with self._lock:
            self.state.add(result, size_bytes)

    def note(self, text: str, *, error: bool = False) -> None:
        with self._lock:
            print(text, file=self._stream(error), flush=True)

    def finish(self) -> None:
        self._stop.set()
        if self._timer is not None:
            self._timer.join()
        self._progress_line()


class RichDisplay:
    """A live progress bar on a terminal (rich), with notes printed above it."""

    def __init__(self, stream: IO[str] | None = None) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

        self.console = Console(file=stream or sys.stderr)
        self.state = ProgressState()
        self._progress = Progress(
            TextColumn("ingest"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[info]}"),
            console=self.console,
        )
        self._task = self._progress.add_task("ingest", total=None, info="")

    def _info(self) -> str:
        s = self.state
        eta = s.eta_s()
        rate = s.video_s / max(time.monotonic() - s.started, 1e-9)
        return (
            f"{s.failed} failed · {s.video_s / 3600:.3f} video-h · {rate:.2f} video-h/h"
            f" · ETA {_clock(eta) if eta is not None else '-'}"
        )

    def start(self, total_files: int, total_bytes: int) -> None:
        self.state = ProgressState(total_files, total_bytes)
        self._progress.update(self._task, total=total_files, completed=0, info=self._info())
        self._progress.start()

    def result(self, result: IngestResult, size_bytes: int) -> None:
        self.state.add(result, size_bytes)
        self._progress.update(self._task, completed=self.state.done_files, info=self._info())

    def note(self, text: str, *, error: bool = False) -> None:
        self.console.print(text, style="red" if error else None, markup=False, highlight=False)

    def finish(self) -> None:
        self._progress.stop()


def console_display(interval_s: float = 30.0) -> BatchDisplay:
    """A rich progress bar when standard error is a terminal, else plain periodic lines."""
    return RichDisplay() if sys.stderr.isatty() else LogDisplay(interval_s)


class _NoDisplay:
    def start(self, total_files: int, total_bytes: int) -> None: ...

    def result(self, result: IngestResult, size_bytes: int) -> None: ...

    def note(self, text: str, *, error: bool = False) -> None:
        log.info("%s", text)

    def finish(self) -> None: ...


# -- what the memory already holds ---------------------------------------------------------------


@dataclass(frozen=True)
class _Known:
    """A snapshot of `videos` taken when the run starts, for the settings of this run."""

    done: frozenset[str]  # video ids stored ok with these settings: workers skip them after hashing
    failed: Mapping[str, tuple[int | None, str]]  # path -> (size when it failed, reason)


def _known(memory: Memory, settings_hash: str, options: BatchOptions) -> _Known:
    if options.force:
        return _Known(frozenset(), {})
    rows = memory.query(
        "SELECT video_id, path, status, size_bytes, error FROM videos WHERE settings_hash = ?", [settings_hash]
    ).to_pylist()
    done = frozenset(r["video_id"] for r in rows if r["status"] == "ok")
    failed = {} if options.retry_failed else {
        r["path"]: (r["size_bytes"], r["error"] or "failed") for r in rows if r["status"] == "failed"
    }
    return _Known(done, failed)


def _size(path: Path) -> int | None:
    try:
        return path.stat().st_size if path.is_file() else None
    except OSError:
        return None


def _failed_earlier(path: Path, known: _Known) -> IngestResult | None:
    """The earlier failure of `path` if the file is unchanged since (same size, or still absent)."""
    earlier = known.failed.get(str(path))
    if earlier is None or earlier[0] != _size(path):
        return None
    return IngestResult(
        path, "failed", error=f"{earlier[1]} (failed before with these settings; --retry-failed tries again)"
    )


# -- the single writer ---------------------------------------------------------------------------


def _is_lock_error(exc: StoreError) -> bool:
    cause = exc.__cause__
    return isinstance(cause, duckdb.IOException) and "lock" in str(cause).lower()


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


class _Writer:
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

    def known(self, options: BatchOptions) -> _Known:
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


# -- workers -------------------------------------------------------------------------------------

Extractions = Iterator[list[Extraction]]


def _extract_guarded(pipeline: Pipeline, path: Path, done: frozenset[str]) -> Extraction:
    try:
        return pipeline.extract(path, is_done=done.__contains__)
    except Exception as exc:  # a bug must not end a batch of thousands: record it against the file
        log.exception("internal error while ingesting %s", path)
        return pipeline.failure(path, f"internal error while ingesting ({type(exc).__name__}: {exc}); please report it")


def _in_process(pipeline: Pipeline, paths: Sequence[Path], done: frozenset[str]) -> Extractions:
    for path in paths:
        yield [_extract_guarded(pipeline, path, done)]


_WORKER: tuple[Pipeline, frozenset[str]] | None = None

#: Extractor classes for a Pipeline; None means the registry (ingest.registry.EXTRACTORS).
ExtractorClasses = Sequence[type[Extractor]] | None


def _die_with_parent() -> None:
    # Without this, a SIGKILLed run leaves its workers running (and holding memory) as orphans.
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # 1 = PR_SET_PDEATHSIG


def _init_worker(
    settings: IngestSettings, extractors: ExtractorClasses, done: frozenset[str], threads: int, log_level: int
) -> None:
    global _WORKER
    _die_with_parent()
    # Ctrl-C reaches the whole process group: the parent stops the batch; workers just go with it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # Before any model library loads: N workers x all cores each would oversubscribe the CPU.
    for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        os.environ[var] = str(threads)
    logging.basicConfig(level=log_level, format="%(levelname)s %(name)s[%(process)d]: %(message)s")
    _WORKER = (Pipeline(settings, extractors), done)


def _extract_in_worker(path: Path) -> Extraction:
    if _WORKER is None:
        raise RuntimeError("worker used before _init_worker ran")
    pipeline, done = _WORKER
    return _extract_guarded(pipeline, path, done)


def _process_pool(
    pipeline: Pipeline, extractors: ExtractorClasses, paths: Sequence[Path], done: frozenset[str], workers: int
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
            initargs=(pipeline.settings, extractors, done, threads, level),
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


class _RayWorker:
    """A Ray actor holding one Pipeline: models load once per actor."""

    def __init__(self, settings: IngestSettings, extractors: ExtractorClasses, done: frozenset[str]) -> None:
        self._pipeline = Pipeline(settings, extractors)
        self._done = done

    def extract(self, path: Path) -> Extraction:
        return _extract_guarded(self._pipeline, path, self._done)


def _ray(
    pipeline: Pipeline,
    extractors: ExtractorClasses,
    paths: Sequence[Path],
    done: frozenset[str],
    address: str,
    workers: int | None,
) -> tuple[int, Extractions]:
    """Extract over Ray actors (Ray places them; this loop only hands out paths and collects rows).
    Paths must be readable at the same location on every node (shared storage)."""
    try:
        import ray
    except ImportError as exc:
        raise SettingsError("--ray needs Ray: pip install 'vidmem[scale]' (or pip install 'ray>=2.30')") from exc
    if ray.is_initialized():
        started = False
    elif address == "local":
        ray.init(num_cpus=workers or available_cpus(), include_dashboard=False, log_to_driver=True)
        started = True
    else:
        ray.init(address=address, include_dashboard=False)
        started = True
    count = workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
    count = max(1, min(count, len(paths)))

    def run() -> Extractions:
        from ray.exceptions import RayActorError, RayTaskError

        # max_restarts: an actor killed by a bad video comes back (models reload) for the next one.
        actor_cls: Any = ray.remote(num_cpus=1, max_restarts=-1, max_task_retries=0)(_RayWorker)
        # Arguments inline, not via ray.put: a restarted actor must still find them.
        actors: list[Any] = [actor_cls.remote(pipeline.settings, extractors, done) for _ in range(count)]
        idle = deque(actors)
        queue: deque[Path] = deque(paths)
        pending: dict[Any, tuple[Any, Path]] = {}
        try:
            while queue or pending:
                while queue and idle:
                    actor, path = idle.popleft(), queue.popleft()
                    pending[actor.extract.remote(path)] = (actor, path)
                ready, _ = ray.wait(list(pending), num_returns=1)
                out: list[Extraction] = []
                for ref in ready:
                    actor, path = pending.pop(ref)
                    idle.append(actor)
                    try:
                        out.append(ray.get(ref))
                    except (RayActorError, RayTaskError) as exc:
                        log.error("%s: Ray worker failed: %s", path, exc)
                        out.append(pipeline.failure(path, WORKER_DIED))
                yield out
        finally:
            for actor in actors:
                ray.kill(actor)
            if started:
                ray.shutdown()

    return count, run()


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
    sizes = {p: _size(p) or 0 for p in files}
    writer = _Writer(uri, pipeline, options.lock_timeout_s)
    report = BatchReport(str(uri), 0)

    def emit(result: IngestResult) -> None:
        report.results.append(result)
        display.result(result, sizes.get(result.path, _size(result.path) or 0))
        if on_result is not None:
            on_result(result)

    try:
        known = writer.known(options)
        to_run: list[Path] = []
        earlier: list[IngestResult] = []
        for p in files:
            failed = _failed_earlier(p.resolve(), known)
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
            report.workers, extractions = _ray(
                pipeline, extractors, to_run, known.done, options.ray_address, options.workers
            )
        else:
            report.workers = options.workers or default_workers(len(to_run))
            if report.workers == 1 or len(to_run) <= 1:
                extractions = _in_process(pipeline, to_run, known.done)
            else:
                extractions = _process_pool(pipeline, extractors, to_run, known.done, report.workers)
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
