"""One frame's detections as a typed value (modelled on supervision's `Detections`): what a
detector returns and the tracker consumes, whatever runtime produced it.

>>> d = Detections(np.array([[0.0, 0.0, 4.0, 2.0]]), np.array([0.9]), np.array([3]))
>>> len(d), d.mask_polygons is None
(1, True)
>>> d.to_tracker_input(np.array([0])).tolist()
[[0.0, 0.0, 4.0, 2.0, 0.8999999761581421, 0.0]]
"""

from dataclasses import dataclass
from typing import Any

import numpy as np

from ingest.models.boxes import simplify

#: Boxes down to this score reach the tracker: ByteTrack-style trackers use the weak ones only to
#: continue existing tracks (through occlusion), while `confidence` gates new tracks.
LOW_CONFIDENCE = 0.1


@dataclass(frozen=True, eq=False)  # arrays: equality by identity, not element-wise
class Detections:
    """n boxes of one frame; `mask_polygons` is set (one outline or None per box) when the model segments."""

    xyxy: np.ndarray  # n x 4 float64, frame pixels
    confidence: np.ndarray  # n float64, the detector's score
    class_id: np.ndarray  # n int64, model class ids
    mask_polygons: list[np.ndarray | None] | None = None  # n outlines (k x 2 frame pixels), simplified

    def __len__(self) -> int:
        return len(self.confidence)

    @classmethod
    def empty(cls, segments: bool = False) -> "Detections":
        return cls(np.zeros((0, 4)), np.zeros(0), np.zeros(0, np.int64), [] if segments else None)

    @classmethod
    def from_ultralytics(cls, result: Any) -> "Detections":
        """From an ultralytics `Results` (its boxes, and its masks' outlines when it has them)."""
        boxes = result.boxes
        polygons: list[np.ndarray | None] | None = None
        if result.masks is not None:
            outlines = [simplify(np.asarray(p, dtype=np.float64)) for p in result.masks.xy]
            # an instance whose mask vanished at this resolution keeps its box, without an outline
            polygons = [p if len(p) >= 3 else None for p in outlines]
        return cls(
            _numpy(boxes.xyxy).astype(np.float64),
            _numpy(boxes.conf).astype(np.float64),
            _numpy(boxes.cls).astype(np.int64),
            polygons,
        )

    def to_tracker_input(self, category_ids: np.ndarray) -> np.ndarray:
        """The n x 6 float32 table boxmot trackers take: x1, y1, x2, y2, score, class."""
        table = np.column_stack([self.xyxy, self.confidence, category_ids])
        return table.astype(np.float32).reshape(-1, 6)


def _numpy(values: Any) -> np.ndarray:
    return np.asarray(values.cpu().numpy() if hasattr(values, "cpu") else values)
