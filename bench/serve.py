"""Web app benchmark: server time of `vidmem serve`'s pages and API on large synthetic memories.

    .venv/bin/python -m bench.serve                       # 10 synthetic hours, 10,000-video archive
    .venv/bin/python -m bench.serve --hours 100           # bench.queries' 100-hour archive (~8 GB)

Memories (built once, cached like bench.queries'):
- `--hours` one-hour videos from `bench.queries.video_rows` (about 200,000 detections, 900 speech
  segments, 300 on-screen text spans and 1,500 tracks per hour, 384-d text embeddings): the video
  page of one of them, its detections window, and search over the whole archive (keyword BM25
  plus semantic, through the app's /api/search with a query vector already made, like the
  queries benchmark).
- 10,000 video records (`--archive-videos`), a tenth failed: the archive page, first, filtered and
  last page.

Server time is measured in-process through FastAPI's TestClient (routing, the memory read, JSON
or HTML rendering; no network), median and p95 over `--repeats` requests, both with the memory
held open between requests (a burst, the usual case) and opened for each request (hold_s=0).
Targets: video page < 500 ms, search < 200 ms, archive page < 300 ms.

`--load` runs bench/serve_load.py instead: a real `vidmem serve` under simulated users.
"""

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
from fastapi.testclient import TestClient

from bench.queries import CACHE, TEXT_MODEL, build, video_rows
from bench.report import Figure, emit, machine
from memory import VideoRecord, open_memory
from vidmem.serve import create_app

TARGETS_MS = {"video page": 500.0, "search": 200.0, "archive page": 300.0}


@dataclass(frozen=True)
class QueryVector:
    """The query-side encoder of the synthetic embeddings: a fixed random unit vector per text."""

    model: str = TEXT_MODEL

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        rng = np.random.default_rng(abs(hash(tuple(texts))) % 2**32)
        x = rng.standard_normal((len(texts), 384)).astype(np.float32)
        return x / np.linalg.norm(x, axis=1, keepdims=True)


def build_archive(n: int) -> Path:
    """A memory of `n` video records (every tenth failed), no content rows: the archive page's load."""
    folder = CACHE / f"serve-archive-{n}"
    path, done = folder / "memory.duckdb", folder / "built.json"
    if done.exists():
        open_memory(path).close()  # built by an older vidmem: migrate it once, as a user's memory would be
        return path
    folder.mkdir(parents=True, exist_ok=True)
    path.unlink(missing_ok=True)
    started = time.perf_counter()
    records = []
    for i in range(n):
        failed = i % 10 == 9
        records.append(VideoRecord(
            video_id=f"v{i:016x}", path=f"/archive/site-{i % 37:02d}/camera-{i % 11}/clip-{i:05d}.mp4",
            status="failed" if failed else "ok", duration_s=None if failed else 60.0 + i % 3000,
            size_bytes=10_000_000 + i, width=1920, height=1080, fps=25.0,
            error="decode failed: moov atom not found" if failed else None,
            roles={} if failed else {"asr": "ran", "ocr": "ran", "tracking": "ran", "captions": "skipped: no model"},
        ).to_arrow())
    with open_memory(path) as mem:
        mem.con.register("_records", pa.concat_tables(records))
        mem.con.execute("INSERT INTO videos BY NAME SELECT * FROM _records")
        mem.con.unregister("_records")
    done.write_text(json.dumps({"videos": n}))
    print(f"built a {n}-video archive in {time.perf_counter() - started:.0f} s: {path}")
    return path


def timed(client: TestClient, method: str, url: str, repeats: int, **kwargs: object) -> list[float]:
    """Milliseconds per request (after one warm-up request), each checked to succeed."""
    call: Callable[..., object] = getattr(client, method)
    out = []
    for i in range(repeats + 1):
        started = time.perf_counter()
        r = call(url, **kwargs)
        ms = (time.perf_counter() - started) * 1000
        assert r.status_code == 200, f"{url}: {r.status_code} {r.text[:300]}"  # type: ignore[attr-defined]
        if i:
            out.append(ms)
    return out


def summary(ms: list[float]) -> tuple[float, float]:
    ordered = sorted(ms)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    args_in = sys.argv[1:] if argv is None else argv
    if "--load" in args_in:  # a real server under simulated users: bench/serve_load.py
        from bench.serve_load import main as load_main

        return load_main(args_in)
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hours", type=int, default=10, help="synthetic one-hour videos to search (default 10)")
    ap.add_argument("--archive-videos", type=int, default=10_000, help="video records for the archive page")
    ap.add_argument("--repeats", type=int, default=20)
    args = ap.parse_args(argv)
    print(f"machine: {machine()}")
    stores = build(args.hours, with_sqlite=False, rebuild=False)
    archive = build_archive(args.archive_videos)
    vid = video_rows(0).record.video_id
    with open_memory(stores.duckdb_path, read_only=True) as mem:
        n_det = mem.query("SELECT count(*) AS n FROM detections WHERE video_id = ?", [vid])["n"][0].as_py()
        n_items = mem.query("SELECT count(*) AS n FROM text_embeddings")["n"][0].as_py()

    rows: list[tuple[str, str, float, float]] = []
    figures: list[Figure] = []
    for mode, hold in (("held", 30.0), ("per request", 0.0)):
        app = create_app(str(stores.duckdb_path), hold_s=hold, encoders={"text": QueryVector()})
        with TestClient(app) as client:
            cases = [
                ("video page", f"video page (1 h, {n_det:,} detections)", "get", f"/videos/{vid}", {}),
                ("", "detections window (30 s)", "get", f"/api/videos/{vid}/detections",
                 {"params": {"from_s": 1800, "to_s": 1830}}),
                ("search", f"search, keyword + semantic ({args.hours} h, {n_items:,} texts)", "get", "/api/search",
                 {"params": {"q": "train platform", "k": 10}}),
                ("", "search in one video", "get", "/api/search", {"params": {"q": "train", "video_id": vid}}),
            ]
            for target, name, method, url, kwargs in cases:
                med, p95 = summary(timed(client, method, url, args.repeats, **kwargs))
                rows.append((mode, name, med, p95))
                if target and mode == "held":
                    figures.append(Figure(f"{target} ms", med, "ms (median)", "target", TARGETS_MS[target],
                                          TARGETS_MS[target] / med, note=name))
        app = create_app(str(archive), hold_s=hold)
        with TestClient(app) as client:
            last = (args.archive_videos + 49) // 50
            for label, params in (
                ("first page", {}),
                ("filtered 'camera-3' + failed", {"q": "camera-3", "status": "failed"}),
                (f"last page ({last})", {"page": last}),
            ):
                med, p95 = summary(timed(client, "get", "/videos", args.repeats, params=params))
                name = f"archive page {label} ({args.archive_videos:,} videos)"
                rows.append((mode, name, med, p95))
                if label == "first page" and mode == "held":
                    figures.append(Figure("archive page ms", med, "ms (median)", "target", TARGETS_MS["archive page"],
                                          TARGETS_MS["archive page"] / med, note=name))
            med, p95 = summary(timed(client, "get", "/api/videos", args.repeats, params={"limit": 100}))
            rows.append((mode, "GET /api/videos (100 of them)", med, p95))

    print(f"\n{'memory':<12}{'request':<64}{'median ms':>10}{'p95 ms':>10}")
    for mode, name, med, p95 in rows:
        print(f"{mode:<12}{name[:63]:<64}{med:>10.1f}{p95:>10.1f}")
    print("targets: video page < 500 ms, search < 200 ms, archive page < 300 ms (held memory, median)")
    emit("serve", figures)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
