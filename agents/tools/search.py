"""Finding text and frames in the memory: semantic search with injected encoders, keyword fallback.

The video tools share these lookups. Encoders come from `ctx.encoders` ('text' for sentence
embeddings, 'clip' for CLIP's text tower): objects with `encode(texts) -> array (n, d)` (unit rows)
and a `model` name matching the memory's `model` column, so that only vectors of the same model are
compared. When an encoder or its vectors are missing, callers get the reason to show the model.

Semantic search is `queries.search_texts` / `queries.search_frames`. Keyword search is our own:
it ranks by how many of the query's words occur (any of them), which suits the loose descriptions
models write, and can include actions and tracked objects. These are vidmem's own queries (bound
parameters, fixed shape), so they read through `ctx.memory` rather than through the guard, which is
for SQL a model wrote.
"""

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import queries
from agents.tools.base import ToolContext
from queries.errors import QueryError

__all__ = ["SOURCE_LABELS", "TEXT_SOURCES", "FrameHit", "TextHit", "frame_search", "keyword_search", "text_search"]

#: Tables with text a question may be about, and how an observation names each.
SOURCE_LABELS = {"transcript": "speech", "ocr_spans": "on-screen text", "captions": "caption"}
TEXT_SOURCES = tuple(SOURCE_LABELS)

_ITEMS = """
    SELECT video_id, 'transcript' AS source, segment_id AS item_id, start_s, end_s, text FROM transcript
    UNION ALL SELECT video_id, 'ocr_spans', span_id, start_s, end_s, text FROM ocr_spans
    UNION ALL SELECT video_id, 'captions', caption_id, start_s, end_s, text FROM captions
"""

_STOPWORDS = frozenset(
    re.findall(
        r"\w+",
        "a an the and or of to in on at is are was were be been it its this that what when where who why how "
        "does do did with for from by about there their they them he she his her you your i me my we our",
    )
)


@dataclass(frozen=True)
class TextHit:
    video_id: str
    source: str  # a key of SOURCE_LABELS, or 'actions' / 'tracks'
    start_s: float
    end_s: float
    text: str
    score: float

    def as_row(self) -> dict[str, Any]:
        return {
            "video_id": self.video_id,
            "source": self.source,
            "start_s": self.start_s,
            "end_s": self.end_s,
            "text": self.text,
            "score": round(self.score, 3),
        }


@dataclass(frozen=True)
class FrameHit:
    video_id: str
    frame_index: int
    t_s: float
    score: float


def scope(ctx: ToolContext, alias: str = "") -> tuple[str, list[Any]]:
    """A WHERE condition limiting rows to the question's video (if any), and its parameters."""
    if ctx.video_id is None:
        return "TRUE", []
    return f"{alias + '.' if alias else ''}video_id = ?", [ctx.video_id]


def text_search(
    ctx: ToolContext, query: str, *, sources: Sequence[str] = TEXT_SOURCES, k: int = 5, min_score: float = 0.15
) -> tuple[list[TextHit], str | None]:
    """The `k` texts most similar to `query` (`queries.search_texts`: cosine over text_embeddings,
    kept from `min_score` up, as sentence encoders give unrelated texts ~0-0.2), best first, and
    None; or no hits and why semantic search is unavailable."""
    encoder = ctx.encoders.get("text")
    if encoder is None:
        return [], "no text encoder is configured for semantic search"
    try:
        found = queries.search_texts(ctx.memory, encoder, query, k=k, video_id=ctx.video_id, sources=list(sources))
    except QueryError as exc:  # SearchUnavailable (no vectors of this model), unknown video
        return [], str(exc)
    hits = [TextHit(h.video_id, h.source, h.start_s, h.end_s, h.text, h.score) for h in found]
    return [h for h in hits if h.score >= min_score], None


def keywords(text: str) -> list[str]:
    """The words of `text` worth matching (no stopwords, at least 3 letters, at most 8)."""
    words = [w for w in re.findall(r"[\w']+", text.lower()) if len(w) >= 3 and w not in _STOPWORDS]
    return list(dict.fromkeys(words))[:8]


def keyword_search(
    ctx: ToolContext, query: str, *, sources: Sequence[str] = TEXT_SOURCES, k: int = 5, with_objects: bool = False
) -> list[TextHit]:
    """Texts sharing the most words with `query` (case-insensitive substrings), then by time.
    With `with_objects`, action labels and tracked objects (category, appearance) count too."""
    words = keywords(query)
    if not words:
        return []
    where, params = scope(ctx)
    parts = [f"SELECT * FROM ({_ITEMS}) WHERE source IN ({', '.join('?' for _ in sources)})"]
    part_params: list[Any] = list(sources)
    if with_objects:
        parts.append("SELECT video_id, 'actions', 0, start_s, end_s, label FROM actions")
        parts.append(
            "SELECT video_id, 'tracks', track_id, first_s, last_s, "
            "category || ' #' || track_id || coalesce(': ' || appearance, '') FROM tracks"
        )
    score = " + ".join("CASE WHEN contains(lower(text), ?) THEN 1 ELSE 0 END" for _ in words)
    rows = ctx.memory.query(
        f"""
        SELECT video_id, source, start_s, end_s, text, ({score}) AS score
        FROM ({" UNION ALL ".join(parts)}) AS items(video_id, source, item_id, start_s, end_s, text)
        WHERE {where}
        ORDER BY score DESC, start_s
        LIMIT ?
        """,
        [*words, *part_params, *params, k * 4],
    ).to_pylist()
    hits = [TextHit(**{**r, "score": r["score"] / len(words)}) for r in rows if r["score"] > 0]
    return hits[:k]


def frame_search(ctx: ToolContext, description: str, *, k: int = 5) -> tuple[list[FrameHit], str | None]:
    """The `k` frames whose CLIP embedding best matches `description` (`queries.search_frames`),
    and None; or no hits and why text-to-frame search is unavailable."""
    encoder = ctx.encoders.get("clip")
    if encoder is None:
        return [], "no CLIP encoder is configured"
    try:
        found = queries.search_frames(ctx.memory, encoder, description, k=k, video_id=ctx.video_id)
    except QueryError as exc:
        return [], str(exc)
    return [FrameHit(h.video_id, h.frame_index, h.t_s, h.score) for h in found], None


def merge_hits(*groups: Sequence[TextHit], k: int) -> list[TextHit]:
    """Hits from several searches, one per (video, source, start), best score first."""
    best: dict[tuple[str, str, float, str], TextHit] = {}
    for group in groups:
        for h in group:
            key = (h.video_id, h.source, round(h.start_s, 2), h.text)
            if key not in best or h.score > best[key].score:
                best[key] = h
    return sorted(best.values(), key=lambda h: (-h.score, h.start_s))[:k]
