"""Which stored rows a question's evidence names: the ground truth a brief's recall is measured against.

The rules (one per evidence shape, see questions.py):
- transcript: a segment of the video whose [start_s, end_s] overlaps the evidence window and whose
  text contains `text_contains` (case-insensitive).
- ocr_spans: a span of the video overlapping the window whose text contains `text_contains`, both
  compared without case, spaces or punctuation (OCR reads 'GATE 5' as 'GATE5' as often as not).
- query tracks_at: the rows of the query library's tracks_at(video, t_s) of that category (may be
  none: the count is zero, or the tracker missed them).
Without a window (the `absent` list of a question the video cannot answer) any time matches.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import queries
from memory import Memory

TEXT_TABLES = {"transcript": "segment_id", "ocr_spans": "span_id"}


def squash(text: str) -> str:
    """Lower case letters and digits only: 'Gate-5 ' -> 'gate5'."""
    return re.sub(r"[^a-z0-9]", "", text.lower())


def video_ids(memory: Memory) -> dict[str, str]:
    """File name -> video_id of every video stored whole."""
    return {Path(v.path).name: v.video_id for v in queries.video_files(memory)}


def matching_rows(memory: Memory, video_id: str, evidence: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The rows of `video_id` that `evidence` names (empty when the memory lacks them)."""
    if "query" in evidence:
        if evidence["query"] != "tracks_at":
            raise ValueError(f"unknown evidence query {evidence['query']!r}")
        import queries  # the library's macro, so this counts what an analyst's query would

        queries.install(memory)
        rows = queries.tracks_at(memory, video_id, float(evidence["t_s"])).to_pylist()
        return [r for r in rows if r["category"] == evidence["category"]]
    table = evidence["table"]
    if table not in TEXT_TABLES:
        raise ValueError(f"unknown evidence table {table!r}")
    window = "AND start_s < ? AND end_s > ?" if "start_s" in evidence else ""
    params: list[Any] = [video_id] + ([evidence["end_s"], evidence["start_s"]] if window else [])
    rows = memory.query(
        f"SELECT {TEXT_TABLES[table]} AS id, start_s, end_s, text FROM {table} WHERE video_id = ? {window} "
        f"ORDER BY start_s",
        params,
    ).to_pylist()
    want = evidence["text_contains"]
    if table == "transcript":
        return [r for r in rows if want.lower() in r["text"].lower()]
    return [r for r in rows if squash(want) in squash(r["text"])]
