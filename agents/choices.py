"""Multiple-choice questions: the direct answer's choice, or one adjudicator call, or per-choice
verification against the memory then an adjudicator.

A planner first answers directly (its question lists the choices). What follows depends on
`ChoiceSettings.verify`:
- 'unmatched' (default): a direct answer that names a choice stands (no more calls). One that names
  none ("about 7 seconds" among "about 8 seconds", ...) goes to one adjudicator call with the evidence
  brief (which scores every choice against the memory) and the direct answer; if its reply names no
  choice, the brief's best-supported choice is taken.
- 'always': each choice gets a short verification chain over the same tools, started with the evidence
  the direct answer found; it may look up more, then finishes YES or NO. An adjudicator reads every
  verdict and the direct answer. When its reply names none, the single YES wins, else the direct
  answer's choice, else the first YES. About five times the tokens: for strong endpoints.
- 'never': the direct answer's choice stands, even when there is none.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from agents.chain import (
    Chain,
    ChainSettings,
    PlanResult,
    call,
    choice_letter,
    evidence_text,
    planner_step,
    question_text,
)
from agents.llm import Message
from agents.parsing import parse_fields, parse_yes_no
from agents.prompts import prompt
from agents.steps import Observation, Step
from agents.tools.base import Tool, ToolContext

VerifyMode = Literal["unmatched", "always", "never"]


@dataclass(frozen=True)
class ChoiceSettings:
    verify: VerifyMode = "unmatched"  # see the module docstring

    def __post_init__(self) -> None:
        if self.verify not in ("unmatched", "always", "never"):
            raise ValueError(f"choices.verify must be unmatched, always or never, got {self.verify!r}")
    evidence_chars: int = 1500  # the direct answer's observations shown to each verifier
    adjudicator_tokens: int = 200
    #: Each choice's chain; max_steps=1 judges from the evidence already found, more may look things up.
    chain: ChainSettings = field(default_factory=lambda: ChainSettings(max_steps=2))


# -- reading answers against choices -------------------------------------------------------------
def normalize_answer(text: str) -> str:
    """Lower case, punctuation dropped, spaces collapsed: for comparing answers.

    >>> normalize_answer(" At 7.7 s, he says it! ")
    'at 7.7 s he says it'
    """
    text = re.sub(r"[^\w\s.]|(?<!\d)\.|\.(?!\d)", " ", text.lower())
    return " ".join(text.split())


# A letter standing alone or closed by ")", ".", ":", ",": "B", "(b)", "C) ...", "the answer is D".
_LETTER = re.compile(
    r"^[\W_]*(?:(?:the\s+)?(?:answer|choice|option)\s*(?:is)?\s*:?\s*)?\(?([a-z])(?:\)|\.(?!\w)|:|,|\s*$|\s+-)", re.I
)


def match_choice(text: str, choices: Sequence[str]) -> int | None:
    """The choice an answer names: a leading letter ("B", "(b)", "Answer: B) ..."), else the text of
    exactly one choice (the longest when one contains another), else the one choice most of whose
    words the answer uses (a paraphrase, clearly ahead of the rest); None when it names none.

    >>> match_choice("B) people crossing", ["cars", "people crossing"])
    1
    >>> match_choice("They ask us to count the people crossing.", ["cars", "people crossing"])
    1
    >>> match_choice("The red train leaves the station early.", ["It arrives late", "It leaves the station early"])
    1
    """
    if not choices:
        return None
    fields = parse_fields(text, ["Answer"])
    for candidate in (fields.get("Answer", ""), text):
        m = _LETTER.match(candidate.strip())
        if m and m.group(1).upper() <= choice_letter(len(choices) - 1):
            return ord(m.group(1).upper()) - ord("A")
    said = normalize_answer(text)
    hits = [i for i, c in enumerate(choices) if normalize_answer(c) and normalize_answer(c) in said]
    if not hits:
        return _closest_choice(said, choices)
    longest = max(hits, key=lambda i: len(normalize_answer(choices[i])))
    others = [
        i for i in hits if i != longest and normalize_answer(choices[i]) not in normalize_answer(choices[longest])
    ]
    return None if others else longest


_MIN_OVERLAP, _MIN_LEAD = 0.6, 0.25
_FILLER = frozenset(
    {"a", "an", "the", "it", "its", "is", "are", "was", "were", "to", "of", "in", "on", "at", "and", "or"}
    | {"this", "that", "they", "he", "she"}
)


def _closest_choice(said: str, choices: Sequence[str]) -> int | None:
    """The choice whose content words the answer uses most, when that is most of them and clearly
    more than for any other choice."""
    words = set(said.split())
    overlaps = []
    for c in choices:
        content = [w for w in normalize_answer(c).split() if w not in _FILLER] or normalize_answer(c).split()
        overlaps.append(sum(w in words for w in content) / len(content) if content else 0.0)
    ranked = sorted(range(len(choices)), key=lambda i: -overlaps[i])
    best = ranked[0]
    runner_up = overlaps[ranked[1]] if len(ranked) > 1 else 0.0
    return best if overlaps[best] >= _MIN_OVERLAP and overlaps[best] - runner_up >= _MIN_LEAD else None


# -- verification and adjudication ---------------------------------------------------------------
@dataclass(frozen=True)
class ChoiceVerdict:
    choice: int
    verdict: bool | None  # None: the chain failed or its answer was neither YES nor NO
    reasoning: str
    node: int  # the chain's terminal node


def verify_choices(
    question: str,
    choices: Sequence[str],
    direct: PlanResult,
    tools: Sequence[Tool],
    ctx: ToolContext,
    settings: ChoiceSettings | None = None,
    best_supported: int | None = None,
) -> PlanResult:
    """The chosen choice in `direct`'s tree, by `settings.verify` (module docstring); `best_supported`
    is the evidence brief's best-scored choice, the last resort of an unmatched answer."""
    s = settings or ChoiceSettings()
    tree = direct.tree
    if s.verify == "never" or (s.verify == "unmatched" and direct.choice is not None):
        return direct
    if s.verify == "unmatched":
        return adjudicate(question, choices, direct, (), ctx, s.adjudicator_tokens, best_supported)
    chain = Chain(tools, ctx, s.chain)
    found = evidence_text(tree, direct.answer_nodes, s.evidence_chars)
    verdicts = []
    for i, choice in enumerate(choices):
        letter = choice_letter(i)
        # What every choice shares comes first (prompt cache), the candidate last.
        opening = (
            f"{prompt('planner:verify').text}\nEvidence already found:\n{found}\n\n"
            f"Candidate to check: {letter}) {choice}"
        )
        start = tree.add(0, "verify", Step("", None, "", Observation(opening)), label=letter)
        leaf = chain.run(tree, start.id)
        answer = leaf.answer or ""
        verdicts.append(ChoiceVerdict(i, parse_yes_no(answer) if leaf.status == "answer" else None, answer, leaf.id))
    return adjudicate(question, choices, direct, verdicts, ctx, s.adjudicator_tokens)


def adjudicate(
    question: str,
    choices: Sequence[str],
    direct: PlanResult,
    verdicts: Sequence[ChoiceVerdict],
    ctx: ToolContext,
    max_tokens: int,
    best_supported: int | None = None,
) -> PlanResult:
    """One call names the choice from the verdicts (when verified), the evidence brief and the direct
    answer; a reply naming none falls back (`fallback_choice`)."""
    tree = direct.tree
    lines = []
    for v in verdicts:
        said = {True: "YES", False: "NO", None: "UNCERTAIN"}[v.verdict]
        reason = re.sub(r"^\W*(yes|no)\b\W*", "", v.reasoning, flags=re.I) or "no reasoning given"
        lines.append(f"{choice_letter(v.choice)}) {said}: {reason}")
    direct_line = direct.answer if direct.answer else "(the agent found no answer)"
    if direct.choice is not None:
        direct_line += f" (that is choice {choice_letter(direct.choice)})"
    checked = "Verifications:\n" + "\n".join(lines) + "\n\n" if lines else ""
    brief = f"{ctx.brief}\n\n" if ctx.brief and not lines else ""  # verifiers had it; here it is the evidence
    messages = [
        Message("system", prompt("planner:adjudicate" if lines else "planner:pick_choice").text),
        Message("user", f"{brief}{question_text(question, choices)}\n\n{checked}Direct answer: {direct_line}"),
    ]
    text, usage = call(ctx, messages, max_tokens=max_tokens)
    fields = parse_fields(text, ["Reasoning", "Answer"])
    picked = match_choice(fields.get("Answer", text), choices)
    how = "adjudicator"
    if picked is None:
        picked, how = fallback_choice(verdicts, direct.choice, best_supported)
    judge = tree.add(0, "judge", planner_step("adjudicate", fields.get("Reasoning", ""), text, usage), label="final")
    judge.note = how
    if picked is None:
        return PlanResult(direct.answer, tree, direct.answer_nodes, direct.choice)
    judge.status, judge.answer = "answer", choices[picked]
    support = [v.node for v in verdicts if v.choice == picked]
    return PlanResult(choices[picked], tree, (*direct.answer_nodes, *support, judge.id), picked)


def fallback_choice(
    verdicts: Sequence[ChoiceVerdict], direct_choice: int | None, best_supported: int | None = None
) -> tuple[int | None, str]:
    """When the adjudicator names no choice: the only YES, else the direct answer's, else the first YES,
    else the choice the evidence brief supports best."""
    yes = [v.choice for v in verdicts if v.verdict]
    if len(yes) == 1:
        return yes[0], "fallback: the only choice verified YES"
    if direct_choice is not None:
        return direct_choice, "fallback: the direct answer's choice"
    if yes:
        return yes[0], "fallback: the first choice verified YES"
    if best_supported is not None:
        return best_supported, "fallback: the choice the evidence brief supports best"
    return None, "fallback: no choice verified and no direct choice"
