"""How often the brief's absence rule fires, on questions the video can answer (each a possible
false "not shown") and on those it cannot (its recall). No LLM runs.

    .venv/bin/python -m bench.absence --memory dev.duckdb --split dev            # held-out set, dev split
    .venv/bin/python -m bench.absence --memory dev.duckdb --split dev --show     # and every false firing

The rules (`queries.absent`, kept in the brief as `Brief.absent`) are the only ones that turn an answer
into "the memory does not show it": a missing word or quote (its note tells the model, and the agents'
absence check asks the model once more when the answer does not deny), and a value the question asks
that nothing about its subject gives (`Absent.unstated`: the code's answer, no call). A firing on an
answerable question can only make the answer wrong, so its rate there is the figure to hold at 0
(issue 23: measure on dev, report on test). The memory must hold the split's videos (as `vidmem eval
--split` ingests them), with text embeddings: the brief clears the word note when a text is close in
meaning.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench.qset import video_ids
from bench.qset.heldout import HELDOUT_PATH
from bench.qset.heldout import load as load_questions
from memory import Memory, open_memory
from queries import evidence_brief
from queries.search import Encoder

#: Types whose truth is that the video does not hold it.
UNANSWERABLE = {"unanswerable"}


def _questions(path: Path, split: str | None) -> list[dict[str, Any]]:
    rows = load_questions(path)
    return [q for q in rows if (split is None or q.get("split") == split) and q.get("scope", "video") == "video"]


def firings(memory: Memory, questions: Sequence[dict[str, Any]], encoder: Encoder | None) -> list[dict[str, Any]]:
    """Per question: its type, whether the video can answer it, and what the rule found missing."""
    ids = video_ids(memory)
    out = []
    for q in questions:
        vid = ids.get(Path(q["video"]).name)
        if vid is None:
            continue
        brief = evidence_brief(memory, q["question"], video_id=vid, choices=q.get("choices"), encoder=encoder)
        out.append({"id": q["id"], "type": q["type"], "question": q["question"],
                    "answerable": q["type"] not in UNANSWERABLE,
                    "missing": [*brief.absent.quoted, *brief.absent.words],
                    "unstated": brief.absent.unstated, "label": brief.absent.label})
    return out


def summary(records: Sequence[dict[str, Any]]) -> dict[str, Any]:
    answerable = [r for r in records if r["answerable"]]
    unanswerable = [r for r in records if not r["answerable"]]
    fired = [r for r in records if r["missing"] or r.get("unstated") or r.get("label")]
    false = [r for r in fired if r["answerable"]]
    by_type = Counter(r["type"] for r in false)
    return {
        # each rule alone: the words/quotes note, and a value nothing about the subject gives
        "false_words": sum(bool(r["missing"]) for r in answerable),
        "false_unstated": sum(bool(r.get("unstated")) for r in answerable),
        "recall_unstated": sum(bool(r.get("unstated")) for r in unanswerable),
        # a label no line gives the thing ('Wave C' where the video names WAVE B)
        "false_label": sum(bool(r.get("label")) for r in answerable),
        "recall_label": sum(bool(r.get("label")) for r in unanswerable),
        "questions": len(records),
        "answerable": len(answerable),
        "false_firings": len(false),
        "false_rate": round(len(false) / len(answerable), 4) if answerable else None,
        "false_by_type": dict(sorted(by_type.items())),
        "unanswerable": len(unanswerable),
        "recall": round(sum(not r["answerable"] for r in fired) / len(unanswerable), 4)
        if unanswerable else None,
    }


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.absence", description=__doc__.split("\n\n")[0])
    p.add_argument("--memory", type=Path, required=True, help="a memory holding the set's videos")
    p.add_argument("--questions", type=Path, default=HELDOUT_PATH, help="question JSONL (default: the held-out set)")
    p.add_argument("--split", help="only this split (dev, test)")
    p.add_argument("--show", action="store_true", help="print every false firing and every missed unanswerable")
    args = p.parse_args(argv)
    from ingest.models.encoders import TextEncoder

    with open_memory(args.memory, read_only=True) as memory:
        records = firings(memory, _questions(args.questions, args.split), TextEncoder())
    if args.show:
        for r in records:
            fired = r["missing"] or r["unstated"] or r["label"]
            if r["answerable"] and fired:
                why = r["missing"] or (f"a {r['unstated']}" if r["unstated"] else f"the label {r['label']}")
                print(f"false  {r['id']}: {r['question']}  -> missing {why}")
            elif not r["answerable"] and not fired:
                print(f"missed {r['id']}: {r['question']}")
    print(json.dumps(summary(records), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
