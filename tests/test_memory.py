"""The memory: schema, atomic per-video writes, read-only opening, DuckLake, description."""

from pathlib import Path

import pyarrow as pa
import pytest

from memory import (
    SCHEMA_VERSION,
    SchemaError,
    StoreError,
    VideoRecord,
    VideoRows,
    describe_schema,
    metadata,
    open_memory,
    rows_table,
    schema_dict,
)


def _rows(video_id: str, n_segments: int = 2) -> VideoRows:
    record = VideoRecord(video_id=video_id, path=f"/videos/{video_id}.mp4", status="ok", duration_s=10.0)
    transcript = rows_table(
        "transcript",
        [
            {"segment_id": i, "start_s": i * 2.0, "end_s": i * 2.0 + 1.5, "text": f"segment {i}"}
            for i in range(n_segments)
        ],
        video_id,
    )
    emb = rows_table(
        "frame_embeddings", [{"frame_index": 0, "t_s": 0.0, "model": "m", "embedding": [0.6, 0.8]}], video_id
    )
    return VideoRows(record, {"transcript": transcript, "frame_embeddings": emb})


@pytest.fixture(params=["duckdb", "ducklake"])
def uri(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "duckdb":
        return str(tmp_path / "m.duckdb")
    return f"ducklake:sqlite:{tmp_path / 'cat.sqlite'}"


def test_new_memory_has_every_table_and_the_schema_version(uri: str) -> None:
    with open_memory(uri) as mem:
        assert set(mem.table_counts()) == {t for t in metadata.tables if t != "schema_info"}
        assert mem.query("SELECT value FROM schema_info WHERE key = 'schema_version'")["value"][0].as_py() == str(
            SCHEMA_VERSION
        )


def test_rewriting_a_video_replaces_its_rows(uri: str) -> None:
    with open_memory(uri) as mem:
        mem.write_video(_rows("v1", 3))
        mem.write_video(_rows("v2", 1))
        mem.write_video(_rows("v1", 2))
        counts = mem.query("SELECT video_id, count(*) AS n FROM transcript GROUP BY ALL ORDER BY 1").to_pylist()
        assert counts == [{"video_id": "v1", "n": 2}, {"video_id": "v2", "n": 1}]
        assert mem.table_counts()["videos"] == 2


def test_a_failed_write_leaves_the_previous_rows(uri: str) -> None:
    with open_memory(uri) as mem:
        mem.write_video(_rows("v1", 3))
        bad = _rows("v1", 1)
        # A table the database rejects mid-transaction (NOT NULL text) must roll everything back.
        broken = bad.tables["transcript"].set_column(4, "text", pa.array([None], pa.string()))
        with pytest.raises(StoreError):
            mem.write_video(VideoRows(bad.record, {**bad.tables, "transcript": broken}))
        assert mem.query("SELECT count(*) AS n FROM transcript")["n"][0].as_py() == 3


def test_failure_after_success_keeps_the_good_rows(uri: str) -> None:
    with open_memory(uri) as mem:
        mem.write_video(_rows("v1", 3))
        mem.record_failure(VideoRecord(video_id="v1", path="/videos/v1.mp4", status="failed", error="model crashed"))
        row = mem.query("SELECT status, error FROM videos").to_pylist()
        assert row == [{"status": "ok", "error": "model crashed"}]
        assert mem.table_counts()["transcript"] == 3


def test_read_only_memory_refuses_writes_and_sees_rows(tmp_path: Path) -> None:
    path = tmp_path / "m.duckdb"
    with open_memory(path) as mem:
        mem.write_video(_rows("v1"))
    with open_memory(path, read_only=True) as ro:
        assert ro.table_counts()["transcript"] == 2
        with pytest.raises(StoreError, match="read-only"):
            ro.write_video(_rows("v2"))


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: None, "no memory at"),
        (lambda p: p.write_text("not a database"), "cannot open memory"),
    ],
)
def test_opening_a_bad_memory_says_why(tmp_path: Path, make: object, message: str) -> None:
    path = tmp_path / "m.duckdb"
    make(path)  # type: ignore[operator]
    with pytest.raises(StoreError, match=message):
        open_memory(path, read_only=True)


def test_rows_table_rejects_unknown_columns_and_wrong_types() -> None:
    with pytest.raises(SchemaError, match="unknown columns"):
        rows_table("transcript", [{"segment_id": 0, "start_s": 0.0, "end_s": 1.0, "text": "x", "speaker": "A"}], "v1")
    with pytest.raises(SchemaError, match="do not fit"):
        rows_table("transcript", [{"segment_id": "zero", "start_s": 0.0, "end_s": 1.0, "text": "x"}], "v1")


def test_rows_for_another_video_are_refused() -> None:
    rows = _rows("v1")
    with pytest.raises(SchemaError, match="other videos"):
        VideoRows(VideoRecord(video_id="v2", path="/x", status="ok"), rows.tables)


def test_schema_description_lists_every_table_and_column_with_a_meaning() -> None:
    text = describe_schema()
    for t in schema_dict():
        assert t["meaning"], t["table"]
        assert f"{t['table']}: " in text
        for c in t["columns"]:
            assert c["meaning"], f"{t['table']}.{c['name']} has no meaning"
            assert f"  {c['name']} {c['type']}" in text
    assert "start_s DOUBLE [s]" in text  # units shown


def test_duckdb_catalog_carries_the_comments_too(tmp_path: Path) -> None:
    with open_memory(tmp_path / "m.duckdb") as mem:
        comment = mem.query(
            "SELECT comment FROM duckdb_columns() WHERE table_name = 'transcript' AND column_name = 'text'"
        )["comment"][0].as_py()
    assert comment == "What was said (speech recognition output)."


def test_one_attach_statement_opens_a_lake_under_a_quoted_folder(tmp_path: Path) -> None:
    """The store, the SQLAlchemy engine and the agents' guard all attach through memory.attach_sql."""
    import sqlalchemy

    from agents.guard import GuardedSQL
    from memory import attach_sql, parse_uri
    from queries.connect import sqlalchemy_engine

    folder = tmp_path / "it's here"
    uri = f"ducklake:sqlite:{folder / 'cat.sqlite'}"
    with open_memory(uri) as mem:
        mem.write_video(_rows("v1", 3))
    with open_memory(uri, read_only=True) as mem:
        assert mem.table_counts()["transcript"] == 3
        runner = GuardedSQL(mem)
        assert runner.run("SELECT count(*) FROM transcript").rows == ((3,),)
        runner.close()
    engine = sqlalchemy_engine(uri)
    with engine.connect() as con:
        assert con.execute(sqlalchemy.text("SELECT count(*) FROM transcript")).scalar() == 3
    engine.dispose()
    sql = attach_sql(parse_uri(uri), "lake", read_only=True)
    assert sql.startswith("ATTACH 'ducklake:sqlite:") and "it''s here" in sql and sql.endswith(", READ_ONLY)")
    with pytest.raises(StoreError):
        attach_sql(parse_uri(uri), "lake; DROP TABLE videos")
