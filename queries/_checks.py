"""Checking a query function's arguments before any SQL runs, with messages that say what to do."""

import math
from typing import Any

from memory import Memory
from queries.errors import ParameterError, UnknownTrackError, UnknownVideoError
from queries.run import run_sql

MAX_K = 10_000


def number(name: str, value: Any, *, minimum: float | None = None, strict: bool = False) -> float:
    """`value` as a finite float, at least `minimum` (above it when `strict`)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ParameterError(f"{name} must be a number, got {value!r}")
    out = float(value)
    if not math.isfinite(out):
        raise ParameterError(f"{name} must be finite, got {value!r}")
    if minimum is not None and (out <= minimum if strict else out < minimum):
        raise ParameterError(f"{name} must be {'>' if strict else '>='} {minimum:g}, got {value!r}")
    return out


def optional_number(name: str, value: Any, *, minimum: float | None = None) -> float | None:
    return None if value is None else number(name, value, minimum=minimum)


def count(name: str, value: Any, *, maximum: int = MAX_K) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= maximum:
        raise ParameterError(f"{name} must be an integer from 1 to {maximum}, got {value!r}")
    return value


def text(name: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ParameterError(f"{name} must be a non-empty string, got {value!r}")
    return value


def video(memory: Memory, video_id: Any) -> str:
    """`video_id` if the memory holds that video; else UnknownVideoError naming some it does hold."""
    text("video_id", video_id)
    found = run_sql(memory, "SELECT count(*) AS n FROM videos WHERE video_id = ?", [video_id])
    if found["n"][0].as_py():
        return str(video_id)
    known = run_sql(memory, "SELECT video_id, path FROM videos ORDER BY ingested_at DESC, video_id LIMIT 5").to_pylist()
    if not known:
        raise UnknownVideoError(f"no video {video_id!r}: the memory {memory.uri} holds no videos; ingest one first")
    listing = ", ".join(f"{r['video_id']} ({r['path']})" for r in known)
    raise UnknownVideoError(
        f"no video {video_id!r} in {memory.uri}; it holds e.g. {listing} (see SELECT * FROM videos)"
    )


def track(memory: Memory, video_id: str, track_id: Any) -> int:
    """`track_id` if video `video_id` has that track; else UnknownTrackError naming the range it has."""
    if isinstance(track_id, bool) or not isinstance(track_id, int):
        raise ParameterError(f"track_id must be an integer, got {track_id!r}")
    row = run_sql(
        memory,
        "SELECT count(*) FILTER (WHERE track_id = ?) AS hit, count(*) AS n, min(track_id) AS lo, max(track_id) AS hi "
        "FROM tracks WHERE video_id = ?",
        [track_id, video_id],
    ).to_pylist()[0]
    if row["hit"]:
        return track_id
    if not row["n"]:
        raise UnknownTrackError(f"no track {track_id} in video {video_id}: it has no tracks (was tracking run?)")
    raise UnknownTrackError(
        f"no track {track_id} in video {video_id}; it has {row['n']} tracks with ids {row['lo']}..{row['hi']}"
    )
