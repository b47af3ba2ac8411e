"""`vidmem` entry point: a registry of subcommands, one module each under vidmem/commands/.

Exit status: 0 when everything asked for succeeded, 1 when some inputs failed (each reported),
2 for a usage error.
"""

import argparse
import importlib
import logging
import math
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from memory import DEFAULT_URI, UsageError, VidmemError, parse_uri

#: Subcommands and their one-line help, in the order `vidmem --help` lists them. Each is a module
#: vidmem/commands/NAME.py with `add_parser(sub)` and `run(args) -> int`; only the one being run is
#: imported, so a quick `vidmem sql` does not pay for loading the agents or the models.
COMMANDS = {
    "ingest": "decode videos and store what the models see and hear",
    "sql": "run SQL over the memory (one-shot or interactive)",
    "search": "find what was said, shown or seen across the archive",
    "ask": "answer a question about the videos, with evidence",
    "eval": "score a planner on a question set (NExT-QA, EgoSchema or vidmem JSONL)",
    "info": "summarize a memory: videos, hours, rows per table",
    "check": "verify a memory: schema version, tables readable, rows per role",
    "models": "show what each model role will use, or why it is unavailable",
    "export": "copy the memory to a standalone DuckDB file or Parquet files",
    "mcp": "serve the memory to other agents over MCP (stdio)",
    "serve": "browse the memory in a web browser, with a JSON API",
}

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


class OneLineParser(argparse.ArgumentParser):
    """Usage errors in one line (what is wrong, where the help is) and exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: {message} (see {self.prog} --help)\n")


def default_memory() -> str:
    return os.environ.get("VIDMEM_MEMORY", DEFAULT_URI)


def memory_uri(text: str) -> str:
    """An argparse type: `text` when it is a memory URI vidmem can read (else a usage error)."""
    try:
        parse_uri(text)
    except VidmemError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def _number(kind: type[int] | type[float], minimum: float, *, strict: bool) -> Callable[[str], float]:
    def parse(text: str) -> float:
        try:
            value = kind(text)
        except ValueError:
            what = "a whole number" if kind is int else "a number"
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}") from None
        if not math.isfinite(value):
            raise argparse.ArgumentTypeError(f"expected a finite number, got {text!r}")
        if value < minimum or (strict and value == minimum):
            raise argparse.ArgumentTypeError(f"must be {'above' if strict else 'at least'} {minimum:g}, got {text}")
        return value

    return parse


#: argparse types for numbers: finite, in range, else one usage line.
positive_int = _number(int, 1, strict=False)
non_negative_int = _number(int, 0, strict=False)
positive_float = _number(float, 0, strict=True)


def add_memory_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--memory",
        "-m",
        type=memory_uri,
        default=default_memory(),
        metavar="URI",
        help="memory to use: a .duckdb file or ducklake:sqlite:PATH (default: $VIDMEM_MEMORY, else ./vidmem.duckdb)",
    )


#: Planner budgets, shared by `vidmem ask` and `vidmem eval`: flag -> its argparse keywords. Each
#: flag's dest ("--max-steps": max_steps) is a keyword of `vidmem.compose.agent_settings`.
_BUDGET_ARGS: dict[str, dict[str, Any]] = {
    "--max-steps": {"type": positive_int, "metavar": "N", "help": "steps per chain, for every planner"},
    "--mcts-n": {"type": positive_int, "metavar": "N", "help": "MCTS: solutions to search (default 4)"},
    "--critic-rounds": {"type": non_negative_int, "metavar": "N", "help": "critic: review rounds (default 2)"},
    "--brief-tokens": {
        "type": non_negative_int,
        "metavar": "N",
        "help": "evidence brief every planner starts from (default 600; 0: none)",
    },
    "--tools-first": {
        "action": "store_true",
        "help": "chains start with the tools instead of first reading the evidence brief in one plain call",
    },
}


def add_budget_args(parser: argparse.ArgumentParser) -> None:
    """The planner budget flags (`_BUDGET_ARGS`)."""
    for flag, keywords in _BUDGET_ARGS.items():
        parser.add_argument(flag, **keywords)


def budget_values(args: argparse.Namespace) -> dict[str, Any]:
    """What `add_budget_args` parsed, as keywords of `vidmem.compose.agent_settings`."""
    return {dest: getattr(args, dest) for dest in (flag.removeprefix("--").replace("-", "_") for flag in _BUDGET_ARGS)}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser; with `command`, only that subcommand's module is imported and fully described."""
    parser = OneLineParser(
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
    except UsageError as exc:  # checked before work starts: one line, exit 2
        print(f"vidmem {args.command}: {_one_line(exc)}", file=sys.stderr)
        return EXIT_USAGE
    except VidmemError as exc:
        print(f"vidmem {args.command}: {exc}", file=sys.stderr)
        return EXIT_FAILED
    except KeyboardInterrupt:
        print(f"vidmem {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `vidmem sql ... | head`: the reader has what it wanted
        # Python flushes stdout again at exit and would print a second traceback there.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141  # what a shell reports for a command killed by SIGPIPE


def _one_line(exc: Exception) -> str:
    return " ".join(str(exc).split())
