"""ReAct planner: one reading call over the evidence brief, and when the brief is not enough one
chain of thought -> action -> observation steps within a step budget."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from agents.chain import Chain, ChainSettings, PlanResult
from agents.planners.base import BasePlanner, answered
from agents.tools.base import Tool, ToolContext
from agents.trace import SearchTree


@dataclass(frozen=True)
class ReactSettings:
    #: `chain.read_first` (on by default): the reading call over the brief comes first.
    chain: ChainSettings = field(default_factory=ChainSettings)


class ReactPlanner(BasePlanner[ReactSettings]):
    name = "react"
    settings_type = ReactSettings

    def search(
        self, tree: SearchTree, tools: Sequence[Tool], ctx: ToolContext, choices: Sequence[str] | None
    ) -> PlanResult:
        return answered(tree, Chain(tools, ctx, self.settings.chain).start(tree), choices)
