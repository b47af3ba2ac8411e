"""ReAct planner: one reading call over the evidence brief, and when the brief is not enough one
chain of thought -> action -> observation steps within a step budget."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from agents.chain import Chain, ChainSettings, PlanResult
from agents.planner_base import BasePlanner, answered
from agents.tools.base import Tool, ToolContext
from agents.trace import SearchTree


@dataclass(frozen=True)
class ReactSettings:
    chain: ChainSettings = field(default_factory=ChainSettings)
    #: Answer from the evidence brief in one plain call first; the tools only when the model says
    #: what it lacks (`Chain.read`). Without a brief the chain starts at once.
    read_first: bool = True


class ReactPlanner(BasePlanner[ReactSettings]):
    name = "react"
    settings_type = ReactSettings

    def search(
        self, tree: SearchTree, tools: Sequence[Tool], ctx: ToolContext, choices: Sequence[str] | None
    ) -> PlanResult:
        chain = Chain(tools, ctx, self.settings.chain)
        if self.settings.read_first and ctx.brief:
            read = chain.read(tree, 0)
            if read.status == "answer":
                return answered(tree, read, choices)
        return answered(tree, chain.run(tree, 0), choices)
