"""The tolerant parser of model output: what small models really write, success and failure side by side."""

from typing import Any

import pytest

from agents.errors import ModelOutputError
from agents.parsing import (
    Action,
    bind_inputs,
    extract_sql,
    match_name,
    parse_action,
    parse_fields,
    parse_json,
    parse_json_object,
    parse_yes_no,
)
from agents.steps import Observation
from agents.tools.base import Tool, ToolInput, takes

TOOLS = ["when", "count", "query_transcript", "finish"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Thought: need times\nAction: when\nAction Input: when is the train mentioned?",
         Action("need times", "when", "when is the train mentioned?")),
        ("**Thought:** count them\n**Action:** `Count`\n**Action Input:** \"how many people?\"",
         Action("count them", "count", "how many people?")),
        ("thought: x\naction: Query Transcript\naction input: red train\nObservation: made up\nAction: finish",
         Action("x", "query_transcript", "red train")),
        ("Thought: done\nFinal Answer: 3 people, at 5 s", Action("done", "finish", "3 people, at 5 s")),
        ('```json\n{"thought": "t", "action": "when", "action_input": {"q": "train"}}\n```',
         Action("t", "when", '{"q": "train"}')),
        ("{'thought': 't', 'action': 'count', 'input': 'people'}", Action("t", "count", "people")),
        ('Thought: t\nAction: when("the red train")', Action("t", "when", "the red train")),
        ('Thought: t\nAction: when("train")\nAction Input: the red train', Action("t", "when", "the red train")),
        ("Thought: t\nAction: when(4-9)\nAction Input: None", Action("t", "when", "4-9")),
        ("Thought: t\nAction: when(4-9)\nAction Input: `null`", Action("t", "when", "4-9")),
        ("Thought: t\nAction 1: when\nAction Input 1: ```\nmulti\nline\n```", Action("t", "when", "multi\nline")),
        ("Action: query_trancript\nAction Input: typo", Action("", "query_transcript", "typo")),
    ],
)  # fmt: skip
def test_parse_action_reads_sloppy_replies(text: str, expected: Action) -> None:
    assert parse_action(text, TOOLS) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("I think the answer is probably three.", "no 'Action:' line"),
        ("", "no 'Action:' line"),
        ("Thought: t\nAction: teleport\nAction Input: x", "unknown tool 'teleport'; use one of: when, count"),
        ('{"thought": "no action key"}', "no 'Action:' line"),
    ],
)
def test_parse_action_failures_say_what_to_write(text: str, message: str) -> None:
    with pytest.raises(ModelOutputError, match=message):
        parse_action(text, TOOLS)


def test_parse_action_without_tools_keeps_the_name() -> None:
    assert parse_action("Action: Anything\nAction Input: 1").action == "Anything"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"a": 1}', {"a": 1}),
        ('Here: ```json\n{"a": [1, 2,],}\n```', {"a": [1, 2]}),
        ("{'a': True, 'b': None}", {"a": True, "b": None}),
        ('{a: 1, "b": "x: y"}', {"a": 1, "b": "x: y"}),
        ('prefix {"a": {"b": "}"}} suffix {"c": 2}', {"a": {"b": "}"}}),
        ('{"a": "cut off', {"a": "cut off"}),
        ('[{"a": 1}]', [{"a": 1}]),
        ('{"a": true, "b": null}', {"a": True, "b": None}),
    ],
)
def test_parse_json_tolerates(text: str, expected: object) -> None:
    assert parse_json(text) == expected


@pytest.mark.parametrize("text", ["no json here", "{{{{", "{'a': 1 2}"])
def test_parse_json_failures(text: str) -> None:
    with pytest.raises(ModelOutputError):
        parse_json(text)


def test_parse_json_object_keys() -> None:
    assert parse_json_object('[{"a": 1}]', required=["a"]) == {"a": 1}
    assert parse_json_object('{"a": 1}', required=["a", "b"], defaults={"b": 2}) == {"a": 1, "b": 2}
    with pytest.raises(ModelOutputError, match="lacks the keys"):
        parse_json_object('{"a": 1}', required=["b"])
    with pytest.raises(ModelOutputError, match="expected a JSON object"):
        parse_json_object("[1, 2]")


@pytest.mark.parametrize(
    ("text", "sql"),
    [
        ("```sql\nSELECT 1\n```", "SELECT 1"),
        ("Sure:\n```sql\nSELECT count(*) FROM tracks;\n```\nThis counts.", "SELECT count(*) FROM tracks"),
        ("```\nWITH a AS (SELECT 1) SELECT * FROM a\n```", "WITH a AS (SELECT 1) SELECT * FROM a"),
        ('{"sql": "SELECT 2"}', "SELECT 2"),
        ("SQL: SELECT 3 AS x\n\nThis returns three.", "SELECT 3 AS x"),
        ("The query is SELECT text FROM ocr WHERE text ILIKE '%x%'", "SELECT text FROM ocr WHERE text ILIKE '%x%'"),
        ("SELECT 'a;b' AS x; DROP TABLE tracks", "SELECT 'a;b' AS x"),
        ("SELECT 1 -- no; really\n, 2", "SELECT 1 -- no; really\n, 2"),
        ("FROM tracks SELECT category", "FROM tracks SELECT category"),
        ("SELECT a\nFROM t\n\nWHERE a > 1", "SELECT a\nFROM t\n\nWHERE a > 1"),
    ],
)  # fmt: skip
def test_extract_sql(text: str, sql: str) -> None:
    assert extract_sql(text) == sql


def test_extract_sql_failure() -> None:
    with pytest.raises(ModelOutputError, match="no SQL found"):
        extract_sql("I cannot answer that.")


def test_parse_fields_and_verdicts() -> None:
    text = "Criteria: 1. full\n2. yes\n**Verdict:** NO\nFeedback: check the\ntranscript at 8 s"
    fields = parse_fields(text, ["Criteria", "Verdict", "Feedback"])
    assert fields == {"Criteria": "1. full\n2. yes", "Verdict": "NO", "Feedback": "check the\ntranscript at 8 s"}
    assert parse_fields("Winners: 1, 3", ["Winners", "Reasoning"]) == {"Winners": "1, 3"}
    assert [parse_yes_no(t) for t in ("YES.", "**no**: wrong", "Maybe", "yesterday")] == [True, False, None, None]


def test_match_name() -> None:
    assert match_name("QUERY-transcript", TOOLS) == "query_transcript"
    assert match_name("nothing", TOOLS) is None


# -- binding a tool call to the tool's declared, typed inputs ------------------------------------
VISION = takes(
    question=ToolInput("string", "what to ask"),
    start_s=ToolInput("number", "from", required=False),
    end_s=ToolInput("number", "to", required=False),
)
FRAMES = takes(times_s=ToolInput("numbers", "frame times"), track_id=ToolInput("integer", "a track", required=False))
ONE = takes(question=ToolInput("string", "the sub-question"))


@pytest.mark.parametrize(
    ("inputs", "written", "bound"),
    [
        (ONE, "When is the train mentioned?", {"question": "When is the train mentioned?"}),
        (ONE, '{"question": "the train"}', {"question": "the train"}),
        (ONE, '{"q": "the train"}', {"question": "the train"}),  # a one-input tool takes a lone value
        (ONE, 'question="the train"', {"question": "the train"}),  # Action: when(question="the train")
        (ONE, "{not json at all", {"question": "{not json at all"}),  # a text input may look odd
        (VISION, '{"Question": "what colour?", "start_s": "3.5 s", "end_s": 8}',
         {"question": "what colour?", "start_s": 3.5, "end_s": 8.0}),
        (VISION, "what moves 2-4", {"question": "what moves 2-4"}),  # the tool reads the range itself
        (VISION, "{'text': 'what colour?', 'start-s': 1}", {"question": "what colour?", "start_s": 1.0}),
        (VISION, "question='the car', start_s=2, end_s=4.5", {"question": "the car", "start_s": 2.0, "end_s": 4.5}),
        (VISION, {"question": "asked directly", "extra": 1}, {"question": "asked directly"}),
        (FRAMES, "2, 6.5", {"times_s": [2.0, 6.5]}),
        (FRAMES, '{"times_s": "2 s and 6 s", "track_id": "3"}', {"times_s": [2.0, 6.0], "track_id": 3}),
        (FRAMES, '{"times_s": 4}', {"times_s": [4.0]}),
    ],
)  # fmt: skip
def test_bind_inputs_maps_sloppy_calls_onto_typed_inputs(inputs: Any, written: Any, bound: dict[str, Any]) -> None:
    assert bind_inputs("tool", inputs, written) == bound


@pytest.mark.parametrize(
    ("inputs", "written", "message"),
    [
        (ONE, "  ", r"tool needs question \(string\): the sub-question"),
        (VISION, '{"start_s": 3}', r"tool needs question \(string\): what to ask"),
        (VISION, '{"question": "x", "start_s": "soon"}', "tool: start_s must be a number, got 'soon'"),
        (FRAMES, "the person's bag", r"tool: times_s must be a number or a list of numbers"),
        (FRAMES, '{"times_s": [1, 2', None),  # cut-off JSON is closed and read
        (VISION, '{"question": "x" "start_s": 1}', "could not read the JSON"),
    ],
)
def test_bind_inputs_failures_say_what_the_tool_needs(inputs: Any, written: str, message: str | None) -> None:
    if message is None:
        assert bind_inputs("tool", inputs, written) == {"times_s": [1.0, 2.0]}
        return
    with pytest.raises(ModelOutputError, match=message):
        bind_inputs("tool", inputs, written)


def test_a_tool_shows_an_input_mistake_as_an_observation() -> None:
    class Echo(Tool):
        name = "echo"
        description = "Says the question back."
        inputs = VISION

        def forward(self, ctx: Any, question: str, start_s: float = 0.0, end_s: float | None = None) -> Observation:
            return Observation(f"{question} from {start_s}")

    assert Echo().run('{"question": "hi", "start_s": 2}', None).text == "hi from 2.0"  # type: ignore[arg-type]
    bad = Echo().run('{"question": "hi", "start_s": "later"}', None)  # type: ignore[arg-type]
    assert bad.error == "echo: start_s must be a number, got 'later'" and not bad.text
    assert Echo().prompt_line() == (
        '- echo: Says the question back. Input: {"question": what to ask, "start_s": number, from (optional), '
        '"end_s": number, to (optional)}.'
    )
