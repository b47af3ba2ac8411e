"""Captions through an OpenAI-compatible vision endpoint, and merging them into clip captions.

The endpoint is a tiny local HTTP server speaking the chat-completions API (tests/vision_endpoint.py).
It is a scripted collaborator, but it looks at the JPEG it receives: frames showing the fixture's
white sign get one caption, the others another, so the captions' times say whether the right frames
went out.
"""

import base64
import dataclasses
import io
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ingest import IngestSettings, SettingsError, ingest_video
from ingest.models.encoders import TextEncoder
from ingest.roles.captions import Captioner, embedding_similarity, jpeg_data_url, merge_captions, token_overlap
from ingest.settings import CaptionSettings
from memory import open_memory
from tests.vision_endpoint import VisionServer, vision_server

SIGN_CAPTION = "A white sign reading PLATFORM 9 EXIT hangs above a square where people walk."
SQUARE_CAPTION = "People walk across a paved square in front of a brick building."
MODEL = "tiny-vision"


def _image_of(body: dict[str, Any]) -> np.ndarray:
    from PIL import Image

    (content,) = [m["content"] for m in body["messages"] if m["role"] == "user"]
    url = next(part["image_url"]["url"] for part in content if part["type"] == "image_url")
    prefix = "data:image/jpeg;base64,"
    assert url.startswith(prefix)
    return np.asarray(Image.open(io.BytesIO(base64.b64decode(url[len(prefix) :]))).convert("L"), dtype=np.float32)


def _caption(body: dict[str, Any]) -> str:
    """Caption by looking at the top band of the image: the fixture's sign is a white box up there."""
    image = _image_of(body)
    top = image[: image.shape[0] // 5]
    return f" {SIGN_CAPTION if (top > 230).mean() > 0.2 else SQUARE_CAPTION}\n"


@pytest.fixture
def endpoint() -> Iterator[VisionServer]:
    with vision_server() as server:
        server.answer_for = _caption
        yield server


def _settings(server: VisionServer, **captions: Any) -> IngestSettings:
    base = IngestSettings().only("captions")
    captions = {"model": MODEL, "base_url": server.url, "fps": 1.0, **captions}
    return dataclasses.replace(base, captions=dataclasses.replace(base.captions, **captions))


def _captions(mem_path: Path) -> dict[str, list[dict[str, Any]]]:
    with open_memory(mem_path, read_only=True) as mem:
        rows = mem.query("SELECT * FROM captions ORDER BY caption_id").to_pylist()
    return {level: [r for r in rows if r["level"] == level] for level in ("frame", "clip")}


# ------------------------------------------------------------------ merging (pure)


@pytest.mark.parametrize(
    ("texts", "runs"),
    [
        (["a dog runs on grass", "A dog runs on grass.", "a red car parks"], [(0.0, 1.0), (2.0, 2.0)]),
        (["a dog runs", "a red car parks", "a dog runs"], [(0.0, 0.0), (1.0, 1.0), (2.0, 2.0)]),
        (["same", "same", "same"], [(0.0, 2.0)]),
        ([], []),
    ],
)
def test_consecutive_near_identical_captions_merge(texts: list[str], runs: list[tuple[float, float]]) -> None:
    clips = merge_captions([(float(t), text) for t, text in enumerate(texts)], token_overlap, 0.8)
    assert [(c.start_s, c.end_s) for c in clips] == runs
    assert sum(c.num_frames for c in clips) == len(texts)


def test_a_run_is_named_by_its_most_typical_caption() -> None:
    texts = ["a man walks a dog", "a man walks a dog in a park", "a man walks a dog"]
    (clip,) = merge_captions([(float(t), x) for t, x in enumerate(texts)], token_overlap, 0.5)
    assert clip.text == "a man walks a dog"


@pytest.mark.slow
def test_sentence_embeddings_merge_paraphrases_that_share_few_words() -> None:
    frames = [
        (0.0, "People walk across a paved square in front of a brick building."),
        (5.0, "Pedestrians cross a square in front of a brick building."),
    ]
    threshold = CaptionSettings().merge_similarity
    assert len(merge_captions(frames, token_overlap, threshold)) == 2
    assert len(merge_captions(frames, embedding_similarity(TextEncoder()), threshold)) == 1


def test_frames_go_out_as_bounded_jpegs() -> None:
    from PIL import Image

    url = jpeg_data_url(np.zeros((576, 768, 3), np.uint8), 512)
    image = Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1])))
    assert (image.format, image.size) == ("JPEG", (512, 384))


# ------------------------------------------------------------------ availability


def test_without_a_vision_model_the_role_is_off_with_a_reason() -> None:
    avail = Captioner(IngestSettings()).availability()
    assert not avail.ok and "captions.model" in avail.detail


def test_a_model_without_an_endpoint_is_unavailable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    settings = dataclasses.replace(IngestSettings(), captions=CaptionSettings(model=MODEL))
    avail = Captioner(settings).availability()
    assert not avail.ok and "OPENAI_BASE_URL" in avail.detail


def test_a_configured_endpoint_is_reported_without_contacting_it(endpoint: VisionServer) -> None:
    avail = Captioner(_settings(endpoint)).availability()
    assert avail.ok and avail.source == "endpoint" and MODEL in avail.detail
    assert endpoint.requests == []


@pytest.mark.parametrize("bad", [{"timeout_s": 0}, {"max_retries": -1}, {"merge_similarity": 2.0}])
def test_bad_caption_settings_are_refused(bad: dict[str, Any]) -> None:
    with pytest.raises(SettingsError):
        CaptionSettings(**bad)


# ------------------------------------------------------------------ the role on a real clip


@pytest.mark.slow
def test_frame_and_clip_captions_follow_what_is_on_screen(
    endpoint: VisionServer, media: dict[str, Path], truth: dict[str, Any], tmp_path: Path
) -> None:
    sign = truth["clips"]["speech_sign"]["onscreen_text"]  # shown 4.0 <= t < 9.0
    with open_memory(tmp_path / "m.duckdb") as mem:
        result = ingest_video(media["speech_sign"], mem, _settings(endpoint))
    assert result.status == "ok" and result.roles["captions"] == "ran", result
    caps = _captions(tmp_path / "m.duckdb")
    assert len(endpoint.requests) == len(caps["frame"]) == 12
    assert {r["model"] for r in endpoint.requests} == {MODEL}
    for row in caps["frame"]:
        shown = sign["start_s"] <= row["start_s"] < sign["end_s"]
        assert row["text"] == (SIGN_CAPTION if shown else SQUARE_CAPTION), row
    clips = [(c["start_s"], c["end_s"], c["text"]) for c in caps["clip"]]
    assert clips == [(0.0, 3.0, SQUARE_CAPTION), (4.0, 8.0, SIGN_CAPTION), (9.0, 11.0, SQUARE_CAPTION)]
    ids = [r["caption_id"] for r in caps["frame"] + caps["clip"]]
    assert sorted(ids) == list(range(len(ids)))  # unique across levels


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["not_json", "no_choices"])
def test_malformed_answers_fail_the_role_not_the_video(
    endpoint: VisionServer, media: dict[str, Path], tmp_path: Path, mode: str
) -> None:
    endpoint.mode = mode
    with open_memory(tmp_path / "m.duckdb") as mem:
        result = ingest_video(media["no_audio"], mem, _settings(endpoint, fps=0.5, max_retries=0))
        assert result.status == "ok"
        assert result.roles["captions"].startswith("failed: all 3 caption requests failed"), result.roles
        assert mem.table_counts()["captions"] == 0


@pytest.mark.slow
def test_a_silent_endpoint_times_out_within_the_bound(
    endpoint: VisionServer, media: dict[str, Path], tmp_path: Path
) -> None:
    endpoint.mode = "slow"
    started = time.perf_counter()
    with open_memory(tmp_path / "m.duckdb") as mem:
        result = ingest_video(media["no_audio"], mem, _settings(endpoint, fps=0.5, timeout_s=0.3, max_retries=0))
    assert "no answer within 0.3 s" in result.roles["captions"]
    assert time.perf_counter() - started < 10


@pytest.mark.slow
def test_one_failed_frame_leaves_the_others(endpoint: VisionServer, media: dict[str, Path], tmp_path: Path) -> None:
    endpoint.mode = "fail_first"
    with open_memory(tmp_path / "m.duckdb") as mem:
        result = ingest_video(media["no_audio"], mem, _settings(endpoint, fps=0.5, max_retries=0, concurrency=1))
    assert result.roles["captions"] == "ran"
    caps = _captions(tmp_path / "m.duckdb")
    assert [r["start_s"] for r in caps["frame"]] == [2.0, 4.0]
