"""Speech recognition with faster-whisper -> `transcript`, `transcript_words`.

The words on screen hint the names said: a line with a word Whisper doubts is heard again, alone, with the
words the video shows around its time as hotwords, and the second hearing is kept when Whisper is surer of it
(`screen_hinted`). Signs name what announcements say ("Brindlecombe Dome", "Orchard Lane"), and Whisper's guess
of a name it never heard was another word ("Rindle-Combombe").
"""

import copy
import dataclasses
import importlib.util
import itertools
import logging
import re
from collections import Counter
from collections.abc import Callable
from difflib import SequenceMatcher
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
    uses_if_run: ClassVar[tuple[str, ...]] = ("ocr",)  # the words on screen, as hints (`screen_hinted`)

    _model: Any = None
    _heard: tuple[list[Any], str] | None = None  # the first hearing's segments and language, `prepare` to `end`

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

    def begin(self, ctx: VideoContext) -> None:
        self._heard = None

    # numpy's BLAS computes Whisper's log-mel features, and its sums differ in the last bits with its thread count,
    # which beam search turns into other words: spillway_gazette's "The storyteller reads at two" was "The store
    # retailer" in a worker of -j 2 (one thread each), "storyteller" in a lone ingest (all cores). One thread,
    # whatever the process and the user's settings: the transcript of a video does not depend on how it was
    # ingested. The features take ~0.1 s a minute on one thread.
    def prepare(self, ctx: VideoContext) -> None:
        """The first hearing, while OCR still reads frames."""
        with threadpool_limits(limits=1, user_api="blas"):
            segments, info = self._load().transcribe(ctx.audio, **self._options(vad_filter=self.settings.asr.vad))
            self._heard = (list(segments), info.language)

    def end(self, ctx: VideoContext) -> None:
        if self._heard is None:
            raise RuntimeError("ASR: end before prepare")  # the lifecycle's order (ingest/overlap.py) broken
        segments, language = self._heard
        self._heard = None
        ocr = ctx.tables.get("ocr")
        if self.settings.asr.screen_hints and ocr is not None and ocr.num_rows:
            with threadpool_limits(limits=1, user_api="blas"):
                segments = screen_hinted(segments, list(zip(ocr["t_s"].to_pylist(), ocr["text"].to_pylist(),
                                                            strict=True)),
                                         lambda clip, hints: self._hear_again(ctx.audio, clip, language, hints))
        self._rows(ctx, segments, language)

    def _options(self, **extra: Any) -> dict[str, Any]:
        cfg = self.settings.asr
        return dict(language=cfg.language, beam_size=cfg.beam_size, word_timestamps=True,
                    max_new_tokens=cfg.max_new_tokens,
                    condition_on_previous_text=False,  # avoids repetition loops on long noisy audio
                    **extra)

    def _hear_again(self, audio: Any, clip: tuple[float, float], language: str, hints: str) -> list[Any]:
        """The segments Whisper hears in `clip` (seconds) of `audio` with `hints` as hotwords, timed in the video."""
        a, b = (int(t * SAMPLE_RATE) for t in clip)
        options = self._options(vad_filter=False, hotwords=hints) | {"language": language}
        found, _ = self._load().transcribe(audio[a:b], **options)
        return [_shifted(seg, clip[0]) for seg in found]

    def _rows(self, ctx: VideoContext, segments: list[Any], language: str) -> None:
        cfg = self.settings.asr
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
                        "language": language,
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


#: Whisper's audio: mono, 16 kHz (what `VideoContext.audio` holds).
SAMPLE_RATE = 16000
#: A word Whisper gives less than this probability is doubted: its line is heard again with the screen's words.
DOUBT_P = 0.5
#: The on-screen words of this many seconds either side of a line are its hints: a sign names what is said near it.
HINT_WINDOW_S = 60.0
#: A word is a hint when OCR read it in this many rows: a word read once is as likely OCR noise.
HINT_MIN_ROWS = 2
#: Audio either side of a line heard again, in seconds: Whisper's segment bounds cut the first and last sounds.
CLIP_PAD_S = 0.2
#: A second hearing whose words are mostly hints (this share) echoes its prompt: Whisper writes the hotwords
#: back when it hears little ("The Ulvana Rucksack Telescope Globes" four times over, out17's dome foyer).
ECHO_SHARE = 0.6


def screen_hinted(
    segments: list[Any], ocr_rows: list[tuple[float, str]], hear_again: Callable[[tuple[float, float], str], list[Any]]
) -> list[Any]:
    """`segments` with each that holds a doubted word (`DOUBT_P`) heard again by `hear_again(clip, hints)`, with the
    words on screen near it as hints (`screen_words`), where the second hearing is surer (a higher mean log
    probability) and does not echo its hints (`ECHO_SHARE`).

    Measured against the spoken words of 10 trial videos kept outside the project (out15-17, 2,479 words): the
    names shown on screen that the transcript misses fell from 33 to 21 and the word error rate from 27.1% to
    26.0%; 80 of 185 lines were heard again (`heard_like`), 23 of them kept. Hearing every line with every word on
    screen wrote 31 of the 33 but put the 10-minute video's error rate up 11 points: hundreds of hotwords
    made Whisper drop lines and echo them."""
    out: list[Any] = []
    for seg in segments:
        doubted = any(w.probability < DOUBT_P for w in seg.words or [])
        hints = screen_words(ocr_rows, seg.start - HINT_WINDOW_S, seg.end + HINT_WINDOW_S) if doubted else ""
        if not (hints and heard_like(seg.words or [], hints.split())):
            out.append(seg)
            continue
        again = hear_again((max(0.0, seg.start - CLIP_PAD_S), seg.end + CLIP_PAD_S), hints)
        said = [w.lower() for a in again for w in _WORD.findall(a.text)]
        hinted = {w.lower() for w in hints.split()}
        echo = not said or sum(w in hinted for w in said) > ECHO_SHARE * len(said)
        surer = bool(again) and sum(a.avg_logprob for a in again) / len(again) > seg.avg_logprob
        out.extend(again if surer and not echo else [seg])
    return out


_WORD = re.compile(r"[A-Za-z][A-Za-z']+")
#: How alike (difflib's ratio) a doubted word must be to a hint for its line to be heard again: "navigate" and
#: "Halvergate" 0.67, "Ferent" and "Farrant" 0.62, "rindlecume" and "Brindlecombe" 0.82; "the" and "Halvergate" 0.31.
LIKE_RATIO = 0.6


def heard_like(words: list[Any], hints: list[str]) -> bool:
    """Whether a doubted word (`DOUBT_P`) of a line, alone or run together with the word before or after it
    ("Rindle-Cume"), looks like one of `hints` (`LIKE_RATIO`): a line whose doubts are no hint's misreading is not
    heard again. On the 10 trial videos this halved the lines heard again (155 to 80) and kept 12 of the 14 names."""
    letters = [re.sub(r"[^a-z]", "", w.word.lower()) for w in words]
    hinted = [h.lower() for h in hints if len(h) >= 4]
    for i, word in enumerate(words):
        if word.probability >= DOUBT_P:
            continue
        forms = {letters[i], "".join(letters[max(0, i - 1):i + 1]), "".join(letters[i:i + 2])}
        if any(SequenceMatcher(None, f, h).ratio() >= LIKE_RATIO for f in forms if len(f) >= 3 for h in hinted):
            return True
    return False


def screen_words(ocr_rows: list[tuple[float, str]], start_s: float, end_s: float) -> str:
    """The words OCR read between `start_s` and `end_s` in at least `HINT_MIN_ROWS` rows, three letters or more,
    capitalized as names are ('QUILLMOOR' -> 'Quillmoor'), in the order they first appear.

    >>> screen_words([(1.0, "ORCHARD LANE"), (2.0, "ORCHARD LANE"), (3.0, "x 7"), (90.0, "ORCHARD")], 0, 60)
    'Orchard Lane'
    """
    seen: Counter[str] = Counter()
    out: list[str] = []
    for t, text in ocr_rows:
        if start_s <= t <= end_s:
            for word in _WORD.findall(text):
                if len(word) >= 3:
                    seen[word.lower()] += 1
                    if seen[word.lower()] == HINT_MIN_ROWS:
                        out.append(word.capitalize())
    return " ".join(out)


def _shifted(seg: Any, by: float) -> Any:
    """A segment heard in a clip, timed in the video: `by` seconds later, its words too."""
    words = [dataclasses.replace(w, start=w.start + by, end=w.end + by) for w in seg.words or []]
    return dataclasses.replace(seg, start=seg.start + by, end=seg.end + by, words=words)


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
