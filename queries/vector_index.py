"""Exact top-k over stored embeddings, fast enough for a whole archive, and an optional HNSW index.

Three ways to rank stored vectors by cosine against a query vector, all over the same rows:

- SQL (`similar_frames` / `similar_texts` macros): exact, no state; best for one video (thousands
  of rows), slow for an archive (about 1 s for 360k 512-d frames on 2 cores).
- In-process matrix (`VectorMatrix`): exact. The embeddings of one model are read once into a
  NumPy float32 matrix (3 s and 4 bytes per value for 360k x 512) and each query is one
  matrix-vector product (tens of ms). Reloaded when the memory's videos change.
- HNSW (DuckDB's vss extension, `build_frame_index`): approximate, persisted in a writable DuckDB
  file; used when present, current and loadable. Building it is slow (minutes per 10k vectors on
  2 cores), so it is opt-in.

Embeddings are stored L2-normalized (memory.schema), so cosine is a dot product; queries are
normalized here too.
"""

import logging
import threading
import time
import weakref
from collections import OrderedDict
from dataclasses import dataclass
from typing import Literal

import duckdb
import numpy as np
import pyarrow as pa

from memory import Memory
from queries._state import SEARCH_SCHEMA, ensure_state_table, get_state, log_once, memory_fingerprint, set_state
from queries.errors import ParameterError, QueryError
from queries.run import run_sql

log = logging.getLogger(__name__)

Source = Literal["frames", "texts"]

#: (table, key columns) per source
_SOURCES: dict[str, tuple[str, tuple[str, ...]]] = {
    "frames": ("frame_embeddings", ("video_id", "frame_index", "t_s")),
    "texts": ("text_embeddings", ("video_id", "source", "item_id")),
}

_FRAME_INDEX_TABLE = f"{SEARCH_SCHEMA}.frame_vectors"


def normalize(vector: np.ndarray, dim: int | None = None) -> np.ndarray:
    """`vector` as one unit-length float32 row; ParameterError for a wrong shape or a zero vector."""
    vec = np.asarray(vector, dtype=np.float32)
    if vec.ndim == 2 and vec.shape[0] == 1:
        vec = vec[0]
    if vec.ndim != 1 or (dim is not None and vec.shape[0] != dim):
        want = f"({dim},)" if dim is not None else "(d,)"
        raise ParameterError(f"query vector must have shape {want}, got {vec.shape}")
    norm = float(np.linalg.norm(vec))
    if not np.isfinite(norm) or norm == 0.0:
        raise ParameterError("query vector must be finite and non-zero")
    return vec / norm


@dataclass
class VectorMatrix:
    """The embeddings of one model and source, in memory: keys (Arrow) and a (n, d) float32 matrix."""

    source: str
    model: str
    fingerprint: str
    keys: pa.Table
    vectors: np.ndarray


def top_k(
    vectors: np.ndarray, query: np.ndarray, k: int, mask: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Row numbers and cosine scores of the best `k` rows of `vectors` (among `mask`), best first;
    ties go to the earlier row. `query` must be unit length (see `normalize`)."""
    if vectors.shape[0] == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.float32)
    if vectors.shape[1] != query.shape[0]:
        raise ParameterError(f"query vector has {query.shape[0]} values, the stored ones {vectors.shape[1]}")
    rows = np.arange(vectors.shape[0]) if mask is None else np.flatnonzero(mask)
    scores = (vectors @ query) if mask is None else (vectors[rows] @ query)
    k = min(k, scores.shape[0])
    if k == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.float32)
    part = np.argpartition(-scores, k - 1)[:k] if k < scores.shape[0] else np.arange(scores.shape[0])
    order = part[np.lexsort((part, -scores[part]))]
    return rows[order], scores[order]


_lock = threading.Lock()
#: Loaded matrices, per memory. A file memory's outlive its connection (vidmem serve opens the file for
#: each burst of requests so that an ingest can write between them; reloading 134,000 vectors took
#: 2 s of every first search): keyed by the file, the fingerprint says whether they are still current,
#: and only the most recently used few are kept. An in-memory database's live with its Memory object.
_matrices: "weakref.WeakKeyDictionary[Memory, dict[tuple[str, str], VectorMatrix]]" = weakref.WeakKeyDictionary()
_file_matrices: "OrderedDict[tuple[str, str, str], VectorMatrix]" = OrderedDict()
FILE_MATRICES_KEPT = 4


def _file_key(memory: Memory) -> str | None:
    location = memory.uri.location
    return None if memory.uri.kind == "duckdb" and location in ("", ":memory:") else str(memory.uri)


def _cached(memory: Memory, source: str, model: str) -> VectorMatrix | None:
    key = _file_key(memory)
    if key is None:
        return _matrices.get(memory, {}).get((source, model))
    hit = _file_matrices.get((key, source, model))
    if hit is not None:
        _file_matrices.move_to_end((key, source, model))
    return hit


def _keep(memory: Memory, matrix: VectorMatrix) -> None:
    key = _file_key(memory)
    if key is None:
        _matrices.setdefault(memory, {})[(matrix.source, matrix.model)] = matrix
        return
    _file_matrices[(key, matrix.source, matrix.model)] = matrix
    while len(_file_matrices) > FILE_MATRICES_KEPT:
        _file_matrices.popitem(last=False)


def vector_matrix(memory: Memory, source: Source, model: str, fingerprint: str | None = None) -> VectorMatrix:
    """The in-process matrix of `model`'s `source` embeddings, (re)loaded if the memory changed
    (`fingerprint`: the memory's current one, when the caller has it already)."""
    table, keys = _SOURCES[source]
    fingerprint = fingerprint or memory_fingerprint(memory)
    with _lock:
        cached = _cached(memory, source, model)
        if cached is not None and cached.fingerprint == fingerprint:
            return cached
        started = time.perf_counter()
        rows = run_sql(
            memory,
            f"SELECT {', '.join(keys)}, embedding FROM {table} WHERE model = ? ORDER BY {', '.join(keys[:2])}",
            [model],
        )
        vectors = _to_matrix(rows.column("embedding"), f"{table} (model {model})")
        matrix = VectorMatrix(source, model, fingerprint, rows.drop_columns(["embedding"]), vectors)
        _keep(memory, matrix)
        log.info(
            "loaded %d %s embeddings of %s into memory (%.0f MB) in %.1f s",
            vectors.shape[0], source, model, vectors.nbytes / 1e6, time.perf_counter() - started,
        )
        return matrix


def cached_matrix(memory: Memory, source: Source, model: str, fingerprint: str) -> VectorMatrix | None:
    """The matrix `vector_matrix` would return, if it is loaded and current; never loads."""
    with _lock:
        cached = _cached(memory, source, model)
    return cached if cached is not None and cached.fingerprint == fingerprint else None


_models: "weakref.WeakKeyDictionary[Memory, dict[str, tuple[str, list[str]]]]" = weakref.WeakKeyDictionary()


def stored_models(memory: Memory, table_name: str, fingerprint: str) -> list[str]:
    """The distinct `model` values of an embeddings table (cached while the memory is unchanged)."""
    with _lock:
        hit = _models.get(memory, {}).get(table_name)
    if hit is not None and hit[0] == fingerprint:
        return hit[1]
    models = run_sql(memory, f"SELECT DISTINCT model FROM {table_name} ORDER BY model").column("model").to_pylist()
    with _lock:
        _models.setdefault(memory, {})[table_name] = (fingerprint, models)
    return models


def _to_matrix(column: pa.ChunkedArray, what: str) -> np.ndarray:
    if len(column) == 0:
        return np.zeros((0, 0), np.float32)
    lists = column.combine_chunks()
    lengths = pa.compute.list_value_length(lists).to_numpy(zero_copy_only=False)
    if lengths.min() != lengths.max():
        raise QueryError(f"{what}: vectors of different lengths {int(lengths.min())}..{int(lengths.max())}")
    flat = lists.flatten().to_numpy(zero_copy_only=False).astype(np.float32, copy=False)
    return flat.reshape(len(lists), int(lengths[0]))


# ------------------------------------------------------------------------------ HNSW (vss)


def build_frame_index(memory: Memory, model: str) -> bool:
    """Build (or rebuild) the HNSW index over `model`'s frame embeddings in a writable DuckDB memory.

    Returns False, with one log line saying why, when it cannot: the vss extension does not load,
    the memory is read-only or a DuckLake, or there are no such embeddings. Slow: opt in for
    archives where exact search is too slow.
    """
    if memory.read_only or memory.uri.kind != "duckdb":
        log.warning("HNSW index not built: memory %s is read-only or not a DuckDB file; exact search stays", memory.uri)
        return False
    if not memory.load_extension("vss"):
        log.warning("HNSW index not built: DuckDB's vss extension did not load; exact search stays")
        return False
    dims = run_sql(
        memory, "SELECT DISTINCT len(embedding) AS d FROM frame_embeddings WHERE model = ?", [model]
    ).column("d").to_pylist()
    if len(dims) != 1:
        log.warning("HNSW index not built: %s has %s frame embedding sizes", model, dims or "no")
        return False
    dim = int(dims[0])
    fingerprint = memory_fingerprint(memory)
    started = time.perf_counter()
    cur = memory.cursor()
    try:
        cur.execute("SET hnsw_enable_experimental_persistence = true")
        cur.execute("BEGIN TRANSACTION")
        ensure_state_table(cur)
        cur.execute(f"DROP TABLE IF EXISTS {_FRAME_INDEX_TABLE}")
        cur.execute(
            f"CREATE TABLE {_FRAME_INDEX_TABLE} AS SELECT video_id, frame_index, t_s, embedding::FLOAT[{dim}] AS vec "
            "FROM frame_embeddings WHERE model = ?",
            [model],
        )
        cur.execute(
            f"CREATE INDEX frame_vectors_hnsw ON {_FRAME_INDEX_TABLE} USING HNSW (vec) WITH (metric = 'cosine')"
        )
        set_state(cur, "frame_hnsw", f"{model}|{dim}|{fingerprint}")
        cur.execute("COMMIT")
    except duckdb.Error as exc:
        cur.execute("ROLLBACK")
        log.warning("HNSW index not built (%s); exact search stays", exc)
        return False
    finally:
        cur.close()
    log.info("built the HNSW index over %s frame embeddings in %.1f s", model, time.perf_counter() - started)
    return True


def hnsw_top_k(memory: Memory, model: str, query: np.ndarray, k: int, fingerprint: str) -> pa.Table | None:
    """Top-k frames through the HNSW index, or None (logged once) when it is absent, stale or unusable."""
    state = get_state(memory, "frame_hnsw")
    if state is None:
        return None
    index_model, dim, state_fingerprint = state.split("|")
    if index_model != model:
        return None
    if state_fingerprint != fingerprint:
        log_once(memory, "stale", "the HNSW frame index is older than the memory's rows; using exact search "
                  "(rebuild it with queries.build_frame_index)")
        return None
    if not memory.load_extension("vss"):
        log_once(memory, "vss", "DuckDB's vss extension did not load: HNSW index unusable, using exact search")
        return None
    vec = normalize(query, int(dim)).tolist()
    return run_sql(
        memory,
        f"SELECT video_id, frame_index, t_s, 1 - array_cosine_distance(vec, ?::FLOAT[{int(dim)}]) AS score "
        f"FROM {_FRAME_INDEX_TABLE} ORDER BY array_cosine_distance(vec, ?::FLOAT[{int(dim)}]) LIMIT ?",
        [vec, vec, k],
    )
