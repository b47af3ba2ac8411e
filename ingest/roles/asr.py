"""Speech recognition with faster-whisper -> `transcript`, `transcript_words`."""

import copy
import importlib.util
import itertools
import logging
from pathlib import Path
from typing import Any, ClassVar

from threadpoolctl import threadpool_limits

from ingest.errors import RoleUnavailable, first_line
from ingest.models.whisper_weights import resolve_whisper
from ingest.roles.extractor import Availability, Extractor, VideoContext
from memory import rows_table

log = logging.getLogger(__name__)


class SpeechRecognizer(Extractor):
    role: ClassVar[str] = "asr"
    tables: ClassVar[tuple[str, ...]] = ("transcript", "transcript_words")

    _model: Any = None

    def availability(self) -> Availability:
        if importlib.util.find_spec("faster_whisper") is None:  # else a missing library read as "downloads"
            return Availability(False, "faster-whisper is not installed: pip install faster-whisper")
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
            if device != "cpu":
                _load_cublas12()
                log.info("ASR: loading %s (%s) on %s/float16", weights.location, weights.source, device)
                try:
                    model = WhisperModel(weights.location, device=device, compute_type="float16")
                    _first_encode(model)
                    self._model = model
                    return model
                except RuntimeError as exc:  # CTranslate2's CUDA libraries; the CPU still works
                    log.warning(GPU_FALLBACK, first_line(exc), _ct2_version())
            compute = self.settings.asr.compute_type
            log.info("ASR: loading %s (%s) on cpu/%s", weights.location, weights.source, compute)
            self._model = WhisperModel(weights.location, device="cpu", compute_type=compute)
        return self._model

    def end(self, ctx: VideoContext) -> None:
        # numpy's BLAS computes Whisper's log-mel features, and its sums differ in the last bits with its
        # thread count, which beam search turns into other words: spillway_gazette's "The storyteller reads
        # at two" was "The store retailer" in a worker of -j 2 (one thread each), "storyteller" in a lone
        # ingest (all cores). One thread, whatever the process and the user's settings: the transcript of a
        # video does not depend on how it was ingested. The features take ~0.1 s a minute on one thread.
        with threadpool_limits(limits=1, user_api="blas"):
            self._transcribe(ctx)

    def _transcribe(self, ctx: VideoContext) -> None:
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
        seg_rows: list[dict[str, Any]] = []
        word_rows: list[dict[str, Any]] = []
        duration = ctx.info.duration_s
        for seg in segments:
            parts = utterances(seg, cfg.split_pause_s)
            # a segment as Whisper gave it keeps its bounds; the parts of a split one, or one whose first
            # word was moved to its sentence (utterances), are bounded by their words
            whole = len(parts) == 1 and parts[0][1][:1] == list(seg.words or [])[:1]
            for text, words in parts:
                seg_id = len(seg_rows)
                start = seg.start if whole else words[0].start
                end = seg.end if whole else words[-1].end
                seg_rows.append(
                    {
                        "segment_id": seg_id,
                        "start_s": _clip(start, duration),
                        "end_s": _clip(end, duration),
                        "text": text,
                        "language": info.language,
                        "avg_logprob": float(seg.avg_logprob),
                        "no_speech_prob": float(seg.no_speech_prob),
                        "model": f"faster-whisper/{Path(cfg.model).name}",
                    }
                )
                for w_idx, word in enumerate(words):
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


def utterances(seg: Any, pause_s: float | None = 1.0) -> list[tuple[str, list[Any]]]:
    """A Whisper segment as the utterances it holds: (text, words) each, split at its pauses.

    With its VAD on, Whisper hands back one segment for speech that pauses for seconds between
    sentences (a 22 s segment of three announcements, 6 s of silence between them), so the row said
    speech went on through the silence and a join in time with the on-screen text matched every sign
    of those 22 s. The word timings show the pauses: a pause of `pause_s` after a word that ends a
    sentence, or of twice that anywhere, starts a new utterance. A segment without word timings, or
    without such a pause, stays whole (so does every one when `pause_s` is None); empty text is
    dropped. A lone first word cut off by the first pause joins the words after it."""
    words = list(seg.words or [])
    whole = [(seg.text.strip(), words)] if seg.text.strip() else []  # the segment as Whisper gave it
    if pause_s is None or not words:
        return whole
    runs: list[list[Any]] = [words[:1]]
    for prev, word in itertools.pairwise(words):
        gap = word.start - prev.end
        if gap >= 2 * pause_s or (gap >= pause_s and prev.word.strip()[-1:] in (".", "?", "!")):
            runs.append([])
        runs[-1].append(word)
    if len(runs) == 1:
        return whole
    first = runs[0][0]
    if len(runs[0]) == 1 and first.word.strip()[-1:] not in (".", "?", "!", ","):
        # Whisper times a segment's first word from the end of the segment before ("A" 133.7-134.8 s,
        # then "ticket to Athens" at 158 s): alone before the pause it would be a row of its own and
        # claim speech through the silence. It goes with the words it was said with, at their time.
        moved = copy.copy(first)
        moved.start = moved.end = runs[1][0].start
        runs = [[moved, *runs[1]], *runs[2:]]
    split = [("".join(w.word for w in run).strip(), run) for run in runs]
    return [(text, run) for text, run in split if text]


# CTranslate2 loads cuBLAS at a model's first encode, not at load: its CUDA 12 build on a machine with
# only CUDA 13's libraries (what the pinned torch brings) fails there, mid-video.
GPU_FALLBACK = (
    "ASR: CTranslate2 cannot run Whisper on the GPU (%s); running it on the CPU. CTranslate2 %s is built "
    "for CUDA 12: pip install nvidia-cublas-cu12 to run it on the GPU (vidmem loads its libcublas.so.12)"
)


def _load_cublas12() -> None:
    """Load the libcublas.so.12 of pip's nvidia-cublas-cu12, when installed, before CTranslate2 wants it.

    CTranslate2's CUDA 12 build dlopens "libcublas.so.12" by name at its first encode, and the dynamic
    loader looks for it on LD_LIBRARY_PATH (read when the process starts), the system's library folders
    and nowhere in site-packages, so the pip-installed copy was never found. Loaded here by its path, it is
    in the process under that soname, and CTranslate2's dlopen gets it. A no-op without the package; a
    copy that does not load is left to CTranslate2's own error, and the fallback to the CPU."""
    import ctypes

    spec = importlib.util.find_spec("nvidia")
    for root in (spec.submodule_search_locations or []) if spec else []:
        lib = Path(root) / "cublas" / "lib"
        if (lib / "libcublas.so.12").is_file():
            for name in ("libcublasLt.so.12", "libcublas.so.12"):  # Lt first: libcublas needs it
                if (lib / name).is_file():
                    try:
                        ctypes.CDLL(str(lib / name), mode=ctypes.RTLD_GLOBAL)
                    except OSError as exc:
                        log.debug("ASR: cannot load %s: %s", lib / name, exc)
            return


def _first_encode(model: Any) -> None:
    """Encode one second of silence, so that a GPU that cannot run the model says so at load."""
    import numpy as np
    from faster_whisper.audio import pad_or_trim

    model.encode(pad_or_trim(model.feature_extractor(np.zeros(16000, dtype=np.float32))))


def _ct2_version() -> str:
    import ctranslate2

    return str(ctranslate2.__version__)


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
