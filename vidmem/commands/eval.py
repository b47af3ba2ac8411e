"""vidmem eval: run a question set through a planner, score it, and report."""

import argparse
import os
import sys
from pathlib import Path

from agents.client import LLMSettings, OpenAIChat
from agents.evaluation import (
    QuestionSetError,
    Record,
    Report,
    compare,
    evaluate,
    load_egoschema,
    load_jsonl,
    load_nextqa,
    select,
)
from agents.evaluation.questions import Question
from agents.planners import PLANNER_NAMES
from ingest import Pipeline, ingest_video
from memory import open_memory
from vidmem.cli import EXIT_FAILED, EXIT_OK, EXIT_USAGE, add_budget_args, add_memory_arg, budget_values, positive_int
from vidmem.compose import agent_settings, tool_context
from vidmem.config import add_settings_args, settings_from


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "eval",
        help="score a planner on a question set (NExT-QA, EgoSchema or vidmem JSONL)",
        description="Answer every question of a set about its video (ingesting videos not yet in the memory), "
        "score multiple choice exactly and open answers with a judge model (VIDMEM_JUDGE_MODEL) or by reference "
        "match, and write a report: accuracy overall and per type, tokens, LLM calls, seconds per answer.",
        epilog="Examples:\n  vidmem eval bench/devset.jsonl --video-root ~/.cache/vidmem/fixtures --planner mcts "
        "--report mcts.json\n  vidmem eval --compare mcts.json react.json\n"
        "  vidmem eval NExTQA/val.csv --video-root NExTVideo --video-map map_vid_vidorID.json\n"
        "  vidmem eval bench/qset/questions.jsonl --video-root ~/.cache/vidmem/qset --sample 40 --seed 1\n"
        "  vidmem eval bench/qset/heldout.jsonl --video-root ~/.cache/vidmem/qset --split dev --sample 40",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("questions", nargs="?", type=Path, help=".jsonl (vidmem), .csv (NExT-QA) or .json (EgoSchema)")
    add_memory_arg(p)
    p.add_argument("--planner", choices=PLANNER_NAMES, default="react")
    p.add_argument("--video-root", type=Path, help="folder the question file's videos are relative to")
    p.add_argument("--video-map", type=Path, help="NExT-QA map_vid_vidorID.json")
    p.add_argument("--answers", type=Path, help="EgoSchema subset_answers.json")
    p.add_argument("--limit", type=positive_int, help="only the first N questions (after --types/--sample)")
    p.add_argument("--types", help="only these question types, comma separated (e.g. when,count)")
    p.add_argument(
        "--sample", type=positive_int, metavar="N", help="N questions drawn evenly across the types (with --seed)"
    )
    p.add_argument("--seed", type=int, default=0, help="which sample --sample draws (default 0)")
    p.add_argument("--split", help="only the questions of this split (a JSONL's 'split' field, e.g. dev or test)")
    add_budget_args(p)
    p.add_argument("--report", type=Path, help="write the report as JSON here")
    p.add_argument("--compare", nargs=2, type=Path, metavar=("A.json", "B.json"), help="compare two saved reports")
    add_settings_args(p)
    p.set_defaults(run=run)


def _load(args: argparse.Namespace) -> list[Question]:
    path: Path = args.questions
    if path.suffix == ".csv":
        return load_nextqa(path, args.video_root or path.parent, args.video_map)
    if path.suffix == ".json":
        if not args.answers:
            raise SystemExit("vidmem eval: EgoSchema questions need --answers subset_answers.json")
        return load_egoschema(path, args.video_root or path.parent, args.answers)
    root = args.video_root
    return load_jsonl(path, (lambda v: (root / v).expanduser().resolve()) if root else None)


def run(args: argparse.Namespace) -> int:
    if args.compare:
        print(compare(Report.load(args.compare[0]), Report.load(args.compare[1])))
        return EXIT_OK
    if not args.questions:
        print("vidmem eval: give a question file, or --compare A.json B.json", file=sys.stderr)
        return EXIT_USAGE
    types = [t for t in args.types.split(",") if t] if args.types else None
    try:
        questions = select(_load(args), types=types, sample=args.sample, seed=args.seed, split=args.split)[: args.limit]
    except QuestionSetError as exc:
        print(f"vidmem eval: {exc}", file=sys.stderr)
        return EXIT_USAGE
    settings = settings_from(args)
    videos = sorted({q.video for q in questions if q.video is not None})
    if any(q.scope == "archive" for q in questions):  # an archive question is fair over the whole set's videos
        videos = sorted({q.video for q in _load(args) if q.video is not None and (args.split is None
                                                                                  or q.split == args.split)}
                        | set(videos))
    with open_memory(args.memory) as memory:  # writable: videos not yet ingested are ingested first
        pipeline = Pipeline(settings)
        for n, video in enumerate(videos, 1):
            result = ingest_video(video, memory, pipeline)
            print(f"[video {n}/{len(videos)}] {result.status} {video}" + (f": {result.error}" if result.error else ""))
    with open_memory(args.memory, read_only=True) as memory:
        ctx = tool_context(memory, settings)
        judge = _judge()

        report = evaluate(
            questions,
            ctx,
            planner=args.planner,
            settings=agent_settings(**budget_values(args)),
            judge=judge,
            source=str(args.questions),
            progress=_progress,
        )
    print(report.table())
    if args.report:
        report.save(args.report)
        print(f"report -> {args.report}")
    return EXIT_FAILED if report.failures().get("video_missing") else EXIT_OK


def _progress(n: int, total: int, r: Record) -> None:
    mark = "ok" if r.correct else "--"
    how = r.failure or r.method
    print(f"[{n}/{total}] {mark} {r.id}: {r.predicted[:60]} ({how}, {r.seconds:.0f}s)", file=sys.stderr)


def _judge() -> OpenAIChat | None:
    """The judge for open answers, when VIDMEM_JUDGE_MODEL names one (same endpoint settings)."""
    model = os.environ.get("VIDMEM_JUDGE_MODEL")
    if not model:
        return None
    env = {**os.environ, "VIDMEM_LLM_MODEL": model}
    return OpenAIChat(LLMSettings.from_env(env))
