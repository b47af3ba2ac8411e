"""Frame differencing for the tracking role: which sampled frames may skip the detector.

Detection is most of ingest's CPU time. Where a frame did not change since the last detected one,
or changed only where known objects are (people walking inside the boxes the tracker already
follows), the detector would find the same objects again; the tracker coasts through such a frame
on its motion model instead, and the interpolation of `fill_gaps` gives those objects a box there.
A change anywhere else (something entering, a cut) always runs the detector, and no more than
`max_skips` samples in a row skip it, so tracks are re-anchored on real boxes often.

The known boxes are the tracks the tracker reported, not every detection, and a sample with a
detection the tracker has not confirmed yet is followed by a detected one: a tracker confirms a
new track only on a next detection close to the first (ByteTrack: IoU >= 0.3 from a standing start),
which a person walking across the frame no longer meets two samples later.
"""

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

#: Frames are compared as grey thumbnails this many times smaller on each side.
_THUMB_DIVISOR = 4


@dataclass(frozen=True)
class MotionRule:
    threshold: float = 25.0  # grey-level change (0-255) of a thumbnail pixel that counts as motion
    max_new_share: float = 0.002  # share of the frame that may change outside the known objects' boxes
    box_margin: float = 0.25  # known boxes grow by this share of their size (people move between samples)
    max_skips: int = 1  # samples in a row that may skip detection while objects move
    max_still_skips: int = 4  # ... when nothing in the frame changed at all


class MotionGate:
    """Per video: `should_detect(image)` for each sampled frame, `detected(image, boxes, settled)` after
    each detection."""

    def __init__(self, rule: MotionRule | None = None) -> None:
        self.rule = rule or MotionRule()
        self._last: np.ndarray | None = None
        self._boxes: np.ndarray = np.zeros((0, 4))
        self._skipped = 0
        self._settled = True
        self.skipped_total = 0

    def should_detect(self, image: np.ndarray) -> bool:
        if self._last is None or not self._settled:
            return True
        thumb = _thumb(image)
        if thumb.shape != self._last.shape:
            return True
        moved = np.abs(thumb - self._last) > self.rule.threshold
        still = not moved.any()
        limit = self.rule.max_still_skips if still else self.rule.max_skips
        if self._skipped >= limit:
            return True
        if not still:
            outside = moved & ~_box_mask(self._boxes, thumb.shape, self.rule.box_margin)
            if outside.mean() > self.rule.max_new_share:
                return True
        self._skipped += 1
        self.skipped_total += 1
        return False

    def detected(self, image: np.ndarray, boxes: np.ndarray, settled: bool = True) -> None:
        """The detector ran on `image`; `boxes` (n x 4 frame pixels) are the objects the tracker follows
        there, and `settled` says whether it follows every object detected (False: the next sample
        is detected whatever it shows)."""
        self._last = _thumb(image)
        self._boxes = np.asarray(boxes, dtype=np.float64).reshape(-1, 4)
        self._skipped = 0
        self._settled = settled


def _thumb(image: np.ndarray) -> np.ndarray:
    import cv2

    h, w = image.shape[:2]
    grey = cv2.cvtColor(image, cv2.COLOR_RGB2GRAY)
    size = (max(1, w // _THUMB_DIVISOR), max(1, h // _THUMB_DIVISOR))
    return cv2.resize(grey, size, interpolation=cv2.INTER_AREA).astype(np.float32)


def _box_mask(boxes: Sequence[np.ndarray] | np.ndarray, shape: tuple[int, ...], margin: float) -> np.ndarray:
    """Thumbnail pixels inside any box grown by `margin` of its size."""
    mask = np.zeros(shape[:2], bool)
    for x1, y1, x2, y2 in np.asarray(boxes, dtype=np.float64).reshape(-1, 4) / _THUMB_DIVISOR:
        dx, dy = (x2 - x1) * margin + 1, (y2 - y1) * margin + 1
        mask[max(0, int(y1 - dy)) : int(np.ceil(y2 + dy)), max(0, int(x1 - dx)) : int(np.ceil(x2 + dx))] = True
    return mask
