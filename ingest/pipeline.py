"""The per-video pipeline: probe, one decode pass feeding every role, one atomic write."""

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path

from ingest.audio import load_audio
from ingest.errors import BadVideoError, IngestError
from ingest.extractor import Availability, Extractor, VideoContext
from ingest.frames import decode, sampling_plan
from ingest.overlap import RoleThreads
from ingest.probe import VideoInfo, check_readable, content_hash, path_id, probe, video_id_for
from ingest.settings import PIPELINE_VERSION, IngestSettings
from memory import Memory, VideoRecord, VideoRows

log = logging.getLogger(__name__)

#: Called after each decoded batch with (seconds of video done, video duration in seconds).
Progress = Callable[[float, float], None]


@dataclass(frozen=True)
class IngestResult:
    path: Path
    status: str  # 'ok' | 'skipped' (already in the memory with these settings) | 'failed'
    video_id: str | None = None
    error: str | None = None
    duration_s: float | None = None
    roles: dict[str, str] = field(default_factory=dict)
    rows: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    #: Wall seconds per stage: 'decode', 'audio', each role, 'write'.
    stage_seconds: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class Extraction:
    """One video's outcome before it is stored: the rows to commit (a success, or the `videos` row
    of a failure), or none when the video was skipped. Picklable, so that worker processes extract
    and a single writer stores (a DuckDB file has exactly one writing process)."""

    result: IngestResult
    rows: VideoRows | None = None


#: Given a video id, whether it is already done (`Pipeline.extract` then skips the video).
IsDone = Callable[[str], bool]


class Pipeline:
    """Builds each role's extractor once, then ingests videos one at a time.

    >>> pipe = Pipeline(IngestSettings().only("asr"))                 # doctest: +SKIP
    >>> pipe.ingest("clip.mp4", open_memory("m.duckdb")).status        # doctest: +SKIP
    'ok'
    """

    def __init__(self, settings: IngestSettings | None = None, extractors: Sequence[type[Extractor]] | None = None):
        from ingest.registry import EXTRACTORS

        self.settings = settings or IngestSettings()
        self.settings_hash = self.settings.settings_hash()
        self.availability: dict[str, Availability] = {}
        self.extractors: list[Extractor] = []
        for cls in extractors if extractors is not None else EXTRACTORS:
            if not getattr(self.settings, cls.role).enabled:
                continue
            extractor = cls(self.settings)
            avail = extractor.availability()
            self.availability[cls.role] = avail
            if avail.ok:
                self.extractors.append(extractor)
            else:
                log.info("role %s skipped: %s", cls.role, avail.detail)  # callers say it once, to the user

    def ingest(
        self, path: str | Path, memory: Memory, *, force: bool = False, progress: Progress | None = None
    ) -> IngestResult:
        """Ingest one file into `memory`: all its rows commit together, or a failure is recorded."""

        def done(video_id: str) -> bool:
            stored = memory.stored_video(video_id)
            return bool(stored and stored.status == "ok" and stored.settings_hash == self.settings_hash)

        return store(self.extract(path, is_done=None if force else done, progress=progress), memory)

    def extract(
        self, path: str | Path, *, is_done: IsDone | None = None, progress: Progress | None = None
    ) -> Extraction:
        """Probe and run every role over one file, touching no memory; `store()` commits the result."""
        started = time.perf_counter()
        path = Path(path).expanduser().resolve()
        try:
            info = probe(path)
        except BadVideoError as exc:
            return self._failure(path, _failure_id(path), str(exc), started)
        if is_done is not None and is_done(info.video_id):
            log.info("%s: already in the memory with these settings (%s)", path, info.video_id)
            return Extraction(IngestResult(path, "skipped", info.video_id, duration_s=info.duration_s))
        try:
            ctx, roles, stages = self._extract(info, progress)
        except IngestError as exc:
            return self._failure(path, info.video_id, str(exc), started, info)
        elapsed = time.perf_counter() - started
        record = _record(info, "ok", None, roles, self.settings, self.settings_hash, elapsed)
        rows = {name: tbl.num_rows for name, tbl in ctx.tables.items()}
        result = IngestResult(path, "ok", info.video_id, None, info.duration_s, roles, rows, elapsed, stages)
        return Extraction(result, VideoRows(record, ctx.tables))

    def _extract(
        self, info: VideoInfo, progress: Progress | None
    ) -> tuple[VideoContext, dict[str, str], dict[str, float]]:
        ctx = VideoContext(info)
        roles = {role: f"skipped: {a.detail}" for role, a in self.availability.items() if not a.ok}
        stages: dict[str, float] = {}
        active = []
        for ex in self.extractors:
            if ex.needs_audio() and not info.has_audio:
                roles[ex.role] = "skipped: no audio track"
            else:
                active.append(ex)
        if any(ex.needs_audio() for ex in active):
            t0 = time.perf_counter()
            ctx.audio = load_audio(info)
            stages["audio"] = time.perf_counter() - t0
        rates = {ex.role: rate for ex in active if (rate := ex.sample_rate()) is not None}
        plan = sampling_plan(info, rates)
        roles_running = RoleThreads(active, ctx)
        try:
            t_wait = time.perf_counter()
            for batch in decode(info, plan, self.settings.decode_batch, self.settings.device):
                stages["decode"] = stages.get("decode", 0.0) + time.perf_counter() - t_wait
                roles_running.feed(batch)
                if progress:
                    progress(batch.frames[-1].t_s, info.duration_s)
                t_wait = time.perf_counter()
        except BaseException:
            roles_running.finish(cancelled=True)  # the extractors are reused: no thread may outlive the video
            raise
        roles_running.finish()
        stages.update(roles_running.stage_seconds)
        failed = roles_running.failed
        for ex in active:
            if ex.role in failed:
                roles[ex.role] = f"failed: {failed[ex.role]}"
                for name in ex.tables:  # never store half of a role's output
                    ctx.tables.pop(name, None)
                log.warning("%s: role %s failed: %s", info.path, ex.role, failed[ex.role])
            else:
                roles[ex.role] = "ran"
        return ctx, roles, stages

    def failure(self, path: str | Path, error: str) -> Extraction:
        """The failure record of `path` for a reason found outside `extract` (e.g. its worker crashed)."""
        path = Path(path).expanduser().resolve()
        return self._failure(path, _failure_id(path), error, time.perf_counter())

    def _failure(
        self, path: Path, video_id: str, error: str, started: float, info: VideoInfo | None = None
    ) -> Extraction:
        log.error("%s", error)
        seconds = time.perf_counter() - started
        if info is not None:
            record = _record(info, "failed", error, {}, self.settings, self.settings_hash, seconds)
        else:  # not even probed: record what we know of the file
            record = VideoRecord(
                video_id=video_id,
                path=str(path),
                status="failed",
                error=error,
                size_bytes=path.stat().st_size if path.is_file() else None,
                pipeline_version=PIPELINE_VERSION,
                settings_hash=self.settings_hash,
                ingest_seconds=seconds,
            )
        result = IngestResult(path, "failed", video_id, error, seconds=seconds)
        return Extraction(result, VideoRows(record))


def store(extraction: Extraction, memory: Memory) -> IngestResult:
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
    memory.write_video(VideoRows(record, rows.tables))
    write = time.perf_counter() - t0
    log.info("%s: stored %s in %.1fs", result.path, result.rows, result.seconds + write)
    return replace(result, seconds=result.seconds + write, stage_seconds={**result.stage_seconds, "write": write})


def _failure_id(path: Path) -> str:
    """The content id when the bytes can be read (so a fixed re-run replaces it), else one from the path."""
    try:
        check_readable(path)
        return video_id_for(content_hash(path))
    except (BadVideoError, OSError):
        return path_id(path)


def _record(
    info: VideoInfo,
    status: str,
    error: str | None,
    roles: dict[str, str],
    settings: IngestSettings,
    settings_hash: str,
    seconds: float,
) -> VideoRecord:
    return VideoRecord(
        video_id=info.video_id,
        path=str(info.path),
        status=status,
        content_hash=info.content_hash,
        size_bytes=info.size_bytes,
        duration_s=info.duration_s,
        fps=info.fps,
        num_frames=info.num_frames,
        width=info.width,
        height=info.height,
        video_codec=info.video_codec,
        has_audio=info.has_audio,
        audio_codec=info.audio_codec,
        error=error,
        roles=roles,
        pipeline_version=PIPELINE_VERSION,
        settings_hash=settings_hash,
        settings=settings.to_dict(),
        ingest_seconds=seconds,
    )


def ingest_video(
    path: str | Path, memory: Memory, settings: IngestSettings | None = None, *, force: bool = False
) -> IngestResult:
    """Ingest one video with a one-off pipeline (build a `Pipeline` to reuse models across videos)."""
    return Pipeline(settings).ingest(path, memory, force=force)
