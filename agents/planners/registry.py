"""The planner interface and the ordered registry of planners.

A planner answers one question over a tool set and returns the tree it searched. Adding one is a
new module in agents/planners/ with a `BasePlanner` subclass like these and one line in `PLANNERS`;
it runs on its settings' defaults until it gets a field in `AgentSettings` (named like the planner),
which the command line's budget flags (`with_chain`) then reach too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Protocol

from agents.chain import PlanResult
from agents.choices import ChoiceSettings
from agents.errors import AgentError
from agents.planners.base import BasePlanner
from agents.planners.critic import CriticPlanner, CriticSettings
from agents.planners.mcts import MctsPlanner, MctsSettings
from agents.planners.react import ReactPlanner, ReactSettings
from agents.planners.self_consistency import SelfConsistencyPlanner, SelfConsistencySettings
from agents.planners.strategies import StrategyPlanner, StrategySettings
from agents.tools.base import Tool, ToolContext


class Planner(Protocol):
    name: ClassVar[str]

    def plan(
        self, question: str, tools: Sequence[Tool], ctx: ToolContext, *, choices: Sequence[str] | None = None
    ) -> PlanResult:
        """Answer `question` (listing `choices`, when given) with `tools`. Model mistakes end up in
        the tree; only vidmem bugs and an unusable endpoint raise."""
        ...


#: In the order `vidmem ask --planner` lists them.
PLANNERS: tuple[type[BasePlanner[Any]], ...] = (
    ReactPlanner,
    MctsPlanner,
    CriticPlanner,
    StrategyPlanner,
    SelfConsistencyPlanner,
)
PLANNER_NAMES = tuple(p.name for p in PLANNERS)


@dataclass(frozen=True)
class AgentSettings:
    """Each planner's settings (field named like the planner) and the multiple-choice settings."""

    react: ReactSettings = field(default_factory=ReactSettings)
    mcts: MctsSettings = field(default_factory=MctsSettings)
    critic: CriticSettings = field(default_factory=CriticSettings)
    strategies: StrategySettings = field(default_factory=StrategySettings)
    self_consistency: SelfConsistencySettings = field(default_factory=SelfConsistencySettings)
    choices: ChoiceSettings = field(default_factory=ChoiceSettings)
    #: Budget of the evidence brief every chain starts from (agents/brief.py); 0 builds none.
    brief_tokens: int = 600

    def __post_init__(self) -> None:
        if isinstance(self.brief_tokens, bool) or not isinstance(self.brief_tokens, int) or self.brief_tokens < 0:
            raise AgentError(f"brief_tokens must be an integer >= 0 (0: no brief), got {self.brief_tokens!r}")

    def with_chain(self, **changes: Any) -> AgentSettings:
        """These settings with `changes` (e.g. max_steps=4) made to every planner's chain; the
        per-choice verification chain keeps its own budget.

        >>> AgentSettings().with_chain(max_steps=3).mcts.chain.max_steps
        3
        """
        return replace(
            self, **{name: replace(getattr(self, name), chain=replace(getattr(self, name).chain, **changes))
                     for name in PLANNER_NAMES if hasattr(self, name)}
        )  # fmt: skip


def make_planner(name: str, settings: AgentSettings | None = None) -> Planner:
    """The planner called `name`, built with its part of `settings`.

    >>> make_planner("mcts").settings.n_solutions
    4
    """
    settings = settings or AgentSettings()
    for cls in PLANNERS:
        if cls.name == name:
            own: Any = getattr(settings, name, None)  # a planner without a field here runs on its defaults
            planner: Planner = cls(own)
            return planner
    raise AgentError(f"unknown planner {name!r}; choose one of: {', '.join(PLANNER_NAMES)}")
