"""Agents benchmark: per planner, accuracy (with its 95% Wilson interval, overall and per question
type), tokens per answer (prompt and completion), LLM calls per answer and seconds per answer.

    .venv/bin/python -m bench.agents                       # every planner, the 4 built-in questions
    .venv/bin/python -m bench.agents --planners react,mcts --mcts-n 2 --json out.json
    .venv/bin/python -m bench.agents --set qset --sample 40 --seed 1 --planners react
    python -m bench agents -- --set qset --sample 24      # the same through the summary runner

Sets: 'builtin' (4 questions over the fixture speech clips, memory with ASR only), 'qset' (the
generated set, bench/qset: 410 questions over 12 videos, memory with ASR, OCR, tracking and text
embeddings), or a vidmem JSONL file (--video-root). --types/--sample/--limit cut a set to a time
budget; a sample is drawn evenly across types. Each memory is built once and cached.

Needs an OpenAI-compatible endpoint (OPENAI_BASE_URL, VIDMEM_LLM_MODEL; for the local model:
eval "$(shared/tools/local-llm env)"). Ratios are against ReAct (one chain), the planners' baseline.
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

import queries
from agents import PLANNER_NAMES, AgentError, AgentSettings, Answer, ToolContext, ask
from agents.evaluation import Question, load_jsonl, score, select, wilson_interval
from bench.report import Figure, emit
from memory.cache import cache_dir

BENCH_DIR = cache_dir("bench", "VIDMEM_BENCH_DIR")
DEFAULT_MEMORY = BENCH_DIR / "agents.duckdb"
QSET_MEMORY = BENCH_DIR / "qset.duckdb"


@dataclass(frozen=True)
class BenchQuestion:
    id: str
    clip: str  # video file stem: a fixture name (tests/fixtures/truth.json) or a set's video
    kind: str  # the question type: when / what / choice / ...
    question: str
    check: Callable[[Answer], bool]
    choices: tuple[str, ...] = ()
    video: Path | None = None  # the file, for sets whose memory is built from their own videos


def from_question(q: Question) -> BenchQuestion:
    """A set's question (vidmem JSONL), scored as `vidmem eval` scores it without a judge. The bench asks each of
    its video: an archive question that names none is `vidmem eval`'s."""
    if q.video is None:
        raise ValueError(f"question {q.id}: the agents bench needs the video that answers it")
    return BenchQuestion(
        q.id, q.video.stem, q.type, q.question, lambda a: score(q, a.text, a.choice).correct, q.choices, q.video
    )


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

    def summary(self, kind: str | None = None) -> dict[str, Any]:
        """Over every question, or those of one type."""
        results = [r for r in self.results if kind is None or r.get("kind") == kind]
        done = [r for r in results if "error" not in r]
        n = max(len(done), 1)

        def mean(key: str) -> float:
            return sum(r[key] for r in done) / n

        correct = sum(r["correct"] for r in done)
        low, high = wilson_interval(correct, len(results))
        return {
            "planner": self.planner,
            "questions": len(results),
            "accuracy": correct / max(len(results), 1),
            "ci_low": low,
            "ci_high": high,
            "prompt_tokens": mean("prompt_tokens"),
            "completion_tokens": mean("completion_tokens"),
            "tokens": mean("prompt_tokens") + mean("completion_tokens"),
            "calls": mean("calls"),
            "seconds": mean("seconds"),
            "seconds_median": statistics.median([r["seconds"] for r in done]) if done else 0.0,
            "no_answer": sum(not r["ok"] for r in done),
            "errors": len(results) - len(done),
        }

    def kinds(self) -> list[str]:
        return sorted({r["kind"] for r in self.results if "kind" in r})


def build_qset_memory(path: Path, questions: Sequence[BenchQuestion]) -> Path:
    """The generated set's videos these questions ask about, built if missing and ingested with
    every role a question needs (videos already stored are skipped: a bigger sample adds only its new ones)."""
    from bench.qset import ALL_ROLES, ensure_memory, ensure_videos

    ensure_videos()
    return ensure_memory({q.video for q in questions if q.video is not None}, ALL_ROLES, path, verbose=True)


def build_memory(path: Path) -> Path:
    """The speech clips ingested with ASR only (once; later runs reuse the file)."""
    from ingest import IngestSettings, Pipeline, ingest_video
    from memory import open_memory
    from tests.fixtures.make_fixtures import ensure_fixtures

    media = ensure_fixtures()
    pipeline = Pipeline(IngestSettings().only("asr"))
    with open_memory(path) as mem:
        for name in sorted({q.clip for q in QUESTIONS}):
            result = ingest_video(media[name], mem, pipeline)
            if result.status == "failed":
                raise SystemExit(f"could not ingest {name}: {result.error}")
    return path


def video_ids(memory: Any) -> dict[str, str]:
    return {Path(v.path).stem: v.video_id for v in queries.video_files(memory)}


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
            if q.clip not in ids:  # its ingest failed: recorded, the bench goes on
                row.results.append({"id": q.id, "kind": q.kind, "error": "video not in the memory", "seconds": 0.0})
                continue
            qctx = replace(ctx, video_id=ids[q.clip])
            started = time.perf_counter()
            try:
                answer = ask(q.question, qctx, planner=planner, choices=q.choices or None, settings=settings)
            except AgentError as exc:  # an endpoint failure: recorded, the bench goes on
                row.results.append(
                    {"id": q.id, "kind": q.kind, "error": str(exc), "seconds": time.perf_counter() - started}
                )
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
        f"{'planner':<11}{'n':>4}{'accuracy [95% CI]':>19}{'prompt tok':>12}{'compl. tok':>12}{'calls':>7}"
        f"{'s/answer':>10}{'x react tok':>12}{'x react s':>11}{'no answer':>10}"
    )
    lines = [head, "-" * len(head)]
    for s in sums:
        ratio_tok = ratio_s = "-"
        if base and base["seconds"] and base["prompt_tokens"]:
            ratio_tok = f"{s['tokens'] / base['tokens']:.1f}"
            ratio_s = f"{s['seconds'] / base['seconds']:.1f}"
        lines.append(
            f"{s['planner']:<11}{s['questions']:>4}{_ci(s):>19}{s['prompt_tokens']:>12.0f}"
            f"{s['completion_tokens']:>12.0f}{s['calls']:>7.1f}{s['seconds']:>10.1f}{ratio_tok:>12}{ratio_s:>11}"
            f"{s['no_answer'] + s['errors']:>10}"
        )
    return "\n".join(lines)


def _ci(s: dict[str, Any]) -> str:
    return f"{s['accuracy']:.0%} [{s['ci_low'] * 100:.0f}-{s['ci_high'] * 100:.0f}]"


def type_table(rows: Sequence[Row]) -> str:
    """Per planner and question type: n, accuracy [95% CI], tokens, calls and seconds per answer."""
    head = f"{'planner':<11}{'type':<14}{'n':>4}{'accuracy [95% CI]':>19}{'tokens':>9}{'calls':>7}{'s/answer':>10}"
    lines = [head, "-" * len(head)]
    for row in rows:
        for kind in row.kinds():
            s = row.summary(kind)
            lines.append(
                f"{row.planner:<11}{kind:<14}{s['questions']:>4}{_ci(s):>19}{s['tokens']:>9.0f}{s['calls']:>7.1f}"
                f"{s['seconds']:>10.1f}"
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
    parser.add_argument(
        "--set", default="builtin", help="'builtin' (default), 'qset' (bench/qset) or a vidmem .jsonl question file"
    )
    parser.add_argument("--video-root", type=Path, help="folder a .jsonl set's videos are relative to")
    parser.add_argument("--questions", default="", help="comma separated question ids (default: all)")
    parser.add_argument("--types", default="", help="only these question types, comma separated")
    parser.add_argument("--sample", type=int, help="N questions drawn evenly across the types (with --seed)")
    parser.add_argument("--seed", type=int, default=0, help="which sample --sample draws")
    parser.add_argument("--limit", type=int, help="only the first N questions (after the other filters)")
    parser.add_argument(
        "--memory", type=Path, help=f"memory (built when missing; default {DEFAULT_MEMORY}, qset: {QSET_MEMORY})"
    )
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
    try:
        questions = _questions(args)
    except AgentError as exc:
        parser.error(str(exc))
    if not questions:
        parser.error("no questions left after the filters")

    from agents.client import OpenAIChat
    from ingest import IngestSettings
    from memory import open_memory
    from vidmem.compose import encoders

    memory = args.memory or (DEFAULT_MEMORY if args.set == "builtin" else QSET_MEMORY)
    memory.parent.mkdir(parents=True, exist_ok=True)
    if args.set != "builtin":
        build_qset_memory(memory, questions)  # adds the videos the questions need, if missing
    elif not memory.exists():
        build_memory(memory)
    base = AgentSettings().with_chain(max_steps=args.max_steps, max_tokens=200)
    settings = replace(base, mcts=replace(base.mcts, n_solutions=args.mcts_n))
    slow = {} if "VIDMEM_LLM_TIMEOUT_S" in os.environ else {"timeout_s": 600.0}  # CPU-served models are slow
    llm = OpenAIChat.from_env(None, **slow)
    with open_memory(memory, read_only=True) as mem:
        # The qset memory has text embeddings: semantic search needs the query-time encoder, as in `vidmem eval`.
        found = {} if args.set == "builtin" else encoders(IngestSettings())
        ctx = ToolContext(memory=mem, llm=llm, encoders=found)
        started = time.perf_counter()
        if args.traces:
            args.traces.mkdir(parents=True, exist_ok=True)
        rows = run(planners, questions, ctx, settings, args.traces)
    print(
        f"\nagents benchmark: {len(questions)} questions ({args.set}) · {machine(llm.model)} · "
        f"{time.perf_counter() - started:.0f} s"
    )
    print(table(rows))
    print()
    print(type_table(rows))
    emit("agents", figures(rows))
    if args.json:
        args.json.write_text(
            json.dumps({"machine": machine(llm.model), "planners": [r.__dict__ for r in rows]}, indent=1)
        )
    return 0


def _questions(args: argparse.Namespace) -> list[BenchQuestion]:
    """The chosen set, cut by --questions, --types, --sample and --limit."""
    types = [t for t in args.types.split(",") if t] or None
    wanted = {q for q in args.questions.split(",") if q}
    if args.set == "builtin":
        picked = [q for q in QUESTIONS if (not wanted or q.id in wanted) and (types is None or q.kind in types)]
        return picked[: args.limit]
    if args.set == "qset":
        from bench.qset import QUESTIONS_PATH, default_out_dir

        path, root = QUESTIONS_PATH, args.video_root or default_out_dir()
    else:
        path, root = Path(args.set), args.video_root
    loaded = load_jsonl(path, (lambda v: (root / v).expanduser().resolve()) if root else None)
    loaded = [q for q in loaded if not wanted or q.id in wanted]
    return [from_question(q) for q in select(loaded, types=types, sample=args.sample, seed=args.seed)][: args.limit]


if __name__ == "__main__":
    raise SystemExit(main())
