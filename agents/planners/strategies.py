"""Strategy sampling (CAVIAR): the same question answered by several strategies that differ in
their tools, then a critic reads every trace and picks the winning strategies; their shared answer
wins (the answer itself when the winners agree, else a summary of the winners' answers, or a vote
among them for a multiple-choice question).

The critic sees only the strategies that answered and judges each on its own (YES or NO, with why);
those judged YES win. When at most one strategy answers there is nothing to choose and the critic
is not called; when it judges none YES (or its reply is unreadable), every answer counts.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from agents.chain import Chain, ChainSettings, PlanResult, call, planner_step
from agents.errors import AgentError
from agents.llm import Message
from agents.parsing import parse_fields
from agents.planners.base import BasePlanner
from agents.planners.consensus import summarize, vote
from agents.planners.critic import trace_text
from agents.prompts import prompt
from agents.tools.base import Tool, ToolContext
from agents.tools.registry import SQL_TOOLS, VIDEO_TOOLS, VISION_TOOLS
from agents.trace import Node, SearchTree

#: Tools every strategy keeps when they are available.
COMMON_TOOLS = ("think", "finish")


@dataclass(frozen=True)
class Strategy:
    """A named tool subset. `tools` None: every tool."""

    name: str
    tools: tuple[str, ...] | None = None

    def select(self, tools: Sequence[Tool]) -> list[Tool]:
        if self.tools is None:
            return list(tools)
        wanted = set(self.tools) | set(COMMON_TOOLS)
        return [t for t in tools if t.name in wanted]


DEFAULT_STRATEGIES = (
    Strategy("sql", SQL_TOOLS),  # DoraemonGPT: sub-task tools that write SQL
    Strategy("video", VIDEO_TOOLS + VISION_TOOLS),  # MMCTAgent / CAVIAR: transcript, frame and vision tools
    Strategy("all"),
)


@dataclass(frozen=True)
class StrategySettings:
    strategies: tuple[Strategy, ...] = DEFAULT_STRATEGIES
    critic_tokens: int = 250
    trace_chars: int = 1200  # per strategy, in the critic's prompt
    summary_tokens: int = 200
    chain: ChainSettings = field(default_factory=lambda: ChainSettings(max_steps=4))

    def __post_init__(self) -> None:
        names = [s.name for s in self.strategies]
        if not names or len(set(names)) != len(names):
            raise AgentError(f"strategies need distinct names, at least one; got {names}")


_VERDICT_LINE = re.compile(r"^[\W_]*strategy\s*(\d+)[^:\n]*:[\s*_]*(yes|no)\b", re.I | re.M)


def parse_winners(text: str, count: int) -> list[int]:
    """0-based indices of the strategies judged YES (`Strategy 2: YES ...` lines), or else named on a
    `Winners: 1, 3` line; only numbers within 1..`count` count.

    >>> parse_winners("Strategy 1: NO, guessed\\nStrategy 2: **YES** cites 4.1 s\\nStrategy 3: yes", 3)
    [1, 2]
    >>> parse_winners("Reasoning: ...\\nWinners: **2** and 3", 3)
    [1, 2]
    """
    verdicts = _VERDICT_LINE.findall(text)
    if verdicts:
        numbers = [n for n, said in verdicts if said.lower() == "yes"]
    else:
        fields = parse_fields(text, ["Winners", "Winner"])
        numbers = re.findall(r"\d+", fields.get("Winners", fields.get("Winner", "")))
    out: list[int] = []
    for i in (int(n) - 1 for n in numbers):
        if 0 <= i < count and i not in out:
            out.append(i)
    return out


class StrategyPlanner(BasePlanner[StrategySettings]):
    name = "strategies"
    settings_type = StrategySettings

    def search(
        self, tree: SearchTree, tools: Sequence[Tool], ctx: ToolContext, choices: Sequence[str] | None
    ) -> PlanResult:
        s = self.settings
        runs: list[tuple[Strategy, Node]] = []
        for strategy in s.strategies:
            subset = strategy.select(tools)
            if not [t for t in subset if t.name not in COMMON_TOOLS]:
                continue  # none of its tools is available here
            chain = Chain(subset, ctx, s.chain)
            leaf = chain.run(tree, 0, label=strategy.name)
            runs.append((strategy, leaf))
        if not runs:
            raise AgentError(f"no strategy has any of its tools among {[t.name for t in tools]}")
        answered = [i for i, (_, leaf) in enumerate(runs) if leaf.status == "answer"]
        if not answered:
            return PlanResult(None, tree)
        winners = answered if len(answered) == 1 else self.pick(tree, runs, answered, ctx)
        leaves = [runs[i][1] for i in winners]
        if choices:
            return vote(tree, leaves, choices)
        return summarize(tree, leaves, ctx, s.summary_tokens)

    def pick(
        self, tree: SearchTree, runs: list[tuple[Strategy, Node]], answered: list[int], ctx: ToolContext
    ) -> list[int]:
        """The critic's winners among the strategies that answered (only those are shown to it)."""
        s = self.settings
        blocks = []
        for shown, i in enumerate(answered, 1):
            strategy, leaf = runs[i]
            trace = trace_text(tree, leaf.id, s.trace_chars)
            blocks.append(f"Strategy {shown} ({strategy.name}):\n{trace}\nAnswer: {leaf.answer}")
        messages = [
            Message("system", prompt("planner:strategy_critic").text),
            Message("user", tree.question + "\n\n" + "\n\n".join(blocks)),
        ]
        text, usage = call(ctx, messages, max_tokens=s.critic_tokens)
        picked = [answered[k] for k in parse_winners(text, len(answered))]
        node = tree.add(0, "judge", planner_step("pick_strategies", "", text, usage), label="critic")
        if picked:
            node.note = "winners: " + ", ".join(runs[i][0].name for i in picked)
            return picked
        node.note = "no strategy judged YES: every strategy that answered counts"
        return answered
