"""vidmem ingest: videos -> rows in the memory."""

import argparse
import sys

from ingest import Pipeline
from ingest.sources import expand_sources
from memory import open_memory
from vidmem.cli import EXIT_FAILED, EXIT_OK, EXIT_USAGE, add_memory_arg
from vidmem.config import add_settings_args, settings_from


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "ingest",
        help="decode videos and store what the models see and hear",
        description="Ingest videos into the memory: one decode pass per video feeds every model role; "
        "all of a video's rows commit together. Videos already stored with the same settings are skipped.",
        epilog="Examples:\n  vidmem ingest clip.mp4\n  vidmem ingest archive/ 'more/**/*.mov' list.txt --only asr,ocr\n"
        "Exit status: 0 all ok, 1 some failed (each reported), 2 usage error.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("paths", nargs="+", metavar="PATH", help="video files, folders, globs, or .txt lists of paths")
    add_memory_arg(p)
    p.add_argument("--force", action="store_true", help="re-ingest even when content and settings are unchanged")
    add_settings_args(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    settings = settings_from(args)
    paths = expand_sources(args.paths)
    if not paths:
        print("vidmem ingest: no videos found in " + " ".join(args.paths), file=sys.stderr)
        return EXIT_USAGE
    pipeline = Pipeline(settings)
    for role, avail in pipeline.availability.items():
        if not avail.ok:
            print(f"role {role} skipped: {avail.detail}", file=sys.stderr)
    counts = {"ok": 0, "skipped": 0, "failed": 0}
    with open_memory(args.memory) as memory:
        for n, path in enumerate(paths, 1):
            result = pipeline.ingest(path, memory, force=args.force)
            counts[result.status] += 1
            prefix = f"[{n}/{len(paths)}] {result.status:7} {path}"
            if result.status == "failed":
                print(f"{prefix}: {result.error}", file=sys.stderr)
            elif result.status == "skipped":
                print(f"{prefix}: already stored with these settings")
            else:
                rows = ", ".join(f"{k} {v}" for k, v in result.rows.items() if v) or "no rows"
                notes = "; ".join(f"{r} {s}" for r, s in result.roles.items() if s != "ran")
                print(
                    f"{prefix} ({result.duration_s:.1f}s of video in {result.seconds:.1f}s): {rows}"
                    + (f" [{notes}]" if notes else "")
                )
    print(f"{counts['ok']} ingested, {counts['skipped']} already stored, {counts['failed']} failed -> {args.memory}")
    return EXIT_FAILED if counts["failed"] else EXIT_OK
