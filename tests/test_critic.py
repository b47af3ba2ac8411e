"""Critic loop: stops on YES, feeds NO's feedback back into the chain, stops at its bound, reads
verdicts tolerantly but approves only on YES (a final NO or an unreadable verdict leaves the answer
unverified, not ok), shows the critic the evidence rows, and never reviews a chain that found no answer."""

import pytest

from agents import AgentSettings, ChainSettings, CriticSettings, ask
from agents.planners.critic import parse_verdict, trace_text
from tests.planner_fakes import CRITIC, ScriptedChat, act, finish, make_ctx, when_tool


def critic(rounds: int = 2) -> AgentSettings:
    return AgentSettings(critic=CriticSettings(max_rounds=rounds, chain=ChainSettings(max_steps=3, max_errors=2)))


@pytest.mark.parametrize(
    ("reply", "ok", "feedback", "readable"),
    [
        ("Criteria: answered fully\nVerdict: YES\nFeedback: none", True, "none", True),
        ("**Verdict:** no\n**Feedback:** look up\nthe transcript times", False, "look up\nthe transcript times", True),
        ("verdict: No. Feedback: give the time", False, "verdict: No. Feedback: give the time", True),
        ("NO, the answer has no times.", False, "NO, the answer has no times.", True),
        ("yes", True, "", True),
        ("The agent did a reasonable job overall.", False, "", False),
    ],
    ids=["format", "bold-multiline", "one-line", "bare-no", "bare-yes", "unreadable"],
)
def test_verdicts_are_read_tolerantly(reply: str, ok: bool, feedback: str, readable: bool) -> None:
    verdict = parse_verdict(reply)
    assert (verdict.ok, verdict.feedback, verdict.readable) == (ok, feedback, readable)


def test_loop_stops_on_yes() -> None:
    llm = ScriptedChat([act("when", "count"), finish("7.73 s")], routes={CRITIC: ["Verdict: YES\nFeedback: none"]})
    answer = ask("When?", make_ctx(llm), planner="critic", tools=[when_tool()], settings=critic())
    assert answer.text == "7.73 s" and llm.kinds == ["chain", "chain", CRITIC]
    reviews = [n for n in answer.tree if n.kind == "critic"]
    assert [n.note for n in reviews] == ["round 1: YES"]
    # The critic saw the whole trace: the tool call, its observation and the answer.
    shown = llm.calls[2][-1].content
    assert "Action: when" in shown and "Observation: Said from 7.73 s" in shown and shown.endswith("Answer: 7.73 s")
    assert answer.usage == answer.tree.usage() and answer.usage.calls == 3
    assert answer.ok and answer.verified is True


def test_the_critic_sees_the_evidence_rows_and_their_sql() -> None:
    llm = ScriptedChat([act("when", "count"), finish("7.73 s")], routes={CRITIC: ["Verdict: YES"]})
    ask("When?", make_ctx(llm), planner="critic", tools=[when_tool()], settings=critic())
    shown = llm.calls[2][-1].content
    rows = shown.split("Trace:", 1)[1]
    assert "<<<evidence rows from the memory" in rows
    assert "[when] SQL: SELECT start_s, end_s, text FROM transcript WHERE text ILIKE '%count%'" in rows
    assert "7.73 | 10.85 | Please count the people walking across the square." in rows


def test_an_answer_without_lookups_is_shown_as_resting_on_no_rows() -> None:
    llm = ScriptedChat([finish("7.73 s")], routes={CRITIC: ["Verdict: NO\nFeedback: look it up"]})
    answer = ask("When?", make_ctx(llm), planner="critic", tools=[when_tool()], settings=critic(1))
    assert "(none: the answer rests on no rows from the memory)" in llm.calls[1][-1].content
    assert not answer.ok and answer.verified is False and answer.text == "7.73 s"


def test_feedback_goes_back_into_the_chain() -> None:
    llm = ScriptedChat(
        [finish("some time"), act("when", "count"), finish("7.73 s to 10.85 s")],
        routes={CRITIC: ["Verdict: NO\nFeedback: no evidence; look up the transcript", "Verdict: YES"]},
    )
    answer = ask("When?", make_ctx(llm), planner="critic", tools=[when_tool()], settings=critic(3))
    assert answer.text == "7.73 s to 10.85 s"
    assert llm.kinds == ["chain", CRITIC, "chain", "chain", CRITIC]
    resumed = llm.calls[2][-1].content
    assert "Observation: some time" in resumed and "Reviewer: NO. no evidence; look up the transcript" in resumed
    assert [n.note for n in answer.tree if n.kind == "critic"] == ["round 1: NO", "round 2: YES"]
    # The evidence of the approved answer's path is the answer's evidence.
    assert answer.evidence and answer.evidence[0].tool == "when"


def test_loop_stops_at_its_bound_and_keeps_the_last_answer() -> None:
    llm = ScriptedChat(
        [finish("first"), finish("second"), finish("third")], routes={CRITIC: ["Verdict: NO\nFeedback: more"] * 3}
    )
    answer = ask("When?", make_ctx(llm), planner="critic", tools=[when_tool()], settings=critic(2))
    assert answer.text == "second"
    assert llm.kinds.count(CRITIC) == 2 and llm.kinds.count("chain") == 2
    # The last review said NO: the answer is reported, unverified and not ok.
    assert not answer.ok and answer.verified is False
    assert "(unverified" in answer.report() and answer.to_dict()["verified"] is False


def test_no_answer_means_no_review() -> None:
    llm = ScriptedChat(["x", "y"])
    answer = ask("When?", make_ctx(llm), planner="critic", tools=[when_tool()], settings=critic())
    assert not answer.ok and CRITIC not in llm.kinds


def test_a_failed_retry_keeps_the_earlier_answer() -> None:
    llm = ScriptedChat([finish("first"), "junk", "junk"], routes={CRITIC: ["Verdict: NO\nFeedback: check"]})
    answer = ask("When?", make_ctx(llm), planner="critic", tools=[when_tool()], settings=critic(3))
    assert answer.text == "first" and answer.verified is False and not answer.ok  # "first" was rejected


def test_an_unreadable_verdict_is_no_yes() -> None:
    llm = ScriptedChat([finish("7.73 s")], routes={CRITIC: ["I cannot judge this."]})
    answer = ask("When?", make_ctx(llm), planner="critic", tools=[when_tool()], settings=critic())
    # The answer is kept but unverified; with no feedback to act on, the loop stops (one review).
    assert answer.text == "7.73 s" and not answer.ok and answer.verified is False
    assert llm.kinds == ["chain", CRITIC]
    assert [n.note for n in answer.tree if n.kind == "critic"] == ["round 1: unreadable verdict (not a YES)"]


def test_trace_text_keeps_the_end_when_cut() -> None:
    llm = ScriptedChat([act("when", "x" * 50), finish("the end")])
    answer = ask("When?", make_ctx(llm), tools=[when_tool()])
    text = trace_text(answer.tree, 2, 40)
    assert text == "... " + "Final Answer: the end\nObservation: the end"[-40:]


def test_rounds_must_be_positive() -> None:
    with pytest.raises(Exception, match="max_rounds"):
        CriticSettings(max_rounds=0)
