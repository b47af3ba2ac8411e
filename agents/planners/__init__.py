"""Planners: how a question is searched for an answer over the tools.

A planner takes a question (and its choices, when it is multiple choice), a tool set and a
`ToolContext`, and returns a `PlanResult`: the answer and the `SearchTree` it grew to find it.
Every planner is a `BasePlanner` subclass (`base.py`) with a `name`, a frozen settings dataclass and
one `search` method; the thought -> action -> observation chain they all run lives in
`agents/chain.py`, shared with the per-choice verification of `agents/choices.py`.

The registry (`registry.py`) lists them in order (`PLANNERS`, the order `vidmem ask --planner`
shows) and builds one by name (`make_planner`); `AgentSettings` holds each planner's settings in a
field named like the planner. Adding a planner = one module here + one registry line; it runs on
its settings' defaults until it also gets a field in `AgentSettings`.

>>> make_planner("react").name
'react'
"""

from agents.planners.base import BasePlanner
from agents.planners.critic import CriticSettings
from agents.planners.mcts import MctsSettings
from agents.planners.react import ReactSettings
from agents.planners.registry import PLANNER_NAMES, PLANNERS, AgentSettings, Planner, make_planner
from agents.planners.self_consistency import SelfConsistencySettings
from agents.planners.strategies import Strategy, StrategySettings

__all__ = [
    "PLANNERS",
    "PLANNER_NAMES",
    "AgentSettings",
    "BasePlanner",
    "CriticSettings",
    "MctsSettings",
    "Planner",
    "ReactSettings",
    "SelfConsistencySettings",
    "Strategy",
    "StrategySettings",
    "make_planner",
]
