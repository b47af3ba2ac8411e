"""Box and mask-outline geometry in frame pixels: areas, the stored outline text, simplification,
and boxes interpolated across a detector's short misses."""

import json
from collections.abc import Sequence
from typing import Any

import numpy as np

_POLYGON_TOLERANCE_PX = 1.0  # mask outlines are simplified to within a pixel

Box = tuple[float, float, float, float]  # x1, y1, x2, y2 in pixels


def box_iou(a: Box, b: Box) -> float:
    """Intersection over union of two boxes (0.0 when they do not meet)."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return 0.0
    inter = w * h
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def polygon_area(polygon: np.ndarray) -> float:
    """Shoelace area of a k x 2 outline.

    >>> polygon_area(np.array([[0.0, 0.0], [4.0, 0.0], [4.0, 3.0], [0.0, 3.0]]))
    12.0
    """
    x, y = polygon[:, 0], polygon[:, 1]
    return float(abs(np.dot(x, np.roll(y, 1)) - np.dot(y, np.roll(x, 1))) / 2)


def polygon_json(polygon: np.ndarray) -> str:
    """The stored `mask_polygon` text: [[x, y], ...] to a tenth of a pixel."""
    return json.dumps(np.round(polygon, 1).tolist())


def simplify(polygon: np.ndarray) -> np.ndarray:
    """The outline with points dropped while it stays within `_POLYGON_TOLERANCE_PX` of the original."""
    import cv2

    if len(polygon) < 4:
        return polygon
    approx = cv2.approxPolyDP(polygon.astype(np.float32).reshape(-1, 1, 2), _POLYGON_TOLERANCE_PX, True)
    return np.asarray(approx, dtype=np.float64).reshape(-1, 2)


def box_quality(row: dict[str, Any]) -> float:
    """Largest and most confident wins: the crop later roles learn most from."""
    return float((row["x2"] - row["x1"]) * (row["y2"] - row["y1"]) * row["confidence"])


def fill_gaps(rows: Sequence[dict[str, Any]], samples: Sequence[tuple[int, float]]) -> list[dict[str, Any]]:
    """A track's rows with a linearly interpolated box (confidence 0, no mask) in every sampled frame
    it misses between its first and last box.

    >>> rows = [{"frame_index": 0, "t_s": 0.0, "x1": 0.0, "y1": 0.0, "x2": 10.0, "y2": 10.0,
    ...          "confidence": 0.9, "category": "person", "mask_polygon": None, "mask_area": 100.0},
    ...         {"frame_index": 4, "t_s": 0.4, "x1": 4.0, "y1": 0.0, "x2": 14.0, "y2": 10.0,
    ...          "confidence": 0.8, "category": "person", "mask_polygon": None, "mask_area": 100.0}]
    >>> [(r["frame_index"], r["x1"], r["confidence"]) for r in fill_gaps(rows, [(0, 0.0), (2, 0.2), (4, 0.4)])]
    [(0, 0.0, 0.9), (2, 2.0, 0.0), (4, 4.0, 0.8)]
    """
    by_frame = {r["frame_index"]: r for r in rows}
    frames = sorted(by_frame)
    if not frames:
        return []
    out: list[dict[str, Any]] = []
    prev = by_frame[frames[0]]
    for index, t_s in samples:
        if index < frames[0] or index > frames[-1]:
            continue
        if index in by_frame:
            prev = by_frame[index]
            out.append(prev)
            continue
        nxt = by_frame[min(f for f in frames if f > index)]
        w = (t_s - prev["t_s"]) / max(nxt["t_s"] - prev["t_s"], 1e-9)
        box = {k: (1 - w) * prev[k] + w * nxt[k] for k in ("x1", "y1", "x2", "y2")}
        out.append(
            {
                "frame_index": index,
                "t_s": t_s,
                **box,
                "confidence": 0.0,
                "category": prev["category"],
                "mask_polygon": None,
                "mask_area": (box["x2"] - box["x1"]) * (box["y2"] - box["y1"]),
            }
        )
    return out
