"""Search the memory by meaning (embeddings) and by keyword.

- `search_texts` / `search_transcript`: a question against sentence embeddings of transcript
  segments, on-screen text spans and captions (`text_embeddings`, filled at ingest).
- `search_frames`: text-to-frame (CLIP's text tower) or image-to-frame (CLIP's image tower, or any
  vector of the same model) against `frame_embeddings`; `frames_like`: by example, from a frame
  already in the memory.
- `keyword_search`: BM25 full-text search where DuckDB's fts extension works, substring otherwise.
- `hybrid_search`: both, fused by rank (`fuse_ranks`), with a note for each method that could not run.

The query-side encoder is injected (an `Encoder`: `ingest.models.encoders.TextEncoder`,
`ingest.models.encoders.ClipTextEncoder`, or anything with a `model` name and an `encode` method), so this
package never loads a model itself. Its `model` must be the name stored in the rows' `model` column.
"""

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol, runtime_checkable

import numpy as np
import pyarrow as pa

from memory import Memory
from queries import _checks
from queries._state import memory_fingerprint
from queries.errors import ParameterError, QueryError, SearchUnavailable
from queries.question_words import STOPWORDS
from queries.run import run_sql
from queries.text_index import keyword_rows
from queries.vector_index import Source, cached_matrix, hnsw_top_k, normalize, stored_models, top_k, vector_matrix

log = logging.getLogger(__name__)

#: Tables with text a question may be about, and how answers and pages name each.
SOURCE_LABELS = {"transcript": "speech", "ocr_spans": "on-screen text", "captions": "caption", "summaries": "chapter"}
TEXT_SOURCES = tuple(SOURCE_LABELS)

#: Times and texts of a few (video_id, source, item_id) keys, from the one view of all text.
_TEXT_LOOKUP = """
WITH hits AS (
    SELECT unnest(?::VARCHAR[]) AS video_id, unnest(?::VARCHAR[]) AS source, unnest(?::INTEGER[]) AS item_id
)
SELECT i.video_id, i.source, i.item_id, i.start_s, i.end_s, i.text FROM text_items AS i
SEMI JOIN hits AS h ON i.video_id = h.video_id AND i.source = h.source AND i.item_id = h.item_id
"""
Method = Literal["auto", "sql", "matrix", "hnsw"]


@runtime_checkable
class Encoder(Protocol):
    """Turns query texts into vectors comparable with stored ones (same `model`)."""

    @property
    def model(self) -> str:
        """The model's name exactly as stored in `text_embeddings.model` / `frame_embeddings.model`."""
        ...

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """One L2-normalized float32 row per text."""
        ...


@dataclass(frozen=True)
class TextHit:
    """A transcript segment, on-screen text span or caption that matched, with its score."""

    video_id: str
    source: str  # 'transcript' | 'ocr_spans' | 'captions'; `word_search` also 'actions' | 'tracks'
    item_id: int  # segment_id / span_id / caption_id (a track's id for 'tracks', 0 for 'actions')
    start_s: float
    end_s: float
    text: str
    score: float  # cosine similarity, or BM25 / occurrence count for keyword search


@dataclass(frozen=True)
class FrameHit:
    """A sampled frame that matched, with its cosine similarity to the query."""

    video_id: str
    frame_index: int
    t_s: float
    score: float


def search_texts(
    memory: Memory,
    encoder: Encoder,
    query: str | np.ndarray,
    *,
    k: int = 10,
    video_id: str | None = None,
    sources: Sequence[str] | None = None,
    method: Method = "auto",
) -> list[TextHit]:
    """The `k` texts most similar in meaning to `query` (a question, or a vector of the encoder's
    model), best first; in one video and some of 'transcript', 'ocr_spans', 'captions' when given.

    >>> search_texts(memory, TextEncoder(), "when does the train depart?", k=3)  # doctest: +SKIP
    [TextHit(video_id='v1', source='transcript', item_id=0, start_s=2.0, ...)]
    """
    k = _checks.count("k", k)
    vid = _checks.video(memory, video_id) if video_id is not None else None
    srcs = _sources(sources)
    fingerprint = memory_fingerprint(memory)
    model = _model(memory, "text_embeddings", encoder, fingerprint)
    vec = _query_vector(encoder, query)
    if method == "hnsw":
        raise ParameterError("method 'hnsw' is only available for frames; use 'auto', 'sql' or 'matrix'")
    if method == "auto":
        method = _auto(memory, "texts", model, vid, fingerprint)
    if method == "sql":
        rows = run_sql(
            memory,
            "SELECT * FROM similar_texts(?::FLOAT[], k := ?, vid := ?, sources := ?::VARCHAR[], model_name := ?)",
            [vec.tolist(), k, vid, srcs, model],
        )
        return [_text_hit(r) for r in rows.to_pylist()]
    matrix = vector_matrix(memory, "texts", model, fingerprint)
    keys = matrix.keys
    mask = _mask(keys, vid, "source", srcs)
    rows_idx, scores = top_k(matrix.vectors, vec, k, mask)
    picked = keys.take(pa.array(rows_idx, pa.int64()))
    texts = run_sql(
        memory,
        _TEXT_LOOKUP,
        [picked["video_id"].to_pylist(), picked["source"].to_pylist(), picked["item_id"].to_pylist()],
    ).to_pylist()
    by_key = {(r["video_id"], r["source"], r["item_id"]): r for r in texts}
    hits = []
    keys_picked = zip(*(picked[c].to_pylist() for c in ("video_id", "source", "item_id")), strict=True)
    for key, score in zip(keys_picked, scores, strict=True):
        row = by_key.get(key, {"start_s": float("nan"), "end_s": float("nan"), "text": ""})
        hits.append(TextHit(key[0], key[1], int(key[2]), row["start_s"], row["end_s"], row["text"], float(score)))
    return hits


def search_transcript(
    memory: Memory, encoder: Encoder, query: str | np.ndarray, *, k: int = 10, video_id: str | None = None
) -> list[TextHit]:
    """`search_texts` over transcript segments only: where something like `query` is said."""
    return search_texts(memory, encoder, query, k=k, video_id=video_id, sources=["transcript"])


def has_frame_vectors(memory: Memory) -> bool:
    """Whether the memory holds any CLIP frame embedding (`search_frames` has something to search)."""
    return bool(run_sql(memory, "SELECT EXISTS (SELECT 1 FROM frame_embeddings) AS found").column("found")[0].as_py())


def search_frames(
    memory: Memory,
    encoder: Encoder,
    query: str | np.ndarray,
    *,
    k: int = 10,
    video_id: str | None = None,
    method: Method = "auto",
) -> list[FrameHit]:
    """The `k` frames most similar to `query`: a text (encoded with `encoder`, CLIP's text tower)
    or a vector of the same model (e.g. an image through CLIP's image tower), best first.

    method: 'sql' (exact, in DuckDB), 'matrix' (exact, in-process NumPy copy of the embeddings,
    loaded on first use), 'hnsw' (approximate, when `build_frame_index` made one), 'auto' (all
    videos: hnsw when current, else matrix; one video: matrix when loaded, else sql).
    """
    k = _checks.count("k", k)
    vid = _checks.video(memory, video_id) if video_id is not None else None
    fingerprint = memory_fingerprint(memory)
    model = _model(memory, "frame_embeddings", encoder, fingerprint)
    vec = _query_vector(encoder, query)
    if method == "hnsw" or (method == "auto" and vid is None):
        rows = hnsw_top_k(memory, model, vec, k, fingerprint) if vid is None else None
        if rows is not None:
            return [FrameHit(r["video_id"], r["frame_index"], r["t_s"], float(r["score"])) for r in rows.to_pylist()]
        if method == "hnsw":
            raise SearchUnavailable(
                f"no current HNSW index over {model} frames: build one with queries.build_frame_index"
            )
    if method == "auto":
        method = _auto(memory, "frames", model, vid, fingerprint)
    if method == "sql":
        rows = run_sql(
            memory,
            "SELECT * FROM similar_frames(?::FLOAT[], k := ?, vid := ?, model_name := ?)",
            [vec.tolist(), k, vid, model],
        )
        return [FrameHit(r["video_id"], r["frame_index"], r["t_s"], float(r["score"])) for r in rows.to_pylist()]
    matrix = vector_matrix(memory, "frames", model, fingerprint)
    rows_idx, scores = top_k(matrix.vectors, vec, k, _mask(matrix.keys, vid, None, None))
    picked = matrix.keys.take(pa.array(rows_idx, pa.int64())).to_pylist()
    return [FrameHit(r["video_id"], r["frame_index"], r["t_s"], float(s)) for r, s in zip(picked, scores, strict=True)]


def frames_like(memory: Memory, video_id: str, t_s: float, *, k: int = 10) -> list[FrameHit]:
    """Search by example: the `k` frames (any video) most like the embedded frame of `video_id`
    nearest to `t_s`, that frame left out. No model needed: the stored vector is the query."""
    vid = _checks.video(memory, video_id)
    at = _checks.number("t_s", t_s)
    k = _checks.count("k", k)
    probe = run_sql(memory, "SELECT count(*) AS n FROM frame_embeddings WHERE video_id = ?", [vid])
    if not probe["n"][0].as_py():
        raise SearchUnavailable(f"video {vid} has no frame embeddings (was the clip role run?)")
    rows = run_sql(memory, "SELECT * FROM frames_like(?, ?, k := ?)", [vid, at, k])
    return [FrameHit(r["video_id"], r["frame_index"], r["t_s"], float(r["score"])) for r in rows.to_pylist()]


def keyword_search(
    memory: Memory,
    query: str,
    *,
    k: int = 10,
    video_id: str | None = None,
    sources: Sequence[str] | None = None,
    match: Literal["all", "any"] = "all",
) -> list[TextHit]:
    """Texts containing the words of `query`, best first: BM25 ranking (stemmed, stop words
    dropped) through DuckDB's full-text index when it is available and current; otherwise every
    word must occur as a case-insensitive substring, ranked by occurrences (logged once). With
    `match='any'` the substring fallback keeps texts holding any of the words, most words first
    (as BM25 does), which suits a whole question as the query."""
    _checks.text("query", query)
    k = _checks.count("k", k)
    vid = _checks.video(memory, video_id) if video_id is not None else None
    if match not in ("all", "any"):
        raise ParameterError(f"match must be 'all' or 'any', got {match!r}")
    rows, method = keyword_rows(memory, query, k=k, video_id=vid, sources=_sources(sources), match=match)
    log.debug("keyword search %r by %s: %d rows", query, method, rows.num_rows)
    return [_text_hit(r) for r in rows.to_pylist()]


def search_words(text: str) -> list[str]:
    """The words of `text` worth matching: no stop words, at least 3 letters, at most 8.

    >>> search_words("When does the red train leave the station?")
    ['red', 'train', 'leave', 'station']
    """
    words = [w for w in re.findall(r"[\w']+", text.lower()) if len(w) >= 3 and w not in STOPWORDS]
    return list(dict.fromkeys(words))[:8]


def word_search(
    memory: Memory,
    query: str,
    *,
    k: int = 5,
    video_id: str | None = None,
    sources: Sequence[str] = TEXT_SOURCES,
    with_objects: bool = False,
) -> list[TextHit]:
    """Texts holding the most of the words of `query` (`search_words`; case-insensitive substrings),
    then by time; the score is the share of the words found. Loose by design, for the descriptions
    models write. With `with_objects`, action labels ('actions') and tracked objects ('tracks': the
    category, id and appearance) count too. No index needed, so it works on any memory."""
    words = search_words(query)
    if not words:
        return []
    k = _checks.count("k", k)
    srcs = _sources(sources) or list(TEXT_SOURCES)
    parts = [f"SELECT video_id, source, item_id, start_s, end_s, text FROM text_items "
             f"WHERE source IN ({', '.join('?' for _ in srcs)})"]
    if with_objects:
        parts.append("SELECT video_id, 'actions', 0, start_s, end_s, label FROM actions")
        parts.append(
            "SELECT video_id, 'tracks', track_id, first_s, last_s, "
            "category || ' #' || track_id || coalesce(': ' || appearance, '') FROM tracks"
        )
    score = " + ".join("CASE WHEN contains(lower(text), ?) THEN 1 ELSE 0 END" for _ in words)
    rows = run_sql(
        memory,
        f"""
        SELECT video_id, source, item_id, start_s, end_s, text, ({score}) AS score
        FROM ({" UNION ALL ".join(parts)}) AS items(video_id, source, item_id, start_s, end_s, text)
        WHERE ?::VARCHAR IS NULL OR video_id = ?
        ORDER BY score DESC, start_s
        LIMIT ?
        """,
        [*words, *srcs, video_id, video_id, k],
    ).to_pylist()
    return [_text_hit({**r, "score": r["score"] / len(words)}) for r in rows if r["score"] > 0]


# ------------------------------------------------------------------------------ helpers


def _sources(sources: Sequence[str] | None) -> list[str] | None:
    if sources is None:
        return None
    if isinstance(sources, str):
        sources = [sources]
    unknown = sorted(set(sources) - set(TEXT_SOURCES))
    if unknown or not sources:
        raise ParameterError(f"sources must be some of {list(TEXT_SOURCES)}, got {list(sources)!r}")
    return list(sources)


def _auto(memory: Memory, source: Source, model: str, video_id: str | None, fingerprint: str) -> Method:
    """The in-process matrix for the whole memory, or for one video when it is loaded already (a
    mask over it); else exact SQL, which is quick for one video (thousands of rows)."""
    if video_id is None or cached_matrix(memory, source, model, fingerprint) is not None:
        return "matrix"
    return "sql"


def _model(memory: Memory, table: str, encoder: Encoder, fingerprint: str) -> str:
    """The encoder's model, checked against the models whose vectors `table` holds."""
    model = getattr(encoder, "model", None)
    if not isinstance(model, str) or not callable(getattr(encoder, "encode", None)):
        raise ParameterError(f"encoder must have a model name and an encode(texts) method, got {encoder!r}")
    stored = stored_models(memory, table, fingerprint)
    if model in stored:
        return model
    if not stored:
        role = "clip" if table == "frame_embeddings" else "text_embeddings"
        raise SearchUnavailable(f"the memory holds no {table}: ingest with the {role} role to search them")
    raise SearchUnavailable(
        f"the memory holds {table} of {stored}, not of the encoder's model {model!r}: embed the query with the "
        "model the videos were ingested with"
    )


def _query_vector(encoder: Encoder, query: str | np.ndarray) -> np.ndarray:
    if isinstance(query, str):
        _checks.text("query", query)
        return normalize(encoder.encode([query]))
    if isinstance(query, np.ndarray):
        return normalize(query)
    raise ParameterError(f"query must be a string or a numpy vector, got {type(query).__name__}")


def _mask(keys: pa.Table, video_id: str | None, column: str | None, allowed: list[str] | None) -> np.ndarray | None:
    mask: np.ndarray | None = None
    if video_id is not None:
        mask = np.asarray(pa.compute.equal(keys["video_id"], video_id).to_numpy(zero_copy_only=False), dtype=bool)
    if column is not None and allowed is not None:
        keep = np.asarray(pa.compute.is_in(keys[column], pa.array(allowed)).to_numpy(zero_copy_only=False), dtype=bool)
        mask = keep if mask is None else mask & keep
    return mask


def _text_hit(r: dict[str, Any]) -> TextHit:
    return TextHit(
        str(r["video_id"]), str(r["source"]), int(r["item_id"]),
        float(r["start_s"]), float(r["end_s"]), str(r["text"]), float(r["score"]),
    )


# ------------------------------------------------------------------------------ hybrid


@dataclass(frozen=True)
class HybridHit:
    """A text found by keyword, by meaning or both, with its fused rank score (1.0: first in every method)."""

    hit: TextHit
    score: float
    match: str  # 'keyword', 'semantic' or 'keyword+semantic'


@dataclass(frozen=True)
class HybridResult:
    hits: tuple[HybridHit, ...]
    notes: tuple[str, ...]  # each method that could not run, and why


def fuse_ranks(groups: Sequence[tuple[str, Sequence[TextHit]]]) -> list[tuple[TextHit, float, str]]:
    """Reciprocal rank fusion (k=60) of ranked hit lists by method, scaled so the best possible is 1;
    each hit with its fused score and the methods that found it ('keyword+semantic')."""
    fused: dict[tuple[str, str, int], float] = {}
    first: dict[tuple[str, str, int], TextHit] = {}
    methods: dict[tuple[str, str, int], list[str]] = {}
    for method, hits in groups:
        for rank, h in enumerate(hits):
            key = (h.video_id, h.source, h.item_id)
            fused[key] = fused.get(key, 0.0) + 1.0 / (60 + rank + 1)
            first.setdefault(key, h)
            methods.setdefault(key, []).append(method)
    best = len(groups) / 61 if groups else 1.0
    ranked = sorted(fused, key=lambda key: -fused[key])
    return [(first[key], round(fused[key] / best, 3), "+".join(sorted(set(methods[key])))) for key in ranked]


def hybrid_search(
    memory: Memory,
    query: str,
    *,
    encoder: Encoder | None = None,
    k: int = 10,
    video_id: str | None = None,
    sources: Sequence[str] | None = None,
) -> HybridResult:
    """The `k` best texts for `query` by keyword (any of its words, most first) and, given an
    encoder, by meaning, fused by rank. A method that cannot run here (no encoder, no embeddings of
    its model, a query with no words) is left out with a note; bad arguments still raise.

    >>> hybrid_search(memory, "when does the train leave", encoder=TextEncoder(), k=5)  # doctest: +SKIP
    """
    _checks.text("query", query)
    k = _checks.count("k", k)
    groups: list[tuple[str, Sequence[TextHit]]] = []
    notes: list[str] = []
    try:
        groups.append(("keyword", keyword_search(memory, query, k=k, video_id=video_id, sources=sources, match="any")))
    except ParameterError:
        raise
    except QueryError as exc:  # e.g. punctuation only: no words to look for
        notes.append(f"keyword search: {exc}")
    if encoder is None:
        notes.append("semantic search: no text encoder available here")
    else:
        try:
            groups.append(("semantic", search_texts(memory, encoder, query, k=k, video_id=video_id, sources=sources)))
        except SearchUnavailable as exc:
            notes.append(f"semantic search: {exc}")
    hits = tuple(HybridHit(h, score, how) for h, score, how in fuse_ranks(groups)[:k])
    return HybridResult(hits, tuple(notes))
