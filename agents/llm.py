"""What planners and tools need from a chat model: one call, with its cost counted.

`ChatModel` is the one interface; `agents.client.OpenAIChat` implements it over any
OpenAI-compatible endpoint. Tests script it with a small fake that returns canned text.
"""

from dataclasses import dataclass
from typing import Literal, Protocol


@dataclass(frozen=True)
class Message:
    role: Literal["system", "user", "assistant"]
    content: str


@dataclass(frozen=True)
class Completion:
    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
    cached: bool = False  # served from the on-disk response cache


class ChatModel(Protocol):
    model: str

    def complete(
        self, messages: list[Message], *, max_tokens: int = 512, temperature: float = 0.0, stop: list[str] | None = None
    ) -> Completion:
        """One chat completion. Raises LLMError when the endpoint fails after retries."""
        ...
