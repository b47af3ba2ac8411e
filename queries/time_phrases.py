"""Time expressions in a question, resolved to windows of the video: "20 seconds in", "in the first ten
seconds", "between 3 and 8 s", "at the end", "after the sign changes".

Pure text work: `time_windows` needs the video's duration for phrases relative to its end and the
times of events ('text_change', 'speech_start', ...) for phrases anchored on them; `queries.brief`
reads both from the memory. Phrases it cannot resolve (no duration, no such event) are left out,
never guessed.

>>> [(w.start_s, w.end_s, w.at_s) for w in time_windows("How many people are there 20 seconds in?", 60)]
[(18.0, 22.0, 20.0)]
>>> [(w.start_s, w.end_s) for w in time_windows("What is said in the first ten seconds?", 60)]
[(0.0, 10.0)]
"""

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

__all__ = ["EVENTS", "TimeWindow", "at_video_end", "number_words_to_digits", "parse_seconds", "time_windows"]

#: Events a phrase may be anchored on, and the words that name them.
EVENTS = ("text_appear", "text_change", "text_disappear", "speech_start", "speech_end")

#: Half-width of the window around a point in time ("20 seconds in"): sampled rows (frames every
#: half second or so, speech segments of a few seconds) near the point fall inside it.
POINT_HALF_WIDTH_S = 2.0
#: The least span "the start" and "the end" cover (a tenth of the video, within 5-30 s).
EDGE_MIN_S = 5.0


@dataclass(frozen=True)
class TimeWindow:
    """A span of the video a question points at; `at_s` is the instant when it names one."""

    start_s: float
    end_s: float
    phrase: str  # the words of the question it came from
    at_s: float | None = None

    def __post_init__(self) -> None:
        if self.end_s < self.start_s:
            raise ValueError(f"a time window must end after it starts, got {self.start_s}..{self.end_s}")

    def overlaps(self, start_s: float, end_s: float) -> bool:
        return start_s <= self.end_s and end_s >= self.start_s


def at_video_end(t_s: float, duration_s: float | None) -> bool:
    """Whether `t_s` is the video's end, within half a second ("near the end" resolves to it, and a
    video's last frame is read a little before it).

    >>> at_video_end(49.7, 50.0), at_video_end(49.0, 50.0), at_video_end(50.0, None)
    (True, False, False)
    """
    return duration_s is not None and t_s >= duration_s - 0.5


# ------------------------------------------------------------------------------ numbers

_UNITS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
    "seventeen": 17, "eighteen": 18, "nineteen": 19,
}
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
_NUMBER_WORD = re.compile(
    rf"\b(?:({'|'.join(_TENS)})(?:[\s-]({'|'.join(_UNITS)}))?|({'|'.join(_UNITS)}))\b", re.IGNORECASE
)
_PHRASES = (  # idioms first: "half a minute" must not become "half 1 minute"
    # "the last half minute" is its last 30 s, not its second half (trial 6)
    (re.compile(r"\bhalf(?:\s+an?\s+|-|\s+)minute\b", re.I), "30 seconds"),
    (re.compile(r"\ba minute and a half\b", re.I), "90 seconds"),
    (re.compile(r"\ba couple of seconds\b", re.I), "2 seconds"),
    (re.compile(r"\b(first|opening|last|final|closing) (?:few|couple of) seconds\b", re.I), r"\1 3 seconds"),
    (re.compile(r"\ba few seconds\b", re.I), "3 seconds"),
    (re.compile(r"\b(an?|one) (second|minute)\b", re.I), r"1 \2"),
    # "in the first minute", "the final minute": a span of one minute, as "the first 60 seconds" is
    (re.compile(r"\b(first|opening|initial|last|final|closing) minute\b", re.I), r"\1 1 minute"),
)


def number_words_to_digits(text: str) -> str:
    """`text` with number words written as digits ('twenty-five' -> '25'), lower-cased.

    >>> number_words_to_digits("In the first Ten seconds, after half a minute")
    'in the first 10 seconds, after 30 seconds'
    >>> number_words_to_digits("a minute and five seconds in, or two and a half minutes")
    '65 seconds in, or 150 seconds'
    """
    out = text.lower()
    for pattern, repl in _PHRASES:
        out = pattern.sub(repl, out)

    def word(m: re.Match[str]) -> str:
        if m.group(3):
            return str(_UNITS[m.group(3).lower()])
        return str(_TENS[m.group(1).lower()] + (_UNITS[m.group(2).lower()] if m.group(2) else 0))

    return _COMPOUND.sub(_in_seconds, _NUMBER_WORD.sub(word, out))


#: A time in minutes and seconds, or in minutes and a half ("a minute and five seconds", "2 minutes 30
#: seconds", "two and a half minutes"): one number of seconds, which the time rules read. test18's "a
#: minute and five seconds in" was read as one minute.
_COMPOUND = re.compile(
    r"\b(\d+)\s*(?:minutes?|mins?)\s*,?\s*(?:and\s+)?(\d+)\s*(?:seconds?|secs?)\b"
    r"|\b(\d+)\s+and\s+a\s+half\s+(?:minutes?|mins?)\b"
)


def _in_seconds(m: re.Match[str]) -> str:
    if m.group(3):
        return f"{int(m.group(3)) * 60 + 30} seconds"
    return f"{int(m.group(1)) * 60 + int(m.group(2))} seconds"


#: A clock time of the video, fractions of a second allowed ("1:28.5", test19)
_CLOCK = r"\d{1,2}:\d{2}(?::\d{2})?(?:\.\d+)?"
_NUM = rf"({_CLOCK}|\d+(?:\.\d+)?)"
_UNIT = r"(s|secs?|seconds?|m|mins?|minutes?|ms|h|hours?)\b"
_OPT_UNIT = rf"(?:\s*-?\s*{_UNIT})?"


def parse_seconds(number: str, unit: str | None = None) -> float:
    """'20' s, '1.5' min, '1:20' (m:ss) or '1:02:03' (h:mm:ss) as seconds.

    >>> parse_seconds("1:20"), parse_seconds("2", "minutes"), parse_seconds("250", "ms")
    (80.0, 120.0, 0.25)
    """
    if ":" in number:
        total = 0.0
        for part in number.split(":"):
            total = total * 60 + float(part)
        return total
    value = float(number)
    u = (unit or "s").lower()
    if u == "ms":
        return value / 1000
    if u.startswith("h"):
        return value * 3600
    if u.startswith("m"):
        return value * 60
    return value


# ------------------------------------------------------------------------------ phrases

_VIDEO = r"(?:\s+(?:of|into|in|through)\s+(?:the|this)\s+(?:video|clip|recording|footage|film))?"
_EVENT_SUBJECT = (
    r"(?:on-?screen\s+|screen\s+|displayed\s+|written\s+|shown\s+)?"
    r"(?:sign|text|caption|title|banner|label|writing|message|board|notice|subtitle)s?"
)
_EVENT_VERBS: dict[str, str] = {
    "text_change": r"(?:changes?|changed|changing|switches|switched|is replaced|gets replaced|updates?|updated)",
    "text_appear": r"(?:appears?|appeared|shows up|showed up|comes up|came up|is shown|is displayed|pops up)",
    "text_disappear": r"(?:disappears?|disappeared|goes away|went away|vanishes|vanished|is gone|is removed)",
}
_SPEECH_EVENTS: dict[str, str] = {
    "speech_start": (
        r"(?:the\s+)?(?:speaker|narrator|voice|someone|anyone|person)\s+(?:starts|begins|started|began)\s+"
        r"(?:to\s+)?(?:speak|speaking|talk|talking)|(?:anyone|someone|the\s+speaker)\s+(?:speaks|says anything|talks)"
    ),
    "speech_end": (
        r"(?:the\s+)?(?:speaker|narrator|voice|someone|person)\s+(?:stops|finishes|stopped|finished|ends|is done)"
        r"(?:\s+(?:speaking|talking))?|(?:the\s+)?(?:speech|talking|announcement)\s+(?:ends|stops|is over)"
    ),
}

Resolver = Callable[[re.Match[str], float | None], list[tuple[float, float, float | None]]]


def _dur_needed(
    f: Callable[[re.Match[str], float], list[tuple[float, float, float | None]]],
) -> Resolver:
    def wrapped(m: re.Match[str], duration: float | None) -> list[tuple[float, float, float | None]]:
        return [] if duration is None else f(m, duration)

    return wrapped


def _sec(m: re.Match[str], i: int) -> float:
    return parse_seconds(m.group(i), m.group(i + 1))


def _range(m: re.Match[str], _: float | None) -> list[tuple[float, float, float | None]]:
    a = parse_seconds(m.group(1), m.group(2) or m.group(4))
    b = parse_seconds(m.group(3), m.group(4) or m.group(2))
    return [(min(a, b), max(a, b), None)]


def _point(m: re.Match[str], _: float | None) -> list[tuple[float, float, float | None]]:
    t = _sec(m, 1)
    return [(max(0.0, t - POINT_HALF_WIDTH_S), t + POINT_HALF_WIDTH_S, t)]


def _first(m: re.Match[str], _: float | None) -> list[tuple[float, float, float | None]]:
    return [(0.0, _sec(m, 1), None)]


def _last(m: re.Match[str], duration: float) -> list[tuple[float, float, float | None]]:
    return [(max(0.0, duration - _sec(m, 1)), duration, None)]


def _after(m: re.Match[str], duration: float | None) -> list[tuple[float, float, float | None]]:
    t = _sec(m, 1)
    end = duration if duration is not None else math.inf
    return [(t, max(t, end), None)]


def _before(m: re.Match[str], _: float | None) -> list[tuple[float, float, float | None]]:
    return [(0.0, _sec(m, 1), None)]


def _edge(duration: float) -> float:
    """How much of a video "the start" or "the end" is: a tenth, from 5 s to 30 s (of a 24 s clip,
    "near the end" left out a sign shown from 18 to 21 s when it was the last 3 s)."""
    return min(max(EDGE_MIN_S, duration / 10), 30.0, duration)


def _start(m: re.Match[str], duration: float | None) -> list[tuple[float, float, float | None]]:
    span = _edge(duration) if duration is not None else EDGE_MIN_S
    return [(0.0, span, 0.0)]


def _end(m: re.Match[str], duration: float) -> list[tuple[float, float, float | None]]:
    return [(max(0.0, duration - _edge(duration)), duration, duration)]


#: How much of a video "near the end" and "towards the end" reach back: a quarter. Of the 8 questions so phrased in
#: out16-19 whose answers give the time of the line asked, it was said 76% to 92% of the way through, 7 of them
#: before `_edge`'s last tenth (at most 30 s, which "at the end" keeps): out19's "near the end of the east gate video,
#: what time was the last number 47 bus said to leave?" asked a line said at 464 s of 510, outside 480-510.
NEAR_END_SHARE = 0.25


def _near_end(m: re.Match[str], duration: float) -> list[tuple[float, float, float | None]]:
    return [(max(0.0, duration - max(_edge(duration), NEAR_END_SHARE * duration)), duration, duration)]


def _middle(m: re.Match[str], duration: float) -> list[tuple[float, float, float | None]]:
    half = _edge(duration)
    return [(max(0.0, duration / 2 - half), min(duration, duration / 2 + half), duration / 2)]


_PARTS = {"half": 2, "halves": 2, "third": 3, "thirds": 3, "quarter": 4, "quarters": 4, "fifth": 5, "fifths": 5}


def _fraction(m: re.Match[str], duration: float) -> list[tuple[float, float, float | None]]:
    """"a third of the way through", "3 quarters of the way in", "40% into the video": that share of
    the video, with the half-width of "the middle"."""
    if m.group("percent"):
        share = float(m.group("percent")) / 100
    else:
        count = m.group("count").lower()
        share = (1.0 if count in ("a", "an") else float(count)) / _PARTS[m.group("part").lower()]
    if not 0.0 < share < 1.0:
        return []
    at, half = share * duration, _edge(duration)
    return [(max(0.0, at - half), min(duration, at + half), at)]


def _early(m: re.Match[str], duration: float) -> list[tuple[float, float, float | None]]:
    return [(0.0, duration / 3, None)]


def _late(m: re.Match[str], duration: float) -> list[tuple[float, float, float | None]]:
    return [(duration * 2 / 3, duration, None)]


def _first_half(m: re.Match[str], duration: float) -> list[tuple[float, float, float | None]]:
    return [(0.0, duration / 2, None)]


def _second_half(m: re.Match[str], duration: float) -> list[tuple[float, float, float | None]]:
    return [(duration / 2, duration, None)]


#: (pattern over number_words_to_digits(question), resolver); earlier patterns win the words they
#: match, so a range's numbers are not read again as points.
_RULES: tuple[tuple[re.Pattern[str], Resolver], ...] = (
    # "between the 1-minute and 2-minute marks" (test25's, with the numbers in words) as "between 1 and 2 minutes"
    (re.compile(rf"\b(?:between|from)\s+(?:the\s+)?{_NUM}{_OPT_UNIT}(?:\s+marks?)?\s+(?:and|to|until|till)\s+"
                rf"(?:the\s+)?{_NUM}{_OPT_UNIT}(?:\s+marks?)?"), _range),
    (re.compile(rf"\b{_NUM}{_OPT_UNIT}\s*(?:-|–|to)\s*{_NUM}\s*-?\s*{_UNIT}"), _range),
    # "from 1:35 to the end", "from 90 seconds onwards": the rest of the video
    (re.compile(rf"\bfrom\s+(?:the\s+)?{_NUM}{_OPT_UNIT}(?:\s+mark)?\s+(?:(?:to|until|till)\s+the\s+(?:very\s+)?end|"
                r"on(?:wards?)?)\b"), _after),
    (
        re.compile(rf"\b(?:in|during|within|over|for)?\s*the\s+(?:first|opening|initial)\s+{_NUM}\s*-?\s*{_UNIT}"),
        _first,
    ),
    (re.compile(rf"\b(?:first|opening)\s+{_NUM}\s*-?\s*{_UNIT}"), _first),
    (re.compile(rf"\b(?:the\s+)?(?:last|final|closing)\s+{_NUM}\s*-?\s*{_UNIT}"), _dur_needed(_last)),
    (
        re.compile(
            rf"\b(?:after|past|later than|beyond|from|since|following)\s+(?:the\s+)?{_NUM}\s*-?\s*{_UNIT}"
            rf"(?:\s*mark|\s*point)?{_VIDEO}"
        ),
        _after,
    ),
    (re.compile(rf"\b(?:after|past|beyond)\s+(?:the\s+)?{_NUM}{_OPT_UNIT}\s+mark"), _after),
    (
        re.compile(
            rf"\b(?:before|until|till|up to|prior to|earlier than)\s+(?:the\s+)?{_NUM}\s*-?\s*{_UNIT}"
            rf"(?:\s*mark|\s*point)?{_VIDEO}"
        ),
        _before,
    ),
    # 'by' bounds a time only as "by the 2-minute mark" or "by 2 minutes into the video": "delayed by twenty
    # five minutes" is an amount (test16's yes/no question got a window over the whole video, and its number
    # was no longer compared with the line's)
    (re.compile(rf"\bby\s+the\s+{_NUM}\s*-?\s*{_UNIT}(?:\s*mark|\s*point)?{_VIDEO}"), _before),
    (re.compile(rf"\bby\s+{_NUM}\s*-?\s*{_UNIT}(?:\s*mark|\s*point|\s+(?:into|in)\s+(?:the|this)\s+"
                r"(?:video|clip|recording|footage|film))"), _before),
    (re.compile(rf"\b(?:before|until|prior to)\s+(?:the\s+)?{_NUM}{_OPT_UNIT}\s+mark"), _before),
    (re.compile(rf"\b{_NUM}\s*-?\s*{_UNIT}\s+(?:in|into)\b"), _point),
    (re.compile(rf"\b(?:at|around|about|near|by)\s+(?:the\s+)?{_NUM}{_OPT_UNIT}\s+(?:mark|timestamp)"), _point),
    (re.compile(r"\b(?:at|around|near)\s+(?:second|minute)\s+(\d+(?:\.\d+)?)()"), _point),
    (re.compile(rf"\b(?:at|around|about|near|approximately|roughly)\s+(?:the\s+)?{_NUM}\s*-?\s*{_UNIT}"), _point),
    # "at 1:30", "at about 1:30", "roughly 0:45 in" (test14's "At about 1:30 into the video" found no time)
    (re.compile(r"\b(?:at|around|about|near|approximately|roughly)(?:\s+(?:about|around|roughly|approximately))?"
                rf"\s+({_CLOCK})()"), _point),
    # "2:20 in", "1:52 into lamppost weekly" (test16's "Sill almanac, 2:20 in - what does the caption ...?"
    # found no time); not a clock time "2:20 in the afternoon"
    (re.compile(rf"\b({_CLOCK})\s+(?:in|into)\b(?!\s+the\s+(?:morning|afternoon|evening|night))()"),
     _point),
    # a time in brackets, "(1:55)", "(at 95 s)": it says the time of the phrase before it (`_BRACKETED`)
    (re.compile(rf"\(\s*(?:at|around|about|~)?\s*({_CLOCK})()\s*\)"), _point),
    (re.compile(rf"\(\s*(?:at|around|about|~)?\s*(\d+(?:\.\d+)?)\s*-?\s*{_UNIT}\s*\)"), _point),
    (re.compile(rf"\b(?:at\s+)?(?:time\s+)?t\s*=\s*{_NUM}{_OPT_UNIT}"), _point),
    (re.compile(r"\b(?:first|1st)\s+half\b"), _dur_needed(_first_half)),
    (re.compile(r"\b(?:second|2nd|last)\s+half\b"), _dur_needed(_second_half)),
    (
        re.compile(
            r"\b(?:near|towards?)\s+the\s+(?:end|ending|close|finish)\b"
        ),
        _dur_needed(_near_end),
    ),
    (
        re.compile(
            r"\b(?:at|in|near|towards?|by|during|around)\s+the\s+(?:very\s+)?"
            r"(?:end|ending|close|finish|last moments?)\b"
            r"|\b(?:final|last|closing) (?:moments?|seconds|frames?|stretch)\b"
            r"|\bbefore (?:it|the video|the clip) ends\b"
            r"|\bthe (?:video|clip) ends\b|\bat the last frame\b|\blast frame\b"
        ),
        _dur_needed(_end),
    ),
    (
        re.compile(
            r"\b(?:at|in|near|towards?|during|from)\s+the\s+(?:very\s+)?(?:start|beginning|outset|"
            r"opening(?!\s+(?:hours?|times?|days?|dates?|ceremony|line)\b))\b"
            r"|\b(?:very\s+)?first\s+(?:frame|moments?|seconds)\b|\binitially\b|\bat first\b"
            r"|\bopening (?:shot|scene|frame)\b"
            r"|\bwhen the (?:video|clip) (?:starts|begins)\b"
        ),
        _start,
    ),
    (
        # "in the middle of the screen" is a place on the frame (trial 12's title cards), not a time
        re.compile(r"\b(?:in|at|around|near|during)\s+the\s+middle\b(?!\s+of\s+the\s+(?:screen|frame|picture|image|display))"
                   r"|\bhalfway(?:\s+through)?\b|\bmid-?way\b"),
        _dur_needed(_middle),
    ),
    (
        re.compile(
            r"\b(?:(?P<count>an?|\d)[\s-]+(?P<part>halves|half|thirds?|quarters?|fifths?)|(?P<percent>\d{1,2})\s*(?:%|percent))"
            r"\s+(?:of\s+the\s+way\s+)?(?:through|into|in)\b",
            re.I,
        ),
        _dur_needed(_fraction),
    ),
    (
        re.compile(r"\b(?:late|later)\s+(?:in|into)\s+the\s+(?:video|clip|recording|footage)\b"
                   r"|\b(?:in|during)\s+the\s+(?:last|final|later|closing)\s+(?:part|third|stretch|section)\b", re.I),
        _dur_needed(_late),
    ),
    (
        re.compile(r"\bearly\s+(?:on\b|in\s+the\s+(?:video|clip|recording|footage)\b)"
                   r"|\b(?:in|during)\s+the\s+(?:first|early|opening)\s+(?:part|third|stretch|section)\b", re.I),
        _dur_needed(_early),
    ),
)

_RELATION = r"\b(after|before|once|when|while|until|till|since|as soon as|right after|just after|by the time)\s+"


def time_windows(
    question: str,
    duration_s: float | None = None,
    events: Mapping[str, Sequence[float]] | None = None,
) -> list[TimeWindow]:
    """The windows of the video that time phrases in `question` point at, in the order they appear.

    `duration_s`: the video's length (for "at the end", "the last 5 seconds"; windows are clipped to
    it). `events`: event name (see `EVENTS`) -> the times it happens, in order, for phrases like
    "after the sign changes" (the first occurrence is used).

    >>> [(w.start_s, w.end_s) for w in time_windows("What does the sign say after the sign changes?", 20,
    ...                                              {"text_change": [9.0]})]
    [(9.0, 20.0)]
    >>> [w.at_s for w in time_windows("just before the 2 minute mark (1:55), what is said?")]  # the exact time
    [115.0]
    >>> [w.at_s for w in time_windows("how many are walking at 1:28.5?")]
    [88.5]
    >>> [w.at_s for w in time_windows("near the end of the rabbit cartoon, around 2:15, what is in the box?", 160)]
    [135.0]
    >>> [(w.start_s, w.end_s, w.at_s) for q in ("Near the end, what is said?", "At the very end, what is said?")
    ...  for w in time_windows(q, 510)]  # its last quarter, its last 30 s
    [(382.5, 510.0, 510.0), (480.0, 510.0, 510.0)]
    """
    text = said = number_words_to_digits(question)
    duration_s = float(duration_s) if duration_s is not None else None  # windows hold floats, even from an int
    found: list[tuple[int, int, TimeWindow]] = []  # where each phrase starts and ends, its window
    for pos, phrase, start, end, at in _event_windows(text, duration_s, events or {}):
        found.append((pos, pos + len(phrase), _window(start, end, at, phrase, duration_s)))
        text = text.replace(phrase, " " * len(phrase), 1)
    for pattern, resolve in _RULES:
        for m in list(pattern.finditer(text)):
            spans = resolve(m, duration_s)
            for start, end, at in spans:
                if duration_s is not None and start >= duration_s > 0:
                    continue  # a time past the video's end points at nothing in it (its words stay used)
                found.append((m.start(), m.end(), _window(start, end, at, m.group(0).strip(), duration_s)))
            if spans:
                text = text[: m.start()] + " " * (m.end() - m.start()) + text[m.end() :]
    found.sort(key=lambda p: p[0])
    out: list[TimeWindow] = []
    for i, (start, end, w) in enumerate(found):
        after = found[i + 1] if i + 1 < len(found) else None  # a time in brackets after says it exactly
        if after is not None and _BRACKETED.fullmatch(said[end : after[0]] + "(" * after[2].phrase.startswith("(")):
            continue
        if _loose(w) and any(_clocked(o) and _one_sentence(said, start, o_start) for o_start, _, o in found):
            continue  # "near the end of the rabbit cartoon, around 2:15": the clock time says which part
        if w not in out:
            out.append(w)
    return out


def _loose(w: TimeWindow) -> bool:
    """A phrase that points at a part of the video without a number ('near the end', 'early on')."""
    return not re.search(r"\d", w.phrase)


def _clocked(w: TimeWindow) -> bool:
    """A phrase that names an instant by its clock time ('around 2:15', 'at 95 s')."""
    return w.at_s is not None and not _loose(w)


def _one_sentence(text: str, a: int, b: int) -> bool:
    return not re.search(r"[.?!;]", text[min(a, b) : max(a, b)])


#: What stands between a time phrase and a time in brackets after it in the same sentence, which says
#: it exactly: "just before the 2 minute mark (1:55)" (test19) points at 1:55, not at the two minutes
#: before it; "at the very start of turnstile_gazette (0:00)" at 0:00.
_BRACKETED = re.compile(r"[^?.;!()]*\(\s*")


def _window(start: float, end: float, at: float | None, phrase: str, duration: float | None) -> TimeWindow:
    if duration is not None:
        start, end = min(start, duration), min(end, duration)
        at = None if at is None else min(at, duration)
    return TimeWindow(round(start, 3), round(end, 3), phrase, None if at is None else round(at, 3))


def _event_windows(
    text: str, duration: float | None, events: Mapping[str, Sequence[float]]
) -> list[tuple[int, str, float, float, float | None]]:
    """Phrases anchored on an event: after/before/when the sign changes, the speaker starts, ..."""
    out = []
    patterns = {name: rf"(?:the\s+|a\s+|any\s+)?{_EVENT_SUBJECT}\s+{verb}" for name, verb in _EVENT_VERBS.items()}
    patterns.update(_SPEECH_EVENTS)
    for name, subject in patterns.items():
        times = sorted(events.get(name, ()))
        if not times:
            continue
        t = float(times[0])
        for m in re.finditer(_RELATION + rf"(?:{subject})", text):
            relation = m.group(1)
            end = duration if duration is not None else math.inf
            if relation in ("before", "until", "till", "by the time"):
                start, stop, at = 0.0, t, None
            elif relation in ("when", "as soon as", "right after", "just after", "while"):
                start, stop, at = max(0.0, t - POINT_HALF_WIDTH_S / 2), min(end, t + POINT_HALF_WIDTH_S), t
            else:  # after, since, once
                start, stop, at = t, end, None
            out.append((m.start(), m.group(0), start, max(start, stop), at))
    return out
