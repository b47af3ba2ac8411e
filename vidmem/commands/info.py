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
        "rows per table, each model role's coverage (videos it has stored, its models, its latest runs that "
        "failed or were skipped, with the reasons), and the files that failed.",
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
        roles = memory.query(
            "SELECT role, count(*) FILTER (stored_at IS NOT NULL) AS videos, "
            "coalesce(sum(row_count), 0)::BIGINT AS rows, "
            "count(*) FILTER (status = 'failed') AS failed, count(*) FILTER (status = 'skipped') AS skipped, "
            "list(DISTINCT model ORDER BY model) FILTER (model IS NOT NULL) AS models "
            "FROM role_runs GROUP BY role ORDER BY role"
        ).to_pylist()
        problems = memory.query(
            "SELECT r.role, r.status, r.reason, count(*) AS videos, min(v.path) AS example FROM role_runs r "
            "JOIN videos v USING (video_id) WHERE r.status <> 'ok' GROUP BY ALL ORDER BY r.role, r.status, r.reason"
        ).to_pylist()
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
