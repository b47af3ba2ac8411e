"""Keyword search over transcript, on-screen text and captions: DuckDB full-text search (BM25)
where the fts extension loads and the memory can hold an index, substring matching otherwise.

The index lives in the memory beside its tables: `vidmem_search.text_docs` (one row per
`text_items` row) plus the schema `fts_vidmem_search_text_docs` that the fts extension builds. It
is stamped with the memory's fingerprint and rebuilt by a writer when videos change; a reader with
a stale or missing index falls back to substring matching, and says so once.
"""

import logging
import re
import time
from typing import Literal

import duckdb
import pyarrow as pa

from memory import Memory
from queries._state import SEARCH_SCHEMA, ensure_state_table, get_state, log_once, memory_fingerprint, set_state
from queries.errors import QueryError
from queries.library import cursor, install
from queries.question_words import spelling_variants
from queries.run import duckdb_message, run_sql

log = logging.getLogger(__name__)

DOCS_TABLE = f"{SEARCH_SCHEMA}.text_docs"
FTS_SCHEMA = f"fts_{SEARCH_SCHEMA}_text_docs"
_STATE = "text_fts"
#: How the index reads a text: words and numbers ('GATE 5', 'under 10', '$15' as 15), stemmed, the fts
#: extension's English stop words dropped. Its default drops every character but a-z, so a number
#: asked about ('an age limit of ten', read as 10) matched no line; an index built the old way is
#: rebuilt (its stamp lacks the form).
_FORM = "words and numbers"
_IGNORE = r"(\.|[^a-z0-9])+"

# BM25 as the fts extension's match_bm25 macro computes it (k1 = 1.2, b = 0.75, its log base 10),
# but over the index's own tables in one pass: the macro runs once per document, this once per
# query, and only the top k documents' texts are read.
_BM25 = """
WITH tokens AS (SELECT DISTINCT stem(unnest({fts}.tokenize(?)), 'porter') AS t),
term_tf AS (
    SELECT terms.docid, terms.termid, count(*) AS tf
    FROM {fts}.terms AS terms
    JOIN {fts}.dict AS dict ON dict.termid = terms.termid
    JOIN tokens ON tokens.t = dict.term
    GROUP BY terms.docid, terms.termid
), scores AS (
    SELECT docs.name AS doc_id,
           sum(log((stats.num_docs - dict.df + 0.5) / (dict.df + 0.5) + 1)
               * (tf * (1.2 + 1) / (tf + 1.2 * (1 - 0.75 + 0.75 * docs.len / stats.avgdl)))) AS score
    FROM term_tf
    JOIN {fts}.docs AS docs ON docs.docid = term_tf.docid
    JOIN {fts}.dict AS dict ON dict.termid = term_tf.termid
    CROSS JOIN {fts}.stats AS stats
    GROUP BY docs.name
), ranked AS (
    SELECT s.doc_id, s.score FROM scores AS s JOIN {docs} AS d ON d.doc_id = s.doc_id {where}
    ORDER BY s.score DESC, s.doc_id LIMIT ?
)
SELECT d.video_id, d.source, d.item_id, d.start_s, d.end_s, d.text, r.score
FROM ranked AS r JOIN {docs} AS d ON d.doc_id = r.doc_id
ORDER BY r.score DESC, r.doc_id
"""
_WORD = re.compile(r"\w+", re.UNICODE)


def build_text_index(memory: Memory) -> bool:
    """(Re)build the full-text index of a writable memory if its rows changed since the last build.

    True when a current index exists afterwards; False, with one log line, when the fts extension
    does not load or the memory cannot hold the index (read-only; DuckLake).
    """
    fingerprint = f"{memory_fingerprint(memory)} {_FORM}"
    if get_state(memory, _STATE) == fingerprint:
        return memory.load_extension("fts")
    if memory.uri.kind == "ducklake":
        # The fts extension writes macros with parameter defaults, which DuckLake 1.5.5 cannot store.
        log_once(memory, "fts-lake", "a DuckLake memory holds no full-text index: keyword search matches substrings")
        return False
    if memory.read_only:
        log_once(memory, "fts-ro", "no current full-text index and the memory is read-only: keyword search "
                  "uses substring matching (open it writable once, or call queries.build_text_index)")
        return False
    if not memory.load_extension("fts"):
        log_once(memory, "fts-ext", "DuckDB's fts extension did not load: keyword search uses substring matching")
        return False
    install(memory)
    started = time.perf_counter()
    cur = cursor(memory)
    try:
        cur.execute("BEGIN TRANSACTION")
        ensure_state_table(cur)
        cur.execute(
            f"CREATE OR REPLACE TABLE {DOCS_TABLE} AS "
            "SELECT row_number() OVER (ORDER BY video_id, source, item_id)::BIGINT AS doc_id, "
            "video_id, source, item_id, start_s, end_s, text FROM text_items"
        )
        cur.execute(f"PRAGMA create_fts_index('{DOCS_TABLE}', 'doc_id', 'text', ignore = '{_IGNORE}', overwrite = 1)")
        set_state(cur, _STATE, fingerprint)
        cur.execute("COMMIT")
    except duckdb.Error as exc:
        cur.execute("ROLLBACK")
        log_once(memory, "fts-build", f"could not build the full-text index ({duckdb_message(exc)}); keyword "
                  "search uses substring matching")
        return False
    finally:
        cur.close()
    log.info("built the full-text index of %s in %.1f s", memory.uri, time.perf_counter() - started)
    return True


def keyword_rows(
    memory: Memory,
    query: str,
    *,
    k: int,
    video_id: str | None,
    sources: list[str] | None,
    match: Literal["all", "any"] = "all",
) -> tuple[pa.Table, str]:
    """Rows of `text_items` matching `query`, best first, with a score; and the method used
    ('bm25' or 'substring'). BM25 ranks texts holding any of the words; substring matching needs
    every word unless `match` is 'any' (then texts holding more of the words rank first)."""
    words = [w.lower() for w in _WORD.findall(query)]
    if not words:
        raise QueryError(f"keyword query {query!r} has no words to look for")
    if build_text_index(memory):
        filters: list[str] = []
        # each word's other spelling too ('programmes' finds Whisper's 'Programs'): BM25 ranks by any word
        params: list[object] = [" ".join(dict.fromkeys(w for word in words for w in (word, *spelling_variants(word))))]
        if video_id is not None:
            filters.append("d.video_id = ?")
            params.append(video_id)
        if sources is not None:
            filters.append("list_contains(?, d.source)")
            params.append(sources)
        where = f"WHERE {' AND '.join(filters)}" if filters else ""
        try:
            return run_sql(memory, _BM25.format(fts=FTS_SCHEMA, docs=DOCS_TABLE, where=where), [*params, k]), "bm25"
        except QueryError as exc:  # another fts release laid its index out differently: use its own macro
            log_once(memory, "fts-layout", f"BM25 by the fts extension's match_bm25 macro (slower): {exc}")
        rows = run_sql(
            memory,
            f"SELECT d.video_id, d.source, d.item_id, d.start_s, d.end_s, d.text, d.score FROM ("
            f"  SELECT *, {FTS_SCHEMA}.match_bm25(doc_id, ?) AS score FROM {DOCS_TABLE}) AS d {where} "
            f"{'AND' if where else 'WHERE'} d.score IS NOT NULL ORDER BY d.score DESC, d.doc_id LIMIT ?",
            [*params, k],
        )
        return rows, "bm25"
    # Every word must occur (case-insensitive substring), or with match='any' at least one, texts
    # with more distinct words first; more occurrences rank higher.
    occurrences = " + ".join(["(length(lower(text)) - length(replace(lower(text), ?, ''))) / length(?)"] * len(words))
    plain: list[object] = [p for w in words for p in (w, w)]
    if match == "any":
        occurrences = " + ".join(["contains(lower(text), ?)::INTEGER * 1000"] * len(words)) + " + " + occurrences
        plain = [*words, *plain]
    found = (" OR " if match == "any" else " AND ").join(["contains(lower(text), ?)"] * len(words))
    plain += [*words, video_id, video_id, sources, sources, k]
    rows = run_sql(
        memory,
        f"SELECT video_id, source, item_id, start_s, end_s, text, ({occurrences})::DOUBLE AS score FROM text_items "
        f"WHERE ({found}) AND (?::VARCHAR IS NULL OR video_id = ?) "
        "AND (?::VARCHAR[] IS NULL OR list_contains(?, source)) "
        "ORDER BY score DESC, video_id, start_s LIMIT ?",
        plain,
    )
    return rows, "substring"
