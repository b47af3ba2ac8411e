"""The benchmark summary plumbing: every benchmark's figures reach `python -m bench`'s table.

(The benchmarks themselves print figures, not pass/fail: they run with `python -m bench`.)"""

import ast
import json
from pathlib import Path

import pytest

from bench.agents import Row, figures
from bench.report import MARK, emit

BENCH = Path(__file__).resolve().parents[1] / "bench"


@pytest.mark.parametrize("name", ["ingest", "archive", "queries", "agents", "serve"])
def test_every_benchmark_emits_its_figures(name: str) -> None:
    tree = ast.parse((BENCH / f"{name}.py").read_text())
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "id", "") == "emit"]
    assert calls, f"bench/{name}.py never calls emit(): its figures would be missing from the summary"


def test_planner_figures_compare_with_react(capsys: pytest.CaptureFixture[str]) -> None:
    def row(planner: str, seconds: float, tokens: int, correct: bool) -> Row:
        result = {"id": "q", "kind": "when", "answer": "a", "ok": True, "correct": correct,
                  "prompt_tokens": tokens, "completion_tokens": 10, "calls": 2, "seconds": seconds}  # fmt: skip
        return Row(planner, [result])

    figs = {f.name: f for f in figures([row("react", 20.0, 990, True), row("mcts", 50.0, 2990, False)])}
    assert figs["react accuracy"].value == 100 and figs["mcts accuracy"].value == 0
    mcts_s = figs["mcts seconds per answer"]
    assert (mcts_s.baseline, mcts_s.baseline_value, mcts_s.ratio) == ("react (N=1)", 20.0, 0.4)  # < 1: costlier
    assert figs["mcts tokens per answer"].ratio == pytest.approx(1000 / 3000)
    emit("agents", list(figs.values()))
    line = capsys.readouterr().out.strip()
    assert line.startswith(MARK) and len(json.loads(line[len(MARK) :])["figures"]) == 6


def test_frame_search_rows_compare_within_their_scope() -> None:
    from bench.queries import VIDMEM_ALL, VIDMEM_ONE, SearchRow, Timing, search_figures

    def row(scope: str, method: str, ms: float) -> SearchRow:
        return SearchRow(scope, method, Timing([ms / 1000] * 3))

    rows = [row("all 9", VIDMEM_ALL, 40), row("all 9", "FAISS IndexFlatIP (exact)", 60),
            row("one video", VIDMEM_ONE, 5), row("one video", "SQLite (read vectors, then NumPy)", 10)]  # fmt: skip
    figs = [(f.name, f.value, f.baseline, f.baseline_value, f.ratio) for f in search_figures(rows)]
    assert figs == [
        ("frame search all 9 median", 40, "", None, None),
        ("frame search all 9 median", 40, "FAISS IndexFlatIP", 60, 1.5),  # > 1: vidmem faster
        ("frame search one video median", 5, "", None, None),
        ("frame search one video median", 5, "SQLite", 10, 2.0),  # against one video's vidmem, not the archive's
    ]


def test_agents_bench_cuts_the_generated_set_to_a_sample() -> None:
    import argparse

    from agents import Answer
    from agents.steps import Usage
    from agents.trace import SearchTree
    from bench.agents import _questions, type_table

    args = argparse.Namespace(set="qset", video_root=Path("/videos"), questions="", types="", sample=16, seed=0,
                              limit=None)  # fmt: skip
    picked = _questions(args)
    assert len(picked) == 16 and len({q.kind for q in picked}) == 8  # every type, two each
    assert all(q.video is not None and q.video.parent == Path("/videos") for q in picked)
    mc = next(q for q in picked if q.choices)

    def answer(choice: int) -> Answer:
        text, tree = mc.choices[choice], SearchTree(mc.question)
        return Answer(mc.question, text, True, "react", (), Usage(), 1.0, tree, mc.choices, choice)

    assert [mc.check(answer(i)) for i in range(len(mc.choices))].count(True) == 1  # scored as `vidmem eval` does
    cost = {"ok": True, "prompt_tokens": 100, "completion_tokens": 10, "calls": 2, "seconds": 3.0}
    rows = [Row("react", [{"id": q.id, "kind": q.kind, "correct": i % 2 == 0, **cost} for i, q in enumerate(picked)])]
    summary = rows[0].summary()
    assert summary["accuracy"] == 0.5 and 0.25 < summary["ci_low"] < 0.5 < summary["ci_high"] < 0.75
    assert "accuracy [95% CI]" in type_table(rows) and "unanswerable" in type_table(rows)


@pytest.mark.parametrize("module", ["bench.recall", "bench.ingest"])
def test_recall_judging_examples(module: str) -> None:
    """The recall rules' own examples (a walker kept, a walker lost, texts changed) hold."""
    import doctest
    import importlib

    failed, tried = doctest.testmod(importlib.import_module(module))
    assert tried and not failed
