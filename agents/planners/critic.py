"""Critic loop (MMCTAgent): a chain answers, a critic reviews the whole trace, and on NO its
feedback goes back into the chain, which goes on to a better answer; at most `max_rounds` reviews.

The critic judges against fixed criteria: is the question answered fully, partially or not; is the
evidence in the observations actually used; does the answer say anything the observations do not
support. It reads the trace and, below it, the rows from the memory the answer rests on (each with
the SQL or tool that produced it), so it checks the answer against data, not against the chain's
own words. Its reply is read tolerantly, but only a YES approves: an answer whose last review said
NO, or whose review could not be read (no YES or NO in it, so no feedback to act on either), is
returned unverified, and `ask` reports it as not ok.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from agents.chain import (
    Chain,
    ChainSettings,
    PlanResult,
    call,
    planner_step,
    render_action,
    render_observation,
)
from agents.errors import AgentError
from agents.llm import Message
from agents.parsing import parse_fields, parse_yes_no
from agents.planners.base import BasePlanner, answered
from agents.prompts import prompt
from agents.steps import Evidence, Usage
from agents.tools.base import Tool, ToolContext
from agents.tools.format import quote_data, rows_text
from agents.trace import Node, SearchTree


@dataclass(frozen=True)
class CriticSettings:
    max_rounds: int = 2  # critic reviews; after the last NO the last answer stands, unapproved
    critic_tokens: int = 200
    trace_chars: int = 3000  # the trace shown to the critic keeps its last this many characters
    evidence_rows: int = 8  # rows per piece of evidence shown to the critic
    evidence_chars: int = 1500  # the evidence block shown to the critic keeps its first this many characters
    chain: ChainSettings = field(default_factory=lambda: ChainSettings(max_steps=5))

    def __post_init__(self) -> None:
        if self.max_rounds < 1:
            raise AgentError(f"critic.max_rounds must be >= 1, got {self.max_rounds}")


@dataclass(frozen=True)
class Verdict:
    ok: bool
    feedback: str
    criteria: str = ""
    readable: bool = True  # False: the reply had no YES/NO verdict; that is no approval (ok is False)


def parse_verdict(text: str) -> Verdict:
    """The critic's verdict from `Criteria: / Verdict: / Feedback:` lines, however loosely written.

    >>> parse_verdict("Verdict: **NO**\\nFeedback: check the transcript").ok
    False
    """
    fields = parse_fields(text, ["Criteria", "Verdict", "Feedback"])
    verdict = parse_yes_no(fields.get("Verdict", ""))
    if verdict is None:
        verdict = parse_yes_no(text)
    feedback = fields.get("Feedback", "").strip()
    if verdict is None:  # not a YES: the answer stays unverified
        return Verdict(False, feedback, fields.get("Criteria", ""), readable=False)
    if not feedback and not verdict:
        feedback = text.strip()  # a bare "NO, because ..." still carries the reason
    return Verdict(verdict, feedback, fields.get("Criteria", ""))


def trace_text(tree: SearchTree, node_id: int, limit: int) -> str:
    """The chain from the root to `node_id` as the critic reads it."""
    parts = []
    for node in tree.path(node_id)[1:]:
        if node.step is None:
            continue
        if node.kind == "step":
            parts.append(render_action(node.step))
            parts.append(render_observation(node.step, 800))
        elif node.step.observation is not None:
            parts.append(node.step.observation.text)
    text = "\n".join(parts)
    return text if len(text) <= limit else "... " + text[-limit:]  # the end holds the answer


def evidence_text(evidence: Sequence[Evidence], max_rows: int, limit: int) -> str:
    """The rows an answer rests on, as the critic reads them: per piece of evidence the tool, its
    SQL and its first rows; '(none)' when the chain looked nothing up."""
    blocks = []
    for ev in evidence:
        head = (
            f"[{ev.tool}]"
            + (f" SQL: {' '.join(ev.sql.split())}" if ev.sql else "")
            + (f" ({ev.note})" if ev.note else "")
        )
        columns = list(dict.fromkeys(c for row in ev.rows for c in row))
        rows = [tuple(row.get(c) for c in columns) for row in ev.rows]
        blocks.append(head + ("\n" + rows_text(columns, rows, limit=max_rows) if rows else ""))
    text = "\n".join(blocks) or "(none: the answer rests on no rows from the memory)"
    return text if len(text) <= limit else text[:limit] + " ..."


def critique(tree: SearchTree, node_id: int, ctx: ToolContext, settings: CriticSettings) -> tuple[Verdict, Usage, str]:
    """One review of the chain ending at `node_id` (which holds an answer)."""
    answer = tree[node_id].answer or ""
    trace = trace_text(tree, node_id, settings.trace_chars)
    evidence = tree.evidence((node_id,))
    blocks = []
    if ctx.brief and any(n.reads_brief for n in tree.path(node_id)):
        blocks.append(ctx.brief)  # an answer read from the brief rests on the brief's rows (already fenced)
    if evidence or not blocks:
        rows = evidence_text(evidence, settings.evidence_rows, settings.evidence_chars)
        blocks.append(quote_data(rows, "evidence rows from the memory"))
    evidence_block = "\n\n".join(blocks)
    messages = [
        Message("system", prompt("planner:critic").text),
        Message("user", f"{tree.question}\n\nTrace:\n{trace}\n\n{evidence_block}\n\nAnswer: {answer}"),
    ]
    text, usage = call(ctx, messages, max_tokens=settings.critic_tokens)
    return parse_verdict(text), usage, text


def review(
    tree: SearchTree, answer: Node, ctx: ToolContext, settings: CriticSettings, round_: int
) -> tuple[Node, Verdict]:
    """Critique `answer` and record the verdict as a critic node under it."""
    verdict, usage, text = critique(tree, answer.id, ctx, settings)
    said = "YES" if verdict.ok else "NO"
    if verdict.ok:
        shown = f"Reviewer: {said}."
    else:
        shown = (
            f"Reviewer: {said}. {verdict.feedback or 'The answer is not supported.'}\n"
            "Keep working on the question and finish with a better answer."
        )
    node = tree.add(answer.id, "critic", planner_step("critic", verdict.criteria, shown, usage, action_input=text))
    node.note = f"round {round_}: {said}" if verdict.readable else f"round {round_}: unreadable verdict (not a YES)"
    return node, verdict


class CriticPlanner(BasePlanner[CriticSettings]):
    name = "critic"
    settings_type = CriticSettings

    def search(
        self, tree: SearchTree, tools: Sequence[Tool], ctx: ToolContext, choices: Sequence[str] | None
    ) -> PlanResult:
        s = self.settings
        chain = Chain(tools, ctx, s.chain)
        node = chain.start(tree)  # an answer read from the brief is reviewed like a chain's
        last_answer: Node | None = node if node.status == "answer" else None
        verified = False  # only a YES on the last answer verifies it
        for round_ in range(1, s.max_rounds + 1):
            if node.status != "answer":
                break
            critic_node, verdict = review(tree, node, ctx, s, round_)
            if verdict.ok:
                verified = True
                break
            if not verdict.readable or round_ == s.max_rounds:
                break  # no feedback to act on, or no review left for a new answer
            node = chain.run(tree, critic_node.id)
            if node.status == "answer":
                last_answer = node
        if last_answer is None:
            return PlanResult(None, tree)
        return replace(answered(tree, last_answer, choices), verified=verified)
