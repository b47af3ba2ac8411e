"""The chat model behind the planners and tools: any OpenAI-compatible endpoint via `openai`.

    llm = OpenAIChat.from_env()                  # OPENAI_BASE_URL, OPENAI_API_KEY, VIDMEM_LLM_MODEL
    vision = vision_chat_from_env()              # VIDMEM_VISION_MODEL, or None when unset
    c = llm.complete([Message("user", "Say hi")], max_tokens=8)
    c.text, c.prompt_tokens, c.completion_tokens, c.seconds, c.cached

What it adds to the `openai` client: retries with exponential backoff on transient failures only
(connection, timeout, 429, 5xx; a 400 is the caller's bug and fails at once), token and latency
accounting on every `Completion`, an opt-in on-disk response cache keyed on (model, messages,
parameters) so a run can be replayed exactly, and structured output (`complete_json`) that uses the
server's JSON mode where it has one and falls back to asking for JSON in words where it does not.

`complete_json(llm, messages)` and `MeteredChat` work over any `ChatModel`, fakes included.
"""

import base64
import hashlib
import json
import logging
import os
import random
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Literal

import openai

from agents.errors import LLMError
from agents.llm import ChatModel, Completion, Message
from agents.parsing import parse_json_object
from agents.steps import Usage

__all__ = [
    "LLMSettings",
    "MeteredChat",
    "OpenAIChat",
    "ResponseCache",
    "complete_json",
    "vision_chat_from_env",
]

log = logging.getLogger(__name__)

Structured = Literal["auto", "on", "off"]

_JSON_ONLY = "Reply with one JSON object only, no prose."


@dataclass(frozen=True)
class LLMSettings:
    """Where the chat model is and how to call it. The API key never shows in `repr`.

    Environment (see `from_env`): OPENAI_BASE_URL, OPENAI_API_KEY, VIDMEM_LLM_MODEL (or
    VIDMEM_VISION_MODEL for the vision model), and VIDMEM_LLM_<FIELD> for the other fields,
    e.g. VIDMEM_LLM_TIMEOUT_S=60, VIDMEM_LLM_CACHE_DIR=.vidmem-llm-cache.
    """

    model: str
    base_url: str | None = None  # None: api.openai.com
    api_key: str = field(default="", repr=False)
    timeout_s: float = 600.0  # per request: a CPU-served model needs ~20 s per 1,000 prompt tokens, more when busy
    max_retries: int = 3  # transient failures only
    backoff_s: float = 1.0  # first wait; doubles each retry, with jitter
    cache_dir: Path | None = None  # opt-in response cache for reproducible runs
    structured: Structured = "auto"  # JSON mode: try it and remember if the server refuses ('auto')

    def __post_init__(self) -> None:
        if not self.model:
            raise LLMError("no chat model named: set VIDMEM_LLM_MODEL (e.g. the name your server serves)")
        if self.timeout_s <= 0:
            raise LLMError(f"LLM timeout_s must be > 0, got {self.timeout_s}")
        if self.max_retries < 0 or self.backoff_s < 0:
            raise LLMError(f"LLM max_retries and backoff_s must be >= 0, got {self.max_retries}, {self.backoff_s}")
        if self.structured not in ("auto", "on", "off"):
            raise LLMError(f"LLM structured must be 'auto', 'on' or 'off', got {self.structured!r}")

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, *, vision: bool = False) -> "LLMSettings":
        """Settings from the environment; `vision=True` reads VIDMEM_VISION_MODEL (and
        VIDMEM_VISION_BASE_URL / VIDMEM_VISION_API_KEY when the vision model is served elsewhere)."""
        env = os.environ if env is None else env
        model_var = "VIDMEM_VISION_MODEL" if vision else "VIDMEM_LLM_MODEL"
        model = env.get(model_var, "")
        if not model:
            raise LLMError(f"{model_var} is not set: name the {'vision' if vision else 'chat'} model to use")
        base_url = (vision and env.get("VIDMEM_VISION_BASE_URL")) or env.get("OPENAI_BASE_URL") or None
        api_key = (vision and env.get("VIDMEM_VISION_API_KEY")) or env.get("OPENAI_API_KEY", "")
        if not base_url and not api_key:
            raise LLMError("no LLM endpoint: set OPENAI_BASE_URL (a local server) or OPENAI_API_KEY (api.openai.com)")
        kwargs: dict[str, Any] = {}
        for f in fields(cls):
            raw = env.get(f"VIDMEM_LLM_{f.name.upper()}")
            if raw is None or f.name in ("model", "base_url", "api_key"):
                continue
            try:
                kwargs[f.name] = _convert(f.name, raw)
            except ValueError:
                raise LLMError(f"VIDMEM_LLM_{f.name.upper()}={raw!r} is not a valid {f.name}") from None
        return cls(model=model, base_url=base_url, api_key=api_key, **kwargs)


def _convert(name: str, raw: str) -> Any:
    if name in ("timeout_s", "backoff_s"):
        return float(raw)
    if name == "max_retries":
        return int(raw)
    if name == "cache_dir":
        return Path(raw).expanduser() if raw else None
    return raw


# -- cache -------------------------------------------------------------------------------------
class ResponseCache:
    """Completions on disk, one JSON file per request key. Safe across threads and processes
    (atomic rename); a corrupt entry is a miss."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)

    @staticmethod
    def key(request: Mapping[str, Any]) -> str:
        blob = json.dumps(request, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def get(self, key: str) -> Completion | None:
        try:
            data = json.loads(self._path(key).read_text())
            return Completion(
                text=data["text"],
                prompt_tokens=int(data["prompt_tokens"]),
                completion_tokens=int(data["completion_tokens"]),
                seconds=0.0,
                cached=True,
            )
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def put(self, key: str, completion: Completion, request: Mapping[str, Any]) -> None:
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.{threading.get_ident()}.tmp")
        record = {
            "text": completion.text,
            "prompt_tokens": completion.prompt_tokens,
            "completion_tokens": completion.completion_tokens,
            "seconds": completion.seconds,  # what the original call took, for the record
            "model": request.get("model"),
        }
        tmp.write_text(json.dumps(record, ensure_ascii=False))
        tmp.replace(path)


# -- the client --------------------------------------------------------------------------------
_TRANSIENT = (openai.APIConnectionError, openai.APITimeoutError, openai.RateLimitError, openai.InternalServerError)


def _is_transient(exc: Exception) -> bool:
    if isinstance(exc, _TRANSIENT):
        return True
    status = exc.status_code if isinstance(exc, openai.APIStatusError) else 0
    return status in (408, 409, 429) or status >= 500


def _describe(exc: Exception) -> str:
    status = getattr(exc, "status_code", None)
    first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return f"{type(exc).__name__}{f' {status}' if status else ''}: {first[:300]}"


def _wire(messages: Sequence[Message]) -> list[dict[str, Any]]:
    return [{"role": m.role, "content": m.content} for m in messages]


def _with_images(messages: Sequence[Message], images: Sequence[bytes], detail: str) -> list[dict[str, Any]]:
    """Attach JPEG images to the last user message as data-URL content parts."""
    wire = _wire(messages)
    last = max((i for i, m in enumerate(wire) if m["role"] == "user"), default=None)
    if last is None:
        raise LLMError("a vision request needs a user message to attach the images to")
    parts: list[dict[str, Any]] = [{"type": "text", "text": wire[last]["content"]}]
    for img in images:
        url = "data:image/jpeg;base64," + base64.b64encode(img).decode()
        parts.append({"type": "image_url", "image_url": {"url": url, "detail": detail}})
    wire[last] = {"role": "user", "content": parts}
    return wire


class OpenAIChat:
    """`ChatModel` over an OpenAI-compatible endpoint (see the module docstring).

    `client` and `sleep` are for tests: an object with `.chat.completions.create`, and the
    function that waits between retries.
    """

    def __init__(
        self,
        settings: LLMSettings,
        *,
        client: Any | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.settings = settings
        self.model = settings.model
        self._client = client or openai.OpenAI(
            base_url=settings.base_url,
            api_key=settings.api_key or "not-needed",  # local servers take any key; the client wants one
            timeout=settings.timeout_s,
            max_retries=0,  # retries are ours: we count them and only retry what is transient
        )
        self._sleep = sleep
        self._cache = ResponseCache(settings.cache_dir) if settings.cache_dir else None
        # Structured-output forms the server refused once; not sent again (see complete_json).
        self._refused: set[str] = set() if settings.structured != "off" else set(_FORMATS)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: Any) -> "OpenAIChat":
        settings = LLMSettings.from_env(env)
        return cls(replace(settings, **overrides) if overrides else settings)

    def __repr__(self) -> str:
        return f"OpenAIChat({self.settings!r})"

    # -- ChatModel ---------------------------------------------------------------------------
    def complete(
        self,
        messages: list[Message],
        *,
        max_tokens: int = 512,
        temperature: float = 0.0,
        stop: list[str] | None = None,
    ) -> Completion:
        params: dict[str, Any] = {"max_tokens": max_tokens, "temperature": temperature}
        if stop:
            params["stop"] = list(stop)
        return self._request(_wire(messages), params)

    # -- extras --------------------------------------------------------------------------------
    def complete_json(
        self,
        messages: list[Message],
        *,
        schema: Mapping[str, Any] | None = None,
        max_tokens: int = 512,
        temperature: float = 0.0,
    ) -> Completion:
        """A completion whose text should be one JSON object (parse it with `parsing.parse_json`:
        a server without JSON mode may still add prose). With `schema`, servers that support
        JSON-schema output are held to it."""
        params: dict[str, Any] = {"max_tokens": max_tokens, "temperature": temperature}
        # Best form first: OpenAI's json_schema, llama.cpp's json_object + schema, plain JSON mode.
        for form in _FORMATS if schema else ("json_object",):
            if form in self._refused:
                continue
            try:
                return self._request(_wire(messages), {**params, "response_format": _response_format(form, schema)})
            except _Refused as refused:
                log.info("%s refused response_format %s (%s)", self._where(), form, refused)
                self._refused.add(form)
        if self.settings.structured == "on":
            raise LLMError(f"{self._where()} supports no structured output form; set structured='auto'")
        hint = _JSON_ONLY + (f" It must match this JSON schema: {json.dumps(schema)}" if schema else "")
        asked = [*messages[:-1], Message(messages[-1].role, f"{messages[-1].content}\n\n{hint}")]
        return self._request(_wire(asked), params)

    def complete_images(
        self,
        messages: list[Message],
        images: Sequence[bytes],
        *,
        max_tokens: int = 512,
        temperature: float = 0.0,
        detail: Literal["low", "high", "auto"] = "low",
    ) -> Completion:
        """A completion over JPEG `images`, attached to the last user message (vision models)."""
        params = {"max_tokens": max_tokens, "temperature": temperature}
        return self._request(_with_images(messages, images, detail), params)

    # -- plumbing ----------------------------------------------------------------------------
    def _request(self, wire: list[dict[str, Any]], params: dict[str, Any]) -> Completion:
        request = {"model": self.model, "messages": wire, **params}
        key = ResponseCache.key(request) if self._cache else ""
        if self._cache:
            hit = self._cache.get(key)
            if hit is not None:
                return hit
        completion = self._call_with_retries(request)
        if self._cache:
            self._cache.put(key, completion, request)
        return completion

    def _call_with_retries(self, request: dict[str, Any]) -> Completion:
        attempts = self.settings.max_retries + 1
        for attempt in range(attempts):
            start = time.perf_counter()
            try:
                response = self._client.chat.completions.create(**request)
            except Exception as exc:
                if "response_format" in request and _refuses_format(exc):
                    raise _Refused(_describe(exc)) from exc
                if not isinstance(exc, openai.OpenAIError):
                    raise
                if not _is_transient(exc):
                    raise LLMError(f"LLM request to {self._where()} failed: {_describe(exc)}") from exc
                if attempt + 1 == attempts:
                    raise LLMError(
                        f"LLM request to {self._where()} failed {attempts} times; last: {_describe(exc)}. "
                        "Is the server up (for the local model: shared/tools/local-llm status)?"
                    ) from exc
                wait = self.settings.backoff_s * 2**attempt * (1 + 0.25 * random.random())
                log.warning(
                    "LLM %s: %s; retry %d/%d in %.1f s", self.model, _describe(exc), attempt + 1, attempts - 1, wait
                )
                self._sleep(wait)
                continue
            seconds = time.perf_counter() - start
            return self._completion(response, seconds)
        raise AssertionError("unreachable")  # the loop returns or raises

    def _completion(self, response: Any, seconds: float) -> Completion:
        try:
            choice = response.choices[0]
            text = choice.message.content or ""
        except (AttributeError, IndexError, TypeError) as exc:
            raise LLMError(f"LLM {self._where()} returned no choices: {str(response)[:300]}") from exc
        usage = getattr(response, "usage", None)
        prompt = int(getattr(usage, "prompt_tokens", 0) or 0)
        completion = int(getattr(usage, "completion_tokens", 0) or 0)
        return Completion(text=text, prompt_tokens=prompt, completion_tokens=completion, seconds=seconds)

    def _where(self) -> str:
        return f"{self.settings.base_url or 'api.openai.com'} (model {self.model})"


class _Refused(Exception):
    """Internal: the server rejected `response_format`."""


_FORMATS = ("json_schema", "json_object_schema", "json_object")


def _response_format(form: str, schema: Mapping[str, Any] | None) -> dict[str, Any]:
    if form == "json_schema" and schema:
        return {"type": "json_schema", "json_schema": {"name": "reply", "schema": dict(schema)}}
    if form == "json_object_schema" and schema:
        return {"type": "json_object", "schema": dict(schema)}  # llama-cpp-python's extension
    return {"type": "json_object"}


def _refuses_format(exc: Exception) -> bool:
    # 400/422 from strict servers; llama-cpp-python answers a 500 naming the field.
    if isinstance(exc, openai.BadRequestError | openai.UnprocessableEntityError):
        return True
    return isinstance(exc, openai.APIStatusError) and "response_format" in str(exc)


def vision_chat_from_env(env: Mapping[str, str] | None = None) -> OpenAIChat | None:
    """The vision model named by VIDMEM_VISION_MODEL, or None when it is not set."""
    env = os.environ if env is None else env
    if not env.get("VIDMEM_VISION_MODEL"):
        return None
    return OpenAIChat(LLMSettings.from_env(env, vision=True))


# -- helpers over any ChatModel ----------------------------------------------------------------
def complete_json(
    llm: ChatModel,
    messages: list[Message],
    *,
    required: Sequence[str] = (),
    defaults: Mapping[str, Any] | None = None,
    schema: Mapping[str, Any] | None = None,
    max_tokens: int = 512,
    temperature: float = 0.0,
) -> tuple[dict[str, Any], Completion]:
    """One JSON object from any chat model: JSON mode where the model has it (`OpenAIChat`),
    else asked for in words; parsed tolerantly. Raises ModelOutputError when it cannot be read."""
    json_call = getattr(llm, "complete_json", None)
    if callable(json_call):
        completion = json_call(messages, schema=schema, max_tokens=max_tokens, temperature=temperature)
    else:
        asked = [*messages[:-1], Message(messages[-1].role, f"{messages[-1].content}\n\n{_JSON_ONLY}")]
        completion = llm.complete(asked, max_tokens=max_tokens, temperature=temperature)
    if not isinstance(completion, Completion):
        raise LLMError(f"{type(llm).__name__}.complete_json returned {type(completion).__name__}, not a Completion")
    return parse_json_object(completion.text, required, defaults), completion


class MeteredChat:
    """A `ChatModel` that adds up the `Usage` of every call made through it (thread-safe).

    Planners hand tools a metered model so that the tokens spent inside sub-agents count too:

        meter = MeteredChat(llm)
        before = meter.usage
        observation = tool.run(action_input, ToolContext(memory, meter, ...))
        step_usage = meter.since(before)
    """

    def __init__(self, inner: ChatModel) -> None:
        self.inner = inner
        self.model = inner.model
        self._usage = Usage()
        self._lock = threading.Lock()

    @property
    def usage(self) -> Usage:
        return self._usage

    def since(self, before: Usage) -> Usage:
        """What was spent after `before` (an earlier `usage`)."""
        now = self._usage
        return Usage(
            now.prompt_tokens - before.prompt_tokens,
            now.completion_tokens - before.completion_tokens,
            now.calls - before.calls,
            now.seconds - before.seconds,
        )

    def _count(self, c: Completion) -> Completion:
        with self._lock:
            self._usage = self._usage + Usage(c.prompt_tokens, c.completion_tokens, 1, c.seconds)
        return c

    def complete(
        self, messages: list[Message], *, max_tokens: int = 512, temperature: float = 0.0, stop: list[str] | None = None
    ) -> Completion:
        return self._count(self.inner.complete(messages, max_tokens=max_tokens, temperature=temperature, stop=stop))

    def __getattr__(self, name: str) -> Any:
        # complete_json / complete_images pass through, counted, when the inner model has them.
        attr = getattr(self.inner, name)
        if name in ("complete_json", "complete_images") and callable(attr):

            def counted(*args: Any, **kwargs: Any) -> Completion:
                return self._count(attr(*args, **kwargs))

            return counted
        return attr
