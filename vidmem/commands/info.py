"""vidmem info: what a memory holds."""

import argparse
import json

import queries
from memory import open_memory
from vidmem.cli import EXIT_OK, add_memory_arg


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "info",
        help="summarize a memory: videos, hours, rows per table",
        description="Summarize a memory: how many videos (ok / failed), hours of video, "
        "rows per table, each model role's coverage (videos it has stored, its models, its latest runs that "
        "failed or were skipped, with the reasons), and the files that failed.",
    )
    add_memory_arg(p)
    p.add_argument("--format", choices=("table", "json"), default="table", help="output format")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    with open_memory(args.memory, read_only=True) as memory:
        status = queries.memory_status(memory)
    summary = {"ok": status.ok, "failed": status.failed, "hours": status.hours}
    counts, roles, problems, failures = status.rows, status.roles, status.role_problems, status.failures
    info = {
        "memory": str(memory.uri), **summary, "rows": counts, "roles": roles, "role_problems": problems,
        "failures": failures,
    }
    if args.format == "json":
        print(json.dumps(info, indent=2))
        return EXIT_OK
    print(f"memory  {info['memory']}")
    print(f"videos  {summary['ok']} ok, {summary['failed']} failed, {summary['hours']:.3f} hours")
    width = max(len(t) for t in counts)
    for table, n in counts.items():
        print(f"  {table:<{width}}  {n:>10,}")
    if roles:
        print(f"roles   {'videos':>8} {'rows':>10}  models")
    for r in roles:
        models = ", ".join(r["models"] or []) or "-"
        extra = "".join(f", {r[k]} {k}" for k in ("failed", "skipped") if r[k])
        print(f"  {r['role']:<16}{r['videos']:>8,} {r['rows']:>10,}  {models}{extra}")
    for p in problems:
        where = p["example"] if p["videos"] == 1 else f"{p['videos']} videos, e.g. {p['example']}"
        print(f"{p['status']:<7} {p['role']} on {where}: {p['reason']}")
    for f in failures:
        print(f"failed  {f['path']}: {f['error']}")
    return EXIT_OK
