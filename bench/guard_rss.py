"""Peak memory of the agents' SQL guard under the hostile corpus and under heavy allowed queries.

    .venv/bin/python -m bench.guard_rss            # prints a table and the peak RSS; exit 1 over the bound

The guard (agents/guard.py) and the sandbox it runs queries in (queries/sandbox.py) must keep the
process bounded whatever the model writes: hostile SQL is refused before it runs
(tests/data/hostile_sql.txt, where the issue's 1.5 GB `repeat` string lives), and what is allowed
but heavy (aggregating a cross join into one string or list, wide results, endless scans) is cut by
the memory limit, the byte and row caps or the time limit. The bound checked, for each case in a
fresh process: peak RSS no more than the memory limit plus 512 MB over the RSS before the query (one
vector of values in flight past the watchdog, the Arrow batch being measured, allocator slack).
"""

from __future__ import annotations

import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from agents.errors import GuardError, SQLRunError
from agents.guard import GuardedSQL, guarded
from memory import open_memory
from queries.sandbox import DEFAULT_MEMORY_LIMIT, release_sandbox
from tests.test_guard import HOSTILE
from tests.test_tools_memory import build_memory

#: Allowed by the guard, and each able to take gigabytes without the limits.
HEAVY = (
    ("one 500 MB string from a cross join", "SELECT string_agg(word, ' ') AS s FROM transcript_words, range(50000000)"),
    ("a 1.6 GB list", "SELECT list(i) AS l FROM range(200000000) AS r(i)"),
    ("1 GB of md5 text in one value", "SELECT string_agg(md5(i::VARCHAR), '') AS s FROM range(30000000) AS r(i)"),
    ("a growing window string per row", "SELECT string_agg(md5(i::VARCHAR), '') OVER (ORDER BY i) AS s "
     "FROM range(200000) AS r(i)"),
    ("replace() amplifying each word", "SELECT replace(word || 'eeeeeeeeee', 'e', '" + "x" * 15000 + "') AS s "
     "FROM transcript_words, range(100000)"),
    ("a wide cross join", "SELECT * FROM detections a, detections b, detections c, range(1000000)"),
    ("sorting 300 M rows", "SELECT i FROM range(300000000) AS r(i) ORDER BY hash(i) LIMIT 5"),
    ("an endless count", "SELECT count(*) FROM range(100000000000) AS r(i) WHERE i % 7 = 3"),
)  # fmt: skip
SLACK_MB = 512


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _limit_mb(text: str) -> float:
    units = {"KB": 1 / 1024, "MB": 1, "GB": 1024, "TB": 1024 * 1024}
    for unit, factor in units.items():
        if text.upper().endswith(unit):
            return float(text[: -len(unit)]) * factor
    raise ValueError(text)


def main(argv: list[str]) -> int:
    """Each case in its own process (ru_maxrss only grows, and freed memory stays with the process)."""
    if argv:
        return _one(int(argv[0]))
    print(f"memory limit {DEFAULT_MEMORY_LIMIT}; bound on each case's growth: the limit + {SLACK_MB} MB")
    ok = True
    for case in range(len(HEAVY) + 1):
        done = subprocess.run([sys.executable, "-m", "bench.guard_rss", str(case)], capture_output=True, text=True)
        print(done.stdout.rstrip() or done.stderr.strip()[-500:])
        ok = ok and done.returncode == 0
    print("bound held for every case" if ok else "bound EXCEEDED (or a hostile query ran)")
    return 0 if ok else 1


def _one(case: int) -> int:
    folder = Path(tempfile.mkdtemp(prefix="guard_rss_"))
    path = build_memory(folder / "m.duckdb")
    with open_memory(path, read_only=True) as mem:
        runner = guarded(mem)
        runner.run("SELECT count(*) FROM tracks")
        base = peak_mb()
        started = time.perf_counter()
        if case == 0:
            refused = sum(1 for sql in HOSTILE if _refused(runner, sql))
            name, outcome, good = "hostile corpus", f"{refused}/{len(HOSTILE)} refused", refused == len(HOSTILE)
        else:
            name, sql = HEAVY[case - 1]
            good = True
            try:
                result = runner.run(sql)
                outcome = f"{len(result.rows)} rows, {result.nbytes:,} bytes" + (
                    f", cut by the {result.truncated_by} cap" if result.truncated else ""
                )
            except (GuardError, SQLRunError) as exc:
                outcome = f"{type(exc).__name__}: {str(exc).splitlines()[0][:80]}"
        release_sandbox(mem)
    growth = peak_mb() - base
    good = good and growth <= _limit_mb(DEFAULT_MEMORY_LIMIT) + SLACK_MB
    print(f"  {name:36} {time.perf_counter() - started:5.1f} s  RSS {base:4.0f} -> peak {peak_mb():5.0f} MB "
          f"(+{growth:4.0f})  {outcome}")  # fmt: skip
    return 0 if good else 1


def _refused(runner: GuardedSQL, sql: str) -> bool:
    try:
        runner.run(sql)
    except GuardError:
        return True
    except SQLRunError:
        return False
    return False


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
