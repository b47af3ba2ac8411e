"""Query benchmark: the analyst library over a synthetic archive at ingest-like density.

    .venv/bin/python -m bench.queries                  # 100 hours, built once and cached
    .venv/bin/python -m bench.queries --hours 2 --repeats 5 --no-sqlite   # a quick look

Builds (once, cached under ~/.cache/vidmem/bench or $VIDMEM_BENCH_DIR) a memory of `--hours` one-hour
videos written through `Memory.write_video` like ingest does: tracks and detections sampled at 5 fps
with about 11 objects per frame (mostly people), a transcript segment every ~4 s, an OCR line every
second merged into spans, captions every 10 s (frame) and 30 s (clip), 512-d frame embeddings at
1 fps and 384-d sentence embeddings of every text. The same rows go into SQLite (DoraemonGPT's
store), with indexes on (video_id, ...) so that it gets its best shot.

It prints, per library query, the median and p95 latency over `--repeats` runs with random videos,
tracks and times: through the Python function (argument checks included), through the SQL macro
alone, and the same query written for SQLite. Then top-10 search: frames over the whole archive and
within one video, by DuckDB SQL (exact), vidmem's in-process matrix (exact), brute-force NumPy and
FAISS (when installed) over a matrix already in RAM, and SQLite (read the vectors, then NumPy).
Targets on 2 cores: each library query under 100 ms median; top-10 frame search under 200 ms.
Not in the synthetic memory: transcript_words (no library query reads it), appearance embeddings.
"""

from __future__ import annotations

import sys
from pathlib import Path

if not __package__:  # run as `python bench/queries.py`: import the repo's packages, not this file as `queries`
    _here = Path(__file__).resolve().parent
    sys.path[:] = [str(_here.parent)] + [p for p in sys.path if Path(p or ".").resolve() != _here]

import argparse
import hashlib
import json
import logging
import re
import sqlite3
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np
import pyarrow as pa

import queries
from bench.report import Figure, emit, machine
from memory import Memory, VideoRecord, VideoRows, arrow_schema, open_memory, table
from memory.cache import cache_dir
from queries.vector_index import vector_matrix

BENCH_VERSION = 2  # bump when the generated data changes
VIDEO_S = 3600.0
FPS = 25.0  # decoded frame rate: frame_index = round(t_s * FPS)
DET_FPS = 5.0  # detection sampling
FRAME_DIM, TEXT_DIM = 512, 384
FRAME_MODEL, TEXT_MODEL = "bench-clip-512", "bench-text-384"
#: category -> (mean number visible at once, mean lifetime in s)
CATEGORIES = {"person": (9.0, 30.0), "car": (1.5, 15.0), "bicycle": (0.3, 12.0), "dog": (0.2, 20.0)}
CACHE = cache_dir("bench", "VIDMEM_BENCH_DIR")

WORDS = tuple(
    (  # noqa: SIM905 (a word list reads better as text)
        "the a train station platform morning evening people walk street car red blue green man woman child "
        "dog bus stop market city river bridge rain sun window door light night camera gate north south east "
        "west exit entrance ticket price coffee shop road crossing signal police bicycle park tree bench "
        "music phone call meeting office time minute hour today tomorrow yesterday please thank you look "
        "there here left right ahead behind quickly slowly open close start finish game team match score news "
        "weather"
    ).split()
)
SIGNS = ("PLATFORM {} EXIT", "GATE {}", "CAMERA {} NORTH", "TICKETS {}", "BUS {} CITY CENTRE", "NO ENTRY {}")

log = logging.getLogger("bench.queries")


# ------------------------------------------------------------------------------ synthetic rows


def _col(name: str, arrays: dict[str, Any], n: int, video_id: str) -> pa.Table:
    schema = arrow_schema(table(name))
    cols = []
    for field in schema:
        if field.name == "video_id":
            cols.append(pa.array(np.full(n, video_id, dtype=object), pa.string()))
        elif field.name in arrays:
            cols.append(pa.array(arrays[field.name], field.type))
        else:
            cols.append(pa.nulls(n, field.type))
    return pa.Table.from_arrays(cols, schema=schema)


def _lists(matrix: np.ndarray) -> pa.Array:
    n, d = matrix.shape
    offsets = pa.array(np.arange(0, (n + 1) * d, d, dtype=np.int32))
    return pa.ListArray.from_arrays(offsets, pa.array(matrix.reshape(-1), pa.float32()))


def _unit(rng: np.random.Generator, n: int, d: int) -> np.ndarray:
    x = rng.standard_normal((n, d), dtype=np.float32)
    return x / np.linalg.norm(x, axis=1, keepdims=True)


def _sentences(rng: np.random.Generator, n: int, lo: int = 6, hi: int = 14) -> list[str]:
    lengths = rng.integers(lo, hi, n)
    picks = rng.integers(0, len(WORDS), lengths.sum())
    out, pos = [], 0
    for length in lengths:
        out.append(" ".join(WORDS[i] for i in picks[pos : pos + length]).capitalize() + ".")
        pos += length
    return out


def video_rows(index: int) -> VideoRows:
    """One synthetic hour of video, deterministic in `index`."""
    rng = np.random.default_rng(1000 + index)
    # Ids like ingest's ('v' + 16 hex of a SHA-256): DuckDB's min/max statistics keep 8 bytes of a
    # string, and ids that differ early let it skip other videos' row groups.
    vid = "v" + hashlib.sha256(f"bench video {index}".encode()).hexdigest()[:16]
    dur = VIDEO_S

    # Tracks: Poisson arrivals per category so that `mean visible` objects are on screen on average.
    cats, starts, lives = [], [], []
    for cat, (visible, life) in CATEGORIES.items():
        n = rng.poisson(visible / life * dur)
        cats += [cat] * n
        starts.append(rng.uniform(-life, dur, n))
        lives.append(np.clip(rng.exponential(life, n), 1.0, 10 * life))
    start = np.concatenate(starts)
    end = np.minimum(start + np.concatenate(lives), dur - 1 / DET_FPS)
    start = np.maximum(start, 0.0)
    keep = end - start >= 1.0
    order = np.argsort(start[keep], kind="stable")
    category = np.array(cats, dtype=object)[keep][order]
    start, end = start[keep][order], end[keep][order]
    first_f = np.ceil(start * DET_FPS).astype(np.int64)
    last_f = np.floor(end * DET_FPS).astype(np.int64)
    counts = last_f - first_f + 1
    n_tracks = len(counts)
    track_ids = np.arange(1, n_tracks + 1, dtype=np.int32)

    rep = np.repeat(np.arange(n_tracks), counts)
    step = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
    t = (np.repeat(first_f, counts) + step) / DET_FPS
    x0, y0 = rng.uniform(0, 1800, n_tracks), rng.uniform(0, 1000, n_tracks)
    vx, vy = rng.normal(0, 30, n_tracks), rng.normal(0, 10, n_tracks)
    w, h = rng.uniform(40, 200, n_tracks), rng.uniform(80, 300, n_tracks)
    dt = t - start[rep]
    x1 = np.clip(x0[rep] + vx[rep] * dt, 0, 1720)
    y1 = np.clip(y0[rep] + vy[rep] * dt, 0, 780)
    conf = rng.uniform(0.3, 1.0, len(t))
    detections = _col(
        "detections",
        {
            "track_id": track_ids[rep], "frame_index": np.round(t * FPS).astype(np.int32), "t_s": t,
            "x1": x1, "y1": y1, "x2": x1 + w[rep], "y2": y1 + h[rep], "confidence": conf,
            "category": category[rep], "mask_area": w[rep] * h[rep],
        },
        len(t), vid,
    )
    colours = np.array(["red", "blue", "green", "black", "white", "yellow"], dtype=object)
    tracks = _col(
        "tracks",
        {
            "track_id": track_ids, "category": category, "first_s": first_f / DET_FPS, "last_s": last_f / DET_FPS,
            "num_detections": counts.astype(np.int32), "mean_confidence": rng.uniform(0.5, 0.95, n_tracks),
            "best_t_s": (first_f + counts // 2) / DET_FPS,
            "appearance": np.array([f"wearing {c}" for c in colours[rng.integers(0, len(colours), n_tracks)]], object),
        },
        n_tracks, vid,
    )
    people = np.flatnonzero(category == "person")[::5]
    actions = _col(
        "actions",
        {
            "track_id": track_ids[people], "start_s": first_f[people] / DET_FPS, "end_s": last_f[people] / DET_FPS,
            "label": np.where(rng.random(len(people)) < 0.7, "walking", "standing").astype(object),
            "score": rng.uniform(0.4, 0.9, len(people)), "model": np.full(len(people), "bench", dtype=object),
        },
        len(people), vid,
    )

    seg_start = np.cumsum(rng.uniform(3.0, 5.0, int(dur / 4) + 10))
    seg_start = seg_start[seg_start < dur - 4]
    n_seg = len(seg_start)
    transcript = _col(
        "transcript",
        {
            "segment_id": np.arange(n_seg, dtype=np.int32), "start_s": seg_start,
            "end_s": seg_start + rng.uniform(2.0, 3.8, n_seg), "text": _sentences(rng, n_seg),
            "language": np.full(n_seg, "en", dtype=object), "avg_logprob": rng.uniform(-0.8, -0.1, n_seg),
            "no_speech_prob": rng.uniform(0, 0.2, n_seg), "model": np.full(n_seg, "bench", dtype=object),
        },
        n_seg, vid,
    )

    span_len = rng.integers(3, 20, int(dur / 3))
    span_start = np.concatenate([[0], np.cumsum(span_len)[:-1]])
    keep = span_start + span_len <= dur
    span_start, span_len = span_start[keep], span_len[keep]
    n_span = len(span_start)
    span_text = np.array(
        [
            SIGNS[i % len(SIGNS)].format(j)
            for i, j in zip(rng.integers(0, 99, n_span), rng.integers(1, 60, n_span), strict=True)
        ],
        dtype=object,
    )
    sx, sy = rng.uniform(0, 1500, n_span), rng.uniform(0, 1000, n_span)
    ocr_spans = _col(
        "ocr_spans",
        {
            "span_id": np.arange(n_span, dtype=np.int32), "start_s": span_start.astype(float),
            "end_s": (span_start + span_len - 1).astype(float), "text": span_text,
            "confidence": rng.uniform(0.6, 1, n_span),
            "x1": sx, "y1": sy, "x2": sx + 300, "y2": sy + 40, "num_frames": span_len.astype(np.int32),
        },
        n_span, vid,
    )
    sec = np.arange(int(dur), dtype=np.int64)
    span_of = np.repeat(np.arange(n_span), span_len)[: len(sec)]
    sec = sec[: len(span_of)]
    ocr = _col(
        "ocr",
        {
            "frame_index": np.round(sec * FPS).astype(np.int32), "t_s": sec.astype(float), "text": span_text[span_of],
            "confidence": rng.uniform(0.5, 1, len(sec)), "x1": sx[span_of], "y1": sy[span_of],
            "x2": sx[span_of] + 300, "y2": sy[span_of] + 40,
        },
        len(sec), vid,
    )

    frame_t = np.arange(0, dur, 10.0)
    clip_t = np.arange(0, dur, 30.0)
    n_cap = len(frame_t) + len(clip_t)
    captions = _col(
        "captions",
        {
            "caption_id": np.concatenate([np.arange(len(frame_t)), np.arange(len(clip_t))]).astype(np.int32),
            "level": np.array(["frame"] * len(frame_t) + ["clip"] * len(clip_t), dtype=object),
            "start_s": np.concatenate([frame_t, clip_t]), "end_s": np.concatenate([frame_t, clip_t + 30.0]),
            "text": _sentences(rng, n_cap, 5, 10), "model": np.full(n_cap, "bench", dtype=object),
        },
        n_cap, vid,
    )

    emb_t = np.arange(0, dur, 1.0)
    frame_embeddings = _col(
        "frame_embeddings",
        {
            "frame_index": np.round(emb_t * FPS).astype(np.int32), "t_s": emb_t,
            "model": np.full(len(emb_t), FRAME_MODEL, dtype=object),
            "embedding": _lists(_unit(rng, len(emb_t), FRAME_DIM)),
        },
        len(emb_t), vid,
    )
    sources = np.array(["transcript"] * n_seg + ["ocr_spans"] * n_span + ["captions"] * len(clip_t), dtype=object)
    item_ids = np.concatenate([np.arange(n_seg), np.arange(n_span), np.arange(len(clip_t))]).astype(np.int32)
    text_embeddings = _col(
        "text_embeddings",
        {
            "source": sources, "item_id": item_ids, "model": np.full(len(sources), TEXT_MODEL, dtype=object),
            "embedding": _lists(_unit(rng, len(sources), TEXT_DIM)),
        },
        len(sources), vid,
    )
    record = VideoRecord(
        video_id=vid, path=f"/archive/bench/{vid}.mp4", status="ok", content_hash=f"{index:064x}", duration_s=dur,
        fps=FPS, num_frames=int(dur * FPS), width=1920, height=1080, video_codec="h264", has_audio=True,
        audio_codec="aac", pipeline_version="bench", settings_hash=f"bench{BENCH_VERSION}",
    )
    tables = {
        "tracks": tracks, "detections": detections, "actions": actions, "transcript": transcript, "ocr": ocr,
        "ocr_spans": ocr_spans, "captions": captions, "frame_embeddings": frame_embeddings,
        "text_embeddings": text_embeddings,
    }
    return VideoRows(record, tables)


# ------------------------------------------------------------------------------ building the stores

_SQLITE_INDEXES = (
    "CREATE INDEX det_cat ON detections(video_id, category, t_s)",
    "CREATE INDEX det_track ON detections(video_id, track_id, t_s)",
    "CREATE INDEX det_frame ON detections(video_id, frame_index)",
    "CREATE INDEX tracks_vid ON tracks(video_id, track_id)",
    "CREATE INDEX tracks_time ON tracks(video_id, first_s)",
    "CREATE INDEX actions_vid ON actions(video_id, start_s)",
    "CREATE INDEX transcript_vid ON transcript(video_id, start_s)",
    "CREATE INDEX ocr_spans_vid ON ocr_spans(video_id, start_s)",
    "CREATE INDEX captions_vid ON captions(video_id, start_s)",
    "CREATE INDEX frames_vid ON frame_embeddings(video_id, t_s)",
    "CREATE INDEX texts_vid ON text_embeddings(video_id, source, item_id)",
)
_SQLITE_TYPES = {"VARCHAR": "TEXT", "INTEGER": "INTEGER", "BIGINT": "INTEGER", "DOUBLE": "REAL", "BOOLEAN": "INTEGER",
                 "TIMESTAMP": "TEXT", "FLOAT[]": "BLOB"}


def _sqlite_create(con: sqlite3.Connection) -> None:
    from memory.ddl import duckdb_type
    from memory.schema import VIDEO_TABLES

    for t in VIDEO_TABLES:
        cols = ", ".join(f"{c.name} {_SQLITE_TYPES[duckdb_type(c)]}" for c in t.columns)
        con.execute(f"CREATE TABLE {t.name} ({cols})")


def _sqlite_insert(con: sqlite3.Connection, name: str, tbl: pa.Table) -> None:
    columns: list[list[Any]] = []
    for field, col in zip(tbl.schema, tbl.columns, strict=True):
        if pa.types.is_list(field.type) and col.null_count == len(col):
            columns.append([None] * len(col))
        elif pa.types.is_list(field.type):
            flat = col.combine_chunks()
            d = len(flat[0]) if len(flat) else 0
            matrix = flat.flatten().to_numpy(zero_copy_only=False).astype(np.float32).reshape(-1, d)
            columns.append([row.tobytes() for row in matrix])
        elif pa.types.is_timestamp(field.type):
            columns.append([None if v is None else str(v) for v in col.to_pylist()])
        else:
            columns.append(col.to_pylist())
    marks = ", ".join("?" * len(columns))
    con.executemany(f"INSERT INTO {name} ({', '.join(tbl.column_names)}) VALUES ({marks})", zip(*columns, strict=True))


@dataclass(frozen=True)
class Stores:
    duckdb_path: Path
    sqlite_path: Path | None


def build(hours: int, with_sqlite: bool, rebuild: bool) -> Stores:
    folder = CACHE / f"queries-{hours}h-v{BENCH_VERSION}"
    ddb, sdb, done = folder / "memory.duckdb", folder / "doraemon.sqlite", folder / "built.json"
    state = json.loads(done.read_text()) if done.exists() and not rebuild else {}
    need_duck = not state.get("duckdb")
    need_sqlite = with_sqlite and not state.get("sqlite")
    if need_duck or need_sqlite:
        folder.mkdir(parents=True, exist_ok=True)
        started = time.perf_counter()
        if need_duck:
            for p in (ddb, ddb.with_suffix(".duckdb.wal")):
                p.unlink(missing_ok=True)
        if need_sqlite:
            sdb.unlink(missing_ok=True)
        mem = open_memory(ddb) if need_duck else None
        scon = sqlite3.connect(sdb) if need_sqlite else None
        if scon is not None:
            scon.execute("PRAGMA journal_mode = OFF")
            scon.execute("PRAGMA synchronous = OFF")
            _sqlite_create(scon)
        for i in range(hours):
            rows = video_rows(i)
            if mem is not None:
                mem.write_video(rows)
            if scon is not None:
                scon.execute("BEGIN")
                for name, tbl in rows.tables.items():
                    _sqlite_insert(scon, name, tbl)
                _sqlite_insert(scon, "videos", rows.record.to_arrow())
                scon.execute("COMMIT")
            print(f"\rbuilding: {i + 1}/{hours} videos, {time.perf_counter() - started:.0f} s", end="", flush=True)
        print()
        if mem is not None:
            queries.install(mem)
            queries.build_text_index(mem)
            mem.close()
            state["duckdb"] = True
        if scon is not None:
            for stmt in _SQLITE_INDEXES:
                scon.execute(stmt)
            scon.execute("ANALYZE")
            scon.close()
            state["sqlite"] = True
        done.write_text(json.dumps(state))
        print(f"built in {time.perf_counter() - started:.0f} s: {folder}")
    else:
        open_memory(ddb).close()  # a cached memory from an older vidmem: migrate it once, as a user's would be
    return Stores(ddb, sdb if with_sqlite else None)


# ------------------------------------------------------------------------------ the queries

@dataclass(frozen=True)
class Params:
    video_id: str
    track_id: int
    other_track_id: int
    t_s: float
    query: np.ndarray  # a unit vector, as a CLIP text tower would give
    text_query: np.ndarray


@dataclass(frozen=True)
class Case:
    name: str
    python: Callable[[Memory, Params], Any]  # the library's Python function
    sql: str | None  # the macro, with named parameters
    sqlite: str | None  # the same question for SQLite


def _p(p: Params) -> dict[str, Any]:
    return {"v": p.video_id, "t": p.track_id, "u": p.other_track_id, "at": p.t_s, "a": p.t_s, "b": p.t_s + 60.0}


_ISLANDS_SQLITE = """
islands AS (
  SELECT t_s, sum(CASE WHEN t_s - prev <= 1.0 THEN 0 ELSE 1 END) OVER (ORDER BY t_s ROWS UNBOUNDED PRECEDING) AS iid
  FROM (SELECT t_s, lag(t_s) OVER (ORDER BY t_s) AS prev FROM together))
SELECT iid, min(t_s) AS start_s, max(t_s) AS end_s, max(t_s) - min(t_s) AS duration_s, count(*) AS frames
FROM islands GROUP BY iid ORDER BY start_s"""

@dataclass(frozen=True)
class _Named:
    """The query-side 'encoder' of the synthetic vectors: queries arrive already embedded."""

    model: str

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        raise NotImplementedError("the benchmark passes query vectors")


_TEXT = _Named(TEXT_MODEL)
_FRAMES = _Named(FRAME_MODEL)


CASES: tuple[Case, ...] = (
    Case(
        "video_timeline (60 s window)",
        lambda m, p: queries.video_timeline(m, p.video_id, p.t_s, p.t_s + 60),
        "SELECT * FROM video_timeline($v, from_s := $a, to_s := $b)",
        """SELECT * FROM (
  SELECT video_id, 'speech' AS kind, start_s, end_s, segment_id AS item_id, NULL AS track_id, NULL AS category, text
    FROM transcript WHERE video_id = :v AND end_s >= :a AND start_s <= :b
  UNION ALL SELECT video_id, 'text', start_s, end_s, span_id, NULL, NULL, text
    FROM ocr_spans WHERE video_id = :v AND end_s >= :a AND start_s <= :b
  UNION ALL SELECT video_id, 'caption', start_s, end_s, caption_id, NULL, NULL, text
    FROM captions WHERE video_id = :v AND level = 'clip' AND end_s >= :a AND start_s <= :b
  UNION ALL SELECT video_id, 'appear', first_s, first_s, track_id, track_id, category, category || ' #' || track_id
    FROM tracks WHERE video_id = :v AND first_s BETWEEN :a AND :b
  UNION ALL SELECT video_id, 'leave', last_s, last_s, track_id, track_id, category, category || ' #' || track_id
    FROM tracks WHERE video_id = :v AND last_s BETWEEN :a AND :b
  UNION ALL SELECT video_id, 'action', start_s, end_s, track_id, track_id, NULL, label
    FROM actions WHERE video_id = :v AND end_s >= :a AND start_s <= :b
) ORDER BY start_s, end_s, kind, item_id""",
    ),
    Case(
        "video_timeline (whole video)",
        lambda m, p: queries.video_timeline(m, p.video_id),
        "SELECT * FROM video_timeline($v)",
        """SELECT * FROM (
  SELECT video_id, 'speech' AS kind, start_s, end_s, segment_id AS item_id, NULL AS track_id, NULL AS category, text
    FROM transcript WHERE video_id = :v
  UNION ALL SELECT video_id, 'text', start_s, end_s, span_id, NULL, NULL, text FROM ocr_spans WHERE video_id = :v
  UNION ALL SELECT video_id, 'caption', start_s, end_s, caption_id, NULL, NULL, text
    FROM captions WHERE video_id = :v AND level = 'clip'
  UNION ALL SELECT video_id, 'appear', first_s, first_s, track_id, track_id, category, category || ' #' || track_id
    FROM tracks WHERE video_id = :v
  UNION ALL SELECT video_id, 'leave', last_s, last_s, track_id, track_id, category, category || ' #' || track_id
    FROM tracks WHERE video_id = :v
  UNION ALL SELECT video_id, 'action', start_s, end_s, track_id, track_id, NULL, label FROM actions WHERE video_id = :v
) ORDER BY start_s, end_s, kind, item_id""",
    ),
    Case(
        "when_visible person",
        lambda m, p: queries.when_visible(m, p.video_id, "person"),
        "SELECT * FROM when_visible($v, 'person')",
        """WITH dets AS (SELECT t_s, track_id FROM detections WHERE video_id = :v AND category = 'person'),
together AS (SELECT t_s, count(DISTINCT track_id) AS n FROM dets GROUP BY t_s),""" + _ISLANDS_SQLITE,
    ),
    Case(
        "when_visible dog (rare)",
        lambda m, p: queries.when_visible(m, p.video_id, "dog"),
        "SELECT * FROM when_visible($v, 'dog')",
        """WITH together AS (SELECT DISTINCT t_s FROM detections WHERE video_id = :v AND category = 'dog'),"""
        + _ISLANDS_SQLITE,
    ),
    Case(
        "when_track_visible",
        lambda m, p: queries.when_track_visible(m, p.video_id, p.track_id),
        "SELECT * FROM when_track_visible($v, $t)",
        """WITH together AS (SELECT DISTINCT t_s FROM detections WHERE video_id = :v AND track_id = :t),"""
        + _ISLANDS_SQLITE,
    ),
    Case(
        "instance_counts (60 s windows)",
        lambda m, p: queries.instance_counts(m, p.video_id, 60.0),
        "SELECT * FROM instance_counts($v, window_s := 60.0)",
        """WITH dets AS (
  SELECT category, track_id, t_s, CAST(t_s / 60.0 AS INTEGER) AS w FROM detections WHERE video_id = :v),
per_time AS (SELECT w, category, t_s, count(DISTINCT track_id) AS n FROM dets GROUP BY w, category, t_s),
per_window AS (
  SELECT w, category, count(DISTINCT track_id) AS instances, count(*) AS boxes FROM dets GROUP BY w, category)
SELECT p.w * 60.0, (p.w + 1) * 60.0, p.category, p.instances, m.mx, p.boxes
FROM per_window AS p JOIN (SELECT w, category, max(n) AS mx FROM per_time GROUP BY w, category) AS m
  ON m.w = p.w AND m.category = p.category ORDER BY 1, 3""",
    ),
    Case(
        "category_counts",
        lambda m, p: queries.category_counts(m, p.video_id),
        "SELECT * FROM category_counts WHERE video_id = $v ORDER BY category",
        """SELECT video_id, category, count(*), min(first_s), max(last_s), sum(num_detections) FROM tracks
WHERE video_id = :v GROUP BY video_id, category ORDER BY category""",
    ),
    Case(
        "cooccurrence person+car",
        lambda m, p: queries.cooccurrence(m, p.video_id, "person", "car"),
        "SELECT * FROM cooccurrence($v, 'person', 'car')",
        """WITH per_time AS (
  SELECT t_s, count(DISTINCT CASE WHEN category = 'person' THEN track_id END) AS na,
         count(DISTINCT CASE WHEN category = 'car' THEN track_id END) AS nb
  FROM detections WHERE video_id = :v AND category IN ('person', 'car') GROUP BY t_s),
together AS (SELECT t_s FROM per_time WHERE na >= 1 AND nb >= 1),""" + _ISLANDS_SQLITE,
    ),
    Case(
        "track_cooccurrence",
        lambda m, p: queries.track_cooccurrence(m, p.video_id, p.track_id, p.other_track_id),
        "SELECT * FROM track_cooccurrence($v, $t, $u)",
        """WITH together AS (SELECT t_s FROM detections WHERE video_id = :v AND track_id IN (:t, :u)
  GROUP BY t_s HAVING count(DISTINCT track_id) = 2),""" + _ISLANDS_SQLITE,
    ),
    Case(
        "tracks_with",
        lambda m, p: queries.tracks_with(m, p.video_id, p.track_id),
        "SELECT * FROM tracks_with($v, $t)",
        """SELECT d.track_id, max(d.category), count(DISTINCT d.frame_index) AS f, min(d.t_s), max(d.t_s)
FROM detections AS d
WHERE d.video_id = :v AND d.track_id <> :t
  AND d.frame_index IN (SELECT frame_index FROM detections WHERE video_id = :v AND track_id = :t)
GROUP BY d.track_id ORDER BY f DESC, d.track_id""",
    ),
    Case(
        "category_pairs",
        lambda m, p: queries.category_pairs(m, p.video_id),
        "SELECT * FROM category_pairs($v)",
        """WITH per_frame AS (SELECT frame_index, max(t_s) AS t_s, category, count(DISTINCT track_id) AS n
  FROM detections WHERE video_id = :v GROUP BY frame_index, category)
SELECT a.category, b.category, count(*) AS f, min(a.t_s), max(a.t_s)
FROM per_frame AS a JOIN per_frame AS b ON a.frame_index = b.frame_index AND a.category <= b.category
WHERE a.category < b.category OR a.n >= 2 GROUP BY a.category, b.category ORDER BY f DESC""",
    ),
    Case(
        "track_position",
        lambda m, p: queries.track_position(m, p.video_id, p.track_id, p.t_s),
        "SELECT * FROM track_position($v, $t, $at)",
        """WITH b AS (SELECT t_s, category, x1, y1, x2, y2 FROM detections
  WHERE video_id = :v AND track_id = :t AND t_s <= :at ORDER BY t_s DESC LIMIT 1),
a AS (SELECT t_s, x1, y1, x2, y2 FROM detections
  WHERE video_id = :v AND track_id = :t AND t_s >= :at ORDER BY t_s LIMIT 1),
m AS (SELECT b.*, a.t_s AS after_s, a.x1 AS ax1, a.y1 AS ay1, a.x2 AS ax2, a.y2 AS ay2,
  CASE WHEN a.t_s = b.t_s THEN 0.0 ELSE (:at - b.t_s) / (a.t_s - b.t_s) END AS f FROM b, a)
SELECT category, x1 + f * (ax1 - x1), y1 + f * (ay1 - y1), x2 + f * (ax2 - x2), y2 + f * (ay2 - y2), t_s, after_s
FROM m""",
    ),
    Case(
        "tracks_at",
        lambda m, p: queries.tracks_at(m, p.video_id, p.t_s),
        "SELECT * FROM tracks_at($v, $at)",
        """WITH alive AS (SELECT track_id FROM tracks WHERE video_id = :v AND first_s <= :at AND last_s >= :at),
b AS (SELECT track_id, max(t_s) AS t0, x1, y1, x2, y2 FROM detections
  WHERE video_id = :v AND track_id IN (SELECT track_id FROM alive) AND t_s <= :at GROUP BY track_id),
a AS (SELECT track_id, min(t_s) AS t1, x1, y1, x2, y2 FROM detections
  WHERE video_id = :v AND track_id IN (SELECT track_id FROM alive) AND t_s >= :at GROUP BY track_id)
SELECT b.track_id, b.x1 + (CASE WHEN a.t1 = b.t0 THEN 0.0 ELSE (:at - b.t0) / (a.t1 - b.t0) END) * (a.x1 - b.x1)
FROM b JOIN a ON a.track_id = b.track_id ORDER BY b.track_id""",
    ),
    Case(
        "track_path",
        lambda m, p: queries.track_path(m, p.video_id, p.track_id),
        "SELECT * FROM track_path($v, $t)",
        """SELECT video_id, track_id, category, frame_index, t_s, x1, y1, x2, y2, (x1 + x2) / 2, (y1 + y2) / 2,
  confidence FROM detections WHERE video_id = :v AND track_id = :t ORDER BY t_s""",
    ),
    Case(
        "speech_near (10 s)",
        lambda m, p: queries.speech_near(m, p.video_id, p.t_s, 10.0),
        "SELECT * FROM speech_near($v, $at, window_s := 10.0)",
        """SELECT video_id, segment_id, start_s, end_s, text, max(0.0, start_s - :at, :at - end_s) FROM transcript
WHERE video_id = :v AND end_s >= :at - 10.0 AND start_s <= :at + 10.0 ORDER BY start_s""",
    ),
    Case(
        "text_near (5 s)",
        lambda m, p: queries.text_near(m, p.video_id, p.t_s, 5.0),
        "SELECT * FROM text_near($v, $at, window_s := 5.0)",
        """SELECT video_id, span_id, start_s, end_s, text, max(0.0, start_s - :at, :at - end_s) FROM ocr_spans
WHERE video_id = :v AND end_s >= :at - 5.0 AND start_s <= :at + 5.0 ORDER BY start_s""",
    ),
    Case(
        "find_text (substring, all videos)",
        lambda m, p: queries.run_sql(m, "SELECT * FROM find_text(?)", ["platform 7"]),
        "SELECT * FROM find_text('platform 7')",
        """SELECT * FROM (
  SELECT video_id, 'transcript' AS source, segment_id AS item_id, start_s, end_s, text FROM transcript
  UNION ALL SELECT video_id, 'ocr_spans', span_id, start_s, end_s, text FROM ocr_spans
  UNION ALL SELECT video_id, 'captions', caption_id, start_s, end_s, text FROM captions WHERE level = 'clip'
) WHERE lower(text) LIKE '%platform 7%' ORDER BY video_id, start_s""",
    ),
    Case(
        "keyword_search (BM25, all videos)",
        lambda m, p: queries.keyword_search(m, "platform exit", k=10),
        None,
        None,
    ),
    Case(
        "video_overview (all videos)",
        lambda m, p: queries.video_overview(m),
        "SELECT * FROM video_overview",
        """SELECT v.video_id, v.duration_s,
  (SELECT count(*) FROM tracks AS t WHERE t.video_id = v.video_id),
  (SELECT count(*) FROM transcript AS s WHERE s.video_id = v.video_id),
  (SELECT count(*) FROM ocr_spans AS o WHERE o.video_id = v.video_id),
  (SELECT count(*) FROM captions AS c WHERE c.video_id = v.video_id),
  (SELECT count(*) FROM frame_embeddings AS f WHERE f.video_id = v.video_id)
FROM videos AS v""",
    ),
    Case(
        "similar_texts top-10 (one video)",
        lambda m, p: queries.search_texts(m, _TEXT, p.text_query, k=10, video_id=p.video_id),
        "SELECT * FROM similar_texts($q::FLOAT[], k := 10, vid := $v)",
        None,
    ),
    Case(
        "search_texts top-10 (all videos, matrix)",
        lambda m, p: queries.search_texts(m, _TEXT, p.text_query, k=10),
        None,
        None,
    ),
)




def _sqlite_params(sql: str, p: Params) -> dict[str, Any]:
    return {k: v for k, v in _p(p).items() if re.search(rf":{k}\b", sql)}


def _duck_params(sql: str, p: Params) -> dict[str, Any]:
    values = {**_p(p), "q": p.text_query.tolist()}
    return {k: v for k, v in values.items() if re.search(rf"\${k}\b", sql)}


# ------------------------------------------------------------------------------ measuring


@dataclass
class Timing:
    samples: list[float]

    @property
    def median_ms(self) -> float:
        return statistics.median(self.samples) * 1000

    @property
    def p95_ms(self) -> float:
        s = sorted(self.samples)
        return s[min(len(s) - 1, round(0.95 * (len(s) - 1)))] * 1000


def measure(fn: Callable[[Params], Any], params: Iterator[Params], repeats: int) -> Timing:
    fn(next(params))  # warm-up: caches, plans, first page-in
    out = []
    for _ in range(repeats):
        p = next(params)
        started = time.perf_counter()
        fn(p)
        out.append(time.perf_counter() - started)
    return Timing(out)


def param_stream(mem: Memory, seed: int) -> Iterator[Params]:
    tr = mem.query("SELECT video_id, track_id, first_s, last_s FROM tracks WHERE num_detections >= 10").to_pandas()
    groups = {vid: g.reset_index(drop=True) for vid, g in tr.groupby("video_id")}
    vids = sorted(groups)
    rng = np.random.default_rng(seed)
    while True:
        vid = vids[rng.integers(len(vids))]
        g = groups[vid]
        row = g.iloc[rng.integers(len(g))]
        overlapping = g[(g.first_s < row.last_s) & (g.last_s > row.first_s) & (g.track_id != row.track_id)]
        other = overlapping.iloc[rng.integers(len(overlapping))] if len(overlapping) else g.iloc[0]
        t = float(rng.uniform(row.first_s, row.last_s))
        frame_q, text_q = _unit(rng, 1, FRAME_DIM)[0], _unit(rng, 1, TEXT_DIM)[0]
        yield Params(vid, int(row.track_id), int(other.track_id), t, frame_q, text_q)


def _call_python(case: Case, mem: Memory, p: Params) -> Any:
    return case.python(mem, p)


def _call_duckdb(cur: Any, sql: str, p: Params) -> Any:
    return cur.execute(sql, _duck_params(sql, p)).fetchall()


def _call_sqlite(con: sqlite3.Connection, sql: str, p: Params) -> Any:
    return con.execute(sql, _sqlite_params(sql, p)).fetchall()


def _fmt(t: Timing | None) -> str:
    return f"{t.median_ms:8.1f} {t.p95_ms:8.1f}" if t else f"{'-':>8} {'-':>8}"


def run(args: argparse.Namespace) -> int:
    stores = build(args.hours, not args.no_sqlite, args.rebuild)
    with open_memory(stores.duckdb_path) as writable:  # store this version of the library, as ingest does
        queries.install(writable)
        queries.build_text_index(writable)
    mem = open_memory(stores.duckdb_path, read_only=True)
    mem.con.execute(f"SET threads = {args.threads}")
    queries.install(mem)
    scon = sqlite3.connect(f"file:{stores.sqlite_path}?mode=ro", uri=True) if stores.sqlite_path else None
    counts = {k: v for k, v in mem.table_counts().items() if v}
    print(f"memory: {stores.duckdb_path} ({stores.duckdb_path.stat().st_size / 1e9:.1f} GB); "
          f"{', '.join(f'{k} {v:,}' for k, v in counts.items())}")
    if stores.sqlite_path:
        size = stores.sqlite_path.stat().st_size / 1e9
        print(f"sqlite: {stores.sqlite_path} ({size:.1f} GB), indexed on (video_id, ...)")
    print(f"machine: {machine()}; DuckDB threads={args.threads}; {args.repeats} runs per query after one warm-up; ms\n")

    figures: list[Figure] = []
    header = f"{'query':<40}{'python fn':>17}{'SQL macro':>18}{'SQLite':>18}   {'SQLite/fn':>9}"
    print(header + "\n" + f"{'':<40}{'median      p95':>17}{'median      p95':>18}{'median      p95':>18}")
    print("-" * len(header))
    for case in CASES:
        if args.only and not any(s in case.name for s in args.only):
            continue
        params = param_stream(mem, seed=7)
        fn_t = measure(partial(_call_python, case, mem), params, args.repeats)
        sql_t = sqlite_t = None
        if case.sql:
            cur = queries.cursor(mem)
            sql_t = measure(partial(_call_duckdb, cur, case.sql), params, args.repeats)
            cur.close()
        if case.sqlite and scon is not None:
            repeats = max(3, args.repeats // 4) if "all videos" in case.name else args.repeats
            sqlite_t = measure(partial(_call_sqlite, scon, case.sqlite), params, repeats)
        ratio = sqlite_t.median_ms / fn_t.median_ms if sqlite_t else None
        flag = "" if fn_t.median_ms < 100 else "  over 100 ms"
        print(f"{case.name:<40}{_fmt(fn_t):>17}{_fmt(sql_t):>18}{_fmt(sqlite_t):>18}   "
              f"{f'{ratio:8.1f}x' if ratio else '':>9}{flag}", flush=True)
        figures.append(Figure(
            f"{case.name} median", round(fn_t.median_ms, 2), "ms", "SQLite" if sqlite_t else "",
            round(sqlite_t.median_ms, 2) if sqlite_t else None, round(ratio, 2) if ratio else None,
            note=f"p95 {fn_t.p95_ms:.1f} ms",
        ))

    if not args.no_search:
        figures += search_bench(mem, scon, args)
    emit("queries", figures)
    mem.close()
    if scon is not None:
        scon.close()
    return 0


VIDMEM_ALL = "vidmem search_frames (matrix, exact)"  # the default path over the whole archive
VIDMEM_ONE = "vidmem search_frames (loaded matrix, masked)"  # ... and within one video


@dataclass(frozen=True)
class SearchRow:
    scope: str  # "all N" or "one video": rows are compared only within their scope
    method: str
    timing: Timing


def search_figures(rows: list[SearchRow]) -> list[Figure]:
    """vidmem's default search of each scope, then one figure per other method of that scope with
    vidmem as the value and the method as the baseline (ratio > 1: vidmem faster), like the query rows."""
    figures: list[Figure] = []
    for ours in (r for r in rows if r.method in (VIDMEM_ALL, VIDMEM_ONE)):
        mine = ours.timing.median_ms
        name = f"frame search {ours.scope} median"
        figures.append(Figure(name, round(mine, 2), "ms", note=f"{ours.method}, p95 {ours.timing.p95_ms:.1f} ms"))
        for other in (r for r in rows if r.scope == ours.scope and r is not ours):
            theirs = other.timing.median_ms
            figures.append(Figure(name, round(mine, 2), "ms", other.method.split(" (")[0], round(theirs, 2),
                                  round(theirs / mine, 2), note=f"{other.method}, p95 {other.timing.p95_ms:.1f} ms"))
    return figures


def search_bench(mem: Memory, scon: sqlite3.Connection | None, args: argparse.Namespace) -> list[Figure]:
    """Top-10 frames by cosine: over the archive and within one video."""
    print(f"\ntop-10 frame search ({FRAME_DIM}-d, model {FRAME_MODEL})")
    n = mem.query("SELECT count(*) AS n FROM frame_embeddings")["n"][0].as_py()
    print(f"{'method':<58}{'median      p95':>17}")
    print("-" * 75)
    params = param_stream(mem, seed=11)
    rows: list[SearchRow] = []
    few = max(3, args.repeats // 4)
    every = f"all {n:,}"

    def add(scope: str, method: str, t: Timing) -> None:
        rows.append(SearchRow(scope, method, t))
        flag = "" if t.median_ms < 200 else "  over 200 ms"
        print(f"{scope + ': ' + method:<58}{_fmt(t):>17}{flag}", flush=True)

    started = time.perf_counter()
    matrix = vector_matrix(mem, "frames", FRAME_MODEL)
    load_s = time.perf_counter() - started
    print(f"(vidmem matrix: {n:,} vectors loaded once in {load_s:.1f} s, {matrix.vectors.nbytes / 1e6:.0f} MB)")
    add(every, VIDMEM_ALL,
        measure(lambda p: queries.search_frames(mem, _FRAMES, p.query, k=10, method="matrix"), params, args.repeats))
    add(every, "vidmem DuckDB SQL (similar_frames, exact)",
        measure(lambda p: queries.search_frames(mem, _FRAMES, p.query, k=10, method="sql"), params, few))
    vectors = matrix.vectors.copy()
    add(every, "NumPy brute force (matrix in RAM)",
        measure(lambda p: np.argpartition(-(vectors @ p.query), 10)[:10], params, args.repeats))
    try:
        import faiss

        faiss.omp_set_num_threads(args.threads)
        index = faiss.IndexFlatIP(FRAME_DIM)
        index.add(vectors)
        add(every, "FAISS IndexFlatIP (exact)",
            measure(lambda p: index.search(p.query[None, :], 10), params, args.repeats))
    except ImportError:
        print("(FAISS not installed: pip install faiss-cpu to compare)")
    if scon is not None:
        def sqlite_all(p: Params) -> Any:
            got = scon.execute("SELECT video_id, frame_index, embedding FROM frame_embeddings").fetchall()
            m = np.frombuffer(b"".join(r[2] for r in got), np.float32).reshape(len(got), FRAME_DIM)
            return np.argpartition(-(m @ p.query), 10)[:10]

        add(every, "SQLite (read vectors, then NumPy)", measure(sqlite_all, params, few))
    add("one video", "vidmem DuckDB SQL (search_frames, exact)",
        measure(lambda p: queries.search_frames(mem, _FRAMES, p.query, k=10, video_id=p.video_id, method="sql"),
                params, args.repeats))
    add("one video", VIDMEM_ONE,
        measure(lambda p: queries.search_frames(mem, _FRAMES, p.query, k=10, video_id=p.video_id, method="matrix"),
                params, args.repeats))
    if scon is not None:
        def sqlite_one(p: Params) -> Any:
            got = scon.execute(
                "SELECT frame_index, embedding FROM frame_embeddings WHERE video_id = ?", [p.video_id]
            ).fetchall()
            m = np.frombuffer(b"".join(r[1] for r in got), np.float32).reshape(len(got), FRAME_DIM)
            return np.argpartition(-(m @ p.query), 10)[:10]

        add("one video", "SQLite (read vectors, then NumPy)", measure(sqlite_one, params, args.repeats))
    figures = search_figures(rows)
    figures.append(Figure("frame matrix load (once per process)", round(load_s, 2), "s"))
    return figures


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.queries", description=__doc__.split("\n\n")[0])
    parser.add_argument("--hours", type=int, default=100, help="hours of synthetic video (one video per hour)")
    parser.add_argument("--repeats", type=int, default=20, help="timed runs per query (after one warm-up)")
    parser.add_argument("--threads", type=int, default=2, help="DuckDB and FAISS threads (targets are for 2)")
    parser.add_argument("--no-sqlite", action="store_true", help="skip the SQLite side (and its build)")
    parser.add_argument("--rebuild", action="store_true", help="rebuild the cached synthetic memory")
    parser.add_argument("--only", nargs="*", help="run only the queries whose names contain these strings")
    parser.add_argument("--no-search", action="store_true", help="skip the top-10 frame search comparison")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
