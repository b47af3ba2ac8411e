"""Running a question set through a planner and scoring every answer."""

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

import queries
from agents.answer import ask
from agents.errors import AgentError, LLMError
from agents.evaluation.questions import Question
from agents.evaluation.report import Record, Report
from agents.evaluation.scoring import score
from agents.llm import ChatModel
from agents.planners import AgentSettings
from agents.tools.base import ToolContext

log = logging.getLogger(__name__)


def video_id_of(ctx: ToolContext, path: Path) -> str | None:
    """The id of an ingested video by its path (as `vidmem ingest` stored it)."""
    return queries.video_by_path(ctx.memory, path)


def evaluate(
    questions: Sequence[Question],
    ctx: ToolContext,
    *,
    planner: str,
    settings: AgentSettings | None = None,
    judge: ChatModel | None = None,
    source: str = "",
    progress: Callable[[int, int, Record], None] | None = None,
) -> Report:
    """Ask every question about its video (archive-scope ones of the whole memory) with `planner`;
    failures are recorded, never raised."""
    records = []
    for n, q in enumerate(questions, 1):
        record = _one(q, ctx, planner, settings, judge)
        records.append(record)
        if progress:
            progress(n, len(questions), record)
    return Report(planner, source, tuple(records), {"judge": getattr(judge, "model", None)})


def _one(
    q: Question, ctx: ToolContext, planner: str, settings: AgentSettings | None, judge: ChatModel | None
) -> Record:
    expected = chr(ord("A") + q.answer) if isinstance(q.answer, int) else q.answer
    base = Record(id=q.id, type=q.type, question=q.question, expected=expected, predicted="", correct=False, method="")
    video_id = video_id_of(ctx, q.video) if q.video is not None else None
    if video_id is None and q.video is not None:
        return replace(base, failure="video_missing")
    if q.scope == "archive":  # asked of the whole memory, as a user who does not know the video would
        video_id = None
    started = time.perf_counter()
    try:
        answer = ask(
            q.question,
            ToolContext(ctx.memory, ctx.llm, video_id, ctx.encoders, ctx.vision_llm),
            planner=planner,
            choices=q.choices or None,
            settings=settings,
        )
    except LLMError as exc:
        log.warning("question %s: LLM failed: %s", q.id, exc)
        return replace(base, failure="llm_error", seconds=time.perf_counter() - started)
    except AgentError as exc:
        log.warning("question %s: %s", q.id, exc)
        return replace(base, failure="agent_error", seconds=time.perf_counter() - started)
    s = score(q, answer.text, answer.choice, judge) if answer.ok else None
    return replace(
        base,
        predicted=s.predicted if s else "",
        correct=bool(s and s.correct),
        method=s.method if s else "",
        failure=None if answer.ok else ("unverified" if answer.verified is False else "no_answer"),
        prompt_tokens=answer.usage.prompt_tokens,
        completion_tokens=answer.usage.completion_tokens,
        calls=answer.usage.calls,
        seconds=answer.seconds,
        answer=answer.text,
        note="; ".join(n.note for n in answer.tree if n.status == "answer" and n.note),
    )
