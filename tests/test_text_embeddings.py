"""Text embeddings of transcript segments, OCR spans and captions; semantic search over them."""

import dataclasses
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ingest import IngestSettings, Pipeline, ingest_video
from ingest.models import encoders
from ingest.models.encoders import TextEncoder, resolve_text_model
from ingest.roles.registry import EXTRACTORS
from ingest.roles.text_embeddings import TextEmbedder, texts_to_embed
from memory import open_memory, rows_table

SEARCH = (
    "SELECT e.source, e.item_id, v.path, list_cosine_similarity(e.embedding, ?::FLOAT[]) AS score "
    "FROM text_embeddings e JOIN videos v USING (video_id) WHERE e.model = ? ORDER BY score DESC"
)


@pytest.fixture(scope="module")
def text_memory(media: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Both speech clips with ASR, OCR (every 2 s) and text embeddings."""
    path = tmp_path_factory.mktemp("text") / "m.duckdb"
    base = IngestSettings().only("asr", "ocr", "text_embeddings")
    settings = dataclasses.replace(base, ocr=dataclasses.replace(base.ocr, fps=0.5))
    pipeline = Pipeline(settings)
    with open_memory(path) as mem:
        for clip in ("speech_sign", "speech_count"):
            result = ingest_video(media[clip], mem, pipeline)
            assert result.status == "ok" and result.roles["text_embeddings"] == "ran", result
    return path


def _top(mem_path: Path, query: str) -> dict[str, Any]:
    encoder = TextEncoder()
    with open_memory(mem_path, read_only=True) as mem:
        return mem.query(SEARCH, [encoder.encode([query])[0].tolist(), encoder.model]).to_pylist()[0]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("paraphrase", "clip"),
    [
        ("A train departs from the station at dawn.", "speech_sign"),
        ("How many pedestrians are crossing the plaza?", "speech_count"),
    ],
)
def test_a_paraphrase_of_the_spoken_sentence_finds_its_segment(
    text_memory: Path, truth: dict[str, Any], paraphrase: str, clip: str
) -> None:
    top = _top(text_memory, paraphrase)
    assert top["source"] == "transcript" and top["path"].endswith(truth["clips"][clip]["file"]), top
    with open_memory(text_memory, read_only=True) as mem:
        said = mem.query(
            "SELECT t.text FROM transcript t JOIN videos v USING (video_id) WHERE v.path = ? AND t.segment_id = ?",
            [top["path"], top["item_id"]],
        )["text"][0].as_py()
    assert said.rstrip(".").lower() == truth["clips"][clip]["speech"]["text"].rstrip(".").lower()


@pytest.mark.slow
def test_every_transcript_segment_and_ocr_span_has_one_unit_vector(text_memory: Path) -> None:
    with open_memory(text_memory, read_only=True) as mem:
        missing = mem.query(
            "SELECT 'transcript' AS source, video_id, segment_id AS item_id FROM transcript "
            "UNION ALL SELECT 'ocr_spans', video_id, span_id FROM ocr_spans "
            "EXCEPT SELECT source, video_id, item_id FROM text_embeddings"
        )
        rows = mem.query("SELECT source, model, embedding FROM text_embeddings").to_pylist()
    assert missing.num_rows == 0
    assert {r["source"] for r in rows} == {"transcript", "ocr_spans"}
    assert {r["model"] for r in rows} == {"all-MiniLM-L6-v2"}
    vectors = np.array([r["embedding"] for r in rows])
    assert vectors.shape[1] == 384 and np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


@pytest.mark.slow
def test_on_screen_text_is_found_by_meaning(text_memory: Path) -> None:
    top = _top(text_memory, "platform nine exit")
    assert top["source"] == "ocr_spans" and top["path"].endswith("speech_sign.mp4"), top


def test_only_clip_captions_and_non_empty_texts_are_embedded() -> None:
    tables = {
        "transcript": rows_table(
            "transcript",
            [
                {"segment_id": 0, "start_s": 0.0, "end_s": 1.0, "text": " Hello there. "},
                {"segment_id": 1, "start_s": 1.0, "end_s": 2.0, "text": "   "},
            ],
            "v1",
        ),
        "captions": rows_table(
            "captions",
            [
                {"caption_id": 0, "level": "frame", "start_s": 0.0, "end_s": 0.0, "text": "a dog"},
                {"caption_id": 1, "level": "clip", "start_s": 0.0, "end_s": 0.0, "text": "a dog"},
            ],
            "v1",
        ),
    }
    assert texts_to_embed(tables) == [("transcript", 0, "Hello there."), ("captions", 1, "a dog")]
    assert texts_to_embed({}) == []


def test_the_packaged_model_is_used_offline() -> None:
    weights = resolve_text_model("all-MiniLM-L6-v2")
    assert weights.source == "package"
    assert resolve_text_model("sentence-transformers/all-MiniLM-L6-v2") == weights
    vectors = TextEncoder().encode(["a man riding a bicycle", "a person on a bike", "a bowl of soup"])
    assert vectors.dtype == np.float32 and vectors.shape == (3, 384)
    assert vectors[0] @ vectors[1] > 0.5 > 0.2 > vectors[0] @ vectors[2]
    assert TextEncoder().encode([]).shape == (0, 384)


def test_an_unknown_model_without_the_hub_is_unavailable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")
    monkeypatch.setattr(encoders, "_reachability", {})
    settings = dataclasses.replace(IngestSettings(), text_embeddings=dataclasses.replace(
        IngestSettings().text_embeddings, model="someone/no-such-model"))
    avail = TextEmbedder(settings).availability()
    assert not avail.ok and "cannot be reached" in avail.detail and "text_embeddings.model" in avail.detail


def test_a_video_without_texts_gets_no_rows(media: dict[str, Path], tmp_path: Path) -> None:
    with open_memory(tmp_path / "m.duckdb") as mem:
        result = ingest_video(media["no_audio"], mem, IngestSettings().only("text_embeddings"))
        assert result.roles == {"text_embeddings": "ran"}
        assert mem.table_counts()["text_embeddings"] == 0


def test_the_role_comes_after_the_roles_it_reads() -> None:
    order = [cls.role for cls in EXTRACTORS]
    assert all(order.index(role) < order.index("text_embeddings") for role in ("asr", "ocr", "captions"))


def test_loading_the_model_prints_no_library_progress_bar() -> None:
    """vidmem's own progress lines only: transformers drew 'Loading weights: 0%| | 0/103' among them
    (a new process, since the bar is switched off process-wide once loaded)."""
    import subprocess
    import sys

    script = (
        "from ingest.models.encoders import _load_sentence_model, resolve_text_model\n"
        "_load_sentence_model(resolve_text_model('all-MiniLM-L6-v2'), 'cpu')\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, check=True)
    assert "%|" not in done.stderr and "Loading weights" not in done.stderr, done.stderr[-500:]


def test_making_a_tracker_prints_no_library_config_dump() -> None:
    """boxmot's own handler printed 'INFO ByteTrack: det_thresh=0.3, ... variable_dt=True' between
    vidmem's ingest lines (issue 25); its records now go through vidmem's logging (WARNING by default)."""
    import subprocess
    import sys

    script = (
        "import logging\nlogging.basicConfig(level=logging.WARNING)\n"
        "from ingest.models.trackers import make_tracker\nfrom ingest.settings import IngestSettings\n"
        "make_tracker(IngestSettings().tracking, 'cpu')\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, check=True)
    assert "det_thresh" not in done.stderr + done.stdout, (done.stderr + done.stdout)[-500:]
