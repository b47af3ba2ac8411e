"""`vidmem eval` end to end against the real local model: two dev-set questions (one open, one
multiple choice) whose videos are not yet in the memory, so they are ingested first, and an archive question
that names no video; the report
is written as JSON and a table, and two reports compare per type. Accuracy is not asserted: the CI
model is a 1.5B model on 2 CPU cores; this proves the harness runs to completion and accounts."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from memory import open_memory

pytestmark = [
    pytest.mark.llm,
    pytest.mark.slow,
    pytest.mark.skipif(
        not os.environ.get("OPENAI_BASE_URL"), reason="OPENAI_BASE_URL is unset (make test starts the local model)"
    ),
]

DEVSET = Path(__file__).resolve().parents[1] / "bench" / "devset.jsonl"
PICK = ("what-sign", "what-audio-bikes")


def _vidmem(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "vidmem", *args], capture_output=True, text=True, timeout=1800,
        env={**os.environ, "VIDMEM_LLM_TIMEOUT_S": os.environ.get("VIDMEM_LLM_TIMEOUT_S", "600")},
    )  # fmt: skip


def test_eval_ingests_answers_reports_and_compares(media: dict[str, Path], tmp_path: Path) -> None:
    lines = [line for line in DEVSET.read_text().splitlines() if line.startswith("{")]
    picked = [line for line in lines if json.loads(line)["id"] in PICK]
    assert len(picked) == len(PICK)
    questions = tmp_path / "two.jsonl"
    # an archive question naming no video, as out16 writes them: asked of the whole memory, nothing to ingest
    archive = {"id": "archive-null", "video": None, "scope": "archive", "type": "archive",
               "question": "Which video has a sign?", "answer": "speech_sign.mp4"}
    questions.write_text("\n".join([*picked, json.dumps(archive)]) + "\n")
    memory = tmp_path / "eval.duckdb"
    root = media["speech_sign"].parent
    roles = ["--only", "asr,ocr,text_embeddings"]
    common = ["--memory", str(memory), "--video-root", str(root), *roles, "--max-steps", "4"]

    done = _vidmem("eval", str(questions), *common, "--report", str(tmp_path / "r.json"))
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.count("[video ") == 2 and "ok " in done.stdout  # both videos ingested first
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["planner"] == "react" and [r["id"] for r in report["records"]] == [*PICK, "archive-null"]
    for record in report["records"]:
        assert record["failure"] is None, record
        assert record["answer"] and record["predicted"] and record["method"] in ("match", "choice", "judge")
        assert record["calls"] >= 1 and record["prompt_tokens"] > 0 and record["seconds"] > 0
    assert set(report["by_type"]) == {"what", "archive"}
    assert "accuracy" in done.stdout and "s/answer" in done.stdout  # the readable table

    # a second run finds both videos stored and ingests nothing
    again = _vidmem("eval", str(questions), *common, "--limit", "1", "--report", str(tmp_path / "r1.json"))
    assert again.returncode == 0, again.stderr[-2000:]
    assert again.stdout.count("skipped ") == 1
    with open_memory(memory, read_only=True) as mem:
        assert mem.query("SELECT count(*) AS n FROM videos WHERE status = 'ok'")["n"][0].as_py() == 2

    compared = _vidmem("eval", "--compare", str(tmp_path / "r.json"), str(tmp_path / "r1.json"))
    assert compared.returncode == 0, compared.stderr
    assert "what" in compared.stdout
