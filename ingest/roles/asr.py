"""Speech recognition with faster-whisper -> `transcript`, `transcript_words`."""

import logging
from pathlib import Path
from typing import Any, ClassVar

from ingest.errors import RoleUnavailable
from ingest.models.whisper_weights import resolve_whisper
from ingest.roles.extractor import Availability, Extractor, VideoContext
from memory import rows_table

log = logging.getLogger(__name__)


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


def _clip(t: float, duration: float) -> float:
    """Whisper can run a few ms past the end; keep times inside the video."""
    return float(min(max(t, 0.0), duration))
