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

#: Subcommands, in the order `vidmem --help` lists them. Each module has `add_parser(sub)` and `run(args) -> int`.
COMMANDS = ("ingest", "sql", "ask", "eval", "info", "models", "export")

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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="vidmem",
        description="Turn videos into a SQL memory and answer questions over it.",
        epilog="Run 'vidmem COMMAND --help' for each command's options.",
    )
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more log output (-vv for debug)")
    parser.add_argument("--version", action="version", version="vidmem 0.1.0")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"vidmem.commands.{name}").add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
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
