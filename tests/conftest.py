"""Shared test fixtures: real media (generated once, cached) and memories ingested from it."""

import json
from pathlib import Path
from typing import Any

import pytest

from tests.fixtures.make_fixtures import ensure_fixtures

TRUTH_FILE = Path(__file__).parent / "fixtures" / "truth.json"


@pytest.fixture(scope="session")
def media() -> dict[str, Path]:
    """Name -> path of every fixture file (real sample videos, generated clips, bad inputs)."""
    return ensure_fixtures()


@pytest.fixture(scope="session")
def truth() -> dict[str, Any]:
    """Hand-checked facts about the fixture clips (tests/fixtures/truth.json)."""
    return json.loads(TRUTH_FILE.read_text())


@pytest.fixture(scope="session")
def asr_memory(media: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A DuckDB memory holding the two speech clips ingested with ASR only (read it, don't write)."""
    from ingest import IngestSettings, Pipeline, ingest_video
    from memory import open_memory

    path = tmp_path_factory.mktemp("asr") / "asr.duckdb"
    pipeline = Pipeline(IngestSettings().only("asr"))
    with open_memory(path) as mem:
        for name in ("speech_sign", "speech_count"):
            result = ingest_video(media[name], mem, pipeline)
            assert result.status == "ok", result.error
    return path


# ---------------------------------------------------------------- queries: memories with known answers


@pytest.fixture(scope="session")
def minilm() -> Any:
    """The real packaged all-MiniLM-L6-v2 as a `queries.Encoder` (tests/test_queries_data.py)."""
    from tests.test_queries_data import MiniLM

    return MiniLM()


@pytest.fixture(scope="session")
def known_memory(minilm: Any, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A DuckDB memory of hand-placed rows whose query answers are known (read it, don't write)."""
    from memory import open_memory
    from tests.test_queries_data import write_known

    path = tmp_path_factory.mktemp("queries") / "known.duckdb"
    with open_memory(path) as mem:
        write_known(mem, minilm)
    return path


# ---------------------------------------------------------------- vidmem serve: a memory to browse


XSS_TEXT = "<script>window.pwned = 1</script> hello <b>bold</b>"


@pytest.fixture(scope="session")
def serve_memory(media: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The speech_sign clip ingested with ASR, OCR, tracking and summaries (chapters and a summary
    written by the scripted chat endpoint of tests/test_summaries.py from the clip's real speech and
    signs), plus a video whose transcript holds HTML (`XSS_TEXT` at 1-2 s) and no summary, and a failed
    one (read it, don't write). No text embeddings: keyword search only, so that a query that matches
    nothing finds nothing."""
    import dataclasses

    from ingest import IngestSettings, ingest_video
    from memory import VideoRecord, VideoRows, open_memory, rows_table
    from tests.test_summaries import MODEL, _scripted_reply
    from tests.vision_endpoint import vision_server

    path = tmp_path_factory.mktemp("serve") / "serve.duckdb"
    base = IngestSettings().only("asr", "ocr", "tracking", "summaries")
    with open_memory(path) as mem, vision_server() as chat:
        chat.answer_for = _scripted_reply
        summaries = dataclasses.replace(base.summaries, model=MODEL, base_url=chat.url)
        result = ingest_video(media["speech_sign"], mem, dataclasses.replace(base, summaries=summaries))
        assert result.status == "ok", result.error
        assert result.roles["summaries"] == "ran", result.roles
        vid = "vxss0000000000000"
        segment = {"segment_id": 0, "start_s": 1.0, "end_s": 2.0, "text": XSS_TEXT}
        record = VideoRecord(vid, str(media["speech_count"]), "ok", duration_s=6.0, width=640, height=360)
        # one track with a square mask inside its box, every half second: the player fills masks
        track = {"track_id": 1, "category": "ball", "first_s": 0.0, "last_s": 3.0, "num_detections": 7}
        mask = json.dumps([[150, 150], [250, 150], [250, 250], [150, 250]])
        boxes = [
            {"track_id": 1, "frame_index": int(t * 25), "t_s": t, "x1": 100.0, "y1": 100.0, "x2": 300.0, "y2": 300.0,
             "confidence": 0.9, "category": "ball", "mask_polygon": mask}
            for t in (0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0)
        ]  # fmt: skip
        mem.write_video(VideoRows(record, {
            "transcript": rows_table("transcript", [segment], vid),
            "tracks": rows_table("tracks", [track], vid),
            "detections": rows_table("detections", boxes, vid),
        }))  # fmt: skip
        missing = str(media["bad_missing"])
        mem.record_failure(VideoRecord("vfailed0000000000", missing, "failed", error="no video stream"))
    return path


# ---------------------------------------------------------------- the generated question set (bench/qset)


@pytest.fixture(scope="session")
def qset_videos() -> dict[str, Path]:
    """Name -> path of the question set's videos (bench/qset, built once and cached)."""
    from bench.qset import ensure_videos

    return ensure_videos()


@pytest.fixture(scope="session")
def qset_memory(qset_videos: dict[str, Path]) -> Path:
    """Every question-set video ingested with ASR, OCR and text embeddings (bench.qset.TEXT_ROLES),
    cached beside the videos: the rows a question's evidence names (read it, don't write)."""
    from bench.qset import TEXT_ROLES, ensure_memory

    return ensure_memory(qset_videos.values(), TEXT_ROLES)
