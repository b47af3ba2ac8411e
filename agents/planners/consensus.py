"""Several answers to one question made into one: a vote over the choices, or for a free answer
the answers grouped by what they say and weighed by the evidence they rest on.

Two answers say the same when their words match (`normalize_answer`) or they give the same numbers
("7.73 s" and "at 7.73 seconds"). An answer's support is the share of its numbers and content words
that the rows on its path hold (0 without rows): an answer read off the memory outweighs a guess.
A group weighs its members' 1 + support; the heaviest group's best-supported answer wins and the
evidence of every member backs it. Only when groups tie does an LLM summary decide.

    agree(leaves, choices)                 # the early stop of MCTS and self-consistency
    merge(tree, leaves, ctx, max_tokens)   # MCTS, self-consistency
    vote(tree, leaves, choices)            # multiple choice
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from agents.chain import PlanResult, call, planner_step
from agents.choices import match_choice, normalize_answer
from agents.llm import Message
from agents.prompts import prompt
from agents.steps import Evidence
from agents.tools.base import ToolContext
from agents.trace import Node, SearchTree

_NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?")
_WORD = re.compile(r"[a-z][a-z'-]{3,}")
_FILLER = frozenset(
    {"the", "this", "that", "there", "they", "their", "with", "from", "about", "what", "when", "which", "where"}
    | {"answer", "video", "memory", "seconds", "second", "says", "said", "shown", "time", "times", "between"}
    | {"until", "after", "before", "into", "onto", "does", "have", "been", "were", "also", "only"}
)


def numbers(text: str) -> frozenset[float]:
    """The numbers an answer gives, rounded to 0.1 (times and counts).

    >>> sorted(numbers("From 7.73 s to 10.85 s, 2 people"))
    [2.0, 7.7, 10.8]
    """
    return frozenset(round(float(n) - 1e-9, 1) for n in _NUMBER.findall(text))


def same_answer(a: str, b: str, choices: Sequence[str] | None = None) -> bool:
    """Do two answers say the same? For multiple choice: they name the same choice.

    >>> same_answer("7.73 s", "At 7.73 seconds."), same_answer("7.73 s", "8 s")
    (True, False)
    >>> same_answer("B", "(b) people", ["trains", "people"])
    True
    """
    if choices:
        pick = match_choice(a, choices)
        return pick is not None and pick == match_choice(b, choices)
    if normalize_answer(a) == normalize_answer(b):
        return True
    na = numbers(a)
    return bool(na) and na == numbers(b)


def support(answer: str, evidence: Sequence[Evidence]) -> float:
    """The share of the answer's numbers and content words that its evidence rows hold, in [0, 1].

    >>> ev = Evidence("when", rows=({"start_s": 7.73, "text": "Please count the people"},))
    >>> support("7.73 s, count the people", [ev]), support("8 s", [ev]), support("7.73 s", [])
    (1.0, 0.0, 0.0)
    """
    said_numbers = numbers(answer)
    said_words = {w for w in _WORD.findall(answer.lower()) if w not in _FILLER}
    if not evidence or not (said_numbers or said_words):
        return 0.0
    held = " ".join(json.dumps(row, default=str).lower() for ev in evidence for row in ev.rows)
    held += " " + " ".join(str(t) for ev in evidence for t in ev.times_s)
    held_numbers = numbers(held)
    found = sum(any(abs(n - h) <= 0.15 for h in held_numbers) for n in said_numbers)
    found += sum(w in held for w in said_words)
    return found / (len(said_numbers) + len(said_words))


def agree(leaves: Sequence[Node], choices: Sequence[str] | None = None) -> bool:
    """Did every chain ending at `leaves` answer, and do the answers say the same?"""
    if not leaves or any(leaf.status != "answer" for leaf in leaves):
        return False
    first = leaves[0].answer or ""
    return all(same_answer(first, leaf.answer or "", choices) for leaf in leaves[1:])


@dataclass(frozen=True)
class Group:
    """Answers that say the same; `best` is the best-supported member."""

    members: tuple[Node, ...]
    supports: tuple[float, ...]

    @property
    def weight(self) -> float:
        return sum(1.0 + s for s in self.supports)

    @property
    def best(self) -> Node:
        return self.members[max(range(len(self.members)), key=lambda i: (self.supports[i], -i))]


def group_answers(tree: SearchTree, leaves: Sequence[Node], choices: Sequence[str] | None = None) -> list[Group]:
    """The leaves grouped by what they say (first-seen order), each with its support."""
    groups: list[list[Node]] = []
    for leaf in leaves:
        home = next((g for g in groups if same_answer(g[0].answer or "", leaf.answer or "", choices)), None)
        if home is None:
            groups.append([leaf])
        else:
            home.append(leaf)
    return [Group(tuple(g), tuple(support(n.answer or "", tree.evidence((n.id,))) for n in g)) for g in groups]


def merge(tree: SearchTree, leaves: Sequence[Node], ctx: ToolContext, max_tokens: int) -> PlanResult:
    """One free answer from several (see the module docstring); a summary call only on a tie."""
    groups = group_answers(tree, leaves)
    ranked = sorted(groups, key=lambda g: -g.weight)  # stable: equal weights keep first-seen order
    top = ranked[0]
    node = tree.add(0, "vote", label="final")
    node.note = "groups: " + "; ".join(f"{g.best.answer!r} x{len(g.members)} weight {g.weight:.2f}" for g in ranked)
    if len(ranked) > 1 and abs(ranked[1].weight - top.weight) < 1e-9:
        tied = [g for g in ranked if abs(g.weight - top.weight) < 1e-9]
        node.note += " (tie: summarized)"
        return summarize(tree, [g.best for g in tied], ctx, max_tokens, parent=node.id)
    node.status, node.answer = "answer", top.best.answer
    return PlanResult(top.best.answer, tree, tuple(n.id for n in top.members))


def vote(tree: SearchTree, leaves: Sequence[Node], choices: Sequence[str]) -> PlanResult:
    """The choice most answers name (ties: the one named first); answers naming no choice do not vote."""
    picks = {leaf.id: match_choice(leaf.answer or "", choices) for leaf in leaves}
    counts = Counter(c for c in picks.values() if c is not None)
    node = tree.add(0, "vote", label="final")
    if not counts:
        node.note = "no answer names a choice"
        node.status, node.answer = "answer", leaves[0].answer
        return PlanResult(leaves[0].answer, tree, (leaves[0].id,))
    best = max(counts, key=lambda c: counts[c])  # Counter keeps first-seen order; max keeps the first of ties
    node.note = "votes: " + ", ".join(f"{chr(65 + c)}={n}" for c, n in sorted(counts.items()))
    node.status, node.answer = "answer", choices[best]
    voters = tuple(lid for lid, c in picks.items() if c == best)
    return PlanResult(choices[best], tree, voters, best)


def summarize(
    tree: SearchTree, leaves: Sequence[Node], ctx: ToolContext, max_tokens: int, *, parent: int = 0
) -> PlanResult:
    """One answer from several: as is when they agree, else an LLM summary of the candidates."""
    ids = tuple(leaf.id for leaf in leaves)
    distinct = {normalize_answer(leaf.answer or "") for leaf in leaves}
    if len(distinct) == 1:
        return PlanResult(leaves[0].answer, tree, ids)
    listing = "\n".join(f"{i}. {leaf.answer}" for i, leaf in enumerate(leaves, 1))
    messages = [
        Message("system", prompt("planner:summary").text),
        Message("user", f"{tree.question}\n\nAttempts:\n{listing}"),
    ]
    text, usage = call(ctx, messages, max_tokens=max_tokens)
    answer = text.strip() or (leaves[0].answer or "")
    node = tree.add(parent, "summary", planner_step("summarize", "", answer, usage), label="final")
    node.status, node.answer = "answer", answer
    return PlanResult(answer, tree, ids)
