"""People counted at a second against the hand counts of the held-out facts sheets.

`python -m bench.people_counts MEMORY [MEMORY ...]`: every "- at 8 s: 4 people" (or "3-4 people", a range
where people overlap) under a video's heading in bench/qset/heldout*_facts.md, for each video of that file
name the memories hold, against `queries.visibility.seen_at` (what the people_at questions are answered
from). Prints each miss and right / under / over; a count inside the range is right. The sheets' counts
were made by hand in single frames, apart from the code; most come from the same vtest footage, so they
are one scene seen many times, not a sample of scenes.
"""

import argparse
import re
import sys
from collections.abc import Iterator
from pathlib import Path

from memory import open_memory
from queries.run import run_sql
from queries.visibility import seen_at

SHEETS = Path(__file__).parent / "qset"
_VIDEO = re.compile(r"^## (\S+\.mp4)")
_COUNT = re.compile(r"^- at ([0-9.]+) s: (\d+)(?:-(\d+))? (?:people|person)\b")


def hand_counts(sheets: Path = SHEETS) -> Iterator[tuple[str, float, int, int]]:
    """(video file, second, fewest, most) of every hand count in the facts sheets."""
    for sheet in sorted(sheets.glob("heldout*_facts.md")):
        video = None
        for line in sheet.read_text().splitlines():
            heading = _VIDEO.match(line)
            if heading:
                video = heading.group(1)
            found = _COUNT.match(line)
            if found and video:
                low = int(found.group(2))
                yield video, float(found.group(1)), low, int(found.group(3) or low)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.people_counts", description=__doc__.splitlines()[0])
    parser.add_argument("memories", nargs="+", help="memories holding the held-out videos (tracking ingested)")
    args = parser.parse_args(argv)
    counts = list(hand_counts())
    tally = {"right": 0, "under": 0, "over": 0}
    for path in args.memories:
        with open_memory(path, read_only=True) as mem:
            rows = run_sql(mem, "SELECT video_id, path FROM videos").to_pylist()
            videos = {Path(r["path"]).name: r["video_id"] for r in rows}
            for video, t_s, low, high in counts:
                if video not in videos:
                    continue
                seen = sum(r["category"] == "person" for r in seen_at(mem, videos[video], t_s).to_pylist())
                kind = "right" if low <= seen <= high else "under" if seen < low else "over"
                tally[kind] += 1
                if kind != "right":
                    print(f"{kind:5} {video} at {t_s:g} s: {seen} counted, {low}-{high} by hand")
    total = sum(tally.values())
    if not total:
        print("no hand-counted video in these memories", file=sys.stderr)
        return 1
    print(f"{tally['right']}/{total} right ({100 * tally['right'] / total:.0f}%), "
          f"{tally['under']} under, {tally['over']} over")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
