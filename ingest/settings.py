"""Ingest settings: one frozen, typed object per role, validated when a run starts.

Fields that change what is stored feed `settings_hash()`: a video whose content and hash are
already in the memory is not ingested again, and changed settings re-ingest it. Fields that only
change speed (batch sizes, device, threads) carry `metadata={"hash": False}`.
"""

import hashlib
import json
import math
import re
from dataclasses import asdict, dataclass, field, fields, is_dataclass, replace
from pathlib import Path
from typing import Any

from ingest.errors import SettingsError
from ingest.models.weights import looks_like_path

PIPELINE_VERSION = "1"


def _speed_only(default: Any) -> Any:
    return field(default=default, metadata={"hash": False})


def _positive(owner: str, **values: float | None) -> None:
    for name, value in values.items():
        if value is not None and (not math.isfinite(value) or value <= 0):
            raise SettingsError(f"{owner}.{name} must be a finite number > 0, got {value}")


@dataclass(frozen=True)
class AsrSettings:
    enabled: bool = True
    model: str = "base"  # faster-whisper size name, or a directory of CTranslate2 weights
    language: str | None = None  # None: detect
    beam_size: int = 5
    vad: bool = True
    # Whisper retries a window at up to 6 temperatures when its output looks wrong, as on music or
    # noise; capping each try's tokens halves that cost (bigbuckbunny's 5 s of music: 17 s -> 9 s)
    # while staying above dense speech (~7 tokens/s over a 30 s window).
    max_new_tokens: int | None = 200
    compute_type: str = _speed_only("int8")
    # With VAD on, Whisper returns one segment for sentences that pause for seconds between them; a
    # pause this long after a sentence's end (twice this anywhere) starts a new row (roles/asr.py).
    # None keeps Whisper's segments.
    split_pause_s: float | None = 1.0
    # A line with a word Whisper doubts is heard again with the words on screen near it as hints, when OCR runs on
    # the same video (roles/asr.py: screen_hinted): signs name what is said.
    screen_hints: bool = True

    def __post_init__(self) -> None:
        _positive("asr", beam_size=self.beam_size, max_new_tokens=self.max_new_tokens, split_pause_s=self.split_pause_s)


@dataclass(frozen=True)
class TrackingSettings:
    enabled: bool = True
    fps: float = 5.0  # tracking needs a higher rate than captions: boxes must overlap between samples
    model: str = "yolo11n-seg.pt"  # ultralytics weights name or path
    tracker: str = "bytetrack"  # boxmot tracker needing no ReID weights; ReID trackers when reid_weights is set
    reid_weights: str | None = None
    confidence: float = 0.25
    classes: tuple[str, ...] = ()  # empty: every class the model knows
    min_track_detections: int = 3  # shorter tracks are detector flicker, not instances
    image_size: int = 640
    # on the CPU, samples that did not change (or changed only inside tracked objects' boxes) skip the
    # detector, the tracker predicting across them (ingest/media/motion.py); about a third fewer detector
    # calls, the same people (bench.ingest checks the track counts, tests/test_tracking.py the boxes)
    motion_skip: bool = True
    batch_size: int = _speed_only(8)
    # 'auto': ONNX Runtime for detection models on the CPU, else torch; or 'torch' / 'onnx'
    runtime: str = _speed_only("auto")
    # the ONNX detector's arithmetic: 'int8' (ingest/models/quantize.py; about half the CPU, recall checked in
    # bench.ingest) or 'fp32'. Hashed: it changes boxes and scores a little, so stored tracks say which
    precision: str = "int8"

    def __post_init__(self) -> None:
        _positive("tracking", fps=self.fps, image_size=self.image_size, batch_size=self.batch_size)
        if not 0 <= self.confidence <= 1:
            raise SettingsError(f"tracking.confidence must be within 0..1, got {self.confidence}")
        if self.runtime not in ("auto", "torch", "onnx"):
            raise SettingsError(f"tracking.runtime must be auto, torch or onnx, got {self.runtime!r}")
        if self.precision not in ("int8", "fp32"):
            raise SettingsError(f"tracking.precision must be int8 or fp32, got {self.precision!r}")


@dataclass(frozen=True)
class OcrSettings:
    enabled: bool = True
    fps: float = 1.0
    min_confidence: float = 0.5
    engine: str = "auto"  # 'rapidocr' (packaged PP-OCR models) | 'paddleocr' | 'auto': paddleocr when given model dirs
    det_model: str | None = None  # detection model: an .onnx file or a PaddleOCR dir (inference.onnx + inference.yml)
    rec_model: str | None = None  # recognition model, likewise
    merge_similarity: float = 0.8  # normalized edit similarity for one line in consecutive samples to be one span
    merge_iou: float = 0.3  # ... and the overlap (IoU) its boxes need
    # a span's reading whose numbers change and hold for this many samples is a span of its own (a counter, a
    # changed platform); shorter runs (a misread, a ticking clock) stay in the span; 0 never splits
    number_run: int = 3
    scene_threshold: float | None = None  # extra samples on scene changes (mean abs pixel change, 0-255); None: off
    scene_fps: float = 4.0  # how often frames are checked for a scene change when scene_threshold is set
    # text-presence check: the detector first sees the frame at this share of its input size, and only
    # frames where it finds a text pixel are read (rapidocr); None reads every sampled frame in full
    presence_scale: float | None = 0.5
    batch_size: int = _speed_only(4)

    def __post_init__(self) -> None:
        _positive("ocr", fps=self.fps, batch_size=self.batch_size, scene_fps=self.scene_fps)
        if self.number_run < 0:
            raise SettingsError(f"ocr.number_run must be 0 or more, got {self.number_run}")
        if self.presence_scale is not None and not 0 < self.presence_scale <= 1:
            raise SettingsError(f"ocr.presence_scale must be within (0, 1] or None, got {self.presence_scale}")
        if self.engine not in ("auto", "rapidocr", "paddleocr"):
            raise SettingsError(f"ocr.engine must be auto, rapidocr or paddleocr, got {self.engine!r}")
        for name in ("min_confidence", "merge_similarity", "merge_iou"):
            if not 0 <= getattr(self, name) <= 1:
                raise SettingsError(f"ocr.{name} must be within 0..1, got {getattr(self, name)}")


@dataclass(frozen=True)
class ClipSettings:
    enabled: bool = True
    fps: float = 1.0
    model: str = "ViT-B-32"  # open_clip architecture
    pretrained: str | None = "openai"  # open_clip tag, or a checkpoint path
    batch_size: int = _speed_only(8)

    def __post_init__(self) -> None:
        _positive("clip", fps=self.fps, batch_size=self.batch_size)


@dataclass(frozen=True)
class AppearanceSettings:
    enabled: bool = True
    attributes: tuple[str, ...] = ()  # zero-shot attribute prompts; empty: built-in colour/clothing list


@dataclass(frozen=True)
class ActionSettings:
    enabled: bool = True
    labels: tuple[str, ...] = ()  # labels offered to the vision model; empty: built-in list
    window_s: float = 2.0  # the trajectory classifier labels windows this long
    vision_model: str | None = None  # model at an OpenAI-compatible endpoint; None: trajectory classifier only
    base_url: str | None = None  # None: OPENAI_BASE_URL
    timeout_s: float = _speed_only(60.0)  # per vision request
    max_retries: int = _speed_only(2)  # per track, on timeouts, connection errors and 5xx/429 answers

    def __post_init__(self) -> None:
        _positive("actions", window_s=self.window_s, timeout_s=self.timeout_s)
        if self.max_retries < 0:
            raise SettingsError(f"actions.max_retries must be >= 0, got {self.max_retries}")


@dataclass(frozen=True)
class CaptionSettings:
    enabled: bool = True
    fps: float = 0.2
    model: str | None = None  # vision model name at the OpenAI-compatible endpoint; None: role off
    base_url: str | None = None  # None: OPENAI_BASE_URL
    prompt: str = "Describe what is happening in this video frame in one sentence."
    merge_similarity: float = 0.8  # consecutive captions at least this similar merge into one clip caption
    image_size: int = 512  # longest side of the JPEG sent, in pixels
    max_tokens: int = 120
    timeout_s: float = _speed_only(60.0)  # per request
    max_retries: int = _speed_only(2)  # per frame, on timeouts, connection errors and 5xx/429 answers
    concurrency: int = _speed_only(4)  # requests in flight at once

    def __post_init__(self) -> None:
        _positive(
            "captions", fps=self.fps, image_size=self.image_size, max_tokens=self.max_tokens,
            timeout_s=self.timeout_s, concurrency=self.concurrency,
        )
        if self.max_retries < 0:
            raise SettingsError(f"captions.max_retries must be >= 0, got {self.max_retries}")
        if not 0 <= self.merge_similarity <= 1:
            raise SettingsError(f"captions.merge_similarity must be within 0..1, got {self.merge_similarity}")


@dataclass(frozen=True)
class SummarySettings:
    enabled: bool = True
    model: str | None = None  # chat model at the OpenAI-compatible endpoint; None: role off
    base_url: str | None = None  # None: OPENAI_BASE_URL (the agents' endpoint)
    chapter_s: float = 90.0  # chapters aim at this length (a short video is one chapter per ~30 s, at least)
    prompt_chars: int = 5000  # the facts one request shows at most (~1,250 tokens): longer videos take more requests
    max_tokens: int = 600  # per request's answer
    summary_chars: int = 2000  # a summary at most: the overview and its chapters' texts (first sentences if long)
    timeout_s: float = _speed_only(600.0)  # per request: a CPU-served small model writes ~10 tokens/s, and queues
    max_retries: int = _speed_only(1)

    def __post_init__(self) -> None:
        _positive(
            "summaries", chapter_s=self.chapter_s, prompt_chars=self.prompt_chars, max_tokens=self.max_tokens,
            summary_chars=self.summary_chars, timeout_s=self.timeout_s,
        )
        if self.prompt_chars < 1000:
            raise SettingsError(f"summaries.prompt_chars must be at least 1000, got {self.prompt_chars}")


@dataclass(frozen=True)
class TextEmbeddingSettings:
    enabled: bool = True
    model: str = "all-MiniLM-L6-v2"  # sentence-transformers name or path
    batch_size: int = _speed_only(64)

    def __post_init__(self) -> None:
        _positive("text_embeddings", batch_size=self.batch_size)


@dataclass(frozen=True)
class IngestSettings:
    asr: AsrSettings = field(default_factory=AsrSettings)
    tracking: TrackingSettings = field(default_factory=TrackingSettings)
    ocr: OcrSettings = field(default_factory=OcrSettings)
    clip: ClipSettings = field(default_factory=ClipSettings)
    appearance: AppearanceSettings = field(default_factory=AppearanceSettings)
    actions: ActionSettings = field(default_factory=ActionSettings)
    captions: CaptionSettings = field(default_factory=CaptionSettings)
    summaries: SummarySettings = field(default_factory=SummarySettings)
    text_embeddings: TextEmbeddingSettings = field(default_factory=TextEmbeddingSettings)
    device: str = _speed_only("auto")  # 'auto' | 'cpu' | 'cuda'
    decode_batch: int = _speed_only(16)

    def __post_init__(self) -> None:
        if self.device not in ("auto", "cpu", "cuda") and not re.fullmatch(r"cuda:\d+", self.device):
            raise SettingsError(f"device must be auto, cpu, cuda or cuda:N, got {self.device!r}")
        _positive("ingest", decode_batch=self.decode_batch)
        for role in role_settings_names():  # no setting of any role is negative, NaN or infinite
            for f in fields(getattr(self, role)):
                value = getattr(getattr(self, role), f.name)
                number = isinstance(value, int | float) and not isinstance(value, bool)
                if number and (not math.isfinite(value) or value < 0):
                    raise SettingsError(f"{role}.{f.name} must be a finite number >= 0, got {value}")

    def only(self, *roles: str) -> "IngestSettings":
        """These settings with every role not named switched off (e.g. `only("asr")`)."""
        known = role_settings_names()
        unknown = set(roles) - set(known)
        if unknown:
            raise SettingsError(f"unknown roles {sorted(unknown)}; known: {list(known)}")
        changes = {r: _replace(getattr(self, r), enabled=r in roles) for r in known}
        return _replace(self, **changes)

    def missing_weights(self) -> str | None:
        """Why an explicit weights path of an enabled role cannot be used (it does not exist), or
        None. An explicit path is never replaced by another model: check this when a run starts."""
        for (role, name), kind in WEIGHT_PATHS.items():
            value = getattr(getattr(self, role), name)
            if not getattr(self, role).enabled or not value or not looks_like_path(value, kind):
                continue
            if not Path(value).expanduser().exists():
                what = "folder" if (role, name) == ("asr", "model") else "file"
                return (
                    f"{role}.{name}: no such {what} {value}; give existing weights or a model name "
                    "(see vidmem models); an explicit path is never replaced by another model"
                )
        return None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def role_hash(self, role: str) -> str:
        """Hash of what changes one role's stored rows: its own settings (speed-only fields excluded)."""
        return _role_digest(role, getattr(self, role))

    def role_settings(self, role: str) -> dict[str, Any]:
        return asdict(getattr(self, role))

    def settings_hash(self) -> str:
        """Hash of what changes stored rows (speed-only fields and disabled roles excluded)."""
        payload = json.dumps({"pipeline": PIPELINE_VERSION, **_hashed(self)}, sort_keys=True, default=str)
        return hashlib.sha256(payload.encode()).hexdigest()[:16]


def role_settings_names() -> tuple[str, ...]:
    """The roles these settings configure: the fields that are a role's settings (they have `enabled`).
    The role names themselves come from the extractor registry (`ingest.roles.registry.ROLE_NAMES`); a
    test keeps the two in step."""
    return tuple(f.name for f in fields(IngestSettings) if "enabled" in getattr(f.type, "__dataclass_fields__", {}))


def _role_digest(role: str, role_settings: Any) -> str:
    payload = json.dumps({"pipeline": PIPELINE_VERSION, "role": role, **_hashed(role_settings)}, sort_keys=True,
                         default=str)
    return hashlib.sha256(payload.encode()).hexdigest()[:16]


def role_hash_of(role: str, settings_json: str | None) -> str | None:
    """The role hash of settings stored as JSON (rows migrated from schema 1 carry no hash);
    None when they no longer make valid settings for the role."""
    if not settings_json:
        return None
    try:
        stored = json.loads(settings_json)
        cls = type(getattr(IngestSettings(), role))
        names = {f.name for f in fields(cls)}
        own = cls(**{k: tuple(v) if isinstance(v, list) else v for k, v in stored.items() if k in names})
    except (ValueError, TypeError, AttributeError, SettingsError):
        return None
    return _role_digest(role, own)

#: Settings that name weights, and how a path is told from a name the library downloads:
#: 'path' is always a path; 'file' is a path when it has a folder in it (ultralytics, open_clip and
#: boxmot names have none); 'hub' is a path when absolute or starting with ~ or . (hub ids are
#: 'org/name').
WEIGHT_PATHS: dict[tuple[str, str], str] = {
    ("asr", "model"): "hub",
    ("tracking", "model"): "file",
    ("tracking", "reid_weights"): "file",
    ("ocr", "det_model"): "path",
    ("ocr", "rec_model"): "path",
    ("clip", "pretrained"): "file",
    ("text_embeddings", "model"): "hub",
}


def _hashed(obj: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in fields(obj):
        if not f.metadata.get("hash", True):
            continue
        value = getattr(obj, f.name)
        if is_dataclass(value):
            if not getattr(value, "enabled", True):
                out[f.name] = "off"
                continue
            value = _hashed(value)
        out[f.name] = value
    return out


def _replace(obj: Any, **changes: Any) -> Any:
    return replace(obj, **changes)
