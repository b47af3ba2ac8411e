"""The planner budget flags of `vidmem ask` and `vidmem eval` reach the agents' settings: parsed by
the real parser, mapped by `budget_values`, built by `compose.agent_settings`."""

import pytest

from vidmem.cli import budget_values, build_parser
from vidmem.compose import agent_settings

FLAGS = ["--max-steps", "3", "--mcts-n", "2", "--critic-rounds", "1", "--brief-tokens", "300", "--tools-first"]


@pytest.mark.parametrize("argv", [["ask", "When?", *FLAGS], ["eval", "questions.jsonl", *FLAGS]])
def test_every_budget_flag_reaches_the_settings(argv: list[str]) -> None:
    args = build_parser(argv[0]).parse_args(argv)
    s = agent_settings(**budget_values(args))
    assert s.brief_tokens == 300 and s.mcts.n_solutions == 2 and s.critic.max_rounds == 1
    for planner in (s.react, s.mcts, s.critic, s.self_consistency):
        assert planner.chain.max_steps == 3 and planner.chain.read_first is False


def test_no_flags_keep_the_defaults() -> None:
    args = build_parser("ask").parse_args(["ask", "When?"])
    assert budget_values(args) == {"max_steps": None, "mcts_n": None, "critic_rounds": None, "brief_tokens": None,
                                   "tools_first": False}
    assert agent_settings(**budget_values(args)) == agent_settings()
