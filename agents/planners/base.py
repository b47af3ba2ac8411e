"""What every planner shares: its settings (a frozen dataclass, defaulted), a metered context, and
a search tree rooted at the question; a planner only says how it searches that tree.

    class ReactPlanner(BasePlanner[ReactSettings]):
        name = "react"
        settings_type = ReactSettings

        def search(self, tree, tools, ctx, choices):
            leaf = Chain(tools, ctx, self.settings.chain).start(tree)  # reads the brief first (read_first)
            return answered(tree, leaf, choices)
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar, Generic, TypeVar

from agents.chain import PlanResult, metered, question_text
from agents.choices import match_choice
from agents.tools.base import Tool, ToolContext
from agents.trace import Node, SearchTree

S = TypeVar("S")


class BasePlanner(ABC, Generic[S]):
    """A planner: `plan` prepares the run (settings, metering, tree) and `search` does the rest."""

    name: ClassVar[str]
    #: The settings class; `settings_type()` are the defaults.
    settings_type: ClassVar[type[Any]]

    def __init__(self, settings: S | None = None) -> None:
        self.settings: S = settings if settings is not None else self.settings_type()

    def plan(
        self, question: str, tools: Sequence[Tool], ctx: ToolContext, *, choices: Sequence[str] | None = None
    ) -> PlanResult:
        """Answer `question` (listing `choices`, when given) with `tools`. Model mistakes end up in
        the tree; only vidmem bugs and an unusable endpoint raise."""
        ctx = metered(ctx)  # the tools' sub-agent calls count toward the answer too
        tree = SearchTree(question_text(question, choices, ctx.video_id))
        return self.search(tree, tools, ctx, choices)

    @abstractmethod
    def search(
        self, tree: SearchTree, tools: Sequence[Tool], ctx: ToolContext, choices: Sequence[str] | None
    ) -> PlanResult:
        """Grow `tree` (its root is the question) into an answer; `ctx` is already metered."""


def answered(tree: SearchTree, leaf: Node, choices: Sequence[str] | None) -> PlanResult:
    """The result of one chain that ended at `leaf`: its answer (and choice), or none."""
    if leaf.status != "answer":
        return PlanResult(None, tree)
    choice = match_choice(leaf.answer or "", choices) if choices else None
    return PlanResult(leaf.answer, tree, (leaf.id,), choice)
