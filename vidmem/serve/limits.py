"""Bounded work under load: each kind of slow work (SQL, search, questions) runs on its own few
threads with a bounded queue, so that it can never take the threads the pages, /api/videos and the
media need; past the queue the server says so (503 with Retry-After) instead of waiting for minutes.

A route runs its work with `await state.work["sql"].run(request, fn)`: `fn(cancel)` runs in a worker
thread; `cancel` (a threading.Event) is set when the client goes away or the server shuts down, and
the work stops at once (the SQL sandbox interrupts its query). Everything else stays on Starlette's
own thread pool.
"""

import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

import anyio
from fastapi import Request

from memory import VidmemError

__all__ = ["Overloaded", "WorkQueue", "default_limits"]

T = TypeVar("T")
#: How often a running request checks whether its client is still there.
_POLL_S = 0.25
_SLOTS_LOCK = threading.Lock()


class Overloaded(VidmemError):
    """Every worker of a kind of work is busy and its queue is full: 503 with Retry-After."""

    def __init__(self, kind: str, retry_after_s: int) -> None:
        super().__init__(f"the server is busy with {kind} requests: try again in {retry_after_s} s")
        self.retry_after_s = retry_after_s


@dataclass
class WorkQueue:
    """At most `running` requests of one kind at once and `waiting` more in line."""

    kind: str
    running: int
    waiting: int
    retry_after_s: int = 5
    _limiter: anyio.CapacityLimiter | None = field(default=None, repr=False)
    _live: set[threading.Event] = field(default_factory=set, repr=False)
    _slots: threading.Semaphore | None = field(default=None, repr=False)

    @property
    def limiter(self) -> anyio.CapacityLimiter:
        if self._limiter is None:  # made in the event loop's thread, on first use
            self._limiter = anyio.CapacityLimiter(self.running)
        return self._limiter

    async def run(self, request: Request | None, work: Callable[[threading.Event], T]) -> T:
        """`work(cancel)` in one of this kind's threads; Overloaded when the line is full."""
        stats = self.limiter.statistics()
        if stats.borrowed_tokens >= self.running and stats.tasks_waiting >= self.waiting:
            raise Overloaded(self.kind, self.retry_after_s)
        cancel = threading.Event()
        self._live.add(cancel)
        failure: Exception | None = None
        try:
            async with anyio.create_task_group() as tasks:
                if request is not None:
                    tasks.start_soon(_watch_client, request, cancel)
                try:  # nothing may raise inside the group: anyio would wrap it in an ExceptionGroup
                    result = await anyio.to_thread.run_sync(work, cancel, limiter=self.limiter)
                except Exception as exc:
                    failure = exc
                tasks.cancel_scope.cancel()
        finally:
            self._live.discard(cancel)
        if failure is not None:
            raise failure
        return result

    def slot(self) -> threading.Semaphore:
        """For work that runs on its own thread (a question's event stream): `running + waiting` slots,
        taken without waiting (`acquire(blocking=False)`, Overloaded when none is free)."""
        with _SLOTS_LOCK:
            if self._slots is None:
                self._slots = threading.BoundedSemaphore(self.running + self.waiting)
            return self._slots

    def cancel_all(self) -> None:
        """Stop every request of this kind now (the server is shutting down)."""
        for cancel in list(self._live):
            cancel.set()


async def _watch_client(request: Request, cancel: threading.Event) -> None:
    while not cancel.is_set():
        if await request.is_disconnected():
            cancel.set()
            return
        await anyio.sleep(_POLL_S)


def default_limits() -> dict[str, WorkQueue]:
    """Per kind: SQL as many at once as the sandbox runs (queries.sandbox.DEFAULT_CONCURRENCY),
    searches (embedding a query is CPU work), questions (each holds a model conversation)."""
    from queries.sandbox import DEFAULT_CONCURRENCY

    cores = max(2, os.cpu_count() or 2)
    return {
        "sql": WorkQueue("sql", running=DEFAULT_CONCURRENCY, waiting=4 * DEFAULT_CONCURRENCY),
        "search": WorkQueue("search", running=cores, waiting=4 * cores, retry_after_s=2),
        "ask": WorkQueue("ask", running=2, waiting=4, retry_after_s=15),
        # a whole result written to a file: long, bounded by its own time limit, few at once
        "download": WorkQueue("download", running=2, waiting=2, retry_after_s=30),
    }

