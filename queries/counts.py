"""How many and with whom: instance counts per category and time window, and co-occurrence."""

import pyarrow as pa

from memory import Memory
from queries import _checks
from queries.errors import ParameterError
from queries.run import run_sql


def category_counts(memory: Memory, video_id: str | None = None) -> pa.Table:
    """Distinct instances (tracks) per category (columns video_id, category, instances, first_s,
    last_s, detections), for one video or all."""
    if video_id is None:
        return run_sql(memory, "SELECT * FROM category_counts ORDER BY video_id, category")
    vid = _checks.video(memory, video_id)
    return run_sql(memory, "SELECT * FROM category_counts WHERE video_id = ? ORDER BY category", [vid])


def instance_counts(memory: Memory, video_id: str, window_s: float = 60.0) -> pa.Table:
    """Per window of `window_s` seconds and category: distinct instances, the most visible at
    once, and boxes (columns video_id, window_start_s, window_end_s, category, instances,
    max_visible, detections). Windows with no detection are left out."""
    vid = _checks.video(memory, video_id)
    window = _checks.number("window_s", window_s, minimum=0, strict=True)
    return run_sql(memory, "SELECT * FROM instance_counts(?, window_s := ?)", [vid, window])


def cooccurrence(memory: Memory, video_id: str, category_a: str, category_b: str, gap_s: float = 1.0) -> pa.Table:
    """Intervals when both categories are visible at once (for the same category twice: two or more
    instances at once), merged when at most `gap_s` apart."""
    vid = _checks.video(memory, video_id)
    a, b = _checks.text("category_a", category_a), _checks.text("category_b", category_b)
    gap = _checks.number("gap_s", gap_s, minimum=0)
    return run_sql(memory, "SELECT * FROM cooccurrence(?, ?, ?, gap_s := ?)", [vid, a, b, gap])


def track_cooccurrence(memory: Memory, video_id: str, track_a: int, track_b: int, gap_s: float = 1.0) -> pa.Table:
    """Intervals when both tracks are visible at the same sampled times, merged when at most
    `gap_s` apart."""
    vid = _checks.video(memory, video_id)
    a, b = _checks.track(memory, vid, track_a), _checks.track(memory, vid, track_b)
    if a == b:
        raise ParameterError(f"track_cooccurrence needs two different tracks, got {a} twice")
    gap = _checks.number("gap_s", gap_s, minimum=0)
    return run_sql(memory, "SELECT * FROM track_cooccurrence(?, ?, ?, gap_s := ?)", [vid, a, b, gap])


def tracks_with(memory: Memory, video_id: str, track_id: int) -> pa.Table:
    """The other tracks seen together with `track_id`, most shared sampled frames first."""
    vid = _checks.video(memory, video_id)
    tid = _checks.track(memory, vid, track_id)
    return run_sql(memory, "SELECT * FROM tracks_with(?, ?)", [vid, tid])


def category_pairs(memory: Memory, video_id: str) -> pa.Table:
    """Which categories appear together (a category with itself: two or more instances at once)."""
    vid = _checks.video(memory, video_id)
    return run_sql(memory, "SELECT * FROM category_pairs(?)", [vid])
