"""How a batch's progress looks to a person: a live bar on a terminal, periodic lines in logs.

`ingest.batch.run_batch` calls any object with the `BatchDisplay` shape; these are the two the
command line uses.
"""

from __future__ import annotations

import sys
import threading
import time
from dataclasses import dataclass, field
from typing import IO

from ingest import IngestResult
from ingest.batch import BatchDisplay


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

