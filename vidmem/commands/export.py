"""vidmem export: copy a memory to a standalone DuckDB file or a folder of Parquet files."""

import argparse
import sys
from pathlib import Path

from memory import EXPORT_FORMATS, export_format, export_memory, open_memory
from vidmem.cli import EXIT_FAILED, EXIT_OK, EXIT_USAGE, add_memory_arg


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "export",
        help="copy the memory to a DuckDB file or Parquet files, for sharing",
        description="Copy every table of the memory (a DuckDB file or DuckLake) to TARGET: a standalone "
        "DuckDB file that vidmem and any DuckDB client open as it is, or a folder with one Parquet file "
        "per table plus schema.json (what each column means). Reads the memory read-only, so it can run "
        "while a DuckLake memory is being ingested into.",
        epilog="Examples:\n  vidmem export share/archive.duckdb\n"
        "  vidmem export share/archive-parquet/ --memory ducklake:sqlite:lake/catalog.sqlite\n"
        "Exit status: 0 exported, 1 the export failed, 2 usage error (e.g. TARGET exists without --force).",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("target", type=Path, metavar="TARGET", help="a .duckdb file, or a folder for Parquet files")
    add_memory_arg(p)
    p.add_argument(
        "--format", "-f", choices=EXPORT_FORMATS,
        help="duckdb or parquet (default: duckdb for a .duckdb/.db target, else parquet)",
    )
    p.add_argument("--force", action="store_true", help="replace TARGET if it exists")
    p.add_argument(
        "--salvage", action="store_true",
        help="the memory is damaged: copy every table that can still be read whole, leave the others empty "
        "and name them (exit status 1 when any is lost)",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.target.exists() and not args.force:
        print(f"vidmem export: {args.target} already exists (use --force to replace it)", file=sys.stderr)
        return EXIT_USAGE
    fmt = args.format or export_format(args.target)
    with open_memory(args.memory, read_only=True, salvage=args.salvage) as memory:
        result = export_memory(memory, args.target, fmt, overwrite=args.force, salvage=args.salvage)
    total = sum(result.rows.values())
    print(f"exported {total:,} rows from {len(result.rows)} tables ({result.rows.get('videos', 0)} videos) "
          f"as {result.format} -> {result.target}")
    for table, why in result.lost.items():
        print(f"lost: {table} could not be read ({why})", file=sys.stderr)
    return EXIT_FAILED if result.lost else EXIT_OK
