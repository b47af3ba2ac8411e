"""What happens when: a video's unified timeline, and speech or on-screen text near a time."""

from dataclasses import dataclass
from typing import Any

import pyarrow as pa

from memory import Memory
from queries import _checks
from queries.errors import ParameterError
from queries.run import run_sql


def video_timeline(
    memory: Memory, video_id: str, from_s: float | None = None, to_s: float | None = None
) -> pa.Table:
    """Every event of a video in time order: speech, on-screen text, captions, objects appearing
    and leaving, actions (see the `timeline` view for the columns). With `from_s`/`to_s`, only the
    events overlapping that span.

    >>> video_timeline(memory, "v1", from_s=10, to_s=20).to_pandas()  # doctest: +SKIP
    """
    vid = _checks.video(memory, video_id)
    lo = _checks.optional_number("from_s", from_s)
    hi = _checks.optional_number("to_s", to_s)
    if lo is not None and hi is not None and hi < lo:
        raise ParameterError(f"to_s must be >= from_s, got from_s={lo:g}, to_s={hi:g}")
    return run_sql(memory, "SELECT * FROM video_timeline(?, from_s := ?, to_s := ?)", [vid, lo, hi])


def speech_near(memory: Memory, video_id: str, t_s: float, window_s: float = 10.0) -> pa.Table:
    """Transcript segments within `window_s` seconds of `t_s` (columns video_id, segment_id,
    start_s, end_s, text, distance_s), in time order."""
    vid = _checks.video(memory, video_id)
    at = _checks.number("t_s", t_s)
    window = _checks.number("window_s", window_s, minimum=0)
    return run_sql(memory, "SELECT * FROM speech_near(?, ?, window_s := ?)", [vid, at, window])


def text_near(memory: Memory, video_id: str, t_s: float, window_s: float = 5.0) -> pa.Table:
    """On-screen text spans visible within `window_s` seconds of `t_s` (columns video_id, span_id,
    start_s, end_s, text, x1, y1, x2, y2, distance_s), in time order."""
    vid = _checks.video(memory, video_id)
    at = _checks.number("t_s", t_s)
    window = _checks.number("window_s", window_s, minimum=0)
    return run_sql(memory, "SELECT * FROM text_near(?, ?, window_s := ?)", [vid, at, window])


def video_overview(memory: Memory) -> pa.Table:
    """One row per video: duration and how many tracks, speech segments, text spans, captions and
    embedded frames the memory holds for it."""
    return run_sql(memory, "SELECT * FROM video_overview ORDER BY video_id")


def transcript_between(
    memory: Memory, video_id: str | None, from_s: float | None = None, to_s: float | None = None, *, limit: int = 200
) -> list[dict[str, Any]]:
    """Transcript segments (video_id, start_s, end_s, text) of one video or, with None, of every video,
    overlapping `from_s`..`to_s` when given, by video and time; at most `limit`."""
    span = from_s is not None and to_s is not None
    rows = run_sql(
        memory,
        "SELECT video_id, start_s, end_s, text FROM transcript WHERE (?::VARCHAR IS NULL OR video_id = ?) "
        f"{'AND end_s >= ? AND start_s <= ? ' if span else ''}ORDER BY video_id, start_s LIMIT ?",
        [video_id, video_id, *([from_s, to_s] if span else []), _checks.count("limit", limit)],
    )
    return rows.to_pylist()


@dataclass(frozen=True)
class SegmentContents:
    """What the memory holds over a time range: texts (video_id, source, start_s, end_s, text, from the
    `text_items` view), objects per category (video_id, category, n, first_s, last_s, looks: their
    appearances) and actions (video_id, track_id, label, start_s, end_s, category of the track)."""

    texts: list[dict[str, Any]]
    objects: list[dict[str, Any]]
    actions: list[dict[str, Any]]


def segment_contents(
    memory: Memory, video_id: str | None, from_s: float, to_s: float, *, max_texts: int = 100, max_actions: int = 40
) -> SegmentContents:
    """Speech, on-screen text, captions, tracked objects and actions overlapping `from_s`..`to_s` in
    one video or, with None, in every video (see `SegmentContents`)."""
    lo, hi = _checks.number("from_s", from_s), _checks.number("to_s", to_s)
    scope = [video_id, video_id]
    texts = run_sql(
        memory,
        "SELECT video_id, source, start_s, end_s, text FROM text_items WHERE (?::VARCHAR IS NULL OR video_id = ?) "
        "AND end_s >= ? AND start_s <= ? ORDER BY video_id, start_s LIMIT ?",
        [*scope, lo, hi, max_texts],
    ).to_pylist()
    objects = run_sql(
        memory,
        "SELECT video_id, category, count(*) AS n, min(first_s) AS first_s, max(last_s) AS last_s, "
        "string_agg(DISTINCT appearance, '; ') AS looks FROM tracks WHERE (?::VARCHAR IS NULL OR video_id = ?) "
        "AND last_s >= ? AND first_s <= ? GROUP BY video_id, category ORDER BY n DESC",
        [*scope, lo, hi],
    ).to_pylist()
    actions = run_sql(
        memory,
        "SELECT a.video_id, a.track_id, a.label, a.start_s, a.end_s, t.category FROM actions AS a "
        "LEFT JOIN tracks AS t ON t.video_id = a.video_id AND t.track_id = a.track_id "
        "WHERE (?::VARCHAR IS NULL OR a.video_id = ?) AND a.end_s >= ? AND a.start_s <= ? ORDER BY a.start_s LIMIT ?",
        [*scope, lo, hi, max_actions],
    ).to_pylist()
    return SegmentContents(texts, objects, actions)
