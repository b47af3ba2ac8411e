"""Reading what a model wrote, however sloppily: ReAct actions, JSON, SQL and labelled fields.

Small models wrap answers in code fences, add prose before and after, use single quotes, bold the
labels, or forget a key. Every function here takes the raw reply text and either returns what was
asked for or raises `ModelOutputError` whose message tells the model what to write instead (show it
back as an observation; it is never a vidmem bug).

    parse_action(text, tools=None) -> Action
        One ReAct turn, from `Thought:/Action:/Action Input:` lines or a JSON object
        ({"thought", "action", "action_input"}). `Final Answer: x` becomes action 'finish'.
        With `tools`, the action name is matched to one of them (case, spaces, backticks, close typos).
    parse_json(text) -> Any
        The first JSON value in the text: code fences, trailing prose, single quotes, Python
        literals, trailing commas, unquoted keys and a truncated tail are tolerated.
    parse_json_object(text, required=(), defaults=None) -> dict
        parse_json that must give an object; missing keys come from `defaults` or raise.
    extract_sql(text) -> str
        The SQL in a reply: a ```sql fence or a JSON {"sql": ...} whole (the guard judges it), else
        an `SQL:` line or the text from the first SELECT / WITH / FROM, up to its `;` or prose.
    parse_fields(text, names) -> dict[str, str]
        Labelled fields such as `Verdict: YES` / `Feedback: ...` (multi-line values, any case,
        markdown bold); absent labels are missing from the result.
    parse_yes_no(text) -> bool | None
        YES / NO at the start of a verdict; None when neither.
    denies(answer) -> bool
        Whether an answer says no, not, nothing, unknown: that the memory lacks it, or a no.
    bind_inputs(tool, inputs, action_input) -> dict
        A tool call's input (free text, JSON, key=value pairs or a mapping) mapped onto the tool's
        declared, typed inputs.

>>> parse_action("Thought: need the count\\nAction: Count\\nAction Input: how many people?").action
'Count'
>>> parse_json("Sure! ```json\\n{'a': 1, 'b': [1, 2,],}\\n``` hope that helps")
{'a': 1, 'b': [1, 2]}
>>> extract_sql("Here you go:\\n```sql\\nSELECT 1;\\n```\\nThis selects one.")
'SELECT 1'
"""

import ast
import difflib
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from agents.errors import ModelOutputError

__all__ = [
    "Action",
    "bind_inputs",
    "denies",
    "extract_sql",
    "match_name",
    "parse_action",
    "parse_fields",
    "parse_json",
    "parse_json_object",
    "parse_yes_no",
    "strip_fences",
    "without_brief_marks",
]

FINISH = "finish"

REACT_FORMAT = "Thought: <your reasoning>\nAction: <tool name>\nAction Input: <input for the tool>"


@dataclass(frozen=True)
class Action:
    """One parsed ReAct turn. `action_input` is text; an object input is re-encoded as JSON."""

    thought: str
    action: str
    action_input: str


# -- fences ------------------------------------------------------------------------------------
_FENCE = re.compile(r"```[ \t]*([\w+-]*)[ \t]*\n?(.*?)(?:```|\Z)", re.S)


def strip_fences(text: str, prefer: str | None = None) -> str:
    """The content of the first code fence (the first labelled `prefer`, when given), else `text`.

    >>> strip_fences("x\\n```\\nbody\\n```\\ny")
    'body'
    """
    fences = [(m.group(1).lower(), m.group(2)) for m in _FENCE.finditer(text)]
    if not fences:
        return text.strip()
    if prefer:
        for label, body in fences:
            if label == prefer:
                return body.strip()
    return fences[0][1].strip()


# -- JSON --------------------------------------------------------------------------------------
def _balanced(text: str, start: int) -> str:
    """The bracketed value starting at `start`, closed if the reply was cut off."""
    stack: list[str] = []
    quote: str | None = None
    escaped = False
    for i in range(start, len(text)):
        ch = text[i]
        if quote:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == quote:
                quote = None
            continue
        if ch in "\"'":
            quote = ch
        elif ch in "[{":
            stack.append("]" if ch == "[" else "}")
        elif ch in "]}":
            if not stack or stack[-1] != ch:
                return text[start:i]  # mismatched: let the decoder complain about the part before
            stack.pop()
            if not stack:
                return text[start : i + 1]
    # Truncated reply (max_tokens): close the open string and brackets.
    return text[start:] + (quote or "") + "".join(reversed(stack))


_TRAILING_COMMA = re.compile(r",\s*([}\]])")
_BARE_KEY = re.compile(r"([{,]\s*)([A-Za-z_][\w ]*?)\s*:(?!//)")
_PY_CONST = {"true": "True", "false": "False", "null": "None"}


def _decode(candidate: str) -> Any:
    attempts = [candidate, _TRAILING_COMMA.sub(r"\1", candidate)]
    attempts.append(_BARE_KEY.sub(lambda m: f'{m.group(1)}"{m.group(2).strip()}":', attempts[-1]))
    for attempt in attempts:
        try:
            return json.loads(attempt)
        except json.JSONDecodeError:
            pass
        try:  # single quotes and Python constants: a Python literal
            py = re.sub(r"\b(true|false|null)\b", lambda m: _PY_CONST[m.group(1)], attempt)
            return ast.literal_eval(py)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            pass
    raise ValueError(candidate)


def parse_json(text: str) -> Any:
    """The first JSON object or array in `text` (see the module docstring for what is tolerated).

    >>> parse_json('{action: "when", "action_input": "red train"')
    {'action': 'when', 'action_input': 'red train'}
    """
    body = strip_fences(text, prefer="json")
    starts = [i for i in (body.find("{"), body.find("[")) if i >= 0]
    if not starts:
        raise ModelOutputError(f"expected a JSON object, found none in: {_clip(text)}")
    start = min(starts)
    try:
        return _decode(_balanced(body, start))
    except ValueError:
        raise ModelOutputError(
            f"could not read the JSON in your reply: {_clip(body[start:])}. Reply with valid JSON."
        ) from None


def parse_json_object(
    text: str, required: Sequence[str] = (), defaults: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """parse_json that must give an object holding `required` keys (or their `defaults`).

    >>> parse_json_object('{"verdict": "YES"}', required=["verdict", "feedback"], defaults={"feedback": ""})
    {'verdict': 'YES', 'feedback': ''}
    """
    value = parse_json(text)
    if isinstance(value, list) and len(value) == 1 and isinstance(value[0], dict):
        value = value[0]
    if not isinstance(value, dict):
        raise ModelOutputError(f"expected a JSON object with keys {list(required)}, got {type(value).__name__}")
    out = {str(k): v for k, v in value.items()}
    for key, default in (defaults or {}).items():
        out.setdefault(key, default)
    missing = [k for k in required if k not in out]
    if missing:
        raise ModelOutputError(f"your JSON lacks the keys {missing}; it must have {list(required)}")
    return out


# -- ReAct -------------------------------------------------------------------------------------
# A label at the start of a line, maybe bolded or numbered: "**Action 2:**", "action input:".
_LABEL = re.compile(
    r"^[ \t>#*_-]*(thought|action[ _]input|action|final[ _]answer|observation)"
    r"(?:[ \t]*\d+)?[ \t]*[*_]*[ \t]*:[ \t]*[*_]*",
    re.I | re.M,
)
_CALL = re.compile(r"^([\w.-]+)\s*\((.*)\)\s*$", re.S)
# What small models write under "Action Input:" after putting the arguments in the call itself.
_NO_INPUT = {"", "none", "null", "n/a", "-", "{}", "()"}


def _labelled(text: str) -> list[tuple[str, str]]:
    marks = list(_LABEL.finditer(text))
    out = []
    for i, m in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
        out.append((m.group(1).lower().replace("_", " "), text[m.end() : end].strip()))
    return out


def _unwrap(value: str) -> str:
    value = strip_fences(value) if "```" in value else value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'`":
        inner = value[1:-1]
        if value[0] == '"':
            try:
                return str(json.loads(value))
            except json.JSONDecodeError:
                return inner
        return inner
    return value


def _clean_name(name: str) -> str:
    name = name.strip().splitlines()[0] if name.strip() else ""
    return name.strip(" \t`'\"*[]<>.:").strip()


def match_name(name: str, known: Iterable[str]) -> str | None:
    """The one of `known` that `name` means: exact, then ignoring case and separators, then a
    close typo; None when nothing fits.

    >>> match_name("Query Transcript", ["query_transcript", "when"])
    'query_transcript'
    """
    names = list(known)
    if name in names:
        return name

    def norm(s: str) -> str:
        return re.sub(r"[\s_-]+", "_", s.strip().lower())

    by_norm = {norm(n): n for n in names}
    if norm(name) in by_norm:
        return by_norm[norm(name)]
    close = difflib.get_close_matches(norm(name), list(by_norm), n=1, cutoff=0.85)
    return by_norm[close[0]] if close else None


def _from_json_action(text: str) -> Action | None:
    try:
        obj = parse_json_object(text)
    except ModelOutputError:
        return None
    keys = {re.sub(r"[\s_-]+", "_", k.lower()): v for k, v in obj.items()}
    action = keys.get("action") or keys.get("tool") or keys.get("name")
    value = next((keys[k] for k in ("action_input", "input", "args", "arguments", "tool_input") if k in keys), "")
    thought = str(keys.get("thought", keys.get("reasoning", "")))
    if action is None and "final_answer" in keys:
        action, value = FINISH, keys["final_answer"]
    if not isinstance(action, str):
        return None
    text_input = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return Action(thought.strip(), action, text_input.strip())


def parse_action(text: str, tools: Iterable[str] | None = None) -> Action:
    """One ReAct turn out of `text`. Raises ModelOutputError (with the expected format) when there
    is no action, or when `tools` is given and the action names none of them.

    >>> parse_action("**Thought:** done\\n**Final Answer:** 7 people").action_input
    '7 people'
    >>> parse_action('{"thought": "t", "action": "when", "action_input": {"q": "x"}}').action_input
    '{"q": "x"}'
    """
    fields = _labelled(text)
    # What follows a made-up "Observation:" is the model talking to itself; ignore it.
    first_obs = next((i for i, (label, _) in enumerate(fields) if label == "observation"), len(fields))
    fields = fields[:first_obs]
    thought_parts = [v for label, v in fields if label == "thought"]
    actions = [i for i, (label, _) in enumerate(fields) if label == "action"]
    parsed: Action | None = None
    if actions:
        i = actions[0]  # one action per turn: the first
        name = _clean_name(fields[i][1])
        value = next((v for label, v in fields[i + 1 :] if label == "action input"), None)
        call = _CALL.match(name)
        if call:  # Action: when("red train"); an Action Input line wins unless it is a placeholder
            name = call.group(1)
            if value is None or _unwrap(value).lower() in _NO_INPUT:
                value = call.group(2)
        thought = thought_parts[0] if thought_parts else ""
        parsed = Action(thought, name, _unwrap(value or ""))
    else:
        final = [v for label, v in fields if label == "final answer"]
        if final:
            parsed = Action(thought_parts[0] if thought_parts else "", FINISH, _unwrap(final[0]))
        elif "{" in text:
            parsed = _from_json_action(text)
    if parsed is None or not parsed.action:
        raise ModelOutputError(f"your reply has no 'Action:' line. Reply in exactly this format:\n{REACT_FORMAT}")
    if tools is not None:
        known = list(tools)
        matched = match_name(parsed.action, known)
        if matched is None:
            raise ModelOutputError(f"unknown tool {parsed.action!r}; use one of: {', '.join(known)}")
        parsed = Action(parsed.thought, matched, parsed.action_input)
    return parsed


# -- SQL ---------------------------------------------------------------------------------------
_SQL_START = re.compile(r"(?<![\w.])(WITH|SELECT|FROM)\b", re.I)
_SQL_LABEL = re.compile(r"^[ \t*_]*(?:sql|query)[ \t*_]*:[ \t]*", re.I | re.M)


def _end_of_statement(sql: str) -> int:
    """Index of the first `;` outside quotes and comments, else len(sql)."""
    i, n = 0, len(sql)
    while i < n:
        ch = sql[i]
        if ch in "'\"":
            close = sql.find(ch, i + 1)
            while close != -1 and close + 1 < n and sql[close + 1] == ch:  # doubled quote escape
                close = sql.find(ch, close + 2)
            i = n if close == -1 else close + 1
            continue
        if sql.startswith("--", i):
            nl = sql.find("\n", i)
            i = n if nl == -1 else nl + 1
            continue
        if sql.startswith("/*", i):
            close = sql.find("*/", i + 2)
            i = n if close == -1 else close + 2
            continue
        if ch == ";":
            return i
        i += 1
    return n


def _drop_trailing_prose(sql: str) -> str:
    # A blank line then a sentence ("This query counts ...") ends the statement.
    parts = re.split(r"\n[ \t]*\n", sql)
    kept = [parts[0]]
    for part in parts[1:]:
        if re.match(r"\s*(--|/\*|[A-Z][a-z]+[ ,][a-z])", part) and not _SQL_START.match(part.strip()):
            break
        kept.append(part)
    return "\n\n".join(kept)


def extract_sql(text: str) -> str:
    """The SQL in a model's reply, without a trailing semicolon (see module docstring).

    A ```sql fence (or a JSON "sql" value) is taken whole, so that the guard judges what the model
    meant, stacked statements included, and says what is wrong. SQL found in prose is cut at its
    first `;` and before trailing prose.

    >>> extract_sql('{"sql": "SELECT count(*) FROM tracks"}')
    'SELECT count(*) FROM tracks'
    >>> extract_sql("SQL: SELECT 1 AS one\\n\\nThis returns one.")
    'SELECT 1 AS one'
    >>> extract_sql("```sql\\nDROP TABLE tracks;\\n```")
    'DROP TABLE tracks'
    """
    whole: str | None = None
    for label, inner in ((m.group(1).lower(), m.group(2)) for m in _FENCE.finditer(text)):
        if label in ("sql", "duckdb", "sqlite", "postgresql") or (not label and _SQL_START.search(inner)):
            whole = inner
            break
    if whole is None and text.lstrip().startswith("{"):
        try:
            value = parse_json_object(text).get("sql")
            whole = value if isinstance(value, str) else None
        except ModelOutputError:
            pass
    if whole is not None and whole.strip().rstrip(";").strip():
        sql = whole.strip()
        while sql.endswith(";"):
            sql = sql[:-1].rstrip()
        return sql
    label = _SQL_LABEL.search(text)
    body = text[label.end() :] if label else text
    start = _SQL_START.search(body)
    if start is None:
        raise ModelOutputError(
            f"no SQL found in your reply: {_clip(text)}. Reply with one SELECT statement in a ```sql block."
        )
    sql = body[start.start() :]
    sql = sql[: _end_of_statement(sql)]
    return _drop_trailing_prose(sql).strip().rstrip("`").strip()


# -- labelled fields ---------------------------------------------------------------------------
def parse_fields(text: str, names: Iterable[str]) -> dict[str, str]:
    """Values of `Name: value` fields (multi-line until the next label), keyed by the given names.

    >>> parse_fields("**Verdict:** no\\nFeedback: look at\\nthe transcript", ["Verdict", "Feedback"])
    {'Verdict': 'no', 'Feedback': 'look at\\nthe transcript'}
    """
    wanted = list(names)
    alternatives = "|".join(re.escape(n).replace(r"\ ", r"[ _]") for n in wanted)
    label = re.compile(rf"^[ \t>#*_-]*({alternatives})[ \t]*[*_]*[ \t]*:[ \t]*[*_]*", re.I | re.M)
    marks = list(label.finditer(text))
    out: dict[str, str] = {}
    for i, m in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
        key = next(n for n in wanted if n.lower().replace("_", " ") == m.group(1).lower().replace("_", " "))
        out.setdefault(key, text[m.end() : end].strip().strip("*_").strip())
    return out


def parse_yes_no(text: str) -> bool | None:
    """True for a reply starting YES, False for NO (any case, bold, punctuation); else None.

    >>> parse_yes_no("**NO**: the transcript says otherwise")
    False
    """
    m = re.match(r"[\s*_\"'`]*(yes|no)\b", text, re.I)
    return None if m is None else m.group(1).lower() == "yes"


# -- tool inputs -------------------------------------------------------------------------------
class InputSpec(Protocol):
    """What `bind_inputs` reads of a declared input (`agents.tools.base.ToolInput`)."""

    @property
    def type(self) -> str: ...
    @property
    def description(self) -> str: ...
    @property
    def required(self) -> bool: ...


#: Keys small models use for "the input" whatever the tool calls it.
_GENERIC_KEYS = ("input", "text", "query", "q", "value", "action_input", "arg", "args")
_KWARG = re.compile(r"""(?:^|,)\s*([A-Za-z_]\w*)\s*=\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|\[[^\]]*\]|[^,]*)""")
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def _kwargs(text: str, names: Sequence[str]) -> dict[str, Any] | None:
    """`question="x", start_s=3` as a dict, when every key names an input; else None."""
    pairs = _KWARG.findall(text)
    if not pairs or not all(match_name(k, names) for k, _ in pairs):
        return None
    if _KWARG.sub("", text).strip(" ,"):
        return None  # text outside the pairs: not a keyword call
    out: dict[str, Any] = {}
    for key, raw in pairs:
        raw = raw.strip()
        try:
            out[key] = _decode(raw) if raw[:1] in "[\"'" else raw
        except ValueError:
            out[key] = raw
    return out


def _coerce(tool: str, key: str, spec: InputSpec, value: Any) -> Any:
    wanted = {"numbers": "a number or a list of numbers (seconds)", "number": "a number", "integer": "an integer"}
    if spec.type == "string":
        if isinstance(value, list | tuple):
            return ", ".join(str(v) for v in value)
        return "" if value is None else str(value).strip()
    found: list[float] = []
    if isinstance(value, bool):
        pass
    elif isinstance(value, int | float):
        found = [float(value)]
    elif isinstance(value, list | tuple) and all(isinstance(v, int | float | str) for v in value):
        found = [float(n) for v in value for n in _NUMBER.findall(str(v))]
    elif isinstance(value, str):
        found = [float(n) for n in _NUMBER.findall(value)]  # "2.5 s", "2 s and 6 s"
    if not found:
        raise ModelOutputError(f"{tool}: {key} must be {wanted.get(spec.type, spec.type)}, got {_clip(str(value), 60)}")
    if spec.type == "numbers":
        return found
    return int(found[0]) if spec.type == "integer" else found[0]


def bind_inputs(tool: str, inputs: Mapping[str, InputSpec], action_input: str | Mapping[str, Any]) -> dict[str, Any]:
    """The model's input to `tool` as keyword arguments for its declared `inputs`, typed.

    Accepted: a mapping; a JSON object (keys matched like tool names; 'input', 'text', 'query' ...
    stand for the first string input, and a one-input tool takes a lone value whatever its key);
    `key=value` pairs; or free text, which is the first input (a 'numbers' input reads the numbers in
    it). Optional inputs left out are left out; raises ModelOutputError saying what `tool` needs.

    >>> specs = {"question": _Spec("string", "what to ask"), "start_s": _Spec("number", "from", False)}
    >>> bind_inputs("query_vision", specs, '{"Question": "what colour?", "start_s": "3.5 s"}')
    {'question': 'what colour?', 'start_s': 3.5}
    >>> bind_inputs("query_vision", specs, 'question="the car", start_s=2')
    {'question': 'the car', 'start_s': 2.0}
    >>> bind_inputs("when", {"question": _Spec("string", "the sub-question")}, '{"q": "the train"}')
    {'question': 'the train'}
    """
    names = list(inputs)
    given: dict[str, Any] | None = None
    if isinstance(action_input, Mapping):
        given = dict(action_input)
    else:
        text = action_input.strip()
        if text.startswith("{") and names:
            try:
                given = parse_json_object(text)
            except ModelOutputError:
                if len(names) > 1 or inputs[names[0]].type != "string":
                    raise
        elif names:
            given = _kwargs(text, names)
        if given is None:
            given = {names[0]: text} if names and text else {}
    args: dict[str, Any] = {}
    leftovers: list[Any] = []
    for key, value in given.items():
        name = match_name(str(key), names)
        if name is None or name in args:
            if str(key).lower() in _GENERIC_KEYS or len(names) == 1:
                leftovers.append(value)  # {"input": ...} or a one-input tool's value under any key
            continue
        args[name] = value
    first_string = next((n for n in names if inputs[n].type == "string"), None)
    if leftovers and first_string is not None and first_string not in args:
        args[first_string] = leftovers[0]
    out: dict[str, Any] = {}
    for name, spec in inputs.items():
        value = args.get(name)
        if value is None or (isinstance(value, str) and not value.strip()):
            if spec.required:
                raise ModelOutputError(f"{tool} needs {name} ({spec.type}): {spec.description}")
            continue
        out[name] = _coerce(tool, name, spec, value)
    return out


@dataclass(frozen=True)
class _Spec:  # for the doctests
    type: str
    description: str
    required: bool = True


def _clip(text: str, limit: int = 200) -> str:
    text = text.strip()
    return repr(text if len(text) <= limit else text[:limit] + "...")


_DENIES = re.compile(r"\b(?:not|never|no|nothing|none|unknown|cannot|can't|doesn't|isn't|wasn't)\b", re.I)


def denies(answer: str) -> bool:
    """Whether `answer` says no, not, nothing or unknown: that the memory lacks what was asked ("The
    announcement says nothing about a pet."), or a no ("No, the library is closed today.").

    >>> denies("The memory does not show it."), denies("No, it is closed."), denies("At 12.5 s.")
    (True, True, False)
    """
    return bool(_DENIES.search(answer))


#: The brief's own marks echoed into an answer: its arrow, and "The line marked best match:" opening it.
_BRIEF_ARROW = re.compile(r"\s*<-\s*best match\b")
_MARK_ECHO = re.compile(
    r"^\s*(?:the line marked (?:as )?(?:the )?best match|best match for the question)\s*[:,]\s*", re.I
)


def without_brief_marks(answer: str) -> str:
    """`answer` without the brief's marks a small model copied into it (users never see the brief's
    marks): "The line marked best match: 12-23 s ...", "best match for the question: ..." and '... <- best match'.

    >>> without_brief_marks('The line marked best match: 12-23 s on-screen text: "WINE LIST".')
    '12-23 s on-screen text: "WINE LIST".'
    >>> without_brief_marks('best match for the question: 3-5 s speech: "Gate 4."')
    '3-5 s speech: "Gate 4."'
    >>> without_brief_marks("A ticket to Vienna cost $85. <- best match")
    'A ticket to Vienna cost $85.'
    """
    return _MARK_ECHO.sub("", _BRIEF_ARROW.sub("", answer)).strip() or answer
