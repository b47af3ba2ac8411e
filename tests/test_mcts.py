"""MCTS: the selection and back-propagation arithmetic on a hand-computed tree, expansion prompts
that list earlier children, failures as clean leaves, and summary or vote at the end."""

import math

import pytest

from agents import AgentSettings, ChainSettings, ChoiceSettings, MctsSettings, SearchTree, ask
from agents.llm import Message
from agents.planners.consensus import group_answers, same_answer, support
from agents.planners.mcts import backpropagate, decayed_reward, expandable, expansion_note, selection_probabilities
from agents.steps import Evidence, Observation, Step
from agents.trace import Node
from tests.planner_fakes import SUMMARY, ScriptedChat, act, finish, make_ctx, when_tool


# -- arithmetic ----------------------------------------------------------------------------------
def test_selection_probabilities_are_a_softmax_of_rewards() -> None:
    e = math.e
    assert selection_probabilities([0.0, 0.0, 0.0]) == pytest.approx([1 / 3] * 3)
    assert selection_probabilities([1.0, 0.0]) == pytest.approx([e / (e + 1), 1 / (e + 1)])
    # Hand-computed: rewards (0.2386, 0.3935, -1.0) -> exp = (1.2695, 1.4822, 0.3679) / 3.1196
    assert selection_probabilities([0.2386, 0.3935, -1.0]) == pytest.approx([0.40695, 0.47513, 0.11792], abs=1e-4)
    assert selection_probabilities([2.0, 0.0], temperature=2.0) == pytest.approx([e / (e + 1), 1 / (e + 1)])
    assert selection_probabilities([1000.0, 0.0]) == pytest.approx([1.0, 0.0])  # no overflow
    assert selection_probabilities([]) == []


def test_decayed_reward_is_undamped_for_the_parent() -> None:
    assert decayed_reward(1.0, 1, 0.5) == 1.0
    assert decayed_reward(-1.0, 2, 0.5) == pytest.approx(-math.exp(-0.5))
    assert decayed_reward(1.0, 3, 0.5) == pytest.approx(math.exp(-1.0))
    with pytest.raises(Exception, match="at least 1 edge"):
        decayed_reward(1.0, 0, 0.5)


def test_backpropagation_matches_a_hand_computed_tree() -> None:
    # root 0 -- 1 -- 2 -- 3 (failure)       then a second branch   1 -- 4 (answer)
    parents = {0: None, 1: 0, 2: 1, 3: 2, 4: 1}
    rewards = dict.fromkeys(parents, 0.0)
    rewards = backpropagate(rewards, parents, 3, -1.0, 0.5)
    assert rewards == pytest.approx({0: -math.exp(-1.0), 1: -math.exp(-0.5), 2: -1.0, 3: -1.0, 4: 0.0})
    rewards = backpropagate(rewards, parents, 4, 1.0, 0.5)
    # by hand: node 1: -0.60653 + 1 = 0.39347; root: -0.36788 + 0.60653 = 0.23865
    assert rewards[1] == pytest.approx(0.39347, abs=1e-5)
    assert rewards[0] == pytest.approx(0.23865, abs=1e-5)
    assert rewards[2] == -1.0 and rewards[4] == 1.0
    # Selection among the expandable nodes 0, 1, 2 follows the softmax of these rewards.
    assert selection_probabilities([rewards[0], rewards[1], rewards[2]]) == pytest.approx(
        [0.40695, 0.47513, 0.11792], abs=1e-4
    )


def test_alpha_and_beta_scale_the_rewards() -> None:
    out = backpropagate({0: 0.0, 1: 0.0, 2: 0.0}, {0: None, 1: 0, 2: 1}, 2, 2.0, 1.0)
    assert out == pytest.approx({0: 2.0 * math.exp(-1.0), 1: 2.0, 2: 2.0})


def test_only_open_nodes_above_the_depth_limit_are_expandable() -> None:
    tree = SearchTree("q")
    a = tree.add(0, "step")
    b = tree.add(a.id, "step")
    b.status = "failure"
    c = tree.add(a.id, "step")
    tree.add(c.id, "critic")
    assert [n.id for n in expandable(tree, max_depth=8)] == [0, a.id, c.id]
    assert [n.id for n in expandable(tree, max_depth=2)] == [0, a.id]


# -- the planner ---------------------------------------------------------------------------------
def mcts(n: int, **kw: object) -> AgentSettings:
    return AgentSettings(mcts=MctsSettings(n_solutions=n, chain=ChainSettings(max_steps=3, max_errors=1), **kw))


def test_expansion_prompt_lists_existing_children() -> None:
    tree = SearchTree("q")
    assert expansion_note(tree, 0) is None
    from agents.steps import Step

    tree.add(0, "step", Step("t", "when", "count", None))
    tree.add(0, "step", Step("t", None, "", None, error="bad"))
    note = expansion_note(tree, 0)
    assert note is not None and "- when: count" in note and "- (no valid action)" in note
    assert "different action" in note


def reply_by_history(messages: list[Message]) -> str:
    """A branch that was told to differ answers differently; a plain branch asks `when` first."""
    last = messages[-1].content
    if messages[0].content.startswith("You answer a question about a video from the evidence"):
        return "7.73 s"  # it repeated `when` of its path, which was not run again: the plain reading
    if "Earlier attempts" in last:
        return finish("8 s") if "- when:" in last else act("when", "count")
    if last.startswith("Observation: Said from"):
        return finish("7.73 s")
    return act("when", "count")


def recomputed_rewards(tree: SearchTree, leaves: list[Node], alpha: float = 1.0) -> dict[int, float]:
    """The rewards the formula gives for `leaves` (+alpha answer, -alpha failure), in the order reached."""
    expected = {n.id: 0.0 for n in tree}
    parents = {n.id: n.parent for n in tree}
    for leaf in leaves:
        expected = backpropagate(expected, parents, leaf.id, alpha if leaf.status == "answer" else -alpha, 0.5)
    return expected


def test_planner_rewards_match_the_formula_and_expansions_differ() -> None:
    llm = ScriptedChat([reply_by_history] * 20, routes={SUMMARY: ["unused"]})
    answer = ask(
        "When is count said?", make_ctx(llm), planner="mcts", tools=[when_tool()], settings=mcts(3, agree_stop=0)
    )
    tree = answer.tree
    leaves = [n for n in tree if n.terminal and n.kind == "step"]
    assert len(leaves) == 3 and all(n.status == "answer" for n in leaves)
    expected = recomputed_rewards(tree, leaves)
    for n in tree:
        if n.kind in ("root", "step"):
            assert n.reward == pytest.approx(expected[n.id]), n.id
    # Every expansion of a node that had children was told what those children did.
    expansions = [n for n in tree if n.note.startswith("Earlier attempts")]
    assert expansions
    for n in expansions:
        earlier = [c for c in tree.children(n.parent) if c.id < n.id]
        assert earlier and all(f"- {c.step.action}: {c.step.action_input}" in n.note for c in earlier)
        assert "another tool, or the same tool with another input" in n.note
        assert n.step.action_input != earlier[0].step.action_input or n.step.action != earlier[0].step.action
    # Answers merged by their evidence: '7.73 s' is read off the rows on its path (support 1: weight
    # 2 each), '8 s' is held by no row (weight 1): the grounded group wins without a summary call.
    assert SUMMARY not in llm.kinds
    assert answer.text == "7.73 s"
    final = next(n for n in tree if n.kind == "vote")
    assert final.answer == "7.73 s" and final.note == "groups: '7.73 s' x2 weight 4.00; '8 s' x1 weight 1.00"
    assert answer.usage == tree.usage()
    assert answer.evidence and answer.evidence[0].times_s == (7.73, 10.85)


def test_a_first_action_that_repeats_a_sibling_is_a_penalized_failure() -> None:
    def repeat_when(messages: list[Message]) -> str:
        last = messages[-1].content
        if "Earlier attempts" in last:
            return act("when", "  COUNT. ")  # the same call as its sibling, written differently
        return finish("7.73 s") if last.startswith("Observation: Said from") else act("when", "count")

    llm = ScriptedChat([repeat_when] * 10)
    tool = when_tool()
    answer = ask("When?", make_ctx(llm), planner="mcts", tools=[tool], settings=mcts(3, agree_stop=0))
    tree = answer.tree
    repeats = [n for n in tree if "repeats the first action of sibling node" in n.note]
    assert repeats and all(n.status == "failure" and n.reward == -1.0 for n in repeats)
    # A rejected expansion cost its one LLM call and ran no further: no tool call, no chain behind it.
    assert all(not n.children for n in repeats)
    assert len(tool.calls) == 3 - len(repeats)
    leaves = [n for n in tree if n.terminal and n.kind == "step"]
    expected = recomputed_rewards(tree, leaves)
    assert all(n.reward == pytest.approx(expected[n.id]) for n in tree if n.kind in ("root", "step"))
    assert answer.text == "7.73 s"


def test_the_search_stops_when_the_first_chains_agree() -> None:
    llm = ScriptedChat([finish("7.73 s"), finish("At 7.73 s.")] + [finish("9 s")] * 2)
    answer = ask("When?", make_ctx(llm), planner="mcts", tools=[when_tool()], settings=mcts(4))
    assert llm.kinds == ["chain"] * 2 and answer.text == "7.73 s"
    assert answer.tree.root.note == "stopped early: the first 2 chains agree"


def test_disagreeing_first_chains_go_on_and_the_larger_group_wins() -> None:
    llm = ScriptedChat([finish("7.73 s"), finish("9 s"), finish("7.73 s.")])
    answer = ask("When?", make_ctx(llm), planner="mcts", tools=[when_tool()], settings=mcts(3))
    assert llm.kinds == ["chain"] * 3 and answer.text == "7.73 s"
    assert answer.tree.root.note == ""


def test_tied_groups_are_summarized() -> None:
    llm = ScriptedChat([finish("7 s"), finish("9 s")], routes={SUMMARY: ["Between 7 and 9 s."]})
    answer = ask("When?", make_ctx(llm), planner="mcts", tools=[when_tool()], settings=mcts(2))
    assert llm.kinds == ["chain", "chain", SUMMARY] and answer.text == "Between 7 and 9 s."
    assert "(tie: summarized)" in next(n for n in answer.tree if n.kind == "vote").note


def test_failures_get_negative_reward_and_never_crash() -> None:
    llm = ScriptedChat(["no idea"] * 4)
    answer = ask("When?", make_ctx(llm), planner="mcts", tools=[when_tool()], settings=mcts(4))
    assert not answer.ok and len(llm.calls) == 4
    failures = [n for n in answer.tree if n.status == "failure"]
    assert len(failures) == 4 and all(n.reward == -1.0 for n in failures)
    assert answer.tree.root.reward < 0


def test_failed_branches_make_room_for_a_later_answer() -> None:
    llm = ScriptedChat(["garbage", finish("9 s")])
    answer = ask("When?", make_ctx(llm), planner="mcts", tools=[when_tool()], settings=mcts(2))
    assert answer.ok and answer.text == "9 s"
    assert answer.tree.root.reward == pytest.approx(-1.0 + 1.0)


def test_multiple_choice_is_decided_by_vote() -> None:
    llm = ScriptedChat([finish("B"), finish("A) trains"), finish("(B) people")])
    settings = AgentSettings(mcts=MctsSettings(n_solutions=3), choices=ChoiceSettings(verify="never"))
    answer = ask(
        "What should be counted?",
        make_ctx(llm),
        planner="mcts",
        tools=[when_tool()],
        choices=["trains", "people"],
        settings=settings,
    )
    assert answer.choice == 1 and answer.text == "people"
    vote = next(n for n in answer.tree if n.kind == "vote")
    assert vote.note == "votes: A=1, B=2"


def test_selection_is_repeatable_with_a_seed() -> None:
    def run() -> list[int | None]:
        llm = ScriptedChat([reply_by_history] * 20, routes={SUMMARY: ["s"] * 2})
        ans = ask("When?", make_ctx(llm), planner="mcts", tools=[when_tool()], settings=mcts(4, seed=7))
        return [n.parent for n in ans.tree]

    assert run() == run()


@pytest.mark.parametrize(
    "kw",
    [
        *({"n_solutions": 0}, {"alpha": 0.0}, {"beta": -1.0}, {"selection_temperature": 0.0}, {"max_depth": 0}),
        *({"agree_stop": 1}, {"agree_stop": -1}),
    ],
)
def test_bad_settings_are_rejected(kw: dict[str, float]) -> None:
    with pytest.raises(Exception, match="mcts needs"):
        MctsSettings(**kw)  # type: ignore[arg-type]


# -- merging answers by their evidence -----------------------------------------------------------
ROWS = Evidence("when", rows=({"start_s": 7.73, "end_s": 10.85, "text": "Please count the people crossing"},))


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("7.73 s", "At 7.73 seconds.", True),  # the same numbers
        ("The train", "the train.", True),  # the same words
        ("7.73 s", "8 s", False),
        ("a red car", "a blue car", False),
        ("", "7 s", False),
    ],
)
def test_same_answer(a: str, b: str, same: bool) -> None:
    assert same_answer(a, b) is same


@pytest.mark.parametrize(
    ("answer", "evidence", "expected"),
    [
        ("7.73 s", [ROWS], 1.0),
        ("7.7 s to 10.9 s", [ROWS], 1.0),  # within 0.15 of a held value
        ("At 8 s the people leave", [ROWS], 1 / 3),  # 8: no; people: yes; leave: no
        ("people crossing", [ROWS], 1.0),
        ("7.73 s", [], 0.0),  # no rows: no support
        ("yes", [ROWS], 0.0),
    ],
)
def test_support_is_the_share_of_the_answer_the_rows_hold(
    answer: str, evidence: list[Evidence], expected: float
) -> None:
    assert support(answer, evidence) == pytest.approx(expected)


def test_groups_weigh_members_by_support() -> None:
    tree = SearchTree("q")
    looked = tree.add(0, "step", Step("t", "when", "count", Observation("rows", (ROWS,))))
    grounded = tree.add(looked.id, "step", Step("t", "finish", "7.73 s", Observation("7.73 s", final=True)))
    guesses = [tree.add(0, "step", Step("t", "finish", a, Observation(a, final=True))) for a in ("9 s", "9 s.")]
    for n in (grounded, *guesses):
        n.status, n.answer = "answer", n.step.action_input  # type: ignore[union-attr]
    groups = group_answers(tree, [grounded, *guesses])
    assert [(g.best.answer, len(g.members), g.weight) for g in groups] == [("7.73 s", 1, 2.0), ("9 s", 2, 2.0)]
