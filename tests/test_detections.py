"""The typed detections record: built from ultralytics' own `Results` (boxes, and mask outlines
when the model segments), and turned into the table boxmot trackers take; box geometry helpers."""

import json

import numpy as np
import pytest

from ingest.models.boxes import polygon_area, polygon_json
from ingest.models.detections import Detections


def _results(masks: bool) -> object:
    torch = pytest.importorskip("torch")
    from ultralytics.engine.results import Results

    image = np.zeros((60, 80, 3), np.uint8)
    boxes = torch.tensor([[10.0, 10.0, 30.0, 40.0, 0.9, 0.0], [50.0, 5.0, 70.0, 25.0, 0.4, 2.0]])
    data = None
    if masks:
        data = torch.zeros(2, 60, 80)
        data[0, 10:40, 10:30] = 1.0  # the first box fully covered
        data[1, 10, 60] = 1.0  # one pixel: no outline survives
    return Results(image, path="", names={0: "person", 2: "car"}, boxes=boxes, masks=data)


def test_from_ultralytics_keeps_boxes_scores_and_classes() -> None:
    dets = Detections.from_ultralytics(_results(masks=False))
    assert len(dets) == 2 and dets.mask_polygons is None
    assert dets.xyxy.tolist() == [[10.0, 10.0, 30.0, 40.0], [50.0, 5.0, 70.0, 25.0]]
    assert dets.confidence == pytest.approx([0.9, 0.4]) and dets.class_id.tolist() == [0, 2]
    assert (dets.xyxy.dtype, dets.confidence.dtype, dets.class_id.dtype) == (np.float64, np.float64, np.int64)


def test_from_ultralytics_outlines_masks_and_drops_vanished_ones() -> None:
    dets = Detections.from_ultralytics(_results(masks=True))
    assert dets.mask_polygons is not None and len(dets.mask_polygons) == 2
    outline, vanished = dets.mask_polygons
    assert outline is not None and outline.shape[1] == 2 and len(outline) >= 3
    assert polygon_area(outline) == pytest.approx(20 * 30, rel=0.15)  # the covered box, outlined at pixel centres
    assert vanished is None  # the box stays, without an outline


def test_tracker_input_is_boxes_scores_and_the_given_class_column() -> None:
    dets = Detections.from_ultralytics(_results(masks=False))
    table = dets.to_tracker_input(np.array([0, 1]))
    assert table.dtype == np.float32 and table.shape == (2, 6)
    assert table[:, 5].tolist() == [0.0, 1.0] and table[0, :4].tolist() == [10.0, 10.0, 30.0, 40.0]
    assert Detections.empty().to_tracker_input(np.zeros(0)).shape == (0, 6)
    assert Detections.empty(segments=True).mask_polygons == []


def test_polygon_text_and_area() -> None:
    square = np.array([[0.0, 0.0], [2.04, 0.0], [2.04, 2.0], [0.0, 2.0]])
    assert json.loads(polygon_json(square)) == [[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]]
    assert polygon_area(square) == pytest.approx(4.08)
