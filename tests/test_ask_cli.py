"""`vidmem ask` end to end against the real local model: a count question (tracks) and a when
question (transcript) about the generated clip speech_count.mp4, for every planner, with the
evidence and the tokens used. Answers are checked for plumbing and evidence, not tuned to a fixed
wording: the CI model is a 1.5B model on 2 CPU cores."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from agents.planners import PLANNER_NAMES
from ingest import IngestSettings, ingest_video
from memory import open_memory

pytestmark = [
    pytest.mark.llm,
    pytest.mark.slow,
    pytest.mark.skipif(
        not os.environ.get("OPENAI_BASE_URL"), reason="OPENAI_BASE_URL is unset (make test starts the local model)"
    ),
]


@pytest.fixture(scope="module")
def tracked_memory(media: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """speech_count.mp4 (20 s of vtest pedestrians plus a spoken request) with tracks and transcript."""
    path = tmp_path_factory.mktemp("ask") / "ask.duckdb"
    with open_memory(path) as mem:
        result = ingest_video(media["speech_count"], mem, IngestSettings().only("tracking", "asr"))
        assert result.status == "ok", result.error
        assert result.rows["tracks"] > 0 and result.rows["transcript"] > 0
    return path


def _ask(memory: Path, planner: str, question: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-m", "vidmem", "ask", "speech_count.mp4", question, "--memory", str(memory),
         "--planner", planner, "--max-steps", "3", "--mcts-n", "2", "--critic-rounds", "1", "--format", "json"],
        capture_output=True, text=True, timeout=1800,
        env={**os.environ, "VIDMEM_LLM_TIMEOUT_S": os.environ.get("VIDMEM_LLM_TIMEOUT_S", "600")},
    )  # fmt: skip
    assert done.returncode in (0, 1), done.stderr
    answer = json.loads(done.stdout)
    print(f"\n{planner}: {answer['answer']!r} | {answer['usage']}")
    return answer


#: The planners asked a count from the command line: react and MCTS, and self-consistency, which no other
#: end-to-end test runs. Critic and strategies answer test_ask_e2e's question on the same local model (each
#: took 3.5-5 minutes here under CI's load, a tenth of its run, for the same plumbing).
CLI_PLANNERS = ("react", "mcts", "self_consistency")


def test_every_planner_is_asked_end_to_end_somewhere() -> None:
    from tests.test_ask_e2e import PLANNERS as E2E_PLANNERS

    assert set(CLI_PLANNERS) | set(E2E_PLANNERS) == set(PLANNER_NAMES)


@pytest.mark.parametrize("planner", CLI_PLANNERS)
def test_count_question_with_evidence(tracked_memory: Path, planner: str) -> None:
    answer = _ask(tracked_memory, planner, "How many people are visible 5 seconds into the video?")
    assert answer["ok"], answer
    assert re.search(r"\d", answer["answer"]), "a count question needs a number"
    assert answer["usage"]["prompt_tokens"] > 0 and answer["usage"]["completion_tokens"] > 0
    assert any(ev["rows"] for ev in answer["evidence"]), "no rows in the evidence"
    # The evidence must come from the space-dominant memory: SQL over tracks/detections (or a library
    # macro over them), or a tool's rows taken from those tables.
    sql = " ".join(ev["sql"] or "" for ev in answer["evidence"]).lower()
    from_sql = any(
        name in sql for name in ("detections", "tracks", "instance_counts", "when_visible", "seen_at", "seen_between")
    )
    from_rows = any(
        "track_id" in row or row.get("source") == "tracks" for ev in answer["evidence"] for row in ev["rows"]
    )
    assert from_sql or from_rows, answer["evidence"]


def test_when_question_from_the_command_line(tracked_memory: Path, truth: dict[str, Any]) -> None:
    speech = truth["clips"]["speech_count"]["speech"]
    lo, hi = speech["whisper_base_segment_s"][0] - 0.5, speech["voiced_end_s"] + 0.5
    answer = _ask(tracked_memory, "react", "When does the speaker ask to count the people walking across the square?")
    assert answer["ok"], answer
    assert any(lo <= t <= hi for t in answer["times_s"]), answer["times_s"]
    assert answer["usage"]["calls"] >= 1
