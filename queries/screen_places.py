"""Where on the frame on-screen text is, and which place and line a question asks for.

A text span's place ('top', 'middle', 'bottom') comes from its box; when other text is shown at the
same place at the same time, it also gets its line there, counted from the top ("the second line
under the top sign"). Questions name places as people say them ("the caption at the bottom", "the
lower banner", "the line below the top sign"). The evidence brief (`queries.brief`) places its
on-screen text lines with these and ranks the hits at the asked place first; plain functions and
one query, no other part of the brief.
"""

import re
from typing import Any

from memory import Memory
from queries.question_form import sentences
from queries.run import run_sql

__all__ = ["ORDINALS", "asked_line", "asked_place", "line_fits", "screen_place", "span_places", "video_span_places"]

_PLACES_SQL = (
    "SELECT s.span_id, s.start_s, s.end_s, (s.y1 + s.y2) / 2 / v.height AS y "
    "FROM ocr_spans AS s JOIN videos AS v USING (video_id) WHERE s.video_id = ? AND v.height > 0"
)
ORDINALS = {1: "first line", 2: "second line", 3: "third line", 4: "fourth line"}
#: How far apart (a fraction of the frame's height) two text centres are to be two lines, not one.
_LINE_GAP = 0.02


def screen_place(y: float) -> str:
    """Where on the frame a text line's centre is, as questions say it ("at the bottom of the screen").

    >>> [screen_place(y) for y in (0.05, 0.5, 0.9)]
    ['top', 'middle', 'bottom']
    """
    return "top" if y < 1 / 3 else "bottom" if y > 2 / 3 else "middle"


#: "the text at the bottom of the screen", "written on the top": where on the frame a question looks.
_ASKED_PLACE = re.compile(r"\b(?:at|on|in|near|along|across) the (top|bottom|middle|cent(?:re|er))\b", re.I)


#: The nouns of on-screen text ("the sign", "the heading"): questions name text by them.
TEXT_NOUNS = r"signs?|texts?|captions?|titles?|banners?|labels?|notices?|overlays?|headlines?|headings?|writing"
#: "the line below the top sign", "a second line of text under the top sign", "the line under the top
#: heading", "under a heading": the top's second line.
_BELOW_TOP = re.compile(rf"\b(?:below|under|underneath|beneath)\s+(?:the\s+|a\s+)?(?:(?:top|upper|first)\s+"
                        rf"(?:{TEXT_NOUNS}|lines?|boards?)|headings?|headlines?)\b", re.I)
#: "the lower caption", "the top banner", "the top one" (of two texts just named): the place said as an adjective of
#: the text.
_PLACE_ADJECTIVE = re.compile(rf"\b(top|upper|bottom|lower|middle|cent(?:re|er))\s+(?:[\w-]+\s+)?(?:{TEXT_NOUNS}|ones?|"
                              r"lines?|boards?|subtitles?)\b", re.I)
_NTH_LINE = re.compile(r"\b(second|2nd|third|3rd)[\s-]+lines?\b", re.I)
#: "the lower of the two top lines": the second line, "the upper of the two lines": the first.
_OF_TWO_LINES = re.compile(r"\b(lower|bottom|upper|top)\s+of\s+the\s+(?:two\s+)?(?:[\w-]+\s+)?lines\b", re.I)
#: "the heading", "which headline": the text at the head of the frame, its first line there.
_HEADING = re.compile(r"\b(?:heading|headline)s?\b", re.I)
_PLACE_NAMES = {"upper": "top", "lower": "bottom", "centre": "middle", "center": "middle"}


def asked_place(question: str) -> str | None:
    """Where on the frame `question` looks ('top', 'bottom', 'middle'), or None.

    >>> asked_place("What does the caption at the bottom of the frame say?"), asked_place("the lower caption")
    ('bottom', 'bottom')
    >>> asked_place("What does the line below the top sign read?"), asked_place("What does the sign say?")
    ('top', None)
    >>> asked_place("Which heading was up while the bus was announced?")
    'top'
    """
    # "There's a caption at the bottom and a text up top. What does the one at the top read?": the top
    asking = _asking_sentence(question)
    return (_named_place(asking) if asking else None) or _named_place(question)


def _named_place(text: str) -> str | None:
    """The place on the frame `text` names (`asked_place`), or None."""
    if _BELOW_TOP.search(text):
        return "top"
    asked = _ASKED_PLACE.search(text) or _PLACE_ADJECTIVE.search(text)
    if asked is None:
        return "top" if _HEADING.search(text) else None
    return _PLACE_NAMES.get(asked.group(1).lower(), asked.group(1).lower())


#: A question word, or the mark that ends a question: what makes a sentence the one that asks.
_ASKS = re.compile(r"\?|\b(?:what|which|who|whats|what's|how|when|where|why|tell|read)\b", re.I)


def _asking_sentence(question: str) -> str | None:
    """Of a question of several sentences, the last that asks (`_ASKS`), or None: a place named in a
    sentence that sets the scene is not the asked one (test25's "At 0:36 there's a caption at the bottom
    and another text up top. What does the one at the top read?" was answered with the bottom)."""
    parts = sentences(question)
    asking = [s for s in parts if _ASKS.search(s)]
    return asking[-1] if len(parts) > 1 and asking else None


def asked_line(question: str) -> int | None:
    """Which line at its place `question` asks for, counted from the top (2: "the line below the
    top sign", "a second line of text"), or None.

    >>> asked_line("Late in the video a second line of text appears under the top sign. What does it say?")
    2
    >>> asked_line("What heading replaces CAKE SALE?"), asked_line("the newest second line under a heading")
    (1, 2)
    >>> asked_line("around 90s - what does the line under the top heading say?")
    2
    """
    nth = _NTH_LINE.search(question)
    if nth:
        return 2 if nth.group(1).lower() in ("second", "2nd") else 3
    of_two = _OF_TWO_LINES.search(question)
    if of_two:
        return 2 if of_two.group(1).lower() in ("lower", "bottom") else 1
    if _BELOW_TOP.search(question):
        return 2
    return 1 if _HEADING.search(question) and asked_place(question) == "top" else None


def line_fits(wanted: int | None, line: int | None) -> bool:
    """Whether a text at line `line` of its place (None: alone there) is the asked line `wanted`
    (None: any); a text alone at its place is its first line."""
    return wanted is None or (line or 1) == wanted


def span_places(rows: list[dict[str, Any]]) -> dict[int, tuple[str, int | None]]:
    """span_id -> (place on the frame, which line there from the top when other text is shown at the
    same place at the same time, else None). The second line under a top sign is also 'top': told
    apart only by its line, the small model read the top line for "the line below the top sign"."""
    placed = [(r, screen_place(r["y"])) for r in rows if r["y"] is not None]
    out: dict[int, tuple[str, int | None]] = {}
    for r, place in placed:
        beside = [o for o, p in placed if p == place and o["span_id"] != r["span_id"]
                  and o["start_s"] < r["end_s"] and o["end_s"] > r["start_s"] and abs(o["y"] - r["y"]) > _LINE_GAP]
        above = sorted(o["y"] for o in beside if o["y"] < r["y"])  # one line read twice is one line
        levels = sum(1 for i, y in enumerate(above) if i == 0 or y - above[i - 1] > _LINE_GAP)
        out[r["span_id"]] = (place, 1 + levels if beside else None)
    return out


def video_span_places(memory: Memory, video_id: str) -> dict[int, tuple[str, int | None]]:
    """`span_places` of every on-screen text span of one video (spans of a video with no frame height: none)."""
    return span_places(run_sql(memory, _PLACES_SQL, [video_id]).to_pylist())
