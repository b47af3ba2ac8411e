"""vidmem sql: query the memory in SQL, one-shot or in an interactive shell."""

import argparse
import contextlib
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from memory import describe_schema, open_memory, parse_uri, schema_dict
from queries.library import EXAMPLE_QUERIES
from vidmem.cli import EXIT_FAILED, EXIT_OK, EXIT_USAGE, add_memory_arg, non_negative_int

if TYPE_CHECKING:
    from collections.abc import Iterator

    import pyarrow as pa

    from queries.readonly import ReadOnlySession

HISTORY = Path.home() / ".vidmem_sql_history"

#: queries.format_result: (rows, format, max_rows=) -> text, or bytes for parquet
Formatter = Callable[..., str | bytes]


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "sql",
        help="run SQL over the memory (one-shot or interactive)",
        description="Run read-only SQL over the memory. With QUERY: run it and print the result. Without: "
        "an interactive shell (history kept in ~/.vidmem_sql_history), or SQL read from standard input. "
        "The queries library (views and macros such as timeline, when_visible) is available. Nothing can "
        "change the memory or any file: statements that write (COPY, EXPORT, ATTACH, INSTALL/LOAD, SET, "
        "DDL/DML) are refused with one line and exit status 1; results go to a file through --output. "
        "Reading other files (read_csv, FROM 'f.parquet') needs --allow-read DIR.",
        epilog=f'Examples:\n  vidmem sql "{EXAMPLE_QUERIES["transcript"]}"\n  vidmem sql --schema\n'
        f'  vidmem sql "{EXAMPLE_QUERIES["tracks"]}" --format parquet --output tracks.parquet',
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("query", nargs="?", help="SQL to run; omit for an interactive shell or stdin")
    add_memory_arg(p)
    p.add_argument("--format", "-f", choices=("table", "csv", "json", "parquet"), default="table")
    p.add_argument("--output", "-o", type=Path, help="write the result to FILE instead of standard output")
    p.add_argument("--overwrite", action="store_true", help="let --output replace an existing file")
    p.add_argument(
        "--allow-read", action="append", default=[], type=Path, metavar="DIR",
        help="let queries read files under DIR (read_csv, read_parquet, FROM 'DIR/f.csv'); repeatable",
    )
    p.add_argument(
        "--schema", action="store_true", help="print the schema description (tables, columns, meaning, units)"
    )
    p.add_argument("--max-rows", type=non_negative_int, default=100, help="rows shown in table format (default 100)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.schema:
        print(json.dumps(schema_dict(), indent=2) if args.format == "json" else describe_schema())
        return EXIT_OK
    if args.format == "parquet" and not args.output:
        print("vidmem sql: --format parquet needs --output FILE", file=sys.stderr)
        return EXIT_USAGE
    problem = _output_problem(args)
    if problem:
        print(f"vidmem sql: {problem}", file=sys.stderr)
        return EXIT_USAGE
    missing = [str(d) for d in args.allow_read if not d.expanduser().is_dir()]
    if missing:
        print(f"vidmem sql: --allow-read needs an existing folder, got {', '.join(missing)}", file=sys.stderr)
        return EXIT_USAGE
    from queries import format_result
    from queries.readonly import ReadOnlySession

    with open_memory(args.memory, read_only=True) as memory:
        session = ReadOnlySession(memory, read_dirs=args.allow_read)
        if args.query:
            return _one(session, args.query, args, format_result)
        if not sys.stdin.isatty():
            return _one(session, sys.stdin.read(), args, format_result)
        return _shell(session, args, format_result)


def _output_problem(args: argparse.Namespace) -> str | None:
    """Why --output may not be written, or None: never one of the memory's own files, and an
    existing file only with --overwrite."""
    if not args.output:
        return None
    target = args.output.expanduser().resolve()
    uri = parse_uri(args.memory)
    own = [Path(uri.location)] if uri.kind == "duckdb" else []
    if uri.kind == "ducklake" and uri.location.startswith("sqlite:"):
        own.append(Path(uri.location.removeprefix("sqlite:")))
    if any(target == p or (target.name.startswith(p.name + ".") and target.parent == p.parent) for p in own) or (
        uri.data_path and target.is_relative_to(Path(uri.data_path).resolve())
    ):
        return f"--output {args.output} is part of the memory {uri}; choose another file"
    if target.is_dir():
        return f"--output {args.output} is a folder; give a file name"
    if target.exists() and not args.overwrite:
        return f"--output {args.output} exists; pass --overwrite to replace it"
    if not target.parent.is_dir():
        return f"--output {args.output}: no folder {target.parent}"
    return None


def _one(session: "ReadOnlySession", sql: str, args: argparse.Namespace, fmt: Formatter) -> int:
    from queries import QueryError

    if args.output and args.format != "table":
        return _to_file(session, sql, args)
    try:
        result = session.run(sql)
    except QueryError as exc:  # a refusal (one line) or DuckDB's own message, which is what an analyst needs
        print(f"vidmem sql: {_clean(exc)}", file=sys.stderr)
        return EXIT_FAILED
    out = fmt(result, args.format, max_rows=args.max_rows)
    if args.output:
        # Through a temporary file: an interrupted write never leaves half a result under the name.
        tmp = args.output.with_name(f".{args.output.name}.tmp")
        tmp.write_bytes(out if isinstance(out, bytes) else out.encode())
        tmp.replace(args.output)
        print(f"{result.num_rows} rows -> {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(out if isinstance(out, str) else out.decode())
        if isinstance(out, str) and not out.endswith("\n"):
            sys.stdout.write("\n")
    return EXIT_OK


def _to_file(session: "ReadOnlySession", sql: str, args: argparse.Namespace) -> int:
    """Every row into --output, batch by batch (a result of any size, never held whole), through a
    temporary file: a failure or an interruption never leaves part of a result under the name."""
    import queries
    from queries import QueryError

    tmp = args.output.with_name(f".{args.output.name}.tmp")
    rows = 0
    try:
        schema, batches = session.stream(sql)

        def counted() -> "Iterator[pa.RecordBatch]":
            nonlocal rows
            for batch in batches:
                rows += batch.num_rows
                yield batch

        if args.format == "parquet":
            queries.write_parquet(counted(), schema, tmp)
        else:
            with tmp.open("wb") as out:
                for chunk in queries.format_stream(counted(), args.format):
                    out.write(chunk)
    except QueryError as exc:
        tmp.unlink(missing_ok=True)
        print(f"vidmem sql: {_clean(exc)}", file=sys.stderr)
        return EXIT_FAILED
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    tmp.replace(args.output)
    print(f"{rows} rows -> {args.output}", file=sys.stderr)
    return EXIT_OK


def _shell(session: "ReadOnlySession", args: argparse.Namespace, fmt: Formatter) -> int:
    import readline

    with contextlib.suppress(OSError):  # no history yet
        readline.read_history_file(HISTORY)
    print(f"vidmem sql on {session.memory.uri} (read-only). End statements with ';'. .schema, .tables, .quit")
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
                _one(session, "\n".join(buffer), argparse.Namespace(**{**vars(args), "output": None}), fmt)
                buffer.clear()
    finally:
        readline.write_history_file(HISTORY)
    return EXIT_OK


def _clean(exc: Exception) -> str:
    return str(exc).strip().replace("\n\n", "\n")
