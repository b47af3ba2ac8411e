"""The per-video pipeline: probe, plan which roles run, one decode pass feeding every role; the rows
it returns are committed in one atomic write by ingest/writer.py."""

import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from ingest.errors import BadVideoError, IngestError
from ingest.media.audio import load_audio
from ingest.media.frames import decode, sampling_plan
from ingest.media.probe import VideoInfo, check_readable, content_hash, path_id, probe
from ingest.overlap import RoleThreads
from ingest.roles.extractor import Availability, Extractor, VideoContext
from ingest.settings import PIPELINE_VERSION, IngestSettings, role_hash_of
from memory import RoleRun, RoleState, VideoRecord, VideoRows

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
    #: Roles that ran again although their rows were current, and why (another role reads them).
    recomputed: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Extraction:
    """One video's outcome before it is stored: the rows to commit (a success, or the `videos` row
    of a failure), or none when the video was skipped. Picklable, so that worker processes extract
    and a single writer stores (a DuckDB file has exactly one writing process)."""

    result: IngestResult
    rows: VideoRows | None = None


#: Given a video id, what `role_runs` holds for it (None: a video the memory does not have).
StoredRoles = Callable[[str], Mapping[str, RoleState] | None]


class Pipeline:
    """Builds each role's extractor once, then plans and extracts videos one at a time; it never
    writes: a `Writer` (ingest/writer.py) commits what `extract` returns.

    >>> pipe = Pipeline(IngestSettings().only("asr"))                 # doctest: +SKIP
    >>> pipe.extract("clip.mp4").result.status                        # doctest: +SKIP
    'ok'
    """

    def __init__(self, settings: IngestSettings | None = None, extractors: Sequence[type[Extractor]] | None = None):
        from ingest.roles.registry import EXTRACTORS

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
        self.role_hashes = {ex.role: self.settings.role_hash(ex.role) for ex in self.extractors}

    def roles_to_run(
        self, info: VideoInfo, stored: Mapping[str, RoleState] | None
    ) -> tuple[list[Extractor], dict[str, str]]:
        """The roles that run on this video, and those among them that run only because another
        role reads or writes over their output (role -> why).

        A role runs when it has no stored run, or its own settings changed since its rows were made,
        or its latest run was skipped (a failure with the same settings is not tried again: the
        batch drops failed states when asked to retry; a role that needs audio, on a video without
        any, only records that once). A role that reads another's output
        (`Extractor.after`) needs that role to run too, in the same pass; and when a role runs, those
        that read its output run again so that they never describe rows that are gone.
        """
        available = {ex.role: ex for ex in self.extractors}
        if stored is None:
            return list(self.extractors), {}
        run: set[str] = set()
        silent: set[str] = set()  # roles with nothing to work on here: they only record why
        for role, ex in available.items():
            state = stored.get(role)
            nothing_to_hear = ex.needs_audio() and not info.has_audio
            if state is None:
                (silent if nothing_to_hear else run).add(role)
                continue
            if nothing_to_hear:
                continue
            current = self.role_hashes[role]
            if state.status == "ok" and (state.settings_hash or role_hash_of(role, state.settings)) == current:
                continue
            if state.status == "failed" and state.attempt_settings_hash == current:
                continue  # failed with these very settings: it would again (the batch's retry_failed drops these)
            run.add(role)  # missing, changed, or skipped before (its model was unavailable)
        # A reader one of whose inputs is stored but not selected here would see none of that input's
        # rows and replace its own from the rest (`--only asr,text_embeddings` lost the OCR text's
        # embeddings): it does not run and keeps its rows; the writer marks it stale when an input
        # it reads was replaced (writer._stale_readers), naming the roles to select with it.
        blind = {
            role: unselected
            for role, ex in available.items()
            if (unselected := [d for d in ex.after if d not in available and stored_ok(stored.get(d))])
        }
        for role in sorted(run & blind.keys()):
            log.warning("%s: %s not run: it reads the rows of %s, which this run does not select; select them "
                        "too (--only %s)", info.path, role, ", ".join(blind[role]),
                        ",".join([*available[role].after, role]))
        run -= blind.keys()
        wanted = set(run)
        changed = True
        while changed:
            changed = False
            for role in list(run):
                for dep in available[role].after:
                    if dep in available and dep not in run:
                        run.add(dep)
                        changed = True
            for role, ex in available.items():
                if role not in run and role not in blind and any(dep in run for dep in ex.after):
                    run.add(role)
                    changed = True
        why: dict[str, str] = {}
        for role in sorted(run - wanted):  # pulled in: a role that runs reads it, or it reads one
            readers = [r for r in sorted(run) if role in available[r].after]
            why[role] = f"{', '.join(readers)} reads its rows" if readers else "it reads rows that were recomputed"
        return [ex for ex in self.extractors if ex.role in run | silent], why

    def extract(
        self, path: str | Path, *, stored: StoredRoles | None = None, progress: Progress | None = None
    ) -> Extraction:
        """Probe and run the roles this video needs over one file, touching no memory; a `Writer`
        commits the result. Without `stored`, every role runs."""
        started = time.perf_counter()
        path = Path(path).expanduser().resolve()
        try:
            info = probe(path)
        except BadVideoError as exc:
            return self._failure(path, str(exc), started)
        states = stored(info.video_id) if stored is not None else None
        extractors, recomputed = self.roles_to_run(info, states)
        unavailable = [
            RoleRun(role, "skipped", a.detail, self.settings.role_hash(role))
            for role, a in self.availability.items()
            if not a.ok and (states is None or _changed(states.get(role), "skipped", a.detail))
        ]
        if not extractors:
            log.info("%s: every role is already stored with these settings (%s)", path, info.video_id)
            result = IngestResult(path, "skipped", info.video_id, duration_s=info.duration_s,
                                  roles={r.role: f"skipped: {r.reason}" for r in unavailable})
            if not unavailable:
                return Extraction(result)
            elapsed = time.perf_counter() - started
            record = _record(info, "ok", None, dict(result.roles), self.settings, self.settings_hash, elapsed)
            return Extraction(result, VideoRows(record, runs=tuple(unavailable)))
        try:
            ctx, roles, stages = self._extract(info, extractors, progress)
        except IngestError as exc:
            return self._failure(path, str(exc), started, info)
        elapsed = time.perf_counter() - started
        roles.update({r.role: f"skipped: {r.reason}" for r in unavailable})
        runs = [*unavailable]
        for ex in extractors:
            status, _, reason = roles[ex.role].partition(": ")
            runs.append(RoleRun(
                ex.role, "ok" if status == "ran" else status, reason or None, self.role_hashes[ex.role],
                self.settings.role_settings(ex.role), self.availability[ex.role].detail, ex.tables,
            ))
        record = _record(info, "ok", None, roles, self.settings, self.settings_hash, elapsed)
        rows = {name: tbl.num_rows for name, tbl in ctx.tables.items()}
        result = IngestResult(
            path, "ok", info.video_id, None, info.duration_s, roles, rows, elapsed, stages, recomputed
        )
        return Extraction(result, VideoRows(record, ctx.tables, tuple(runs)))

    def _extract(
        self, info: VideoInfo, extractors: Sequence[Extractor], progress: Progress | None
    ) -> tuple[VideoContext, dict[str, str], dict[str, float]]:
        ctx = VideoContext(info)
        roles: dict[str, str] = {}
        stages: dict[str, float] = {}
        active = []
        for ex in extractors:
            if ex.needs_audio() and not info.has_audio:
                roles[ex.role] = "skipped: no audio track"
            else:
                active.append(ex)
        if not active:
            return ctx, roles, stages
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
        return self._failure(path, error, time.perf_counter())

    def _failure(self, path: Path, error: str, started: float, info: VideoInfo | None = None) -> Extraction:
        """A failed file's record. It is keyed by path (two copies of one bad file keep a reason
        each); the content hash, where known, lets the memory keep a stored copy's good rows."""
        log.error("%s", error)
        seconds = time.perf_counter() - started
        video_id = path_id(path)
        if info is not None:
            record = replace(
                _record(info, "failed", error, {}, self.settings, self.settings_hash, seconds), video_id=video_id
            )
        else:  # not even probed: record what we know of the file
            record = VideoRecord(
                video_id=video_id,
                content_hash=_content_hash(path),
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


def _content_hash(path: Path) -> str | None:
    """The file's content hash when its bytes can be read, else None."""
    try:
        check_readable(path)
        return content_hash(path)
    except (BadVideoError, OSError):
        return None


def stored_ok(state: RoleState | None) -> bool:
    """Whether a role's rows are stored from a run that went 'ok'."""
    return state is not None and state.status == "ok"


def _changed(state: RoleState | None, status: str, reason: str | None) -> bool:
    return state is None or state.status != status or state.reason != reason


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
