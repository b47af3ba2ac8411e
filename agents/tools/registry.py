"""The ordered tool registry: name -> tool class, and building the tools a run can use.

    TOOLS["when"]                                  # the class
    build_tools(ctx)                               # every tool that can run with ctx, in order
    build_tools(ctx, ["when", "count", "finish"])  # a subset (strategy sampling), in registry order
    build_tools(ctx, knowledge=kb, subagent=SubAgentSettings(summarize="never"))

Order is the order the planner's prompt lists the tools. Adding a tool is one class and one line.
"""

import logging
from collections.abc import Iterable

from agents.errors import AgentError
from agents.tools.base import Tool, ToolContext
from agents.tools.knowledge import KnowledgeBase, SearchDocuments
from agents.tools.sql_subagent import SqlSubAgent, SubAgentSettings
from agents.tools.subtasks import CountTool, HowTool, OtherTool, WhatTool, WhenTool, WhyTool
from agents.tools.video import (
    FindWhen,
    Finish,
    GetSegment,
    GetTranscript,
    QueryFrames,
    QueryTranscript,
    RetrievalQA,
    Think,
    VideoSummary,
)
from agents.tools.vision import CaptionFrames, CompareFrames, QueryVision

__all__ = ["SQL_TOOLS", "TOOLS", "VIDEO_TOOLS", "VISION_TOOLS", "build_tools", "tool_names"]

log = logging.getLogger(__name__)

_CLASSES: tuple[type[Tool], ...] = (
    # DoraemonGPT sub-task tools (SQL sub-agents)
    WhenTool, WhyTool, WhatTool, HowTool, CountTool, OtherTool,
    # MMCTAgent / CAVIAR video tools
    GetTranscript, QueryTranscript, QueryFrames, FindWhen, GetSegment, RetrievalQA, VideoSummary,
    # vision (VipAct and query_vision); need ctx.vision_llm
    QueryVision, CaptionFrames, CompareFrames,
    # user documents; need a knowledge base
    SearchDocuments,
    Think, Finish,
)  # fmt: skip

#: Every tool class by name, in prompt order.
TOOLS: dict[str, type[Tool]] = {cls.name: cls for cls in _CLASSES}

SQL_TOOLS = tuple(c.name for c in _CLASSES if issubclass(c, SqlSubAgent))
VIDEO_TOOLS = (
    "get_transcript", "query_transcript", "query_frames", "find_when", "get_segment", "retrieval_qa", "video_summary"
)
VISION_TOOLS = ("query_vision", "caption_frames", "compare_frames")


def tool_names() -> list[str]:
    return list(TOOLS)


def build_tools(
    ctx: ToolContext,
    names: Iterable[str] | None = None,
    *,
    knowledge: KnowledgeBase | None = None,
    subagent: SubAgentSettings | None = None,
    include_unavailable: bool = False,
) -> list[Tool]:
    """Tool instances in registry order. Without `names`: every tool that can run with `ctx` (no
    vision tools without a vision model, no query_frames without a CLIP encoder, no
    search_documents without `knowledge`). Named tools are built even when unavailable: their
    observations then say why. Unknown names raise AgentError."""
    wanted: set[str] | None = None
    if names is not None:
        wanted = set(names)
        unknown = sorted(wanted - set(TOOLS))
        if unknown:
            raise AgentError(f"unknown tools {unknown}; known: {', '.join(TOOLS)}")
    tools: list[Tool] = []
    for name, cls in TOOLS.items():
        if wanted is not None and name not in wanted:
            continue
        tool = _make(cls, knowledge=knowledge, subagent=subagent)
        check = getattr(tool, "unavailable", None)
        reason = check(ctx) if callable(check) else None
        if reason and wanted is None and not include_unavailable:
            log.info("tool %s left out: %s", name, reason)
            continue
        tools.append(tool)
    return tools


def _make(cls: type[Tool], *, knowledge: KnowledgeBase | None, subagent: SubAgentSettings | None) -> Tool:
    if issubclass(cls, SqlSubAgent):
        return cls(subagent)
    if cls is SearchDocuments:
        return SearchDocuments(knowledge)
    return cls()
