"""Tools that look at the video itself through a vision model (`ctx.vision_llm`).

- `query_vision` (MMCTAgent / CAVIAR): a question over a short clip sampled at 1 fps.
- `caption_frames` (VipAct): a caption of given frames, or of a track's best crop, with a stated focus.
- `compare_frames` (VipAct): a comparison of frames at several times, with a stated focus.

Frames are decoded with decord from the video's path in `videos` and sent as small JPEGs. Without
a vision model, or when the file is not on this machine, the tools say so in their observation.
The vision model needs `complete_images(messages, images, ...)` (see `VisionModel`);
`agents.client.OpenAIChat` has it.
"""

import io
import logging
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any, ClassVar, Protocol, runtime_checkable

import numpy as np

import queries
from agents.llm import Completion, Message
from agents.prompts import render
from agents.steps import Evidence, Observation
from agents.tools.base import Tool, ToolContext, ToolInput, takes
from agents.tools.format import fmt_s, parse_span, quote_data

__all__ = ["CaptionFrames", "CompareFrames", "QueryVision", "VisionModel", "read_frames", "sample_times"]

log = logging.getLogger(__name__)

MAX_FRAMES = 8
IMAGE_SIDE = 448  # longest side of an image sent to the model: enough for 'low' detail


@runtime_checkable
class VisionModel(Protocol):
    model: str

    def complete_images(
        self,
        messages: list[Message],
        images: Sequence[bytes],
        *,
        max_tokens: int = 512,
        temperature: float = 0.0,
    ) -> Completion: ...


def vision_unavailable(ctx: ToolContext) -> str | None:
    if ctx.vision_llm is None:
        return "no vision model is configured (set VIDMEM_VISION_MODEL)"
    if not callable(getattr(ctx.vision_llm, "complete_images", None)):
        return f"the vision model {ctx.vision_llm.model!r} cannot take images here"
    return None


def sample_times(start_s: float, end_s: float, *, fps: float = 1.0, max_frames: int = MAX_FRAMES) -> list[float]:
    """Times at `fps` from start to end, thinned evenly to at most `max_frames`.

    >>> sample_times(2.0, 5.0), sample_times(0.0, 100.0, max_frames=3)
    ([2.0, 3.0, 4.0, 5.0], [0.0, 50.0, 100.0])
    """
    n = int(np.floor((end_s - start_s) * fps + 1e-9)) + 1
    times = [start_s + i / fps for i in range(max(n, 1))]
    if len(times) > max_frames:
        idx = np.linspace(0, len(times) - 1, max_frames).round().astype(int)
        times = [times[i] for i in idx]
        times[-1] = min(times[-1], end_s)
    return [round(t, 3) for t in times]


def read_frames(path: str, times_s: Sequence[float]) -> tuple[list[np.ndarray], list[float]]:
    """RGB frames nearest to `times_s` (H x W x 3 uint8) and their actual times."""
    import decord

    reader = decord.VideoReader(path, ctx=decord.cpu(0))
    fps = float(reader.get_avg_fps()) or 25.0
    last = len(reader) - 1
    indices = [min(max(round(t * fps), 0), last) for t in times_s]
    batch = reader.get_batch(indices).asnumpy()
    return [batch[i] for i in range(len(indices))], [i / fps for i in indices]


def to_jpeg(image: np.ndarray, box: Sequence[float] | None = None, *, side: int = IMAGE_SIDE) -> bytes:
    """JPEG bytes of `image` (cropped to `box` x1, y1, x2, y2 with a margin), at most `side` px."""
    from PIL import Image

    img = Image.fromarray(image)
    if box is not None:
        x1, y1, x2, y2 = box
        mx, my = 0.15 * (x2 - x1), 0.15 * (y2 - y1)  # a little context around the object
        img = img.crop((max(0, x1 - mx), max(0, y1 - my), min(img.width, x2 + mx), min(img.height, y2 + my)))
    img.thumbnail((side, side))
    out = io.BytesIO()
    img.save(out, format="JPEG", quality=85)
    return out.getvalue()


def _video(ctx: ToolContext, requested: Any = None) -> tuple[dict[str, Any] | None, str | None]:
    """The video to look at (video_id, path, duration_s), or why there is none."""
    video_id = str(requested) if requested else ctx.video_id
    files = queries.video_files(ctx.memory, video_id)
    if video_id is None and len(files) != 1:
        return None, "the memory holds several videos: put the video_id in the input"
    if not files:
        return None, f"no video {video_id!r} in the memory"
    row = asdict(files[0])
    if not Path(row["path"]).is_file():
        return None, f"the video file {row['path']} is not available on this machine"
    return row, None


_VIDEO_ID = ToolInput("string", "the video, when the memory holds several", required=False)


class _VisionTool(Tool):
    max_tokens: ClassVar[int] = 200

    @classmethod
    def unavailable(cls, ctx: ToolContext) -> str | None:
        return vision_unavailable(ctx)

    def _ask(self, ctx: ToolContext, prompt: str, images: list[bytes]) -> Completion:
        model = ctx.vision_llm
        if not isinstance(model, VisionModel):  # callers check unavailable() first; this is a vidmem bug
            raise TypeError(f"vision model {model!r} has no complete_images")
        system = render("tools:vision_system")
        return model.complete_images(
            [Message("system", system), Message("user", prompt)], images, max_tokens=self.max_tokens, temperature=0.0
        )

    def _observe(self, ctx: ToolContext, prompt: str, video: dict[str, Any], times: list[float],
                 box: Sequence[float] | None = None, note: str = "") -> Observation:  # fmt: skip
        try:
            frames, actual = read_frames(video["path"], times)
        except Exception as exc:  # decord raises its own error types for unreadable files
            return Observation(f"{self.name} could not decode {video['path']}: {str(exc).splitlines()[0][:200]}")
        images = [to_jpeg(f, box) for f in frames]
        order = ", ".join(f"image {i + 1} at {fmt_s(t)}" for i, t in enumerate(actual))
        reply = self._ask(ctx, f"{prompt}\n(Images in time order: {order}.)", images)
        evidence = Evidence(
            tool=self.name,
            times_s=tuple(round(t, 3) for t in actual),
            video_id=video["video_id"],
            note=note or f"{len(images)} frames shown to {getattr(ctx.vision_llm, 'model', 'the vision model')}",
        )
        seen = ", ".join(fmt_s(t) for t in actual)
        # What the vision model saw includes text in the frames: it reaches the planner as data.
        return Observation(quote_data(reply.text.strip(), f"vision model, frames at {seen}"), evidence=(evidence,))


class QueryVision(_VisionTool):
    name = "query_vision"
    description = (
        "Asks a vision model a question about a short clip (frames at 1 per second, at most 8); "
        "or write the question followed by a range like 3-8."
    )
    inputs = takes(
        question=ToolInput("string", "what to ask, e.g. 'what colour is the car?'"),
        start_s=ToolInput("number", "start of the clip in seconds", required=False),
        end_s=ToolInput("number", "end of the clip in seconds", required=False),
        video_id=_VIDEO_ID,
    )

    def forward(
        self,
        ctx: ToolContext,
        question: str,
        start_s: float | None = None,
        end_s: float | None = None,
        video_id: str | None = None,
    ) -> Observation:
        unavailable = self.unavailable(ctx)
        if unavailable:
            return Observation(f"query_vision is unavailable: {unavailable}. Use the memory's tools instead.")
        video, why = _video(ctx, video_id)
        if video is None:
            return Observation(f"query_vision cannot look: {why}.")
        span: tuple[float, float] | None = None
        if start_s is not None or end_s is not None:
            start = start_s if start_s is not None else 0.0
            span = (start, end_s if end_s is not None else start + MAX_FRAMES - 1)
        else:
            span = parse_span(question)
        duration = float(video["duration_s"] or 0.0)
        start, end = span if span else (0.0, duration)
        end = min(end, duration) if duration else end
        if end < start:
            return Observation(
                "", error=f"the range {fmt_s(start)}-{fmt_s(end)} is outside the video (length {fmt_s(duration)})"
            )
        return self._observe(ctx, question, video, sample_times(start, end))


class CaptionFrames(_VisionTool):
    name = "caption_frames"
    description = (
        "A vision model's caption of given frames, or of one tracked object's best view, focused on what you name."
    )
    inputs = takes(
        times_s=ToolInput("numbers", "frame times in seconds, e.g. [2.5]; or give track_id", required=False),
        track_id=ToolInput("integer", "a tracked object's id, e.g. 3", required=False),
        focus=ToolInput("string", "what to describe, e.g. 'what the person holds'", required=False),
        video_id=_VIDEO_ID,
    )

    def forward(
        self,
        ctx: ToolContext,
        times_s: list[float] | None = None,
        track_id: int | None = None,
        focus: str = "the main subject",
        video_id: str | None = None,
    ) -> Observation:
        unavailable = self.unavailable(ctx)
        if unavailable:
            return Observation(f"caption_frames is unavailable: {unavailable}.")
        video, why = _video(ctx, video_id)
        if video is None:
            return Observation(f"caption_frames cannot look: {why}.")
        if track_id is not None:
            return self._track(ctx, video, track_id, focus)
        if times_s is None:
            return Observation("", error='caption_frames needs "times_s" (seconds) or "track_id"')
        times = times_s[:MAX_FRAMES]
        return self._observe(ctx, render("tools:caption_frames", focus=focus), video, times)

    def _track(self, ctx: ToolContext, video: dict[str, Any], track_id: int, focus: str) -> Observation:
        r = queries.track_best_box(ctx.memory, video["video_id"], track_id)
        if r is None:
            return Observation(f"No boxes for track {track_id} in video {video['video_id']}.")
        prompt = render("tools:caption_track", category=r["category"], track_id=track_id, focus=focus)
        box = (r["x1"], r["y1"], r["x2"], r["y2"])
        return self._observe(ctx, prompt, video, [r["t_s"]], box, note=f"best crop of track {track_id}")


class CompareFrames(_VisionTool):
    name = "compare_frames"
    description = "A vision model compares frames at several times, focused on what you name."
    inputs = takes(
        times_s=ToolInput("numbers", "at least two frame times in seconds, e.g. [2, 8]"),
        focus=ToolInput("string", "what to compare, e.g. 'where the people are'", required=False),
        video_id=_VIDEO_ID,
    )

    def forward(
        self, ctx: ToolContext, times_s: list[float], focus: str = "what changes", video_id: str | None = None
    ) -> Observation:
        unavailable = self.unavailable(ctx)
        if unavailable:
            return Observation(f"compare_frames is unavailable: {unavailable}.")
        times = times_s[:MAX_FRAMES]
        if len(times) < 2:
            return Observation("", error="compare_frames needs at least two times")
        video, why = _video(ctx, video_id)
        if video is None:
            return Observation(f"compare_frames cannot look: {why}.")
        return self._observe(ctx, render("tools:compare_frames", focus=focus), video, times)
