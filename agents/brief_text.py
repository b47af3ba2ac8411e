"""The evidence brief as prompt text: the items of a `queries.Brief` that fit a token budget. What
the video holds comes first and is the same for every question about a video shown whole (its header,
then its lines of speech and on-screen text in time order); what this question's search found follows
(computed counts, the question's time windows, its best match, the choices scored, the notes). A
server's prompt cache reuses the first part across questions: prompt reading is most of an answer's
time on a small CPU, and a second question about a video then reads only its own tail.

`queries.evidence_brief` finds the evidence (no LLM); this module only lays it out for a model.

>>> text = brief_text(brief, max_tokens=600, quote=quote_data)  # doctest: +SKIP
>>> shown_row_keys(brief, 600) <= brief.row_keys                 # doctest: +SKIP
True
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from itertools import pairwise

from queries.brief import Brief, BriefItem, VideoFacts, asked_place, clip_text, seconds_text, span_text
from queries.screen_places import place_fits
from queries.search import SOURCE_LABELS
from queries.time_phrases import TimeWindow

__all__ = [
    "BEST_MATCH", "CHARS_PER_TOKEN", "brief_text", "fitted_items", "marked_line", "shown_row_keys", "shows_all_text",
]

#: Characters per token for budgeting a rendering (English with numbers: a little under 4).
CHARS_PER_TOKEN = 3.6

_INTRO = (
    "Evidence brief: what a search of the memory found before you started: the video's lines in time order "
    "(times in seconds), then what was computed for the question and its best match. "
    "Answer from it when it is enough; use tools only for what it lacks."
)

#: The line that repeats the question's best match after the video's lines.
BEST_MATCH = "best match for the question:"


def brief_text(brief: Brief, max_tokens: int = 600, quote: Callable[[str, str], str] | None = None) -> str:
    """The brief as prompt text within about `max_tokens` tokens. `quote(text, what)` fences the
    part holding video text as data (agents pass their `quote_data`); without it the text is shown
    plain, for people."""
    fitted = set(id(i) for i in fitted_items(brief, max_tokens))
    by_time = sorted((i for i in brief.items if id(i) in fitted), key=_time_order)
    whole = _shows_all(brief, by_time)
    nth = _speech_ordinals(by_time) if whole else {}
    timeline = [i for i in by_time if _in_timeline(i, whole)]
    # a video shown whole: its lines without what a hit adds for this question (the other modality at
    # its time, which the timeline holds beside it), so that they read the same for every question
    lines = _head(brief) + [_line(i, brief, nth.get(id(i)), plain=whole) for i in timeline]
    if whole:
        lines.append(_all_text_note(brief))
    top = brief.best_match
    # counts and computed facts, the best match among them marked where it stands
    lines += [_line(i, brief) + (" <- best match" if i is top else "") for i in by_time if not _in_timeline(i, whole)]
    lines += [_window_line(w, brief) for w in brief.windows]
    # the lines under a marked heading, on the best match's own line: shown apart, the model read out the heading
    # alone ("DOME" for DOME / NEXT SHOW 13:50, out17 dev)
    under = "; ".join(f'"{t}"' for t in brief.lines_under()) if top is not None and id(top) in fitted else ""
    repeated = top is not None and id(top) in fitted and _in_timeline(top, whole)
    if top is not None and repeated:
        then = f"; under it then: {under}" if under else ""
        lines.append(f"{BEST_MATCH} {_line(top, brief, nth.get(id(top)))}{then}")
    if top is not None and id(top) in fitted and (reason := brief.given_reason()):
        lines.append(f'the reason the best match gives: "{clip_text(reason)}"')
    if under and not repeated:
        lines.append(f"the lines under the best match at its place then: {under}")
    if top is not None and id(top) in fitted and (things := brief.listed_things()):
        lines.append(f"the best match lists {len(things)} things: " + "; ".join(f'"{t}"' for t in things))
    lines += _choice_lines(brief)
    lines += [f"note: {n}" for n in _notes(brief)]
    body = "\n".join(lines) if lines else "nothing in the memory matched the question"
    return f"{_INTRO}\n{quote(body, 'evidence brief') if quote else body}"


def fitted_items(brief: Brief, max_tokens: int = 600) -> tuple[BriefItem, ...]:
    """The items that `brief_text(brief, max_tokens)` shows, in priority order.

    A video whose lines of speech and on-screen text all fit the budget by themselves is shown whole,
    and what the question adds (counts, computed facts) gets up to a quarter of the budget besides: a
    line of people visible once crowded out the last sign of a 16-line video, and a brief shown whole
    for one question and not for the next differs from its first line on."""
    full = max_tokens * CHARS_PER_TOKEN
    budget = full - len(_frame(brief)) - sum(len(c) + 1 for c in _choice_lines(brief))
    top = brief.best_match

    def line_cost(item: BriefItem) -> float:
        return len(_line(item, brief)) + 16  # the line, its newline and an ordinal

    def again(item: BriefItem) -> float:  # the best match is shown a second time, with its label
        return line_cost(item) + len(BEST_MATCH) if item is top and _in_timeline(item, False) else 0.0

    rows = [i for i in brief.items if _in_timeline(i, True)]
    rows_cost = sum(line_cost(i) for i in rows)
    # the question's own lines (time windows, notes, choices, the best match again) are no reason to cut
    # the video's
    fits = rows_cost <= full - len(_frame(brief, question=False))
    whole = bool(brief.whole_text) and len(rows) >= brief.whole_text and fits
    if whole:
        budget = max(budget - rows_cost, full / 4)
        if top is not None and any(i is top for i in rows):
            budget -= again(top)
    kept: set[int] = set()
    # the best match first: trial 10's "two minutes twenty seconds in, what is written on the yellow line below
    # the top banner?" marked the window's sign, which the search's hits before it left no room for
    for item in sorted(brief.items, key=lambda i: i is not top):
        if whole and _in_timeline(item, True):
            kept.add(id(item))
        elif (cost := line_cost(item) + again(item)) <= budget:
            kept.add(id(item))
            budget -= cost
    return tuple(i for i in brief.items if id(i) in kept)


def marked_line(brief: Brief, item: BriefItem) -> str:
    """`item`'s line as the brief shows it, without its ordinal (for a note that points at it)."""
    return _line(item, brief)


def shown_row_keys(brief: Brief, max_tokens: int = 600) -> set[tuple[str, str, int]]:
    """(video_id, table, id) of every text row that `brief_text(brief, max_tokens)` shows."""
    return {k for i in fitted_items(brief, max_tokens) for k in i.row_keys}


def shows_all_text(brief: Brief, max_tokens: int = 600) -> bool:
    """Whether the rendering within `max_tokens` shows every speech segment and text span of the video."""
    return _shows_all(brief, fitted_items(brief, max_tokens))


def _shows_all(brief: Brief, shown_items: Sequence[BriefItem]) -> bool:
    if not brief.whole_text:
        return False
    shown = {k for i in shown_items for k in i.row_keys if k[1] in ("transcript", "ocr_spans")}
    return len(shown) >= brief.whole_text


def _all_text_note(brief: Brief) -> str:
    return (f"note: these are all {brief.whole_text} lines of speech and on-screen text the memory holds "
            "of this video")


def _notes(brief: Brief) -> list[str]:
    return [*brief.notes, *map(_heard_note, brief.heard.items()), *([brief.absent.note()] if brief.absent else [])]


def _heard_note(heard: tuple[str, tuple[tuple[float, str], ...]]) -> str:
    """The runs of words speech recognition may have written for a name of the question (`Brief.heard`)."""
    name, spans = heard
    said = ", ".join(f'"{s}" ({t:g} s)' for t, s in spans)
    return f"speech recognition may have written '{name}' as words that sound like it: {said}"


def _frame(brief: Brief, question: bool = True) -> str:
    """What a rendering shows besides its items: the intro and the video's header (and, with
    `question`, the question's time windows and notes)."""
    all_text = [_all_text_note(brief)] if brief.whole_text else []  # budget for it only when it may be shown
    asked = [*(_window_line(w, brief) for w in brief.windows), *_notes(brief)] if question else []
    lines = [_INTRO, *_head(brief), *asked, *all_text]
    return "\n".join(lines) + "\n" * 4 + " " * 60  # the fence's two lines and header


def _choice_lines(brief: Brief) -> list[str]:
    if not brief.choices:
        return []
    best = max(c.score for c in brief.choices)
    lines = ["choices against the memory (support 0-1):"]
    for c in brief.choices:
        mark = " <- best supported" if c.score == best and best > 0 else ""
        lines.append(f"  {chr(ord('A') + c.index)}) {c.score:.2f}: {c.reason}{mark}")
    return lines


def _head(brief: Brief) -> list[str]:
    """What the brief is about: the archive (no video named) and its videos by file, or the one
    video by file with its length, what the memory holds of it and its summary."""
    lines = []
    if brief.archive:
        names = sorted(set(brief.files.values()))
        lines.append(f"no video named: the lines come from across the archive, each starting with its video's "
                     f"file ({', '.join(names[:8])}{', ...' if len(names) > 8 else ''})")
    facts = brief.facts
    if facts is not None:
        length = f"{seconds_text(facts.duration_s)} long" if facts.duration_s is not None else "length unknown"
        # "43 person" beside "7 different on-screen texts" was answered as the texts' count: a track is
        # no thing the question counts (one person walking out of sight and back is two)
        objs = ", ".join(f"{c} ({facts.instances[c]} tracks)" for c in facts.categories[:6]) or "none tracked"
        which = "video of the best match" if brief.archive else "video"
        name = f"{facts.file} ({facts.video_id})" if facts.file else facts.video_id
        texts = _texts_said(facts, listed=not brief.whole_text)
        speech = f"speech segments {facts.speech}"
        if facts.has_audio is False:  # "the speaker says nothing" was the answer to a silent file
            speech = "no speech: the file has no audio track"
        elif "asr" in facts.unread:
            speech = f"speech unknown: not transcribed ({facts.unread['asr']})"
        lines.append(f"{which} {name}: {length}; {speech}; {texts}; tracked objects: {objs}")
        if facts.summary:
            lines.append(f"summary of {facts.file or 'the video'} (written by a model from its rows): {facts.summary}")
    return lines


def _texts_said(facts: VideoFacts, *, listed: bool) -> str:
    """The different on-screen texts, counted (and `listed` with their times when few; a video shown
    whole lists them in its lines): a computed fact, where counting rows read 7 for a sign of 4 texts."""
    if "ocr" in facts.unread:
        return f"on-screen text unknown: not read ({facts.unread['ocr']})"
    n = len(facts.texts)
    noise = f", besides {facts.noise} rows of likely OCR noise" if facts.noise else ""
    if n == 0 or n > 8 or not listed:
        return f"{n} different on-screen texts{noise}"
    listing = ", ".join(f'"{t[:40]}" {span_text(a, b)}' for t, a, b in facts.texts)
    return f"{n} different on-screen texts{noise}: {listing}"


def _window_line(w: TimeWindow, brief: Brief | None = None) -> str:
    """The window a time phrase points at, with what was on screen and said then: the instant's rows
    when the phrase names one, else the window's. Computed here so that a small model need not compare
    times: shown the whole timeline and "138 seconds in -> 136-140 s", it asked to look the time up."""
    at = f", at {seconds_text(w.at_s)}" if w.at_s is not None else ""
    line = f'time "{w.phrase}" -> {span_text(w.start_s, w.end_s)}{at}'
    return line + (_then(w, brief) if brief is not None else "")


#: How many on-screen texts and speech lines a window line names (the brief's lines give the rest).
_THEN_MAX = 4


def _then(w: TimeWindow, brief: Brief) -> str:
    """'; at that moment, on screen: ...; said: ...' for the window's rows in the brief (likely noise left out)."""
    rows = list({i.row_keys[0]: i for i in brief.items  # a row the brief shows as a hit is in its window too
                 if i.video_id == brief.video_id and i.noise is None and i.start_s is not None and i.row_keys
                 and i.source in ("ocr_spans", "transcript")}.values())
    if not rows:
        return ""

    def during(i: BriefItem, at: float | None) -> bool:
        start, end = _bounds(i)
        return start <= at <= end if at is not None else w.overlaps(start, end)

    def near(i: BriefItem) -> float:  # from the instant the phrase names, else in time order
        start, end = _bounds(i)
        return start if w.at_s is None else max(0.0, start - w.at_s, w.at_s - end)

    at = w.at_s
    if at is not None and not any(during(i, at) for i in rows):
        at = None  # nothing at the instant ("the end" is the last frame): what the span holds, said so

    place = asked_place(brief.question)
    # of the texts on at the instant, the one that came up nearest it first: trial 13's "what does the yellow
    # caption at the bottom say around the six-minute mark?" was answered with the corner logo, on since 0 s
    # and listed first, beside the caption that came up at 360 s
    came = (lambda i: abs(_bounds(i)[0] - at)) if at is not None else (lambda i: i.start_s)
    # the asked place itself before a place inside it: out15's "what does the sign on the left show at 1:00?" was
    # answered with a caption at the bottom left that came up then, listed before the board at the left
    shown = sorted((i for i in rows if i.source == "ocr_spans" and during(i, at)),
                   key=lambda i: (not place_fits(place, i.place), i.place != place, near(i), came(i)))
    said = sorted((i for i in rows if i.source == "transcript" and during(i, at)), key=lambda i: (near(i), i.start_s))
    when = "at that moment" if at is not None else "in that span"
    # a change first: after the list of what was on, it was read past (the sign's first and last texts answered)
    changes = "" if at is not None else _changes(shown)
    return (f"{changes}; {when}, on screen: {_listed(shown, place=True) or 'no text'}"
            f"; said: {_listed(said, place=False) or 'nothing'}")


def _changes(shown: list[BriefItem]) -> str:
    """'; changed in that span: at the left "A" (0-44 s), then "B" (45-94 s)' for each place where one text
    followed another within a span: out15's "between 0:30 and 1:10, the temperature sign changed from what to
    what?" was answered with the sign's first and last texts of the video, the one that came up in the span
    cut from the list of what was on screen."""
    by_place: dict[str, list[BriefItem]] = {}
    for i in sorted(shown, key=_time_order):
        if i.place_text:
            by_place.setdefault(i.place_text, []).append(i)
    parts = []
    for where, items in by_place.items():
        steps = [b for a, b in pairwise(items) if _bounds(b)[0] >= _bounds(a)[1] - 1.0]  # one after another
        if steps:
            texts = [items[0], *steps]
            parts.append(f"{where}: " + ", then ".join(
                f"{i.text.split(': ', 1)[-1]} ({span_text(i.start_s, i.end_s)})" for i in texts[:_THEN_MAX]))
    return f"; changed in that span: {'; '.join(parts)}" if parts else ""


def _bounds(item: BriefItem) -> tuple[float, float]:
    start = item.start_s or 0.0
    return start, item.end_s if item.end_s is not None else start


def _listed(items: list[BriefItem], *, place: bool) -> str:
    parts = []
    for i in items[:_THEN_MAX]:
        quoted = i.text.split(": ", 1)[-1]  # 'on-screen text: "X"' -> '"X"'
        where = f"{i.place_text}, " if place and i.place else ""
        parts.append(f"{quoted} ({where}{span_text(i.start_s, i.end_s)})")
    more = f", and {len(items) - _THEN_MAX} more" if len(items) > _THEN_MAX else ""
    return ", ".join(parts) + more


def _time_order(item: BriefItem) -> tuple[float, str, int, float]:
    """By start, then by what the row is (not by score: lines that start together keep one order for
    every question)."""
    start = item.start_s if item.start_s is not None else -1.0
    return (start, item.source or "", item.item_id if item.item_id is not None else -1, -item.score)


def _speech_ordinals(items: list[BriefItem]) -> dict[int, str]:
    """id(item) -> "3 of 7" for each speech line of a brief shown whole, in time order: "how many
    separate announcements?" was answered 3 and 0 with all 7 and 4 lines in front of the model."""
    said = [i for i in items if i.source == "transcript" and i.item_id is not None]
    return {id(i): f"{n} of {len(said)}" for n, i in enumerate(said, 1)}


def _in_timeline(item: BriefItem, whole: bool) -> bool:
    """Whether `item` is a line of the brief's timeline: a row of speech or on-screen text at its time
    (of a video shown whole: all of them, and nothing else, so that every question gets the same), or
    also of captions and chapters. Counts and computed facts are the question's."""
    sources = ("transcript", "ocr_spans") if whole else SOURCE_LABELS
    return item.source in sources and item.start_s is not None and item.kind != "count"


def clock_read(text: str) -> str:
    """`text` with each clock time speech recognition wrote as one number after a word of time ("leaves at 615",
    "the next opening at 440") read out after it: out19's "what time was the last number 47 bus said to leave?" got
    "615", and out20 dev's last shuttle "440", for six fifteen and four forty.

    >>> clock_read("The last number 47 bus leaves at 615."), clock_read("Room 615 is at 1230 or until 975.")
    ('The last number 47 bus leaves at 615 (6:15).', 'Room 615 is at 1230 (12:30) or until 975.')
    """
    return _CLOCK_AS_NUMBER.sub(lambda m: f"{m.group(0)} ({int(m.group(2))}:{m.group(3)})", text)


#: A clock time written as one number after a word of time: 'at 615', 'until 1230' (hours 1-23, minutes 00-59).
_CLOCK_AS_NUMBER = re.compile(r"\b(at|until|till|by|from|before|after)\s+([1-9]|1\d|2[0-3])([0-5]\d)\b(?![\d:.,]\d)",
                              re.I)


def _line(item: BriefItem, brief: Brief | None = None, nth: str | None = None, *, plain: bool = False) -> str:
    """The item's prompt line: its span and text with its ordinal, place, noise and context; `plain`, a
    text row as the timeline of a video shown whole has it, without what the search added for the
    question (the relation it was found by, the other modality at its time)."""
    text = item.text
    if plain and item.source in SOURCE_LABELS and item.rows:
        text = f'{SOURCE_LABELS[item.source]}: "{clip_text(str(item.rows[0].get("text", "")))}"'
    tags = [t for t in (nth, f"({item.place_text})" if item.place is not None else None) if t]
    label = SOURCE_LABELS.get(item.source or "")
    # 'speech 3 of 7: ...', 'on-screen text (bottom) while ...', 'the next speech 3 of 7 after ...'
    lead = next((f for f in ("", "the next ", "the ") if label and text.startswith(f + label)), None)
    if tags and label and lead is not None:
        at = len(lead) + len(label)
        text = f"{text[:at]} {' '.join(tags)}{text[at:]}"
    if item.source == "transcript":
        text = clock_read(text)
    if item.noise is not None:
        text += f" (likely OCR noise: {item.noise})"
    if item.context is not None and not plain:
        text += f" ({item.context})"
    line = f"{span_text(item.start_s, item.end_s)} {text}"
    if brief is not None and brief.archive:
        return f"[{brief.files.get(item.video_id, item.video_id)}] {line}"
    return line
