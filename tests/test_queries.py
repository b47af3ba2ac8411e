"""The query library gives the known answers on hand-placed rows (tests/test_queries_data.py).

Every known-answer test runs twice: on a writable memory (library persisted in the file) and on a
read-only one without it (library attached beside the memory, on this process's connection).
"""

import math
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest

import queries
from memory import Memory, open_memory
from queries import library, run_sql


@pytest.fixture(scope="module", params=["persisted", "attached"])
def mem(
    request: pytest.FixtureRequest, known_memory: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Memory]:
    path = tmp_path_factory.mktemp("q") / "known.duckdb"
    shutil.copy(known_memory, path)
    memory = open_memory(path, read_only=request.param == "attached")
    assert queries.install(memory).mode == request.param
    yield memory
    memory.close()


@pytest.fixture
def empty_memory(tmp_path: Path) -> Iterator[Memory]:
    with open_memory(tmp_path / "empty.duckdb") as memory:
        yield memory


def rows(table: Any, *columns: str) -> list[tuple[Any, ...]]:
    return [tuple(r[c] for c in columns) for r in table.to_pylist()]


# ------------------------------------------------------------------------------ the library itself


def test_every_library_file_is_documented_and_described() -> None:
    objects = queries.library_objects()
    assert [o.name for o in objects] == list(library.ORDER)
    text = queries.describe_library()
    for o in objects:
        assert o.summary and o.returns
        assert o.name in text
    assert "when_visible(vid, cat, gap_s := 1.0)" in text
    assert len(text) < 6000  # prompts read it: keep it compact


def test_describe_library_subset_and_unknown_name() -> None:
    text = queries.describe_library(["track_position", "timeline", "vidmem_library"])
    assert "track_position(vid, tid, at_s)" in text and "timeline(" in text and "when_visible" not in text
    assert "vidmem_library(name, kind, signature" in text
    with pytest.raises(queries.QueryError, match="no library objects"):
        queries.describe_library(["no_such_view"])


def test_persisted_library_is_seen_by_plain_duckdb(known_memory: Path, tmp_path: Path) -> None:
    """An analyst opening the file with the DuckDB CLI (no vidmem) gets the views and macros."""
    path = tmp_path / "m.duckdb"
    shutil.copy(known_memory, path)
    with open_memory(path) as memory:
        assert queries.install(memory).mode == "persisted"
    con = duckdb.connect(str(path), read_only=True)
    try:
        got = con.execute("SELECT start_s, end_s FROM when_visible('vA', 'person') ORDER BY start_s").fetchall()
        window = con.execute("SELECT count(*) FROM video_timeline('vA', to_s := 0.5)").fetchone()
        names = {r[0] for r in con.execute("SELECT name FROM vidmem_library").fetchall()}
    finally:
        con.close()
    assert got == [(0.0, 4.0), (7.0, 9.0)]
    assert window == (3,)  # NULL default from_s survives the file: track 1 appears, clip caption, action
    assert names == set(library.ORDER)


def test_install_is_idempotent_and_upgrades_an_old_library(known_memory: Path, tmp_path: Path) -> None:
    path = tmp_path / "m.duckdb"
    shutil.copy(known_memory, path)
    with open_memory(path) as memory:
        memory.con.execute("CREATE MACRO retired_macro(v) AS TABLE SELECT v")
        memory.con.execute(
            "CREATE VIEW vidmem_library AS "
            "SELECT * FROM (VALUES ('retired_macro', 'macro', 'old')) AS t(name, kind, version)"
        )
    with open_memory(path, read_only=True) as memory:
        # A reader cannot upgrade the file: it gets the current library beside it.
        assert queries.install(memory).mode == "attached"
        assert queries.run_sql(memory, "SELECT count(*) AS n FROM vidmem_library")["n"][0].as_py() == len(library.ORDER)
    with open_memory(path) as memory:
        first = queries.install(memory)
        assert first == queries.install(memory)
        assert first.mode == "persisted" and first.version == queries.library_version()
    with open_memory(path, read_only=True) as memory:
        assert queries.install(memory).mode == "persisted"
        gone = memory.query("SELECT count(*) AS n FROM duckdb_functions() WHERE function_name = 'retired_macro'")
        assert gone["n"][0].as_py() == 0  # the upgrade dropped what the old library had and this one has not
        # persisted: visible to every cursor, memory.query included
        assert memory.query("SELECT count(*) AS n FROM category_counts")["n"][0].as_py() == 3


def test_install_on_a_bare_read_only_connection_makes_temp_objects(known_memory: Path) -> None:
    """The agents' guard attaches the memory read-only to its own instance and installs there."""
    con = duckdb.connect(":memory:")
    try:
        con.execute(f"ATTACH '{known_memory}' AS m (READ_ONLY)")
        con.execute("USE m")
        assert queries.install(con).mode == "connection"
        got = con.execute("SELECT x1 FROM track_position('vA', 3, 2.5)").fetchall()
    finally:
        con.close()
    assert got == [(425.0,)]


def test_install_into_the_guards_private_catalog(known_memory: Path) -> None:
    con = duckdb.connect(":memory:")
    try:
        con.execute(f"ATTACH '{known_memory}' AS vidmem (READ_ONLY)")
        con.execute("USE memory; SET search_path = 'memory.main,vidmem.main'")
        assert queries.install(con).mode == "persisted"
        con.execute("SET search_path = 'vidmem.main,memory.main'")
        got = con.execute("SELECT count(*) FROM timeline WHERE video_id = 'vA'").fetchone()
    finally:
        con.close()
    assert got == (16,)


def test_ducklake_memory_gets_the_library(tmp_path: Path, minilm: Any) -> None:
    from tests.test_queries_data import write_known

    uri = f"ducklake:sqlite:{tmp_path / 'lake.sqlite'}"
    with open_memory(uri) as memory:
        write_known(memory, minilm)
        assert queries.install(memory).mode == "attached"  # DuckLake cannot store macro defaults
        assert rows(queries.when_visible(memory, "vA", "person"), "start_s", "end_s") == [(0.0, 4.0), (7.0, 9.0)]
    with open_memory(uri, read_only=True) as memory:
        queries.install(memory)
        got = queries.track_position(memory, "vA", 3, 2.5)
    assert got is not None and got.center == (475.0, 230.0)


# ------------------------------------------------------------------------------ known answers


def test_timeline_orders_every_kind_of_event(mem: Memory) -> None:
    t = queries.video_timeline(mem, "vA")
    kinds = t.column("kind").to_pylist()
    # 3 speech + 2 text + 2 clip captions (frame ones hidden) + 4 appear + 4 leave + 1 action
    expected = ["speech"] * 3 + ["text"] * 2 + ["caption"] * 2 + ["appear"] * 4 + ["leave"] * 4 + ["action"]
    assert sorted(kinds) == sorted(expected)
    starts = t.column("start_s").to_pylist()
    assert starts == sorted(starts)
    first = t.to_pylist()[0]
    assert (first["kind"], first["track_id"]) == ("appear", 1)
    assert first["text"] == "person #1 appears: a man in a red jacket"


def test_timeline_window(mem: Memory) -> None:
    got = rows(queries.video_timeline(mem, "vA", from_s=10, to_s=14), "kind", "start_s", "end_s")
    assert got == [("caption", 0.0, 10.0), ("caption", 10.0, 20.0), ("speech", 12.0, 14.0)]


@pytest.mark.parametrize(
    ("category", "gap_s", "expected"),
    [
        # person: track 1 at 0..4 and 7..9, track 2 at 1..3 (every 0.5 s)
        ("person", 1.0, [(0.0, 4.0, 9, 2, 2), (7.0, 9.0, 5, 1, 1)]),
        ("person", 3.0, [(0.0, 9.0, 14, 2, 2)]),  # the 3 s gap is tolerated
        ("car", 1.0, [(2.0, 6.0, 5, 1, 1)]),  # sampled once a second
        ("car", 0.5, [(float(t), float(t), 1, 1, 1) for t in range(2, 7)]),  # every sample alone
        ("dog", 1.0, [(15.0, 15.0, 1, 1, 1)]),
        ("bicycle", 1.0, []),
    ],
)
def test_when_visible(mem: Memory, category: str, gap_s: float, expected: list[tuple[Any, ...]]) -> None:
    t = queries.when_visible(mem, "vA", category, gap_s=gap_s)
    assert rows(t, "start_s", "end_s", "frames", "instances", "max_visible") == expected
    assert t.column("interval_id").to_pylist() == list(range(1, len(expected) + 1))


def test_when_track_visible(mem: Memory) -> None:
    t = queries.when_track_visible(mem, "vA", 1)
    assert rows(t, "category", "start_s", "end_s", "duration_s", "frames") == [
        ("person", 0.0, 4.0, 4.0, 9), ("person", 7.0, 9.0, 2.0, 5)
    ]
    assert queries.when_track_visible(mem, "vA", 1, gap_s=5).num_rows == 1


def test_instance_counts_per_window(mem: Memory) -> None:
    t = queries.instance_counts(mem, "vA", window_s=5)
    assert rows(t, "window_start_s", "window_end_s", "category", "instances", "max_visible", "detections") == [
        (0.0, 5.0, "car", 1, 1, 3),  # t = 2, 3, 4
        (0.0, 5.0, "person", 2, 2, 14),  # track 1: 9 boxes, track 2: 5
        (5.0, 10.0, "car", 1, 1, 2),
        (5.0, 10.0, "person", 1, 1, 5),  # track 1 back at 7..9
        (15.0, 20.0, "dog", 1, 1, 1),
    ]


def test_category_counts(mem: Memory) -> None:
    t = queries.category_counts(mem, "vA")
    assert rows(t, "category", "instances", "first_s", "last_s", "detections") == [
        ("car", 1, 2.0, 6.0, 5), ("dog", 1, 15.0, 15.0, 1), ("person", 2, 0.0, 9.0, 19)
    ]
    assert queries.category_counts(mem).num_rows == 3  # vB has no tracks


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("person", "car", [(2.0, 4.0, 3)]),  # car at 2, 3, 4 while a person is there
        ("person", "person", [(1.0, 3.0, 5)]),  # two people at once: 1.0..3.0
        ("car", "dog", []),
    ],
)
def test_cooccurrence(mem: Memory, a: str, b: str, expected: list[tuple[Any, ...]]) -> None:
    assert rows(queries.cooccurrence(mem, "vA", a, b), "start_s", "end_s", "frames") == expected


def test_track_cooccurrence_and_tracks_with(mem: Memory) -> None:
    assert rows(queries.track_cooccurrence(mem, "vA", 1, 3), "start_s", "end_s", "frames") == [(2.0, 4.0, 3)]
    assert rows(queries.track_cooccurrence(mem, "vA", 2, 3), "start_s", "end_s", "frames") == [(2.0, 3.0, 2)]
    assert rows(queries.track_cooccurrence(mem, "vA", 2, 4), "start_s") == []
    got = rows(queries.tracks_with(mem, "vA", 1), "other_track_id", "category", "frames_together", "first_s", "last_s")
    assert got == [
        (2, "person", 5, 1.0, 3.0), (3, "car", 3, 2.0, 4.0)
    ]


def test_category_pairs(mem: Memory) -> None:
    assert rows(queries.category_pairs(mem, "vA"), "category_a", "category_b", "frames_together") == [
        ("person", "person", 5), ("car", "person", 3)
    ]


@pytest.mark.parametrize(
    ("track_id", "t_s", "box", "before_after"),
    [
        (3, 2.5, (425.0, 200.0, 525.0, 260.0), (2.0, 3.0)),  # halfway between the 2 s and 3 s boxes
        (1, 2.25, (145.0, 50.0, 185.0, 150.0), (2.0, 2.5)),
        (1, 5.5, (210.0, 50.0, 250.0, 150.0), (4.0, 7.0)),  # across the gap where it was lost
        (1, 2.0, (140.0, 50.0, 180.0, 150.0), (2.0, 2.0)),  # a sampled time: exact
        (4, 15.0, (50.0, 300.0, 120.0, 360.0), (15.0, 15.0)),
    ],
)
def test_track_position(
    mem: Memory, track_id: int, t_s: float, box: tuple[float, ...], before_after: tuple[float, float]
) -> None:
    pos = queries.track_position(mem, "vA", track_id, t_s)
    assert pos is not None
    assert (pos.x1, pos.y1, pos.x2, pos.y2) == pytest.approx(box)
    assert (pos.before_s, pos.after_s) == before_after
    assert pos.interpolated == (before_after[0] != before_after[1])
    assert pos.t_s == t_s and pos.video_id == "vA" and pos.track_id == track_id


@pytest.mark.parametrize("t_s", [-1.0, 9.5, 100.0])
def test_track_position_outside_the_lifetime_is_none(mem: Memory, t_s: float) -> None:
    assert queries.track_position(mem, "vA", 1, t_s) is None


def test_tracks_at(mem: Memory) -> None:
    t = queries.tracks_at(mem, "vA", 2.25)
    assert rows(t, "track_id", "category", "x1", "cx") == [
        (1, "person", 145.0, 165.0), (2, "person", 300.0, 320.0), (3, "car", 422.5, 472.5)
    ]
    assert queries.tracks_at(mem, "vA", 12.0).num_rows == 0


def test_seen_at_counts_what_the_frame_shows_not_what_is_alive(mem: Memory) -> None:
    # at 5.5 s the person of track 1 is inside its 4-7 s gap: alive (interpolated) but not found
    assert rows(queries.tracks_at(mem, "vA", 5.5), "track_id") == [(1,), (3,)]
    seen = queries.seen_at(mem, "vA", 5.5)  # the nearest sampled frame is 5.0 s (6.0 s ties, the earlier wins)
    assert rows(seen, "track_id", "category", "t_s") == [(3, "car", 5.0)]
    assert rows(queries.seen_at(mem, "vA", 2.2), "track_id") == [(1,), (2,), (3,)]  # frame 2.0 s


def test_seen_at_a_sample_the_detector_skipped_counts_the_nearest_detected_frame(empty_memory: Memory) -> None:
    """Motion skip leaves only interpolated boxes (confidence 0) at a skipped sample: counting there
    reads the nearest frame the detector ran on, not an empty frame."""
    from memory import VideoRecord, VideoRows, rows_table

    vid = "vskip000000000000"
    boxes = [
        {"track_id": tid, "frame_index": round(t * 4), "t_s": t, "x1": x, "y1": 10.0, "x2": x + 40, "y2": 90.0,
         "confidence": 0.0 if t == 0.25 else 0.8, "category": "person"}
        for t in (0.0, 0.25, 0.5) for tid, x in ((1, 10.0 + 8 * t), (2, 200.0))
    ]  # fmt: skip
    tracks = [{"track_id": tid, "category": "person", "first_s": 0.0, "last_s": 0.5, "num_detections": 3}
              for tid in (1, 2)]
    record = VideoRecord(vid, "/videos/skip.mp4", "ok", duration_s=1.0, width=320, height=240)
    empty_memory.write_video(VideoRows(record, {
        "tracks": rows_table("tracks", tracks, vid), "detections": rows_table("detections", boxes, vid),
    }))  # fmt: skip
    assert rows(queries.seen_at(empty_memory, vid, 0.25), "track_id", "t_s") == [(1, 0.0), (2, 0.0)]  # tie: earlier
    assert rows(queries.seen_at(empty_memory, vid, 0.3), "track_id", "t_s") == [(1, 0.5), (2, 0.5)]


def test_seen_at_counts_an_object_boxed_twice_once(empty_memory: Memory) -> None:
    """The detector's NMS keeps two boxes of one object when they overlap less than its IoU cut (a
    lying figure boxed whole, track 1, and by its upper part, track 2: IoU 0.6, 96% of 2 inside 1):
    counted once. Two people side by side (3, 4: 60% of 4 inside 3) and a bag inside a person's box
    (another category) are all counted."""
    from memory import VideoRecord, VideoRows, rows_table

    vid = "vtwice00000000000"
    shapes = {1: ("person", 47.0, 410.0, 140.0, 467.0), 2: ("person", 52.0, 408.0, 140.0, 445.0),
              3: ("person", 300.0, 100.0, 340.0, 200.0), 4: ("person", 316.0, 110.0, 356.0, 210.0),
              5: ("handbag", 310.0, 150.0, 325.0, 170.0)}  # fmt: skip
    boxes = [{"track_id": tid, "frame_index": 0, "t_s": 0.0, "x1": x1, "y1": y1, "x2": x2, "y2": y2,
              "confidence": 0.5, "category": cat} for tid, (cat, x1, y1, x2, y2) in shapes.items()]
    tracks = [{"track_id": tid, "category": cat, "first_s": 0.0, "last_s": 0.0, "num_detections": 1}
              for tid, (cat, *_) in shapes.items()]
    record = VideoRecord(vid, "/videos/twice.mp4", "ok", duration_s=1.0, width=640, height=480)
    empty_memory.write_video(VideoRows(record, {
        "tracks": rows_table("tracks", tracks, vid), "detections": rows_table("detections", boxes, vid),
    }))  # fmt: skip
    assert rows(queries.seen_at(empty_memory, vid, 0.0), "track_id") == [(1,), (3,), (4,), (5,)]
    assert run_sql(empty_memory, "SELECT count(*) AS n FROM seen_between(?, 0, 1)", [vid]).to_pylist() == [{"n": 4}]


def test_seen_at_leaves_out_a_track_whose_boxes_average_under_0_4(empty_memory: Memory) -> None:
    """A cartoon rabbit boxed as a person at 0.29 on average is no person to count; a track without
    a mean (written before it was kept) still counts."""
    from memory import VideoRecord, VideoRows, rows_table

    vid = "vrabbit0000000000"
    boxes = [{"track_id": tid, "frame_index": 0, "t_s": 0.0, "x1": x, "y1": 10.0, "x2": x + 40, "y2": 90.0,
              "confidence": 0.3, "category": "person"} for tid, x in ((1, 10.0), (2, 100.0), (3, 200.0))]
    tracks = [{"track_id": tid, "category": "person", "first_s": 0.0, "last_s": 0.0, "num_detections": 9,
               "mean_confidence": mean} for tid, mean in ((1, 0.29), (2, 0.45), (3, None))]
    record = VideoRecord(vid, "/videos/rabbit.mp4", "ok", duration_s=1.0, width=320, height=240)
    empty_memory.write_video(VideoRows(record, {
        "tracks": rows_table("tracks", tracks, vid), "detections": rows_table("detections", boxes, vid),
    }))  # fmt: skip
    assert rows(queries.seen_at(empty_memory, vid, 0.0), "track_id") == [(2,), (3,)]


def test_seen_between_is_seen_at_frame_by_frame(mem: Memory) -> None:
    """The brief's window counts and its count at a second read the same gated boxes."""
    window = run_sql(mem, "SELECT * FROM seen_between('vA', 2.0, 6.0)").to_pylist()
    frames = sorted({r["t_s"] for r in window})
    assert frames[0] >= 2.0 and frames[-1] <= 6.0 and len(frames) >= 3
    for t in frames:
        at = [(r["track_id"], r["category"]) for r in window if r["t_s"] == t]
        assert at == rows(queries.seen_at(mem, "vA", t), "track_id", "category")
    assert run_sql(mem, "SELECT * FROM seen_between('vA', 100.0, 200.0)").num_rows == 0


def test_track_path(mem: Memory) -> None:
    t = queries.track_path(mem, "vA", 3)
    assert rows(t, "t_s", "cx", "cy") == [(float(s), 450.0 + 10 * s, 230.0) for s in range(2, 7)]


@pytest.mark.parametrize(
    ("t_s", "window_s", "expected"),
    [
        (4.0, 1.0, [(0, 0.5), (1, 1.0)]),  # ends 0.5 s before, starts 1 s after
        (4.0, 0.4, []),
        (2.0, 0.0, [(0, 0.0)]),  # spoken across t
        (13.0, 9.0, [(1, 6.0), (2, 0.0)]),  # segment 0 ends 9.5 s before: out
    ],
)
def test_speech_near(mem: Memory, t_s: float, window_s: float, expected: list[tuple[int, float]]) -> None:
    assert rows(queries.speech_near(mem, "vA", t_s, window_s), "segment_id", "distance_s") == expected


def test_text_near(mem: Memory) -> None:
    assert rows(queries.text_near(mem, "vA", 8.0, 0.0), "text", "distance_s") == [("PLATFORM 9 EXIT", 0.0)]
    assert rows(queries.text_near(mem, "vA", 12.0, 3.0), "span_id", "distance_s") == [(0, 3.0), (1, 3.0)]


def test_find_text_in_sql(mem: Memory) -> None:
    got = queries.run_sql(mem, "SELECT video_id, source, item_id FROM find_text(?)", ["train"])
    assert rows(got, "video_id", "source", "item_id") == [("vA", "transcript", 0), ("vB", "transcript", 4)]
    got = queries.run_sql(mem, "SELECT item_id FROM find_text(?, vid := ?)", ["platform", "vA"])
    assert got.column("item_id").to_pylist() == [0, 0]  # the OCR span and the clip caption


def test_video_overview(mem: Memory) -> None:
    got = rows(queries.video_overview(mem), "video_id", "tracks", "categories", "speech_segments", "text_spans",
               "captions", "frames_embedded")
    assert got == [("vA", 4, "car, dog, person", 3, 2, 5, 20), ("vB", 0, None, 5, 2, 0, 30)]


# ------------------------------------------------------------------------------ failures


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda m: queries.when_visible(m, "nope", "person"), queries.UnknownVideoError, "no video 'nope'.*vA"),
        (lambda m: queries.when_visible(m, "", "person"), queries.ParameterError, "video_id"),
        (lambda m: queries.when_visible(m, "vA", "person", gap_s=-1), queries.ParameterError, "gap_s must be >= 0"),
        (lambda m: queries.when_visible(m, "vA", "person", gap_s=math.nan), queries.ParameterError, "finite"),
        (lambda m: queries.when_visible(m, "vA", "", 1.0), queries.ParameterError, "category"),
        (lambda m: queries.when_track_visible(m, "vA", 99), queries.UnknownTrackError, r"ids 1\.\.4"),
        (lambda m: queries.when_track_visible(m, "vB", 1), queries.UnknownTrackError, "no tracks"),
        (lambda m: queries.track_position(m, "vA", True, 1.0), queries.ParameterError, "track_id"),
        (lambda m: queries.track_position(m, "vA", 1, "2.5"), queries.ParameterError, "t_s must be a number"),
        (lambda m: queries.instance_counts(m, "vA", window_s=0), queries.ParameterError, "window_s must be > 0"),
        (lambda m: queries.video_timeline(m, "vA", from_s=5, to_s=1), queries.ParameterError, "to_s"),
        (lambda m: queries.speech_near(m, "vA", 1.0, window_s=-2), queries.ParameterError, "window_s"),
        (lambda m: queries.track_cooccurrence(m, "vA", 1, 1), queries.ParameterError, "two different"),
    ],
)
def test_bad_calls_raise_clear_errors(mem: Memory, call: Any, error: type[Exception], match: str) -> None:
    with pytest.raises(error, match=match):
        call(mem)


def test_errors_belong_to_vidmems_tree() -> None:
    from memory import VidmemError

    assert issubclass(queries.QueryError, VidmemError)
    assert issubclass(queries.ParameterError, ValueError) and issubclass(queries.UnknownVideoError, LookupError)


def test_empty_memory_says_to_ingest(empty_memory: Memory) -> None:
    with pytest.raises(queries.UnknownVideoError, match="holds no videos; ingest one first"):
        queries.video_timeline(empty_memory, "vA")
    assert queries.video_overview(empty_memory).num_rows == 0
    assert queries.category_counts(empty_memory).num_rows == 0


@pytest.mark.parametrize(
    ("sql", "match"),
    [
        ("SELEC 1", "Parser Error"),
        ("SELECT * FROM no_such_table", "no_such_table"),
        ("SELECT * FROM when_visible('vA', 'person', gap_s := -1)", "gap_s must be >= 0"),
        ("SELECT * FROM instance_counts('vA', window_s := 0)", "window_s must be > 0"),
        ("SELECT * FROM when_visible('vA')", "when_visible"),
        ("   ", "empty SQL"),
    ],
)
def test_run_sql_errors_carry_duckdbs_message(mem: Memory, sql: str, match: str) -> None:
    with pytest.raises(queries.QueryError, match=match) as info:
        queries.run_sql(mem, sql)
    assert info.value.sql == sql


def test_run_sql_binds_parameters_instead_of_formatting(mem: Memory) -> None:
    hostile = "vA' OR '1'='1"
    assert queries.run_sql(mem, "SELECT * FROM video_timeline(?)", [hostile]).num_rows == 0
    with pytest.raises(queries.UnknownVideoError):
        queries.video_timeline(mem, hostile)
