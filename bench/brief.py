"""Evidence-brief recall on the generated question set: are the rows that answer a question in its
brief (as rendered within the token budget)? No LLM runs.

    .venv/bin/python -m bench.brief --memory qset.duckdb              # every question of bench/qset
    .venv/bin/python -m bench.brief --memory qset.duckdb --misses     # and each miss, with its brief

The memory holds the set's videos (bench/qset, ingested with at least asr, ocr and text_embeddings;
tracking for the count questions). A question's answering rows come from its recorded evidence
(`bench.qset.matching_rows`); rows the memory lacks (ASR or OCR missed them) make the question
unmeasurable, reported apart: that is the memory's miss, not the brief's. A `tracks_at` evidence
is in the brief when the brief counted that category at that time (within 0.5 s) with the library.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from agents.brief_text import CHARS_PER_TOKEN, brief_text, fitted_items, shown_row_keys
from bench.qset import load, matching_rows, video_ids
from memory import Memory, open_memory
from queries import Brief, evidence_brief
from queries.brief import DIGEST_ROWS
from queries.search import Encoder


@dataclass(frozen=True)
class Recall:
    id: str
    type: str
    status: str  # 'hit' | 'miss' | 'unmeasurable' (memory lacks the rows) | 'no evidence' | 'no video'
    wanted: int  # answering rows (or counts) the question names
    found: int  # of them in the brief
    seconds: float
    tokens: float  # estimated tokens of the rendering
    choice_right: bool | None = None  # multiple choice: is the best-supported choice the right one?
    #: Is the line marked best match an answering row (questions answered by text), or is no line
    #: marked (questions the video cannot answer)? None: neither kind.
    best_match_right: bool | None = None


def brief_recall(
    memory: Memory,
    questions: Sequence[dict[str, Any]],
    *,
    encoder: Encoder | None,
    max_tokens: int = 600,
    digest_rows: int = DIGEST_ROWS,
    misses: list[tuple[dict[str, Any], Brief]] | None = None,
) -> list[Recall]:
    """One `Recall` per question; misses (question and brief) are appended to `misses` when given."""
    ids = video_ids(memory)
    out = []
    for q in questions:
        vid = ids.get(Path(q["video"]).name)
        if vid is None:
            out.append(Recall(q["id"], q["type"], "no video", 0, 0, 0.0, 0.0))
            continue
        started = time.perf_counter()
        brief = evidence_brief(
            memory, q["question"], video_id=vid, choices=q.get("choices"), encoder=encoder, digest_rows=digest_rows
        )
        seconds = time.perf_counter() - started
        tokens = len(brief_text(brief, max_tokens)) / CHARS_PER_TOKEN
        wanted, found, lacking = _covered(memory, vid, q.get("evidence", []), brief, max_tokens)
        best_right = _best_match_right(memory, vid, q, brief)
        if not q.get("evidence"):
            status = "no evidence"
        elif lacking:
            status = "unmeasurable"
        else:
            status = "hit" if found == wanted else "miss"
        if status == "miss" and misses is not None:
            misses.append((q, brief))
        right = None
        if brief.choices and isinstance(q.get("answer"), int):
            best = max(brief.choices, key=lambda c: c.score)
            right = best.index == q["answer"] and sum(c.score == best.score for c in brief.choices) == 1
        out.append(
            Recall(q["id"], q["type"], status, wanted, found, round(seconds, 3), round(tokens), right, best_right)
        )
    return out


def _best_match_right(memory: Memory, vid: str, q: dict[str, Any], brief: Brief) -> bool | None:
    best = brief.best_match
    if q["type"] == "unanswerable":
        return best is None
    rows = [(ev["table"], int(r["id"])) for ev in q.get("evidence", []) if "table" in ev
            for r in matching_rows(memory, vid, ev)]
    if not rows:
        return None
    return best is not None and (best.source, best.item_id) in rows


def _covered(
    memory: Memory, vid: str, evidence: list[dict[str, Any]], brief: Brief, max_tokens: int
) -> tuple[int, int, bool]:
    """(rows wanted, rows in the brief, whether the memory lacks some wanted rows)."""
    keys = shown_row_keys(brief, max_tokens)
    fitted = fitted_items(brief, max_tokens)
    wanted = found = 0
    lacking = False
    for ev in evidence:
        if ev.get("query") == "tracks_at":
            if not memory.query("SELECT count(*) AS n FROM tracks WHERE video_id = ?", [vid]).to_pylist()[0]["n"]:
                lacking = True  # tracking did not run on this video: nothing to count
                continue
            wanted += 1
            counted = [
                i for i in fitted
                if i.kind == "count" and i.start_s is not None and i.start_s == i.end_s
                and abs(i.start_s - float(ev["t_s"])) <= 0.5
            ]
            found += bool(counted)
            continue
        rows = matching_rows(memory, vid, ev)
        if not rows:
            lacking = True
            continue
        wanted += 1  # one of the matching rows is enough for one evidence (a line split in two segments)
        found += any((vid, ev["table"], int(r["id"])) in keys for r in rows)
    return wanted, found, lacking


def summary(records: Sequence[Recall]) -> dict[str, Any]:
    measured = [r for r in records if r.status in ("hit", "miss")]
    by_type: dict[str, list[int]] = {}
    for r in measured:
        by_type.setdefault(r.type, [0, 0])
        by_type[r.type][0] += r.status == "hit"
        by_type[r.type][1] += 1
    hits = sum(r.status == "hit" for r in measured)
    return {
        "questions": len(records),
        "measured": len(measured),
        "recall": round(hits / len(measured), 4) if measured else None,
        "by_type": {t: f"{h}/{n}" for t, (h, n) in sorted(by_type.items())},
        "status": dict(Counter(r.status for r in records)),
        "choice_best_is_right": _share([r.choice_right for r in records if r.choice_right is not None]),
        "choice_best_is_right_by_type": {
            t: _share([r.choice_right for r in records if r.type == t and r.choice_right is not None])
            for t in sorted({r.type for r in records if r.choice_right is not None})
        },
        "best_match_right": _share([r.best_match_right for r in records if r.best_match_right is not None]),
        "best_match_right_by_type": {
            t: _share([r.best_match_right for r in records if r.type == t and r.best_match_right is not None])
            for t in sorted({r.type for r in records if r.best_match_right is not None})
        },
        "median_tokens": statistics.median([r.tokens for r in records if r.status != "no video"] or [0]),
        "max_tokens": max([r.tokens for r in records] or [0]),
        "median_seconds": statistics.median([r.seconds for r in records if r.status != "no video"] or [0]),
    }


def _share(flags: list[bool]) -> str:
    return f"{sum(flags)}/{len(flags)}" if flags else "-"


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.brief", description=__doc__.split("\n\n")[0])
    p.add_argument("--memory", type=Path, required=True, help="a memory holding the question set's videos")
    p.add_argument("--questions", type=Path, help="question JSONL with evidence (default bench/qset/questions.jsonl)")
    p.add_argument("--tokens", type=int, default=600, help="the brief's token budget (default 600)")
    p.add_argument(
        "--no-digest", action="store_true", help="never show a short video whole: search, windows and counts only"
    )
    p.add_argument("--no-encoder", action="store_true", help="keyword search only (no sentence embeddings)")
    p.add_argument("--misses", action="store_true", help="print each miss with its brief")
    p.add_argument("--json", type=Path, help="write every question's record and the summary here")
    args = p.parse_args(argv)
    questions = load(args.questions) if args.questions else load()
    encoder = None
    if not args.no_encoder:
        from ingest.models.encoders import TextEncoder

        encoder = TextEncoder()
    misses: list[tuple[dict[str, Any], Brief]] = []
    with open_memory(args.memory, read_only=True) as memory:
        records = brief_recall(
            memory, questions, encoder=encoder, max_tokens=args.tokens, misses=misses,
            digest_rows=0 if args.no_digest else DIGEST_ROWS,
        )
    if args.misses:
        for q, brief in misses:
            print(f"--- miss {q['id']}: {q['question']}\n    evidence: {json.dumps(q['evidence'])}")
            print(brief_text(brief, args.tokens))
    result = summary(records)
    print(json.dumps(result, indent=1))
    if args.json:
        args.json.write_text(json.dumps({"summary": result, "questions": [asdict(r) for r in records]}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
