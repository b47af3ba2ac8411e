"""Self-consistency (Wang et al., 2023): N ReAct chains sampled at a temperature above zero, then a
vote. The baseline MCTS must beat: the same number of chains without the tree search.

Each sample is an independent chain from the question, hung under the root (labelled `sample i`):
like react's, it first reads the evidence brief (at the sampling temperature too) and takes the
tools only when that reading asks for a lookup.
Free answers are merged like MCTS's (`consensus.merge`: grouped by what they say, weighed by the
rows that support them, a summary call only on a tie); multiple choice is a vote over the choices.
Like MCTS, sampling stops once the first `agree_stop` samples agree (0: always N), so that the two
planners differ only in how they search.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from agents.chain import Chain, ChainSettings, PlanResult
from agents.errors import AgentError
from agents.planners.base import BasePlanner
from agents.planners.consensus import agree, merge, vote
from agents.tools.base import Tool, ToolContext
from agents.trace import Node, SearchTree


@dataclass(frozen=True)
class SelfConsistencySettings:
    n_samples: int = 3  # N: chains sampled
    temperature: float = 0.7  # every step of every sample is sampled at this temperature
    agree_stop: int = 2  # stop once this many first samples answered the same (0: always N)
    summary_tokens: int = 200
    chain: ChainSettings = field(default_factory=lambda: ChainSettings(max_steps=5))

    def __post_init__(self) -> None:
        if self.n_samples < 1 or self.temperature <= 0 or self.agree_stop < 0 or self.agree_stop == 1:
            raise AgentError(
                "self-consistency needs n_samples >= 1, temperature > 0 and agree_stop 0 or >= 2; got "
                f"{self.n_samples}, {self.temperature}, {self.agree_stop}"
            )


class SelfConsistencyPlanner(BasePlanner[SelfConsistencySettings]):
    name = "self_consistency"
    settings_type = SelfConsistencySettings

    def search(
        self, tree: SearchTree, tools: Sequence[Tool], ctx: ToolContext, choices: Sequence[str] | None
    ) -> PlanResult:
        s = self.settings
        chain = Chain(tools, ctx, replace(s.chain, temperature=s.temperature))
        leaves: list[Node] = []
        for i in range(s.n_samples):
            leaves.append(chain.start(tree, label=f"sample {i + 1}"))
            if s.agree_stop and len(leaves) == s.agree_stop and agree(leaves, choices):
                tree.root.note = f"stopped early: the first {len(leaves)} samples agree"
                break
        answers = [leaf for leaf in leaves if leaf.status == "answer"]
        if not answers:
            return PlanResult(None, tree)
        if choices:
            return vote(tree, answers, choices)
        return merge(tree, answers, ctx, s.summary_tokens)
