"""What each track is doing over time -> `actions`.

Always, with no model: a motion classifier over each track's trajectory (`detections`). A track
is cut into windows of `actions.window_s`; in each, the speed of the box centre is fitted by least
squares and divided by the box height, which makes it roughly independent of distance to the
camera (a walking adult covers about 0.8 body heights per second, a runner 2 or more):

| label      | when                                                            |
|------------|-----------------------------------------------------------------|
| `standing` | speed < 0.25 heights/s (also sitting or waiting: it did not move) |
| `walking`  | 0.25-1.6 heights/s                                              |
| `running`  | > 1.6 heights/s                                                 |
| `entering` | the track starts at the frame edge after the video's start, moving inwards |
| `leaving`  | the track ends at the frame edge before the video's end, moving outwards |

Consecutive windows with the same label merge into one row. `score` is how clearly the speed
falls in its band: 0.5 at a boundary, towards 1 far from it (distance in log-speed); for
entering/leaving, 0.9 when the motion points in or out of the frame, else 0.6.
`model` is 'trajectory-speed'.

With a vision model at an OpenAI-compatible endpoint (`actions.vision_model`), each track's crops
also go to it once, and its answer (one of the labels) is stored for the track's whole life with
model = that model's name and a NULL score (the endpoint gives no probability). Requests go
through the shared `ingest.models.vision_client` (bounded by `actions.timeout_s` and `actions.max_retries`);
a track whose request fails keeps its trajectory labels, and a refused model stops the asking.
"""

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from ingest.models.crops import TrackCrop
from ingest.models.vision_client import VisionClient, VisionError, VisionRefused, endpoint, jpeg_data_url
from ingest.roles.extractor import Availability, Extractor, VideoContext
from ingest.settings import ActionSettings
from memory import rows_table

log = logging.getLogger(__name__)

TRAJECTORY_MODEL = "trajectory-speed"
STANDING_MAX = 0.25  # body heights per second
WALKING_MAX = 1.6
_EDGE_FRACTION = 0.02  # a box within 2% of the frame size of a side touches that edge
_SCORE_SPREAD = 0.7  # log-speed distance at which a score reaches ~0.88
_MIN_WINDOW_SAMPLES = 2

#: Labels offered to a vision model when `actions.labels` is empty.
DEFAULT_LABELS = (
    "standing",
    "walking",
    "running",
    "sitting",
    "riding a bicycle",
    "talking on a phone",
    "carrying something",
    "talking with someone",
    "falling",
)


@dataclass(frozen=True)
class Interval:
    start_s: float
    end_s: float
    label: str
    score: float


def speed_label(speed: float) -> tuple[str, float]:
    """Label and score for a speed in body heights per second.

    >>> speed_label(0.0), speed_label(0.8)[0], speed_label(3.0)[0]
    (('standing', 1.0), 'walking', 'running')
    """
    if speed < STANDING_MAX:
        label, distance = "standing", np.log(STANDING_MAX / max(speed, 1e-6))
    elif speed < WALKING_MAX:
        distance = min(np.log(speed / STANDING_MAX), np.log(WALKING_MAX / speed))
        label = "walking"
    else:
        label, distance = "running", np.log(speed / WALKING_MAX)
    return label, round(float(0.5 + 0.5 * np.tanh(distance / _SCORE_SPREAD)), 3)


def window_speed(t_s: np.ndarray, centres: np.ndarray, heights: np.ndarray) -> float:
    """Least-squares speed of the centre over a window, in box heights per second."""
    if len(t_s) < _MIN_WINDOW_SAMPLES or float(t_s[-1] - t_s[0]) <= 0:
        return float("nan")
    t = t_s - t_s.mean()
    velocity = (t @ (centres - centres.mean(axis=0))) / (t @ t)  # px/s along x and y
    return float(np.hypot(*velocity) / max(float(np.median(heights)), 1.0))


def merge_intervals(intervals: Sequence[Interval], max_gap_s: float = 1e-6) -> list[Interval]:
    """Consecutive intervals with the same label (and at most `max_gap_s` apart) become one;
    its score is the duration-weighted mean.

    >>> walk, run = "walking", "running"
    >>> merge_intervals([Interval(0, 2, walk, 0.8), Interval(2, 4, walk, 0.6), Interval(4, 5, run, 0.7)])
    [Interval(start_s=0, end_s=4, label='walking', score=0.7), Interval(start_s=4, end_s=5, label='running', score=0.7)]
    """
    out: list[Interval] = []
    for iv in sorted(intervals, key=lambda i: i.start_s):
        last = out[-1] if out else None
        if last is not None and last.label == iv.label and iv.start_s - last.end_s <= max_gap_s:
            span_a, span_b = max(last.end_s - last.start_s, 1e-9), max(iv.end_s - iv.start_s, 1e-9)
            score = round((last.score * span_a + iv.score * span_b) / (span_a + span_b), 3)
            out[-1] = Interval(last.start_s, max(last.end_s, iv.end_s), last.label, score)
        else:
            out.append(iv)
    return out


def motion_intervals(t_s: np.ndarray, boxes: np.ndarray, window_s: float) -> list[Interval]:
    """standing / walking / running over windows of `window_s`, merged. `boxes` is N x 4 (x1 y1 x2 y2)."""
    order = np.argsort(t_s)
    t_s, boxes = np.asarray(t_s, float)[order], np.asarray(boxes, float)[order]
    centres = np.column_stack([(boxes[:, 0] + boxes[:, 2]) / 2, (boxes[:, 1] + boxes[:, 3]) / 2])
    heights = boxes[:, 3] - boxes[:, 1]
    if len(t_s) < _MIN_WINDOW_SAMPLES:
        return []
    out = []
    edges = np.arange(t_s[0], t_s[-1], window_s)
    for i, start in enumerate(edges):
        end = min(start + window_s, t_s[-1])
        last = i == len(edges) - 1
        # a window shares its end sample with the next one, so speeds cover the gaps between samples
        sel = (t_s >= start) & (t_s <= end)
        if last:
            sel = t_s >= start
        if sel.sum() < _MIN_WINDOW_SAMPLES and i > 0:  # a short tail joins the previous window
            sel = t_s >= edges[i - 1]
        speed = window_speed(t_s[sel], centres[sel], heights[sel])
        if np.isnan(speed):
            continue
        label, score = speed_label(speed)
        out.append(Interval(float(start), float(t_s[-1] if last else end), label, score))
    return merge_intervals(out)


def edge_intervals(
    t_s: np.ndarray,
    boxes: np.ndarray,
    frame_size: tuple[int, int],
    video_span: tuple[float, float],
    window_s: float,
) -> list[Interval]:
    """'entering' at the start and 'leaving' at the end of a track that touches the frame edge there."""
    order = np.argsort(t_s)
    t_s, boxes = np.asarray(t_s, float)[order], np.asarray(boxes, float)[order]
    width, height = frame_size
    out = []
    for at_start in (True, False):
        idx = 0 if at_start else len(t_s) - 1
        if (at_start and t_s[idx] <= video_span[0]) or (not at_start and t_s[idx] >= video_span[1]):
            continue  # seen from the first (or to the last) sample: it was there, not coming or going
        box = boxes[idx]
        touching = _touching(box, width, height)
        if not touching.any():
            continue
        near = np.abs(t_s - t_s[idx]) <= window_s
        moving = boxes[near][-1] - boxes[near][0]
        centre_motion = np.array([(moving[0] + moving[2]) / 2, (moving[1] + moving[3]) / 2])
        # outward directions of the touched edges: left -x, top -y, right +x, bottom +y
        outward = np.array([[-1, 0], [0, -1], [1, 0], [0, 1]], float)[touching].sum(axis=0)
        along = float(centre_motion @ outward)
        pointing = along < 0 if at_start else along > 0
        score = 0.9 if pointing else 0.6
        t0 = float(t_s[idx])
        if at_start:
            out.append(Interval(t0, min(t0 + window_s, float(t_s[-1])), "entering", score))
        else:
            out.append(Interval(max(t0 - window_s, float(t_s[0])), t0, "leaving", score))
    return out


def _touching(box: np.ndarray, width: int, height: int) -> np.ndarray:
    mx, my = _EDGE_FRACTION * width, _EDGE_FRACTION * height
    return np.array([box[0] <= mx, box[1] <= my, box[2] >= width - mx, box[3] >= height - my])


class ActionRecognizer(Extractor):
    role: ClassVar[str] = "actions"
    tables: ClassVar[tuple[str, ...]] = ("actions",)
    after: ClassVar[tuple[str, ...]] = ("tracking",)

    def availability(self) -> Availability:
        cfg = self.settings.actions
        if cfg.vision_model:
            where = endpoint(cfg.base_url) or "the OpenAI API"
            return Availability(
                True, f"trajectory speed classifier, plus vision model {cfg.vision_model} at {where}", "endpoint"
            )
        return Availability(
            True, "trajectory speed classifier (standing/walking/running/entering/leaving; no weights needed)", ""
        )

    def end(self, ctx: VideoContext) -> None:
        cfg = self.settings.actions
        dets = ctx.tables.get("detections")
        rows: list[dict[str, Any]] = []
        if dets is not None and dets.num_rows:
            table = dets.select(["track_id", "t_s", "x1", "y1", "x2", "y2"]).to_pandas()
            span = (float(table["t_s"].min()), float(table["t_s"].max()))
            size = (ctx.info.width or 0, ctx.info.height or 0)
            for track_id, group in table.groupby("track_id", sort=True):
                t_s = group["t_s"].to_numpy(float)
                boxes = group[["x1", "y1", "x2", "y2"]].to_numpy(float)
                intervals = motion_intervals(t_s, boxes, cfg.window_s)
                if all(size):
                    intervals += edge_intervals(t_s, boxes, size, span, cfg.window_s)
                rows += [_row(int(track_id), iv, TRAJECTORY_MODEL) for iv in intervals]
            if cfg.vision_model:
                rows += self._vision(ctx)
        rows.sort(key=lambda r: (r["track_id"], r["start_s"], r["label"]))
        ctx.tables["actions"] = rows_table("actions", rows, ctx.info.video_id)

    def _vision(self, ctx: VideoContext) -> list[dict[str, Any]]:
        cfg = self.settings.actions
        model = str(cfg.vision_model)
        tracks = ctx.tables["tracks"].select(["track_id", "first_s", "last_s"]).to_pylist()
        crops: dict[int, list[TrackCrop]] = ctx.artifacts.get("track_crops", {})
        client = _client(cfg)
        labels = list(cfg.labels or DEFAULT_LABELS)
        rows = []
        failed: list[str] = []
        for track in tracks:
            images = crops.get(track["track_id"], [])
            if not images:
                continue
            try:
                label = ask_vision(client, images, labels)
            except VisionRefused as exc:  # every later track would be refused the same way
                log.warning("%s: actions: %s; trajectory labels only", ctx.info.path, exc)
                break
            except VisionError as exc:
                failed.append(f"track {track['track_id']}: {exc}")
                continue
            if label is not None:
                iv = Interval(track["first_s"], track["last_s"], label, float("nan"))
                rows.append({**_row(track["track_id"], iv, model), "score": None})
        if failed:
            log.warning("%s: actions: %d vision requests failed; first: %s", ctx.info.path, len(failed), failed[0])
        return rows


def _row(track_id: int, iv: Interval, model: str) -> dict[str, Any]:
    return {
        "track_id": track_id,
        "start_s": iv.start_s,
        "end_s": iv.end_s,
        "label": iv.label,
        "score": iv.score,
        "model": model,
    }


def _client(cfg: ActionSettings) -> VisionClient:
    return VisionClient(str(cfg.vision_model), cfg.base_url, cfg.timeout_s, cfg.max_retries)


_CROP_SIDE = 256  # px; crops are at most this already (ingest.models.crops), so this only bounds the request


def ask_vision(client: VisionClient, crops: Sequence[TrackCrop], labels: Sequence[str]) -> str | None:
    """One of `labels` for what the person in `crops` (in time order) is doing, or None if the answer
    names none of them. Raises VisionError when the endpoint gives no answer."""
    prompt = (
        "These crops show one person at different times. What is the person doing? "
        f"Answer with exactly one of: {', '.join(labels)}."
    )
    urls = [jpeg_data_url(c.image, _CROP_SIDE) for c in sorted(crops, key=lambda c: c.t_s)]
    return parse_label(client.ask(prompt, urls, max_tokens=20), labels)


def parse_label(answer: str, labels: Sequence[str]) -> str | None:
    """The label an answer names (the longest that appears, so 'riding a bicycle' beats 'riding').

    >>> parse_label("The person is Walking.", ["standing", "walking"]), parse_label("dancing", ["walking"])
    ('walking', None)
    """
    text = answer.lower()
    found = [label for label in labels if label.lower() in text]
    return max(found, key=len) if found else None
