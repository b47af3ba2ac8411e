"""vidmem mcp: the memory as tools for other agents (Model Context Protocol, over stdio)."""

import argparse
import sys

from memory import open_memory
from vidmem.cli import EXIT_OK, add_memory_arg


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "mcp",
        help="serve the memory to other agents over MCP (stdio)",
        description="Serve the memory as an MCP server over standard input/output: tools list_videos, sql "
        "(read-only, guarded), search, timeline and ask; the schema as the resource vidmem://schema. "
        "An MCP client starts this command; see the README for a client configuration.",
        epilog='Example client entry:\n  {"command": "vidmem", "args": ["mcp", "--memory", "/data/archive.duckdb"]}',
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_memory_arg(p)
    p.add_argument(
        "--no-semantic", action="store_true", help="keyword search only (skip loading the text embedding model)"
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from vidmem.mcp_server import build_server

    with open_memory(args.memory, read_only=True):
        pass  # fail now, in one line, if the memory cannot be opened, not on the client's first call
    server = build_server(args.memory, None if args.no_semantic else _text_encoder)
    print(f"vidmem mcp: serving {args.memory} over stdio", file=sys.stderr)
    server.run("stdio")
    return EXIT_OK


def _text_encoder() -> object | None:
    from vidmem.compose import encoders
    from vidmem.config import settings_from

    return encoders(settings_from(None)).get("text")
