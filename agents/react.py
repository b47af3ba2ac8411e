"""ReAct planner: one chain of thought -> action -> observation steps within a step budget."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from agents.chain import Chain, ChainSettings, PlanResult, metered, question_text
from agents.choices import match_choice
from agents.tools.base import Tool, ToolContext
from agents.trace import SearchTree


@dataclass(frozen=True)
class ReactSettings:
    chain: ChainSettings = field(default_factory=ChainSettings)


class ReactPlanner:
    name: ClassVar[str] = "react"

    def __init__(self, settings: ReactSettings | None = None) -> None:
        self.settings = settings or ReactSettings()

    def plan(
        self, question: str, tools: Sequence[Tool], ctx: ToolContext, *, choices: Sequence[str] | None = None
    ) -> PlanResult:
        ctx = metered(ctx)
        tree = SearchTree(question_text(question, choices, ctx.video_id))
        leaf = Chain(tools, ctx, self.settings.chain).run(tree, 0)
        if leaf.status != "answer":
            return PlanResult(None, tree)
        choice = match_choice(leaf.answer or "", choices) if choices else None
        return PlanResult(leaf.answer, tree, (leaf.id,), choice)
