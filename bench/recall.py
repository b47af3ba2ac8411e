"""What a faster tracking path keeps of the slow one, on the same machine: people and boxes.

A reference is a run on the same video with the speed features off (the detector on every sample, in
float32), never numbers stored from another machine: int8 kernels differ between processors, and a
re-encoded clip differs between ffmpeg builds. People, not track counts: a lost person hides behind a
track split in two, and counts move by two or three between processors.

Boxes are rows (frame_index, track_id, x1, y1, x2, y2, confidence), as the `detections` table holds them;
confidence 0 marks a box interpolated where the detector did not run or missed.
"""

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

#: A box is found again when a box of the other run in the same frame overlaps it at this IoU.
MATCH_IOU = 0.5
#: A person is a reference track with at least this many detector boxes (a second at 5 samples a second),
#: most of them scored at least PERSON_MIN_SCORE (the tracker's threshold for a new track): a track the
#: detector keeps at 0.13-0.32 is a false positive held by ByteTrack's low-score matching (full vtest:
#: a rock on the grass, 36 boxes in float32, none in int8).
PERSON_MIN_BOXES, PERSON_MIN_SCORE = 5, 0.3
#: ... and is kept when this share of its boxes is found.
PERSON_KEPT_SHARE = 0.5

Box = Sequence[Any]  # (frame_index, track_id, x1, y1, x2, y2, confidence)


def _by_frame(boxes: Iterable[Box]) -> dict[int, np.ndarray]:
    frames: dict[int, list[list[float]]] = {}
    for frame, _track, x1, y1, x2, y2, _conf in boxes:
        frames.setdefault(int(frame), []).append([x1, y1, x2, y2])
    return {f: np.asarray(b, dtype=np.float64) for f, b in frames.items()}


def matched(boxes: Sequence[Box], others: Sequence[Box]) -> float:
    """Share of `boxes` with a box of `others` in the same frame at IoU >= MATCH_IOU (1.0 when empty)."""
    if not boxes:
        return 1.0
    frames = _by_frame(others)
    found = 0
    for frame, _track, x1, y1, x2, y2, _conf in boxes:
        o = frames.get(int(frame))
        if o is None:
            continue
        w = (np.minimum(o[:, 2], x2) - np.maximum(o[:, 0], x1)).clip(min=0)
        h = (np.minimum(o[:, 3], y2) - np.maximum(o[:, 1], y1)).clip(min=0)
        union = (x2 - x1) * (y2 - y1) + (o[:, 2] - o[:, 0]) * (o[:, 3] - o[:, 1]) - w * h
        found += bool((w * h / union >= MATCH_IOU).any())
    return found / len(boxes)


def detected(boxes: Iterable[Box]) -> list[Box]:
    """The boxes the detector put there (interpolated ones aside)."""
    return [b for b in boxes if b[6] > 0]


def lost_people(reference: Sequence[Box], boxes: Sequence[Box]) -> dict[int, float]:
    """Reference people (track id -> share of their detector boxes found) that `boxes` does not keep."""
    people: dict[int, list[Box]] = {}
    for box in detected(reference):
        people.setdefault(int(box[1]), []).append(box)
    lost = {}
    for track, own in people.items():
        confident = sum(b[6] >= PERSON_MIN_SCORE for b in own) >= len(own) / 2
        if len(own) >= PERSON_MIN_BOXES and confident and (share := matched(own, boxes)) < PERSON_KEPT_SHARE:
            lost[track] = round(share, 2)
    return lost


def tracking_problems(reference: Sequence[Box], boxes: Sequence[Box], min_recall: float = 0.9) -> list[str]:
    """How `boxes` falls short of the reference: lost people, detector boxes not found again.

    >>> ref = [(f, 1, 10.0 * f, 0, 10.0 * f + 50, 100, 0.9) for f in range(10)]
    >>> tracking_problems(ref, ref[::2] + [(f, 7, 10.0 * f, 0, 10.0 * f + 50, 100, 0.0) for f in range(1, 10, 2)])
    []
    >>> tracking_problems(ref, ref[:3])
    ['people lost (track: share of boxes found): {1: 0.3}', 'reference boxes found 30% (< 90%)']
    """
    problems = []
    if lost := lost_people(reference, boxes):
        problems.append(f"people lost (track: share of boxes found): {lost}")
    if (found := matched(detected(reference), boxes)) < min_recall:
        problems.append(f"reference boxes found {found:.0%} (< {min_recall:.0%})")
    return problems
