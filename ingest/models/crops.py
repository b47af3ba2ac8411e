"""Small crops of each track (its best box plus a few spread over its life) for the appearance and
action roles, with the instance mask cut to the crop when the detector segments."""

from dataclasses import dataclass

import numpy as np

from ingest.media.frames import Frame

_CROPS_PER_TRACK = 4  # spread crops besides the best one
_CROP_EVERY_S = 1.0  # candidate spread crops are kept at most this often per track
_BEST_CROP_SIDE = 256  # px, longest side; enough for colour naming, small in memory
_SPREAD_CROP_SIDE = 128


@dataclass(frozen=True)
class TrackCrop:
    """A small RGB crop of one track at one time; `mask` (same size) is set when the model segments."""

    track_id: int
    t_s: float
    frame_index: int
    box: tuple[float, float, float, float]  # x1, y1, x2, y2 in frame pixels
    image: np.ndarray  # h x w x 3 uint8 RGB
    best: bool
    mask: np.ndarray | None = None  # h x w bool


class CropKeeper:
    """The best crop of one track so far, plus spread candidates at most one per `_CROP_EVERY_S`."""

    def __init__(self) -> None:
        self.best: tuple[float, TrackCrop] | None = None
        self.spread: list[TrackCrop] = []

    def offer(
        self, frame: Frame, box: tuple[float, float, float, float], score: float, polygon: np.ndarray | None
    ) -> None:
        quality = (box[2] - box[0]) * (box[3] - box[1]) * score
        if self.best is None or quality > self.best[0]:
            self.best = (quality, _crop(frame, box, polygon, _BEST_CROP_SIDE, best=True))
        if not self.spread or frame.t_s - self.spread[-1].t_s >= _CROP_EVERY_S:
            self.spread.append(_crop(frame, box, polygon, _SPREAD_CROP_SIDE, best=False))

    def select(self, track_id: int) -> list[TrackCrop]:
        """The best crop first, then up to `_CROPS_PER_TRACK` evenly spread over the track's life."""
        assert self.best is not None  # a keeper exists only once a box was offered
        best = self.best[1]
        picks = self.spread
        if len(picks) > _CROPS_PER_TRACK:
            idx = np.linspace(0, len(picks) - 1, _CROPS_PER_TRACK).round().astype(int)
            picks = [picks[i] for i in sorted(set(idx.tolist()))]
        out = [_renumber(best, track_id)]
        out.extend(_renumber(c, track_id) for c in picks if c.frame_index != best.frame_index)
        return out


def _renumber(crop: TrackCrop, track_id: int) -> TrackCrop:
    return TrackCrop(track_id, crop.t_s, crop.frame_index, crop.box, crop.image, crop.best, crop.mask)


def _crop(
    frame: Frame, box: tuple[float, float, float, float], polygon: np.ndarray | None, side: int, best: bool
) -> TrackCrop:
    import cv2

    x1, y1, x2, y2 = (round(v) for v in box)
    image = frame.image[y1:y2, x1:x2]
    mask: np.ndarray | None = None
    if polygon is not None:
        mask = np.zeros(image.shape[:2], np.uint8)
        cv2.fillPoly(mask, [np.round(polygon - (x1, y1)).astype(np.int32)], 1)
    scale = side / max(image.shape[:2])
    if scale < 1:  # only ever shrink: crops stay small in memory
        size = (max(1, round(image.shape[1] * scale)), max(1, round(image.shape[0] * scale)))
        image = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
        if mask is not None:
            mask = cv2.resize(mask, size, interpolation=cv2.INTER_NEAREST)
    return TrackCrop(
        0, frame.t_s, frame.index, box, np.ascontiguousarray(image), best, None if mask is None else mask.astype(bool)
    )
