"""The memory: schema, atomic per-video writes, read-only opening, DuckLake, description."""

import gzip
import json
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import pyarrow as pa
import pytest

from memory import (
    SCHEMA_VERSION,
    FailedFile,
    RoleRun,
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

if TYPE_CHECKING:
    from ingest.media.probe import VideoInfo


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


def test_failed_files_are_those_that_failed_with_these_settings(uri: str) -> None:
    with open_memory(uri) as mem:
        mem.write_video(VideoRows(replace(_rows("ok1").record, settings_hash="s1")))
        failures = ((1, "s1", 10, "truncated"), (2, "s1", None, None), (3, "s2", 5, "no video"))
        for n, settings_hash, size, error in failures:
            mem.record_failure(VideoRecord(
                video_id=f"p{n}", path=f"/videos/{n}.mp4", status="failed", settings_hash=settings_hash,
                size_bytes=size, error=error,
            ))
        assert mem.failed_files("s1") == {
            "/videos/1.mp4": FailedFile("/videos/1.mp4", 10, "truncated"),
            "/videos/2.mp4": FailedFile("/videos/2.mp4", None, "failed"),
        }
        assert mem.failed_files("other") == {}


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


def test_a_memory_cut_short_is_refused_in_one_line_and_never_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A copy cut at every block boundary (issue 25: a half copy made `info` print a traceback and
    `ingest` write into it): one line naming the file, exit 1, the bytes untouched. Cut early, DuckDB
    itself fails to open it; cut late, it opens and fails on the first missing block, which the size
    check finds first."""
    from vidmem.cli import main

    whole = tmp_path / "whole.duckdb"
    with open_memory(whole) as mem:
        for n in range(3):
            vid = f"v{n:016d}"
            segments = [{"segment_id": i, "start_s": float(i), "end_s": i + 0.5, "text": f"word {i} " * 40}
                        for i in range(6000)]  # fmt: skip
            record = VideoRecord(vid, f"/videos/{vid}.mp4", "ok", duration_s=10.0)
            mem.write_video(VideoRows(record, {"transcript": rows_table("transcript", segments, vid)}))
    data = whole.read_bytes()
    block = 262_144
    cuts = list(range(3 * 4096 + block, len(data), block))
    assert len(cuts) >= 3
    cut = tmp_path / "cut.duckdb"
    for size in cuts:
        cut.write_bytes(data[:size])
        for read_only in (True, False):
            with pytest.raises(StoreError, match=r"cut\.duckdb is damaged .*nothing was written"):
                open_memory(cut, read_only=read_only)
            assert cut.read_bytes() == data[:size], size
    capsys.readouterr()
    for argv in (["info", "-m", str(cut)], ["ingest", str(tmp_path / "missing.mp4"), "--only", "asr", "-m", str(cut)]):
        assert main(argv) == 1, argv
        err = capsys.readouterr().err.strip()
        assert "is damaged" in err.splitlines()[-1] and "Traceback" not in err, err  # ingest's role lines come first
        assert cut.read_bytes() == data[: cuts[-1]]
    with open_memory(whole, read_only=True) as mem:  # the whole file opens as before
        assert mem.query("SELECT count(*) AS n FROM transcript")["n"][0].as_py() == 18_000


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
    """The store, the SQLAlchemy engine and the sandbox all attach through memory.attach_sql."""
    import sqlalchemy

    from memory import attach_sql, parse_uri
    from queries.connect import sqlalchemy_engine
    from queries.sandbox import Sandbox

    folder = tmp_path / "it's here"
    uri = f"ducklake:sqlite:{folder / 'cat.sqlite'}"
    with open_memory(uri) as mem:
        mem.write_video(_rows("v1", 3))
    with open_memory(uri, read_only=True) as mem:
        assert mem.table_counts()["transcript"] == 3
        sandbox = Sandbox(mem)
        assert sandbox.run("SELECT count(*) FROM transcript").rows == ((3,),)
        sandbox.close()
    engine = sqlalchemy_engine(uri)
    with engine.connect() as con:
        assert con.execute(sqlalchemy.text("SELECT count(*) FROM transcript")).scalar() == 3
    engine.dispose()
    sql = attach_sql(parse_uri(uri), "lake", read_only=True)
    assert sql.startswith("ATTACH 'ducklake:sqlite:") and "it''s here" in sql and sql.endswith(", READ_ONLY)")
    with pytest.raises(StoreError):
        attach_sql(parse_uri(uri), "lake; DROP TABLE videos")


# -- schema 2: per-role provenance, failures per path, migration from schema 1 -----------------


def _run(role: str, status: str = "ok", tables: tuple[str, ...] = (), reason: str | None = None) -> RoleRun:
    return RoleRun(role, status, reason, f"h-{role}", {"model": f"m-{role}"}, f"model of {role}", tables)


def test_a_role_that_ran_replaces_only_its_rows_and_a_failed_one_keeps_them(uri: str) -> None:
    first = _rows("v1", 3)
    runs = (_run("asr", tables=("transcript",)), _run("clip", tables=("frame_embeddings",)))
    with open_memory(uri) as mem:
        mem.write_video(VideoRows(first.record, first.tables, runs))
        stored_at = mem.query("SELECT role, stored_at FROM role_runs ORDER BY role").to_pylist()
        ocr = rows_table("ocr", [{"frame_index": 0, "t_s": 0.0, "text": "EXIT", "x1": 0, "y1": 0, "x2": 1, "y2": 1}],
                         "v1")
        later = (_run("ocr", tables=("ocr", "ocr_spans")), _run("asr", "failed", ("transcript",), "model crashed"))
        mem.write_video(VideoRows(first.record, {"ocr": ocr}, later))
        counts = mem.table_counts()
        runs_now = {r["role"]: r for r in mem.query("SELECT * FROM role_runs").to_pylist()}
        with pytest.raises(SchemaError, match="belong to no role that ran ok"):
            VideoRows(first.record, {"ocr": ocr}, (_run("ocr", "failed", ("ocr",), "no"),))
    assert counts["transcript"] == 3 and counts["frame_embeddings"] == 1 and counts["ocr"] == 1
    assert runs_now["asr"]["status"] == "failed" and runs_now["asr"]["reason"] == "model crashed"
    assert runs_now["asr"]["row_count"] == 3 and runs_now["asr"]["stored_at"] == stored_at[0]["stored_at"]
    assert runs_now["ocr"]["status"] == "ok" and runs_now["ocr"]["rows"] == '{"ocr": 1, "ocr_spans": 0}'
    assert runs_now["clip"]["model"] == "model of clip"


def test_identical_bad_files_at_two_paths_keep_a_failure_each(uri: str) -> None:
    with open_memory(uri) as mem:
        for _ in range(2):  # a re-run records them again, still one row each
            for n in (1, 2):
                mem.record_failure(VideoRecord(
                    video_id=f"p{n}", path=f"/videos/{n}/bad.mp4", status="failed", content_hash="same",
                    error=f"/videos/{n}/bad.mp4: truncated",
                ))
        rows = mem.query("SELECT path, error FROM videos ORDER BY path").to_pylist()
    assert rows == [{"path": f"/videos/{n}/bad.mp4", "error": f"/videos/{n}/bad.mp4: truncated"} for n in (1, 2)]


def test_opening_a_current_lake_writes_nothing(tmp_path: Path) -> None:
    uri = f"ducklake:sqlite:{tmp_path / 'cat.sqlite'}"
    open_memory(uri).close()

    def snapshots() -> int:
        with open_memory(uri) as mem:
            return int(mem.con.execute("SELECT count(*) FROM ducklake_snapshots('lake')").fetchone()[0])  # type: ignore[index]

    assert snapshots() == snapshots()  # a write (even an UPDATE of the version) would add a snapshot


V1_MEMORY = Path(__file__).parent / "data" / "memory_v1.duckdb.gz"


def test_a_schema_1_memory_migrates_without_losing_rows(tmp_path: Path) -> None:
    """tests/data/memory_v1.duckdb.gz: made by vidmem at 6d80f4d (schema 1) from speech_sign and
    no_audio with `--only asr,ocr`, plus an empty file that failed.

    The videos it holds are those clips as another machine encoded them (ids are content hashes, and
    another ffmpeg or espeak-ng gives other bytes), so the videos here are the memory's own `videos`
    rows, never the fixtures built on this machine."""
    import duckdb

    from ingest import IngestSettings, Pipeline

    path = tmp_path / "v1.duckdb"
    path.write_bytes(gzip.decompress(V1_MEMORY.read_bytes()))
    old = duckdb.connect(str(path), read_only=True)
    tables = [t for (t,) in old.execute("SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main'").fetchall()]
    before = {t: sorted(map(repr, old.execute(f"SELECT * FROM {t}").fetchall())) for t in tables if t != "schema_info"}
    old.close()
    assert "role_runs" not in before and len(before["transcript_words"]) == 10

    with pytest.raises(SchemaError, match="open it once writable"):
        open_memory(path, read_only=True)
    with open_memory(path) as mem:
        after = {t: sorted(map(repr, mem.con.execute(f"SELECT * FROM {t}").fetchall())) for t in before}
        version = mem.query("SELECT value FROM schema_info")["value"][0].as_py()
        runs = mem.query("SELECT v.path, r.* FROM role_runs r JOIN videos v USING (video_id)").to_pylist()
        states = mem.role_states()
    assert after == before  # every row of every table, unchanged
    assert version == str(SCHEMA_VERSION)
    got = {(Path(r["path"]).name, r["role"]): r for r in runs}
    assert set(got) == {("speech_sign.mp4", "asr"), ("speech_sign.mp4", "ocr"), ("no_audio.mp4", "asr"),
                        ("no_audio.mp4", "ocr")}
    asr = got["speech_sign.mp4", "asr"]
    assert (asr["status"], asr["row_count"], asr["model"]) == ("ok", 11, "base")
    assert json.loads(asr["rows"]) == {"transcript": 1, "transcript_words": 10}
    assert json.loads(got["speech_sign.mp4", "ocr"]["rows"]) == {"ocr": 6, "ocr_spans": 2}
    skipped = got["no_audio.mp4", "asr"]
    assert (skipped["status"], skipped["reason"], skipped["row_count"]) == ("skipped", "no audio track", 0)
    # The migrated settings are those of today's defaults: nothing runs again after the upgrade.
    stored = {Path(info.path).name: info for info in _stored_videos(path)}
    pipeline = Pipeline(IngestSettings().only("asr", "ocr"))
    for name in ("speech_sign.mp4", "no_audio.mp4"):
        info = stored[name]
        assert pipeline.roles_to_run(info, states[info.video_id]) == ([], {}), name
    # One role's own settings changed: that role alone runs again.
    settings = IngestSettings().only("asr", "ocr")
    changed = Pipeline(replace(settings, ocr=replace(settings.ocr, fps=2.0)))
    info = stored["speech_sign.mp4"]
    assert [ex.role for ex in changed.roles_to_run(info, states[info.video_id])[0]] == ["ocr"]


def _stored_videos(path: Path) -> "list[VideoInfo]":
    """The probe facts of each ingested video, as the memory at `path` recorded them."""
    from ingest.media.probe import VideoInfo

    with open_memory(path, read_only=True) as mem:
        rows = mem.query("SELECT * FROM videos WHERE status = 'ok'").to_pylist()
    fields = VideoInfo.__dataclass_fields__
    return [VideoInfo(**{k: (Path(v) if k == "path" else v) for k, v in row.items() if k in fields}) for row in rows]
