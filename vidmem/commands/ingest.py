"""vidmem ingest: videos -> rows in the memory, over parallel workers or a Ray cluster."""

import argparse
import sys

from ingest import IngestResult
from ingest.batch import BatchInterrupted, BatchOptions, run_batch
from ingest.sources import expand_sources
from memory import VidmemError, open_memory
from vidmem.cli import EXIT_FAILED, EXIT_OK, EXIT_USAGE, add_memory_arg, positive_float, positive_int
from vidmem.config import add_settings_args, settings_from
from vidmem.display import console_display


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "ingest",
        help="decode videos and store what the models see and hear",
        description="Ingest videos into the memory: one decode pass per video feeds every model role; "
        "a role's rows commit together with its provenance, so an interrupted run leaves whole roles and "
        "resumes where it stopped. Per video, only the selected roles that are missing or whose own settings "
        "changed run (a role that reads another's rows brings that one along); every other role keeps its rows, "
        "and a role that fails or is skipped keeps what it had. A file that failed before with the same "
        "settings is not tried again while unchanged (same size): --retry-failed tries it (and failed roles) "
        "again, --force re-runs the selected roles. Workers extract in parallel; this process alone "
        "writes, opening a .duckdb memory only while committing so that `vidmem sql` can read in "
        "between. For querying while a long run writes, use a DuckLake memory (ducklake:sqlite:PATH).",
        epilog="Examples:\n  vidmem ingest clip.mp4\n  vidmem ingest archive/ 'more/**/*.mov' list.txt --only asr,ocr\n"
        "  vidmem ingest archive/ --workers 4 --memory ducklake:sqlite:lake/catalog.sqlite\n"
        "  vidmem ingest /shared/archive --ray auto \\\n"
        "      --memory 'ducklake:postgres:dbname=vidmem host=db?data=/shared/lake'\n"
        "Exit status: 0 all ok, 1 some failed (each reported), 2 usage error.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("paths", nargs="+", metavar="PATH", help="video files, folders, globs, or .txt lists of paths")
    add_memory_arg(p)
    p.add_argument("--force", action="store_true", help="re-run the selected roles even when stored and unchanged")
    p.add_argument("--retry-failed", action="store_true", help="try again files that failed before, even unchanged")
    p.add_argument(
        "--workers", "-j", type=positive_int, metavar="N",
        help="parallel workers (default: one per CPU, within free memory; with --ray: the cluster's CPUs)",
    )
    p.add_argument(
        "--ray", metavar="ADDRESS",
        help="extract on a Ray cluster: 'local' starts one here, else an address for ray.init ('auto', "
        "'ray://head:10001'). Paths must be readable at the same place on every node.",
    )
    p.add_argument(
        "--progress-every", type=positive_float, default=30.0, metavar="SECONDS",
        help="when output is not a terminal, print a progress line this often (default 30)",
    )
    add_settings_args(p)
    p.set_defaults(run=run)


def _line(result: IngestResult, n: int, total: int) -> str:
    prefix = f"[{n}/{total}] {result.status:7} {result.path}"
    if result.status == "failed":
        return f"{prefix}: {result.error}"
    notes = "; ".join(
        [f"{r} {s}" for r, s in result.roles.items() if s != "ran"]
        + [f"{r} recomputed: {why}" for r, why in result.recomputed.items()]
    )
    if result.status == "skipped":
        return f"{prefix}: already stored with these settings" + (f" [{notes}]" if notes else "")
    rows = ", ".join(f"{k} {v}" for k, v in result.rows.items() if v) or "no rows"
    return (
        f"{prefix} ({result.duration_s or 0:.1f}s of video in {result.seconds:.1f}s): {rows}"
        + (f" [{notes}]" if notes else "")
    )


def run(args: argparse.Namespace) -> int:
    settings = settings_from(args)
    options = BatchOptions(
        workers=args.workers, ray_address=args.ray, retry_failed=args.retry_failed, force=args.force
    )
    paths = expand_sources(args.paths)
    if not paths:
        print("vidmem ingest: no videos found in " + " ".join(args.paths), file=sys.stderr)
        return EXIT_USAGE
    display = console_display(args.progress_every)
    done = 0

    def on_result(result: IngestResult) -> None:
        nonlocal done
        done += 1
        display.note(_line(result, done, len(paths)), error=result.status == "failed")

    try:
        report = run_batch(paths, args.memory, settings, options, display=display, on_result=on_result)
    except BatchInterrupted as stopped:
        left = len(paths) - len(stopped.report.results)
        print(f"{stopped.report.summary()}; interrupted with {left} not done: run the same command again "
              "to resume (stored videos are skipped)", flush=True)
        return 130
    rate = f"{report.video_s / 3600:.3f} video-hours in {report.wall_s:.0f}s, {report.workers} worker(s)"
    print(f"{report.summary()} ({rate})", flush=True)
    _install_library(args.memory)
    return EXIT_FAILED if report.counts["failed"] else EXIT_OK


def _install_library(uri: str) -> None:
    """Store the query library (views, macros) and the keyword index in the memory, so that any
    DuckDB client sees them."""
    import queries

    try:
        with open_memory(uri) as memory:
            queries.install(memory)
            queries.build_text_index(memory)
    except VidmemError as exc:  # the rows are stored; vidmem sql installs the library per session
        print(f"note: query library not stored in {uri}: {exc}", file=sys.stderr)
