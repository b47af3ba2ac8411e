"""What every benchmark prints last, so `python -m bench` can gather one summary table.

A benchmark prints its own readable table, then calls `emit(name, figures)`, which prints one
line `BENCH_JSON {...}`. A figure is a measured value with its unit and, where there is a
side-by-side baseline, the baseline's value and the ratio (higher is better, named so).
"""

import json
import os
import platform
from dataclasses import asdict, dataclass

MARK = "BENCH_JSON "


@dataclass(frozen=True)
class Figure:
    name: str
    value: float
    unit: str
    baseline: str = ""  # what the value is compared against (e.g. "ffmpeg decode", "SQLite")
    baseline_value: float | None = None
    ratio: float | None = None  # value relative to the baseline, oriented so that > 1 is better
    note: str = ""


def emit(bench: str, figures: list[Figure]) -> None:
    print(MARK + json.dumps({"bench": bench, "figures": [asdict(f) for f in figures]}), flush=True)


def machine() -> str:
    """One line describing where the numbers were taken."""
    mem_gib = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as fh:
            cpu = next((ln.split(":", 1)[1].strip() for ln in fh if ln.startswith("model name")), cpu)
    except OSError:
        pass  # not Linux: platform's answer will do
    try:
        import torch

        gpu = torch.cuda.get_device_name(0) if torch.cuda.is_available() else "no GPU"
    except ImportError:
        gpu = "no torch"
    return f"{cpu}, {os.cpu_count()} cores, {mem_gib:.0f} GiB, {gpu}, Python {platform.python_version()}"
