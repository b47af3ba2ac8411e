"""Batch ingestion of an archive: bad files among good ones, resuming after SIGKILL, reading while
a run writes (DuckDB file between commits, DuckLake at any time), crashed workers, progress."""

import io
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar

import pytest

from ingest import Availability, Extractor, IngestResult, IngestSettings, VideoContext
from ingest.batch import WORKER_DIED, BatchOptions, run_batch
from ingest.errors import SettingsError
from ingest.models.whisper_weights import resolve_whisper
from ingest.sources import expand_sources
from memory import StoreError, open_memory
from memory.schema import CONTENT_TABLES
from vidmem.cli import main
from vidmem.display import LogDisplay, ProgressState

ASR = IngestSettings().only("asr")
GOOD = ("carphone", "no_audio", "speech_sign")  # in this order; the first two have no audio: quick
IGNORED = {"ingested_at", "ingest_seconds"}  # timings: differ between any two runs
# Whisper's confidences and its word alignment (cross-attention timing) move with the number of
# threads CTranslate2 gets (a Ray actor or a pool worker gets one, the in-process reference all);
# the segments, their times and the words themselves do not. Compared: everything but these.
SCORES = {"avg_logprob", "no_speech_prob", "probability"}
WORD_TIMES = {"start_s", "end_s"}
REPO = Path(__file__).resolve().parents[1]


def _env(**extra: str) -> dict[str, str]:
    # Subprocesses may run from another folder: import this checkout, not whatever is installed.
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]), **extra}


def _vidmem(*args: str, cwd: Path | None = None, user: list[str] | None = None,
            env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*(user or []), sys.executable, "-m", "vidmem", *args], capture_output=True,
                          text=True, timeout=300, cwd=cwd, env=env or _env())


@pytest.fixture(scope="module")
def shared_dir() -> Iterator[Path]:
    """A temp folder other users can read (pytest's tmp_path lies under a root-only folder)."""
    folder = Path(tempfile.mkdtemp(prefix="vidmem-batch-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def _place(src: Path, dst: Path, mode: int = 0o644) -> Path:
    dst.parent.mkdir(parents=True, exist_ok=True)
    dst.parent.chmod(0o755)
    shutil.copyfile(src, dst)
    dst.chmod(mode)
    return dst


@pytest.fixture(scope="module")
def good_dir(media: dict[str, Path], shared_dir: Path) -> Path:
    for name in GOOD:
        _place(media[name], shared_dir / "good" / media[name].name)
    return shared_dir / "good"


def _per_video(mem_path: str | Path) -> dict[str, dict[str, Any]]:
    """video path name -> its videos row (timings dropped) and its rows of every content table."""
    with open_memory(mem_path, read_only=True) as mem:
        videos = mem.query("SELECT * FROM videos ORDER BY path").to_pylist()
        out: dict[str, dict[str, Any]] = {}
        for v in videos:
            rows = {
                t.name: sorted(
                    repr({k: x for k, x in row.items()
                          if k not in SCORES and not (t.name == "transcript_words" and k in WORD_TIMES)})
                    for row in mem.query(f"SELECT * FROM {t.name} WHERE video_id = ?", [v["video_id"]]).to_pylist()
                )
                for t in CONTENT_TABLES
            }
            out[Path(v["path"]).name] = {"video": {k: x for k, x in v.items() if k not in IGNORED}, "rows": rows}
    return out


@pytest.fixture(scope="module")
def reference_memory(good_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The good clips ingested by one in-process worker."""
    path = tmp_path_factory.mktemp("ref") / "ref.duckdb"
    report = run_batch(expand_sources([good_dir]), path, ASR, BatchOptions(workers=1))
    assert report.counts == {"ok": len(GOOD), "skipped": 0, "failed": 0}, report.failures
    return path


@pytest.fixture(scope="module")
def reference(reference_memory: Path) -> dict[str, dict[str, Any]]:
    """What every other way of running must store, per video."""
    return _per_video(reference_memory)


def test_reference_rows_are_real(reference: dict[str, dict[str, Any]]) -> None:
    assert reference["speech_sign.mp4"]["video"]["status"] == "ok"
    said = " ".join(reference["speech_sign.mp4"]["rows"]["transcript"]).lower()
    assert "train" in said and "station" in said
    assert json.loads(reference["no_audio.mp4"]["video"]["roles"]) == {"asr": "skipped: no audio track"}


# -- a folder of good and bad files ----------------------------------------------------------------


def _as_unprivileged() -> list[str]:
    """A command prefix running as 'nobody': root reads any file, so permission tests need another user."""
    if os.geteuid() != 0:
        return []
    prefix = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "--"]
    if not shutil.which("setpriv"):
        pytest.skip("running as root without setpriv: cannot make a file unreadable to the ingest process")
    # It must run the interpreter and import vidmem: a checkout under a root-only folder (mktemp -d) hides both.
    if subprocess.run([*prefix, sys.executable, "-c", "import vidmem"], capture_output=True).returncode != 0:
        pytest.skip(f"'nobody' cannot import vidmem with {sys.executable} (checkout or venv not readable by other "
                    "users): cannot make a file unreadable to the ingest process")
    return prefix


def test_mixed_folder_lands_good_files_and_records_each_bad_one(media: dict[str, Path], shared_dir: Path) -> None:
    folder = shared_dir / "mixed"
    for name in ("speech_sign", "no_audio", "bad_zero", "bad_not_video", "bad_truncated"):
        _place(media[name], folder / media[name].name)
    locked = _place(media["carphone"], folder / "locked.mp4", mode=0o000)
    (shared_dir / "mixed-list.txt").write_text("mixed/missing.mp4\n")
    # The whisper weights where 'nobody' can read them (the packaged copy lives in root's home).
    weights = shared_dir / "whisper-base"
    if not weights.exists():
        shutil.copytree(resolve_whisper("base").location, weights)
    out = shared_dir / "out"
    out.mkdir(mode=0o777, exist_ok=True)
    out.chmod(0o777)
    mem = str(out / "mixed.duckdb")
    env = _env(HOME=str(out))
    args = ("ingest", "mixed", "mixed-list.txt", "--only", "asr", "--asr-model", str(weights), "--memory", mem)

    # One in-process worker: spawned workers would re-exec the interpreter, which 'nobody' may not
    # be allowed to (a venv linking into root's home); the pool has its own tests below.
    run = _vidmem(*args, "--workers", "1", cwd=shared_dir, user=_as_unprivileged(), env=env)
    assert run.returncode == 1, run.stderr
    assert "2 ingested, 0 already stored, 5 failed" in run.stdout
    reasons = {
        "zero.mp4": "empty file (0 bytes)",
        "not_video.mp4": "not a readable video",
        "truncated.mp4": "truncated or corrupt",
        "locked.mp4": "permission denied",
        "missing.mp4": "file not found",
    }
    with open_memory(mem, read_only=True) as m:
        videos = {Path(r["path"]).name: r for r in m.query("SELECT * FROM videos").to_pylist()}
        words = m.query("SELECT count(*) AS n FROM transcript_words")["n"][0].as_py()
    assert {n: v["status"] for n, v in videos.items()} == {
        "speech_sign.mp4": "ok", "no_audio.mp4": "ok", **{n: "failed" for n in reasons}
    }
    for name, reason in reasons.items():
        assert reason in videos[name]["error"], videos[name]
        assert reason in run.stderr
    assert words >= 8  # the spoken sentence landed whole

    # A re-run does not try unchanged failures again (root could now read locked.mp4: still not tried).
    sources = expand_sources([folder, shared_dir / "mixed-list.txt"])
    settings = replace(ASR, asr=replace(ASR.asr, model=str(weights)))  # as on the command line
    again = run_batch(sources, mem, settings)
    assert again.counts == {"ok": 0, "skipped": 2, "failed": 5}
    assert all("--retry-failed" in (r.error or "") for r in again.failures)
    # --retry-failed does; as root the file is readable, so it lands and its old failure is gone.
    retried = run_batch(sources, mem, settings, BatchOptions(retry_failed=True))
    expected_ok = 1 if os.geteuid() == 0 else 0
    assert retried.counts == {"ok": expected_ok, "skipped": 2, "failed": 5 - expected_ok}
    with open_memory(mem, read_only=True) as m:
        rows = m.query("SELECT status, error FROM videos WHERE path = ?", [str(locked)]).to_pylist()
        assert m.query("SELECT count(*) AS n FROM videos")["n"][0].as_py() == 7
    assert rows == ([{"status": "ok", "error": None}] if expected_ok else rows)


def test_usage_errors_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["ingest", str(empty), "--memory", str(tmp_path / "m.duckdb")]) == 2
    assert "no videos found" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exited:
        main(["ingest", str(empty), "--workers", "0"])
    assert exited.value.code == 2 and "at least 1" in capsys.readouterr().err
    with pytest.raises(SettingsError):
        BatchOptions(workers=0)


# -- SIGKILL mid-batch, reading a DuckDB file between commits ------------------------------------


def _check_whole(mem_path: Path, reference: dict[str, dict[str, Any]]) -> int:
    """Every visible video is complete and present once; content rows of no other video exist."""
    with open_memory(mem_path, read_only=True) as mem:
        ids = mem.query("SELECT video_id, count(*) AS n FROM videos GROUP BY video_id").to_pylist()
        assert all(r["n"] == 1 for r in ids), ids
        for t in CONTENT_TABLES:
            orphans = mem.query(
                f"SELECT count(*) AS n FROM {t.name} WHERE video_id NOT IN "
                "(SELECT video_id FROM videos WHERE status = 'ok')"
            )["n"][0].as_py()
            assert orphans == 0, t.name
    visible = _per_video(mem_path)
    for name, got in visible.items():
        assert got == reference[name], name
    return len(visible)


def test_sigkill_mid_batch_then_rerun_stores_every_video_once(
    good_dir: Path, tmp_path: Path, reference: dict[str, dict[str, Any]]
) -> None:
    mem = tmp_path / "killed.duckdb"
    polls = {"read": 0, "locked": 0, "partial_seen": 0}
    stop = threading.Event()

    def poll() -> None:
        # An analyst reading the DuckDB file while the batch writes: works between commits.
        while not stop.is_set():
            try:
                n = _check_whole(mem, reference)
                polls["read"] += 1
                polls["partial_seen"] += 0 < n < len(GOOD)
            except StoreError as exc:
                assert "locked" in str(exc) or "no memory" in str(exc), exc
                polls["locked"] += "locked" in str(exc)
            time.sleep(0.2)

    stderr = (tmp_path / "stderr.txt").open("w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "vidmem", "ingest", str(good_dir), "--only", "asr", "--workers", "2",
         "--memory", str(mem)],
        stdout=subprocess.PIPE, stderr=stderr, text=True, start_new_session=True, env=_env(),
    )
    poller = threading.Thread(target=poll, daemon=True)
    poller.start()
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            if "] ok " in line:  # printed once the video is committed
                break
        time.sleep(0.5)  # let the poller read at least once between commits
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        stop.set()
        poller.join()
    # The workers die with the run (no orphans holding memory).
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        try:
            os.killpg(proc.pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.2)
    else:
        os.killpg(proc.pid, signal.SIGKILL)
        pytest.fail("worker processes outlived the killed run")
    print(f"reads between commits: {polls}", file=sys.stderr)
    assert polls["read"] >= 1
    seen = _check_whole(mem, reference)
    assert 1 <= seen < len(GOOD), "the kill should land mid-batch"

    rerun = _vidmem("ingest", str(good_dir), "--only", "asr", "--workers", "2", "--memory", str(mem))
    assert rerun.returncode == 0, rerun.stderr
    assert f"{len(GOOD) - seen} ingested, {seen} already stored, 0 failed" in rerun.stdout
    assert _check_whole(mem, reference) == len(GOOD)


def test_writer_waits_while_a_reader_holds_the_file(media: dict[str, Path], tmp_path: Path) -> None:
    mem = tmp_path / "held.duckdb"
    open_memory(mem).close()
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time\nfrom memory import open_memory\n"
         f"m = open_memory({str(mem)!r}, read_only=True)\nprint('held', flush=True)\ntime.sleep(3)"],
        stdout=subprocess.PIPE, text=True, env=_env(),
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        clips = [media["no_audio"], media["carphone"]]
        with pytest.raises(StoreError, match="another process keeps open"):
            run_batch(clips, mem, ASR, BatchOptions(workers=1, lock_timeout_s=0.3))
        started = time.monotonic()
        report = run_batch(clips, mem, ASR, BatchOptions(workers=1))
        assert report.counts["ok"] == 2
        assert time.monotonic() - started > 1.0  # it waited for the reader, then went on
    finally:
        holder.kill()
        holder.wait()


# -- DuckLake: queries from another process while the batch writes ----------------------------------


def test_sql_from_another_process_sees_videos_appear_in_ducklake(
    good_dir: Path, tmp_path: Path, reference: dict[str, dict[str, Any]]
) -> None:
    uri = f"ducklake:sqlite:{tmp_path / 'lake' / 'catalog.sqlite'}"
    proc = subprocess.Popen(
        [sys.executable, "-m", "vidmem", "ingest", str(good_dir), "--only", "asr", "--workers", "1", "--memory", uri],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env(),
    )
    query = (
        "SELECT v.path, v.status, (SELECT count(*) FROM transcript_words w WHERE w.video_id = v.video_id) AS words "
        "FROM videos v ORDER BY v.path"
    )
    seen: list[int] = []
    failures: list[str] = []
    while proc.poll() is None:
        out = _vidmem("sql", query, "--memory", uri, "--format", "json")
        if out.returncode != 0:
            if seen:  # failing is expected only until the run has created the catalog
                failures.append(out.stderr)
            continue
        rows = json.loads(out.stdout)
        time.sleep(0.5)  # leave the 2 CPUs mostly to the ingest
        for r in rows:  # each visible video is whole
            expected = reference[Path(r["path"]).name]["rows"]["transcript_words"]
            assert r["status"] == "ok" and r["words"] == len(expected), r
        seen.append(len(rows))
    _, stderr = proc.communicate()
    assert proc.returncode == 0, stderr
    assert not failures, failures
    print("polls saw", seen, file=sys.stderr)
    assert seen == sorted(seen), seen  # videos only ever appear
    assert any(0 < n < len(GOOD) for n in seen), seen  # some queries ran mid-batch
    assert _per_video(uri) == reference


# -- Ray ------------------------------------------------------------------------------------------


def test_local_ray_cluster_stores_the_same_rows(
    good_dir: Path, tmp_path: Path, reference: dict[str, dict[str, Any]]
) -> None:
    pytest.importorskip("ray")
    mem = tmp_path / "ray.duckdb"
    done = _vidmem("ingest", str(good_dir), "--only", "asr", "--ray", "local", "--workers", "2", "--memory", str(mem))
    assert done.returncode == 0, done.stderr
    assert f"{len(GOOD)} ingested" in done.stdout
    assert _per_video(mem) == reference


# -- a worker that dies ---------------------------------------------------------------------------


class _DiesOnVfr(Extractor):
    """Stands in for a decoder or model library that segfaults on one file."""

    role: ClassVar[str] = "asr"
    tables: ClassVar[tuple[str, ...]] = ()

    def availability(self) -> Availability:
        return Availability(True, "test stand-in")

    def end(self, ctx: VideoContext) -> None:
        if ctx.info.path.name == "vfr.mp4":
            os._exit(139)


def test_a_crashing_worker_fails_only_its_file(media: dict[str, Path], tmp_path: Path) -> None:
    clips = [media[n] for n in ("carphone", "vfr", "no_audio", "bikes")]
    report = run_batch(clips, tmp_path / "m.duckdb", ASR, BatchOptions(workers=2), extractors=(_DiesOnVfr,))
    status = {r.path.name: r.status for r in report.results}
    assert status == {"carphone.mp4": "ok", "vfr.mp4": "failed", "no_audio.mp4": "ok", "bikes.mp4": "ok"}
    assert report.failures[0].error == WORKER_DIED
    with open_memory(tmp_path / "m.duckdb", read_only=True) as mem:
        assert mem.query("SELECT error FROM videos WHERE status = 'failed'").to_pylist() == [{"error": WORKER_DIED}]


# -- progress -------------------------------------------------------------------------------------


def _result(status: str, duration_s: float | None = 1800.0) -> IngestResult:
    return IngestResult(Path(f"/a/{status}.mp4"), status, "v1", "why" if status == "failed" else None, duration_s)


def test_progress_counts_rate_and_eta() -> None:
    state = ProgressState(total_files=4, total_bytes=400, started=0.0)
    assert "ETA -" in state.line(now=10.0)
    state.add(_result("ok"), 100)
    state.add(_result("skipped"), 100)
    state.add(_result("failed", None), 100)
    # 200 bytes processed in 3600 s, 100 bytes left -> 1800 s; 0.5 video-h in 1 h.
    assert state.eta_s(now=3600.0) == pytest.approx(1800.0)
    line = state.line(now=3600.0)
    assert line.startswith("3/4 files, 1 failed, 1 already stored")
    assert "0.500 video-h in 1:00:00 (0.50 video-h/h)" in line and "ETA 0:30:00" in line


def test_log_display_prints_progress_lines_periodically() -> None:
    out, err = io.StringIO(), io.StringIO()
    display = LogDisplay(interval_s=0.05, out=out, err=err)
    display.start(total_files=2, total_bytes=10)
    display.result(_result("ok"), 5)
    display.note("[1/2] ok /a/ok.mp4")
    display.note("[2/2] failed /a/failed.mp4: why", error=True)
    time.sleep(0.3)  # no result for a while: the timer still reports
    display.finish()
    lines = err.getvalue().splitlines()
    assert sum(ln.startswith("progress: 1/2 files") for ln in lines) >= 3
    assert "[2/2] failed" in err.getvalue() and out.getvalue() == "[1/2] ok /a/ok.mp4\n"



def test_rich_display_draws_a_bar_and_notes() -> None:
    from vidmem.display import RichDisplay

    stream = io.StringIO()
    display = RichDisplay(stream)
    display.console.force_terminal = False  # plain text into the StringIO: the final frame stays readable
    display.start(total_files=2, total_bytes=10)
    display.note("[1/2] failed /a/x.mp4: empty file (0 bytes)", error=True)
    display.result(_result("failed", None), 5)
    display.finish()
    text = stream.getvalue()
    assert "empty file (0 bytes)" in text and "1/2" in text and "1 failed" in text
