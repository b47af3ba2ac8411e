"""Run every benchmark and print one summary table: `python -m bench [NAME ...] [-- ARGS]`.

ARGS after `--` go to the one benchmark named, e.g. `python -m bench agents -- --set qset --sample 24`.

Each benchmark runs in its own process (so one's peak memory does not hide another's) and ends
with a BENCH_JSON line (bench/report.py) that this collects.
"""

import json
import subprocess
import sys
import time

from bench.report import MARK, machine

BENCHES = ("ingest", "archive", "queries", "agents", "serve", "summaries")


def main(argv: list[str]) -> int:
    if "--" in argv:
        names, extra = argv[: argv.index("--")], argv[argv.index("--") + 1 :]
    else:  # `python -m bench serve --load --users 20`: from the first option on, all goes to the one benchmark
        first = next((i for i, a in enumerate(argv) if a.startswith("-")), len(argv))
        names, extra = argv[:first], argv[first:]
    chosen = names or list(BENCHES)
    unknown = set(chosen) - set(BENCHES)
    if unknown:
        print(f"unknown benchmarks {sorted(unknown)}; known: {', '.join(BENCHES)}", file=sys.stderr)
        return 2
    if extra and len(chosen) != 1:
        print("arguments after -- go to one benchmark: name exactly one", file=sys.stderr)
        return 2
    print(f"machine: {machine()}\n", flush=True)
    rows, failed = [], []
    for name in chosen:
        print(f"=== bench {name} ===", flush=True)
        started = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-m", f"bench.{name}", *extra], stdout=subprocess.PIPE, text=True, bufsize=1
        )
        assert proc.stdout is not None  # stdout=PIPE
        for line in proc.stdout:
            if line.startswith(MARK):
                rows += [(name, f) for f in json.loads(line[len(MARK) :])["figures"]]
            else:
                print(line, end="", flush=True)
        if proc.wait() != 0:
            failed.append(name)
        print(f"--- {name}: {time.perf_counter() - started:.0f}s, exit {proc.returncode}\n", flush=True)
    print(f"summary ({machine()})")
    print(f"{'bench':<9}{'figure':<44}{'value':>12} {'unit':<16}{'baseline':<28}{'ratio':>8}")
    for bench, f in rows:
        base = f"{f['baseline']} {f['baseline_value']:.3g}" if f["baseline_value"] is not None else f["baseline"]
        ratio = f"{f['ratio']:.2f}x" if f["ratio"] is not None else ""
        print(f"{bench:<9}{f['name'][:43]:<44}{f['value']:>12.4g} {f['unit'][:15]:<16}{base[:27]:<28}{ratio:>8}")
    if failed:
        print(f"benchmarks that failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
