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
    from ingest import IngestSettings, Pipeline
    from memory import open_memory

    path = tmp_path_factory.mktemp("asr") / "asr.duckdb"
    pipeline = Pipeline(IngestSettings().only("asr"))
    with open_memory(path) as mem:
        for name in ("speech_sign", "speech_count"):
            result = pipeline.ingest(media[name], mem)
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
