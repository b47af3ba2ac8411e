"""The int8 detector (ingest/models/quantize.py): made once from the exported float32 detector, it finds
the same people on real footage (vtest.avi frames it was not calibrated on); a graph the recipe does
not know keeps float32; the precision setting is validated and changes the tracking settings' hash."""

import dataclasses
import shutil
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ingest import SettingsError
from ingest.models.detectors import load_detector
from ingest.models.quantize import int8_copy, int8_path
from ingest.settings import TrackingSettings


def _iou(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    lo, hi = np.maximum(a[:, None, :2], b[None, :, :2]), np.minimum(a[:, None, 2:], b[None, :, 2:])
    inter = np.prod(np.clip(hi - lo, 0, None), axis=2)
    area = lambda z: np.prod(z[:, 2:] - z[:, :2], axis=1)  # noqa: E731
    return inter / (area(a)[:, None] + area(b)[None, :] - inter)


@pytest.fixture(scope="module")
def vtest_frames(media: dict[str, Path]) -> list[np.ndarray]:
    import av

    frames = []
    with av.open(str(media["vtest"])) as container:
        for i, frame in enumerate(container.decode(video=0)):
            if i % 50 == 0:  # 16 frames over the 80 s
                frames.append(frame.to_ndarray(format="rgb24"))
    return frames


@pytest.mark.slow
def test_int8_detector_finds_the_people_float32_finds(vtest_frames: list[np.ndarray]) -> None:
    detectors: dict[str, Any] = {}
    for precision in ("fp32", "int8"):
        detectors[precision] = load_detector(dataclasses.replace(TrackingSettings(), precision=precision), "cpu")
    if not detectors["int8"].runtime.endswith("/int8"):
        pytest.fail(f"the int8 detector was not made: runtime {detectors['int8'].runtime}")
    found = {p: d.detect(vtest_frames) for p, d in detectors.items()}
    fp32 = int8 = matched = 0
    for a, b in zip(found["fp32"], found["int8"], strict=True):
        sure_a, sure_b = a.xyxy[a.confidence >= 0.25], b.xyxy[b.confidence >= 0.25]
        fp32, int8 = fp32 + len(sure_a), int8 + len(sure_b)
        if len(sure_a) and len(sure_b):
            matched += int((_iou(sure_a, sure_b).max(axis=1) >= 0.5).sum())
    assert fp32 > 50  # vtest has people in every frame
    assert abs(int8 - fp32) <= 0.1 * fp32, (fp32, int8)
    assert matched >= 0.85 * fp32, f"{matched} of {fp32} float32 boxes found again by int8"


@pytest.mark.slow
def test_a_segmentation_model_keeps_its_masks_in_int8(media: dict[str, Path], tmp_path: Path) -> None:
    from tests.test_tracking import _doctored_seg_model, _vtest_frames

    weights = str(_doctored_seg_model(tmp_path))
    images = [f.image for f in _vtest_frames(media, range(0, 20, 10))[1]]
    found = {}
    for precision in ("fp32", "int8"):
        settings = TrackingSettings(model=weights, image_size=160, precision=precision)
        detector = load_detector(settings, "cpu")
        assert detector.runtime.endswith("/int8") == (precision == "int8")
        found[precision] = detector.detect(images)
    for a, b in zip(found["fp32"], found["int8"], strict=True):
        assert len(a) == len(b) > 0 and b.mask_polygons is not None and len(b.mask_polygons) == len(b)
        assert np.allclose(np.sort(a.xyxy, axis=0), np.sort(b.xyxy, axis=0), atol=2.0)


def test_workers_starting_together_quantize_once_and_all_get_the_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # ingest's workers start at once on a fresh cache; when each quantized, onnxruntime's file beside
    # the model was deleted under the others and they ran float32. The quantizer is faked (it takes
    # 20 s); what is tested is that one worker makes the copy while the others wait and take it.
    import onnxruntime.quantization as ortq

    running, most, calls = [0], [0], [0]
    guard = threading.Lock()

    def fake_quantize(source: str, out: str, *args: Any, **kwargs: Any) -> None:
        with guard:
            running[0] += 1
            calls[0] += 1
            most[0] = max(most[0], running[0])
        time.sleep(0.3)
        shutil.copy(source, out)
        with guard:
            running[0] -= 1

    monkeypatch.setattr(ortq, "quantize_static", fake_quantize)
    path = _one_conv_model(tmp_path, "/model.0/cv2.0.2/Conv")  # a YOLO head's name: the recipe takes it
    with ThreadPoolExecutor(3) as pool:
        made = list(pool.map(int8_copy, [path] * 3))
    assert made == [int8_path(path)] * 3
    assert (calls[0], most[0]) == (1, 1)


def _one_conv_model(folder: Path, name: str) -> Path:
    import onnx
    from onnx import TensorProto, helper

    weight = helper.make_tensor("w", TensorProto.FLOAT, [1, 3, 1, 1], [0.2, 0.3, 0.5])
    conv = helper.make_node("Conv", ["images", "w"], ["out"], name=name)
    graph = helper.make_graph(
        [conv],
        "g",
        [helper.make_tensor_value_info("images", TensorProto.FLOAT, [1, 3, 8, 8])],
        [helper.make_tensor_value_info("out", TensorProto.FLOAT, [1, 1, 8, 8])],
        [weight],
    )
    path = folder / "plain.onnx"
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), str(path))
    return path


def test_a_graph_the_recipe_does_not_know_keeps_float32(tmp_path: Path) -> None:
    path = _one_conv_model(tmp_path, "conv")  # no /model.N/ layer names
    assert int8_copy(path) is None
    assert not list(tmp_path.glob("*int8*"))


@pytest.mark.parametrize(("value", "ok"), [("int8", True), ("fp32", True), ("fp16", False), ("", False)])
def test_precision_setting_is_validated(value: str, ok: bool) -> None:
    if ok:
        assert TrackingSettings(precision=value).precision == value
    else:
        with pytest.raises(SettingsError, match=r"tracking\.precision must be int8 or fp32"):
            TrackingSettings(precision=value)


def test_precision_is_part_of_the_tracking_hash_only() -> None:
    from ingest import IngestSettings

    base = IngestSettings()
    fp32 = dataclasses.replace(base, tracking=dataclasses.replace(base.tracking, precision="fp32"))
    assert base.role_hash("tracking") != fp32.role_hash("tracking")  # stored tracks say which arithmetic
    assert base.role_hash("asr") == fp32.role_hash("asr")
