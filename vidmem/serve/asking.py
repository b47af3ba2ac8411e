"""Questions over server-sent events: each LLM call is sent as it completes, then the answer with
its evidence, its cost and the search tree's picture.

The steps are observed through the public `ChatModel` interface: the tool context's chat model is
wrapped in `ObservedChat`, which reports every completion (the planner's thoughts and actions, the
sub-agents' SQL) before handing it back. Nothing inside the planners is reached into.
"""

import json
import logging
import queue
import secrets
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import PlainTextResponse, Response, StreamingResponse

from agents import PLANNER_NAMES, Answer, ChatModel, Completion, Message, ask
from memory import VidmemError
from vidmem.serve.api import clean, state_of
from vidmem.serve.limits import Overloaded
from vidmem.serve.state import ServeState

log = logging.getLogger(__name__)

router = APIRouter()

Emit = Callable[[str, dict[str, Any]], None]


class ObservedChat:
    """A ChatModel that reports each completion to `emit` ('llm' events), numbered in call order."""

    def __init__(self, inner: ChatModel, emit: Emit) -> None:
        self.inner = inner
        self.model = inner.model
        self._emit = emit
        self._calls = 0
        self._lock = threading.Lock()

    def complete(
        self, messages: list[Message], *, max_tokens: int = 512, temperature: float = 0.0, stop: list[str] | None = None
    ) -> Completion:
        started = time.perf_counter()
        out = self.inner.complete(messages, max_tokens=max_tokens, temperature=temperature, stop=stop)
        with self._lock:
            self._calls += 1
            n = self._calls
        self._emit("llm", {
            "n": n, "text": out.text, "prompt_tokens": out.prompt_tokens,
            "completion_tokens": out.completion_tokens, "seconds": round(time.perf_counter() - started, 2),
        })
        return out


def answer_payload(answer: Answer, tree_url: str | None) -> dict[str, Any]:
    """The answer as the page shows it: text, evidence with times, cost, and the tree picture's URL."""
    data = {k: v for k, v in answer.to_dict().items() if k != "tree"}
    data["tree_nodes"] = len(answer.tree)
    data["tree_url"] = tree_url
    return clean(json.loads(json.dumps(data, default=str)))


def _run(state: ServeState, question: str, planner: str, video_id: str | None, emit: Emit) -> None:
    started = time.perf_counter()
    try:
        with state.source.lease() as memory:
            ctx = state.tool_context(memory, video_id)
            ctx = replace(ctx, llm=ObservedChat(ctx.llm, emit))
            emit("start", {"question": question, "planner": planner, "video_id": video_id})
            answer = ask(question, ctx, planner=planner)
        emit("answer", answer_payload(answer, _tree_picture(state, answer)))
    except VidmemError as exc:  # no model configured, endpoint down, bad question: said in words
        emit("failed", {"message": str(exc), "seconds": round(time.perf_counter() - started, 2)})
    except Exception as exc:  # a bug: the page must still stop waiting
        log.exception("ask failed")
        emit("failed", {"message": f"internal error: {type(exc).__name__}: {exc}"})


def _tree_picture(state: ServeState, answer: Answer) -> str | None:
    try:
        with tempfile.TemporaryDirectory() as tmp:
            png = answer.render_tree(Path(tmp) / "tree.png").read_bytes()
    except Exception as exc:  # matplotlib missing or a tree it cannot draw: the answer still stands
        log.info("no search tree picture: %s", exc)
        return None
    key = secrets.token_hex(8)
    state.keep_tree(key, png)
    return f"/api/ask/tree/{key}.png"


@router.get("/api/ask", tags=["ask"], response_class=StreamingResponse)
def api_ask(
    request: Request,
    q: str = Query(..., min_length=1, description="the question"),
    planner: str = Query("react", description=f"one of {', '.join(PLANNER_NAMES)}"),
    video_id: str | None = Query(None, description="the video the question is about; none: the whole memory"),
) -> Response:
    """Answer a question as a stream of server-sent events: 'start', one 'llm' per model call
    (text, tokens, seconds) as it happens, then 'answer' (text, evidence with times, usage,
    seconds, tree_url) or 'failed' (message)."""
    if planner not in PLANNER_NAMES:
        # not echoed: the value is the client's, and a 400 has no business reflecting it
        return PlainTextResponse(f"unknown planner; known: {', '.join(PLANNER_NAMES)}", status_code=400)
    asks = state_of(request).work["ask"]
    slot = asks.slot()
    if not slot.acquire(blocking=False):  # each question holds a thread and a model conversation
        raise Overloaded(asks.kind, asks.retry_after_s)
    events: queue.Queue[tuple[str, dict[str, Any]] | None] = queue.Queue()

    def emit(name: str, data: dict[str, Any]) -> None:
        events.put((name, data))

    def work() -> None:
        try:
            _run(state_of(request), q, planner, video_id or None, emit)
        finally:
            slot.release()
            events.put(None)

    threading.Thread(target=work, name="vidmem-ask", daemon=True).start()

    def stream() -> Iterator[str]:
        while True:
            try:
                item = events.get(timeout=15)
            except queue.Empty:
                yield ": waiting for the model\n\n"  # a comment keeps proxies from closing the stream
                continue
            if item is None:
                return
            name, data = item
            yield f"event: {name}\ndata: {json.dumps(data, ensure_ascii=False, default=str)}\n\n"

    return StreamingResponse(stream(), media_type="text/event-stream", headers={"Cache-Control": "no-cache"})


@router.get("/api/ask/tree/{key}.png", tags=["ask"], response_class=Response)
def api_ask_tree(request: Request, key: str) -> Response:
    """The search tree picture of a recent answer."""
    png = state_of(request).tree(key)
    if png is None:
        return Response("no such tree (only the most recent answers' trees are kept)", status_code=404)
    return Response(png, media_type="image/png")

