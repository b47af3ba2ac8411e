"""On-screen text (PP-OCR) -> `ocr` (raw lines per sampled frame) and `ocr_spans` (deduplicated).

Engine. The product's OCR is PaddlePaddle's PP-OCR family. Two packages run it:
- rapidocr (the default, `engine="auto"`): its wheel ships the PP-OCRv6 small detection and
  recognition models as ONNX files and runs them on onnxruntime, so OCR works offline with
  nothing to download. `det_model`/`rec_model` may point at other PP-OCR ONNX files (or PaddleOCR
  model dirs, whose inference.onnx is used), preprocessed the way rapidocr does PP-OCRv6.
- paddleocr (`engine="paddleocr"`, or "auto" when model dirs are given and it is installed):
  PaddleOCR 3.x runs the same ONNX models with `engine="onnxruntime"` from model dirs holding
  inference.onnx + inference.yml; without dirs it downloads its models by name. It is not a default
  because its wheel ships no models and its paddlex dependency pulls ~30 packages, among them a
  third OpenCV distribution that shadows the `cv2` rapidocr installs.

Spans. The same line read in consecutive samples (normalized edit similarity >= `merge_similarity`
and box IoU >= `merge_iou`) is one span from the first to the last sampled time it is seen; one
missed sample in between does not split it (recognizers drop a line now and then). Edit similarity
cannot tell a changed number from a misread: "Runners finished: 0", "3" and "655" were one span read
"0", and two of the counter's values were lost. So a span's samples are split where its numbers (those
standing as words: not the 0 of a misread 'PLATF0RM') change and the new ones hold for `number_run`
samples; a shorter run (a misread digit, a clock ticking every second) stays in the span it is in.

Sampling. Frames are read at `ocr.fps`; with `scene_threshold` set, frames are also checked at
`scene_fps` and read when the picture changed that much since the last checked one (a cut, a
slide change), so text shown between two base samples is not missed.

Text-presence check. Most sampled frames hold no text, and detection is most of OCR's cost. With
`presence_scale` set (rapidocr), the PP-OCR detector first looks at the frame at that share of its
own input size (0.5: a quarter of the pixels, ~1/4 of the CPU); only frames where some pixel reaches
the detector's own text threshold are read in full. On the fixture clips every frame that yields a
line passes, and ~85% of sampled frames are skipped. The ONNX Runtime sessions run without
spinning threads: idle spinning cost ~1.7x the CPU time of the detector itself beside other roles.
"""

import hashlib
import logging
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Protocol

import numpy as np

from ingest.errors import RoleUnavailable, first_line
from ingest.media.frames import Frame, FrameBatch
from ingest.models.boxes import Box, box_iou
from ingest.models.weights import package_dir
from ingest.roles.extractor import Availability, Extractor, VideoContext
from ingest.settings import OcrSettings
from memory import rows_table
from memory.cache import cache_dir

log = logging.getLogger(__name__)

#: A span survives this many samples in which its line was not read.
MAX_MISSED_SAMPLES = 1


@dataclass(frozen=True)
class OcrLine:
    """One line of text read in one frame."""

    text: str
    confidence: float
    box: Box


@dataclass(frozen=True)
class OcrSpan:
    """One line of text over the time it stays on screen (first and last sampled times)."""

    start_s: float
    end_s: float
    text: str
    confidence: float
    box: Box  # where first seen
    num_frames: int


class _Reader(Protocol):
    def read(self, images: Sequence[np.ndarray]) -> list[list[OcrLine]]:
        """Lines per H x W x 3 uint8 RGB image."""
        ...

    def may_have_text(self, image: np.ndarray, scale: float) -> bool:
        """A cheap check: False only when the image surely holds no text to read."""
        ...


# ------------------------------------------------------------------ deduplication


def normalize_text(text: str) -> str:
    return " ".join(text.casefold().split())


def edit_similarity(a: str, b: str) -> float:
    """1 - Levenshtein distance / length of the longer string (1.0 for two empty strings).

    >>> round(edit_similarity("PLATFORM 9 EXIT", "PLATF0RM 9 EXIT"), 3)
    0.933
    """
    if a == b:
        return 1.0
    if not a or not b:
        return 0.0
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return 1.0 - prev[-1] / max(len(a), len(b))


@dataclass
class _Open:
    start_s: float
    first_box: Box
    last_s: float
    last_box: Box
    last_key: str
    last_sample: int
    seen: list[tuple[float, OcrLine]] = field(default_factory=list)

    def add(self, t_s: float, sample: int, line: OcrLine) -> None:
        self.last_s, self.last_box, self.last_key, self.last_sample = t_s, line.box, normalize_text(line.text), sample
        self.seen.append((t_s, line))

    def close(self, number_run: int = 0) -> list[OcrSpan]:
        return [_span(run) for run in _number_runs(self.seen, number_run)]


def _span(seen: Sequence[tuple[float, OcrLine]]) -> OcrSpan:
    """The span of one run of samples: the reading seen most often, then the most confident, stands for it."""
    variants = Counter(line.text for _, line in seen)
    best: dict[str, float] = {}
    for _, line in seen:
        best[line.text] = max(best.get(line.text, 0.0), line.confidence)
    text = max(variants, key=lambda t: (variants[t], best[t]))
    return OcrSpan(seen[0][0], seen[-1][0], text, max(best.values()), seen[0][1].box, len(seen))


def numbers_read(text: str) -> tuple[str, ...]:
    """The numbers a reading holds as words of their own ('0' of 'Runners finished: 0', '1,086'), not digits
    inside a word (a misread 'PLATF0RM').

    >>> numbers_read("PLATF0RM 9 EXIT 10:15"), numbers_read("Runners finished: 1,086")
    (('9', '10:15'), ('1,086',))
    """
    return tuple(re.findall(r"(?<![^\W\d])\d(?:[\d.,:]*\d)?(?![^\W\d])", text))


def _number_runs(seen: Sequence[tuple[float, OcrLine]], number_run: int) -> list[list[tuple[float, OcrLine]]]:
    """`seen` cut where the numbers read change and the new ones hold for `number_run` samples or more; runs
    shorter than that join the run before them (or, at the start, the one after). One run with `number_run` 0."""
    if number_run <= 0:
        return [list(seen)] if seen else []
    runs: list[tuple[tuple[str, ...], list[tuple[float, OcrLine]]]] = []  # (numbers read, samples)
    for obs in seen:
        numbers = numbers_read(obs[1].text)
        if runs and runs[-1][0] == numbers:
            runs[-1][1].append(obs)
        else:
            runs.append((numbers, [obs]))
    kept: list[tuple[tuple[str, ...], list[tuple[float, OcrLine]]]] = []
    for numbers, run in runs:
        if kept and (len(run) < number_run or len(kept[-1][1]) < number_run or kept[-1][0] == numbers):
            # a short run is part of the one before (a short first run, of the next); so are the same numbers
            # again after a misread between
            kept[-1][1].extend(run)
        else:
            kept.append((numbers, run))
    return [run for _, run in kept]


def merge_spans(
    samples: Iterable[tuple[float, Sequence[OcrLine]]],
    similarity: float = 0.8,
    iou: float = 0.3,
    max_missed: int = MAX_MISSED_SAMPLES,
    number_run: int = 0,
) -> list[OcrSpan]:
    """Merge the lines of time-ordered samples into spans, ordered by start time then position.

    >>> line = OcrLine("EXIT", 0.9, (10, 10, 50, 20))
    >>> merge_spans([(0.0, [line]), (1.0, [line]), (2.0, [])])
    [OcrSpan(start_s=0.0, end_s=1.0, text='EXIT', confidence=0.9, box=(10, 10, 50, 20), num_frames=2)]
    """
    open_spans: list[_Open] = []
    done: list[OcrSpan] = []
    for sample, (t_s, lines) in enumerate(samples):
        still = []
        for span in open_spans:
            if sample - span.last_sample > max_missed + 1:
                done.extend(span.close(number_run))
            else:
                still.append(span)
        open_spans = still
        pairs = []
        for li, line in enumerate(lines):
            key = normalize_text(line.text)
            for si, span in enumerate(open_spans):
                overlap = box_iou(line.box, span.last_box)
                if overlap < iou:
                    continue
                sim = edit_similarity(key, span.last_key)
                if sim >= similarity:
                    pairs.append((sim + overlap, li, si))
        used_lines: set[int] = set()
        used_spans: set[int] = set()
        for _, li, si in sorted(pairs, reverse=True):
            if li in used_lines or si in used_spans:
                continue
            used_lines.add(li)
            used_spans.add(si)
            open_spans[si].add(t_s, sample, lines[li])
        for li, line in enumerate(lines):
            if li not in used_lines:
                span = _Open(t_s, line.box, t_s, line.box, normalize_text(line.text), sample)
                span.add(t_s, sample, line)
                open_spans.append(span)
    done.extend(span for s in open_spans for span in s.close(number_run))
    return sorted(done, key=lambda s: (s.start_s, s.box[1], s.box[0]))


# ------------------------------------------------------------------ engines


@dataclass(frozen=True)
class OcrEngine:
    """Which package reads the text, with which models."""

    name: str  # 'rapidocr' | 'paddleocr'
    det: str | None  # model path; None: the package's own (packaged for rapidocr, downloaded for paddleocr)
    rec: str | None
    source: str  # 'package' | 'settings' | 'download'


def _installed(module: str) -> bool:
    return package_dir(module) is not None


def resolve_engine(cfg: OcrSettings) -> OcrEngine:
    """The engine these settings ask for; raises RoleUnavailable saying why it cannot run."""
    for name in ("det_model", "rec_model"):
        path = getattr(cfg, name)
        if path is not None and not Path(path).expanduser().exists():
            raise RoleUnavailable(f"ocr.{name} {path!r} does not exist")
    given = cfg.det_model is not None or cfg.rec_model is not None
    det = str(Path(cfg.det_model).expanduser().resolve()) if cfg.det_model else None
    rec = str(Path(cfg.rec_model).expanduser().resolve()) if cfg.rec_model else None
    dirs = given and all(p is None or Path(p).is_dir() for p in (det, rec))
    wants_paddle = cfg.engine == "paddleocr" or (cfg.engine == "auto" and dirs and _installed("paddleocr"))
    if wants_paddle:
        if not _installed("paddleocr"):
            raise RoleUnavailable(
                "ocr.engine is 'paddleocr' but paddleocr is not installed (pip install paddleocr; it runs PP-OCR "
                "ONNX models with engine='onnxruntime'), or use engine 'rapidocr'"
            )
        if given and not dirs:
            raise RoleUnavailable(
                "paddleocr needs model directories (inference.onnx + inference.yml) in ocr.det_model/rec_model"
            )
        return OcrEngine("paddleocr", det, rec, "settings" if given else "download")
    if not _installed("rapidocr"):
        raise RoleUnavailable("rapidocr is not installed (pip install rapidocr onnxruntime: it ships PP-OCR models)")
    return OcrEngine("rapidocr", det, rec, "settings" if given else "package")


def _onnx_file(path: str) -> str:
    p = Path(path)
    if p.is_dir():
        p = p / "inference.onnx"
        if not p.is_file():
            raise RoleUnavailable(f"{path}: no inference.onnx in the model directory")
    return str(p)


def _rec_keys(rec: str) -> str | None:
    """A rapidocr key file for a PaddleOCR rec dir whose ONNX lacks the character list."""
    yml = Path(rec) / "inference.yml"
    if not yml.is_file():
        return None
    import yaml

    chars = (yaml.safe_load(yml.read_text()) or {}).get("PostProcess", {}).get("character_dict")
    if not chars:
        return None
    digest = hashlib.sha1(yml.read_bytes()).hexdigest()[:16]
    out = cache_dir("ocr") / f"rec_keys-{digest}.txt"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(chars) + "\n", encoding="utf-8")
    return str(out)


_DET_MIN_SIDE = 576
#: The DB detector's own binarization threshold (rapidocr's Det.thresh): a pixel above it is text.
_DET_TEXT_THRESHOLD = 0.3
_PACKAGED_MODELS = {"det": "PP-OCRv6_det_small.onnx", "rec": "PP-OCRv6_rec_small.onnx"}


def _warm_up_image() -> np.ndarray:
    """A white square with a word on it: enough for detection and recognition to load and run."""
    import cv2

    image = np.full((_DET_MIN_SIDE, _DET_MIN_SIDE, 3), 255, np.uint8)
    cv2.putText(image, "vidmem", (40, 300), cv2.FONT_HERSHEY_SIMPLEX, 3.0, (0, 0, 0), 6)
    return image


def _onnx_cuda(device: str) -> bool:
    if device == "cpu":
        return False
    try:
        import onnxruntime

        return "CUDAExecutionProvider" in onnxruntime.get_available_providers()
    except ImportError:
        return False


class _RapidReader:
    def __init__(self, engine: OcrEngine, cfg: OcrSettings, device: str) -> None:
        from rapidocr import RapidOCR

        params: dict[str, Any] = {
            "Global.log_level": "error",  # it warns on every frame without text
            "Global.text_score": cfg.min_confidence,
            "Global.use_cls": False,  # video text is upright; the 180-degree classifier only adds flips
            "EngineConfig.onnxruntime.use_cuda": _onnx_cuda(device),
            # rapidocr upscales every image to a 736-pixel short side; video frames of 576+ lines are read
            # at their own size instead (upscaling adds no detail; ~25% less detection time on 768x576).
            "Det.limit_side_len": _DET_MIN_SIDE,
        }
        packaged = package_dir("rapidocr")
        paths = {}
        for kind, given in (("det", engine.det), ("rec", engine.rec)):
            if given:
                paths[kind] = _onnx_file(given)
            elif packaged is not None and (packaged / "models" / _PACKAGED_MODELS[kind]).is_file():
                paths[kind] = str(packaged / "models" / _PACKAGED_MODELS[kind])
        params.update({f"{kind.capitalize()}.model_path": path for kind, path in paths.items()})
        if engine.rec:
            keys = _rec_keys(engine.rec) if Path(engine.rec).is_dir() else None
            if keys:
                params["Rec.rec_keys_path"] = keys
        self._ocr = RapidOCR(params=params)
        self._ocr(_warm_up_image())  # rapidocr loads its models on first use: fail here, not mid-video
        if not params["EngineConfig.onnxruntime.use_cuda"]:
            for kind, path in paths.items():
                _quiet_session(getattr(self._ocr, f"text_{kind}").session, path)

    def may_have_text(self, image: np.ndarray, scale: float) -> bool:
        import cv2

        h, w = image.shape[:2]
        grow = _DET_MIN_SIDE / min(h, w) if min(h, w) < _DET_MIN_SIDE else 1.0  # as rapidocr sizes its input
        size = (max(32, round(w * grow * scale / 32) * 32), max(32, round(h * grow * scale / 32) * 32))
        small = cv2.resize(np.ascontiguousarray(image[..., ::-1]), size, interpolation=cv2.INTER_AREA)
        x = ((small.astype(np.float32) / 255.0 - 0.5) / 0.5).transpose(2, 0, 1)[None]  # PP-OCR det input
        detector: Any = self._ocr.text_det  # loaded by the warm-up read in __init__
        text_map = np.asarray(detector.session(np.ascontiguousarray(x)))
        return bool(text_map.max() > _DET_TEXT_THRESHOLD)

    def read(self, images: Sequence[np.ndarray]) -> list[list[OcrLine]]:
        out = []
        for image in images:
            result = self._ocr(np.ascontiguousarray(image[..., ::-1]))  # RapidOCR reads arrays as BGR
            texts = getattr(result, "txts", None) or ()
            scores = getattr(result, "scores", None) or ()
            boxes = getattr(result, "boxes", None)
            lines = []
            for text, score, quad in zip(texts, scores, boxes if boxes is not None else (), strict=True):
                lines.append(OcrLine(str(text), float(score), _quad_box(np.asarray(quad), image.shape)))
            out.append(lines)
        return out


def _quiet_session(wrapper: Any, path: str) -> None:
    """Rebuild a rapidocr ONNX Runtime session on the CPU without spinning idle threads."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.log_severity_level = 4
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    # spinning threads wait for work by burning the cores that decoding and the other roles need
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    wrapper.session = ort.InferenceSession(path, options, providers=["CPUExecutionProvider"])


class _PaddleReader:
    def __init__(self, engine: OcrEngine, cfg: OcrSettings, device: str) -> None:
        import os

        from paddleocr import PaddleOCR

        kwargs: dict[str, Any] = {}
        if engine.det or engine.rec:
            # With model dirs, no model-hoster check at start (it needs the network).
            os.environ.setdefault("PADDLE_PDX_DISABLE_MODEL_SOURCE_CHECK", "True")
            for key, path in (("text_detection", engine.det), ("text_recognition", engine.rec)):
                if path:
                    kwargs[f"{key}_model_dir"] = path
                    kwargs[f"{key}_model_name"] = _paddle_model_name(path)
        self._ocr = PaddleOCR(
            use_doc_orientation_classify=False,
            use_doc_unwarping=False,
            use_textline_orientation=False,
            text_rec_score_thresh=cfg.min_confidence,
            engine="onnxruntime",
            device="gpu" if _onnx_cuda(device) else "cpu",
            **kwargs,
        )

    def read(self, images: Sequence[np.ndarray]) -> list[list[OcrLine]]:
        results = self._ocr.predict([np.ascontiguousarray(img[..., ::-1]) for img in images])
        out = []
        for image, res in zip(images, results, strict=True):
            lines = []
            for text, score, quad in zip(res["rec_texts"], res["rec_scores"], res["rec_polys"], strict=True):
                lines.append(OcrLine(str(text), float(score), _quad_box(np.asarray(quad), image.shape)))
            out.append(lines)
        return out

    def may_have_text(self, image: np.ndarray, scale: float) -> bool:
        return True  # PaddleOCR's pipeline has no detector-only call; every frame is read


def _paddle_model_name(path: str) -> str | None:
    yml = Path(path) / "inference.yml"
    if not yml.is_file():
        return None
    import yaml

    name = ((yaml.safe_load(yml.read_text()) or {}).get("Global") or {}).get("model_name")
    return str(name) if name else None


def _quad_box(quad: np.ndarray, shape: tuple[int, ...]) -> Box:
    """Axis-aligned box around a detected quadrilateral, inside the frame."""
    h, w = shape[:2]
    xs, ys = quad.reshape(-1, 2)[:, 0], quad.reshape(-1, 2)[:, 1]
    return (
        float(np.clip(xs.min(), 0, w)),
        float(np.clip(ys.min(), 0, h)),
        float(np.clip(xs.max(), 0, w)),
        float(np.clip(ys.max(), 0, h)),
    )


# ------------------------------------------------------------------ the role


def _thumb(image: np.ndarray) -> np.ndarray:
    """A small grey version of a frame for change detection."""
    import cv2

    grey = cv2.cvtColor(image, cv2.COLOR_RGB2GRAY)
    return cv2.resize(grey, (64, 48), interpolation=cv2.INTER_AREA).astype(np.float32)


class TextReader(Extractor):
    role: ClassVar[str] = "ocr"
    tables: ClassVar[tuple[str, ...]] = ("ocr", "ocr_spans")

    _reader: _Reader | None = None

    def availability(self) -> Availability:
        try:
            engine = resolve_engine(self.settings.ocr)
        except RoleUnavailable as exc:
            return Availability(False, str(exc))
        if engine.name == "rapidocr" and engine.source == "package":
            detail = f"rapidocr: packaged PP-OCRv6 small det/rec ONNX models in {package_dir('rapidocr')}/models"
            return Availability(True, detail, "package")
        if engine.name == "rapidocr":
            detail = f"rapidocr: det {engine.det or 'packaged'}, rec {engine.rec or 'packaged'}"
            return Availability(True, detail, "settings")
        if engine.source == "download":
            detail = "paddleocr: downloads its default PP-OCR models on first use (needs internet)"
            return Availability(True, detail, "download")
        return Availability(True, f"paddleocr (onnxruntime): det {engine.det}, rec {engine.rec}", "settings")

    def sample_rate(self) -> float | None:
        cfg = self.settings.ocr
        return max(cfg.fps, cfg.scene_fps) if cfg.scene_threshold is not None else cfg.fps

    def _load(self) -> _Reader:
        if self._reader is None:
            engine = resolve_engine(self.settings.ocr)
            log.info("OCR: %s (%s)", engine.name, engine.source)
            cls = _RapidReader if engine.name == "rapidocr" else _PaddleReader
            try:
                self._reader = cls(engine, self.settings.ocr, self.settings.device)
            except Exception as exc:  # onnxruntime and paddlex raise their own types for a bad model file
                raise RoleUnavailable(f"cannot load the {engine.name} OCR models: {first_line(exc)}") from exc
        return self._reader

    def begin(self, ctx: VideoContext) -> None:
        self._load()
        self._rows: list[dict[str, Any]] = []
        self._samples: list[tuple[float, list[OcrLine]]] = []
        self._next_due = -np.inf
        self._last_thumb: np.ndarray | None = None

    def process(self, batch: FrameBatch) -> None:
        cfg = self.settings.ocr
        reader = self._load()
        frames = [f for f in batch.frames if self._wanted(f)]
        if cfg.presence_scale is not None:
            with_text = {f.index for f in frames if reader.may_have_text(f.image, cfg.presence_scale)}
        else:
            with_text = {f.index for f in frames}
        read = [f for f in frames if f.index in with_text]
        found: dict[int, list[OcrLine]] = {}
        for start in range(0, len(read), cfg.batch_size):
            chunk = read[start : start + cfg.batch_size]
            found.update(zip([f.index for f in chunk], reader.read([f.image for f in chunk]), strict=True))
        for frame in frames:
            lines = found.get(frame.index, [])
            self._samples.append((frame.t_s, lines))
            for line in lines:
                x1, y1, x2, y2 = line.box
                self._rows.append(
                    {"frame_index": frame.index, "t_s": frame.t_s, "text": line.text, "confidence": line.confidence,
                     "x1": x1, "y1": y1, "x2": x2, "y2": y2}
                )

    def _wanted(self, frame: Frame) -> bool:
        """Every base-rate frame; with scene detection, also frames that changed since the last check."""
        cfg = self.settings.ocr
        if cfg.scene_threshold is None:
            return True
        thumb = _thumb(frame.image)
        changed = self._last_thumb is not None and float(np.abs(thumb - self._last_thumb).mean()) > cfg.scene_threshold
        self._last_thumb = thumb
        # Half a check interval of slack: sampled frame times are rounded to whole frames.
        due = frame.t_s >= self._next_due - 0.5 / max(cfg.fps, cfg.scene_fps)
        if due or changed:
            self._next_due = frame.t_s + 1.0 / cfg.fps
            return True
        return False

    def end(self, ctx: VideoContext) -> None:
        cfg = self.settings.ocr
        spans = merge_spans(self._samples, cfg.merge_similarity, cfg.merge_iou, number_run=cfg.number_run)
        span_rows = [
            {"span_id": i, "start_s": s.start_s, "end_s": s.end_s, "text": s.text, "confidence": s.confidence,
             "x1": s.box[0], "y1": s.box[1], "x2": s.box[2], "y2": s.box[3], "num_frames": s.num_frames}
            for i, s in enumerate(spans)
        ]
        vid = ctx.info.video_id
        ctx.tables["ocr"] = rows_table("ocr", self._rows, vid)
        ctx.tables["ocr_spans"] = rows_table("ocr_spans", span_rows, vid)
