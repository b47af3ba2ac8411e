"""OCR: the packaged PP-OCR models read the fixtures' burned-in signs, and spans carry their times."""

import dataclasses
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ingest import IngestSettings, SettingsError, ingest_video
from ingest.models.weights import package_dir
from ingest.roles.ocr import OcrLine, TextReader, box_iou, edit_similarity, merge_spans, normalize_text, resolve_engine
from ingest.settings import OcrSettings
from memory import open_memory

SIGN = (100.0, 20.0, 700.0, 100.0)
ELSEWHERE = (100.0, 400.0, 700.0, 480.0)


def _line(text: str, box: tuple[float, float, float, float] = SIGN, conf: float = 0.9) -> OcrLine:
    return OcrLine(text, conf, box)


def _settings(**ocr: Any) -> IngestSettings:
    base = IngestSettings().only("ocr")
    return dataclasses.replace(base, ocr=dataclasses.replace(base.ocr, **ocr))


def _spans(mem_path: Path, video_id: str) -> list[dict[str, Any]]:
    with open_memory(mem_path, read_only=True) as mem:
        return mem.query("SELECT * FROM ocr_spans WHERE video_id = ? ORDER BY span_id", [video_id]).to_pylist()


# ------------------------------------------------------------------ span merging (pure)


@pytest.mark.parametrize(
    ("samples", "expected"),
    [
        # the same sign read three times, once with a recognition slip: one span, the usual reading
        ([["PLATFORM 9 EXIT"], ["PLATF0RM 9 EXIT"], ["PLATFORM 9 EXIT"]], [("PLATFORM 9 EXIT", 0.0, 2.0, 3)]),
        # different text in the same place: two spans
        ([["PLATFORM 9 EXIT"], ["NORTH GATE"]], [("PLATFORM 9 EXIT", 0.0, 0.0, 1), ("NORTH GATE", 1.0, 1.0, 1)]),
        # one missed sample does not split a span, two do
        ([["EXIT"], [], ["EXIT"]], [("EXIT", 0.0, 2.0, 2)]),
        ([["EXIT"], [], [], ["EXIT"]], [("EXIT", 0.0, 0.0, 1), ("EXIT", 3.0, 3.0, 1)]),
        # no text at all
        ([[], []], []),
    ],
)
def test_consecutive_readings_merge_into_spans(samples: list[list[str]], expected: list[tuple[Any, ...]]) -> None:
    spans = merge_spans([(float(t), [_line(x) for x in lines]) for t, lines in enumerate(samples)])
    assert [(s.text, s.start_s, s.end_s, s.num_frames) for s in spans] == expected


@pytest.mark.parametrize(
    ("samples", "expected"),
    [
        # a counter that changes and holds: a span per value (edit similarity alone made one span read '0')
        (["Runners finished: 0"] * 4 + ["Runners finished: 3"] * 3 + ["Runners finished: 655"] * 3,
         [("Runners finished: 0", 0.0, 3.0), ("Runners finished: 3", 4.0, 6.0), ("Runners finished: 655", 7.0, 9.0)]),
        # a misread digit for two samples stays in its span
        (["GATE 12"] * 3 + ["GATE 17"] * 2 + ["GATE 12"] * 3, [("GATE 12", 0.0, 7.0)]),
        # a clock ticking every sample is one span, read as its most frequent reading
        ([f"12:00:{s:02d}" for s in range(8)], [("12:00:00", 0.0, 7.0)]),
        # a short first reading joins the run after it
        (["PLATFORM 4"] + ["PLATFORM 7"] * 5, [("PLATFORM 7", 0.0, 5.0)]),
        # digits inside a word are a misread, not a number
        (["PLATFORM 9"] * 3 + ["PLATF0RM 9"] * 3, [("PLATFORM 9", 0.0, 5.0)]),
    ],
)
def test_a_changed_number_that_holds_splits_its_span(samples: list[str], expected: list[tuple[Any, ...]]) -> None:
    spans = merge_spans([(float(t), [_line(x)]) for t, x in enumerate(samples)], number_run=3)
    assert [(s.text, s.start_s, s.end_s) for s in spans] == expected
    assert sum(s.num_frames for s in spans) == len(samples)


def test_the_same_text_in_another_place_is_another_span() -> None:
    spans = merge_spans([(0.0, [_line("EXIT", SIGN)]), (1.0, [_line("EXIT", ELSEWHERE)])])
    assert [(s.start_s, s.box) for s in spans] == [(0.0, SIGN), (1.0, ELSEWHERE)]


def test_two_lines_in_one_frame_stay_apart() -> None:
    both = [_line("EXIT", SIGN), _line("EXIT", ELSEWHERE)]
    spans = merge_spans([(0.0, both), (1.0, both)])
    assert sorted((s.box, s.num_frames) for s in spans) == [(SIGN, 2), (ELSEWHERE, 2)]


def test_similarity_and_overlap_measures() -> None:
    assert edit_similarity("exit", "exit") == 1.0
    assert edit_similarity("exit", "") == 0.0
    assert edit_similarity(normalize_text("Platform  9"), normalize_text("PLATFORM 9")) == 1.0
    assert box_iou(SIGN, SIGN) == 1.0
    assert box_iou(SIGN, ELSEWHERE) == 0.0


# ------------------------------------------------------------------ settings and availability


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"engine": "tesseract"}, "ocr.engine"),
        ({"merge_similarity": 1.5}, "ocr.merge_similarity"),
        ({"fps": 0}, "ocr.fps"),
    ],
)
def test_bad_ocr_settings_are_refused_at_once(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(SettingsError, match=message):
        OcrSettings(**changes)


def test_default_engine_is_the_packaged_pp_ocr_models() -> None:
    avail = TextReader(IngestSettings()).availability()
    assert avail.ok and avail.source == "package"
    assert "PP-OCRv6" in avail.detail


def test_a_missing_model_path_makes_the_role_unavailable(tmp_path: Path) -> None:
    avail = TextReader(_settings(det_model=str(tmp_path / "nope.onnx"))).availability()
    assert not avail.ok
    assert "nope.onnx" in avail.detail and "does not exist" in avail.detail


@pytest.mark.skipif(package_dir("paddleocr") is not None, reason="paddleocr is installed here")
def test_paddleocr_without_the_package_says_how_to_get_it() -> None:
    avail = TextReader(_settings(engine="paddleocr")).availability()
    assert not avail.ok and "pip install paddleocr" in avail.detail


# ------------------------------------------------------------------ real clips


@pytest.mark.slow
@pytest.mark.parametrize("clip", ["speech_sign", "speech_count"])
def test_spans_hold_the_burned_in_sign_with_its_times(
    media: dict[str, Path], truth: dict[str, Any], tmp_path: Path, clip: str
) -> None:
    fps = 1.0
    sign = truth["clips"][clip]["onscreen_text"]
    mem_path = tmp_path / "m.duckdb"
    with open_memory(mem_path) as mem:
        result = ingest_video(media[clip], mem, _settings(fps=fps))
    assert result.status == "ok" and result.roles["ocr"] == "ran", result
    spans = _spans(mem_path, str(result.video_id))
    found = [s for s in spans if edit_similarity(normalize_text(s["text"]), normalize_text(sign["text"])) >= 0.9]
    assert len(found) == 1, spans
    span = found[0]
    # shown on frames with start <= t < end; samples every 1/fps seconds
    assert sign["start_s"] <= span["start_s"] < sign["start_s"] + 1 / fps
    assert sign["end_s"] - 1 / fps <= span["end_s"] < sign["end_s"]
    assert span["num_frames"] >= 4 and span["confidence"] > 0.9
    # the box is where the fixture drew it (truth: "box about x 46-720, y 24-104" for speech_sign)
    if clip == "speech_sign":
        assert span["x1"] < 100 and span["x2"] > 650 and span["y1"] < 60 and span["y2"] < 120
    with open_memory(mem_path, read_only=True) as mem:
        raw = mem.query("SELECT t_s, text FROM ocr WHERE video_id = ? ORDER BY t_s", [result.video_id]).to_pylist()
    assert {r["t_s"] for r in raw if r["text"] == span["text"]} >= {span["start_s"], span["end_s"]}


@pytest.mark.slow
def test_scene_changes_add_samples_between_base_samples(
    media: dict[str, Path], truth: dict[str, Any], tmp_path: Path
) -> None:
    """At 0.25 fps alone the sign (1.0-6.0 s) would first be read at 4.0 s; its appearance is a change."""
    sign = truth["clips"]["speech_count"]["onscreen_text"]
    mem_path = tmp_path / "m.duckdb"
    with open_memory(mem_path) as mem:
        result = ingest_video(media["speech_count"], mem, _settings(fps=0.25, scene_threshold=6.0, scene_fps=4.0))
    spans = _spans(mem_path, str(result.video_id))
    found = [s for s in spans if normalize_text(s["text"]) == normalize_text(sign["text"])]
    assert len(found) == 1, spans
    assert sign["start_s"] <= found[0]["start_s"] < sign["start_s"] + 0.25
    with open_memory(mem_path, read_only=True) as mem:
        sampled = mem.query("SELECT count(DISTINCT t_s) AS n FROM ocr WHERE video_id = ?", [result.video_id])
    # far fewer frames read than checked (20 s at 4 fps = 80)
    assert sampled["n"][0].as_py() < 20


@pytest.mark.slow
def test_models_given_by_path_read_like_the_packaged_ones(media: dict[str, Path], tmp_path: Path) -> None:
    """PaddleOCR-style model dirs (inference.onnx inside) work with the rapidocr engine."""
    import decord

    rapidocr = package_dir("rapidocr")
    assert rapidocr is not None
    packaged = rapidocr / "models"
    for kind, name in (("det", "PP-OCRv6_det_small.onnx"), ("rec", "PP-OCRv6_rec_small.onnx")):
        (tmp_path / kind).mkdir()
        (tmp_path / kind / "inference.onnx").symlink_to(packaged / name)
    settings = _settings(engine="rapidocr", det_model=str(tmp_path / "det"), rec_model=str(tmp_path / "rec"))
    reader = TextReader(settings)
    assert reader.availability().source == "settings"
    frame = decord.VideoReader(str(media["speech_sign"]))[125].asnumpy()  # t = 5 s: the sign is up
    (lines,) = reader._load().read([frame])
    assert [line.text for line in lines] == ["PLATFORM 9 EXIT"]


@pytest.mark.slow
def test_a_broken_model_fails_the_role_not_the_video(media: dict[str, Path], tmp_path: Path) -> None:
    bad = tmp_path / "det.onnx"
    bad.write_text("not an ONNX model")
    settings = _settings(engine="rapidocr", det_model=str(bad))
    with open_memory(tmp_path / "m.duckdb") as mem:
        result = ingest_video(media["no_audio"], mem, settings)
        assert result.status == "ok"
        assert result.roles["ocr"].startswith("failed: cannot load the rapidocr OCR models")
        assert mem.table_counts()["ocr"] == 0


def test_a_frame_without_text_gives_no_lines() -> None:
    reader = TextReader(IngestSettings())._load()
    grey = np.full((288, 384, 3), 128, np.uint8)
    assert reader.read([grey]) == [[]]


@pytest.mark.slow
@pytest.mark.skipif(package_dir("paddleocr") is None, reason="paddleocr is not installed (optional engine)")
def test_paddleocr_runs_the_packaged_onnx_models_from_model_dirs(media: dict[str, Path], tmp_path: Path) -> None:
    """PaddleOCR 3.x with engine='onnxruntime' (no paddlepaddle) reads the same models as rapidocr."""
    import decord
    import onnxruntime
    import yaml
    from paddlex.modules.base.utils.pdparams2safetensors.inference_meta import build_inference_meta

    rapidocr = package_dir("rapidocr")
    assert rapidocr is not None
    dirs = {}
    for kind, onnx in (("det", "PP-OCRv6_det_small.onnx"), ("rec", "PP-OCRv6_rec_small.onnx")):
        name = f"PP-OCRv6_small_{kind}"
        model_dir = tmp_path / name
        model_dir.mkdir()
        (model_dir / "inference.onnx").symlink_to(rapidocr / "models" / onnx)
        meta: dict[str, Any] = {"Global": {"model_name": name}, **build_inference_meta(name)}
        if kind == "rec":  # the character list travels inside the ONNX file's metadata
            session = onnxruntime.InferenceSession(model_dir / "inference.onnx", providers=["CPUExecutionProvider"])
            chars = session.get_modelmeta().custom_metadata_map["character"]
            meta["PostProcess"]["character_dict"] = chars.splitlines()
        (model_dir / "inference.yml").write_text(yaml.safe_dump(meta, allow_unicode=True))
        dirs[f"{kind}_model"] = str(model_dir)
    reader = TextReader(_settings(**dirs))  # engine 'auto' picks paddleocr for model dirs
    assert resolve_engine(reader.settings.ocr).name == "paddleocr"
    frames = decord.VideoReader(str(media["speech_sign"])).get_batch([125, 10]).asnumpy()  # sign up, sign not yet
    lines = reader._load().read(list(frames))
    assert [[line.text for line in frame] for frame in lines] == [["PLATFORM 9 EXIT"], []]


# ------------------------------------------------------------------ the text-presence check


@pytest.fixture(scope="module")
def sign_frames(media: dict[str, Path]) -> dict[int, np.ndarray]:
    """speech_sign frames at 25 fps: the sign is up from frame 100 to 224 (4.0-9.0 s)."""
    import decord

    wanted = [0, 75, 100, 150, 200, 250]
    return dict(zip(wanted, decord.VideoReader(str(media["speech_sign"])).get_batch(wanted).asnumpy(), strict=True))


def test_the_presence_check_passes_sign_frames_and_skips_frames_without_text(
    sign_frames: dict[int, np.ndarray],
) -> None:
    reader = TextReader(IngestSettings())._load()
    passed = {i for i, image in sign_frames.items() if reader.may_have_text(image, 0.5)}
    assert passed == {100, 150, 200}
    assert not reader.may_have_text(np.full((576, 768, 3), 128, np.uint8), 0.5)


def test_frames_the_presence_check_skips_would_have_given_no_lines(sign_frames: dict[int, np.ndarray]) -> None:
    reader = TextReader(IngestSettings())._load()
    images = list(sign_frames.values())
    full = reader.read(images)
    checked = [lines if reader.may_have_text(image, 0.5) else [] for image, lines in zip(images, full, strict=True)]
    assert checked == full
    assert [line.text for line in full[2]] == ["PLATFORM 9 EXIT"]


def test_presence_scale_is_validated() -> None:
    with pytest.raises(SettingsError, match="presence_scale"):
        OcrSettings(presence_scale=0.0)
    assert OcrSettings(presence_scale=None).presence_scale is None
