"""Search the archive as people see it: one ranked list of hits, each naming its file, time and kind.

`vidmem search`, the Search page and its JSON API show what `search_archive` returns: texts
(speech, on-screen text, captions) found by keyword and meaning together (`hybrid_search`, fused
by rank), then frames that look like the query (CLIP), whose scores are cosines and so are listed
after the texts rather than mixed with their rank scores. On-screen text that is likely OCR noise
(`queries.text_noise`: a lone glyph, a script the video does not use, one frame) is listed after the
other texts, with its reason. A kind of search that cannot run here (no
encoder, no embeddings of its model) is left out with a note saying why.
"""

from collections.abc import Sequence
from dataclasses import dataclass

from memory import Memory
from queries import _checks
from queries.errors import ParameterError, SearchUnavailable
from queries.search import Encoder, hybrid_search, search_frames
from queries.text_noise import noisy_spans
from queries.videos import video_paths

__all__ = ["KINDS", "SOURCE_OF_KIND", "ArchiveHit", "ArchiveSearch", "search_archive"]

#: What a hit can be, as people name it, and the table each text kind is read from.
SOURCE_OF_KIND = {"speech": "transcript", "text": "ocr_spans", "caption": "captions", "chapter": "summaries"}
KINDS = (*SOURCE_OF_KIND, "frame")
_KIND_OF_SOURCE = {source: kind for kind, source in SOURCE_OF_KIND.items()}


@dataclass(frozen=True)
class ArchiveHit:
    video_id: str
    path: str  # the file as ingested
    start_s: float
    end_s: float
    kind: str  # one of KINDS
    text: str  # empty for frames
    score: float  # texts: fused rank score (1.0 = first by every method); frames: CLIP cosine
    match: str  # 'keyword', 'semantic' or 'keyword+semantic'
    noise: str | None = None  # on-screen text that is likely OCR noise: why (listed after the other texts)


@dataclass(frozen=True)
class ArchiveSearch:
    hits: tuple[ArchiveHit, ...]
    notes: tuple[str, ...]  # each kind of search that did not run, and why


def search_archive(
    memory: Memory,
    query: str,
    *,
    text_encoder: Encoder | None = None,
    clip_encoder: Encoder | None = None,
    k: int = 10,
    video_id: str | None = None,
    kinds: Sequence[str] = KINDS,
) -> ArchiveSearch:
    """The best `k` texts for `query` and then the best `k` frames, of the kinds asked for, in one
    video or the whole archive.

    >>> search_archive(memory, "platform change", text_encoder=TextEncoder(), kinds=["speech"])  # doctest: +SKIP
    """
    _checks.text("query", query)
    k = _checks.count("k", k)
    vid = _checks.video(memory, video_id) if video_id is not None else None
    unknown = sorted(set(kinds) - set(KINDS))
    if unknown or not kinds:
        raise ParameterError(f"kinds must be some of {list(KINDS)}, got {list(kinds)!r}")
    notes: list[str] = []
    found: list[tuple[str, float, float, str, str, float, str, str | None]] = []
    sources = [SOURCE_OF_KIND[kind] for kind in SOURCE_OF_KIND if kind in kinds]
    if sources:
        result = hybrid_search(memory, query, encoder=text_encoder, k=k, video_id=vid, sources=sources)
        notes += result.notes
        shown = {h.hit.video_id for h in result.hits if h.hit.source == "ocr_spans"}
        noise = {v: noisy_spans(memory, v) for v in shown}
        texts = [(h.hit.video_id, h.hit.start_s, h.hit.end_s, _KIND_OF_SOURCE[h.hit.source], h.hit.text, h.score,
                  h.match, noise[h.hit.video_id].get(h.hit.item_id) if h.hit.source == "ocr_spans" else None)
                 for h in result.hits]  # fmt: skip
        found += sorted(texts, key=lambda f: f[7] is not None)  # stable: noise after the other texts
    if "frame" in kinds:
        if clip_encoder is None:
            notes.append("frame search: no CLIP encoder available here")
        else:
            try:
                frames = search_frames(memory, clip_encoder, query, k=k, video_id=vid)
                found += [(f.video_id, f.t_s, f.t_s, "frame", "", f.score, "semantic", None) for f in frames]
            except SearchUnavailable as exc:
                notes.append(f"frame search: {exc}")
    paths = video_paths(memory, {f[0] for f in found})
    hits = tuple(ArchiveHit(f[0], paths.get(f[0], ""), *f[1:]) for f in found)
    return ArchiveSearch(hits, tuple(notes))
