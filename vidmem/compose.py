"""Wiring packages together for the commands that need more than one: the agents' tool context
gets a read-only memory, the chat models from the environment, and ingest's query-time encoders
(injected, so that agents and queries never import ingest)."""

import logging
from dataclasses import replace
from pathlib import Path
from typing import Any

from agents.client import LLMSettings, OpenAIChat, vision_chat_from_env
from agents.planner import AgentSettings
from agents.tools.base import ToolContext
from ingest import IngestSettings
from ingest.models.encoders import ClipTextEncoder, TextEncoder
from memory import Memory, StoreError

log = logging.getLogger(__name__)


def encoders(settings: IngestSettings) -> dict[str, Any]:
    """Query-time encoders that can run here, by role ('text', 'clip')."""
    found: dict[str, Any] = {}
    text = TextEncoder(settings.text_embeddings.model, settings.device)
    clip = ClipTextEncoder(settings.clip, settings.device)
    for role, enc in (("text", text), ("clip", clip)):
        avail = enc.availability()
        if avail.ok and avail.source != "download":
            found[role] = enc
        else:
            log.info("no %s encoder for semantic search: %s", role, avail.detail)
    return found


def tool_context(memory: Memory, settings: IngestSettings, video_id: str | None = None) -> ToolContext:
    llm = OpenAIChat(LLMSettings.from_env())
    return ToolContext(memory, llm, video_id, encoders(settings), vision_chat_from_env())


def resolve_video(memory: Memory, ref: str | None) -> str | None:
    """A video id from an id, a path (as ingested), or a file name; None for the whole memory."""
    if not ref:
        return None
    rows = memory.query(
        "SELECT video_id FROM videos WHERE status = 'ok' AND (video_id = ? OR path = ? OR path LIKE ?)",
        [ref, str(Path(ref).expanduser().resolve()), f"%/{Path(ref).name}"],
    ).to_pylist()
    ids = sorted({r["video_id"] for r in rows})
    if len(ids) == 1:
        return str(ids[0])
    if not ids:
        raise StoreError(f"no ingested video matches {ref!r}: ingest it first (vidmem ingest {ref})")
    raise StoreError(f"{ref!r} matches several videos {ids}: give the video_id")


def agent_settings(
    *,
    max_steps: int | None = None,
    mcts_n: int | None = None,
    critic_rounds: int | None = None,
    brief_tokens: int | None = None,
    tools_first: bool = False,
) -> AgentSettings:
    """Planner budgets from the command line: steps per chain for every planner, MCTS's N, critic
    rounds, the evidence brief's tokens, and whether chains skip the brief reading (tools first)."""
    s = AgentSettings() if brief_tokens is None else AgentSettings(brief_tokens=brief_tokens)
    if max_steps is not None:
        s = s.with_chain(max_steps=max_steps)
    if tools_first:
        s = s.with_chain(read_first=False)
    if mcts_n is not None:
        s = replace(s, mcts=replace(s.mcts, n_solutions=mcts_n))
    if critic_rounds is not None:
        s = replace(s, critic=replace(s.critic, max_rounds=critic_rounds))
    return s
