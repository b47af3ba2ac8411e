"""Wiring packages together for the commands that need more than one: the agents' tool context
gets a read-only memory, the chat models from the environment, and ingest's query-time encoders
(injected, so that agents and queries never import ingest)."""

import logging
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import queries
from agents.client import LLMSettings, OpenAIChat, vision_chat_from_env
from agents.planners import AgentSettings
from agents.tools.base import ToolContext
from ingest import IngestSettings
from ingest.models.encoders import ClipTextEncoder, TextEncoder
from memory import Memory

log = logging.getLogger(__name__)


def encoders(settings: IngestSettings, roles: Sequence[str] = ("text", "clip")) -> dict[str, Any]:
    """Query-time encoders that can run here, of `roles` ('text': sentences, 'clip': CLIP's text tower)."""
    found: dict[str, Any] = {}
    made: dict[str, Callable[[], Any]] = {"text": lambda: TextEncoder(settings.text_embeddings.model, settings.device),
            "clip": lambda: ClipTextEncoder(settings.clip, settings.device)}  # fmt: skip
    for role in roles:
        enc = made[role]()
        avail = enc.availability()
        if avail.ok and avail.source != "download":
            found[role] = enc
        else:
            log.info("no %s encoder for semantic search: %s", role, avail.detail)
    return found


def tool_context(memory: Memory, settings: IngestSettings, video_id: str | None = None) -> ToolContext:
    llm = OpenAIChat(LLMSettings.from_env())
    # CLIP's text tower only where frames were embedded: checking it imports open_clip (4.5 s of a
    # 21 s `vidmem ask` on 2 cores), for a search that would find nothing
    roles = ("text", "clip") if queries.has_frame_vectors(memory) else ("text",)
    return ToolContext(memory, llm, video_id, encoders(settings, roles), vision_chat_from_env())


def resolve_video(memory: Memory, ref: str | None) -> str | None:
    """A video id from an id, a path (as ingested), or a file name; None for the whole memory."""
    return queries.resolve_video(memory, ref) if ref else None


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
