"""`vidmem` entry point: a registry of subcommands, one module each under vidmem/commands/.

Exit status: 0 when everything asked for succeeded, 1 when some inputs failed (each reported),
2 for a usage error.
"""

import argparse
import importlib
import logging
import os
import sys
from collections.abc import Sequence

from memory import DEFAULT_URI, VidmemError

#: Subcommands and their one-line help, in the order `vidmem --help` lists them. Each is a module
#: vidmem/commands/NAME.py with `add_parser(sub)` and `run(args) -> int`; only the one being run is
#: imported, so a quick `vidmem sql` does not pay for loading the agents or the models.
COMMANDS = {
    "ingest": "decode videos and store what the models see and hear",
    "sql": "run SQL over the memory (one-shot or interactive)",
    "ask": "answer a question about the videos, with evidence",
    "eval": "score a planner on a question set (NExT-QA, EgoSchema or vidmem JSONL)",
    "info": "summarize a memory: videos, hours, rows per table",
    "models": "show what each model role will use, or why it is unavailable",
    "export": "copy the memory to a standalone DuckDB file or Parquet files",
}

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def default_memory() -> str:
    return os.environ.get("VIDMEM_MEMORY", DEFAULT_URI)


def add_memory_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--memory",
        "-m",
        default=default_memory(),
        metavar="URI",
        help="memory to use: a .duckdb file or ducklake:sqlite:PATH (default: $VIDMEM_MEMORY, else ./vidmem.duckdb)",
    )


def add_budget_args(parser: argparse.ArgumentParser) -> None:
    """Planner budgets, shared by `vidmem ask` and `vidmem eval` (see vidmem.compose.agent_settings)."""
    parser.add_argument("--max-steps", type=int, metavar="N", help="steps per chain, for every planner")
    parser.add_argument("--mcts-n", type=int, metavar="N", help="MCTS: solutions to search (default 4)")
    parser.add_argument("--critic-rounds", type=int, metavar="N", help="critic: review rounds (default 2)")
    parser.add_argument(
        "--brief-tokens", type=int, metavar="N", help="evidence brief every planner starts from (default 600; 0: none)"
    )


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser; with `command`, only that subcommand's module is imported and fully described."""
    parser = argparse.ArgumentParser(
        prog="vidmem",
        description="Turn videos into a SQL memory and answer questions over it.",
        epilog="Run 'vidmem COMMAND --help' for each command's options.",
    )
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more log output (-vv for debug)")
    parser.add_argument("--version", action="version", version="vidmem 0.1.0")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, summary in COMMANDS.items():
        if name == command:
            importlib.import_module(f"vidmem.commands.{name}").add_parser(sub)
        else:
            sub.add_parser(name, help=summary)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(next((w for w in words if w in COMMANDS), None))
    args = parser.parse_args(words)
    if not args.command:
        parser.print_help()
        return EXIT_USAGE
    logging.basicConfig(
        level=[logging.WARNING, logging.INFO, logging.DEBUG][min(args.verbose, 2)],
        format="%(levelname)s %(name)s: %(message)s",
    )
    try:
        return int(args.run(args))
    except VidmemError as exc:
        print(f"vidmem {args.command}: {exc}", file=sys.stderr)
        return EXIT_FAILED
    except KeyboardInterrupt:
        print(f"vidmem {args.command}: interrupted", file=sys.stderr)
        return 130
