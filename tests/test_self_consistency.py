"""Self-consistency: N ReAct chains sampled above temperature zero, an early stop when the first
samples agree, and the answers merged (free answers) or voted (multiple choice)."""

import pytest

from agents import AgentSettings, ChainSettings, ChoiceSettings, SelfConsistencySettings, ask, make_planner
from tests.planner_fakes import SUMMARY, ScriptedChat, act, finish, make_ctx, when_tool


def sc(n: int = 3, **kw: object) -> AgentSettings:
    chain = ChainSettings(max_steps=3, max_errors=1)
    return AgentSettings(self_consistency=SelfConsistencySettings(n_samples=n, chain=chain, **kw))  # type: ignore[arg-type]


def test_samples_are_independent_chains_sampled_above_zero() -> None:
    llm = ScriptedChat([act("when", "count"), finish("7.73 s"), finish("9 s"), act("when", "count"), finish("7.7 s")])
    answer = ask("When?", make_ctx(llm), planner="self_consistency", tools=[when_tool()], settings=sc(3))
    assert answer.planner == "self_consistency" and answer.text == "7.73 s"
    assert llm.temperatures == [0.7] * 5
    # Each sample starts from the question alone: no sample sees another's steps.
    starts = [call for call in llm.calls if len(call) == 2]
    assert len(starts) == 3 and all(c == starts[0] for c in starts)
    assert [n.label for n in answer.tree.children(0)][:3] == ["sample 1", "sample 2", "sample 3"]
    # 7.73 s and 7.7 s say the same (same numbers at 0.1 s) and rest on rows: they outvote 9 s.
    final = next(n for n in answer.tree if n.kind == "vote")
    assert final.note.startswith("groups: '7.73 s' x2")
    assert SUMMARY not in llm.kinds and answer.usage == answer.tree.usage()
    assert answer.evidence and answer.evidence[0].times_s == (7.73, 10.85)


def test_agreeing_first_samples_stop_the_sampling() -> None:
    llm = ScriptedChat([finish("7 s"), finish("At 7 s.")])
    answer = ask("When?", make_ctx(llm), planner="self_consistency", tools=[when_tool()], settings=sc(4))
    assert len(llm.calls) == 2 and answer.text == "7 s"
    assert answer.tree.root.note == "stopped early: the first 2 samples agree"


def test_without_the_early_stop_all_n_run() -> None:
    llm = ScriptedChat([finish("7 s")] * 3)
    answer = ask("When?", make_ctx(llm), planner="self_consistency", tools=[when_tool()], settings=sc(3, agree_stop=0))
    assert len(llm.calls) == 3 and answer.text == "7 s"


def test_a_tie_is_summarized_and_failures_do_not_vote() -> None:
    llm = ScriptedChat([finish("7 s"), "garbage", finish("9 s")], routes={SUMMARY: ["7 or 9 s"]})
    answer = ask("When?", make_ctx(llm), planner="self_consistency", tools=[when_tool()], settings=sc(3))
    assert answer.text == "7 or 9 s" and llm.kinds.count(SUMMARY) == 1
    assert [n.status for n in answer.tree if n.kind == "step"] == ["answer", "failure", "answer"]


def test_every_sample_failing_is_no_answer() -> None:
    llm = ScriptedChat(["garbage"] * 3)
    answer = ask("When?", make_ctx(llm), planner="self_consistency", tools=[when_tool()], settings=sc(3))
    assert not answer.ok and len(llm.calls) == 3


def test_multiple_choice_is_a_vote() -> None:
    llm = ScriptedChat([finish("A"), finish("B) people"), finish("(b)")])
    settings = AgentSettings(
        self_consistency=SelfConsistencySettings(n_samples=3), choices=ChoiceSettings(verify="never")
    )
    answer = ask(
        "What?", make_ctx(llm), planner="self_consistency", tools=[when_tool()], choices=["trains", "people"],
        settings=settings,
    )  # fmt: skip
    assert answer.choice == 1 and next(n for n in answer.tree if n.kind == "vote").note == "votes: A=1, B=2"


def test_registered_and_validated() -> None:
    assert make_planner("self_consistency").settings.n_samples == 3  # type: ignore[attr-defined]
    assert AgentSettings().with_chain(max_steps=2).self_consistency.chain.max_steps == 2
    for kw in ({"n_samples": 0}, {"temperature": 0.0}, {"agree_stop": 1}):
        with pytest.raises(Exception, match="self-consistency needs"):
            SelfConsistencySettings(**kw)  # type: ignore[arg-type]
