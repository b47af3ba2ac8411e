"""Multiple choice: matching answers to choices; by default a matched direct answer stands and an
unmatched one gets one adjudicator call over the evidence brief; per-choice verification against the
memory with the direct answer's evidence ('always'), and the adjudicator's fallbacks."""

from dataclasses import replace

import pytest

from agents import AgentSettings, ChainSettings, ChoiceSettings, ReactSettings, ask
from agents.chain import PlanResult
from agents.choices import ChoiceVerdict, fallback_choice, match_choice, normalize_answer, verify_choices
from agents.llm import Message
from agents.trace import SearchTree
from tests.planner_fakes import ADJUDICATOR, ScriptedChat, act, finish, make_ctx, when_tool

CHOICES = ["cars on the road", "people walking across the square", "trains at the station"]


@pytest.mark.parametrize(
    ("text", "index"),
    [
        ("B", 1),
        ("(b)", 1),
        ("C) trains at the station", 2),
        ("Answer: A", 0),
        ("**Answer:** (C)", 2),
        ("The answer is B", 1),
        ("They ask to count the people walking across the square.", 1),
        ("A person speaks about trains.", None),  # "A" as an article is not a letter answer
        ("D", None),  # beyond the choices
        ("nothing matches", None),
        ("cars on the road or trains at the station", None),  # two choices named: ambiguous
        ("They want us to count people walking across that square", 1),  # a paraphrase
        ("People on the road", None),  # half of two choices: no clear lead
    ],
)
def test_match_choice(text: str, index: int | None) -> None:
    assert match_choice(text, CHOICES) == index


def test_match_choice_prefers_the_longest_contained_choice() -> None:
    assert match_choice("the red train leaves", ["train", "red train leaves"]) == 1


def test_normalize_answer_keeps_decimals() -> None:
    assert normalize_answer("At 7.73 s.") == "at 7.73 s" == normalize_answer("at 7.73 S")


def mc(verify_steps: int = 2) -> AgentSettings:
    return AgentSettings(
        react=ReactSettings(ChainSettings(max_steps=3)),
        choices=ChoiceSettings(verify="always", chain=ChainSettings(max_steps=verify_steps, max_errors=1)),
    )


def verifier(messages: list[Message]) -> str:
    """YES only for the choice about people; B looks something up first."""
    is_b = any("Candidate to check: B)" in m.content for m in messages)
    if is_b and not messages[-1].content.startswith("Observation"):
        return act("when", "people walking")
    return finish("YES: the transcript asks to count people" if is_b else "NO: not in the transcript")


def test_each_choice_is_verified_then_adjudicated() -> None:
    llm = ScriptedChat(
        [act("when", "count"), finish("B"), verifier, verifier, verifier, verifier],
        routes={ADJUDICATOR: ["Reasoning: only B is verified.\nAnswer: B"]},
    )
    tool = when_tool()
    answer = ask("What should be counted?", make_ctx(llm), tools=[tool], choices=CHOICES, settings=mc())
    assert answer.choice == 1 and answer.text == CHOICES[1]
    assert tool.calls == ["count", "people walking"]  # the direct chain's, then B's own look-up
    verify_roots = [n for n in answer.tree if n.kind == "verify"]
    assert [n.label for n in verify_roots] == ["A", "B", "C"]
    # Each verifier starts from the evidence the direct answer found.
    first_verify_prompt = llm.calls[2][-1].content
    assert first_verify_prompt.endswith("Candidate to check: A) cars on the road")
    assert "Evidence already found:\nwhen(count) -> Observation: Said from 7.73 s" in first_verify_prompt
    judge_prompt = llm.calls[-1][-1].content
    assert "A) NO: not in the transcript" in judge_prompt and "B) YES: the transcript asks" in judge_prompt
    assert judge_prompt.endswith("Direct answer: B (that is choice B)")
    judge = next(n for n in answer.tree if n.kind == "judge")
    assert judge.note == "adjudicator" and judge.answer == CHOICES[1]
    assert answer.usage == answer.tree.usage() and answer.usage.calls == 7


def test_unreadable_adjudicator_falls_back_to_the_single_yes() -> None:
    llm = ScriptedChat(
        [finish("A"), finish("NO: no"), finish("YES: yes"), finish("NO: no")],
        routes={ADJUDICATOR: ["I am not sure."]},
    )
    answer = ask("Q?", make_ctx(llm), tools=[when_tool()], choices=CHOICES, settings=mc(1))
    assert answer.choice == 1
    assert [n.note for n in answer.tree if n.kind == "judge"] == ["fallback: the only choice verified YES"]


@pytest.mark.parametrize(
    ("verdicts", "direct", "best", "expected"),
    [
        ([None, True, False], 0, 2, 1),
        ([True, True, False], 2, 0, 2),
        ([True, True, False], None, 1, 0),
        ([None, False, None], None, None, None),
        ([None, False, None], None, 2, 2),  # nothing verified: the brief's best-supported choice
        ([], None, 1, 1),  # not verified at all (the default mode)
    ],
)
def test_fallback_choice(
    verdicts: list[bool | None], direct: int | None, best: int | None, expected: int | None
) -> None:
    vs = [ChoiceVerdict(i, v, "", 0) for i, v in enumerate(verdicts)]
    assert fallback_choice(vs, direct, best)[0] == expected


def test_a_direct_answer_naming_a_choice_stands_without_more_calls() -> None:
    llm = ScriptedChat([act("when", "count"), finish("B")])
    answer = ask("What should be counted?", make_ctx(llm), tools=[when_tool()], choices=CHOICES)
    assert answer.choice == 1 and len(llm.calls) == 2
    assert not [n for n in answer.tree if n.kind in ("verify", "judge")]


def _unmatched(question: str = "What should be counted?") -> PlanResult:
    tree = SearchTree(question)
    leaf = tree.add(0, "step", None)
    leaf.status, leaf.answer = "answer", "the people, I think"
    return PlanResult("the people, I think", tree, (leaf.id,), None)


def test_an_unmatched_answer_gets_one_adjudicator_call_over_the_brief() -> None:
    llm = ScriptedChat(routes={ADJUDICATOR: ["Reasoning: the brief scores B highest.\nAnswer: B"]})
    ctx = replace(make_ctx(llm), brief="Evidence brief: ...\n  B) 0.80: overlaps speech 7.7-10.9 s <- best supported")
    result = verify_choices("What should be counted?", CHOICES, _unmatched(), [when_tool()], ctx)
    assert result.choice == 1 and result.answer == CHOICES[1] and len(llm.calls) == 1
    sent = llm.calls[0][-1].content
    assert sent.startswith("Evidence brief: ...") and "B) 0.80" in sent
    assert sent.endswith("Direct answer: the people, I think") and "Verifications" not in sent
    assert [n.note for n in result.tree if n.kind == "judge"] == ["adjudicator"]


def test_an_unreadable_pick_takes_the_brief_best_supported_choice() -> None:
    llm = ScriptedChat(routes={ADJUDICATOR: ["hmm, hard to say"]})
    result = verify_choices("Q?", CHOICES, _unmatched(), [when_tool()], make_ctx(llm), best_supported=2)
    assert result.choice == 2
    notes = [n.note for n in result.tree if n.kind == "judge"]
    assert notes == ["fallback: the choice the evidence brief supports best"]


def test_an_unknown_verify_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="unmatched, always or never"):
        ChoiceSettings(verify="sometimes")  # type: ignore[arg-type]


def test_failed_verifications_are_uncertain_not_crashes() -> None:
    llm = ScriptedChat([finish("C"), "junk", "junk", "junk"], routes={ADJUDICATOR: ["Answer: C"]})
    answer = ask("Q?", make_ctx(llm), tools=[when_tool()], choices=CHOICES, settings=mc(1))
    assert answer.choice == 2
    assert "A) UNCERTAIN" in llm.calls[-1][-1].content


def test_verification_can_be_switched_off() -> None:
    llm = ScriptedChat([finish("the answer is B")])
    settings = AgentSettings(choices=ChoiceSettings(verify="never"))
    answer = ask("Q?", make_ctx(llm), tools=[when_tool()], choices=CHOICES, settings=settings)
    assert answer.choice == 1 and answer.text == "the answer is B" and len(llm.calls) == 1
