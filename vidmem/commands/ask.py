"""vidmem ask: a natural-language question answered over the memory, with its evidence."""

import argparse
import json
import sys
from pathlib import Path

from agents.answer import ask
from agents.planners import PLANNER_NAMES
from memory import open_memory
from vidmem.cli import EXIT_FAILED, EXIT_OK, add_budget_args, add_memory_arg, budget_values
from vidmem.compose import agent_settings, resolve_video, tool_context
from vidmem.config import settings_from


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "ask",
        help="answer a question about the videos, with evidence",
        description="Answer a natural-language question by planning over the memory with an LLM "
        "(OpenAI-compatible endpoint: OPENAI_BASE_URL, OPENAI_API_KEY, VIDMEM_LLM_MODEL; optional "
        "VIDMEM_VISION_MODEL). Prints the answer, the evidence (SQL, rows, times) and the tokens used.",
        epilog='Examples:\n  vidmem ask clip.mp4 "When is the train mentioned?"\n'
        '  vidmem ask "How many people cross?" --choices 2 5 9 --planner mcts --trace tree.json',
        formatter_class=argparse.RawDescriptionHelpFormatter,
        usage="vidmem ask [options] [VIDEO] QUESTION",  # one question a call; argparse wrote "[[VIDEO] QUESTION ...]"
    )
    p.add_argument(
        "args", nargs="+", metavar="[VIDEO] QUESTION",
        help="optional video (id, path or name), then one question (quoted, or its words)",
    )
    add_memory_arg(p)
    p.add_argument("--choices", nargs="+", metavar="CHOICE", help="answer choices for a multiple-choice question")
    p.add_argument("--planner", choices=PLANNER_NAMES, default="react", help="planning strategy (default react)")
    add_budget_args(p)
    p.add_argument("--trace", type=Path, metavar="FILE", help="write the answer with the full search tree as JSON")
    p.add_argument("--tree-png", type=Path, metavar="FILE", help="render the search tree as a picture")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    video, question = (args.args[0], " ".join(args.args[1:])) if len(args.args) > 1 else (None, args.args[0])
    settings = settings_from(None)
    with open_memory(args.memory, read_only=True) as memory:
        ctx = tool_context(memory, settings, resolve_video(memory, video))
        budgets = agent_settings(**budget_values(args))
        answer = ask(question, ctx, planner=args.planner, choices=args.choices, settings=budgets)
    if args.trace:
        args.trace.write_text(answer.to_json())
    if args.tree_png:
        answer.render_tree(args.tree_png)
    if args.format == "json":
        print(json.dumps({k: v for k, v in answer.to_dict().items() if k != "tree"}, indent=1, default=str))
        return EXIT_OK if answer.ok else EXIT_FAILED
    print(answer.text)
    if answer.verified is False:
        print("(unverified: the review did not approve this answer)")
    if answer.choice is not None:
        print(f"choice: {chr(ord('A') + answer.choice)}")
    for ev in answer.evidence:
        where = ", ".join(f"{t:.1f}s" for t in ev.times_s[:8])
        print(f"\nevidence [{ev.tool}]" + (f" at {where}" if where else "") + (f": {ev.note}" if ev.note else ""))
        if ev.sql:
            print("  SQL: " + " ".join(ev.sql.split()))
        for row in ev.rows[:5]:
            print("  " + json.dumps(row, default=str, ensure_ascii=False))
    u = answer.usage
    print(
        f"\n{args.planner}: {u.calls} LLM calls, {u.prompt_tokens} prompt + {u.completion_tokens} completion tokens, "
        f"{answer.seconds:.1f}s",
        file=sys.stderr,
    )
    return EXIT_OK if answer.ok else EXIT_FAILED
