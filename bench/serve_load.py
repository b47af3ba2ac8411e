"""Load on a real `vidmem serve`: simulated users for a bounded time, latency per route, errors, RSS.

    .venv/bin/python -m bench.serve --load                       # 50 users, 60 s, the quick-start memory
    .venv/bin/python -m bench.serve --load --users 20 --seconds 30 --memory archive.duckdb

Starts `vidmem serve` as its own process on a free loopback port (so its memory and threads are
its own, as a user's would be) over `--memory` (default: the quick start's clip ingested once into
the bench cache). Each user loops for `--seconds`: the archive page, /api/videos, a video's
timeline, a search, a byte range of a video file, a SQL query, and, in one SQL request of ten, a
slow query that runs until the server stops it (a recursive count with no end). Every request is
timed; a reply other than 2xx is an error, except a 503 with Retry-After (the server shedding load
on purpose), counted apart. Prints p50/p99 per route, errors, 503s and the server's peak RSS, then
the BENCH_JSON line. One search before the users start loads the query encoders (once per server;
its time is printed apart). Target (issue 25): 0 errors other than deliberate 503s, and the archive page
and /api/videos under 1 s at p99 while the slow queries run.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from bench.report import Figure, emit, machine
from memory.cache import cache_dir

SLOW_SQL = "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) AS n FROM r"
FAST_SQL = "SELECT status, count(*) AS n FROM videos GROUP BY status"
WORDS = ("platform", "train", "exit", "person", "the station", "gate")
TARGET_P99_S = 1.0


@dataclass
class Tally:
    seconds: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    shed: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, route: str, took: float, reply: httpx.Response | None, problem: str = "") -> None:
        with self.lock:
            if reply is not None and reply.status_code == 503 and "retry-after" in reply.headers:
                self.shed[route] += 1
            elif reply is None or reply.status_code >= 300:
                self.errors[route].append(problem or f"HTTP {reply.status_code if reply else '?'}")
            else:
                self.seconds[route].append(took)


def quickstart_memory() -> Path:
    """The quick start's clip ingested once (ASR and OCR, like `make quickstart` minus tracking)."""
    path = cache_dir("bench", "VIDMEM_BENCH_DIR") / "serve-load" / "quickstart.duckdb"
    if path.exists():
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    from tests.fixtures.make_fixtures import ensure_fixtures

    clip = ensure_fixtures()["speech_sign"]
    subprocess.run([sys.executable, "-m", "vidmem", "ingest", str(clip), "--memory", str(path)], check=True)
    return path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(memory: Path, port: int) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "vidmem", "serve", "--memory", str(memory), "--port", str(port)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/videos", timeout=2).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.2)
        if proc.poll() is not None:
            raise SystemExit(f"vidmem serve exited: {proc.stderr.read().decode() if proc.stderr else ''}")
    proc.kill()
    raise SystemExit("vidmem serve did not answer within 60 s")


def peak_rss_mb(pid: int) -> float | None:
    """The process's peak resident memory so far (Linux's VmHWM), in MB."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def user(base: str, video_ids: list[str], until: float, tally: Tally, seed: int) -> None:
    rng = random.Random(seed)
    with httpx.Client(base_url=base, timeout=60, follow_redirects=True) as http:
        while time.monotonic() < until:
            vid = rng.choice(video_ids)
            slow = rng.random() < 0.1
            steps = [
                ("archive page", "GET", "/", {}),
                ("/api/videos", "GET", "/api/videos", {}),
                ("timeline", "GET", f"/api/videos/{vid}/timeline", {}),
                ("search", "GET", "/api/search", {"params": {"q": rng.choice(WORDS)}}),
                ("media range", "GET", f"/media/{vid}", {"headers": {"Range": "bytes=0-65535"}}),
                ("sql slow" if slow else "sql", "POST", "/api/sql", {"json": {"sql": SLOW_SQL if slow else FAST_SQL}}),
            ]
            rng.shuffle(steps)
            for route, method, url, kwargs in steps:
                if time.monotonic() >= until:
                    return
                start = time.perf_counter()
                try:
                    reply = http.request(method, url, **kwargs)
                except httpx.HTTPError as exc:
                    tally.add(route, time.perf_counter() - start, None, type(exc).__name__)
                    continue
                took = time.perf_counter() - start
                if route == "sql slow" and reply.status_code == 400 and "longer than" in reply.text:
                    tally.add(route, took, httpx.Response(200))  # stopped by the server's time limit: expected
                else:
                    tally.add(route, took, reply)


def _quietly(base: str, sql: str) -> None:
    with contextlib.suppress(httpx.HTTPError):  # the server goes away under it: that is the point
        httpx.post(f"{base}/api/sql", json={"sql": sql}, timeout=60)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--load", action="store_true", help="(the mode bench.serve hands over with)")
    ap.add_argument("--users", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--memory", type=Path, help="memory to serve (default: the quick start's clip)")
    args = ap.parse_args(argv)
    memory = args.memory or quickstart_memory()
    port = free_port()
    server = start_server(memory, port)
    base = f"http://127.0.0.1:{port}"
    try:
        video_ids = [v["video_id"] for v in httpx.get(f"{base}/api/videos", timeout=10).json()]
        # The first search loads the query encoders (seconds, once per server): measured apart.
        warm = time.perf_counter()
        httpx.get(f"{base}/api/search", params={"q": "warm up"}, timeout=300).raise_for_status()
        print(f"first search (loads the query encoders): {time.perf_counter() - warm:.1f} s")
        tally = Tally()
        until = time.monotonic() + args.seconds
        threads = [threading.Thread(target=user, args=(base, video_ids, until, tally, i), daemon=True)
                   for i in range(args.users)]  # fmt: skip
        started = time.monotonic()
        for t in threads:
            t.start()
        for t in threads:
            t.join(args.seconds + 120)
        wall = time.monotonic() - started
        rss = peak_rss_mb(server.pid)
        # SIGTERM while slow queries run: the server must stop within 2 s, not at their time limit
        for _ in range(3):
            threading.Thread(target=_quietly, args=(base, SLOW_SQL), daemon=True).start()
        time.sleep(1.0)
    finally:
        stop_started = time.monotonic()
        server.terminate()
        try:
            server.wait(10)
            stop_s: float | None = time.monotonic() - stop_started
        except subprocess.TimeoutExpired:
            server.kill()
            stop_s = None
    print(f"machine: {machine()}; {args.users} users for {args.seconds:g} s ({wall:.0f} s wall) on {memory}")
    print(f"{'route':<14}{'requests':>9}{'p50 ms':>9}{'p99 ms':>9}{'errors':>8}{'503s':>6}")
    figures = []
    for route in sorted(set(tally.seconds) | set(tally.errors) | set(tally.shed)):
        ok = tally.seconds.get(route, [])
        p50 = statistics.median(ok) * 1000 if ok else float("nan")
        p99 = percentile(ok, 0.99) * 1000 if ok else float("nan")
        errors = len(tally.errors.get(route, []))
        print(f"{route:<14}{len(ok):>9}{p50:>9.0f}{p99:>9.0f}{errors:>8}{tally.shed.get(route, 0):>6}")
        figures.append(Figure(f"{route} p99", round(p99, 1), "ms", note=f"p50 {p50:.0f} ms, {len(ok)} requests"))
        if errors:
            print(f"  {route} errors: {sorted(set(tally.errors[route]))[:5]}")
    n_errors = sum(len(v) for v in tally.errors.values())
    print(f"errors (other than deliberate 503s): {n_errors}; 503s: {sum(tally.shed.values())}; "
          f"server peak RSS: {rss:.0f} MB" if rss else "")
    print(f"SIGTERM with 3 slow queries running, to exit: {stop_s:.2f} s" if stop_s is not None
          else "SIGTERM: still running after 10 s (killed)")
    figures += [Figure("errors", n_errors, "requests"), Figure("server peak RSS", round(rss or 0, 1), "MB"),
                Figure("SIGTERM to exit", round(stop_s, 2) if stop_s is not None else -1, "s")]  # fmt: skip
    emit("serve-load", figures)
    keys = ("archive page", "/api/videos")
    met = n_errors == 0 and all(percentile(tally.seconds[k], 0.99) < TARGET_P99_S for k in keys if tally.seconds[k])
    return 0 if met or os.environ.get("VIDMEM_BENCH_NO_FAIL") else 1


if __name__ == "__main__":
    raise SystemExit(main())
