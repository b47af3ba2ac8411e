"""vidmem info: what a memory holds."""

import argparse
import json

from memory import open_memory
from vidmem.cli import EXIT_OK, add_memory_arg


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "info",
        help="summarize a memory: videos, hours, rows per table",
        description="Summarize a memory: how many videos (ok / failed), hours of video, "
        "rows per table, and the failures with their reasons.",
    )
    add_memory_arg(p)
    p.add_argument("--format", choices=("table", "json"), default="table", help="output format")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    with open_memory(args.memory, read_only=True) as memory:
        summary = memory.query(
            "SELECT count(*) FILTER (status = 'ok') AS ok, count(*) FILTER (status = 'failed') AS failed, "
            "coalesce(sum(duration_s) FILTER (status = 'ok'), 0) / 3600 AS hours FROM videos"
        ).to_pylist()[0]
        failures = memory.query("SELECT path, error FROM videos WHERE status = 'failed' ORDER BY path").to_pylist()
        counts = memory.table_counts()
    info = {"memory": str(memory.uri), **summary, "rows": counts, "failures": failures}
    if args.format == "json":
        print(json.dumps(info, indent=2))
        return EXIT_OK
    print(f"memory  {info['memory']}")
    print(f"videos  {summary['ok']} ok, {summary['failed']} failed, {summary['hours']:.3f} hours")
    width = max(len(t) for t in counts)
    for table, n in counts.items():
        print(f"  {table:<{width}}  {n:>10,}")
    for f in failures:
        print(f"failed  {f['path']}: {f['error']}")
    return EXIT_OK
