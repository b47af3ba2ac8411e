"""The tracking role's detectors: ultralytics' torch predict, or the same model exported once to
ONNX (about 1.3x less CPU than torch there, and no thread spinning when other work shares the
cores) with ultralytics' own letterbox and NMS around it. Both return `Detections` per frame."""

import hashlib
import importlib.util
import logging
import os
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ingest.errors import RoleUnavailable
from ingest.models.detections import LOW_CONFIDENCE, Detections
from ingest.models.detector_weights import SUBSTITUTE_NOTE, resolve_detector
from ingest.models.quantize import int8_copy
from ingest.models.weights import ULTRALYTICS_ASSETS, reachable
from memory.cache import cache_dir

log = logging.getLogger(__name__)


def load_detector(cfg: Any, device: str) -> "TorchDetector | OnnxDetector":
    """The detector `cfg` (TrackingSettings) names, on ONNX Runtime on a CPU where it exports, else torch."""
    weights = resolve_detector(cfg.model)
    if weights.substitute:
        log.warning("tracking: using the " + SUBSTITUTE_NOTE.format(model=cfg.model))
    if weights.source == "download" and not reachable(ULTRALYTICS_ASSETS):  # offline: say so now, not after retries
        raise RoleUnavailable(
            f"tracking: {cfg.model} is not on disk and {ULTRALYTICS_ASSETS} cannot be reached to download it; "
            "run 'vidmem models pull tracking' on a machine with internet, or set tracking.model to a weights file"
        )
    log.info("tracking: loading %s (%s) on %s", weights.location, weights.source, device)
    try:
        from ultralytics import YOLO

        model = YOLO(weights.location)
    except Exception as exc:  # a download that failed offline, or a file that is not YOLO weights
        raise RoleUnavailable(f"tracking: cannot load detector {weights.location!r}: {exc}") from exc
    names: dict[int, str] = {int(k): weights.categories.get(v, v) for k, v in model.names.items()}
    classes = class_ids(cfg.classes, names)
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
            if cfg.precision == "int8":
                onnx_path = int8_copy(onnx_path, stride) or onnx_path
            return OnnxDetector(onnx_path, names, classes, cfg, stride)
    return TorchDetector(model, names, classes, cfg, device)


def class_ids(wanted: Sequence[str], names: dict[int, str]) -> list[int] | None:
    """Model class ids for the wanted category names; None keeps every class."""
    if not wanted:
        return None
    ids = [i for i, name in names.items() if name in wanted]
    if not ids:
        raise RoleUnavailable(
            f"tracking.classes {list(wanted)} match none of the detector's classes {sorted(set(names.values()))}"
        )
    return ids


def to_bgr(image: np.ndarray) -> np.ndarray:
    """An RGB frame as the BGR array ultralytics and some trackers take."""
    return np.ascontiguousarray(image[..., ::-1])


class TorchDetector:
    def __init__(self, model: Any, names: dict[int, str], classes: list[int] | None, cfg: Any, device: str) -> None:
        self.model, self.categories, self.classes, self.cfg, self.device = model, names, classes, cfg, device
        self.agnostic = len(set(names.values())) < len(names)  # classes that are one category must not both box it
        self.runtime = f"torch/{device}"

    def detect(self, images: Sequence[np.ndarray]) -> list[Detections]:
        results = self.model.predict(
            [to_bgr(im) for im in images],  # ultralytics takes numpy images as BGR
            imgsz=self.cfg.image_size,
            conf=min(self.cfg.confidence, LOW_CONFIDENCE),
            classes=self.classes,
            agnostic_nms=self.agnostic,
            device=self.device,
            verbose=False,
            # half precision on a GPU, unless float32 is asked for (the benchmark's reference run)
            **({"quantize": 16} if self.device.startswith("cuda") and self.cfg.precision != "fp32" else {}),
        )
        return [Detections.from_ultralytics(res) for res in results]


def _export_onnx(model: Any, pt_path: Path, required: bool, segment: bool) -> Path | None:
    """A float32 ONNX copy of a detection or segmentation model, exported once into the vidmem cache."""
    digest = hashlib.sha256(pt_path.read_bytes()).hexdigest()[:16]
    target = cache_dir("models") / f"{pt_path.stem}-{digest}.onnx"
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


class OnnxDetector:
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
        self.runtime = "onnxruntime/cpu" + ("/int8" if "-int8-" in path.name else "")

    def detect(self, images: Sequence[np.ndarray]) -> list[Detections]:
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
                min(self.cfg.confidence, LOW_CONFIDENCE),
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

    def _result(self, image: np.ndarray, boxed_hw: tuple[int, int], det: Any, proto: Any) -> Detections:
        from ultralytics.engine.results import Results
        from ultralytics.utils import ops

        if proto is not None and len(det):
            # ultralytics' own mask decoding and outline extraction, as in its segmentation predictor
            masks = ops.process_mask(proto, det[:, 6:], det[:, :4], boxed_hw, upsample=True)
            det[:, :4] = ops.scale_boxes(boxed_hw, det[:, :4], image.shape[:2])
            return Detections.from_ultralytics(
                Results(image, path="", names=self.categories, boxes=det[:, :6], masks=masks)
            )
        if proto is not None:  # a segmentation model that found nothing in this frame
            return Detections.empty(segments=True)
        det[:, :4] = ops.scale_boxes(boxed_hw, det[:, :4], image.shape[:2])
        return Detections(
            np.asarray(det[:, :4], dtype=np.float64),
            det[:, 4].numpy().astype(np.float64),
            det[:, 5].numpy().astype(np.int64),
        )
