"""An int8 copy of the exported detector for ONNX Runtime on CPUs.

Static QDQ quantization of the convolutions (weights per channel, activations per tensor), calibrated
on ultralytics' own sample pictures (people, a bus, a street: never the videos being measured), so one
copy serves every video and is made once per weights file into vidmem's cache. The detection head's
last convolutions (box distributions, class scores, mask coefficients) and the DFL stay float: their
outputs are what NMS thresholds, and quantizing them moves scores across the confidence line.

Lifecycle: `int8_copy(fp32_path)` returns the cached copy, quantizing on the first call (about 20 s on
2 cores); any failure (onnxruntime's quantization tools missing, an unexpected graph) returns None and
the caller keeps float32, with the reason logged.
"""

import logging
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

log = logging.getLogger(__name__)

#: Bump when the recipe changes, so cached copies made by an older one are not reused.
RECIPE = "qdq-all-v2"
#: Inside the head (the last layer), only the first two convolutions of each box (cv2), class (cv3)
#: and mask-coefficient (cv4) branch are quantized; their last convolution, the DFL, the decoding and
#: the mask prototypes' output stay float.
_HEAD_QUANTIZED = re.compile(r"/(cv[234]\.\d+\.[01]|proto/cv[12])/")
_LAYER = re.compile(r"^/model\.(\d+)/")


def int8_path(fp32: Path) -> Path:
    return fp32.with_name(f"{fp32.stem}-int8-{RECIPE}.onnx")


def int8_copy(fp32: Path, stride: int = 32) -> Path | None:
    """The int8 copy of an exported detector, made once; None (float32 is used) when it cannot be made.

    Parallel ingest workers start at once on a fresh cache: one makes the copy while the others wait
    on a lock and then take it. Without the lock each quantized, and onnxruntime's shape-inference file
    (`<model>-inferred.onnx`, beside the model, deleted when read) was removed under the others, which
    then ran float32 for the whole ingest: boxes of one video from int8, of the next from float32."""
    target = int8_path(fp32)
    if target.is_file():
        return target
    with _lock(fp32.with_name(f"{fp32.stem}.quantizing.lock")):
        return target if target.is_file() else _quantize(fp32, target, stride)


@contextmanager
def _lock(path: Path) -> Iterator[None]:
    """An exclusive lock between processes on `path` (no lock where fcntl is missing: Windows)."""
    try:
        import fcntl
    except ImportError:
        yield
        return
    with open(path, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _quantize(fp32: Path, target: Path, stride: int) -> Path | None:
    try:
        from onnxruntime.quantization import CalibrationMethod, QuantFormat, QuantType, quantize_static
    except ImportError as exc:
        log.info("tracking: no int8 detector (%s); float32 is used", exc)
        return None
    try:
        import onnx

        graph = onnx.load(str(fp32)).graph
        layers = [int(m.group(1)) for n in graph.node if (m := _LAYER.match(n.name))]
        head = f"/model.{max(layers)}/" if layers else None
        kept_float = [
            n.name for n in graph.node if head and n.name.startswith(head) and not _HEAD_QUANTIZED.search(n.name)
        ]
        if not kept_float:
            log.info("tracking: %s is not a YOLO graph this recipe knows; float32 is used", fp32.name)
            return None
        tmp = target.with_name(f"{target.stem}.{os.getpid()}.tmp.onnx")  # a crash leaves no half-written copy
        log.info("tracking: making an int8 copy of %s (once)", fp32.name)
        quantize_static(
            str(fp32),
            str(tmp),
            _Calibration(stride),
            quant_format=QuantFormat.QDQ,
            op_types_to_quantize=["Conv", "Sigmoid", "Mul", "Add", "Concat", "MaxPool", "Resize", "Split"],
            nodes_to_exclude=kept_float,
            per_channel=True,
            # 7-bit weights: x86 CPUs without VNNI multiply u8 x s8 with an instruction (vpmaddubsw) that
            # saturates pairs of full-range products, so their boxes differed from those of CPUs with
            # VNNI (vtest: 18 person tracks against 20); with one bit less the sums stay in range (here the
            # fused kernels' scores came within 0.07 of the exact arithmetic, from 0.32)
            reduce_range=True,
            activation_type=QuantType.QUInt8,
            weight_type=QuantType.QInt8,
            calibrate_method=CalibrationMethod.MinMax,
        )
        tmp.replace(target)
    except Exception as exc:  # a graph the quantizer cannot take: float32 still works
        log.warning("tracking: could not make an int8 copy of %s (%s); float32 is used", fp32.name, exc)
        return None
    return target


class _Calibration:
    """onnxruntime's CalibrationDataReader over ultralytics' sample pictures, letterboxed as the detector
    sees frames, in a few sizes, crops, mirrors and exposures (a street camera's range)."""

    def __init__(self, stride: int) -> None:
        self._items: Iterator[dict[str, np.ndarray]] = iter(list(_calibration_inputs(stride)))

    def get_next(self) -> dict[str, np.ndarray] | None:
        return next(self._items, None)

    def rewind(self) -> None:  # onnxruntime >= 1.20 may ask; our inputs are one pass
        pass


def _calibration_inputs(stride: int) -> Iterator[dict[str, Any]]:
    from PIL import Image
    from ultralytics.data.augment import LetterBox
    from ultralytics.utils import ASSETS

    pictures = [np.asarray(Image.open(p).convert("RGB")) for p in sorted(Path(ASSETS).glob("*.jpg"))]
    for picture in pictures:
        h, w = picture.shape[:2]
        views = [
            picture,
            picture[:, ::-1],
            picture[h // 4 :, w // 6 : w - w // 6],  # closer, people larger
            np.clip(picture.astype(np.float32) * 0.55, 0, 255).astype(np.uint8),  # dusk
            np.clip(picture.astype(np.float32) * 1.3 + 10, 0, 255).astype(np.uint8),  # glare
        ]
        for size in (640, 480):
            box = LetterBox((size, size), auto=True, stride=stride)
            for view in views:
                boxed: np.ndarray = box(image=np.ascontiguousarray(view))  # type: ignore[assignment]  # RGB, as OnnxDetector
                x = boxed[None].transpose(0, 3, 1, 2).astype(np.float32) / 255.0
                yield {"images": np.ascontiguousarray(x)}
