"""Agents: natural-language questions answered by planning over the SQL memory.

>>> from agents import ask                                             # doctest: +SKIP
>>> answer = ask("When is the train mentioned?", ctx, planner="react")  # doctest: +SKIP
"""

from agents.answer import NO_ANSWER, Answer, ask
from agents.chain import ChainSettings, PlanResult
from agents.choices import ChoiceSettings
from agents.errors import AgentError, GuardError, LLMError, ModelOutputError, SQLRunError
from agents.guard import GuardedSQL, guarded
from agents.llm import ChatModel, Completion, Message
from agents.planners import (
    PLANNER_NAMES,
    PLANNERS,
    AgentSettings,
    BasePlanner,
    CriticSettings,
    MctsSettings,
    Planner,
    ReactSettings,
    SelfConsistencySettings,
    Strategy,
    StrategySettings,
    make_planner,
)
from agents.steps import Evidence, Observation, Step, Usage
from agents.tools.base import Tool, ToolContext, ToolInput
from agents.trace import Node, SearchTree, render_tree

__all__ = [
    "NO_ANSWER",
    "PLANNERS",
    "PLANNER_NAMES",
    "AgentError",
    "AgentSettings",
    "Answer",
    "BasePlanner",
    "ChainSettings",
    "ChatModel",
    "ChoiceSettings",
    "Completion",
    "CriticSettings",
    "Evidence",
    "GuardError",
    "GuardedSQL",
    "LLMError",
    "MctsSettings",
    "Message",
    "ModelOutputError",
    "Node",
    "Observation",
    "PlanResult",
    "Planner",
    "ReactSettings",
    "SQLRunError",
    "SearchTree",
    "SelfConsistencySettings",
    "Step",
    "Strategy",
    "StrategySettings",
    "Tool",
    "ToolContext",
    "ToolInput",
    "Usage",
    "ask",
    "guarded",
    "make_planner",
    "render_tree",
]
