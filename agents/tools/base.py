"""The one interface every tool implements, and the context tools share."""

from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

from agents.llm import ChatModel
from agents.steps import Observation
from memory import Memory


@dataclass
class ToolContext:
    """What tools may use. `memory` is opened read-only; `encoders` are injected query-time
    encoders (text and CLIP) for semantic search, by role name ('text', 'clip')."""

    memory: Memory
    llm: ChatModel
    video_id: str | None = None  # the video a question is about; None: the whole memory
    encoders: dict[str, Any] = field(default_factory=dict)
    vision_llm: ChatModel | None = None
    brief: str | None = None  # the evidence brief's prompt text: every chain's first message carries it


class Tool(Protocol):
    name: ClassVar[str]
    #: One or two lines the planner's prompt shows: what it does and what input it takes.
    description: ClassVar[str]

    def run(self, action_input: str, ctx: ToolContext) -> Observation:
        """Run with the model's input. Model mistakes come back as Observation(error=...); bugs raise."""
        ...
