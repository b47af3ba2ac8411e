"""Scripted collaborators for the planner tests: a chat model that replies from a script, and
tools that return canned observations. The planners' control flow and arithmetic are the units
under test; these stand in for the LLM client and the real tools."""

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from agents.llm import Completion, Message
from agents.steps import Evidence, Observation
from agents.tools.base import Tool, ToolContext, ToolInput, takes

Reply = str | Callable[[list[Message]], str]


class ScriptedChat:
    """Replies in order. `routes` maps a phrase of the system prompt to its own reply list, so that
    critic, summary and adjudicator calls can be scripted apart from the chain's steps."""

    model = "scripted"

    def __init__(self, replies: Iterable[Reply] = (), routes: dict[str, Iterable[Reply]] | None = None) -> None:
        self.replies = list(replies)
        self.routes = {k: list(v) for k, v in (routes or {}).items()}
        self.calls: list[list[Message]] = []
        self.kinds: list[str] = []
        self.temperatures: list[float] = []

    def complete(
        self, messages: list[Message], *, max_tokens: int = 512, temperature: float = 0.0, stop: list[str] | None = None
    ) -> Completion:
        self.calls.append(list(messages))
        self.temperatures.append(temperature)
        system = messages[0].content if messages and messages[0].role == "system" else ""
        # a request after the brief under the reading's system prompt (a check) is routed by the last
        # turn first
        last = messages[-1].content if len(messages) > 1 else ""
        queue, kind = self.replies, "chain"
        for phrase, replies in sorted(self.routes.items(), key=lambda kv: kv[0] not in last):
            if phrase in last or phrase in system:
                queue, kind = replies, phrase
                break
        self.kinds.append(kind)
        if not queue:
            raise AssertionError(f"the model was called more often than scripted ({kind}): {messages[-1].content!r}")
        reply = queue.pop(0)
        text = reply(messages) if callable(reply) else reply
        prompt = sum(len(m.content.split()) for m in messages)
        return Completion(text, prompt_tokens=prompt, completion_tokens=len(text.split()), seconds=0.01)


CRITIC = "You review how an agent"
SUMMARY = "Several attempts answered"
STRATEGY_CRITIC = "Several strategies tried"
ADJUDICATOR = "You pick the answer"
READER = "from an evidence brief"  # react's first call (planner:read_first)
CHECKER = "You check an evidence brief"  # a read answer naming what the video lacks (planner:absent_check)
LOOKER = "from the evidence brief below"  # the answer after a reading asked to look up (planner:look_up)
#: the answer after a reading asked to look up, first tried under the reading's prompt (planner:look_up_now)
NOW = "nothing more to look up"
MARKER = "than the one the search marked as the best match"  # a read answer off the best match (planner:mark_check)
JUDGE = "against a yes/no question"  # a yes/no question judged on the best match alone (planner:yes_no)


def act(tool: str, value: str, thought: str = "next") -> str:
    return f"Thought: {thought}\nAction: {tool}\nAction Input: {value}"


def finish(answer: str) -> str:
    return f"Thought: the observations answer it\nFinal Answer: {answer}"


@dataclass
class FakeTool(Tool):
    """A tool with one optional text input and a fixed reply (or one computed from the input);
    remembers its inputs. The input goes through `Tool.run`'s binding like a real tool's."""

    name: str  # type: ignore[misc]  # per instance here; a class constant in real tools
    reply: Observation | Callable[[str, ToolContext], Observation]
    description: str = "a test tool"  # type: ignore[misc]
    calls: list[str] = field(default_factory=list)
    inputs = takes(text=ToolInput("string", "text", required=False))

    def forward(self, ctx: ToolContext, text: str = "") -> Observation:
        self.calls.append(text)
        return self.reply(text, ctx) if callable(self.reply) else self.reply


SPOKEN = Evidence(
    tool="when",
    sql="SELECT start_s, end_s, text FROM transcript WHERE text ILIKE '%count%'",
    rows=({"start_s": 7.73, "end_s": 10.85, "text": "Please count the people walking across the square."},),
    times_s=(7.73, 10.85),
    video_id="v1",
)


def when_tool() -> FakeTool:
    return FakeTool(
        "when", Observation("Said from 7.73 s to 10.85 s.", (SPOKEN,)), "When: finds when something happens"
    )


def finish_tool() -> FakeTool:
    return FakeTool("finish", lambda text, ctx: Observation(text.strip(), final=True), "finish: the final answer")


def make_ctx(llm: Any, video_id: str | None = "v1") -> ToolContext:
    return ToolContext(memory=None, llm=llm, video_id=video_id)  # type: ignore[arg-type]  # fakes never touch it
