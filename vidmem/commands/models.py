"""vidmem models: for each model role, what it will use here, or why it cannot run."""

import argparse
import json

from ingest import Pipeline
from ingest.registry import EXTRACTORS
from vidmem.cli import EXIT_OK
from vidmem.config import add_settings_args, settings_from


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "models",
        help="show what each model role will use, or why it is unavailable",
        description="For each ingest role: whether it runs on this machine, with which weights "
        "(settings path, a package that ships them, a cache, or a download by name), or why not.",
    )
    p.add_argument("--format", choices=("table", "json"), default="table")
    add_settings_args(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    settings = settings_from(args)
    pipeline = Pipeline(settings)
    rows = []
    for cls in EXTRACTORS:
        avail = pipeline.availability.get(cls.role)
        if avail is None:
            rows.append({"role": cls.role, "status": "off", "source": "", "detail": "disabled in settings"})
        else:
            status = (
                "needs internet"
                if avail.ok and avail.source == "download"
                else ("ready" if avail.ok else "unavailable")
            )
            rows.append({"role": cls.role, "status": status, "source": avail.source, "detail": avail.detail})
    if args.format == "json":
        print(json.dumps(rows, indent=2))
    else:
        for r in rows:
            print(f"{r['role']:<16} {r['status']:<15} {r['detail']}")
    return EXIT_OK
