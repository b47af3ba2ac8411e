"""What happens when: a video's unified timeline, and speech or on-screen text near a time."""

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
