"""One decode pass per video: the sampling plan and the frame batches it yields.

Each frame-consuming role asks for a rate; the plan is the union of their frame indices, so a
frame wanted by tracking and OCR is decoded once. Decoding runs in a background thread, so the
next batch is being decoded while extractors work on the current one.

On the CPU, PyAV (FFmpeg's own decoder, with its frame and slice threads) decodes the stream in
order and converts to RGB only the planned frames: decord's `get_batch` converted and seeked its
way through the same plan with about 1.4x the CPU time. With a GPU, decord's NVDEC reader is used
when its build has CUDA. A file that ends before its header says (a truncated download whose index
sits at the front) fails with that said in words, not the decoder's internals.
"""

import logging
import queue
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ingest.errors import BadVideoError, first_line
from ingest.media.probe import VideoInfo

log = logging.getLogger(__name__)

#: A stream that stops short of its header by more than this share of its frames, and by more than
#: `_TRUNCATED_MIN_S`, is truncated; a frame or two fewer than the header counts is common (VFR files).
_TRUNCATED_SHARE = 0.1
_TRUNCATED_MIN_S = 1.0


@dataclass(frozen=True)
class Frame:
    index: int  # decoded frame number, 0-based
    t_s: float
    image: np.ndarray  # H x W x 3, uint8, RGB
    roles: frozenset[str]  # roles that sampled this frame


@dataclass(frozen=True)
class FrameBatch:
    frames: tuple[Frame, ...]

    def for_role(self, role: str) -> "FrameBatch":
        return FrameBatch(tuple(f for f in self.frames if role in f.roles))

    def __len__(self) -> int:
        return len(self.frames)


def sample_indices(num_frames: int, fps: float, rate: float) -> list[int]:
    """Frame indices at `rate` samples per second, starting at frame 0.

    >>> sample_indices(num_frames=50, fps=25.0, rate=5.0)[:4]
    [0, 5, 10, 15]
    """
    step = max(fps / rate, 1.0)
    count = int(np.floor((num_frames - 1) / step)) + 1
    return sorted({min(round(i * step), num_frames - 1) for i in range(count)})


def sampling_plan(info: VideoInfo, rates: Mapping[str, float]) -> dict[int, frozenset[str]]:
    """Frame index -> roles wanting it, for every role's sampling rate."""
    wanted: dict[int, set[str]] = {}
    for role, rate in rates.items():
        for idx in sample_indices(info.num_frames, info.fps, rate):
            wanted.setdefault(idx, set()).add(role)
    return {i: frozenset(r) for i, r in sorted(wanted.items())}


def gpu_reader(path: str, device: str) -> object | None:
    """A decord reader on the GPU when asked for (or 'auto') and decord has CUDA; None to decode on the CPU."""
    if device == "cpu":
        return None
    import decord

    gpu = int(device.split(":")[1]) if ":" in device else 0
    try:
        return decord.VideoReader(path, ctx=decord.gpu(gpu))
    except Exception as exc:  # a CPU-only decord build raises DECORDError here
        if device.startswith("cuda"):
            log.warning("decord cannot decode on GPU %d (%s); decoding on the CPU", gpu, first_line(exc))
    return None


def decode(
    info: VideoInfo,
    plan: Mapping[int, frozenset[str]],
    batch_size: int = 16,
    device: str = "cpu",
    prefetch: int = 2,
) -> Iterator[FrameBatch]:
    """Yield the planned frames in batches, decoding ahead in a background thread."""
    if not plan:
        return
    out: queue.Queue[FrameBatch | BaseException | None] = queue.Queue(maxsize=prefetch)
    stop = threading.Event()

    def produce() -> None:
        try:
            for batch in _decode_batches(info, plan, batch_size, device):
                while not stop.is_set():
                    try:
                        out.put(batch, timeout=0.1)
                        break
                    except queue.Full:
                        continue
                if stop.is_set():
                    return
            out.put(None)
        except BaseException as exc:  # handed to the consumer, which re-raises it
            out.put(exc)

    worker = threading.Thread(target=produce, name=f"decode-{info.video_id}", daemon=True)
    worker.start()
    try:
        while True:
            item = out.get()
            if item is None:
                return
            if isinstance(item, BaseException):
                raise item
            yield item
    finally:
        stop.set()
        worker.join(timeout=5)


def _decode_batches(
    info: VideoInfo, plan: Mapping[int, frozenset[str]], batch_size: int, device: str
) -> Iterator[FrameBatch]:
    try:
        reader = gpu_reader(str(info.path), device)
    except Exception:  # decord.DECORDError and friends: the CPU decoder says what is wrong, in words
        reader = None
    if reader is None:
        yield from _cpu_batches(info, plan, batch_size)
    else:
        yield from _gpu_batches(reader, info, plan, batch_size)


def _cpu_batches(info: VideoInfo, plan: Mapping[int, frozenset[str]], batch_size: int) -> Iterator[FrameBatch]:
    """The planned frames, decoded in order by PyAV; only they are converted to RGB."""
    import av

    try:
        container = av.open(str(info.path))
    except av.error.FFmpegError as exc:
        raise BadVideoError(f"{info.path}: cannot decode video ({first_line(exc)})") from exc
    with container:
        if not container.streams.video:
            raise BadVideoError(f"{info.path}: no video stream the decoder can read")
        stream = container.streams.video[0]
        stream.thread_type = "AUTO"  # FFmpeg's frame and slice threads
        start = container.start_time / av.time_base if container.start_time is not None else 0.0
        last = max(plan)
        decoded, t_s = 0, 0.0
        batch: list[Frame] = []
        try:
            for index, frame in enumerate(container.decode(stream)):
                decoded = index + 1
                t_s = round(frame.time - start, 3) if frame.time is not None else round(index / info.fps, 3)
                roles = plan.get(index)
                if roles is not None:
                    batch.append(Frame(index, t_s, frame.to_ndarray(format="rgb24"), roles))
                    if len(batch) == batch_size:
                        yield FrameBatch(tuple(batch))
                        batch = []
                if index >= last:
                    break
        except av.error.FFmpegError as exc:
            raise BadVideoError(
                f"{info.path}: truncated or corrupt video: decoding failed near t={t_s:.1f}s ({first_line(exc)})"
            ) from exc
        if batch:
            yield FrameBatch(tuple(batch))
    if decoded == 0:
        raise BadVideoError(f"{info.path}: zero-length video (the decoder found no frames)")
    if decoded <= last:
        _check_complete(info, decoded, t_s)


def _check_complete(info: VideoInfo, decoded: int, last_t_s: float) -> None:
    """Raise when the stream stopped well short of what its header promises."""
    missing = info.num_frames - decoded
    if missing > _TRUNCATED_SHARE * info.num_frames and info.duration_s - last_t_s > _TRUNCATED_MIN_S:
        raise BadVideoError(
            f"{info.path}: truncated or corrupt video: its frames end at t={last_t_s:.1f}s but its header says "
            f"{info.duration_s:.1f}s ({decoded} of {info.num_frames} frames); re-copy or re-download the file"
        )
    log.info("%s: header says %d frames, decoder has %d", info.path, info.num_frames, decoded)


def _gpu_batches(
    reader: Any, info: VideoInfo, plan: Mapping[int, frozenset[str]], batch_size: int
) -> Iterator[FrameBatch]:
    available = len(reader)
    indices = [i for i in plan if i < available]
    if len(indices) < len(plan):
        log.info("%s: header says %d frames, decoder has %d", info.path, info.num_frames, available)
    if not indices:
        raise BadVideoError(f"{info.path}: zero-length video (the decoder found no frames)")
    timestamps = None
    for start in range(0, len(indices), batch_size):
        chunk = indices[start : start + batch_size]
        try:
            images = reader.get_batch(chunk).asnumpy()
        except Exception as exc:
            raise BadVideoError(
                f"{info.path}: decoding failed near t={chunk[0] / info.fps:.1f}s ({first_line(exc)})"
            ) from exc
        if timestamps is None:
            timestamps = _frame_times(reader, info)
        yield FrameBatch(
            tuple(
                Frame(index=i, t_s=float(timestamps[i]), image=img, roles=plan[i])
                for i, img in zip(chunk, images, strict=True)
            )
        )


def _frame_times(reader: Any, info: VideoInfo) -> np.ndarray:
    """Presentation time of each frame: real timestamps (variable frame rate safe) when available."""
    try:
        stamps = np.asarray(reader.get_frame_timestamp(range(len(reader))))
        # decord gives float32 (16.2 reads 16.200001); whole milliseconds are finer than any frame
        # period and within float32's step up to ~2 h of video
        return np.round(stamps[:, 0].astype(np.float64), 3)
    except Exception:
        return np.arange(len(reader)) / info.fps
