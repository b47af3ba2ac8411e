"""The one base every tool extends, and the context tools share.

A tool declares what it takes, like smolagents' Tool: a `name`, a `description` of what it does,
typed `inputs` (name -> `ToolInput`) and an `output_type`; `forward(ctx, **inputs)` does the work.
`run(action_input, ctx)` is what a planner calls with whatever the model wrote after `Action Input:`
(free text, JSON, `key=value` pairs) or with a mapping: `parsing.bind_inputs` maps it onto the
declared inputs and their types, and a mistake there comes back as an observation the model can act
on, never as an exception.

    class FindWhen(Tool):
        name = "find_when"
        description = "When something is said, shown on screen, ..."
        inputs = takes(description=ToolInput("string", "a description, e.g. 'the word EXIT'"))

        def forward(self, ctx: ToolContext, description: str) -> Observation: ...
"""

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar, Literal

from agents.errors import ModelOutputError
from agents.llm import ChatModel
from agents.parsing import bind_inputs
from agents.steps import Observation
from memory import Memory

#: string; number and integer (read from loose text too: "3.5 s"); numbers: a list of numbers.
InputType = Literal["string", "number", "integer", "numbers"]


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
    #: What the question names that the brief found nowhere in the video (quoted texts, subject
    #: words): a read answer that does not say so is checked before it stands (`Chain.read`).
    unmentioned: tuple[str, ...] = ()
    #: Words the video does hold that only look like a missing subject word ('library' for
    #: 'librarian'), when every text close in meaning is close by one of them: the absence is
    #: then the code's to state, not a yes/no call's (`Chain._check_absent`).
    look_alike: tuple[str, ...] = ()
    #: The code's answer when the question asks a kind of value (a price, a time of day, a day) that
    #: nothing said or shown about its subject gives (`queries.absent.unstated_value`): a read answer
    #: that does not say the memory lacks it is replaced by this one (`Chain._check_absent`).
    unstated: str | None = None
    #: The brief shows every speech segment and on-screen text of the video: a search can add nothing.
    brief_whole: bool = False
    #: answer -> the brief's best-match line when the answer rests on another line instead, else
    #: None (`agents.brief.passed_over_mark`): such a read answer is read once more (`Chain.read`).
    mark_check: Callable[[str], str | None] | None = None
    #: The count the code made, as an answer, when the question counts just what it counted
    #: (`agents.brief.counted_answer`): a read answer with another number is replaced by it.
    counted: str | None = None
    #: The brief's best match as an answer, when the code found it next to the line the question names
    #: (`agents.brief.related_answer`): a denial that a second reading leaves unanswered is replaced by it.
    related: str | None = None
    #: The brief's best match as an answer, when it is on-screen text and the question asks what a text
    #: reads (`agents.brief.written_answer`): a second reading that still does not quote it is replaced by it.
    written: str | None = None
    #: The brief's best-match line as an answer, for any other question of one video about what is said
    #: or shown (`agents.brief.marked_answer`): a second reading that still passes over it is replaced by it.
    marked: str | None = None
    #: For a question asking yes or no about what the brief's best match holds: that line as shown, and
    #: as an answer's evidence (`agents.brief.yes_no_line`): the model judges the line, the code answers.
    #: The fourth field: the question's numbers are none of the line's, and the code says no. The fifth: a line
    #: about the same thing said or shown after it, as shown, whose numbers decide (the seventh); the sixth:
    #: those later lines as evidence ('' when none); the seventh: the question's numbers are none of that later
    #: line's, and the code says no of it.
    yes_no: tuple[str, str, str, bool, str, str, bool] | None = None


@dataclass(frozen=True)
class ToolInput:
    """One declared input: its type, what it means (the planner's prompt shows it), and whether the
    tool needs it (an optional one the model leaves out takes `forward`'s default)."""

    type: InputType
    description: str
    required: bool = True


def takes(**inputs: ToolInput) -> Mapping[str, ToolInput]:
    """A tool's declared inputs, in the order given (read-only).

    >>> list(takes(question=ToolInput("string", "what to ask")))
    ['question']
    """
    return MappingProxyType(inputs)


class Tool:
    """A tool the planners call (see the module docstring)."""

    name: ClassVar[str]
    #: What it does, in a sentence or two (the planner's prompt adds the inputs).
    description: ClassVar[str]
    inputs: ClassVar[Mapping[str, ToolInput]] = takes()
    #: What the observation text holds, for people and prompts ("string": free text).
    output_type: ClassVar[str] = "string"
    #: forward(ctx, **inputs) -> Observation: the work, with the inputs bound and typed. Model
    #: mistakes come back as Observation(error=...); vidmem's bugs raise.
    forward: Callable[..., Observation]

    def run(self, action_input: str | Mapping[str, Any], ctx: ToolContext) -> Observation:
        """Run with what the model wrote; an input it got wrong is an error observation."""
        try:
            args = bind_inputs(self.name, self.inputs, action_input)
        except ModelOutputError as exc:
            return Observation("", error=str(exc))
        return self.forward(ctx, **args)

    def input_text(self) -> str:
        """The inputs as the planner's prompt shows them: one input's description, or a JSON shape.

        >>> class T(Tool):
        ...     inputs = takes(question=ToolInput("string", "what to ask"), start_s=ToolInput("number", "from", False))
        >>> T().input_text()
        '{"question": what to ask, "start_s": number, from (optional)}'
        """
        if not self.inputs:
            return "nothing"
        if len(self.inputs) == 1:
            (spec,) = self.inputs.values()
            return spec.description + ("" if spec.required else " (optional)")
        parts = []
        for key, spec in self.inputs.items():
            kind = "" if spec.type == "string" else f"{'list of numbers' if spec.type == 'numbers' else spec.type}, "
            parts.append(f"{json.dumps(key)}: {kind}{spec.description}{'' if spec.required else ' (optional)'}")
        return "{" + ", ".join(parts) + "}"

    def prompt_line(self) -> str:
        """The tool as the planner's prompt lists it: name, what it does, its inputs."""
        return f"- {self.name}: {' '.join(self.description.split())} Input: {self.input_text()}."
