"""Strategy sampling: each strategy runs with its own tool subset, the critic's winners decide,
and the shared answer of the winners wins."""

import pytest

from agents import AgentSettings, ChainSettings, ChoiceSettings, Strategy, StrategySettings, ask
from agents.llm import Message
from agents.planners.strategies import parse_winners
from agents.steps import Observation
from tests.planner_fakes import STRATEGY_CRITIC, SUMMARY, FakeTool, ScriptedChat, finish, make_ctx

TOOLS = [
    FakeTool("when", Observation("sql says 7.7 s")),
    FakeTool("count", Observation("sql says 6 people")),
    FakeTool("get_transcript", Observation("[7.7-10.9] Please count the people")),
    FakeTool("think", Observation("ok")),
    FakeTool("finish", lambda text, ctx: Observation(text, final=True)),
]
THREE = (Strategy("sql", ("when", "count")), Strategy("video", ("get_transcript",)), Strategy("all"))


def settings(strategies: tuple[Strategy, ...] = THREE) -> AgentSettings:
    return AgentSettings(strategies=StrategySettings(strategies, chain=ChainSettings(max_steps=2, max_errors=1)))


def tools_offered(messages: list[Message]) -> list[str]:
    lines = messages[0].content.split("Tools:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    return [line[2:].split(":", 1)[0] for line in lines]


def test_strategies_select_their_tools() -> None:
    assert [t.name for t in Strategy("sql", ("when", "count")).select(TOOLS)] == ["when", "count", "think", "finish"]
    assert [t.name for t in Strategy("all").select(TOOLS)] == [t.name for t in TOOLS]


def test_critic_winner_decides_and_each_strategy_saw_only_its_tools() -> None:
    llm = ScriptedChat(
        [finish("7.7 s"), finish("8 s"), finish("9 s")],
        routes={STRATEGY_CRITIC: ["Reasoning: 2 cites the transcript\nWinners: 2"]},
    )
    answer = ask("When?", make_ctx(llm), planner="strategies", tools=TOOLS, settings=settings())
    assert answer.text == "8 s"
    # (finish is no listed tool: the prompt asks for a Final Answer line)
    assert tools_offered(llm.calls[0]) == ["when", "count", "think"]
    assert tools_offered(llm.calls[1]) == ["get_transcript", "think"]
    assert tools_offered(llm.calls[2]) == ["when", "count", "get_transcript", "think"]
    critic_prompt = llm.calls[3][-1].content
    assert (
        "Strategy 1 (sql)" in critic_prompt and "Strategy 3 (all)" in critic_prompt and "Answer: 9 s" in critic_prompt
    )
    judge = next(n for n in answer.tree if n.kind == "judge")
    assert judge.note == "winners: video"
    assert [n.label for n in answer.tree.children(0)][:3] == ["sql", "video", "all"]
    assert answer.usage == answer.tree.usage()


def test_agreeing_winners_share_their_answer_without_a_summary() -> None:
    llm = ScriptedChat(
        [finish("7.7 s"), finish("wrong"), finish("7.7 s.")], routes={STRATEGY_CRITIC: ["Winners: 1, 3"]}
    )
    answer = ask("When?", make_ctx(llm), planner="strategies", tools=TOOLS, settings=settings())
    assert answer.text == "7.7 s" and SUMMARY not in llm.kinds


def test_disagreeing_winners_are_summarized() -> None:
    llm = ScriptedChat(
        [finish("7.7 s"), finish("wrong"), finish("8 s")],
        routes={STRATEGY_CRITIC: ["Winners: 1 and 3"], SUMMARY: ["7.7 to 8 s"]},
    )
    answer = ask("When?", make_ctx(llm), planner="strategies", tools=TOOLS, settings=settings())
    assert answer.text == "7.7 to 8 s"
    summary_prompt = llm.calls[-1][-1].content
    assert "1. 7.7 s\n2. 8 s" in summary_prompt and "wrong" not in summary_prompt


def test_unreadable_critic_counts_every_answer() -> None:
    llm = ScriptedChat(
        [finish("A"), "junk", finish("B")], routes={STRATEGY_CRITIC: ["They all look fine."], SUMMARY: ["A or B"]}
    )
    answer = ask("When?", make_ctx(llm), planner="strategies", tools=TOOLS, settings=settings())
    assert answer.text == "A or B"
    judge = next(n for n in answer.tree if n.kind == "judge")
    assert judge.note == "no strategy judged YES: every strategy that answered counts"


def test_critic_judges_each_answered_strategy_and_sees_no_failed_one() -> None:
    llm = ScriptedChat(
        [finish("7.7 s"), "junk", finish("not mentioned")],
        routes={STRATEGY_CRITIC: ["Strategy 1: YES, cites the transcript\nStrategy 2: NO, no evidence"]},
    )
    answer = ask("When?", make_ctx(llm), planner="strategies", tools=TOOLS, settings=settings())
    assert answer.text == "7.7 s"
    critic_prompt = llm.calls[-1][-1].content
    assert "Strategy 1 (sql)" in critic_prompt and "Strategy 2 (all)" in critic_prompt
    assert "(video)" not in critic_prompt and "junk" not in critic_prompt
    assert next(n for n in answer.tree if n.kind == "judge").note == "winners: sql"


def test_a_single_answer_needs_no_critic() -> None:
    llm = ScriptedChat(["junk", finish("8 s"), "junk"])
    answer = ask("When?", make_ctx(llm), planner="strategies", tools=TOOLS, settings=settings())
    assert answer.text == "8 s" and llm.kinds == ["chain"] * 3


def test_strategies_without_their_tools_are_skipped() -> None:
    llm = ScriptedChat([finish("x")])
    only = (Strategy("vision", ("query_vision",)), Strategy("sql", ("when",)))
    answer = ask("When?", make_ctx(llm), planner="strategies", tools=TOOLS, settings=settings(only))
    assert answer.text == "x" and len(llm.calls) == 1
    with pytest.raises(Exception, match="no strategy has any of its tools"):
        ask("When?", make_ctx(llm), planner="strategies", tools=TOOLS, settings=settings(only[:1]))


def test_multiple_choice_votes_among_winners() -> None:
    llm = ScriptedChat([finish("B"), finish("A"), finish("(B) people")], routes={STRATEGY_CRITIC: ["Winners: 1, 3"]})
    s = settings()
    s = AgentSettings(strategies=s.strategies, choices=ChoiceSettings(verify="never"))
    answer = ask(
        "Count what?", make_ctx(llm), planner="strategies", tools=TOOLS, choices=["cars", "people"], settings=s
    )
    assert answer.choice == 1 and answer.text == "people"


@pytest.mark.parametrize(
    ("reply", "winners"),
    [
        ("Winners: 2", [1]),
        ("**Winners:** 1, 3", [0, 2]),
        ("Winner: strategy 3", [2]),
        ("Winners: 7, 2, 2", [1]),
        ("none", []),
    ],
)
def test_parse_winners(reply: str, winners: list[int]) -> None:
    assert parse_winners(reply, 3) == winners


def test_strategy_names_must_differ() -> None:
    with pytest.raises(Exception, match="distinct names"):
        StrategySettings((Strategy("a"), Strategy("a")))
