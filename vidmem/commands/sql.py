"""vidmem sql: query the memory in SQL, one-shot or in an interactive shell."""

import argparse
import contextlib
import json
import sys
from collections.abc import Callable
from pathlib import Path

from memory import Memory, describe_schema, open_memory, schema_dict
from vidmem.cli import EXIT_FAILED, EXIT_OK, EXIT_USAGE, add_memory_arg

HISTORY = Path.home() / ".vidmem_sql_history"

#: queries.format_result: (rows, format, max_rows=) -> text, or bytes for parquet
Formatter = Callable[..., str | bytes]


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "sql",
        help="run SQL over the memory (one-shot or interactive)",
        description="Run read-only SQL over the memory. With QUERY: run it and print the result. Without: "
        "an interactive shell (history kept in ~/.vidmem_sql_history), or SQL read from standard input. "
        "The queries library (views and macros such as timeline, when_visible) is available.",
        epilog='Examples:\n  vidmem sql "SELECT start_s, text FROM transcript ORDER BY start_s"\n'
        '  vidmem sql --schema\n  vidmem sql "SELECT * FROM tracks" --format parquet --output tracks.parquet',
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("query", nargs="?", help="SQL to run; omit for an interactive shell or stdin")
    add_memory_arg(p)
    p.add_argument("--format", "-f", choices=("table", "csv", "json", "parquet"), default="table")
    p.add_argument("--output", "-o", type=Path, help="write the result to FILE instead of standard output")
    p.add_argument(
        "--schema", action="store_true", help="print the schema description (tables, columns, meaning, units)"
    )
    p.add_argument("--max-rows", type=int, default=100, help="rows shown in table format (default 100)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.schema:
        print(json.dumps(schema_dict(), indent=2) if args.format == "json" else describe_schema())
        return EXIT_OK
    if args.format == "parquet" and not args.output:
        print("vidmem sql: --format parquet needs --output FILE", file=sys.stderr)
        return EXIT_USAGE
    from queries import format_result

    with open_memory(args.memory, read_only=True) as memory:
        if args.query:
            return _one(memory, args.query, args, format_result)
        if not sys.stdin.isatty():
            return _one(memory, sys.stdin.read(), args, format_result)
        return _shell(memory, args, format_result)


def _one(memory: Memory, sql: str, args: argparse.Namespace, fmt: Formatter) -> int:
    from queries import QueryError, run_sql  # sees the query library (views and macros)

    try:
        result = run_sql(memory, sql)
    except QueryError as exc:  # carries DuckDB's own message, which is what an analyst needs
        print(f"vidmem sql: {_clean(exc)}", file=sys.stderr)
        return EXIT_FAILED
    out = fmt(result, args.format, max_rows=args.max_rows)
    if args.output:
        args.output.write_bytes(out if isinstance(out, bytes) else out.encode())
        print(f"{result.num_rows} rows -> {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(out if isinstance(out, str) else out.decode())
        if isinstance(out, str) and not out.endswith("\n"):
            sys.stdout.write("\n")
    return EXIT_OK


def _shell(memory: Memory, args: argparse.Namespace, fmt: Formatter) -> int:
    import readline

    with contextlib.suppress(OSError):  # no history yet
        readline.read_history_file(HISTORY)
    print(f"vidmem sql on {memory.uri} (read-only). End statements with ';'. .schema, .tables, .quit")
    buffer: list[str] = []
    try:
        while True:
            try:
                line = input("vidmem> " if not buffer else "   ...> ")
            except EOFError:
                print()
                break
            stripped = line.strip()
            if not buffer and stripped in (".quit", ".exit", r"\q"):
                break
            if not buffer and stripped == ".schema":
                print(describe_schema())
                continue
            if not buffer and stripped == ".tables":
                print("\n".join(t["table"] for t in schema_dict()))
                continue
            buffer.append(line)
            if stripped.endswith(";"):
                _one(memory, "\n".join(buffer), argparse.Namespace(**{**vars(args), "output": None}), fmt)
                buffer.clear()
    finally:
        readline.write_history_file(HISTORY)
    return EXIT_OK


def _clean(exc: Exception) -> str:
    return str(exc).strip().replace("\n\n", "\n")
