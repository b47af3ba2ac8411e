"""Where and when objects are: visible intervals of a category or a track, and a track's position."""

from dataclasses import dataclass

import pyarrow as pa

from memory import Memory
from queries import _checks
from queries.run import run_sql


@dataclass(frozen=True)
class TrackPosition:
    """A track's box at one time, in pixels, interpolated between the sampled boxes around it."""

    video_id: str
    track_id: int
    category: str
    t_s: float
    x1: float
    y1: float
    x2: float
    y2: float
    before_s: float  # the sampled box at or before t_s
    after_s: float  # the sampled box at or after t_s

    @property
    def center(self) -> tuple[float, float]:
        return (self.x1 + self.x2) / 2, (self.y1 + self.y2) / 2

    @property
    def interpolated(self) -> bool:
        return self.before_s != self.after_s


def when_visible(memory: Memory, video_id: str, category: str, gap_s: float = 1.0) -> pa.Table:
    """Intervals when any instance of `category` is visible; sampled times at most `gap_s` apart
    merge (columns video_id, category, interval_id, start_s, end_s, duration_s, frames, instances,
    max_visible). An absent category gives no rows.

    >>> when_visible(memory, "v1", "person", gap_s=2.0).to_pylist()[0]  # doctest: +SKIP
    {'video_id': 'v1', 'category': 'person', 'interval_id': 1, 'start_s': 0.0, 'end_s': 4.0, ...}
    """
    vid = _checks.video(memory, video_id)
    cat = _checks.text("category", category)
    gap = _checks.number("gap_s", gap_s, minimum=0)
    return run_sql(memory, "SELECT * FROM when_visible(?, ?, gap_s := ?)", [vid, cat, gap])


def when_track_visible(memory: Memory, video_id: str, track_id: int, gap_s: float = 1.0) -> pa.Table:
    """Intervals when track `track_id` is visible, merged when at most `gap_s` apart (columns
    video_id, track_id, category, interval_id, start_s, end_s, duration_s, frames)."""
    vid = _checks.video(memory, video_id)
    tid = _checks.track(memory, vid, track_id)
    gap = _checks.number("gap_s", gap_s, minimum=0)
    return run_sql(memory, "SELECT * FROM when_track_visible(?, ?, gap_s := ?)", [vid, tid, gap])


def track_position(memory: Memory, video_id: str, track_id: int, t_s: float) -> TrackPosition | None:
    """The box of `track_id` at `t_s`, linearly interpolated between its sampled boxes; None when
    `t_s` is outside the track's lifetime.

    >>> track_position(memory, "v1", 3, 2.5).center  # doctest: +SKIP
    (125.0, 60.0)
    """
    vid = _checks.video(memory, video_id)
    tid = _checks.track(memory, vid, track_id)
    at = _checks.number("t_s", t_s)
    rows = run_sql(memory, "SELECT * FROM track_position(?, ?, ?)", [vid, tid, at]).to_pylist()
    if not rows:
        return None
    row = rows[0]
    fields = ("video_id", "track_id", "category", "t_s", "x1", "y1", "x2", "y2", "before_s", "after_s")
    return TrackPosition(**{k: row[k] for k in fields})


def tracks_at(memory: Memory, video_id: str, t_s: float) -> pa.Table:
    """Every track alive at `t_s` with its interpolated box (columns as `track_position`, plus
    cx, cy and interpolated), ordered by track_id."""
    vid = _checks.video(memory, video_id)
    at = _checks.number("t_s", t_s)
    return run_sql(memory, "SELECT * FROM tracks_at(?, ?)", [vid, at])


def seen_at(memory: Memory, video_id: str, t_s: float) -> pa.Table:
    """The objects found in the detected frame nearest `t_s` (a sample the detector skipped has only
    interpolated boxes) with the confidence that starts a track, ordered by track_id: what can be
    seen then (for counting; `tracks_at` also has the occluded)."""
    vid = _checks.video(memory, video_id)
    at = _checks.number("t_s", t_s)
    return run_sql(memory, "SELECT * FROM seen_at(?, ?)", [vid, at])


def track_path(memory: Memory, video_id: str, track_id: int) -> pa.Table:
    """The sampled boxes of a track in time order, with centres cx, cy: its trajectory."""
    vid = _checks.video(memory, video_id)
    tid = _checks.track(memory, vid, track_id)
    return run_sql(memory, "SELECT * FROM track_path(?, ?)", [vid, tid])
