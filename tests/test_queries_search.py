"""Semantic, keyword and vector-index search over hand-placed rows, with the real packaged MiniLM.

Frame embeddings in these rows are MiniLM embeddings of each frame's description (see
tests/test_queries_data.py): no CLIP weights exist offline, and this keeps text-to-frame search
semantically real while exercising the same code path a CLIP text encoder takes.
"""

import logging
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import queries
from memory import Memory, VideoRecord, VideoRows, open_memory, rows_table
from tests.test_queries_data import MODEL, TRAIN_SENTENCE, MiniLM

PARAPHRASES = [
    "When does the train depart in the morning?",
    "a railway train departing from the station at dawn",
    "red train leaving early",
]


@pytest.fixture(scope="module")
def mem(known_memory: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    """A writable copy (full-text index allowed)."""
    path = tmp_path_factory.mktemp("s") / "known.duckdb"
    shutil.copy(known_memory, path)
    with open_memory(path) as memory:
        queries.install(memory)
        yield memory


@pytest.fixture
def reader(known_memory: Path, tmp_path: Path) -> Iterator[Memory]:
    """A read-only copy without any index."""
    path = tmp_path / "known.duckdb"
    shutil.copy(known_memory, path)
    with open_memory(path, read_only=True) as memory:
        yield memory


class OtherModel:
    model = "ViT-B-32/openai"

    def encode(self, texts: Any) -> np.ndarray:
        return np.ones((len(texts), 512), np.float32) / np.sqrt(512)


# ------------------------------------------------------------------------------ text search


@pytest.mark.parametrize("query", PARAPHRASES)
@pytest.mark.parametrize("method", ["sql", "matrix"])
def test_transcript_search_finds_the_spoken_sentence_from_a_paraphrase(
    mem: Memory, minilm: MiniLM, query: str, method: Any
) -> None:
    hits = queries.search_texts(mem, minilm, query, k=3, sources=["transcript"], method=method)
    best = hits[0]
    assert (best.video_id, best.source, best.item_id) == ("vA", "transcript", 0)
    assert best.text == TRAIN_SENTENCE and (best.start_s, best.end_s) == (1.0, 3.5)
    assert best.score > hits[1].score + 0.1  # not a coin toss against "Trains are a cheap way to travel"
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


def test_sql_and_matrix_rank_alike(mem: Memory, minilm: MiniLM) -> None:
    a = queries.search_texts(mem, minilm, "cooking with flour", k=5, method="sql")
    b = queries.search_texts(mem, minilm, "cooking with flour", k=5, method="matrix")
    assert [(h.video_id, h.source, h.item_id) for h in a] == [(h.video_id, h.source, h.item_id) for h in b]
    assert [h.score for h in a] == pytest.approx([h.score for h in b], abs=1e-5)
    assert (a[0].video_id, a[0].item_id) == ("vB", 1)


def test_search_transcript_within_one_video(mem: Memory, minilm: MiniLM) -> None:
    hits = queries.search_transcript(mem, minilm, "trains", k=10, video_id="vB")
    assert {h.video_id for h in hits} == {"vB"} and len(hits) == 5
    assert hits[0].item_id == 4


def test_text_search_over_on_screen_text_and_captions(mem: Memory, minilm: MiniLM) -> None:
    hit = queries.search_texts(mem, minilm, "way out of the platform", k=1, sources=["ocr_spans"])[0]
    assert (hit.video_id, hit.text, hit.start_s, hit.end_s) == ("vA", "PLATFORM 9 EXIT", 4.0, 9.0)
    hit = queries.search_texts(mem, minilm, "a puppy on the road", k=1, sources=["captions"])[0]
    assert (hit.item_id, hit.start_s, hit.text) == (1, 10.0, "a brown dog sits on the street")


def test_text_search_from_sql_with_a_vector(mem: Memory, minilm: MiniLM) -> None:
    vec = minilm.encode(["When does the train depart?"])[0].tolist()
    got = queries.run_sql(
        mem, "SELECT video_id, item_id FROM similar_texts(?::FLOAT[], k := 1, sources := ['transcript'])", [vec]
    ).to_pylist()
    assert got == [{"video_id": "vA", "item_id": 0}]


# ------------------------------------------------------------------------------ frame search


@pytest.mark.parametrize("method", ["sql", "matrix", "auto"])
def test_text_to_frame_search(mem: Memory, minilm: MiniLM, method: Any) -> None:
    hits = queries.search_frames(mem, minilm, "a dog on the street", k=3, method=method)
    assert (hits[0].video_id, hits[0].t_s, hits[0].frame_index) == ("vA", 15.0, 150)
    hits = queries.search_frames(mem, minilm, "people cheering at a soccer game", k=10, method=method)
    assert {(h.video_id, h.t_s) for h in hits} == {("vB", float(t)) for t in range(20, 30)}


def test_frame_search_with_a_vector_and_within_a_video(mem: Memory, minilm: MiniLM) -> None:
    image_vec = minilm.encode(["a kitchen with flour and a bowl"])[0]  # as if from an image tower
    hits = queries.search_frames(mem, minilm, image_vec, k=2)
    assert [(h.video_id, h.t_s) for h in hits] == [("vB", 10.0), ("vB", 11.0)]  # ties: earlier frame first
    assert hits[0].score == pytest.approx(1.0, abs=1e-5)
    within = queries.search_frames(mem, minilm, "a kitchen", k=3, video_id="vA")
    assert {h.video_id for h in within} == {"vA"}


def test_frames_like_an_example_frame(mem: Memory) -> None:
    hits = queries.frames_like(mem, "vA", 15.2, k=3)  # the dog frame at 15 s is the example
    assert all((h.video_id, h.t_s) != ("vA", 15.0) for h in hits)
    assert hits[0].score < 0.99  # nothing else shows the dog
    like_platform = queries.frames_like(mem, "vA", 3.0, k=9)
    assert {h.t_s for h in like_platform} == {float(t) for t in range(10) if t != 3}


# ------------------------------------------------------------------------------ keyword search


def test_keyword_search_uses_bm25_on_a_writable_memory(mem: Memory) -> None:
    hits = queries.keyword_search(mem, "train")
    # stemming: "Trains" (vB) matches "train"; BM25 scores, best first
    assert {(h.video_id, h.item_id) for h in hits} == {("vA", 0), ("vB", 4)}
    assert hits[0].score >= hits[1].score > 0
    assert queries.keyword_search(mem, "platform", sources=["ocr_spans"])[0].text == "PLATFORM 9 EXIT"
    assert queries.keyword_search(mem, "platform", video_id="vB") == []


def test_keyword_search_finds_numbers(mem: Memory) -> None:
    """A number is a word of the index: test19's "an age limit of ten" (read as 10) found no line saying
    "under 10", as the fts extension's default keeps only the letters a-z."""
    assert [h.text for h in queries.keyword_search(mem, "9", match="any")] == ["PLATFORM 9 EXIT"]
    assert [h.text for h in queries.keyword_search(mem, "2 gate", match="all")] == ["CAMERA 2 NORTH GATE"]


@pytest.mark.parametrize("query", ["train station", "platform", "the morning train", "cups of flour", "platform 9"])
def test_bm25_scores_equal_the_fts_extensions_macro(mem: Memory, query: str) -> None:
    """keyword_search computes BM25 over the index tables in one pass; it must agree with match_bm25."""
    hits = queries.keyword_search(mem, query, k=20)
    macro = queries.run_sql(
        mem,
        "SELECT video_id, source, item_id, score FROM (SELECT *, fts_vidmem_search_text_docs.match_bm25(doc_id, ?) "
        "AS score FROM vidmem_search.text_docs) WHERE score IS NOT NULL ORDER BY score DESC, doc_id",
        [query],
    ).to_pylist()
    assert len(hits) == len(macro) > 0
    expected = [(r["video_id"], r["source"], r["item_id"]) for r in macro]
    assert [(h.video_id, h.source, h.item_id) for h in hits] == expected
    assert [h.score for h in hits] == pytest.approx([r["score"] for r in macro], rel=1e-9)


def test_keyword_search_falls_back_to_substrings_on_a_reader(reader: Memory, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="queries"):
        hits = queries.keyword_search(reader, "TRAIN station")
    assert [(h.video_id, h.item_id) for h in hits] == [("vA", 0)]  # every word must occur
    assert "substring matching" in caplog.text
    hits = queries.keyword_search(reader, "the")
    assert hits[0].text == TRAIN_SENTENCE  # "the" occurs twice there: ranked first


def test_a_reader_of_a_memory_with_an_older_library_keeps_its_full_text_index(
    known_memory: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The library attached beside a read-only memory (another version in the file) still reaches the
    memory's own schemas: BM25 over its index, not the substring fallback."""
    path = tmp_path / "old.duckdb"
    shutil.copy(known_memory, path)
    with open_memory(path) as memory:
        assert queries.build_text_index(memory)
        memory.con.execute("CREATE OR REPLACE VIEW vidmem_library AS SELECT 'x' AS name, 'old' AS version")
    with open_memory(path, read_only=True) as memory, caplog.at_level(logging.INFO, logger="queries"):
        assert queries.install(memory).mode == "attached"
        hits = queries.keyword_search(memory, "train")
        assert {(h.video_id, h.item_id) for h in hits} == {("vA", 0), ("vB", 4)}  # stemmed: BM25
        assert "substring matching" not in caplog.text


def test_full_text_index_follows_new_videos(mem: Memory) -> None:
    assert queries.build_text_index(mem)
    assert queries.keyword_search(mem, "zeppelin") == []
    _write_video(mem, "vC", transcript=["A zeppelin floats over the harbour."])
    try:
        hits = queries.keyword_search(mem, "zeppelin")
        assert [(h.video_id, h.start_s) for h in hits] == [("vC", 0.0)]
    finally:
        _delete_video(mem, "vC")


# ------------------------------------------------------------------------------ failures


def test_search_with_another_model_is_refused(mem: Memory) -> None:
    with pytest.raises(queries.SearchUnavailable, match=r"holds frame_embeddings of \['all-MiniLM-L6-v2'\]"):
        queries.search_frames(mem, OtherModel(), "a dog")


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda m, e: queries.search_texts(m, e, "x", k=0), queries.ParameterError, "k must be"),
        (lambda m, e: queries.search_texts(m, e, "", k=3), queries.ParameterError, "query"),
        (lambda m, e: queries.search_texts(m, e, "x", sources=["tracks"]), queries.ParameterError, "sources"),
        (lambda m, e: queries.search_frames(m, e, np.zeros(384)), queries.ParameterError, "non-zero"),
        (lambda m, e: queries.search_frames(m, e, np.ones(12), method="matrix"), queries.ParameterError, "12 values"),
        (lambda m, e: queries.search_frames(m, e, "x", video_id="nope"), queries.UnknownVideoError, "nope"),
        (lambda m, e: queries.search_frames(m, e, "x", method="hnsw"), queries.SearchUnavailable, "HNSW"),
        (lambda m, e: queries.search_frames(m, object(), "x"), queries.ParameterError, "encoder"),
        (lambda m, e: queries.keyword_search(m, "?!"), queries.QueryError, "no words"),
        (lambda m, e: queries.frames_like(m, "vA", 1.0, k=10_001), queries.ParameterError, "k must be"),
    ],
)
def test_bad_searches_raise_clear_errors(mem: Memory, minilm: MiniLM, call: Any, error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        call(mem, minilm)


def test_searching_an_empty_memory(tmp_path: Path, minilm: MiniLM) -> None:
    with open_memory(tmp_path / "empty.duckdb") as memory:
        with pytest.raises(queries.SearchUnavailable, match="holds no frame_embeddings: ingest with the clip role"):
            queries.search_frames(memory, minilm, "a dog")
        with pytest.raises(queries.SearchUnavailable, match="no text_embeddings"):
            queries.search_transcript(memory, minilm, "a train")
        assert queries.keyword_search(memory, "train") == []


# ------------------------------------------------------------------------------ caches and indexes


def test_matrix_cache_reloads_when_videos_change(mem: Memory, minilm: MiniLM) -> None:
    query = "a hot air balloon over the sea"
    before = queries.search_frames(mem, minilm, query, k=1, method="matrix")[0]
    assert before.video_id != "vC"
    _write_video(mem, "vC", frames=["a hot air balloon over the sea"], encoder=minilm)
    try:
        after = queries.search_frames(mem, minilm, query, k=1, method="matrix")[0]
        assert (after.video_id, after.t_s) == ("vC", 0.0)
    finally:
        _delete_video(mem, "vC")
    assert queries.search_frames(mem, minilm, query, k=1, method="matrix")[0] == before


def test_a_reopened_file_reuses_its_matrix_until_the_videos_change(
    known_memory: Path, tmp_path: Path, minilm: MiniLM
) -> None:
    """vidmem serve opens the file per burst of requests: the matrix must not be loaded again each time."""
    from queries.vector_index import vector_matrix

    path = tmp_path / "known.duckdb"
    shutil.copy(known_memory, path)
    with open_memory(path, read_only=True) as memory:
        first = vector_matrix(memory, "texts", MODEL)
    with open_memory(path, read_only=True) as memory:
        assert vector_matrix(memory, "texts", MODEL) is first
        hits = queries.search_texts(memory, minilm, TRAIN_SENTENCE, k=1, method="matrix")
        assert hits and hits[0].text == TRAIN_SENTENCE
    with open_memory(path) as memory:
        _write_video(memory, "vC", frames=["a hot air balloon over the sea"], encoder=minilm)
    with open_memory(path, read_only=True) as memory:
        assert vector_matrix(memory, "texts", MODEL) is not first  # another file content: loaded afresh


def test_hnsw_index_round_trip(
    known_memory: Path, tmp_path: Path, minilm: MiniLM, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "hnsw.duckdb"
    shutil.copy(known_memory, path)
    query = "a dog on the street"
    with open_memory(path) as memory:
        assert queries.build_frame_index(memory, MODEL)
        exact = queries.search_frames(memory, minilm, query, k=1, method="matrix")
        approx = queries.search_frames(memory, minilm, query, k=1, method="hnsw")
        assert [(h.video_id, h.frame_index) for h in approx] == [(h.video_id, h.frame_index) for h in exact]
        assert approx[0].score == pytest.approx(exact[0].score, abs=1e-5)
    with open_memory(path, read_only=True) as memory:  # a reader uses the persisted index
        assert queries.search_frames(memory, minilm, query, k=1, method="hnsw")[0].t_s == 15.0
    with open_memory(path) as memory:
        _write_video(memory, "vC", frames=["a red balloon"], encoder=minilm)
        with caplog.at_level(logging.INFO, logger="queries"):
            hits = queries.search_frames(memory, minilm, query, k=1)  # stale index: exact search
        assert "older than the memory's rows" in caplog.text
        assert hits[0].t_s == 15.0
        with pytest.raises(queries.SearchUnavailable):
            queries.search_frames(memory, minilm, query, k=1, method="hnsw")


def test_hnsw_is_refused_on_a_reader(reader: Memory, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="queries"):
        assert not queries.build_frame_index(reader, MODEL)
    assert "read-only" in caplog.text


# ------------------------------------------------------------------------------ helpers


def _write_video(
    memory: Memory, vid: str, *, transcript: list[str] = (), frames: list[str] = (), encoder: MiniLM | None = None
) -> None:
    tables: dict[str, Any] = {}
    if transcript:
        tables["transcript"] = rows_table(
            "transcript",
            [dict(segment_id=i, start_s=float(i), end_s=i + 1.0, text=t) for i, t in enumerate(transcript)],
            vid,
        )
    if frames:
        assert encoder is not None
        vectors = encoder.encode(frames)
        tables["frame_embeddings"] = rows_table(
            "frame_embeddings",
            [dict(frame_index=i, t_s=float(i), model=MODEL, embedding=v.tolist()) for i, v in enumerate(vectors)],
            vid,
        )
    memory.write_video(VideoRows(VideoRecord(video_id=vid, path=f"/videos/{vid}.mp4", status="ok"), tables))


def _delete_video(memory: Memory, vid: str) -> None:
    from memory import VIDEO_TABLES

    for t in VIDEO_TABLES:
        memory.con.execute(f"DELETE FROM {t.name} WHERE video_id = ?", [vid])


def test_hybrid_search_fuses_keyword_and_meaning(mem: Memory, minilm: MiniLM) -> None:
    result = queries.hybrid_search(mem, "when does the train leave the station", encoder=minilm, k=5)
    best = result.hits[0]
    # found by both methods, so it outranks texts only one of them found
    assert (best.hit.video_id, best.hit.item_id, best.match) == ("vA", 0, "keyword+semantic")
    assert best.hit.text == TRAIN_SENTENCE and best.score == max(h.score for h in result.hits) <= 1.0
    assert {h.match for h in result.hits} <= {"keyword", "semantic", "keyword+semantic"}
    assert result.notes == ()


def test_hybrid_search_says_which_method_could_not_run(mem: Memory) -> None:
    result = queries.hybrid_search(mem, "train", k=3)
    assert result.hits and all(h.match == "keyword" for h in result.hits)
    assert result.notes == ("semantic search: no text encoder available here",)
    only_meaning = queries.hybrid_search(mem, "?!", k=3)  # no words: the keyword half is left out with a note
    assert only_meaning.hits == () and any(n.startswith("keyword search") for n in only_meaning.notes)
    with pytest.raises(queries.ParameterError, match="k must be"):
        queries.hybrid_search(mem, "train", k=0)
