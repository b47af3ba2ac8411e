"""Where on the frame on-screen text is, and which place and line a question asks for.

A text span's place comes from its box: 'top', 'middle' or 'bottom', and a side when the text stands
wholly in the left or right half of the frame ('top left', 'right', 'bottom right'; a banner across the
middle has none). When other text is shown at the same place at the same time, it also gets its line
there, counted from the top ("the second line under the top sign"). Questions name places as people say
them ("the caption at the bottom", "the lower banner", "the line below the top sign", "the labels on the
right", "the box in the bottom-right corner"); an asked place fits every place inside it (`place_fits`:
'top' fits 'top left', 'corner' fits the four corners). The evidence brief (`queries.brief`) places its
on-screen text lines with these and ranks the hits at the asked place first; plain functions and
one query, no other part of the brief.
"""

import re
from typing import Any

from memory import Memory
from queries.question_form import sentences
from queries.question_words import FRAME_WORDS, STOPWORDS
from queries.run import run_sql

__all__ = ["ORDINALS", "asked_line", "asked_place", "line_fits", "place_fits", "screen_place", "screen_side",
           "span_places", "video_span_places"]

_PLACES_SQL = (
    "SELECT s.span_id, s.start_s, s.end_s, (s.y1 + s.y2) / 2 / v.height AS y, "
    "CASE WHEN v.width > 0 THEN s.x1 / v.width END AS x1, CASE WHEN v.width > 0 THEN s.x2 / v.width END AS x2 "
    "FROM ocr_spans AS s JOIN videos AS v USING (video_id) WHERE s.video_id = ? AND v.height > 0"
)
ORDINALS = {1: "first line", 2: "second line", 3: "third line", 4: "fourth line"}
#: How far apart (a fraction of the frame's height) two text centres are to be two lines, not one.
_LINE_GAP = 0.02


def screen_place(y: float, side: str | None = None) -> str:
    """Where on the frame a text line's centre is, as questions say it ("at the bottom of the screen"),
    with its side (`screen_side`) when it has one ("the box in the top-left corner", "the labels on the right").

    >>> [screen_place(y) for y in (0.05, 0.5, 0.9)], screen_place(0.1, "left"), screen_place(0.5, "right")
    (['top', 'middle', 'bottom'], 'top left', 'right')
    """
    level = "top" if y < 1 / 3 else "bottom" if y > 2 / 3 else "middle"
    return level if side is None else side if level == "middle" else f"{level} {side}"


def screen_side(x1: float | None, x2: float | None) -> str | None:
    """'left' or 'right' for a text wholly in that half of the frame (x1, x2 as fractions of its width), or
    whose centre is in that third (a board set at the left edge, reaching a little past the middle: out15's
    SUMMIT WIND 57 km/h at 0.01-0.55 was "in the middle", and "the sign on the left at 1:00" was answered with
    a caption); else None: a banner or caption across the middle is at no side, however wide or short.

    >>> screen_side(0.02, 0.4), screen_side(0.7, 0.98), screen_side(0.3, 0.7), screen_side(None, None)
    ('left', 'right', None, None)
    >>> screen_side(0.01, 0.55), screen_side(0.1, 0.9), screen_side(0.45, 0.99)
    ('left', None, 'right')
    """
    if x1 is None or x2 is None:
        return None
    centre = (x1 + x2) / 2
    return "left" if x2 <= 0.5 or centre <= 1 / 3 else "right" if x1 >= 0.5 or centre >= 2 / 3 else None


_LEVELS = ("top", "middle", "bottom")


def place_fits(want: str | None, place: str | None) -> bool:
    """Whether a text at `place` (`screen_place`) is at the asked place `want` (`asked_place`; None: anywhere).
    An asked place fits every place inside it: 'top' the top's left and right, 'right' the right side from
    top to bottom, 'corner' the four corners, 'top corner' the top two. A place with no level is the middle's.

    >>> [place_fits("top", p) for p in ("top", "top left", "left", "bottom right")]
    [True, True, False, False]
    >>> [place_fits("right", p) for p in ("right", "top right", "top", "bottom left")]
    [True, True, False, False]
    >>> [place_fits("corner", p) for p in ("top left", "bottom right", "right", "top")], place_fits(None, "top")
    ([True, True, False, False], True)
    >>> place_fits("middle", "left"), place_fits("top left", "top"), place_fits("top corner", "top right")
    (True, False, True)
    >>> [place_fits("side", p) for p in ("right", "left", "top left", "top", "bottom")]
    [True, True, False, False, False]
    """
    if want is None:
        return True
    if place is None:
        return False
    have = set(place.split())
    if not have & set(_LEVELS):
        have.add("middle")
    asked = set(want.split())
    if "side" in asked:  # either side, left or right, between top and bottom: a corner's text is no side board
        asked.discard("side")
        if not have & {"left", "right"} or have & {"top", "bottom"}:
            return False
    if "corner" in asked:
        asked.discard("corner")
        if not (have & {"top", "bottom"} and have & {"left", "right"}):
            return False
    return asked <= have


#: "the text at the bottom of the screen", "written on the top": where on the frame a question looks.
_ASKED_PLACE = re.compile(r"\b(?:at|on|in|near|along|across) the (top|bottom|middle|cent(?:re|er))\b", re.I)


#: The nouns of on-screen text ("the sign", "the heading"): questions name text by them.
TEXT_NOUNS = (r"signs?|texts?|captions?|titles?|banners?|labels?|notices?|overlays?|headlines?|headings?|writing|"
              r"tickers?|panels?")
#: "the line below the top sign", "a second line of text under the top sign", "the line under the top
#: heading", "under a heading": the top's second line.
_BELOW_TOP = re.compile(rf"\b(?:below|under|underneath|beneath)\s+(?:the\s+|a\s+)?(?:(?:top|upper|first)"
                        rf"(?:[\s-]+(?:left|right))?\s+(?:{TEXT_NOUNS}|lines?|boards?)|headings?|headlines?)\b", re.I)
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
#: "the bottom-right corner", "the upper left box", "top right": a corner, named by its level and side.
_CORNER = re.compile(r"\b(top|bottom|upper|lower)[\s-]*(left|right)\b", re.I)
#: 'right' as 'just' ("the heading that comes up at the top right after FARM SHOP goes", heldout10), not a side.
_JUST = re.compile(r"right\s+(?:after|before|away|now|then|when|as|until|once)\b", re.I)
#: Where a text's side is named: "the labels on the right", "the list down the left side", "the right-hand
#: column", "the left edge" (an adjective of a text noun, or after a preposition: then `_frame_follows`).
_SIDE = re.compile(rf"\b(?P<after>on|at|to|along|down|up)\s+the\s+(left|right)(?:[\s-]+hand)?\b"
                   rf"|\b(left|right)(?:[\s-]+hand)?[\s-]+(?:side|edge|margin|corner|column|panel|box|list|boards?|"
                   rf"{TEXT_NOUNS})\b",
                   re.I)
#: "the box in the corner", "the corner label": a corner, its level and side unsaid (after a preposition: then
#: `_frame_follows`).
_ANY_CORNER = re.compile(rf"\b(?P<after>in|at|from)\s+(?:the|a|one)\s+corner\b|\bcorner\s+(?:box|panel|{TEXT_NOUNS})\b",
                         re.I)
#: "the side board", "the board on the side (of the screen, of the fish hall video)": a side, left or right, unsaid
#: (after a preposition: then `_frame_follows`, or 'of' and the frame or the video).
_ANY_SIDE = re.compile(rf"\bside[\s-]*(?:boards?|box|column|bar|panel|list|{TEXT_NOUNS})\b"
                       rf"|\b(?P<after>on|at|along|down|up|to)\s+(?:the|one)\s+side\b(?!\s+of\b)"
                       rf"|\b(?:on|at|along|down|up|to)\s+(?:the|one)\s+side\s+of\s+the\s+(?:[\w'-]+\s+){{0,3}}?"
                       rf"(?:screen|frame|picture|image|video|clip|footage|recording|feed|view)\b", re.I)
#: Nouns of the grammar lists that follow 'the right' meaning 'correct' ("at the right time").
_NOT_PLACES = frozenset({"time", "moment", "point", "thing", "things", "kind", "sort", "type", "one"})


def _frame_follows(text: str, match: re.Match[str]) -> bool:
    """Whether a side or corner found after a preposition is the frame's: the question ends there, or the next word
    is grammar or frames the question (STOPWORDS, FRAME_WORDS: "on the right over the whole video", "in the corner
    at 2:00"). A word that names a thing makes it a place in the video or a sense of 'right' ("the corner shop",
    "on the right platform", "at the right time")."""
    if match.group("after") is None:
        return True  # "the right-hand column", "the corner box": the text noun says it
    nxt = re.match(r"[\s-]*([A-Za-z]+)", text[match.end():])
    word = nxt.group(1).lower() if nxt else None
    return word is None or (word not in _NOT_PLACES and (word in STOPWORDS or word in FRAME_WORDS
                                                         or word in _SHOWING_VERBS))


#: Verbs of what a text shows, after its place: "what cake did the menu board on the right list?" (out17 dev)
_SHOWING_VERBS = frozenset({"list", "lists", "listed", "advertise", "advertises", "advertised", "offer", "offers",
                            "offered", "state", "states", "stated", "announce", "announces", "announced"})


def asked_place(question: str) -> str | None:
    """Where on the frame `question` looks ('top', 'bottom', 'middle'), or None.

    >>> asked_place("What does the caption at the bottom of the frame say?"), asked_place("the lower caption")
    ('bottom', 'bottom')
    >>> asked_place("What does the line below the top sign read?"), asked_place("What does the sign say?")
    ('top', None)
    >>> asked_place("Which heading was up while the bus was announced?")
    'top'
    >>> asked_place("What does the box in the bottom-right corner say?"), asked_place("the labels on the right")
    ('bottom right', 'right')
    >>> asked_place("What is in the list down the left side at 0:45?"), asked_place("the text in the corner")
    ('left', 'corner')
    >>> asked_place("Was it on the right platform?"), asked_place("What is said right after the bell?")
    (None, None)
    >>> asked_place("At 1:40, what cake did the menu board on the right list?")
    'right'
    >>> asked_place("what did the side board say?"), asked_place("the board on the side of the fish hall video")
    ('side', 'side')
    >>> asked_place("the stall on the side of the road"), asked_place("which side of the hall is the exit on?")
    (None, None)
    """
    # "There's a caption at the bottom and a text up top. What does the one at the top read?": the top
    asking = _asking_sentence(question)
    return (_named_place(asking) if asking else None) or _named_place(question)


def _named_place(text: str) -> str | None:
    """The place on the frame `text` names (`asked_place`), or None: its level and side, or a corner."""
    corner = next((m for m in _CORNER.finditer(text) if not _JUST.match(text, m.start(2))), None)
    if corner:
        return f"{_PLACE_NAMES.get(corner.group(1).lower(), corner.group(1).lower())} {corner.group(2).lower()}"
    level = _named_level(text)
    side = next((m for m in _SIDE.finditer(text) if _frame_follows(text, m)), None)
    if side is not None:
        named = (side.group(2) or side.group(3)).lower()
        return named if level in (None, "middle") else f"{level} {named}"
    if any(_frame_follows(text, m) for m in _ANY_CORNER.finditer(text)):
        return "corner" if level in (None, "middle") else f"{level} corner"
    if level is None and any(_frame_follows(text, m) for m in _ANY_SIDE.finditer(text)):
        return "side"  # out19's "the board on the side of the fish hall video": left or right, whichever has text
    return level


def _named_level(text: str) -> str | None:
    """The level on the frame `text` names ('top', 'middle', 'bottom'), or None."""
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
    >>> asked_line("Near the very end, what does the small counter line under the top-right ticker read?")
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
    rows = [r for r in rows if r["y"] is not None]
    sides = _board_sides(rows, [screen_side(r.get("x1"), r.get("x2")) for r in rows])
    placed = [(r, screen_place(r["y"], side)) for r, side in zip(rows, sides, strict=True)]
    out: dict[int, tuple[str, int | None]] = {}
    for r, place in placed:
        beside = [o for o, p in placed if p == place and o["span_id"] != r["span_id"]
                  and o["start_s"] < r["end_s"] and o["end_s"] > r["start_s"] and abs(o["y"] - r["y"]) > _LINE_GAP]
        above = sorted(o["y"] for o in beside if o["y"] < r["y"])  # one line read twice is one line
        levels = sum(1 for i, y in enumerate(above) if i == 0 or y - above[i - 1] > _LINE_GAP)
        out[r["span_id"]] = (place, 1 + levels if beside else None)
    return out


#: How close (a fraction of the frame's width) two texts' left (or right) edges are to be set on one board.
_EDGE_GAP = 0.015


def _board_sides(rows: list[dict[str, Any]], sides: list[str | None]) -> list[str | None]:
    """`sides` with a text of no side given the side of a text set at the same height with the same left edge (a
    left side) or right edge (a right one): the texts of one board. out16's left board showed '18:50 QUILLAN BAY -
    CANCELLED', long enough to reach past the middle, at the left edge its four shorter texts shared; on its own it
    was at no side ("the top, second line"), and the board's messages were counted as four, not five."""
    out = list(sides)
    for i, r in enumerate(rows):
        if sides[i] is not None or r.get("x1") is None or r.get("x2") is None:
            continue
        for o, side in zip(rows, sides, strict=True):
            if side is None or abs(o["y"] - r["y"]) > _LINE_GAP:
                continue
            edge = ("x1", "x2")[side == "right"]
            if abs(o[edge] - r[edge]) <= _EDGE_GAP:
                out[i] = side
                break
    return out


def video_span_places(memory: Memory, video_id: str) -> dict[int, tuple[str, int | None]]:
    """`span_places` of every on-screen text span of one video (spans of a video with no frame height: none)."""
    return span_places(run_sql(memory, _PLACES_SQL, [video_id]).to_pylist())
