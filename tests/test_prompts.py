"""Every prompt is loaded one way (agents.prompts): package YAML files, rendered with their
placeholders filled; a missing value, an unknown prompt or file is a clear AgentError."""

from importlib import resources

import pytest

from agents.errors import AgentError
from agents.prompts import load_yaml, prompt, render


def _yaml_files() -> list[str]:
    root = resources.files("agents.prompts")
    names = [f"{p.name[:-5]}" for p in root.iterdir() if p.name.endswith(".yaml")]
    names += [f"sql/{p.name[:-5]}" for p in root.joinpath("sql").iterdir() if p.name.endswith(".yaml")]
    return sorted(names)


def test_prompts_are_yaml_files_only() -> None:
    root = resources.files("agents.prompts")
    assert not [p.name for p in root.iterdir() if p.name.endswith(".txt")]
    assert {"planner", "tools", "sql/subagent", "sql/when"} <= set(_yaml_files())
    for name in _yaml_files():
        assert load_yaml(name)


@pytest.mark.parametrize(
    ("ref", "values", "expected"),
    [
        ("planner:system", {"tools": "- when: finds times"}, "Tools:\n- when: finds times\n"),
        ("planner:expand", {"actions": "- when: count"}, "- when: count\nTake a different action"),
        ("sql/subagent:repair", {"error": "no column x"}, "That query failed: no column x"),
        ("tools:caption_track", {"category": "person", "track_id": 3, "focus": "the bag"}, "one person (track 3)"),
    ],
)
def test_render_fills_every_placeholder(ref: str, values: dict[str, object], expected: str) -> None:
    text = render(ref, **values)
    assert expected in text and "$" not in text


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: render("planner:system"), r"prompt planner:system needs a value for \$tools"),
        (lambda: prompt("planner:nothing"), "planner.yaml has no prompt 'nothing'; it has: system, "),
        (lambda: prompt("nowhere:system"), "prompt file agents/prompts/nowhere.yaml is missing"),
        (lambda: prompt("planner"), "a prompt reference is 'file:key'"),
    ],
    ids=["missing-value", "unknown-key", "unknown-file", "bad-ref"],
)
def test_mistakes_are_clear_errors(call: object, message: str) -> None:
    with pytest.raises(AgentError, match=message):
        call()  # type: ignore[operator]
