"""Actions: speed classification, interval merging, frame-edge entries and exits on tiny real
trajectories, the role's rows, and the vision-endpoint path against a local OpenAI-compatible server."""

import dataclasses
import itertools
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ingest import IngestSettings
from ingest.media.probe import probe
from ingest.models.crops import TrackCrop
from ingest.models.vision_client import VisionClient
from ingest.roles.actions import (
    TRAJECTORY_MODEL,
    ActionRecognizer,
    Interval,
    ask_vision,
    edge_intervals,
    merge_intervals,
    motion_intervals,
    parse_label,
    speed_label,
    window_speed,
)
from ingest.roles.extractor import VideoContext
from memory import rows_table
from tests.vision_endpoint import vision_server

FPS = 5.0
HEIGHT = 100.0  # px: a person's box height


def _walk(
    speed_heights_per_s: float, seconds: float, x0: float = 300.0, t0: float = 0.0
) -> tuple[np.ndarray, np.ndarray]:
    """Times and boxes of a 100-px-tall person moving right at a given speed, sampled at 5 fps."""
    t = t0 + np.arange(0, seconds + 1e-9, 1 / FPS)
    x = x0 + speed_heights_per_s * HEIGHT * (t - t0)
    boxes = np.column_stack([x, np.full_like(t, 200), x + 40, np.full_like(t, 200 + HEIGHT)])
    return t, boxes


@pytest.mark.parametrize(
    ("speed", "label"),
    [(0.0, "standing"), (0.1, "standing"), (0.5, "walking"), (1.2, "walking"), (2.5, "running"), (5.0, "running")],
)
def test_speed_label(speed: float, label: str) -> None:
    got, score = speed_label(speed)
    assert got == label and 0.5 <= score <= 1.0


def test_score_is_lowest_at_a_boundary() -> None:
    assert speed_label(0.25)[1] == pytest.approx(0.5)
    assert speed_label(0.6)[1] > speed_label(0.3)[1]


def test_window_speed_is_in_heights_per_second_and_ignores_jitter() -> None:
    t, boxes = _walk(0.8, 2.0)
    centres = np.column_stack([(boxes[:, 0] + boxes[:, 2]) / 2, (boxes[:, 1] + boxes[:, 3]) / 2])
    heights = boxes[:, 3] - boxes[:, 1]
    assert window_speed(t, centres, heights) == pytest.approx(0.8)
    jitter = np.random.default_rng(0).normal(0, 2.0, centres.shape)  # detector noise of a standing person
    still = np.tile(centres[:1], (len(t), 1)) + jitter
    assert window_speed(t, still, heights) < 0.25
    assert np.isnan(window_speed(t[:1], centres[:1], heights[:1]))  # one sample: no speed


def test_motion_intervals_follow_a_stop_and_go() -> None:
    t1, b1 = _walk(0.8, 4.0)  # walk 4 s
    t2, b2 = _walk(0.0, 4.0, x0=b1[-1, 0], t0=4.2)  # stand 4 s
    t3, b3 = _walk(3.0, 2.0, x0=b2[-1, 0], t0=8.4)  # run 2 s
    t, boxes = np.concatenate([t1, t2, t3]), np.concatenate([b1, b2, b3])
    intervals = motion_intervals(t, boxes, window_s=2.0)
    assert [iv.label for iv in intervals] == ["walking", "standing", "running"]
    assert intervals[0].start_s == 0.0 and intervals[-1].end_s == pytest.approx(t[-1])
    for a, b in itertools.pairwise(intervals):
        assert a.end_s == pytest.approx(b.start_s)


def test_merge_intervals() -> None:
    merged = merge_intervals(
        [Interval(0, 2, "walking", 0.8), Interval(2, 4, "walking", 0.6), Interval(4, 6, "standing", 0.9)]
    )
    assert merged == [Interval(0, 4, "walking", 0.7), Interval(4, 6, "standing", 0.9)]
    apart = merge_intervals([Interval(0, 2, "walking", 0.8), Interval(3, 4, "walking", 0.8)])
    assert len(apart) == 2  # a gap keeps them apart


@pytest.mark.parametrize(
    ("x0", "speed", "expected"),
    [
        (0.0, 0.8, [("entering", 0.9)]),  # starts at the left edge, walks right, in: entering
        (300.0, 0.8, []),  # starts and ends inside the frame
        # at the edge and drifting out: a weak entering, and it leaves there too
        (0.0, -0.1, [("entering", 0.6), ("leaving", 0.9)]),
    ],
)
def test_edge_intervals(x0: float, speed: float, expected: list[tuple[str, float]]) -> None:
    t, boxes = _walk(speed, 3.0, x0=x0, t0=5.0)
    got = edge_intervals(t, boxes, (768, 576), (0.0, 20.0), window_s=2.0)
    assert [(iv.label, iv.score) for iv in got] == expected


def test_leaving_and_a_track_present_from_the_start() -> None:
    t, boxes = _walk(0.8, 3.0, x0=768 - 40 - 0.8 * HEIGHT * 3, t0=0.0)  # ends at the right edge at 3 s
    got = edge_intervals(t, boxes, (768, 576), (0.0, 20.0), window_s=2.0)
    assert [(iv.label, iv.start_s, iv.end_s) for iv in got] == [("leaving", 1.0, 3.0)]  # no entering at t=0


def test_parse_label() -> None:
    labels = ["walking", "riding a bicycle", "riding"]
    assert parse_label("They are Riding a bicycle.", labels) == "riding a bicycle"
    assert parse_label("walking", labels) == "walking"
    assert parse_label("I cannot tell", labels) is None


def _ctx(media: dict[str, Path]) -> VideoContext:
    info = probe(media["vtest"])
    t, boxes = _walk(0.8, 4.0)
    rows: list[dict[str, Any]] = [
        {
            "track_id": 1,
            "frame_index": round(ti * info.fps),
            "t_s": float(ti),
            "x1": b[0],
            "y1": b[1],
            "x2": b[2],
            "y2": b[3],
            "confidence": 0.8,
            "category": "person",
        }
        for ti, b in zip(t, boxes, strict=True)
    ]
    track = {"track_id": 1, "category": "person", "first_s": 0.0, "last_s": 4.0, "num_detections": len(rows)}
    ctx = VideoContext(info)
    ctx.tables["detections"] = rows_table("detections", rows, info.video_id)
    ctx.tables["tracks"] = rows_table("tracks", [track], info.video_id)
    image = np.zeros((64, 32, 3), np.uint8)
    ctx.artifacts["track_crops"] = {1: [TrackCrop(1, 1.0, 10, (0, 0, 32, 64), image, True)]}
    return ctx


def test_role_writes_trajectory_actions(media: dict[str, Path]) -> None:
    ctx = _ctx(media)
    ActionRecognizer(IngestSettings()).end(ctx)
    rows = ctx.tables["actions"].to_pylist()
    assert [(r["track_id"], r["label"], r["start_s"], r["end_s"], r["model"]) for r in rows] == [
        (1, "walking", 0.0, 4.0, TRAJECTORY_MODEL)
    ]


def test_the_trajectory_labels_are_the_ones_the_memory_names() -> None:
    """memory.TRAJECTORY_ACTIONS is what queries narrow a count by wherever the role ran: every label the
    classifier writes, and no other."""
    from memory import TRAJECTORY_ACTIONS

    speeds = {speed_label(s)[0] for s in (0.0, 0.1, 1.0, 5.0)}
    t, boxes = _walk(-0.1, 3.0, x0=0.0, t0=5.0)  # at the edge and drifting out: entering, then leaving
    edges = {iv.label for iv in edge_intervals(t, boxes, (768, 576), (0.0, 20.0), window_s=2.0)}
    assert speeds | edges == set(TRAJECTORY_ACTIONS)


def test_role_without_tracks_writes_an_empty_table(media: dict[str, Path]) -> None:
    ctx = VideoContext(probe(media["vtest"]))
    ActionRecognizer(IngestSettings()).end(ctx)
    assert ctx.tables["actions"].num_rows == 0


def _vision_settings(url: str, **actions: Any) -> IngestSettings:
    base = IngestSettings()
    changes = {"vision_model": "some-vlm", "base_url": url, "timeout_s": 5.0, "max_retries": 0, **actions}
    return dataclasses.replace(base, actions=dataclasses.replace(base.actions, **changes))


def test_vision_model_answer_becomes_a_track_long_action(media: dict[str, Path]) -> None:
    with vision_server() as server:
        server.answer = "The person is riding a bicycle."
        recognizer = ActionRecognizer(_vision_settings(server.url))
        assert "vision model some-vlm" in recognizer.availability().detail
        ctx = _ctx(media)
        recognizer.end(ctx)
    rows = ctx.tables["actions"].to_pylist()
    vision = [r for r in rows if r["model"] == "some-vlm"]
    assert [(r["label"], r["start_s"], r["end_s"], r["score"]) for r in vision] == [
        ("riding a bicycle", 0.0, 4.0, None)
    ]
    content = server.requests[0]["messages"][0]["content"]
    assert content[1]["image_url"]["url"].startswith("data:image/jpeg;base64,")
    assert "riding a bicycle" in content[0]["text"]


@pytest.mark.parametrize("mode", ["always_500", "unknown_model"])
def test_a_failing_vision_endpoint_leaves_the_trajectory_labels(media: dict[str, Path], mode: str) -> None:
    with vision_server() as server:
        server.mode = mode
        ctx = _ctx(media)
        ActionRecognizer(_vision_settings(server.url)).end(ctx)
    rows = ctx.tables["actions"].to_pylist()
    assert [(r["label"], r["model"]) for r in rows] == [("walking", TRAJECTORY_MODEL)]
    assert len(server.requests) == 1  # one track, no retries configured, a refusal is final


def test_vision_answer_outside_the_labels_is_dropped() -> None:
    crop = TrackCrop(1, 0.0, 0, (0, 0, 8, 8), np.zeros((8, 8, 3), np.uint8), True)
    with vision_server() as server:
        server.answer = "dancing the tango"
        assert ask_vision(VisionClient("m", server.url, 5, 0), [crop], ["walking"]) is None
