"""Agent steps are data: every step records what the model thought and did, what came back,
and what it cost. Traces and search trees are built from them and saved as JSON."""

from dataclasses import asdict, dataclass, field
from typing import Any

#: The action of a planner's plain reading of the evidence brief (`Chain.read`): not a tool.
READ = "read_brief"
#: A yes/no check of a read answer that names something the brief found nowhere in the video.
CHECK_ABSENT = "check_absent"
#: One more reading of an answer that rests on another line than the brief's best match.
CHECK_MARK = "check_mark"


@dataclass(frozen=True)
class Evidence:
    """Something an answer rests on: the SQL that ran, the rows it used, the times they point at."""

    tool: str
    sql: str | None = None
    rows: tuple[dict[str, Any], ...] = ()
    times_s: tuple[float, ...] = ()
    video_id: str | None = None
    note: str = ""


@dataclass(frozen=True)
class Observation:
    """What a tool returns to the planner: text for the model, evidence for the user."""

    text: str
    evidence: tuple[Evidence, ...] = ()
    error: str | None = None  # set when the tool failed in a way the model should see and fix
    final: bool = False  # the `finish` tool: `text` is the answer


@dataclass(frozen=True)
class Usage:
    prompt_tokens: int = 0
    completion_tokens: int = 0
    calls: int = 0
    seconds: float = 0.0

    def __add__(self, other: "Usage") -> "Usage":
        return Usage(
            self.prompt_tokens + other.prompt_tokens,
            self.completion_tokens + other.completion_tokens,
            self.calls + other.calls,
            self.seconds + other.seconds,
        )


@dataclass(frozen=True)
class Step:
    """One thought -> action -> observation turn of a chain."""

    thought: str
    action: str | None
    action_input: str
    observation: Observation | None
    error: str | None = None  # model-caused: unparseable output, unknown tool (shown back to the model)
    usage: Usage = field(default_factory=Usage)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)
