"""The memory behind the web app, opened read-only only while requests use it.

A DuckDB file has one writer and no readers beside it (a file lock), so a server that kept the
file open would stop `vidmem ingest` from starting. Each request leases the memory instead: the
first lease opens it read-only, and the last one to end closes it after `hold_s` idle seconds (a
burst of requests, such as a page and its media, shares one open; the search matrices cached on
an open memory survive the burst). While an ingest holds the file, a lease raises `MemoryBusy`.
DuckLake memories allow reading beside a writer, so nothing is ever busy there.
"""

import contextlib
import logging
import threading
from collections.abc import Iterator

from memory import Memory, MemoryURI, StoreError, open_memory, parse_uri

log = logging.getLogger(__name__)


class MemoryBusy(StoreError):
    """The memory's file is locked by a writer (an ingest); try again when it is done."""


class MemorySource:
    """Leases of one memory: `with source.lease() as memory: ...` (thread-safe)."""

    def __init__(self, uri: str | MemoryURI, *, hold_s: float = 2.0) -> None:
        if hold_s < 0:
            raise ValueError(f"hold_s must be >= 0, got {hold_s}")
        self.uri = uri if isinstance(uri, MemoryURI) else parse_uri(uri)
        self.hold_s = hold_s
        self._lock = threading.Lock()
        self._memory: Memory | None = None
        self._users = 0
        self._timer: threading.Timer | None = None
        self.opens = 0  # how many times the file was opened: tests and the benchmark read it

    @contextlib.contextmanager
    def lease(self) -> Iterator[Memory]:
        memory = self._acquire()
        try:
            yield memory
        finally:
            self._release()

    @property
    def is_open(self) -> bool:
        with self._lock:
            return self._memory is not None

    def close(self) -> None:
        """Close the memory now if no request uses it (the server is stopping)."""
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            if self._users == 0:
                self._close_locked()

    def _acquire(self) -> Memory:
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            if self._memory is None:
                self._memory = self._open()
                self.opens += 1
            self._users += 1
            return self._memory

    def _release(self) -> None:
        with self._lock:
            self._users -= 1
            if self._users:
                return
            if self.hold_s == 0:
                self._close_locked()
            else:
                self._timer = threading.Timer(self.hold_s, self._close_if_idle)
                self._timer.daemon = True
                self._timer.start()

    def _close_if_idle(self) -> None:
        with self._lock:
            self._timer = None
            if self._users == 0:
                self._close_locked()

    def _close_locked(self) -> None:
        if self._memory is not None:
            memory, self._memory = self._memory, None
            memory.close()

    def _open(self) -> Memory:
        try:
            return open_memory(self.uri, read_only=True)
        except StoreError as exc:
            if "locked" in str(exc):
                raise MemoryBusy(
                    f"memory {self.uri} is being written by another process (an ingest?): pages work again when "
                    "it is done. To browse while ingesting, use a DuckLake memory (ducklake:sqlite:PATH)."
                ) from exc
            raise
