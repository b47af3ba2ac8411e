"""CLIP frame embeddings from a checkpoint given by path, and text-to-frame search through them.

No CLIP weights are packaged, so the checkpoint here is a real open_clip state_dict of a small
architecture with untrained weights: enough to check that one unit vector per sampled frame is
stored under the right model name and that search runs through the same model, not semantics.
"""

import dataclasses
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ingest import IngestSettings, ingest_video
from ingest.errors import RoleUnavailable
from ingest.media.frames import sample_indices
from ingest.models import encoders
from ingest.models.encoders import ClipTextEncoder, load_clip
from ingest.roles.clip import FrameEmbedder
from memory import open_memory

ARCH = "ViT-S-32"


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory: pytest.TempPathFactory) -> Path:
    import open_clip
    import torch

    model, _, _ = open_clip.create_model_and_transforms(ARCH, pretrained=None)
    path = tmp_path_factory.mktemp("clip") / "vit_s32_untrained.pt"
    torch.save(model.state_dict(), path)
    return path


def _settings(**clip: Any) -> IngestSettings:
    base = IngestSettings().only("clip")
    return dataclasses.replace(base, clip=dataclasses.replace(base.clip, **clip))


@pytest.fixture(scope="module")
def clip_memory(checkpoint: Path, media: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    path = tmp_path_factory.mktemp("clipmem") / "m.duckdb"
    settings = _settings(model=ARCH, pretrained=str(checkpoint), fps=1.0)
    with open_memory(path) as mem:
        result = ingest_video(media["speech_sign"], mem, settings)
    assert result.status == "ok" and result.roles["clip"] == "ran", result
    return {"path": path, "settings": settings, "result": result}


@pytest.mark.slow
def test_one_unit_vector_per_sampled_frame(clip_memory: dict[str, Any], truth: dict[str, Any]) -> None:
    facts = truth["clips"]["speech_sign"]
    with open_memory(clip_memory["path"], read_only=True) as mem:
        rows = mem.query("SELECT frame_index, t_s, model, embedding FROM frame_embeddings ORDER BY t_s").to_pylist()
    assert [r["frame_index"] for r in rows] == sample_indices(facts["frame_count"], facts["fps"], 1.0)
    assert {r["model"] for r in rows} == {f"{ARCH}/vit_s32_untrained.pt"}
    vectors = np.array([r["embedding"] for r in rows])
    assert vectors.shape == (12, 384)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


@pytest.mark.slow
def test_text_to_frame_search_runs_through_the_same_model(clip_memory: dict[str, Any], media: dict[str, Path]) -> None:
    import decord

    encoder = ClipTextEncoder(clip_memory["settings"].clip)
    with open_memory(clip_memory["path"], read_only=True) as mem:
        stored = mem.query("SELECT t_s, embedding FROM frame_embeddings WHERE model = ? ORDER BY t_s", [encoder.model])
        query = encoder.encode(["a sign reading PLATFORM 9 EXIT"])[0]
        hits = mem.query(
            "SELECT t_s, list_cosine_similarity(embedding, ?::FLOAT[]) AS score FROM frame_embeddings "
            "WHERE model = ? ORDER BY score DESC, t_s",
            [query.tolist(), encoder.model],
        ).to_pylist()
        # a frame as the query finds itself: what was stored is what the model gives for that frame
        frame = decord.VideoReader(str(media["speech_sign"]))[125].asnumpy()  # t = 5 s
        image_query = load_clip(clip_memory["settings"].clip).encode_images([frame])[0]
        best = mem.query(
            "SELECT t_s, list_cosine_similarity(embedding, ?::FLOAT[]) AS score FROM frame_embeddings "
            "ORDER BY score DESC LIMIT 1",
            [image_query.tolist()],
        ).to_pylist()[0]
    assert query.shape == (384,) and abs(float(np.linalg.norm(query)) - 1) < 1e-5
    vectors = np.array(stored["embedding"].to_pylist())
    expected = np.array(stored["t_s"].to_pylist())[np.argsort(-(vectors @ query), kind="stable")]
    assert [h["t_s"] for h in hits] == pytest.approx(list(expected))
    assert best["t_s"] == 5.0 and best["score"] > 0.999


@pytest.mark.parametrize(
    ("clip", "message"),
    [
        ({"pretrained": None}, "random weights"),
        ({"pretrained": "no-such-tag"}, "neither a checkpoint file nor a pretrained tag of ViT-B-32"),
        ({"model": "ViT-Nope-1"}, "not an open_clip architecture"),
    ],
)
def test_nothing_to_load_makes_the_role_unavailable(clip: dict[str, Any], message: str) -> None:
    avail = FrameEmbedder(_settings(**clip)).availability()
    assert not avail.ok and message in avail.detail


def test_a_tag_to_download_is_unavailable_when_the_hub_cannot_be_reached(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")  # the discard port: connection refused
    monkeypatch.setattr(encoders, "_reachability", {})
    settings = _settings(pretrained="laion2b_s34b_b79k")
    if encoders.resolve_clip(settings.clip).source == "cache":
        pytest.skip("these weights are in the local Hugging Face cache")
    avail = FrameEmbedder(settings).availability()
    assert not avail.ok and avail.source == "download"
    assert "cannot be reached" in avail.detail and "clip.pretrained" in avail.detail
    with pytest.raises(RoleUnavailable, match="cannot be reached"):
        load_clip(settings.clip)


@pytest.mark.slow
def test_a_checkpoint_of_another_architecture_fails_the_role_not_the_video(
    checkpoint: Path, media: dict[str, Path], tmp_path: Path
) -> None:
    settings = _settings(model="ViT-B-32", pretrained=str(checkpoint))
    assert FrameEmbedder(settings).availability().ok  # a file is there; only loading can tell
    with open_memory(tmp_path / "m.duckdb") as mem:
        result = ingest_video(media["no_audio"], mem, settings)
        assert result.status == "ok"
        assert result.roles["clip"].startswith("failed: cannot load open_clip ViT-B-32/vit_s32_untrained.pt")
        assert mem.table_counts()["frame_embeddings"] == 0


def test_without_open_clip_the_role_is_unavailable_not_a_crash(monkeypatch: pytest.MonkeyPatch) -> None:
    """On the GPU machine, without open_clip, building a pipeline failed with ModuleNotFoundError: the frame
    embedder is left out, as any role that cannot run."""
    monkeypatch.setitem(sys.modules, "open_clip", None)  # import open_clip raises ImportError
    avail = FrameEmbedder(_settings()).availability()
    assert not avail.ok and "open_clip is not installed" in avail.detail
