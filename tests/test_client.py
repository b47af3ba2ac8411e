"""The OpenAI-compatible client: settings, retries, cache, structured output, accounting.

The `openai` client is replaced by a scripted stand-in with the same `chat.completions.create`
shape; one `llm` test talks to the real local model."""

import json
import os
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
import openai
import pytest

from agents.client import LLMSettings, MeteredChat, OpenAIChat, complete_json, vision_chat_from_env
from agents.errors import LLMError, ModelOutputError
from agents.llm import Completion, Message

_REQUEST = httpx.Request("POST", "http://test/v1/chat/completions")


def _status(code: int, text: str = "error") -> openai.APIStatusError:
    response = httpx.Response(code, request=_REQUEST, text=text)
    cls = {400: openai.BadRequestError, 429: openai.RateLimitError, 500: openai.InternalServerError}.get(
        code, openai.APIStatusError
    )
    return cls(text, response=response, body=None)


def _reply(text: str, prompt: int = 11, completion: int = 3) -> Any:
    return SimpleNamespace(
        choices=[SimpleNamespace(message=SimpleNamespace(content=text))],
        usage=SimpleNamespace(prompt_tokens=prompt, completion_tokens=completion),
    )


class ScriptedOpenAI:
    """Answers `chat.completions.create` from a script: replies, or exceptions to raise."""

    def __init__(self, *script: Any) -> None:
        self.script = list(script)
        self.requests: list[dict[str, Any]] = []
        self.chat = SimpleNamespace(completions=SimpleNamespace(create=self._create))

    def _create(self, **request: Any) -> Any:
        self.requests.append(request)
        item = self.script.pop(0)
        if callable(item):
            item = item(request)
        if isinstance(item, Exception):
            raise item
        return item


def _chat(client: ScriptedOpenAI, **settings: Any) -> tuple[OpenAIChat, list[float]]:
    waits: list[float] = []
    chat = OpenAIChat(LLMSettings(model="m", base_url="http://test/v1", **settings), client=client, sleep=waits.append)
    return chat, waits


HELLO = [Message("user", "hello")]


# -- settings ----------------------------------------------------------------------------------
def test_settings_from_env_hide_the_key() -> None:
    env = {
        "OPENAI_BASE_URL": "http://127.0.0.1:8765/v1",
        "OPENAI_API_KEY": "sk-secret-123",
        "VIDMEM_LLM_MODEL": "local",
        "VIDMEM_LLM_TIMEOUT_S": "30",
        "VIDMEM_LLM_MAX_RETRIES": "1",
        "VIDMEM_LLM_CACHE_DIR": "/tmp/cache",
    }
    s = LLMSettings.from_env(env)
    assert (s.model, s.base_url, s.timeout_s, s.max_retries, s.cache_dir) == (
        "local", "http://127.0.0.1:8765/v1", 30.0, 1, Path("/tmp/cache"),
    )  # fmt: skip
    assert "sk-secret-123" not in repr(s) and "sk-secret-123" not in repr(OpenAIChat(s))


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"OPENAI_BASE_URL": "http://x/v1"}, "VIDMEM_LLM_MODEL is not set"),
        ({"VIDMEM_LLM_MODEL": "m"}, "no LLM endpoint"),
        ({"VIDMEM_LLM_MODEL": "m", "OPENAI_BASE_URL": "http://x", "VIDMEM_LLM_TIMEOUT_S": "soon"}, "TIMEOUT_S"),
        ({"VIDMEM_LLM_MODEL": "m", "OPENAI_BASE_URL": "http://x", "VIDMEM_LLM_TIMEOUT_S": "-1"}, "timeout_s must be"),
    ],
)
def test_settings_errors_say_what_to_set(env: dict[str, str], message: str) -> None:
    with pytest.raises(LLMError, match=message):
        LLMSettings.from_env(env)


def test_vision_model_from_env() -> None:
    assert vision_chat_from_env({"OPENAI_BASE_URL": "http://x/v1", "VIDMEM_LLM_MODEL": "m"}) is None
    vision = vision_chat_from_env(
        {"OPENAI_BASE_URL": "http://x/v1", "VIDMEM_VISION_MODEL": "qwen-vl", "VIDMEM_VISION_BASE_URL": "http://y/v1"}
    )
    assert vision is not None and vision.model == "qwen-vl" and vision.settings.base_url == "http://y/v1"


# -- calls, retries ----------------------------------------------------------------------------
def test_completion_counts_tokens_and_time() -> None:
    client = ScriptedOpenAI(_reply("hi", 12, 2))
    chat, _ = _chat(client)
    c = chat.complete(HELLO, max_tokens=8, stop=["\n"])
    assert (c.text, c.prompt_tokens, c.completion_tokens, c.cached) == ("hi", 12, 2, False)
    assert c.seconds >= 0
    assert client.requests[0] == {
        "model": "m", "messages": [{"role": "user", "content": "hello"}], "max_tokens": 8, "temperature": 0.0,
        "stop": ["\n"],
    }  # fmt: skip


@pytest.mark.parametrize(
    "transient",
    [openai.APIConnectionError(request=_REQUEST), openai.APITimeoutError(request=_REQUEST), _status(429), _status(503)],
    ids=["connection", "timeout", "429", "503"],
)
def test_transient_errors_are_retried_with_backoff(transient: Exception) -> None:
    client = ScriptedOpenAI(transient, transient, _reply("ok"))
    chat, waits = _chat(client, backoff_s=1.0)
    assert chat.complete(HELLO).text == "ok"
    assert len(waits) == 2 and 1.0 <= waits[0] <= 1.25 and 2.0 <= waits[1] <= 2.5


def test_retries_are_bounded() -> None:
    client = ScriptedOpenAI(*[_status(500)] * 3)
    chat, waits = _chat(client, max_retries=2)
    with pytest.raises(LLMError, match="failed 3 times"):
        chat.complete(HELLO)
    assert len(waits) == 2


@pytest.mark.parametrize("code", [400, 401, 404])
def test_caller_errors_fail_at_once(code: int) -> None:
    client = ScriptedOpenAI(_status(code, "bad request"))
    chat, waits = _chat(client)
    with pytest.raises(LLMError, match=str(code)):
        chat.complete(HELLO)
    assert waits == []


def test_no_choices_is_an_llm_error() -> None:
    chat, _ = _chat(ScriptedOpenAI(SimpleNamespace(choices=[], usage=None)))
    with pytest.raises(LLMError, match="no choices"):
        chat.complete(HELLO)


# -- cache -------------------------------------------------------------------------------------
def test_cache_replays_responses(tmp_path: Path) -> None:
    client = ScriptedOpenAI(_reply("first", 20, 4), _reply("other params"))
    chat, _ = _chat(client, cache_dir=tmp_path)
    a = chat.complete(HELLO)
    b = chat.complete(HELLO)
    assert (b.text, b.prompt_tokens, b.completion_tokens, b.cached) == ("first", 20, 4, True)
    assert not a.cached and len(client.requests) == 1
    assert chat.complete(HELLO, max_tokens=9).text == "other params"  # parameters are part of the key
    # A new client over the same folder replays too: reproducible runs.
    again, _ = _chat(ScriptedOpenAI(), cache_dir=tmp_path)
    assert again.complete(HELLO).text == "first"


def test_corrupt_cache_entry_is_a_miss(tmp_path: Path) -> None:
    client = ScriptedOpenAI(_reply("one"), _reply("two"))
    chat, _ = _chat(client, cache_dir=tmp_path)
    chat.complete(HELLO)
    for f in tmp_path.rglob("*.json"):
        f.write_text("{not json")
    assert chat.complete(HELLO).text == "two"


# -- structured output -------------------------------------------------------------------------
SCHEMA = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}


def test_json_schema_when_the_server_has_it() -> None:
    client = ScriptedOpenAI(_reply('{"n": 3}'))
    chat, _ = _chat(client)
    data, _ = complete_json(chat, HELLO, schema=SCHEMA, required=["n"])
    assert data == {"n": 3}
    assert client.requests[0]["response_format"]["type"] == "json_schema"


def test_json_falls_back_form_by_form_and_remembers() -> None:
    refused = _status(500, "validation error: response_format.type should be 'text' or 'json_object'")
    client = ScriptedOpenAI(refused, _reply('{"n": 4}'), _reply('{"n": 5}'))
    chat, _ = _chat(client)
    assert complete_json(chat, HELLO, schema=SCHEMA)[0] == {"n": 4}
    assert complete_json(chat, HELLO, schema=SCHEMA)[0] == {"n": 5}
    formats = [r.get("response_format") for r in client.requests]
    assert formats == [
        {"type": "json_schema", "json_schema": {"name": "reply", "schema": SCHEMA}},
        {"type": "json_object", "schema": SCHEMA},
        {"type": "json_object", "schema": SCHEMA},  # json_schema is not tried again
    ]


def test_json_in_words_when_no_form_is_supported() -> None:
    client = ScriptedOpenAI(_status(400), 'Sure! ```json\n{"n": 6,}\n```')
    client.script[1] = _reply(client.script[1])
    chat, _ = _chat(client)
    data, _ = complete_json(chat, HELLO)
    assert data == {"n": 6}
    assert "response_format" not in client.requests[1]
    assert "JSON" in client.requests[1]["messages"][-1]["content"]


def test_complete_json_over_any_chat_model() -> None:
    class Plain:
        model = "plain"

        def complete(self, messages: list[Message], **kw: Any) -> Completion:
            return Completion("{'verdict': 'YES'}  trailing words")

    assert complete_json(Plain(), HELLO, required=["verdict"])[0] == {"verdict": "YES"}
    with pytest.raises(ModelOutputError, match="lacks the keys"):
        complete_json(Plain(), HELLO, required=["feedback"])


# -- images, metering --------------------------------------------------------------------------
def test_images_go_to_the_last_user_message() -> None:
    client = ScriptedOpenAI(_reply("a red car"))
    chat, _ = _chat(client)
    chat.complete_images([Message("system", "s"), Message("user", "what?")], [b"\xff\xd8jpeg"])
    content = client.requests[0]["messages"][1]["content"]
    assert content[0] == {"type": "text", "text": "what?"}
    assert content[1]["image_url"]["url"].startswith("data:image/jpeg;base64,/9hqcGVn")


def test_metered_chat_adds_up_every_call() -> None:
    client = ScriptedOpenAI(_reply("a", 10, 1), _reply('{"n": 1}', 5, 2), _reply("img", 7, 3))
    chat, _ = _chat(client)
    meter = MeteredChat(chat)
    before = meter.usage
    meter.complete(HELLO)
    complete_json(meter, HELLO)
    meter.complete_images(HELLO, [b"x"])
    used = meter.since(before)
    assert (used.prompt_tokens, used.completion_tokens, used.calls) == (22, 6, 3)


# -- the real local model ----------------------------------------------------------------------
@pytest.mark.llm
def test_local_model_answers_and_counts_tokens(tmp_path: Path) -> None:
    if not os.environ.get("OPENAI_BASE_URL"):
        pytest.skip("OPENAI_BASE_URL is unset: start the local model (shared/tools/local-llm start) and eval its env")
    chat = OpenAIChat.from_env(cache_dir=tmp_path)
    messages = [Message("user", 'Reply with the JSON object {"n": 3} and nothing else.')]
    data, c = complete_json(chat, messages, schema=SCHEMA, max_tokens=20)
    assert data == {"n": 3}
    assert c.prompt_tokens > 0 and c.completion_tokens > 0 and c.seconds > 0
    replay = chat.complete_json(messages, schema=SCHEMA, max_tokens=20)
    assert replay.cached and json.loads(replay.text) == {"n": 3}
