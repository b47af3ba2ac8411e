"""Roles run side by side: one thread per role, fed its frames through a short queue.

Why threads: the work is inside ONNX Runtime, CTranslate2, torch and HTTP calls, which release the
GIL, so roles overlap with decoding and with each other (on a GPU the pipeline approaches its
slowest stage; on a CPU the cores stay busy while one role waits for its next batch). Speech
recognition needs no frames, so it transcribes from the first second instead of after decoding.

Per role, calls stay in order: `warm`, `process` batch by batch, `prepare` once decoding is over, then
`end` once the roles it reads (`Extractor.after`, `Extractor.uses_if_run`) have ended. A role that raises
is marked failed and then only drains its queue, so decoding never blocks on it.
"""

import functools
import logging
import queue
import threading
import time
from collections.abc import Callable

from ingest.errors import IngestError
from ingest.media.frames import FrameBatch
from ingest.roles.extractor import Extractor, VideoContext

log = logging.getLogger(__name__)

#: Batches waiting per role: decoding may run this far ahead of the slowest role (bounds memory).
QUEUE_BATCHES = 2
_DONE = None  # end-of-video marker in a role's queue


class RoleThreads:
    """Start with the active extractors, `feed` each decoded batch, then `finish`.

    `failed` maps a role to its error; `stage_seconds` holds each role's own busy time.
    """

    def __init__(self, extractors: list[Extractor], ctx: VideoContext) -> None:
        self.ctx = ctx
        self.failed: dict[str, str] = {}
        self.stage_seconds: dict[str, float] = {}
        self._cancelled = threading.Event()
        self._ended = {ex.role: threading.Event() for ex in extractors}
        self._queues: dict[str, queue.Queue[FrameBatch | None]] = {
            ex.role: queue.Queue(QUEUE_BATCHES) for ex in extractors if ex.sample_rate() is not None
        }  # roles that take frames
        self._threads = [
            threading.Thread(target=self._run, args=(ex,), name=f"vidmem-{ex.role}", daemon=True) for ex in extractors
        ]
        for ex in extractors:  # `begin` in this thread, in registry order, before any frame flows
            self._guarded(ex, functools.partial(ex.begin, ctx))
        for thread in self._threads:
            thread.start()

    def feed(self, batch: FrameBatch) -> None:
        for role, q in self._queues.items():
            sub = batch.for_role(role)
            if len(sub):
                q.put(sub)  # blocks while this role is QUEUE_BATCHES behind

    def finish(self, cancelled: bool = False) -> None:
        """Signal the end of decoding (or, `cancelled`, that the video failed) and wait for every role."""
        if cancelled:
            self._cancelled.set()
        for q in self._queues.values():
            q.put(_DONE)
        for thread in self._threads:
            thread.join()

    def _run(self, ex: Extractor) -> None:
        try:
            self._guarded(ex, ex.warm)
            q = self._queues.get(ex.role)
            while q is not None and (batch := q.get()) is not _DONE:
                if not self._cancelled.is_set():  # a failed role only drains (`_guarded` skips it)
                    self._guarded(ex, lambda: ex.process(batch))
            if not self._cancelled.is_set():
                self._guarded(ex, lambda: ex.prepare(self.ctx))
            for role in (*ex.after, *ex.uses_if_run):
                if role in self._ended:
                    self._ended[role].wait()
            if not self._cancelled.is_set():
                self._guarded(ex, lambda: ex.end(self.ctx))
        finally:
            self._ended[ex.role].set()

    def _guarded(self, ex: Extractor, step: Callable[[], None]) -> None:
        if ex.role in self.failed:
            return
        t0 = time.perf_counter()
        try:
            step()
        except IngestError as exc:
            self.failed[ex.role] = str(exc)
        except Exception as exc:  # a model crash fails its role, not the whole video
            log.exception("role %s failed on %s", ex.role, self.ctx.info.path)
            self.failed[ex.role] = f"{type(exc).__name__}: {exc}"
        self.stage_seconds[ex.role] = self.stage_seconds.get(ex.role, 0.0) + time.perf_counter() - t0
