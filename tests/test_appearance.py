"""Appearance: colour names on reference colours and on real crops of vtest.avi (hand-checked
boxes at t=1.8 s), the role's effect on `tracks`, and the CLIP path's plumbing."""

import dataclasses
import json
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pytest

from ingest import IngestSettings
from ingest.media.probe import probe
from ingest.models.crops import TrackCrop
from ingest.roles.appearance import (
    COLOUR_MODEL,
    AppearanceDescriber,
    colour_description,
    colour_name,
    describe_colours,
    dominant_colours,
)
from ingest.roles.extractor import VideoContext
from memory import rows_table

# Boxes in frame 18 (t=1.8 s) of vtest.avi, checked by drawing them on the frame.
RED_JACKET_MAN = (687, 272, 751, 393)  # red-and-navy jacket, blue jeans, walking right
YELLOW_CLOTH = (59, 492, 168, 556)  # a yellow garment lying on the grass (the detector's false positive)
GRASS = (200, 420, 300, 520)
ROAD = (540, 340, 640, 400)


def _lab(rgb: tuple[int, int, int]) -> list[float]:
    import cv2

    lab = cv2.cvtColor(np.array([[rgb]], np.uint8), cv2.COLOR_RGB2LAB)[0, 0].astype(float)
    return list(lab * [100 / 255, 1, 1] - [0, 128, 128])


@pytest.mark.parametrize(
    ("rgb", "name"),
    [
        ((220, 20, 30), "red"),
        ((120, 10, 15), "dark red"),
        ((255, 150, 180), "pink"),
        ((255, 140, 0), "orange"),
        ((120, 70, 30), "brown"),
        ((220, 180, 150), "beige"),
        ((240, 230, 40), "yellow"),
        ((30, 160, 40), "green"),
        ((0, 80, 0), "dark green"),
        ((0, 128, 128), "teal"),
        ((0, 0, 255), "blue"),
        ((20, 30, 90), "dark blue"),
        ((70, 90, 130), "blue"),  # denim
        ((120, 40, 160), "purple"),
        ((20, 20, 25), "black"),
        ((128, 128, 128), "grey"),
        ((130, 130, 140), "grey"),  # a slight tint is still grey, not blue
        ((245, 245, 245), "white"),
    ],
)
def test_colour_names(rgb: tuple[int, int, int], name: str) -> None:
    assert colour_name(_lab(rgb)) == name


def test_dominant_colours_count_shades_of_one_hue_together() -> None:
    pixels = np.array([[200, 20, 30]] * 30 + [[110, 10, 15]] * 30 + [[20, 20, 20]] * 40, np.uint8)
    colours = dominant_colours(pixels)
    assert colours[0][0] in ("red", "dark red") and colours[0][1] == pytest.approx(0.6)
    assert describe_colours(colours) == f"{colours[0][0]}, black"


@pytest.mark.parametrize(
    ("colours", "text"),
    [
        ([("red", 0.7), ("black", 0.3)], "red, black"),
        ([("red", 0.8), ("black", 0.2)], "red"),  # a small second colour is not named
        ([], "unknown"),
    ],
)
def test_describe_colours(colours: list[tuple[str, float]], text: str) -> None:
    assert describe_colours(colours) == text


def test_too_few_pixels_name_nothing() -> None:
    assert dominant_colours(np.zeros((5, 3), np.uint8)) == []


@pytest.fixture(scope="module")
def frame18(media: dict[str, Path]) -> np.ndarray:
    import decord

    return decord.VideoReader(str(media["vtest"]))[18].asnumpy()


def _crop(frame: np.ndarray, box: tuple[int, int, int, int], track_id: int = 1) -> TrackCrop:
    x1, y1, x2, y2 = box
    return TrackCrop(track_id, 1.8, 18, tuple(map(float, box)), frame[y1:y2, x1:x2].copy(), True)  # type: ignore[arg-type]


def test_real_crop_of_the_red_jacket_man(frame18: np.ndarray) -> None:
    text = colour_description([_crop(frame18, RED_JACKET_MAN)], "person")
    upper, lower = text.split("; ")
    assert "red" in upper, text
    assert "blue" in lower or "black" in lower, text  # jeans, dark in this light


@pytest.mark.parametrize(
    ("box", "expected", "not_expected"),
    [(YELLOW_CLOTH, "yellow", "red"), (GRASS, "green", "blue"), (ROAD, "grey", "green")],
)
def test_real_crops_of_other_things(
    frame18: np.ndarray, box: tuple[int, int, int, int], expected: str, not_expected: str
) -> None:
    text = colour_description([_crop(frame18, box)], "thing")
    assert text.startswith("colour: ") and expected in text and not_expected not in text, text


def test_mask_pixels_are_used_when_the_model_segments(frame18: np.ndarray) -> None:
    # a mask that keeps only the grass half of a grass/road crop names green, without it grey wins
    x1, y1, x2, y2 = 440, 300, 540, 420
    crop = frame18[y1:y2, x1:x2].copy()
    unmasked = TrackCrop(1, 1.8, 18, (x1, y1, x2, y2), crop, True)
    grass_only = np.zeros(crop.shape[:2], bool)
    grass_only[90:, :40] = True
    masked = dataclasses.replace(unmasked, mask=grass_only)
    assert "green" in colour_description([masked], "thing")
    assert colour_description([masked], "thing") != colour_description([unmasked], "thing")


def _ctx(media: dict[str, Path], track_ids: list[int], crops: dict[int, list[TrackCrop]]) -> VideoContext:
    info = probe(media["vtest"])
    rows: list[dict[str, Any]] = [
        {
            "track_id": i,
            "category": "person",
            "first_s": 0.0,
            "last_s": 2.0,
            "num_detections": 11,
            "mean_confidence": 0.5,
            "best_t_s": 1.8,
        }
        for i in track_ids
    ]
    ctx = VideoContext(info)
    ctx.tables["tracks"] = rows_table("tracks", rows, info.video_id)
    ctx.artifacts["track_crops"] = crops
    return ctx


def test_role_fills_the_appearance_columns(media: dict[str, Path], frame18: np.ndarray) -> None:
    ctx = _ctx(media, [1, 2], {1: [_crop(frame18, RED_JACKET_MAN)]})  # track 2 has no crop
    before = ctx.tables["tracks"]
    AppearanceDescriber(IngestSettings()).end(ctx)
    after = ctx.tables["tracks"]
    assert after.schema == before.schema and after.num_rows == 2
    rows = after.to_pylist()
    assert "red" in rows[0]["appearance"] and rows[0]["appearance_model"] == COLOUR_MODEL
    assert rows[1]["appearance"] is None and rows[1]["appearance_model"] is None
    assert rows[0]["appearance_embedding"] is None  # no CLIP weights on disk here


def test_role_without_tracks_does_nothing(media: dict[str, Path]) -> None:
    ctx = VideoContext(probe(media["vtest"]))
    AppearanceDescriber(IngestSettings()).end(ctx)
    assert "tracks" not in ctx.tables


def test_availability_says_clip_is_off_without_weights() -> None:
    avail = AppearanceDescriber(IngestSettings()).availability()
    assert avail.ok and "dominant colours" in avail.detail and "CLIP attributes off" in avail.detail


@pytest.mark.slow
def test_clip_checkpoint_adds_embedding_and_attributes(
    media: dict[str, Path], frame18: np.ndarray, tmp_path: Path
) -> None:
    """Plumbing only: a tiny open_clip model with random weights, saved as a checkpoint file (no real
    CLIP weights exist offline), so the attributes it picks mean nothing; shapes and columns do."""
    pytest.importorskip("ingest.models.encoders")
    open_clip = pytest.importorskip("open_clip")
    import torch

    config = {
        "embed_dim": 32,
        "vision_cfg": {"image_size": 64, "layers": 2, "width": 64, "patch_size": 16, "head_width": 32},
        "text_cfg": {"context_length": 77, "vocab_size": 49408, "width": 64, "heads": 2, "layers": 2},
    }
    (tmp_path / "vidmem-test-tiny.json").write_text(json.dumps(config))
    open_clip.add_model_config(tmp_path)
    model = open_clip.create_model("vidmem-test-tiny", pretrained=None)
    checkpoint = tmp_path / "tiny.pt"
    torch.save(model.state_dict(), checkpoint)
    base = IngestSettings()
    settings = dataclasses.replace(
        base, clip=dataclasses.replace(base.clip, model="vidmem-test-tiny", pretrained=str(checkpoint))
    )
    describer = AppearanceDescriber(settings)
    assert "plus CLIP attributes" in describer.availability().detail
    ctx = _ctx(media, [1], {1: [_crop(frame18, RED_JACKET_MAN)]})
    describer.end(ctx)
    row = ctx.tables["tracks"].to_pylist()[0]
    assert row["appearance"].startswith("upper: ") and "; clip: a" in row["appearance"]
    assert row["appearance_model"] == f"{COLOUR_MODEL} + vidmem-test-tiny/tiny.pt"
    vec = np.array(row["appearance_embedding"])
    assert vec.shape == (32,) and np.linalg.norm(vec) == pytest.approx(1.0, abs=1e-3)
    assert pa.types.is_list(ctx.tables["tracks"].schema.field("appearance_embedding").type)
