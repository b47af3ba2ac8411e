"""Roles running side by side (ingest/overlap.py) over a real decode of a real clip.

The extractors here are scripted collaborators that record what they were given and when: the
thing under test is the scheduling (order per role, `after`, failures, cancellation), and the
decode feeding it is the real one.
"""

import threading
import time
from pathlib import Path
from typing import ClassVar

import pytest

from ingest import IngestSettings, Pipeline, ingest_video
from ingest.errors import BadVideoError
from ingest.media.frames import FrameBatch
from ingest.roles.extractor import Availability, Extractor, VideoContext
from ingest.roles.registry import EXTRACTORS
from memory import open_memory


class _Log:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.reset()

    def reset(self) -> None:
        self.events: list[tuple[str, str, float]] = []  # (role, what, time)
        self.frames: dict[str, list[int]] = {}
        self.threads: dict[str, set[str]] = {}

    def add(self, role: str, what: str) -> None:
        with self.lock:
            self.events.append((role, what, time.perf_counter()))
            self.threads.setdefault(role, set()).add(threading.current_thread().name)

    def time_of(self, role: str, what: str) -> float:
        return next(t for r, w, t in self.events if (r, w) == (role, what))


LOG = _Log()


class _Scripted(Extractor):
    rate: ClassVar[float | None] = None
    delay_s: ClassVar[float] = 0.0
    fail_in: ClassVar[str] = ""

    def availability(self) -> Availability:
        return Availability(True, "scripted")

    def sample_rate(self) -> float | None:
        return self.rate

    def begin(self, ctx: VideoContext) -> None:
        LOG.add(self.role, "begin")

    def warm(self) -> None:
        LOG.add(self.role, "warm")

    def process(self, batch: FrameBatch) -> None:
        LOG.add(self.role, "process")
        if self.fail_in == "process":
            raise RuntimeError("scripted crash")
        LOG.frames.setdefault(self.role, []).extend(f.index for f in batch.frames)
        time.sleep(self.delay_s)

    def prepare(self, ctx: VideoContext) -> None:
        LOG.add(self.role, "prepare")
        time.sleep(self.delay_s)

    def end(self, ctx: VideoContext) -> None:
        LOG.add(self.role, "end start")
        time.sleep(self.delay_s)
        LOG.add(self.role, "end")


class Tracks(_Scripted):
    role = "tracking"
    tables = ()
    rate = 5.0
    delay_s = 0.1


class Speech(_Scripted):  # audio-only: no frames, so its `prepare` starts at once; `end` waits for OCR's
    role = "asr"
    tables = ()
    delay_s = 0.3
    uses_if_run = ("ocr",)

    def needs_audio(self) -> bool:
        return True


class Words(_Scripted):
    role = "ocr"
    tables = ()
    rate = 1.0


class Looks(_Scripted):
    role = "appearance"
    tables = ()
    after = ("tracking",)


class Texts(_Scripted):
    role = "text_embeddings"
    tables = ()
    after = ("asr", "ocr")


@pytest.fixture(autouse=True)
def _fresh_log() -> None:
    LOG.reset()


def _ingest(video: Path, tmp_path: Path, *extractors: type[Extractor]) -> dict[str, str]:
    with open_memory(tmp_path / "m.duckdb") as mem:
        result = ingest_video(video, mem, Pipeline(IngestSettings(), extractors=list(extractors)))
    assert result.status == "ok", result.error
    return result.roles


def test_each_role_gets_its_frames_in_order_in_its_own_thread(media: dict[str, Path], tmp_path: Path) -> None:
    roles = _ingest(media["speech_sign"], tmp_path, Tracks, Speech, Words, Looks, Texts)
    assert set(roles.values()) == {"ran"}
    # 12 s at 25 fps: tracking every 5th frame, OCR every 25th, each in decode order, none twice
    assert LOG.frames["tracking"] == list(range(0, 300, 5))
    assert LOG.frames["ocr"] == list(range(0, 300, 25))
    workers = {role: names - {"MainThread"} for role, names in LOG.threads.items()}
    assert all(len(names) == 1 for names in workers.values()), workers
    assert len(set().union(*workers.values())) == len(workers)  # one thread per role


def test_end_waits_for_the_roles_it_reads_and_speech_overlaps_decoding(
    media: dict[str, Path], tmp_path: Path
) -> None:
    _ingest(media["speech_sign"], tmp_path, Tracks, Speech, Words, Looks, Texts)
    assert LOG.time_of("appearance", "end start") >= LOG.time_of("tracking", "end")
    assert LOG.time_of("text_embeddings", "end start") >= max(LOG.time_of("asr", "end"), LOG.time_of("ocr", "end"))
    last_frame = max(t for r, w, t in LOG.events if w == "process")
    assert LOG.time_of("asr", "prepare") < last_frame  # transcribing while frames still flow
    assert LOG.time_of("asr", "end start") >= LOG.time_of("ocr", "end")  # then reading the words on screen
    for role in ("tracking", "asr", "ocr"):  # prepare after its frames, before its end
        steps = [w for r, w, _ in LOG.events if r == role and w != "process"]
        assert steps == ["begin", "warm", "prepare", "end start", "end"], (role, steps)
    # each role warms up first, in its own thread: text embeddings before ASR and OCR have ended
    for role in ("tracking", "asr", "ocr", "appearance", "text_embeddings"):
        assert [w for r, w, _ in LOG.events if r == role][:2] == ["begin", "warm"]
    assert LOG.time_of("text_embeddings", "warm") < LOG.time_of("asr", "end")
    assert LOG.threads["text_embeddings"] == {"vidmem-text_embeddings", "MainThread"}  # begin in main, warm its own


def test_a_crashing_role_fails_alone_and_decoding_goes_on(media: dict[str, Path], tmp_path: Path) -> None:
    class Crashing(Words):
        fail_in = "process"

    roles = _ingest(media["speech_sign"], tmp_path, Tracks, Crashing, Texts)
    assert roles["ocr"] == "failed: RuntimeError: scripted crash"
    assert roles["tracking"] == roles["text_embeddings"] == "ran"
    assert LOG.frames["tracking"] == list(range(0, 300, 5))
    assert [w for r, w, _ in LOG.events if r == "ocr"] == ["begin", "warm", "process"]  # drained, never called again


def test_a_video_that_breaks_mid_decode_stops_every_role_thread(
    media: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import ingest.pipeline

    real_decode = ingest.pipeline.decode

    def breaking(*args: object, **kwargs: object):  # type: ignore[no-untyped-def]
        for i, batch in enumerate(real_decode(*args, **kwargs)):  # type: ignore[arg-type]
            if i == 2:
                raise BadVideoError("scripted: truncated stream")
            yield batch

    monkeypatch.setattr(ingest.pipeline, "decode", breaking)
    before = threading.active_count()
    with open_memory(tmp_path / "m.duckdb") as mem:
        result = ingest_video(media["speech_sign"], mem, Pipeline(IngestSettings(), extractors=[Tracks, Looks]))
    assert result.status == "failed" and "truncated stream" in (result.error or "")
    assert threading.active_count() == before
    assert ("tracking", "end") not in {(r, w) for r, w, _ in LOG.events}  # a failed video ends no role


def test_every_role_runs_after_the_roles_it_reads() -> None:
    order = [cls.role for cls in EXTRACTORS]
    for cls in EXTRACTORS:
        for role in cls.after:
            assert role in order and order.index(role) < order.index(cls.role), (cls.role, role)
