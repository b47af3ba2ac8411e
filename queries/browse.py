"""Reads for browsing a memory page by page: the videos (filtered, paged in SQL), a video's tracks,
and the boxes of a time window. The web app (`vidmem serve`) shows what these return.
"""

from typing import Any

import pyarrow as pa

from memory import Memory
from queries import _checks
from queries.errors import ParameterError
from queries.run import run_sql

VIDEO_STATUSES = ("ok", "failed")
#: The longest window `detections_between` reads at once: a player asks for the next seconds,
#: and a busy hour holds hundreds of thousands of boxes.
MAX_WINDOW_S = 600.0

_VIDEO_COLUMNS = (
    "video_id, path, status, duration_s, width, height, fps, has_audio, size_bytes, roles, error, ingested_at"
)


def list_videos(
    memory: Memory, *, text: str | None = None, status: str | None = None, limit: int = 50, offset: int = 0
) -> tuple[pa.Table, int]:
    """One page of the memory's videos ordered by path, and how many match in all.

    `text` keeps videos whose path or id contains it (case-insensitive); `status` keeps 'ok' or
    'failed' ones. Columns: video_id, path, status, duration_s, width, height, fps, has_audio,
    size_bytes, roles (JSON: role -> what happened), error, ingested_at.

    >>> page, total = list_videos(memory, text="station", limit=20, offset=40)  # doctest: +SKIP
    """
    limit = _checks.count("limit", limit)
    if isinstance(offset, bool) or not isinstance(offset, int) or offset < 0:
        raise ParameterError(f"offset must be an integer >= 0, got {offset!r}")
    if status is not None and status not in VIDEO_STATUSES:
        raise ParameterError(f"status must be one of {list(VIDEO_STATUSES)}, got {status!r}")
    needle = text.strip().lower() if text and text.strip() else None
    where = (
        "(?::VARCHAR IS NULL OR contains(lower(path), ?) OR contains(lower(video_id), ?)) "
        "AND (?::VARCHAR IS NULL OR status = ?)"
    )
    params = [needle, needle, needle, status, status]
    total = run_sql(memory, f"SELECT count(*) AS n FROM videos WHERE {where}", params)["n"][0].as_py()
    rows = run_sql(
        memory,
        f"SELECT {_VIDEO_COLUMNS} FROM videos WHERE {where} ORDER BY path, video_id LIMIT ? OFFSET ?",
        [*params, limit, offset],
    )
    return rows, int(total)


def video_record(memory: Memory, video_id: str) -> dict[str, object]:
    """What the memory holds about one video (the columns of `list_videos`); UnknownVideoError if none."""
    vid = _checks.video(memory, video_id)
    return dict(run_sql(memory, f"SELECT {_VIDEO_COLUMNS} FROM videos WHERE video_id = ?", [vid]).to_pylist()[0])


def video_tracks(memory: Memory, video_id: str) -> pa.Table:
    """Every track of a video (columns track_id, category, first_s, last_s, num_detections,
    appearance), by category then first sighting."""
    vid = _checks.video(memory, video_id)
    return run_sql(
        memory,
        "SELECT track_id, category, first_s, last_s, num_detections, appearance FROM tracks WHERE video_id = ? "
        "ORDER BY category, first_s, track_id",
        [vid],
    )


def detections_between(memory: Memory, video_id: str, from_s: float, to_s: float) -> pa.Table:
    """The boxes (and mask outlines) of a video sampled between `from_s` and `to_s`, at most
    MAX_WINDOW_S apart (columns track_id, category, t_s, x1, y1, x2, y2, confidence, mask_polygon),
    in time order."""
    vid = _checks.video(memory, video_id)
    lo = _checks.number("from_s", from_s)
    hi = _checks.number("to_s", to_s)
    if hi < lo or hi - lo > MAX_WINDOW_S:
        raise ParameterError(f"to_s must be from from_s to from_s + {MAX_WINDOW_S:g}, got from_s={lo:g}, to_s={hi:g}")
    return run_sql(
        memory,
        "SELECT track_id, category, t_s, x1, y1, x2, y2, confidence, mask_polygon FROM detections "
        "WHERE video_id = ? AND t_s BETWEEN ? AND ? ORDER BY t_s, track_id",
        [vid, lo, hi],
    )


def track_best_box(memory: Memory, video_id: str, track_id: int) -> dict[str, Any] | None:
    """The box a track is best seen in (t_s, x1, y1, x2, y2, category): at its `best_t_s` when
    ingest chose one, else its most confident box; None when the track has no boxes."""
    rows = run_sql(
        memory,
        "SELECT d.t_s, d.x1, d.y1, d.x2, d.y2, t.category "
        "FROM tracks AS t JOIN detections AS d USING (video_id, track_id) WHERE t.video_id = ? AND t.track_id = ? "
        "ORDER BY abs(d.t_s - coalesce(t.best_t_s, d.t_s)), d.confidence DESC LIMIT 1",
        [video_id, track_id],
    ).to_pylist()
    return dict(rows[0]) if rows else None
