"""Fault injection on the command line, cases kept as data (tests/data/cli_faults.yaml): every probe
of a hostile or mistaken invocation gets its exit status and one plain line, and leaves the memory
(a real one, ingested from the fixture clips) and every other file in its folder byte-for-byte."""

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from vidmem.cli import main

ROOT = Path(__file__).resolve().parent.parent
CASES: list[dict[str, Any]] = yaml.safe_load((ROOT / "tests" / "data" / "cli_faults.yaml").read_text())


@pytest.fixture(scope="module")
def archive(asr_memory: Path, media: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("faults")
    shutil.copy(asr_memory, folder / "m.duckdb")
    shutil.copy(asr_memory, folder / "other.duckdb")
    shutil.copy(media["speech_sign"], folder / "clip.mp4")
    (folder / "f.csv").write_text("a,b\n1,2\n")
    return folder


def _snapshot(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def _fill(text: str, folder: Path) -> str:
    return text.format(memory=folder / "m.duckdb", other=folder / "other.duckdb", dir=folder)


def _run(argv: list[str], subprocess_run: bool, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    if subprocess_run:  # as a new user would: a real process
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        done = subprocess.run([sys.executable, "-m", "vidmem", *argv], capture_output=True, text=True, env=env)
        return done.returncode, done.stdout, done.stderr
    capsys.readouterr()
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's errors
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_cli_fault(case: dict[str, Any], archive: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for name, content in (case.get("files") or {}).items():
        path = archive / name
        path.write_bytes(content if isinstance(content, bytes) else content.encode())
    before = _snapshot(archive)
    argv = [_fill(str(a), archive) for a in case["argv"]]
    try:
        code, out, err = _run(argv, bool(case.get("subprocess")), capsys)
        created = set(_snapshot(archive)) - set(before)
        assert code == case["exit"], f"exit {code}, stderr: {err}"
        lines = err.strip().splitlines()
        assert len(lines) == case.get("lines", 1), f"stderr should be {case.get('lines', 1)} line(s):\n{err}"
        for word in case.get("words", []):
            assert word in err, f"{word!r} not in: {err}"
        for word in case.get("stdout", []):
            assert word in out, f"{word!r} not in stdout: {out}"
        assert "Traceback" not in err
        after = _snapshot(archive)
        assert {k: after.get(k) for k in before} == before, "a file changed"
        assert created == set(case.get("creates", [])), f"files appeared: {created}"
    finally:
        for name in [*(case.get("files") or {}), *case.get("creates", [])]:
            (archive / name).unlink(missing_ok=True)


def test_every_case_is_well_formed() -> None:
    assert len(CASES) >= 40
    for case in CASES:
        assert set(case) <= {"name", "argv", "exit", "words", "files", "stdout", "lines", "subprocess", "creates"}
        assert case["exit"] in (0, 1, 2) and case["argv"][0] in ("sql", "ingest")


def test_a_reader_that_stops_early_gets_no_traceback(archive: Path) -> None:
    """`vidmem info | head -1`: the pipe closes under vidmem (here before it writes, so that the
    write surely fails); it stops quietly with SIGPIPE's exit status, no traceback."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "vidmem", "info", "-m", str(archive / "m.duckdb")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 141, err
    assert "Traceback" not in err and "Error" not in err, err
