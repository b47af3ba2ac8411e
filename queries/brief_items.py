"""What the evidence brief is made of, and the text helpers every part of it shares.

`BriefItem` (one piece of evidence with the SQL that gives its rows again) and `VideoFacts` (what the
memory holds of one video), with the times and clipped texts items show and `recorded_sql`, which
writes an item's SQL with literal parameters. Kept apart from `queries.brief`, which builds the
brief, so that the parts that make items (`queries.brief_counts`) need nothing of the building.
"""

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from memory import Memory
from queries.errors import QueryError
from queries.run import run_sql
from queries.screen_places import ORDINALS
from queries.search import SOURCE_LABELS, TextHit
from queries.time_phrases import number_words_to_digits

__all__ = ["TEXT_CHARS", "BriefItem", "VideoFacts", "clip_text", "hit_item", "labelled_line", "recorded_sql",
           "seconds_text", "span_text"]

#: The longest text an item shows.
TEXT_CHARS = 160


@dataclass(frozen=True)
class BriefItem:
    """One piece of evidence: what kind, when, what it says, how strongly it matched, and the SQL
    that gives its rows.

    kind: 'hit' (a search hit), 'window' (rows inside a time window of the question), 'visible'
    (when an object category is visible), 'count' (objects counted at a time or in a window),
    'row' (the rest of a short video's text).
    """

    kind: str
    video_id: str
    start_s: float | None
    end_s: float | None
    text: str  # one line for the prompt (no video text beyond `rows`' texts)
    score: float
    sql: str
    rows: tuple[dict[str, Any], ...] = ()
    source: str | None = None  # 'transcript' | 'ocr_spans' | 'captions' for hits and rows
    item_id: int | None = None  # segment_id / span_id / caption_id
    match: float = 0.0  # hits: how well the text matches the question (`_relevance`, 0-1)
    place: str | None = None  # on-screen text: where on the frame ('top', 'middle', 'bottom'; `screen_place`)
    #: on-screen text: which line at its place, from the top (1, 2, ...), when other text is shown there
    #: at the same time ("the second line under the top sign"); None when it is alone there
    line: int | None = None
    noise: str | None = None  # on-screen text that is likely OCR noise: why (`queries.text_noise`)
    context: str | None = None  # a hit: what the other of speech and on-screen text held at its time
    anchor: str | None = None  # an order item found next to another line ("what comes after X"): X's text
    #: an order item of two lines compared in time: 'first' or 'last' (the one asked for of "which comes first,
    #: A or B?"), 'not first' / 'not last' (the other), 'before' or 'after' (A of "was A before or after B?")
    compared: str | None = None

    def overlaps(self, start_s: float | None, end_s: float | None) -> bool:
        """Whether the item's span meets start_s..end_s (False when either has no times)."""
        if start_s is None or end_s is None or self.start_s is None or self.end_s is None:
            return False
        return self.start_s <= end_s and self.end_s >= start_s

    @property
    def place_text(self) -> str | None:
        """Where on the frame, as a rendering shows it: 'top', 'top, second line, below the first line'."""
        if self.place is None or self.line is None:
            return self.place
        nth = ORDINALS.get(self.line, f"line {self.line}")
        return f"{self.place}, {nth}" + (", below the first line" if self.line > 1 else "")

    @property
    def row_text(self) -> str:
        """The video text of its rows, else its prompt line (a count, a visibility span)."""
        return " ".join(str(r.get("text", "")) for r in self.rows) or self.text

    @property
    def row_keys(self) -> tuple[tuple[str, str, int], ...]:
        """(video_id, table, id) of every text row this item shows."""
        out = []
        if self.source is not None and self.item_id is not None:
            out.append((self.video_id, self.source, self.item_id))
        for r in self.rows:
            if r.get("source") in SOURCE_LABELS and r.get("item_id") is not None:
                out.append((str(r.get("video_id", self.video_id)), str(r["source"]), int(r["item_id"])))
        return tuple(dict.fromkeys(out))


@dataclass(frozen=True)
class VideoFacts:
    """What the memory holds of one video, counted: its length, tracked objects, text rows, and the
    times of events that time phrases anchor on ('text_change', 'speech_start', ...)."""

    video_id: str
    duration_s: float | None
    categories: list[str]  # detector categories, most instances first
    instances: dict[str, int]
    text_rows: int  # transcript segments + on-screen text spans + captions
    speech: int
    spans: int
    events: dict[str, list[float]]
    file: str = ""  # the video's file name, as people name the video
    summary: str = ""  # the summaries role's one-line title and summary ("" when it has not run)
    #: The different on-screen texts (compared without case, spaces or punctuation), likely noise
    #: left out, each with its first start and last end: (text, first_s, last_s), in time order.
    texts: tuple[tuple[str, float, float], ...] = ()
    noise: int = 0  # on-screen text rows that are likely OCR noise (kept in the memory, left out above)
    #: Why the memory holds no speech / no on-screen text of the video when nothing read it: role ->
    #: reason ('asr' -> 'no audio track', 'ocr' -> 'it has not run'). Absent when the role ran, so
    #: that "no speech" is told apart from "never listened to".
    unread: Mapping[str, str] = field(default_factory=dict)
    has_audio: bool | None = None  # whether the file has an audio stream (None: not known)


def seconds_text(t: float | None) -> str:
    """A time for people: whole seconds when near one, else one decimal; '?' when unknown.

    >>> seconds_text(3.0), seconds_text(3.04), seconds_text(12.25), seconds_text(None)
    ('3 s', '3 s', '12.2 s', '?')
    """
    if t is None or (isinstance(t, float) and math.isnan(t)):
        return "?"
    return f"{t:.1f}".rstrip("0").rstrip(".") + " s" if abs(t - round(t)) >= 0.05 else f"{round(t)} s"


def span_text(start: float | None, end: float | None) -> str:
    """A time span for people: '2-10 s', one time when it is an instant, 'whole video' without a start.

    >>> span_text(2.0, 10.0), span_text(0.7, 3.7), span_text(5.0, 5.0), span_text(None, None)
    ('2-10 s', '0.7-3.7 s', '5 s', 'whole video')
    """
    if start is None:
        return "whole video"
    if end is None or abs(end - start) < 0.05:
        return seconds_text(start)
    return f"{seconds_text(start)[:-2]}-{seconds_text(end)}"


def clip_text(text: str, n: int = TEXT_CHARS) -> str:
    """`text` on one line, cut to `n` characters (ending "...") when longer.

    >>> clip_text("PLATFORM 9\\n EXIT"), clip_text("a" * 10, 8)
    ('PLATFORM 9 EXIT', 'aaaaa...')
    """
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 3] + "..."


def _lit(value: Any) -> str:
    """A SQL literal for a recorded (never executed by us) statement."""
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_lit(v) for v in value) + "]"
    return "'" + str(value).replace("'", "''") + "'"


def recorded_sql(template: str, *params: Any) -> str:
    """`template` with each `?` replaced by its parameter as a SQL literal: an item's SQL, to be pasted
    into `vidmem sql`.

    >>> recorded_sql("SELECT * FROM when_visible(?, ?, gap_s := ?)", "v1", "person", 1.0)
    "SELECT * FROM when_visible('v1', 'person', gap_s := 1.0)"
    """
    parts = template.split("?")
    if len(parts) != len(params) + 1:
        raise QueryError(f"recorded SQL has {len(parts) - 1} placeholders for {len(params)} values", sql=template)
    out = parts[0]
    for value, rest in zip(params, parts[1:], strict=True):
        out += _lit(value) + rest
    return out


#: The memory's row behind a search hit, for a hit item's recorded SQL.
_HIT_SQL = "SELECT * FROM text_items WHERE video_id = ? AND source = ? AND item_id = ?"


def _hit_row(hit: TextHit) -> dict[str, Any]:
    """A search hit as the `text_items` row it came from."""
    return {"video_id": hit.video_id, "source": hit.source, "item_id": hit.item_id, "start_s": hit.start_s,
            "end_s": hit.end_s, "text": hit.text}


def labelled_line(text: str) -> tuple[str, str]:
    """A hit item's prompt line (`hit_item`) split at the first ': "': its label and the rest (the line, with
    its closing quote); the line itself may hold ': ' ("Change of plan: ..."). ('', '') parts when absent.

    >>> labelled_line('speech 2 of 5: "Change of plan: now at two."')
    ('speech 2 of 5', 'Change of plan: now at two."')
    """
    label, _, rest = text.partition(': "')
    return label, rest


def shown_line(item: BriefItem) -> str:
    """The line's words as the brief shows it: the quoted text of its label (with the row that goes on
    from a line speech recognition cut, `queries.brief._finished`), else its rows'."""
    quoted = labelled_line(item.text)[1]
    return quoted.partition('" (')[0].rstrip('"') if quoted else item.row_text


#: Speech with a shorter pause than this is one turn: a recogniser splits one announcement into
#: several segments (a long sentence, a breath), and announcements are set apart by longer pauses.
TURN_PAUSE_S = 1.5

#: Whisper cuts long sentences into rows: a row that starts within this many seconds of the end of one that stops
#: mid-sentence (`ends_sentence`) goes on with its sentence.
GOES_ON_S = 0.5


def numbers_of(text: str) -> set[str]:
    """The numbers of `text`, in digits or words, without leading zeros (a sign's 09:40 is speech's 9:40)."""
    return {n.lstrip("0") or "0" for n in re.findall(r"\d+", number_words_to_digits(text))}


def ends_sentence(text: str) -> bool:
    """Whether a speech row ends its sentence ('.', '?' or '!' last)."""
    return text.rstrip()[-1:] in (".", "?", "!")


#: A sentence that starts with a pronoun refers back to the one before it.
_REFERS_BACK = re.compile(r"\s*(?:it|its|they|their|them|he|his|she|her|this|that|these|those)\b", re.I)

_NEXT_SAID_SQL = (
    "SELECT text FROM transcript WHERE video_id = ? AND start_s >= ? AND start_s <= ? ORDER BY start_s LIMIT 1"
)


def goes_on(memory: Memory, video_id: str, text: str, end_s: float) -> str:
    """A speech row's `text` (ending at `end_s`), with the row that goes on from it when it stops mid-sentence
    and that row starts as it ends: Whisper cuts long sentences into rows, and the cut can fall before what
    is asked ("Please note a change. The awards ceremony" / "has moved from 1:30 to 2:15")."""
    text = " ".join(text.split())
    if not text:
        return text
    # a finished line goes on only with a sentence of its turn that refers back to it: trial 13's "who is going
    # to lead the first tour of the science wing?" found "The first tour on the Science Wing leads from the
    # Library Steps at 10.15.", its guide named in the next, "It will be led by Mrs. ..."
    finished = ends_sentence(text)
    rows = run_sql(memory, _NEXT_SAID_SQL, [video_id, end_s - 0.05, end_s + (TURN_PAUSE_S if finished else GOES_ON_S)]
                   ).to_pylist()
    if finished and rows and not _REFERS_BACK.match(str(rows[0]["text"])):
        rows = []
    return f"{text} {' '.join(str(rows[0]['text']).split())}" if rows else text


def hit_item(
    kind: str, hit: TextHit, score: float, label: str = "", match: float = 0.0, compared: str | None = None
) -> BriefItem:
    """A search hit as a brief item of `kind`: '<source> <label>: "<text>"' with its row and SQL."""
    said = f"{SOURCE_LABELS[hit.source]} {label}".rstrip()
    return BriefItem(kind, hit.video_id, hit.start_s, hit.end_s, f'{said}: "{clip_text(hit.text)}"', score,
                     recorded_sql(_HIT_SQL, hit.video_id, hit.source, hit.item_id), (_hit_row(hit),), hit.source,
                     hit.item_id, match, compared=compared)
