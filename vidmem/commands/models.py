"""vidmem models: for each model role, what it will use here, or why it cannot run;
`vidmem models pull [ROLE...]` fetches the roles' real weights into vidmem's cache."""

import argparse
import json
import sys

from ingest import Pipeline, RoleUnavailable
from ingest.models.model_store import PULLABLE, PullError, chosen, pull
from ingest.models.weights import weights_dir
from ingest.roles.registry import EXTRACTORS
from vidmem.cli import EXIT_FAILED, EXIT_OK, EXIT_USAGE
from vidmem.config import add_settings_args, settings_from


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "models",
        help="show what each model role will use, or why it is unavailable",
        description="For each ingest role: whether it runs on this machine, with which weights "
        "(settings path, a cache, a package that ships them or a packaged substitute, or a download by name), "
        "or why not. 'vidmem models pull [ROLE...]' fetches the real weights.",
    )
    p.add_argument("--format", choices=("table", "json"), default="table")
    add_settings_args(p)
    p.set_defaults(run=run)
    actions = p.add_subparsers(dest="action", metavar="ACTION")
    pull_p = actions.add_parser(
        "pull",
        help="fetch each role's real weights into vidmem's cache (needs internet)",
        description=f"Fetch the real weights of the roles ({', '.join(PULLABLE)}; default: all) into "
        "$VIDMEM_CACHE/weights (default ~/.cache/vidmem/weights), where every role looks before any packaged "
        "substitute. Offline it fails within seconds.",
    )
    pull_p.add_argument("roles", nargs="*", metavar="ROLE", help=f"one of {', '.join(PULLABLE)}")
    add_settings_args(pull_p)
    pull_p.set_defaults(run=run_pull)


def run(args: argparse.Namespace) -> int:
    settings = settings_from(args)
    pipeline = Pipeline(settings)
    rows = []
    for cls in EXTRACTORS:
        avail = pipeline.availability.get(cls.role)
        weights, location = "", ""
        if cls.role in PULLABLE:
            try:
                picked = chosen(cls.role, settings)
                weights, location = picked.status, picked.location
            except RoleUnavailable:
                weights = "missing"
        if avail is None:
            rows.append(
                {
                    "role": cls.role,
                    "status": "off",
                    "source": "",
                    "weights": weights,
                    "location": location,
                    "detail": "disabled in settings",
                }
            )
        else:
            status = (
                "needs internet"
                if avail.ok and avail.source == "download"
                else ("ready" if avail.ok else "unavailable")
            )
            rows.append(
                {
                    "role": cls.role,
                    "status": status,
                    "source": avail.source,
                    "weights": weights,
                    "location": location,
                    "detail": avail.detail,
                }
            )
    if args.format == "json":
        print(json.dumps(rows, indent=2))
    else:
        for r in rows:
            print(f"{r['role']:<16} {r['status']:<15} {r['weights'] or '-':<11} {r['detail']}")
    return EXIT_OK


def run_pull(args: argparse.Namespace) -> int:
    unknown = [r for r in args.roles if r not in PULLABLE]
    if unknown:
        print(
            f"vidmem models pull: no weights to pull for {', '.join(unknown)} (roles: {', '.join(PULLABLE)})",
            file=sys.stderr,
        )
        return EXIT_USAGE
    settings = settings_from(args)
    print(f"weights cache: {weights_dir()}")
    failed = 0
    for role in args.roles or PULLABLE:
        try:
            got = pull(role, settings)
        except PullError as exc:
            print(str(exc), file=sys.stderr)
            failed += 1
            continue
        print(f"{role}: {got.model} at {got.location}")
    return EXIT_FAILED if failed else EXIT_OK
