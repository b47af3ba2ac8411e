"""vidmem.compose: what a question's tool context is wired with."""

from pathlib import Path
from typing import Any

import pytest

import queries
from ingest import IngestSettings
from memory import open_memory
from vidmem import compose


@pytest.mark.parametrize("frames", [True, False])
def test_clip_is_wired_only_where_frames_were_embedded(
    known_memory: Path, tmp_path: Path, monkeypatch: Any, frames: bool
) -> None:
    """Checking CLIP's availability imports open_clip (4.5 s of a 21 s `vidmem ask` on 2 cores): a memory
    without frame embeddings gets the sentence encoder alone."""
    monkeypatch.setenv("VIDMEM_LLM_MODEL", "local")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    asked: list[tuple[str, ...]] = []

    def encoders(settings: IngestSettings, roles: tuple[str, ...] = ("text", "clip")) -> dict[str, Any]:
        asked.append(tuple(roles))
        return {}

    monkeypatch.setattr(compose, "encoders", encoders)
    path = known_memory if frames else tmp_path / "empty.duckdb"
    with open_memory(path, read_only=frames) as memory:
        assert queries.has_frame_vectors(memory) is frames
        compose.tool_context(memory, IngestSettings())
    assert asked == [("text", "clip") if frames else ("text",)]
