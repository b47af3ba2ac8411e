"""Checking a file before anything is decoded: does it exist, is it a video, what is in it.

Each bad input gets one sentence a person understands; nothing here touches the memory.
"""

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import ffmpeg

from ingest.errors import BadVideoError

_HASH_CHUNK = 1 << 20


@dataclass(frozen=True)
class VideoInfo:
    """What ffprobe says about a readable video file. Times in seconds."""

    path: Path
    video_id: str
    content_hash: str
    size_bytes: int
    duration_s: float
    fps: float
    num_frames: int
    width: int
    height: int
    video_codec: str
    has_audio: bool
    audio_codec: str | None


def content_hash(path: Path) -> str:
    """SHA-256 of the file's bytes (identity of a video, whatever its name)."""
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        while chunk := fh.read(_HASH_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def video_id_for(content_sha256: str) -> str:
    return "v" + content_sha256[:16]


def path_id(path: Path) -> str:
    """Id for a file whose content cannot be read (so its failure can still be recorded)."""
    return "p" + hashlib.sha256(str(path).encode()).hexdigest()[:16]


def check_readable(path: Path) -> None:
    if not path.exists():
        raise BadVideoError(f"{path}: file not found")
    if not path.is_file():
        raise BadVideoError(f"{path}: not a regular file")
    if not os.access(path, os.R_OK):
        raise BadVideoError(f"{path}: permission denied (cannot read the file)")
    if path.stat().st_size == 0:
        raise BadVideoError(f"{path}: empty file (0 bytes)")


def probe(path: Path) -> VideoInfo:
    """Probe `path` with ffprobe; BadVideoError with the reason when it is not a usable video."""
    path = path.expanduser().resolve()
    check_readable(path)
    try:
        sha = content_hash(path)
    except PermissionError as exc:
        raise BadVideoError(f"{path}: permission denied (cannot read the file)") from exc
    try:
        meta = ffmpeg.probe(str(path))
    except ffmpeg.Error as exc:
        raise BadVideoError(f"{path}: not a readable video ({_ffprobe_reason(exc)})") from exc
    except FileNotFoundError as exc:  # the ffprobe binary itself
        raise BadVideoError("ffprobe not found: install FFmpeg (apt-get install ffmpeg)") from exc
    video = next((s for s in meta.get("streams", []) if s.get("codec_type") == "video"), None)
    if video is None:
        raise BadVideoError(f"{path}: no video stream (ffprobe found only {_stream_kinds(meta)})")
    audio = next((s for s in meta.get("streams", []) if s.get("codec_type") == "audio"), None)
    fps = _rate(video.get("avg_frame_rate")) or _rate(video.get("r_frame_rate"))
    duration = _float(meta.get("format", {}).get("duration")) or _float(video.get("duration"))
    if not fps or not duration:
        raise BadVideoError(f"{path}: truncated or corrupt video (no frame rate or duration in its header)")
    frames = int(video.get("nb_frames") or round(duration * fps))
    if frames <= 0:
        raise BadVideoError(f"{path}: zero-length video (no frames)")
    return VideoInfo(
        path=path,
        video_id=video_id_for(sha),
        content_hash=sha,
        size_bytes=path.stat().st_size,
        duration_s=duration,
        fps=fps,
        num_frames=frames,
        width=int(video.get("width", 0)),
        height=int(video.get("height", 0)),
        video_codec=str(video.get("codec_name", "unknown")),
        has_audio=audio is not None,
        audio_codec=str(audio.get("codec_name")) if audio else None,
    )


def _ffprobe_reason(exc: ffmpeg.Error) -> str:
    lines = [ln.strip() for ln in (exc.stderr or b"").decode(errors="replace").splitlines() if ln.strip()]
    last = lines[-1] if lines else "ffprobe failed"
    if "moov atom not found" in " ".join(lines):
        return "truncated or corrupt: moov atom not found"
    return last.split(": ", 1)[-1] if ": " in last else last


def _stream_kinds(meta: dict[str, Any]) -> str:
    kinds = [str(s.get("codec_type")) for s in meta.get("streams", [])]
    return ", ".join(kinds) + " streams" if kinds else "no streams"


def _rate(text: str | None) -> float | None:
    if not text or text in ("0/0", "0"):
        return None
    num, _, den = text.partition("/")
    try:
        value = float(num) / float(den or 1)
    except (ValueError, ZeroDivisionError):
        return None
    return value or None


def _float(text: str | None) -> float | None:
    try:
        return float(text) if text is not None else None
    except ValueError:
        return None
