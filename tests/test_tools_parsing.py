"""The tolerant parser of model output: what small models really write, success and failure side by side."""

import pytest

from agents.errors import ModelOutputError
from agents.parsing import (
    Action,
    extract_sql,
    match_name,
    parse_action,
    parse_fields,
    parse_json,
    parse_json_object,
    parse_yes_no,
)

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
