"""`detection_shapes`: the centroid and area of the masks a segmentation model stores, from SQL.

Hand-made outlines with known centroids in a real memory (a triangle, an L-shape, both windings),
boxes without a usable mask falling back to the box centre, and the rows the tracking role writes
with a segmentation model checked against an independent numpy centroid.
"""

import dataclasses
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import queries
from ingest import IngestSettings
from ingest.roles.extractor import VideoContext
from ingest.roles.tracking import Tracker
from memory import Memory, VideoRecord, VideoRows, open_memory, rows_table

VID = "vshapes"
L_SHAPE = [[0, 0], [4, 0], [4, 1], [1, 1], [1, 3], [0, 3]]  # area 6, centroid (1.5, 1.0): see below


def _det(frame: int, box: tuple[float, float, float, float], polygon: Any, area: float) -> dict[str, Any]:
    x1, y1, x2, y2 = box
    text = polygon if isinstance(polygon, str) or polygon is None else json.dumps(polygon)
    return {"track_id": 1, "frame_index": frame, "t_s": frame / 10, "x1": x1, "y1": y1, "x2": x2, "y2": y2,
            "confidence": 0.9, "category": "person", "mask_polygon": text, "mask_area": area}  # fmt: skip


def _memory(path: Path, video_id: str, tables: dict[str, Any]) -> Memory:
    record = VideoRecord(video_id=video_id, path=f"/videos/{video_id}.mp4", status="ok", duration_s=10.0, fps=10.0)
    mem = open_memory(path)
    mem.write_video(VideoRows(record, tables))
    queries.install(mem)
    return mem


def _shapes(mem: Memory, video_id: str) -> list[dict[str, Any]]:
    return queries.run_sql(
        mem, "SELECT * FROM detection_shapes WHERE video_id = ? ORDER BY frame_index", [video_id]
    ).to_pylist()


def test_mask_centroids_and_the_box_fallback(tmp_path: Path) -> None:
    # L-shape = 4x1 bar (centre 2, 0.5) + 1x2 post (centre 0.5, 2): (4*(2, 0.5) + 2*(0.5, 2)) / 6 = (1.5, 1.0)
    rows = [
        _det(0, (10, 10, 16, 13), [[10, 10], [16, 10], [10, 13]], 9.0),  # triangle: centroid (12, 11)
        _det(1, (0, 0, 4, 3), L_SHAPE, 6.0),
        _det(2, (0, 0, 4, 3), L_SHAPE[::-1], 6.0),  # clockwise: the same centroid
        _det(3, (0, 0, 8, 4), None, 32.0),  # no mask (interpolated, or a detection-only model)
        _det(4, (0, 0, 8, 4), "[[0, 0], [1, 1]", 32.0),  # malformed outline: no mask, not an error
        _det(5, (0, 0, 8, 4), [[0, 0], [2, 2], [4, 4]], 0.0),  # collinear: no area, no centroid
    ]
    tables = {
        "detections": rows_table("detections", rows, VID),
        "tracks": rows_table(
            "tracks",
            [{"track_id": 1, "category": "person", "first_s": 0.0, "last_s": 0.5, "num_detections": 6}],
            VID,
        ),
    }
    with _memory(tmp_path / "m.duckdb", VID, tables) as mem:
        got = _shapes(mem, VID)
    assert [(r["has_mask"], r["centroid_of"]) for r in got] == [(True, "mask")] * 3 + [(False, "box")] * 3
    assert [r["cx"] for r in got] == pytest.approx([12.0, 1.5, 1.5, 4.0, 4.0, 4.0])
    assert [r["cy"] for r in got] == pytest.approx([11.0, 1.0, 1.0, 2.0, 2.0, 2.0])
    assert [r["fill"] for r in got[:3]] == pytest.approx([0.5, 0.5, 0.5])
    assert [r["fill"] for r in got[3:]] == [None, None, None]
    assert [r["box_area"] for r in got] == pytest.approx([18.0, 12.0, 12.0, 32.0, 32.0, 32.0])


def test_the_view_is_in_the_library_description() -> None:
    assert "detection_shapes(" in queries.describe_library(["detection_shapes"])


def _centroid(polygon: np.ndarray) -> tuple[float, float]:
    """Polygon centroid by the shoelace formula, in numpy: the reference for the SQL."""
    x, y = polygon[:, 0], polygon[:, 1]
    xn, yn = np.roll(x, -1), np.roll(y, -1)
    cross = x * yn - xn * y
    return float(((x + xn) * cross).sum() / (3 * cross.sum())), float(((y + yn) * cross).sum() / (3 * cross.sum()))


@pytest.mark.slow
def test_rows_of_a_segmentation_model_have_mask_centroids(media: dict[str, Path], tmp_path: Path) -> None:
    from ingest.media.frames import FrameBatch
    from tests.test_tracking import _doctored_seg_model, _vtest_frames

    weights = _doctored_seg_model(tmp_path)
    base = IngestSettings(device="cpu")
    settings = dataclasses.replace(
        base, tracking=dataclasses.replace(base.tracking, model=str(weights), min_track_detections=2, image_size=160)
    )
    tracker = Tracker(settings)
    info, frames = _vtest_frames(media, range(0, 12, 2))
    ctx = VideoContext(info)
    tracker.begin(ctx)
    tracker.process(FrameBatch(frames))
    tracker.end(ctx)
    with _memory(tmp_path / "seg.duckdb", info.video_id, ctx.tables) as mem:
        got = _shapes(mem, info.video_id)
    masked = [r for r in got if r["has_mask"]]
    assert masked and all(r["confidence"] > 0 for r in masked)
    stored = {
        (r["track_id"], r["frame_index"]): np.array(json.loads(r["mask_polygon"]))
        for r in ctx.tables["detections"].to_pylist()
        if r["mask_polygon"] is not None
    }
    assert len(masked) == len(stored)
    for r in masked:
        cx, cy = _centroid(stored[(r["track_id"], r["frame_index"])])
        assert (r["cx"], r["cy"]) == pytest.approx((cx, cy), abs=1e-6)
        assert r["x1"] - 1 <= r["cx"] <= r["x2"] + 1 and r["y1"] - 1 <= r["cy"] <= r["y2"] + 1
        assert 0 < r["fill"] <= 1.1
    assert all(r["centroid_of"] == "box" for r in got if not r["has_mask"])
