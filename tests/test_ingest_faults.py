"""Fault injection for `vidmem ingest`: the memory never loses what it holds. The cases are data
(tests/data/ingest_faults.yaml); each runs the real command line on real clips and models."""

import hashlib
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import yaml

from ingest.roles.registry import EXTRACTORS
from memory import open_memory

pytestmark = pytest.mark.slow

CASES: dict[str, list[dict[str, Any]]] = yaml.safe_load(
    (Path(__file__).parent / "data" / "ingest_faults.yaml").read_text()
)
REPO = Path(__file__).resolve().parents[1]
ROLE_TABLES = {cls.role: cls.tables for cls in EXTRACTORS}
BASE_ROLES = "asr,tracking"


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}


def _command(*args: str) -> list[str]:
    return [sys.executable, "-m", "vidmem", "ingest", *args, "--workers", "1"]


def _ingest(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(_command(*args), capture_output=True, text=True, timeout=600, env=_env(), cwd=cwd)


def _checksums(mem_path: Path | str) -> dict[str, str]:
    """role -> checksum of every row of its tables (whole memory), plus its role_runs rows."""
    out: dict[str, str] = {}
    with open_memory(mem_path, read_only=True) as mem:
        for role, tables in ROLE_TABLES.items():
            digest = hashlib.sha256()
            for name in tables:
                rows = mem.query(f"SELECT * FROM {name}").to_pylist()
                digest.update(f"{name}:{sorted(map(repr, rows))}".encode())
            # What made the stored rows (not how the latest attempt went: a skip may be recorded).
            prov = mem.query(
                "SELECT video_id, settings_hash, model, row_count, rows, stored_at FROM role_runs WHERE role = ? "
                "ORDER BY video_id",
                [role],
            ).to_pylist()
            digest.update(repr(prov).encode())
            out[role] = digest.hexdigest()
    return out


def _runs(mem_path: Path | str) -> dict[str, dict[str, Any]]:
    with open_memory(mem_path, read_only=True) as mem:
        return {r["role"]: r for r in mem.query("SELECT * FROM role_runs").to_pylist()}


def _rows(mem_path: Path | str, table: str) -> int:
    with open_memory(mem_path, read_only=True) as mem:
        return int(mem.query(f"SELECT count(*) AS n FROM {table}")["n"][0].as_py())


@pytest.fixture(scope="module")
def base_memory(media: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`speech_sign` stored with a transcript and tracks (copy it; don't write it)."""
    path = tmp_path_factory.mktemp("faults") / "base.duckdb"
    run = _ingest(str(media["speech_sign"]), "--only", BASE_ROLES, "--memory", str(path))
    assert run.returncode == 0, run.stderr
    assert _rows(path, "transcript") > 0 and _rows(path, "tracks") > 0  # something to lose
    return path


def _copy(base: Path, tmp_path: Path) -> Path:
    mem = tmp_path / "m.duckdb"
    shutil.copyfile(base, mem)
    return mem


@pytest.mark.parametrize("case", CASES["rerun"], ids=lambda c: c["name"])
def test_rerun_keeps_every_other_role(
    case: dict[str, Any], base_memory: Path, media: dict[str, Path], tmp_path: Path
) -> None:
    mem = _copy(base_memory, tmp_path)
    before, runs_before = _checksums(mem), _runs(mem)
    run = _ingest(str(media["speech_sign"]), *case["args"], "--memory", str(mem))
    assert run.returncode in case["exit"], run.stderr
    assert case.get("traceback_allowed") or "Traceback" not in run.stderr, run.stderr
    after, runs_after = _checksums(mem), _runs(mem)
    for role in case["kept"]:
        assert after[role] == before[role], f"{role}'s rows changed: {run.stdout}\n{run.stderr}"
    for role in case["ran"]:
        assert runs_after[role]["status"] == "ok", runs_after[role]
        assert runs_before.get(role) is None or runs_after[role]["stored_at"] > runs_before[role]["stored_at"]
    selected = set(case["args"][case["args"].index("--only") + 1].split(","))
    for role, prev in runs_before.items():  # roles the probe did not select are untouched altogether
        if role not in selected:
            assert runs_after[role] == prev


@pytest.mark.parametrize("case", CASES["kill"], ids=lambda c: c["name"])
def test_kill_9_while_adding_a_role_keeps_earlier_rows(
    case: dict[str, Any], base_memory: Path, media: dict[str, Path], tmp_path: Path
) -> None:
    mem = _copy(base_memory, tmp_path)
    before = _checksums(mem)
    for delay in case["kill_after_s"]:
        proc = subprocess.Popen(
            _command(str(media["speech_sign"]), *case["args"], "--memory", str(mem)),
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=_env(), start_new_session=True,
        )
        time.sleep(delay)
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=60)
        after = _checksums(mem)  # the memory opens (no torn write), and nothing earlier is lost
        for role in case["kept"]:
            assert after[role] == before[role], f"{role} changed after kill -9 at {delay}s"
    rerun = _ingest(str(media["speech_sign"]), *case["args"], "--memory", str(mem))
    assert rerun.returncode == 0, rerun.stderr
    after, runs = _checksums(mem), _runs(mem)
    for role in case["kept"]:
        assert after[role] == before[role]
    for role in case["ran_after_rerun"]:
        assert runs[role]["status"] == "ok" and runs[role]["row_count"] > 0, runs[role]


@pytest.mark.parametrize("case", CASES["bad_copies"], ids=lambda c: c["name"])
def test_identical_bad_files_keep_a_failure_each(case: dict[str, Any], media: dict[str, Path], tmp_path: Path) -> None:
    paths = []
    for rel in case["paths"]:
        dst = tmp_path / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(media[case["file"]], dst)
        paths.append(str(dst))
    mem = tmp_path / "m.duckdb"

    def failures() -> dict[str, str]:
        with open_memory(mem, read_only=True) as m:
            rows = m.query("SELECT path, error FROM videos WHERE status = 'failed'").to_pylist()
        return {r["path"]: r["error"] for r in rows}

    for extra in ([], ["--retry-failed"], []):  # first run, a retry, and a plain re-run
        run = _ingest(*paths, "--only", "asr", "--memory", str(mem), *extra)
        assert run.returncode == 1, run.stderr
        got = failures()
        assert sorted(got) == sorted(paths), got
        for path in paths:
            assert case["reason"] in got[path] and path in got[path], got


@pytest.mark.parametrize("case", CASES["concurrent"], ids=lambda c: c["name"])
def test_concurrent_ingests_into_one_ducklake_both_land(
    case: dict[str, Any], media: dict[str, Path], tmp_path: Path
) -> None:
    uri = f"ducklake:sqlite:{tmp_path / 'lake' / 'catalog.sqlite'}"
    first = _ingest(str(media[case["existing"]]), *case["args"], "--memory", uri)
    assert first.returncode == 0, first.stderr
    procs = [
        subprocess.Popen(
            _command(str(media[clip]), *case["args"], "--memory", uri),
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env(),
        )
        for clip in case["clips"]
    ]
    outcomes = [p.communicate(timeout=600) for p in procs]
    for proc, (out, err) in zip(procs, outcomes, strict=True):
        assert proc.returncode == 0, err
        assert "Traceback" not in err, err
        assert "1 ingested" in out, out
    with open_memory(uri, read_only=True) as mem:
        rows = mem.query(
            "SELECT v.path, v.status, (SELECT count(*) FROM transcript t WHERE t.video_id = v.video_id) AS segments, "
            "(SELECT count(*) FROM role_runs r WHERE r.video_id = v.video_id) AS runs FROM videos v"
        ).to_pylist()
    by_name = {Path(r["path"]).name: r for r in rows}
    assert set(by_name) == {media[c].name for c in [case["existing"], *case["clips"]]}
    for clip in case["clips"]:
        got = by_name[media[clip].name]
        assert got["status"] == "ok" and got["segments"] > 0 and got["runs"] == 1, got
