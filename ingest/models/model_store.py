"""Each model role's real weights: which ones a role will use here (`chosen`), and fetching them
into vidmem's weight cache (`pull`) on a machine with internet.

Pulled weights land in `ingest.models.weights.weights_dir()`, which every role's resolution looks at
before the library's cache and before any packaged substitute. Offline, a pull fails within a few
seconds with one line saying so: the host is tried with a short TCP connect before any library
download (which would otherwise retry for a minute or more).
"""

import logging
from dataclasses import dataclass
from urllib.parse import urlparse

from ingest.errors import IngestError, RoleUnavailable
from ingest.models.weights import CONNECT_TIMEOUT_S, ULTRALYTICS_ASSETS, hf_cache_dir, looks_like_path, reachable
from ingest.settings import IngestSettings

log = logging.getLogger(__name__)

#: Roles whose real weights a pull fetches, in the order `vidmem models pull` does them.
PULLABLE = ("tracking", "clip", "asr")
_GITHUB = ULTRALYTICS_ASSETS
_HF_HUB = "https://huggingface.co"


class PullError(IngestError):
    """A role's weights could not be fetched (offline, unknown model, a path in settings)."""


@dataclass(frozen=True)
class ChosenWeights:
    """What a role will load here. `status`: 'real' (the model settings name, on disk), 'substitute'
    (a packaged stand-in), or 'not here' (downloaded by name on first use)."""

    role: str
    model: str  # the model settings name
    location: str
    source: str  # 'settings' | 'cache' | 'package' | 'download'
    status: str


def chosen(role: str, settings: IngestSettings) -> ChosenWeights:
    """The weights `role` resolves to with `settings`. Raises RoleUnavailable (a path that is not
    there, an unknown CLIP tag) and KeyError for a role without pullable weights."""
    if role == "tracking":
        from ingest.models.detector_weights import resolve_detector

        model = settings.tracking.model
        det = resolve_detector(model)
        status = "substitute" if det.substitute else _status(det.source)
        return ChosenWeights(role, model, det.location, det.source, status)
    if role == "clip":
        from ingest.models.encoders import resolve_clip

        clip = resolve_clip(settings.clip)
        return ChosenWeights(role, clip.label, clip.location, clip.source, _status(clip.source))
    if role == "asr":
        from ingest.models.whisper_weights import resolve_whisper

        model = settings.asr.model
        whisper = resolve_whisper(model)
        return ChosenWeights(role, model, whisper.location, whisper.source, _status(whisper.source))
    raise KeyError(role)


def _status(source: str) -> str:
    return "not here" if source == "download" else "real"


def pull(role: str, settings: IngestSettings, timeout_s: float = CONNECT_TIMEOUT_S) -> ChosenWeights:
    """Fetch `role`'s real weights into vidmem's cache (with the library's progress bar) unless they
    are already on disk; the weights the role then uses. Raises PullError."""
    if role not in PULLABLE:
        raise PullError(f"{role}: no weights to pull (roles with weights: {', '.join(PULLABLE)})")
    try:
        before = chosen(role, settings)
    except RoleUnavailable as exc:
        raise PullError(f"{role}: {exc}") from exc
    if before.status == "real":
        return before
    if role == "tracking":
        _pull_detector(settings.tracking.model, timeout_s)
    elif role == "clip":
        _pull_clip(settings, timeout_s)
    else:
        _pull_whisper(settings.asr.model, timeout_s)
    after = chosen(role, settings)
    if after.status != "real":
        raise PullError(f"{role}: the download of {before.model} finished but left no weights where vidmem looks")
    return after


def _need(url: str, role: str, what: str, timeout_s: float) -> None:
    if not reachable(url, timeout_s):
        raise PullError(
            f"{role}: cannot fetch {what}: {urlparse(url).hostname} does not answer within {timeout_s:g} s "
            "(offline?); run 'vidmem models pull' on a machine with internet, or set a weights path in settings"
        )


def _pull_detector(model: str, timeout_s: float) -> None:
    from ultralytics.utils.downloads import GITHUB_ASSETS_NAMES, attempt_download_asset

    from ingest.models.detector_weights import ultralytics_cache

    if looks_like_path(model):  # resolution already failed on a missing path; a name is what can be pulled
        raise PullError(f"tracking: tracking.model {model!r} is a path, not a model name to download")
    if model not in GITHUB_ASSETS_NAMES:
        raise PullError(f"tracking: {model!r} is not an ultralytics model name (e.g. yolo11n-seg.pt, yolo11s.pt)")
    _need(_GITHUB, "tracking", model, timeout_s)
    target = ultralytics_cache() / model
    target.parent.mkdir(parents=True, exist_ok=True)
    log.info("tracking: downloading %s to %s", model, target)
    attempt_download_asset(target)
    if not target.is_file():  # ultralytics logs a failed download instead of raising
        raise PullError(f"tracking: the download of {model} failed (see the lines above)")


def _pull_clip(settings: IngestSettings, timeout_s: float) -> None:
    import open_clip

    arch, tag = settings.clip.model, str(settings.clip.pretrained)
    cfg = open_clip.get_pretrained_cfg(arch, tag)
    if not cfg.get("hf_hub"):
        raise PullError(f"clip: {arch}/{tag} is not on the Hugging Face hub; give clip.pretrained a checkpoint file")
    _need(_HF_HUB, "clip", f"{arch}/{tag}", timeout_s)
    try:
        open_clip.download_pretrained(cfg, cache_dir=str(hf_cache_dir()))
    except Exception as exc:  # hub errors are many types; the line says which
        raise PullError(f"clip: the download of {arch}/{tag} failed: {type(exc).__name__}: {exc}") from exc


def _pull_whisper(model: str, timeout_s: float) -> None:
    from faster_whisper.utils import download_model

    _need(_HF_HUB, "asr", f"faster-whisper {model!r}", timeout_s)
    try:
        download_model(model, cache_dir=str(hf_cache_dir()))
    except Exception as exc:  # an unknown size name is a ValueError, hub errors are many types
        raise PullError(f"asr: the download of faster-whisper {model!r} failed: {type(exc).__name__}: {exc}") from exc
