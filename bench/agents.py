"""Agents benchmark: per planner, on a fixed small question set over the fixture memory,
accuracy, tokens per answer (prompt and completion), LLM calls per answer and seconds per answer.

    .venv/bin/python -m bench.agents                       # every planner, every question
    .venv/bin/python -m bench.agents --planners react,mcts --mcts-n 2 --json out.json

Needs an OpenAI-compatible endpoint (OPENAI_BASE_URL, VIDMEM_LLM_MODEL; for the local model:
eval "$(shared/tools/local-llm env)"). The memory is the generated speech clips ingested with ASR
only, built once and cached. Ratios are against ReAct (one chain), the planners' baseline.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from agents import PLANNER_NAMES, AgentError, AgentSettings, Answer, ToolContext, ask
from bench.report import Figure, emit

DEFAULT_MEMORY = Path(os.environ.get("VIDMEM_BENCH_DIR", Path.home() / ".cache" / "vidmem" / "bench")) / "agents.duckdb"


@dataclass(frozen=True)
class BenchQuestion:
    id: str
    clip: str  # fixture name (tests/fixtures/truth.json)
    kind: str  # when / what / choice
    question: str
    check: Callable[[Answer], bool]
    choices: tuple[str, ...] = ()


def _time_within(lo: float, hi: float) -> Callable[[Answer], bool]:
    def check(answer: Answer) -> bool:
        return any(lo <= float(x) <= hi for x in re.findall(r"\d+(?:\.\d+)?", answer.text))

    return check


def _mentions(*words: str) -> Callable[[Answer], bool]:
    return lambda answer: all(w in answer.text.lower() for w in words)


def _choice(index: int) -> Callable[[Answer], bool]:
    return lambda answer: answer.choice == index


# Facts from tests/fixtures/truth.json (voiced intervals and whisper segments, with 0.5 s slack).
QUESTIONS = (
    BenchQuestion(
        "count-when",
        "speech_count",
        "when",
        "When does the speaker ask to count the people walking across the square?",
        _time_within(7.2, 11.6),
    ),
    BenchQuestion("train-when", "speech_sign", "when", "When is the red train mentioned?", _time_within(1.1, 5.6)),
    BenchQuestion(
        "count-what", "speech_count", "what", "What does the speaker ask the viewer to count?", _mentions("people")
    ),
    BenchQuestion(
        "train-choice",
        "speech_sign",
        "choice",
        "According to the speaker, what does the red train do?",
        _choice(1),
        ("It arrives late at night", "It leaves the station early in the morning", "It stops at the square"),
    ),
)


@dataclass
class Row:
    planner: str
    results: list[dict[str, Any]] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        done = [r for r in self.results if "error" not in r]
        n = max(len(done), 1)

        def mean(key: str) -> float:
            return sum(r[key] for r in done) / n

        return {
            "planner": self.planner,
            "questions": len(self.results),
            "accuracy": sum(r["correct"] for r in done) / max(len(self.results), 1),
            "prompt_tokens": mean("prompt_tokens"),
            "completion_tokens": mean("completion_tokens"),
            "tokens": mean("prompt_tokens") + mean("completion_tokens"),
            "calls": mean("calls"),
            "seconds": mean("seconds"),
            "seconds_median": statistics.median([r["seconds"] for r in done]) if done else 0.0,
            "no_answer": sum(not r["ok"] for r in done),
            "errors": len(self.results) - len(done),
        }


def build_memory(path: Path) -> Path:
    """The speech clips ingested with ASR only (once; later runs reuse the file)."""
    from ingest import IngestSettings, Pipeline
    from memory import open_memory
    from tests.fixtures.make_fixtures import ensure_fixtures

    media = ensure_fixtures()
    pipeline = Pipeline(IngestSettings().only("asr"))
    with open_memory(path) as mem:
        for name in sorted({q.clip for q in QUESTIONS}):
            result = pipeline.ingest(media[name], mem)
            if result.status == "failed":
                raise SystemExit(f"could not ingest {name}: {result.error}")
    return path


def video_ids(memory: Any) -> dict[str, str]:
    rows = memory.query("SELECT video_id, path FROM videos WHERE status = 'ok'").to_pylist()
    return {Path(r["path"]).stem: r["video_id"] for r in rows}


def run(
    planners: Sequence[str],
    questions: Sequence[BenchQuestion],
    ctx: ToolContext,
    settings: AgentSettings,
    traces: Path | None = None,
) -> list[Row]:
    ids = video_ids(ctx.memory)
    rows = []
    for planner in planners:
        row = Row(planner)
        for q in questions:
            qctx = replace(ctx, video_id=ids[q.clip])
            started = time.perf_counter()
            try:
                answer = ask(q.question, qctx, planner=planner, choices=q.choices or None, settings=settings)
            except AgentError as exc:  # an endpoint failure: recorded, the bench goes on
                row.results.append({"id": q.id, "error": str(exc), "seconds": time.perf_counter() - started})
                print(f"  {planner:<10} {q.id:<13} ERROR {exc}", file=sys.stderr)
                continue
            correct = answer.ok and q.check(answer)
            if traces:
                (traces / f"{planner}-{q.id}.json").write_text(answer.to_json())
            row.results.append(
                {
                    "id": q.id,
                    "kind": q.kind,
                    "answer": answer.text,
                    "ok": answer.ok,
                    "correct": correct,
                    "prompt_tokens": answer.usage.prompt_tokens,
                    "completion_tokens": answer.usage.completion_tokens,
                    "calls": answer.usage.calls,
                    "seconds": answer.seconds,
                }
            )
            print(
                f"  {planner:<10} {q.id:<13} {'ok ' if correct else 'BAD'} {answer.usage.prompt_tokens:>6}+"
                f"{answer.usage.completion_tokens:<5} {answer.usage.calls:>3} calls {answer.seconds:>6.1f} s  "
                f"{answer.text[:70]!r}",
                file=sys.stderr,
            )
        rows.append(row)
    return rows


def _against_react(rows: Sequence[Row]) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """Each planner's summary, and ReAct's (one chain, N=1: the baseline) when it ran."""
    sums = [r.summary() for r in rows]
    return sums, next((s for s in sums if s["planner"] == "react"), None)


def table(rows: Sequence[Row]) -> str:
    sums, base = _against_react(rows)
    head = (
        f"{'planner':<11}{'accuracy':>9}{'prompt tok':>12}{'compl. tok':>12}{'calls':>7}{'s/answer':>10}"
        f"{'x react tok':>12}{'x react s':>11}{'no answer':>10}"
    )
    lines = [head, "-" * len(head)]
    for s in sums:
        ratio_tok = ratio_s = "-"
        if base and base["seconds"] and base["prompt_tokens"]:
            ratio_tok = f"{s['tokens'] / base['tokens']:.1f}"
            ratio_s = f"{s['seconds'] / base['seconds']:.1f}"
        lines.append(
            f"{s['planner']:<11}{s['accuracy']:>9.0%}{s['prompt_tokens']:>12.0f}{s['completion_tokens']:>12.0f}"
            f"{s['calls']:>7.1f}{s['seconds']:>10.1f}{ratio_tok:>12}{ratio_s:>11}{s['no_answer'] + s['errors']:>10}"
        )
    return "\n".join(lines)


def figures(rows: Sequence[Row]) -> list[Figure]:
    """Per planner: accuracy, then seconds and tokens per answer against ReAct (one chain, N=1)."""
    sums, base = _against_react(rows)
    out = []
    for s in sums:
        tok = s["tokens"]
        out.append(Figure(f"{s['planner']} accuracy", 100 * s["accuracy"], "% correct"))
        if base is None or s is base:
            out += [Figure(f"{s['planner']} seconds per answer", s["seconds"], "s"),
                    Figure(f"{s['planner']} tokens per answer", tok, "tokens")]  # fmt: skip
            continue
        base_tok = base["tokens"]
        out += [  # ratio > 1 is better: ReAct's cost over this planner's
            Figure(f"{s['planner']} seconds per answer", s["seconds"], "s", "react (N=1)", base["seconds"],
                   base["seconds"] / s["seconds"] if s["seconds"] else None),
            Figure(f"{s['planner']} tokens per answer", tok, "tokens", "react (N=1)", base_tok,
                   base_tok / tok if tok else None),
        ]  # fmt: skip
    return out


def machine(model: str) -> str:
    return f"{platform.node()} · {platform.processor() or platform.machine()} · {os.cpu_count()} CPUs · model {model}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.agents", description=__doc__.splitlines()[0])
    parser.add_argument("--planners", default=",".join(PLANNER_NAMES), help="comma separated (default: all)")
    parser.add_argument("--questions", default="", help="comma separated question ids (default: all)")
    parser.add_argument("--memory", type=Path, default=DEFAULT_MEMORY, help="fixture memory (built when missing)")
    parser.add_argument("--mcts-n", type=int, default=2, help="MCTS solutions N (default 2: a CPU model is slow)")
    parser.add_argument("--max-steps", type=int, default=4, help="steps per chain")
    parser.add_argument("--json", type=Path, help="also write the per-question results here")
    parser.add_argument("--traces", type=Path, help="write each answer with its search tree as JSON in this folder")
    args = parser.parse_args(argv)
    if not os.environ.get("OPENAI_BASE_URL"):
        print('OPENAI_BASE_URL is unset: eval "$(shared/tools/local-llm env)" first', file=sys.stderr)
        return 2
    planners = [p for p in args.planners.split(",") if p]
    unknown = sorted(set(planners) - set(PLANNER_NAMES))
    if unknown:
        parser.error(f"unknown planners {unknown}; known: {', '.join(PLANNER_NAMES)}")
    wanted = {q for q in args.questions.split(",") if q}
    questions = [q for q in QUESTIONS if not wanted or q.id in wanted]

    from agents.client import OpenAIChat
    from memory import open_memory

    if not args.memory.exists():
        args.memory.parent.mkdir(parents=True, exist_ok=True)
        build_memory(args.memory)
    base = AgentSettings().with_chain(max_steps=args.max_steps, max_tokens=200)
    settings = replace(base, mcts=replace(base.mcts, n_solutions=args.mcts_n))
    slow = {} if "VIDMEM_LLM_TIMEOUT_S" in os.environ else {"timeout_s": 600.0}  # CPU-served models are slow
    llm = OpenAIChat.from_env(None, **slow)
    with open_memory(args.memory, read_only=True) as mem:
        ctx = ToolContext(memory=mem, llm=llm)
        started = time.perf_counter()
        if args.traces:
            args.traces.mkdir(parents=True, exist_ok=True)
        rows = run(planners, questions, ctx, settings, args.traces)
    print(
        f"\nagents benchmark: {len(questions)} questions · {machine(llm.model)} · {time.perf_counter() - started:.0f} s"
    )
    print(table(rows))
    emit("agents", figures(rows))
    if args.json:
        args.json.write_text(
            json.dumps({"machine": machine(llm.model), "planners": [r.__dict__ for r in rows]}, indent=1)
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
