"""Every prompt vidmem's agents send, loaded one way: YAML files in this package, read as package
resources, each key a `string.Template` ($name placeholders; $$ for a dollar sign).

    prompt("planner:critic").text                      # a prompt without placeholders
    render("planner:system", tools="- when: ...")      # placeholders filled; a missing one raises
    render("sql/subagent:repair", error="no column x")
    load_yaml("sql/when")                              # a data file (a SQL sub-task's definition)

Files: planner.yaml (the chain and the planners around it), tools.yaml (prompts the tools send to
their own model calls), sql/subagent.yaml (the SQL sub-agent) and sql/<sub-task>.yaml (each
sub-task's tables and few-shot examples).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources
from string import Template
from typing import Any

import yaml

from agents.errors import AgentError

__all__ = ["Prompt", "load_yaml", "prompt", "render"]


@cache
def load_yaml(path: str) -> dict[str, Any]:
    """The mapping in agents/prompts/<path>.yaml (path uses '/', no suffix)."""
    where = f"agents/prompts/{path}.yaml"
    try:
        text = resources.files(__name__).joinpath(*f"{path}.yaml".split("/")).read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise AgentError(f"prompt file {where} is missing from the installed package") from exc
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise AgentError(f"{where} is not valid YAML: {exc}") from exc
    if not isinstance(data, dict):
        raise AgentError(f"{where} must hold a mapping, got {type(data).__name__}")
    return data


@dataclass(frozen=True)
class Prompt:
    """One prompt: its reference ('file:key') and its text with $placeholders."""

    ref: str
    text: str

    def render(self, **values: Any) -> str:
        """The text with every placeholder filled; a placeholder without a value is a vidmem bug.

        >>> Prompt("x:y", "Find $what; it costs $$2.").render(what="the sign")
        'Find the sign; it costs $2.'
        """
        try:
            return Template(self.text).substitute(values)
        except KeyError as exc:
            raise AgentError(f"prompt {self.ref} needs a value for ${exc.args[0]}") from None
        except ValueError as exc:
            raise AgentError(f"prompt {self.ref} has a malformed placeholder: {exc}") from None


@cache
def prompt(ref: str) -> Prompt:
    """The prompt `ref` = 'file:key' (file relative to agents/prompts, without .yaml).

    >>> "Final Answer:" in prompt("planner:system").text
    True
    """
    path, sep, key = ref.rpartition(":")
    if not sep or not path or not key:
        raise AgentError(f"a prompt reference is 'file:key', e.g. 'planner:system'; got {ref!r}")
    data = load_yaml(path)
    if key not in data:
        raise AgentError(f"agents/prompts/{path}.yaml has no prompt {key!r}; it has: {', '.join(data)}")
    return Prompt(ref, str(data[key]).strip())


def render(ref: str, **values: Any) -> str:
    """`prompt(ref)` with its placeholders filled."""
    return prompt(ref).render(**values)
