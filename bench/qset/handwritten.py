"""python -m bench.qset.handwritten RAW OUT --set heldout9 --split test9: a hand-written question set,
as its writer wrote it (JSONL, from a facts sheet alone), made into the eval's JSONL.

The writer gives each open question a short reference and a few variants; the accept lists are widened
here the way the generated sets widen theirs, so that a hand-written set is scored as they are: a
"when" question's `time_window_s`, a second wider each side, becomes every way of saying a time in it
(`time_accept`), a people count's `count_range` every count in it, a count of texts or announcements its
number with each noun (`count_accept`), and an unanswerable question takes every way of saying "not mentioned"
(`NOT_SAID`). Nothing else of the writer's is changed; each record gets the split and
`phrasing: writer`.
"""

import argparse
import json
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from bench.qset.heldout import NOT_SAID, count_accept, time_accept
from bench.qset.spec import number_words

#: Seconds a "when" answer may lie outside the writer's window (from test11 on; earlier sets were converted without).
TIME_SLACK_S = 1.0
_TEXT_NOUNS = ("different", "distinct", "texts", "signs", "unique", "messages", "captions")
_SPEECH_NOUNS = ("announcements", "sentences", "different", "separate", "lines", "things", "messages")
_NOBODY = ("nobody", "no one", "no person", "0 people", "zero people", "no humans", "no people")


def _people_accept(lo: int, hi: int) -> list[str]:
    if hi == 0:
        return list(_NOBODY)
    out = [f"{k} {n}" for k in range(lo, hi + 1) for n in ("people", "persons", "pedestrians")]
    out += [f"{number_words(k)} {n}" for k in range(lo, hi + 1) for n in ("people", "persons")]
    if lo <= 1 <= hi:
        out += ["one person", "1 person", "a single person", "just one", "only one"]
    return out


def widened(record: Mapping[str, Any], split: str) -> dict[str, Any]:
    """One writer's record with its accept list widened (see the module's doc) and `split` set."""
    r = {**record, "accept": list(record.get("accept", []))}
    kind, more = r["type"], []
    if r["format"] == "open":
        if kind == "when" and "time_window_s" in r:
            # a second either side: the facts sheet times the voice and the picture, the memory the ASR
            # segment and the sampled OCR span ("149.9 s" was scored wrong for a line said at 150.0 s)
            lo, hi = map(float, r["time_window_s"])
            more = time_accept(lo - TIME_SLACK_S, hi + TIME_SLACK_S)
        elif kind == "people_at" and "count_range" in r:
            more = _people_accept(*map(int, r["count_range"]))
        elif kind in ("aggregate_texts", "aggregate_speech"):
            m = re.match(r"\s*(\d+)", str(r["answer"]))
            if m:
                more = count_accept(int(m.group(1)), _TEXT_NOUNS if kind == "aggregate_texts" else _SPEECH_NOUNS)
        elif kind == "unanswerable":
            r["answer"] = "not mentioned"
            more = list(NOT_SAID[1:])
    r["accept"] = list(dict.fromkeys([*r["accept"], *more]))
    r["split"], r["phrasing"] = split, "writer"
    return r


def convert(lines: Iterable[str], split: str) -> Iterator[dict[str, Any]]:
    for line in lines:
        if line.strip():
            yield widened(json.loads(line), split)


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("raw", type=Path, help="the writer's JSONL")
    ap.add_argument("out", type=Path, help="the eval's JSONL to write")
    ap.add_argument("--set", required=True, help="the set's name, e.g. heldout9 (its facts: bench/qset/<set>_facts.md)")
    ap.add_argument("--split", required=True, help="the split every question is asked in, e.g. test9")
    args = ap.parse_args(argv)
    records = list(convert(args.raw.read_text().splitlines(), args.split))
    head = (f"# vidmem {args.set} question set: {len(records)} questions written by a person who never saw the code, "
            f"from the facts\n# sheet bench/qset/{args.set}_facts.md alone (videos: python -m bench.qset {args.set}). "
            f"vidmem eval bench/qset/{args.set}.jsonl --video-root ~/.cache/vidmem/qset --split {args.split}\n")
    args.out.write_text(head + "".join(json.dumps(r) + "\n" for r in records))
    print(f"{len(records)} questions -> {args.out}")


if __name__ == "__main__":
    main()
