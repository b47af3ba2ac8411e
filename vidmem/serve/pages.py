"""The HTML pages: archive, video, search, SQL and ask. Each renders what a package function returns."""

import json
import math
from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, Response

import queries
from agents import PLANNER_NAMES
from vidmem.serve.api import clean, clean_rows, schema_text, search_work, state_of, summary_json

router = APIRouter(include_in_schema=False)

PAGE_SIZE = 50
#: Timeline kinds drawn as lanes from the timeline view; tracks get one lane per category from
#: the tracks table instead of their 'appear'/'leave' events.
LANE_KINDS = ("speech", "text", "caption", "action")


def _render(request: Request, name: str, context: dict[str, Any]) -> Response:
    return state_of(request).templates.TemplateResponse(request, name, context)


@router.get("/videos", response_class=HTMLResponse)
def archive_page(
    request: Request,
    q: str | None = None,
    status: str | None = None,
    page: int = Query(1, ge=1),
) -> Response:
    status = status or None
    with state_of(request).source.lease() as memory:
        rows, total = queries.list_videos(memory, text=q, status=status, limit=PAGE_SIZE, offset=(page - 1) * PAGE_SIZE)
        summaries = queries.archive_summaries(memory)
    videos = clean_rows(rows)
    for v in videos:
        v["roles_parsed"] = _roles(v.get("roles"))
        found = summaries.get(v["video_id"])
        v["summary_title"] = found.title if found else None
    pages = max(1, math.ceil(total / PAGE_SIZE))
    return _render(
        request,
        "archive.html",
        {"page": "archive", "videos": videos, "total": total, "q": q or "", "status": status or "",
         "page_no": page, "pages": pages},
    )


def _roles(raw: Any) -> list[tuple[str, str]]:
    """(role, what happened) pairs from the videos.roles JSON; nothing when absent or unreadable."""
    if not raw:
        return []
    try:
        parsed = json.loads(raw)
    except (TypeError, ValueError):
        return [("roles", str(raw))]
    return [(str(k), str(v)) for k, v in parsed.items()] if isinstance(parsed, dict) else []


@router.get("/videos/{video_id}", response_class=HTMLResponse)
def video_page(request: Request, video_id: str, t: float | None = None) -> Response:
    with state_of(request).source.lease() as memory:
        record = clean(queries.video_record(memory, video_id))
        timeline = queries.video_timeline(memory, video_id)
        tracks = queries.video_tracks(memory, video_id)
        summary = summary_json(queries.video_summary(memory, video_id))
    kinds = timeline.column("kind").to_pylist()
    keep = [i for i, k in enumerate(kinds) if k in LANE_KINDS]
    events = timeline.take(keep)
    columns = {n: events.column(n).to_pylist() for n in ("kind", "start_s", "end_s", "text", "track_id")}
    data = {
        "video_id": record["video_id"],
        "duration_s": record["duration_s"],
        "width": record["width"],
        "height": record["height"],
        "events": clean(columns),
        "tracks": clean({n: tracks.column(n).to_pylist() for n in ("track_id", "category", "first_s", "last_s")}),
        "start_t": t,
        "summary": summary,
    }
    speech = [
        {"start_s": s, "end_s": e, "text": x}
        for k, s, e, x in zip(columns["kind"], columns["start_s"], columns["end_s"], columns["text"], strict=True)
        if k == "speech"
    ]
    return _render(
        request, "video.html", {"page": "video", "video": record, "speech": speech, "summary": summary, "data": data}
    )


@router.get("/search", response_class=HTMLResponse)
async def search_page(request: Request, q: str | None = None, video_id: str | None = None, k: int = 20) -> Response:
    result = None
    if q and q.strip():
        result = await search_work(request, q, video_id.strip() if video_id and video_id.strip() else None, k)
    return _render(
        request, "search.html", {"page": "search", "q": q or "", "video_id": video_id or "", "result": result}
    )


@router.get("/sql", response_class=HTMLResponse)
def sql_page(request: Request, sql: str | None = None) -> Response:
    example = sql or queries.EXAMPLE_QUERIES["timeline"]
    return _render(request, "sql.html", {"page": "sql", "sql": example, "schema": schema_text()})


@router.get("/ask", response_class=HTMLResponse)
def ask_page(request: Request, video_id: str | None = None) -> Response:
    with state_of(request).source.lease() as memory:
        rows, _ = queries.list_videos(memory, status="ok", limit=500)
    return _render(
        request,
        "ask.html",
        {"page": "ask", "videos": rows.to_pylist(), "video_id": video_id or "", "planners": PLANNER_NAMES},
    )
