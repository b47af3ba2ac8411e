"""Finding videos: by what a user names (an id, the path as ingested, a file name), their files for
tools that look at frames, what each model role did to them, and the memory's inventory.

Every caller above queries/ (the command line, the agents' tools, evaluation) finds videos here, so
that "which video is 'lobby.mp4'" has one answer everywhere.
"""

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memory import Memory
from queries import _checks
from queries.errors import UnknownVideoError
from queries.run import run_sql

__all__ = ["AmbiguousVideoError", "MemoryStatus", "VideoFile", "memory_status", "resolve_video", "role_states",
           "video_by_path", "video_files"]


class AmbiguousVideoError(UnknownVideoError):
    """What the user named matches several videos (the message lists their ids)."""


@dataclass(frozen=True)
class VideoFile:
    """An ingested video's file as stored (it may since have moved), and its length."""

    video_id: str
    path: str
    duration_s: float


def resolve_video(memory: Memory, ref: str) -> str:
    """The id of the one ingested ('ok') video that `ref` names: its id, its path as ingested (any
    spelling of it that resolves to the same file), its file name, or else that name without its
    type ('lobby' for lobby.mp4). UnknownVideoError when none
    does; AmbiguousVideoError when several do (two folders each with a 'clip.mp4')."""
    _checks.text("video", ref)
    rows = run_sql(
        memory,
        "SELECT DISTINCT video_id FROM videos WHERE status = 'ok' AND (video_id = ? OR path = ? OR path LIKE ?) "
        "ORDER BY video_id",
        [ref, str(Path(ref).expanduser().resolve()), f"%/{Path(ref).name}"],
    ).to_pylist()
    ids = [str(r["video_id"]) for r in rows]
    if not ids and ref == Path(ref).stem:  # 'lobby' for lobby.mp4: the name people say, without its type
        rows = run_sql(
            memory, "SELECT DISTINCT video_id, path FROM videos WHERE status = 'ok' AND path LIKE ? ORDER BY video_id",
            [f"%/{ref}.%"],
        ).to_pylist()
        ids = list(dict.fromkeys(str(r["video_id"]) for r in rows if Path(str(r["path"])).stem == ref))
    if len(ids) == 1:
        return ids[0]
    if not ids:
        raise UnknownVideoError(f"no ingested video matches {ref!r}: ingest it first (vidmem ingest {ref})")
    raise AmbiguousVideoError(f"{ref!r} matches several videos {ids}: give the video_id")


def video_by_path(memory: Memory, path: str | Path) -> str | None:
    """The id of the ingested ('ok') video stored under exactly this file, or None."""
    rows = run_sql(
        memory, "SELECT video_id FROM videos WHERE path = ? AND status = 'ok'", [str(Path(path).resolve())]
    ).to_pylist()
    return str(rows[0]["video_id"]) if rows else None


def video_files(memory: Memory, video_id: str | None = None) -> list[VideoFile]:
    """The file of video `video_id` (whatever its status), or of every ingested ('ok') video."""
    if video_id is None:
        sql, params = "SELECT video_id, path, duration_s FROM videos WHERE status = 'ok' ORDER BY path", []
    else:
        sql, params = "SELECT video_id, path, duration_s FROM videos WHERE video_id = ?", [video_id]
    return [VideoFile(str(r["video_id"]), str(r["path"]), float(r["duration_s"] or 0.0))
            for r in run_sql(memory, sql, params).to_pylist()]


def video_paths(memory: Memory, video_ids: "set[str] | list[str]") -> dict[str, str]:
    """The stored path of each of these videos (ids the memory lacks are left out)."""
    if not video_ids:
        return {}
    rows = run_sql(memory, "SELECT video_id, path FROM videos WHERE list_contains(?, video_id)", [sorted(video_ids)])
    return {str(r["video_id"]): str(r["path"]) for r in rows.to_pylist()}


def role_states(memory: Memory, video_id: str) -> dict[str, str]:
    """What each ingest role did to a video ('asr' -> 'ran', 'ocr' -> 'skipped: why'), from its
    `videos.roles` record; empty when the video or the record is missing or unreadable."""
    rows = run_sql(memory, "SELECT roles FROM videos WHERE video_id = ?", [video_id]).to_pylist()
    try:
        roles = json.loads(rows[0]["roles"]) if rows and rows[0]["roles"] else {}
    except ValueError:
        return {}
    return {str(k): str(v) for k, v in roles.items()} if isinstance(roles, dict) else {}


@dataclass(frozen=True)
class MemoryStatus:
    """What `vidmem info` shows: videos and hours, rows per table, each role's coverage and the
    reasons its runs failed or were skipped, and the files that failed."""

    ok: int
    failed: int
    hours: float
    rows: dict[str, int]
    roles: list[dict[str, Any]]  # role, videos, rows, failed, skipped, models
    role_problems: list[dict[str, Any]]  # role, status, reason, videos, example (a path)
    failures: list[dict[str, Any]]  # path, error


def memory_status(memory: Memory) -> MemoryStatus:
    """The inventory of a memory (see `MemoryStatus`)."""
    summary = run_sql(
        memory,
        "SELECT count(*) FILTER (status = 'ok') AS ok, count(*) FILTER (status = 'failed') AS failed, "
        "coalesce(sum(duration_s) FILTER (status = 'ok'), 0) / 3600 AS hours FROM videos",
    ).to_pylist()[0]
    roles = run_sql(
        memory,
        "SELECT role, count(*) FILTER (stored_at IS NOT NULL) AS videos, "
        "coalesce(sum(row_count), 0)::BIGINT AS rows, "
        "count(*) FILTER (status = 'failed') AS failed, count(*) FILTER (status = 'skipped') AS skipped, "
        "list(DISTINCT model ORDER BY model) FILTER (model IS NOT NULL) AS models "
        "FROM role_runs GROUP BY role ORDER BY role",
    ).to_pylist()
    problems = run_sql(
        memory,
        "SELECT r.role, r.status, r.reason, count(*) AS videos, min(v.path) AS example FROM role_runs r "
        "JOIN videos v USING (video_id) WHERE r.status <> 'ok' GROUP BY ALL ORDER BY r.role, r.status, r.reason",
    ).to_pylist()
    failures = run_sql(memory, "SELECT path, error FROM videos WHERE status = 'failed' ORDER BY path").to_pylist()
    return MemoryStatus(
        int(summary["ok"]), int(summary["failed"]), float(summary["hours"]), memory.table_counts(), roles, problems,
        failures,
    )
