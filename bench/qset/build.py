"""Build the question set's videos: real footage, espeak-ng lines muxed at their start times, signs
burned in with ffmpeg drawtext over their intervals. Cached like the test fixtures (same manifest
and lock, tests/fixtures/make_fixtures.py), in $VIDMEM_QSET or ~/.cache/vidmem/qset.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import tempfile
import wave
from collections.abc import Mapping, Sequence
from dataclasses import asdict
from functools import partial
from pathlib import Path

from bench.qset.spec import VIDEOS, Sign, Video
from memory.cache import cache_dir
from tests.fixtures import make_fixtures as fx

RECIPE_VERSION = 1  # bump to rebuild every video (a spec change rebuilds that video by itself)
SOURCE_FIXTURES = ("vtest", "bikes", "carphone", "bigbuckbunny")


def default_out_dir() -> Path:
    return cache_dir("qset", "VIDMEM_QSET")


@functools.cache
def speech_seconds(sentence: str) -> float:
    """How long espeak-ng takes to say `sentence` (its WAV's length; the WAV has ~no silence around)."""
    with tempfile.TemporaryDirectory(prefix="vidmem-qset-") as work:
        wav = Path(work) / "line.wav"
        fx._speak(sentence, wav)
        with wave.open(str(wav)) as w:
            return w.getnframes() / w.getframerate()


def _source(video: Video, built: Mapping[str, Path]) -> Path:
    src = video.footage.source
    return built[src] if src in SOURCE_FIXTURES else fx.opencv_sample(src)


def _drawtext(sign: Sign, size: int) -> str:
    # Plain capitals/digits/spaces need no filtergraph escaping; keep it that way.
    if not re.fullmatch(r"[A-Z0-9 ]+", sign.text):
        raise ValueError(f"sign text must be capitals, digits and spaces: {sign.text!r}")
    # 'top2' sits under a top sign: its box starts below the top box (12 px border each, 8 px gap).
    y = {"top": "24", "top2": str(24 + size + 32), "bottom": "h-text_h-24"}[sign.place]
    font = fx._require_file(fx.FONT, "fonts-dejavu-core")
    return (
        f"drawtext=fontfile={font}:text='{sign.text}':fontsize={size}:fontcolor=black:box=1:boxcolor=white"
        f":boxborderw=12:x=(w-text_w)/2:y={y}:enable='gte(t,{sign.start_s})*lt(t,{sign.end_s})'"
    )


def _build_video(video: Video, tmp: Path, built: Mapping[str, Path]) -> None:
    foot, dur = video.footage, video.duration_s
    with tempfile.TemporaryDirectory(prefix="vidmem-qset-") as work:
        wavs = []
        for n, line in enumerate(video.lines):
            wav = Path(work) / f"line{n}.wav"
            fx._speak(line.text, wav)
            wavs.append(wav)
        src = _source(video, built)
        scale = f"scale={foot.width}:-2," if foot.width else ""
        size = _font_size(video, src)
        signs = ",".join(_drawtext(s, size) for s in video.signs)
        graph = [f"[0:v]trim=start={foot.start_s}:duration={dur},setpts=PTS-STARTPTS,fps={foot.fps},{scale}{signs}[v]"]
        for n, line in enumerate(video.lines, 1):
            graph.append(f"[{n}:a]aresample={fx.AUDIO_RATE},adelay={round(line.start_s * 1000)}:all=1[a{n}]")
        mix = "".join(f"[a{n}]" for n in range(1, len(wavs) + 1))
        graph.append(f"{mix}amix=inputs={len(wavs)}:normalize=0,apad=whole_dur={dur},atrim=0:{dur}[a]")
        loops = ["-stream_loop", str(foot.loops - 1)] if foot.loops > 1 else []
        inputs = [*loops, "-i", str(src)] + [arg for wav in wavs for arg in ("-i", str(wav))]
        fx._ffmpeg(
            *inputs, "-filter_complex", ";".join(graph), "-map", "[v]", "-map", "[a]",
            *fx._h264_args(foot.fps), *fx._aac_args(), "-t", str(dur), "-map_metadata", "-1", str(tmp),
        )  # fmt: skip


def _font_size(video: Video, src: Path) -> int:
    """About a twelfth of the output height, so a sign reads alike on every footage."""
    info = fx.ffprobe(src)
    if info is None:
        raise RuntimeError(f"ffprobe cannot read {src}")
    stream = next(s for s in info["streams"] if s.get("codec_type") == "video")
    width, height = int(stream["width"]), int(stream["height"])
    if video.footage.width:
        height = round(height * video.footage.width / width)
    return max(24, height // 12)


def _fixture(video: Video) -> fx.Fixture:
    return fx.Fixture(video.name, video.file, RECIPE_VERSION, partial(_build_video, video))


def stamp(video: Video) -> str:
    """The recipe version and a hash of the video's spec and of the sentences it says: editing a spec,
    or a kind's template (spec.KINDS), rebuilds the videos it changes."""
    spec = json.dumps({"spec": asdict(video), "said": [line.text for line in video.lines]}, sort_keys=True)
    return f"{video.name}:{RECIPE_VERSION}:{hashlib.sha256(spec.encode()).hexdigest()[:16]}"


def ensure_videos(
    out_dir: str | os.PathLike[str] | None = None, *, verbose: bool = False, videos: Sequence[Video] = VIDEOS
) -> dict[str, Path]:
    """Build `videos` (default: the generated set's) where missing or outdated; {video name: path}.
    Both sets share the folder and its manifest (bench/qset/heldout.py builds HELDOUT_VIDEOS)."""
    out = Path(out_dir).expanduser() if out_dir is not None else default_out_dir()
    sources = fx.ensure_fixtures(verbose=verbose)
    inputs = {key: sources[key] for key in SOURCE_FIXTURES}
    by_name = {v.name: v for v in videos}
    return fx.build_missing(
        out, [_fixture(v) for v in videos], lambda f: stamp(by_name[f.key]), inputs=inputs, verbose=verbose
    )
