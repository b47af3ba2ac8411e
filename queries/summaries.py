"""What a video is about: its summary and chapters (the `summaries` role's rows), for the pages, the
MCP server, `vidmem ask` and people who ask "what is in this video".

    >>> s = video_summary(memory, "v0123456789abcdef")          # doctest: +SKIP
    >>> s.title, [c.title for c in s.chapters]                  # doctest: +SKIP
"""

from dataclasses import dataclass
from pathlib import Path

from memory import Memory
from queries.run import run_sql

__all__ = ["Chapter", "VideoSummary", "archive_summaries", "video_summary"]


@dataclass(frozen=True)
class Chapter:
    start_s: float
    end_s: float
    title: str
    text: str


@dataclass(frozen=True)
class VideoSummary:
    video_id: str
    path: str
    title: str  # one line
    text: str  # a few sentences
    model: str | None
    chapters: tuple[Chapter, ...]

    @property
    def file(self) -> str:
        return Path(self.path).name


def video_summary(memory: Memory, video_id: str) -> VideoSummary | None:
    """The summary and chapters of one video, or None when the summaries role has not run on it."""
    found = _summaries(memory, video_id)
    return found[0] if found else None


def archive_summaries(memory: Memory) -> dict[str, VideoSummary]:
    """Every summarized ('ok') video's summary and chapters, by video id."""
    return {s.video_id: s for s in _summaries(memory, None)}


def _summaries(memory: Memory, video_id: str | None) -> list[VideoSummary]:
    where, params = ("AND s.video_id = ?", [video_id]) if video_id else ("", [])
    rows = run_sql(
        memory,
        "SELECT s.video_id, v.path, s.level, s.start_s, s.end_s, s.title, s.text, s.model "
        "FROM summaries AS s JOIN videos AS v ON v.video_id = s.video_id AND v.status = 'ok' "
        f"WHERE true {where} ORDER BY v.path, s.video_id, s.level DESC, s.start_s, s.summary_id",
        params,
    ).to_pylist()
    out: list[VideoSummary] = []
    by_video: dict[str, list[dict[str, object]]] = {}
    for r in rows:
        by_video.setdefault(str(r["video_id"]), []).append(r)
    for vid, own in by_video.items():
        head = next((r for r in own if r["level"] == "video"), None)
        if head is None:
            continue
        chapters = tuple(
            Chapter(float(r["start_s"]), float(r["end_s"]), str(r["title"]), str(r["text"]))  # type: ignore[arg-type]
            for r in own if r["level"] == "chapter"
        )
        model = head["model"]
        out.append(VideoSummary(vid, str(head["path"]), str(head["title"]), str(head["text"]),
                                str(model) if model is not None else None, chapters))
    return out
