"""On-screen text spans read as the signs they belong to: the lines of one panel, shown and gone together.

The OCR stores a text span per line it reads, and a line it sometimes reads as two pieces: trial 11's corner
panel "FS41 MARROW ISLAND / 10:15 BERTH B12" is the spans FS41 MARROW ISLAND (27-55 s), 10:15 BERTH B12 (27-29
and 32-44 s), and 10:15 and BERTH B12 apart (30-31 and 45-55 s). Counted per span, the video's 24 texts were
37, the right-hand label TICKET DESKS / 3 TO 6 two labels, and the line that gives the berth held no word of
the ferry it belongs to. A sign is the spans that stand one under (or beside) another at one place of the
frame, the shorter on screen within the longer's time; its text is its rows from the top, each row as read
for the longest time, joined by " / ".

>>> span = lambda i, t, a, b, y, x=(30.0, 500.0): {"span_id": i, "text": t, "start_s": a, "end_s": b,
...                                              "x1": x[0], "x2": x[1], "y1": y, "y2": y + 40.0}
>>> rows = [span(3, "FS41 MARROW ISLAND", 27, 55, 29), span(4, "10:15 BERTH B12", 27, 44, 76),
...         span(5, "10:15", 45, 55, 76, (36, 219)), span(6, "BERTH B12", 45, 55, 76, (202, 460)),
...         span(7, "WELCOME", 60, 70, 29)]
>>> [(s.text, s.start_s, s.end_s, s.span_ids) for s in signs(rows)]
[('FS41 MARROW ISLAND / 10:15 BERTH B12', 27.0, 55.0, (3, 4, 5, 6)), ('WELCOME', 60.0, 70.0, (7,))]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["SIGN_LINES", "Sign", "folded", "sign_head", "signs", "steady_lines"]

#: What joins a sign's rows in its text.
SIGN_LINES = " / "
#: Seconds a span may start before or end after the longer one it belongs to (OCR samples about each second).
EDGE_S = 1.5
#: Seconds apart two spans' starts (and ends) are when read in the same samples.
_SAME_S = 0.5


@dataclass(frozen=True)
class Sign:
    text: str  # its rows from the top, joined by SIGN_LINES
    start_s: float
    end_s: float
    span_ids: tuple[int, ...]  # its spans, the first to come up first
    top_ids: tuple[int, ...] = ()  # the spans of its top row (its heading, by which the frame places it)


def sign_head(text: str) -> str:
    """A sign's first row: the span text its place on the frame is known by."""
    return text.split(SIGN_LINES, 1)[0]


def signs(spans: Sequence[Mapping[str, Any]]) -> list[Sign]:
    """The signs the spans (dicts with span_id, text, start_s, end_s, x1, x2, y1, y2) make, by first start."""
    rows = sorted(_steady(spans), key=lambda r: (float(r["start_s"]), float(r["start_s"]) - float(r["end_s"])))
    groups: list[list[Mapping[str, Any]]] = []
    for r in rows:  # by start, longest first: each span joins the first sign it fits beside
        home = next((g for g in groups if _belongs(r, g) and any(_touches(r, s) or _listed(r, s) for s in g)), None)
        if home is None:
            groups.append([r])
        else:
            home.append(r)
    out = [_sign(g) for group in groups for g in _without_early_rows(group)]
    return sorted(out, key=lambda s: (s.start_s, s.span_ids))


def _steady(spans: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """`spans` with the reads of one line that follow each other (the same letters and digits, `folded`, on one row
    and under one another, at most EDGE_S apart) as one span, which keeps every read's id (`_ids`) and the text of
    its longest: out19's side board heading BAY 1, on from 0 to 179 s, was read 'BAY 1' and 'BAY1' by turns, eight
    spans; its first was gone at 9 s and read as a line of its own, and the last, up from 100 s, as a new text.

    >>> span = lambda i, t, a, b: {"span_id": i, "text": t, "start_s": a, "end_s": b, "x1": 500, "x2": 580,
    ...                            "y1": 112, "y2": 140}
    >>> [(s["text"], s["start_s"], s["end_s"], _ids(s)) for s in _steady(
    ...     [span(2, "BAY 1", 0, 9), span(5, "BAY 1", 10, 25), span(6, "BAY1", 26, 78), span(9, "BAY 2", 79, 81)])]
    [('BAY1', 0, 78.0, (2, 5, 6)), ('BAY 2', 79, 81, (9,))]
    """
    out: list[dict[str, Any]] = []
    longest: dict[int, float] = {}  # id(merged span) -> the length of the read whose text it keeps
    for r in sorted(spans, key=lambda r: (float(r["start_s"]), int(r["span_id"]))):
        key = folded(r["text"])
        before = next((m for m in reversed(out) if folded(m["text"]) == key and _same_row(m, r)
                       and min(float(m["x2"]), float(r["x2"])) > max(float(m["x1"]), float(r["x1"]))
                       and float(r["start_s"]) - float(m["end_s"]) <= EDGE_S), None) if key else None
        if before is None:
            out.append({**r, "_ids": (int(r["span_id"]),)})
            longest[id(out[-1])] = float(r["end_s"]) - float(r["start_s"])
            continue
        length = float(r["end_s"]) - float(r["start_s"])
        if length > longest[id(before)]:
            before["text"], longest[id(before)] = r["text"], length
        before["end_s"] = max(float(before["end_s"]), float(r["end_s"]))
        before["_ids"] = (*before["_ids"], int(r["span_id"]))
    return out


def steady_lines(spans: Sequence[Mapping[str, Any]]) -> dict[int, tuple[int, float, float]]:
    """span_id -> (the first span_id, start_s, end_s) of the line it is one read of (`_steady`): the reads of a line
    that stays on, each a span, are one text on screen for that whole time."""
    return {i: (_ids(s)[0], float(s["start_s"]), float(s["end_s"])) for s in _steady(spans) for i in _ids(s)}


def _ids(span: Mapping[str, Any]) -> tuple[int, ...]:
    """The span ids a (`_steady`) span stands for."""
    return tuple(span.get("_ids", (int(span["span_id"]),)))


def _without_early_rows(group: list[Mapping[str, Any]]) -> list[list[Mapping[str, Any]]]:
    """The group, and apart from it each of its rows gone from the screen more than EDGE_S before its first span (read
    in pieces or whole): a line that changes under a heading that stays is a text of its own. out17's menu board
    CAKE OF THE DAY (5-177 s) came up with GINGER & PEAR (5-69 s), and the sign 'CAKE OF THE DAY / GINGER & PEAR'
    was on at 100 s, when the board read LEMON DRIZZLE."""
    first = group[0]
    rows = _rows(s for s in group[1:] if not _same_row(s, first))
    early = [r for r in rows if max(float(s["end_s"]) for s in r) < float(first["end_s"]) - EDGE_S]
    gone = {id(s) for r in early for s in r}
    return [[s for s in group if id(s) not in gone], *early]


def _belongs(span: Mapping[str, Any], group: Sequence[Mapping[str, Any]]) -> bool:
    """Whether `span` is on screen within the time of the group's first span (give or take EDGE_S), and
    came up with it, or is a piece of a row the group already reads ('10:15' of '10:15 BERTH B12'). A line
    that comes up later under a banner on all along (trial 10's yellow line) is a text of its own."""
    longest = group[0]
    if float(span["start_s"]) < float(longest["start_s"]) - EDGE_S or \
            float(span["end_s"]) > float(longest["end_s"]) + EDGE_S:
        return False
    if abs(float(span["start_s"]) - float(longest["start_s"])) <= EDGE_S:
        return True
    piece = folded(span["text"])
    return bool(piece) and any(_same_row(span, s) and piece in folded(s["text"]) for s in group)


def folded(text: object) -> str:
    """`text`'s letters and digits, in lower case: how two reads of one line are compared ('10:15' in '10:15 BERTH')."""
    return "".join(ch for ch in str(text).lower() if ch.isalnum())


def _touches(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """Whether two spans stand next to each other: one under the other (columns overlapping, the gap between
    them under half a row's height, set flush left, centred or flush right alike: `_aligned`) or on one row
    (rows overlapping, the gap under a row's height)."""
    height = max(float(a["y2"]) - float(a["y1"]), float(b["y2"]) - float(b["y1"]), 1.0)
    x_gap = max(float(a["x1"]), float(b["x1"])) - min(float(a["x2"]), float(b["x2"]))
    y_gap = max(float(a["y1"]), float(b["y1"])) - min(float(a["y2"]), float(b["y2"]))
    return (x_gap < 0 and y_gap < 0.5 * height and _aligned(a, b, height)) or (y_gap < 0 and x_gap < height)


def _aligned(a: Mapping[str, Any], b: Mapping[str, Any], height: float) -> bool:
    """Whether two lines share a left edge, a centre or a right edge (within a row's height): the rows of one
    panel are set alike. out17's camera label in the top-left corner (6-349 px) and the centred banner just under
    it (116-523 px), both up from the start, read as one sign, and the banner's own texts were one short."""
    a1, a2, b1, b2 = float(a["x1"]), float(a["x2"]), float(b["x1"]), float(b["x2"])
    return abs(a1 - b1) < height or abs(a2 - b2) < height or abs((a1 + a2) - (b1 + b2)) / 2 < height


def _listed(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """Whether two spans are lines of one list, each in a box of its own: shown and gone together (in the same
    samples, `_SAME_S`; a line that comes up a second after a heading and goes a second before it is a second
    line of its own, test13's), one under the other with their left edges within a row's height, the gap
    between them under one and a half rows. Trial 12's list on the left edge (three boxed lines, 13 and 19 px
    apart, rows 31-44 px high) read as two signs, one of two lines and one of one."""
    height = max(float(a["y2"]) - float(a["y1"]), float(b["y2"]) - float(b["y1"]), 1.0)
    y_gap = max(float(a["y1"]), float(b["y1"])) - min(float(a["y2"]), float(b["y2"]))
    return (abs(float(a["start_s"]) - float(b["start_s"])) < _SAME_S
            and abs(float(a["end_s"]) - float(b["end_s"])) < _SAME_S
            and abs(float(a["x1"]) - float(b["x1"])) < height and 0 <= y_gap < 1.5 * height)


def _sign(group: Sequence[Mapping[str, Any]]) -> Sign:
    """The sign of one group: its rows top down (spans whose heights overlap), each read as the reading
    on screen longest (pieces read at one time joined left to right)."""
    rows = _rows(sorted(group, key=lambda r: float(r["y1"])))
    texts = []
    for row in rows:
        readings: dict[tuple[float, float], list[Mapping[str, Any]]] = {}
        for s in row:
            readings.setdefault((float(s["start_s"]), float(s["end_s"])), []).append(s)
        seen: dict[str, float] = {}
        for (a, b), pieces in readings.items():
            text = " ".join(str(p["text"]).strip() for p in sorted(pieces, key=lambda p: float(p["x1"])))
            seen[text] = seen.get(text, 0.0) + (b - a)
        texts.append(max(seen, key=lambda t: (seen[t], len(t))))
    return Sign(SIGN_LINES.join(texts), min(float(s["start_s"]) for s in group),
                max(float(s["end_s"]) for s in group), tuple(i for s in group for i in _ids(s)),
                tuple(i for s in rows[0] for i in _ids(s)))


def _rows(spans: Iterable[Mapping[str, Any]]) -> list[list[Mapping[str, Any]]]:
    """`spans` in rows, in the order given: each joins the first row whose first span's height it overlaps."""
    rows: list[list[Mapping[str, Any]]] = []
    for s in spans:
        row = next((r for r in rows if _same_row(s, r[0])), None)
        if row is None:
            rows.append([s])
        else:
            row.append(s)
    return rows


def _same_row(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    return min(float(a["y2"]), float(b["y2"])) - max(float(a["y1"]), float(b["y1"])) > 0
