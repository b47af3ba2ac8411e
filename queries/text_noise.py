"""Which on-screen text rows are likely OCR noise, and why: kept in the memory, ranked down and
marked wherever text is read back (the evidence brief, search, the pages).

Real footage gives the OCR stray reads: a lone glyph off a texture, a run of letters of a script that
nothing else in the video is written or spoken in, a text seen in one frame only. Counted as texts,
they turned "how many different texts does the sign show" (4) into 7, and a lone glyph was read
back as the second line of a sign. Deleting them would lose the rare real one (a one-frame title),
so they stay in `ocr_spans` and each reader decides; the reasons are plain so that a page can say
why a row is greyed.

>>> latin = frozenset({"Latin"})
>>> noise_reason("M", 0.0, 4.0, latin)
'a lone glyph'
>>> noise_reason("ΠΛΑΤΦΟΡΜΑ", 0.0, 4.0, latin)
'Greek, which no other text of the video uses'
>>> noise_reason("GATE 5", 10.0, 10.0, latin, num_frames=1)
'seen in one frame only'
>>> noise_reason("GATE 5", 10.0, 14.0, latin) is None
True
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Iterable
from typing import Any

from memory import Memory
from queries.run import run_sql
from queries.signs import folded

__all__ = ["noise_reason", "noisy_spans", "partial_of", "script_of", "video_scripts"]

#: Fewer letters and digits than this is a lone glyph ("M", "。"), unless one is a digit: a number
#: alone ("7", "#1") is a gate or a platform often enough to keep.
MIN_CHARS = 2
#: A text whose letters are at least this share of one script belongs to that script.
SCRIPT_SHARE = 0.6
#: A video uses a script that holds at least this share of the letters of its speech and text.
VIDEO_SHARE = 0.15


def _script(ch: str) -> str | None:
    """The script of a letter ('Latin', 'Greek', 'Cyrillic', 'CJK', ...) from its Unicode name."""
    if not ch.isalpha():
        return None
    name = unicodedata.name(ch, "")
    if not name:
        return None
    first = name.split()[0]
    if first in ("CJK", "HIRAGANA", "KATAKANA"):
        return "CJK"
    return first.capitalize()


def script_of(text: str) -> str | None:
    """The script most of `text`'s letters are in (None: no letters, or no script holds 60% of them).

    >>> script_of("PLATFORM 9"), script_of("站台"), script_of("42")
    ('Latin', 'CJK', None)
    """
    scripts = Counter(s for s in map(_script, text) if s is not None)
    if not scripts:
        return None
    top, n = scripts.most_common(1)[0]
    return top if n >= SCRIPT_SHARE * sum(scripts.values()) else None


def video_scripts(texts: Iterable[str]) -> frozenset[str]:
    """The scripts a video's texts (its speech and on-screen text) are written in: each that holds
    at least 15% of their letters (a bilingual video keeps both).

    >>> sorted(video_scripts(["The red train", "PLATFORM 9", "я"]))
    ['Latin']
    """
    scripts = Counter(s for text in texts for s in map(_script, text) if s is not None)
    total = sum(scripts.values())
    return frozenset(s for s, n in scripts.items() if n >= VIDEO_SHARE * total)


def noise_reason(
    text: str, start_s: float, end_s: float, scripts: frozenset[str], *, num_frames: int | None = None
) -> str | None:
    """Why an on-screen text row is likely noise, or None when it reads like real text.

    `scripts`: the video's (`video_scripts`; empty: not judged). One frame: `num_frames` == 1 where the row counts its
    frames, else a span of no length (a text seen in two frames spans the sampling interval)."""
    chars = sum(ch.isalnum() for ch in text)
    if chars < MIN_CHARS and not any(ch.isdigit() for ch in text):
        return "a lone glyph"
    script = script_of(text)
    if script is not None and scripts and script not in scripts:
        return f"{script}, which no other text of the video uses"
    if num_frames == 1 or (num_frames is None and end_s - start_s <= 0.0):
        return "seen in one frame only"
    return None


_SPANS_SQL = "SELECT span_id, start_s, end_s, text, num_frames, y1, y2 FROM ocr_spans WHERE video_id = ?"
#: A text read for at most this many seconds, as part of another at its place (`partial_of`), is that text
#: half read as it came up or went.
PARTIAL_S = 5.0
#: ... when it is within this many seconds of the whole text.
PARTIAL_GAP_S = 2.0
_SPEECH_SQL = "SELECT text FROM transcript WHERE video_id = ?"


def noisy_spans(memory: Memory, video_id: str) -> dict[int, str]:
    """span_id -> why, for the on-screen text rows of `video_id` that are likely noise."""
    spans = run_sql(memory, _SPANS_SQL, [video_id]).to_pylist()
    if not spans:
        return {}
    speech = [r["text"] for r in run_sql(memory, _SPEECH_SQL, [video_id]).to_pylist()]
    scripts = video_scripts([*speech, *(r["text"] for r in spans)])
    out = {}
    for r in spans:
        why = noise_reason(r["text"], r["start_s"], r["end_s"], scripts, num_frames=r["num_frames"])
        if why is None and (whole := partial_of(r, spans)) is not None:
            why = f"part of '{whole}', read as it came up or went"
        if why is not None:
            out[int(r["span_id"])] = why
    return out


def partial_of(span: dict[str, Any], spans: Iterable[dict[str, Any]]) -> str | None:
    """The text of which `span` is a part, read at its place while it came up or went (trial 10's TAXIS AND
    BUSES: and EXIT, each for a few seconds around TAXIS AND BUSES: EXIT B, counted as two more captions), or None.
    A part: its letters and digits are a shorter run of the other's, it is read for `PARTIAL_S` seconds at most,
    within `PARTIAL_GAP_S` of the other, on rows of the frame the other covers too.

    >>> whole = {"span_id": 1, "text": "TAXIS AND BUSES: EXIT B", "start_s": 246.0, "end_s": 259.0,
    ...          "y1": 600, "y2": 640}
    >>> part = {"span_id": 2, "text": "EXIT", "start_s": 242.0, "end_s": 245.0, "y1": 602, "y2": 638}
    >>> partial_of(part, [whole, part]), partial_of({**part, "end_s": 240.0, "start_s": 230.0}, [whole])
    ('TAXIS AND BUSES: EXIT B', None)
    """
    mine = folded(span["text"])
    if len(mine) < MIN_CHARS or span["end_s"] - span["start_s"] > PARTIAL_S:
        return None
    for other in spans:
        theirs = folded(other["text"])
        if other["span_id"] == span["span_id"] or len(theirs) <= len(mine) or mine not in theirs:
            continue
        near = other["start_s"] - span["end_s"] <= PARTIAL_GAP_S and span["start_s"] - other["end_s"] <= PARTIAL_GAP_S
        if near and min(span["y2"], other["y2"]) > max(span["y1"], other["y1"]):
            return str(other["text"])
    return None

