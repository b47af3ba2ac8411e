"""Audio for speech recognition: decoded by FFmpeg to 16 kHz mono float32."""

import ffmpeg
import numpy as np

from ingest.errors import BadVideoError
from ingest.media.probe import VideoInfo

SAMPLE_RATE = 16_000


def load_audio(info: VideoInfo) -> np.ndarray:
    """The first audio stream as float32 samples in [-1, 1] at 16 kHz, mono."""
    try:
        raw, _ = (
            ffmpeg.input(str(info.path))
            .output("pipe:", format="f32le", acodec="pcm_f32le", ac=1, ar=SAMPLE_RATE, map="0:a:0")
            .global_args("-nostdin", "-hide_banner", "-loglevel", "error")
            .run(capture_stdout=True, capture_stderr=True)
        )
    except ffmpeg.Error as exc:
        reason = (exc.stderr or b"").decode(errors="replace").strip().splitlines()
        raise BadVideoError(f"{info.path}: cannot decode audio ({reason[-1] if reason else 'ffmpeg failed'})") from exc
    return np.frombuffer(raw, dtype=np.float32)
