"""The public entry point: `ask` a question of a memory and get an `Answer` you can check.

An answer carries its evidence (the SQL that ran, the rows used, the times they point at), what
it cost (prompt and completion tokens, LLM calls, seconds) and the whole search tree.

>>> ans = ask("When does the speaker mention the train?", ctx, planner="mcts")   # doctest: +SKIP
>>> ans.text, ans.usage.prompt_tokens, ans.evidence[0].sql                       # doctest: +SKIP
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from agents.brief import archive_note, brief_evidence, build_brief, moment_note, with_brief, with_file_names
from agents.chain import PlanResult, choice_letter, metered, since, spent
from agents.choices import verify_choices
from agents.errors import AgentError
from agents.listed_count import with_listed_count
from agents.parsing import without_brief_marks
from agents.planners import AgentSettings, make_planner
from agents.steps import Evidence, Usage
from agents.tools.base import Tool, ToolContext
from agents.trace import SearchTree, render_tree
from queries.question_form import as_question

NO_ANSWER = "No answer: every attempt failed to reach one (see the search tree for why)."


@dataclass(frozen=True)
class Answer:
    question: str
    text: str  # the answer, or NO_ANSWER
    ok: bool  # False when no chain reached an answer, or a review rejected the answer (verified False)
    planner: str
    evidence: tuple[Evidence, ...]
    usage: Usage  # every LLM call of this answer: planner, critics, and the tools' sub-agents
    seconds: float  # wall time
    tree: SearchTree
    choices: tuple[str, ...] = ()
    choice: int | None = None  # index into `choices` for a multiple-choice question
    #: True: a review (the critic) approved the answer; False: its last review did not (the text is
    #: the unverified answer); None: the planner does not review.
    verified: bool | None = None
    brief: str = ""  # the evidence brief the chains started from, as the model saw it

    @property
    def times_s(self) -> tuple[float, ...]:
        """Every time the evidence points at, sorted, each once."""
        return tuple(sorted({t for ev in self.evidence for t in ev.times_s}))

    @property
    def sql(self) -> tuple[str, ...]:
        """The SQL that ran for the evidence, in order."""
        return tuple(ev.sql for ev in self.evidence if ev.sql)

    def to_dict(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "answer": self.text,
            "ok": self.ok,
            "verified": self.verified,
            "planner": self.planner,
            "choices": list(self.choices),
            "choice": self.choice,
            "evidence": [asdict(ev) for ev in self.evidence],
            "times_s": list(self.times_s),
            "usage": asdict(self.usage),
            "seconds": self.seconds,
            "brief": self.brief,
            "tree": self.tree.to_dict(),
        }

    def to_json(self, indent: int | None = 1) -> str:
        """The answer, its evidence, its cost and the full search tree as JSON."""
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False, default=str)

    def report(self, max_rows: int = 5) -> str:
        """The answer for people: the answer, each piece of evidence (SQL, rows, times) and the cost."""
        lines = [self.text]
        if self.choice is not None:
            lines[0] = f"{chr(ord('A') + self.choice)}) {self.text}"
        if self.verified is False:
            lines[0] += "\n(unverified: the review did not approve this answer)"
        for i, ev in enumerate(self.evidence, 1):
            where = f" · video {ev.video_id}" if ev.video_id else ""
            times = f" · at {', '.join(f'{t:.2f}' for t in ev.times_s[:8])} s" if ev.times_s else ""
            lines.append(f"\nEvidence {i}: {ev.tool}{where}{times}{f' · {ev.note}' if ev.note else ''}")
            if ev.sql:
                lines.append("  " + " ".join(ev.sql.split()))
            for row in ev.rows[:max_rows]:
                lines.append("  " + ", ".join(f"{k}={v}" for k, v in row.items()))
            if len(ev.rows) > max_rows:
                lines.append(f"  ... {len(ev.rows) - max_rows} more rows")
        u = self.usage
        lines.append(
            f"\n{self.planner}: {u.prompt_tokens} prompt + {u.completion_tokens} completion tokens, "
            f"{u.calls} LLM calls, {self.seconds:.1f} s, {len(self.tree)} tree nodes"
        )
        return "\n".join(lines)

    def render_tree(self, path: str | Path) -> Path:
        """The search tree as a PNG picture (needs matplotlib)."""
        return render_tree(self.tree, path)


def ask(
    question: str,
    ctx: ToolContext,
    *,
    planner: str = "react",
    choices: Sequence[str] | None = None,
    settings: AgentSettings | None = None,
    tools: Sequence[Tool] | None = None,
) -> Answer:
    """Answer `question` over the memory in `ctx` with the named planner.

    With `choices`, the planner answers directly; an answer naming no choice gets one adjudicator call
    over the evidence brief (or, with `settings.choices.verify='always'`, every choice is verified
    against the memory first; agents/choices.py). `tools` defaults to every tool
    in the registry. Model mistakes never raise; an unusable endpoint raises LLMError.
    """
    if not question.strip():
        raise AgentError("the question is empty")
    if choices is not None and not 2 <= len(choices) <= 26:
        raise AgentError(f"a multiple-choice question needs 2 to 26 choices, got {len(choices)}")
    settings = settings or AgentSettings()
    asked = as_question(question)  # "I need the platform of the lime tram." read as "What is the platform ...?"
    started = time.perf_counter()
    ctx = metered(ctx)
    before = spent(ctx)  # a caller's metered model may have spent already
    # searched before the first LLM call; every chain starts from it (a stale one from a reused ctx is dropped)
    brief = build_brief(asked, ctx, choices) if settings.brief_tokens else None
    stale = replace(ctx, brief=None, unmentioned=(), look_alike=(), brief_whole=False, mark_check=None, counted=None)
    ctx = with_brief(stale, brief, max_tokens=settings.brief_tokens)
    toolset = list(tools) if tools is not None else default_tools(ctx)
    result: PlanResult = make_planner(planner, settings).plan(asked, toolset, ctx, choices=choices)
    if choices:
        best = brief.best_choice if brief is not None else None
        result = verify_choices(asked, choices, result, toolset, ctx, settings.choices, best)
        timed = brief.timed_choice if brief is not None else None
        if timed is not None and result.choice != timed:
            # which of them comes first is read from their lines' times by the code: the small model
            # picked another of the choices the brief showed it below the timed one (spent test10, test13)
            result = replace(result, choice=timed, answer=f"{choice_letter(timed)}) {choices[timed]}")
    ok = result.answer is not None and result.verified is not False
    used = brief_evidence(brief, result.answer, result.choice, max_tokens=settings.brief_tokens)
    text = with_file_names(ctx.memory, without_brief_marks(result.answer)) if result.answer is not None else NO_ANSWER
    if ok and not choices:
        text = with_listed_count(asked, text)  # "how many things ...?" answered with the things, not their number
    if ok and (where := archive_note(brief, text, max_tokens=settings.brief_tokens)):
        text = f"{text} {where}"  # the answer names the file and time its evidence line came from
    if ok and not choices and (span := moment_note(brief, text, max_tokens=settings.brief_tokens)):
        text = f"{text} {span}"  # asked when, the answer gave a time inside the line, not its start
    return Answer(
        question=question,
        text=text,
        ok=ok,
        planner=planner,
        evidence=result.tree.evidence(result.answer_nodes) + used,
        usage=since(ctx, before),
        seconds=time.perf_counter() - started,
        tree=result.tree,
        choices=tuple(choices or ()),
        choice=result.choice,
        verified=result.verified,
        brief=ctx.brief or "",
    )


def default_tools(ctx: ToolContext) -> list[Tool]:
    """Every tool in the registry that can run with `ctx`."""
    from agents.tools.registry import build_tools

    return list(build_tools(ctx))
