"""queries.browse: the paged video list, a video's tracks and the boxes of a time window."""

from pathlib import Path

import pytest

import queries
from memory import Memory, VideoRecord, VideoRows, open_memory, rows_table


@pytest.fixture
def memory(tmp_path: Path) -> Memory:
    with open_memory(tmp_path / "m.duckdb") as mem:
        for i in range(12):
            vid = f"v{i:016x}"
            record = VideoRecord(vid, f"/videos/{'station' if i % 2 else 'street'}-{i:02d}.mp4", "ok", duration_s=60.0)
            tracks = rows_table("tracks", [
                {"track_id": 1, "category": "person", "first_s": 1.0, "last_s": 3.0, "num_detections": 3},
            ], vid)  # fmt: skip
            dets = rows_table("detections", [
                {"track_id": 1, "frame_index": 25 * t, "t_s": float(t), "x1": 1.0, "y1": 2.0, "x2": 3.0, "y2": 4.0,
                 "confidence": 0.9, "category": "person"} for t in (1, 2, 3)
            ], vid)  # fmt: skip
            mem.write_video(VideoRows(record, {"tracks": tracks, "detections": dets}))
        mem.record_failure(VideoRecord("vbad", "/videos/broken.mp4", "failed", error="no video stream"))
    mem = open_memory(tmp_path / "m.duckdb", read_only=True)
    yield mem
    mem.close()


def test_list_videos_pages_and_filters_in_sql(memory: Memory) -> None:
    page, total = queries.list_videos(memory, limit=5)
    assert total == 13 and page.num_rows == 5 and page["path"][0].as_py() == "/videos/broken.mp4"
    last, _ = queries.list_videos(memory, limit=5, offset=10)
    assert last.num_rows == 3
    station, n = queries.list_videos(memory, text="STATION")
    assert n == 6 and all("station" in p for p in station["path"].to_pylist())
    failed, n = queries.list_videos(memory, status="failed")
    assert n == 1 and failed["error"][0].as_py() == "no video stream"
    assert queries.list_videos(memory, text="100%_")[1] == 0  # LIKE wildcards are plain text


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({"limit": 0}, "limit"), ({"offset": -1}, "offset"), ({"status": "done"}, "status")],
)
def test_list_videos_rejects_bad_arguments(memory: Memory, kwargs: dict, message: str) -> None:
    with pytest.raises(queries.ParameterError, match=message):
        queries.list_videos(memory, **kwargs)


def test_tracks_and_boxes_of_a_window(memory: Memory) -> None:
    vid = f"v{0:016x}"
    assert queries.video_record(memory, vid)["duration_s"] == 60.0
    assert queries.video_tracks(memory, vid)["category"].to_pylist() == ["person"]
    boxes = queries.detections_between(memory, vid, 1.5, 3.0)
    assert boxes["t_s"].to_pylist() == [2.0, 3.0]
    with pytest.raises(queries.ParameterError, match="to_s"):
        queries.detections_between(memory, vid, 0, queries.MAX_WINDOW_S + 1)
    with pytest.raises(queries.UnknownVideoError):
        queries.video_tracks(memory, "vnope")
