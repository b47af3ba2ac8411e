"""Archive benchmark: batch-ingest throughput (video-hours per hour) with 1, 2 and N workers.

    .venv/bin/python -m bench.archive                            # ASR only; workers 1, 2, N (= CPUs)
    .venv/bin/python -m bench.archive --workers 1,2,4 --copies 6 --memory-kind ducklake --ray
    .venv/bin/python -m bench.archive --add-role ocr --copies 1    # adding one role to an ingested archive

The archive: `--copies` remuxes of each generated speech clip (speech_sign 12 s, speech_count 20 s;
real footage with a spoken sentence), each with a different metadata tag so that every file has
its own content hash (copies of one file would be ingested once). Remuxing copies the streams, so
every copy costs what the original does. Roles: ASR only by default (faster-whisper base, int8 on
the CPU): the cheap role that makes every second of video cost real model work, so a run takes
minutes, not hours; `--roles` picks others.

`--add-role ROLE` measures adding one role to an archive ingested with `--roles`: the run with
both (only ROLE is missing, so only it runs) against ROLE alone into a fresh memory on the same
files (goal: at most 1.2x), and a checksum of every other role's rows (and their provenance)
before and after, which must be equal.

Each configuration ingests the whole archive into a fresh memory through `ingest.batch.run_batch`,
exactly as `vidmem ingest --workers W` does. Wall time is the whole run: spawning the workers and
loading each worker's models included, as an archive run pays them; `first` is when the first
video was committed (that start-up cost, plus one video). Throughput = video-hours / wall-hours.
`CPU s/s` is CPU seconds spent per second of video (this process and its workers; not Ray's):
unlike wall time it holds when other processes share the cores, so check the load average
printed before and after a run before trusting the wall-time figures.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bench.report import Figure, emit, machine

CLIPS = ("speech_sign", "speech_count")


@dataclass(frozen=True)
class Row:
    label: str
    workers: int
    files: int
    ok: int
    failed: int
    video_s: float
    wall_s: float
    first_s: float
    cpu_s: float | None  # CPU time of this process and its (reaped) workers; None with Ray (not ours to count)
    reads: dict[str, int] | None = None  # --readers: analyst reads during the run, by outcome

    @property
    def cpu_per_video_s(self) -> float | None:
        """CPU seconds per second of video: the cost of ingesting, whatever else shares the cores."""
        return self.cpu_s / self.video_s if self.cpu_s is not None and self.video_s else None

    @property
    def throughput(self) -> float:
        """Video-hours ingested per hour of wall time."""
        return self.video_s / self.wall_s if self.wall_s else 0.0


def make_archive(folder: Path, copies: int) -> list[Path]:
    from tests.fixtures.make_fixtures import ensure_fixtures

    media = ensure_fixtures()
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for name in CLIPS:
        for i in range(copies):
            target = folder / f"{name}-{i:03d}.mp4"
            subprocess.run(
                ["ffmpeg", "-nostdin", "-y", "-v", "error", "-i", str(media[name]), "-map", "0", "-c", "copy",
                 "-metadata", f"comment=vidmem bench copy {i}", str(target)],
                check=True,
            )
            out.append(target)
    return out


_READER = """
import json, sys, time
from pathlib import Path
from memory import StoreError, open_memory
uri, stop = sys.argv[1], Path(sys.argv[2])
counts = {"ok": 0, "locked": 0, "other": 0}
while not stop.exists():
    try:
        with open_memory(uri, read_only=True) as mem:
            mem.query("SELECT count(*) FROM videos")
        counts["ok"] += 1
    except StoreError as exc:
        counts["locked" if "locked" in str(exc) else "other"] += 1
    time.sleep(0.1)
print(json.dumps(counts))
"""


def run_one(
    label: str, paths: list[Path], memory: str, roles: list[str], workers: int, ray: bool, readers: bool
) -> Row:
    from ingest import IngestResult, IngestSettings
    from ingest.batch import BatchOptions, run_batch
    from memory import open_memory

    reader = None
    stop = Path()
    if readers:
        stop = Path(tempfile.mkdtemp(prefix="vidmem-bench-readers-")) / "stop"
        # An analyst in another process opening the memory read-only, querying, closing, 10 times a second.
        open_memory(memory).close()
        reader = subprocess.Popen([sys.executable, "-c", _READER, memory, str(stop)], stdout=subprocess.PIPE, text=True)
    started = time.monotonic()
    cpu0 = _cpu_s()
    first: list[float] = []

    def on_result(result: IngestResult) -> None:
        if not first:
            first.append(time.monotonic() - started)

    options = BatchOptions(workers=workers, ray_address="local" if ray else None)
    report = run_batch(paths, memory, IngestSettings().only(*roles), options, on_result=on_result)
    reads = None
    if reader is not None:
        stop.touch()
        reads = json.loads(reader.communicate()[0])
        shutil.rmtree(stop.parent, ignore_errors=True)
    c = report.counts
    return Row(label, report.workers, len(paths), c["ok"], c["failed"], report.video_s, report.wall_s,
               first[0] if first else 0.0, None if ray else _cpu_s() - cpu0, reads)


def other_roles_checksum(memory: str, added: str) -> str:
    """SHA-256 over every row of every table not written by `added`, and the other roles' provenance."""
    import hashlib

    from ingest.roles.registry import EXTRACTORS
    from memory import VIDEO_TABLES, open_memory

    own = {t for cls in EXTRACTORS if cls.role == added for t in cls.tables}
    digest = hashlib.sha256()
    with open_memory(memory, read_only=True) as mem:
        for t in VIDEO_TABLES:
            if t.name in own or t.name == "videos":  # videos: when the latest run happened, not a role's rows
                continue
            where = " WHERE role <> ?" if t.name == "role_runs" else ""
            rows = mem.query(f"SELECT * FROM {t.name}{where}", [added] if where else None).to_pylist()
            digest.update(f"{t.name}:{sorted(map(repr, rows))}".encode())
    return digest.hexdigest()


def add_role(paths: list[Path], work: Path, kind: str, base: list[str], added: str, workers: int) -> bool:
    """Time adding `added` to an archive ingested with `base`, against `added` alone; check the rest."""
    from ingest import IngestSettings
    from ingest.batch import BatchOptions, run_batch

    def uri(name: str) -> str:
        return str(work / f"{name}.duckdb") if kind == "duckdb" else f"ducklake:sqlite:{work / name / 'catalog.sqlite'}"

    options = BatchOptions(workers=workers)
    archive, alone = uri("add-archive"), uri("add-alone")
    first = run_batch(paths, archive, IngestSettings().only(*base), options)
    print(f"  archive with {','.join(base)}: {first.wall_s:.1f}s ({first.summary()})", flush=True)
    before = other_roles_checksum(archive, added)
    # Back to back, the role alone first: other processes sharing the cores change wall times
    # between runs, so CPU seconds (this process and its workers) are printed beside them.
    cpu0 = _cpu_s()
    only = run_batch(paths, alone, IngestSettings().only(added), options)
    cpu1 = _cpu_s()
    adding = run_batch(paths, archive, IngestSettings().only(*base, added), options)
    cpu_add, cpu_only = _cpu_s() - cpu1, cpu1 - cpu0
    after = other_roles_checksum(archive, added)
    ratio = adding.wall_s / only.wall_s if only.wall_s else float("inf")
    same = before == after
    recomputed = sorted({r for res in adding.results for r in res.recomputed})
    print(f"{added} alone, fresh memory: {only.wall_s:.1f}s wall, {cpu_only:.1f}s CPU ({only.summary()})")
    print(f"add {added} to the archive: {adding.wall_s:.1f}s wall, {cpu_add:.1f}s CPU ({adding.summary()})")
    print(f"ratio add/alone: {ratio:.2f}x wall, {cpu_add / cpu_only if cpu_only else 0:.2f}x CPU (goal <= 1.2x)"
          + (f"; recomputed: {recomputed}" if recomputed else ""))
    print(f"other roles' rows: before {before[:16]}, after {after[:16]}: {'equal' if same else 'DIFFERENT'}")
    emit("archive", [
        Figure(f"add {added} to a {','.join(base)} archive", adding.wall_s, "s", f"{added} alone", only.wall_s,
               1 / ratio if ratio else None,  # > 1 is better: adding is faster than the role alone
               f"{len(paths)} files; CPU {cpu_add:.1f}s vs {cpu_only:.1f}s; other roles' rows "
               f"{'unchanged' if same else 'CHANGED'}"),
    ])
    return same and not adding.failures and not only.failures


def _cpu_s() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def _load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def table(rows: list[Row]) -> str:
    base = rows[0].throughput if rows and rows[0].workers == 1 else None
    lines = [
        f"{'run':<16}{'workers':>8}{'files':>7}{'ok':>5}{'failed':>7}{'video-h':>9}{'wall s':>9}"
        f"{'first s':>9}{'CPU s/s':>9}{'video-h/h':>11}{'speed-up':>10}"
    ]
    for r in rows:
        speed = f"{r.throughput / base:.2f}x" if base else "-"
        lines.append(
            f"{r.label:<16}{r.workers:>8}{r.files:>7}{r.ok:>5}{r.failed:>7}{r.video_s / 3600:>9.4f}"
            f"{r.wall_s:>9.1f}{r.first_s:>9.1f}{_num(r.cpu_per_video_s):>9}{r.throughput:>11.2f}{speed:>10}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    from ingest.batch import available_cpus

    cpus = available_cpus()
    parser = argparse.ArgumentParser(prog="python -m bench.archive", description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", default=None, help=f"comma-separated worker counts (default 1,2,{cpus})")
    parser.add_argument("--copies", type=int, default=4, help="copies of each speech clip (default 4: 8 files)")
    parser.add_argument("--roles", default="asr", help="comma-separated roles (default asr)")
    parser.add_argument("--memory-kind", choices=("duckdb", "ducklake"), default="duckdb")
    parser.add_argument("--ray", action="store_true", help="also run through a local Ray cluster with N workers")
    parser.add_argument("--json", type=Path, help="also write the rows to this JSON file")
    parser.add_argument(
        "--readers", action="store_true",
        help="while each run writes, another process opens the memory read-only and queries it 10 times a "
        "second; prints how many reads worked and how many found the DuckDB file locked by the writer",
    )
    parser.add_argument(
        "--add-role", metavar="ROLE",
        help="instead: time adding ROLE to an archive ingested with --roles, against ROLE alone (1 worker or "
        "--workers N), and check every other role's rows are unchanged",
    )
    args = parser.parse_args(argv)
    counts = sorted({int(w) for w in args.workers.split(",")}) if args.workers else sorted({1, 2, cpus})
    roles = [r.strip() for r in args.roles.split(",") if r.strip()]

    work = Path(tempfile.mkdtemp(prefix="vidmem-bench-archive-"))
    try:
        paths = make_archive(work / "archive", args.copies)
        print(f"machine: {machine()}; load average {_load()}")
        if args.add_role:
            print(f"archive: {len(paths)} files ({', '.join(CLIPS)} x {args.copies}), memory: {args.memory_kind}")
            ok = add_role(paths, work, args.memory_kind, roles, args.add_role, counts[0] if args.workers else 1)
            print(f"load average after: {_load()}")
            return 0 if ok else 1
        print(f"archive: {len(paths)} files ({', '.join(CLIPS)} x {args.copies}), roles: {','.join(roles)}, "
              f"memory: {args.memory_kind}", flush=True)
        runs = [(f"{w} worker{'s' if w > 1 else ''}", w, False) for w in counts]
        if args.ray:
            runs.append((f"ray local x{cpus}", cpus, True))
        rows: list[Row] = []
        for i, (label, workers, ray) in enumerate(runs):
            memory = (
                str(work / f"m{i}.duckdb") if args.memory_kind == "duckdb"
                else f"ducklake:sqlite:{work / f'lake{i}' / 'catalog.sqlite'}"
            )
            rows.append(run_one(label, paths, memory, roles, workers, ray, args.readers))
            print(f"  {label}: {rows[-1].wall_s:.1f}s, {rows[-1].throughput:.2f} video-h/h", flush=True)
        print(f"\nload average after: {_load()}")
        print(table(rows))
        for r in rows:
            if r.reads is not None:
                total = sum(r.reads.values()) or 1
                print(f"reads during '{r.label}': {r.reads} ({100 * r.reads['ok'] / total:.1f}% worked)")
        if args.json:
            args.json.write_text(json.dumps([r.__dict__ | {"throughput": r.throughput} for r in rows], indent=2))
        base = rows[0].throughput if rows[0].workers == 1 else None
        emit("archive", [
            Figure(f"{r.label} ({','.join(roles)})", r.throughput, "video-h/h",
                   "1 worker" if base and r is not rows[0] else "",
                   base if base and r is not rows[0] else None,
                   r.throughput / base if base and r is not rows[0] else None,
                   f"{r.files} files, wall {r.wall_s:.1f}s")
            for r in rows
        ])
        return 0 if all(r.failed == 0 for r in rows) else 1
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
