"""Tools the planners call: SQL sub-agents, video and vision tools, knowledge search.

One base (`Tool` with typed `ToolInput`s declared with `takes`, and `ToolContext`, in `base`); the
ordered registry in `registry`.
"""

from agents.tools.base import Tool, ToolContext, ToolInput, takes
from agents.tools.format import DATA_RULE, quote_data
from agents.tools.knowledge import DocumentIndex, KnowledgeBase, Passage, SearchDocuments
from agents.tools.registry import SQL_TOOLS, TOOLS, VIDEO_TOOLS, VISION_TOOLS, build_tools, tool_names
from agents.tools.sql_subagent import SqlExample, SqlSubAgent, SubAgentSettings, SubTask

__all__ = [
    "DATA_RULE",
    "SQL_TOOLS",
    "TOOLS",
    "VIDEO_TOOLS",
    "VISION_TOOLS",
    "DocumentIndex",
    "KnowledgeBase",
    "Passage",
    "SearchDocuments",
    "SqlExample",
    "SqlSubAgent",
    "SubAgentSettings",
    "SubTask",
    "Tool",
    "ToolContext",
    "ToolInput",
    "build_tools",
    "quote_data",
    "takes",
    "tool_names",
]
