"""Finding text and frames for the video tools: semantic search with injected encoders, word search
as the fallback, each returning `queries`' hit types.

Encoders come from `ctx.encoders` ('text' for sentence embeddings, 'clip' for CLIP's text tower):
objects with `encode(texts) -> array (n, d)` (unit rows) and a `model` name matching the memory's
`model` column, so that only vectors of the same model are compared. When an encoder or its vectors
are missing, callers get the reason to show the model. The reads are queries/'s (`search_texts`,
`search_frames`, `word_search`); this module only picks encoders, thresholds and merges.
"""

from collections.abc import Sequence
from typing import Any

import queries
from agents.tools.base import ToolContext
from queries.errors import QueryError
from queries.search import SOURCE_LABELS, TEXT_SOURCES, FrameHit, TextHit

__all__ = ["SOURCE_LABELS", "TEXT_SOURCES", "frame_search", "hit_row", "keyword_search", "merge_hits", "text_search"]


def hit_row(hit: TextHit) -> dict[str, Any]:
    """A hit as an evidence row (the score rounded for reading)."""
    return {"video_id": hit.video_id, "source": hit.source, "start_s": hit.start_s, "end_s": hit.end_s,
            "text": hit.text, "score": round(hit.score, 3)}


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
    return [h for h in found if h.score >= min_score], None


def keyword_search(
    ctx: ToolContext, query: str, *, sources: Sequence[str] = TEXT_SOURCES, k: int = 5, with_objects: bool = False
) -> list[TextHit]:
    """Texts sharing the most words with `query` in the question's video (`queries.word_search`).
    With `with_objects`, action labels and tracked objects (category, appearance) count too."""
    return queries.word_search(
        ctx.memory, query, k=k, video_id=ctx.video_id, sources=sources, with_objects=with_objects
    )


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
    return found, None


def merge_hits(*groups: Sequence[TextHit], k: int) -> list[TextHit]:
    """Hits from several searches, one per (video, source, start), best score first."""
    best: dict[tuple[str, str, float, str], TextHit] = {}
    for group in groups:
        for h in group:
            key = (h.video_id, h.source, round(h.start_s, 2), h.text)
            if key not in best or h.score > best[key].score:
                best[key] = h
    return sorted(best.values(), key=lambda h: (-h.score, h.start_s))[:k]
