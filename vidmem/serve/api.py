"""The JSON API (documented at /docs) and the media route the video player streams from."""

import logging
import os
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import pyarrow as pa
from fastapi import APIRouter, Query, Request
from fastapi.responses import FileResponse, JSONResponse, Response
from pydantic import BaseModel, Field
from starlette.background import BackgroundTask

import queries
from memory import Memory, describe_schema
from vidmem.serve.state import ServeState

log = logging.getLogger(__name__)

router = APIRouter()

#: Rows the SQL page shows. A download carries every row (never a silently partial file) or fails
#: saying why; its query may run DOWNLOAD_TIMEOUT_S, a page's SQL_TIMEOUT_S.
SQL_ROWS = 1000
SQL_TIMEOUT_S, DOWNLOAD_TIMEOUT_S = 30.0, 600.0
#: Search result kinds, named like the `timeline` view's kinds.


def state_of(request: Request) -> ServeState:
    state: ServeState = request.app.state.serve
    return state


# ------------------------------------------------------------------------------ videos


class VideoOut(BaseModel):
    video_id: str
    path: str
    status: str
    duration_s: float | None = None
    width: int | None = None
    height: int | None = None
    fps: float | None = None
    has_audio: bool | None = None
    size_bytes: int | None = None
    roles: str | None = Field(None, description="JSON object: model role -> 'ran', 'skipped: why' or 'failed: why'")
    error: str | None = None
    ingested_at: Any = None


@router.get("/api/videos", response_model=list[VideoOut], tags=["videos"])
def api_videos(
    request: Request,
    response: Response,
    q: str | None = Query(None, description="keep videos whose path or id contains this"),
    status: Literal["ok", "failed"] | None = None,
    limit: int = Query(100, ge=1, le=10_000),
    offset: int = Query(0, ge=0),
) -> list[dict[str, Any]]:
    """The memory's videos ordered by path, one page at a time; the header X-Total-Count says how many match."""
    with state_of(request).source.lease() as memory:
        page, total = queries.list_videos(memory, text=q, status=status, limit=limit, offset=offset)
    response.headers["X-Total-Count"] = str(total)
    return clean_rows(page)


@router.get("/api/videos/{video_id}/timeline", tags=["videos"])
def api_timeline(
    request: Request, video_id: str, from_s: float | None = None, to_s: float | None = None
) -> list[dict[str, Any]]:
    """Every event of a video in time order (speech, on-screen text, captions, tracks appearing and
    leaving, actions), only those overlapping [from_s, to_s] when given."""
    with state_of(request).source.lease() as memory:
        return clean_rows(queries.video_timeline(memory, video_id, from_s, to_s))


class ChapterOut(BaseModel):
    start_s: float
    end_s: float
    title: str
    text: str


class SummaryOut(BaseModel):
    video_id: str
    file: str = Field(description="the video's file name")
    title: str = Field(description="the summary in one line")
    text: str = Field(description="the summary in a few sentences")
    model: str | None = Field(None, description="the chat model that wrote it")
    chapters: list[ChapterOut] = Field(description="the video's chapters in time order")


@router.get("/api/videos/{video_id}/summary", response_model=SummaryOut | None, tags=["videos"])
def api_summary(request: Request, video_id: str) -> dict[str, Any] | None:
    """What the video is about: its one-line title, summary and chapters (the `summaries` role's
    rows), or null when that role has not run on it; 404 for an unknown video."""
    with state_of(request).source.lease() as memory:
        queries.video_record(memory, video_id)  # UnknownVideoError: a 404 in words
        return summary_json(queries.video_summary(memory, video_id))


def summary_json(summary: queries.VideoSummary | None) -> dict[str, Any] | None:
    """`summary` as SummaryOut's fields (None stays None)."""
    if summary is None:
        return None
    return clean({
        "video_id": summary.video_id, "file": summary.file, "title": summary.title, "text": summary.text,
        "model": summary.model, "chapters": [vars(c) for c in summary.chapters],
    })  # fmt: skip


@router.get("/api/videos/{video_id}/detections", tags=["videos"])
def api_detections(request: Request, video_id: str, from_s: float, to_s: float) -> dict[str, Any]:
    """The boxes sampled between from_s and to_s (at most queries.MAX_WINDOW_S apart), as columns:
    what the player draws over the video."""
    with state_of(request).source.lease() as memory:
        rows = queries.detections_between(memory, video_id, from_s, to_s)
    return {name: clean(rows.column(name).to_pylist()) for name in rows.column_names}


@router.get("/media/{video_id}", tags=["videos"], response_class=FileResponse)
def media(request: Request, video_id: str) -> Response:
    """The original file of a registered video, with HTTP Range support (206 Partial Content)."""
    with state_of(request).source.lease() as memory:
        record = queries.video_record(memory, video_id)
    path = Path(str(record["path"]))
    if not path.is_file():
        return JSONResponse({"detail": f"the file of video {video_id} is no longer at {path}"}, status_code=404)
    return FileResponse(path, content_disposition_type="inline")


@router.get("/media/{video_id}/frame.jpg", tags=["videos"], response_class=Response)
def media_frame(
    request: Request, video_id: str, t: float = Query(0.0, ge=0.0, description="seconds into the video")
) -> Response:
    """The frame shown at `t` seconds (the nearest decoded one) as a JPEG at most 320 px wide: the
    thumbnails of search hits, decoded on the server so that they show the frame, not the player's
    first black one."""
    from agents.tools.vision import read_frames, to_jpeg

    with state_of(request).source.lease() as memory:
        record = queries.video_record(memory, video_id)
    path = Path(str(record["path"]))
    if not path.is_file():
        return JSONResponse({"detail": f"the file of video {video_id} is no longer at {path}"}, status_code=404)
    duration = float(record.get("duration_s") or 0.0)  # type: ignore[arg-type]
    frames, _ = read_frames(str(path), [min(t, max(duration - 0.05, 0.0))])
    return Response(to_jpeg(frames[0], side=320), media_type="image/jpeg", headers={"Cache-Control": "max-age=3600"})


# ------------------------------------------------------------------------------ search


class HitOut(BaseModel):
    video_id: str
    file: str = Field(description="the video's file name")
    path: str = Field(description="the video's file as ingested")
    start_s: float
    end_s: float
    kind: str = Field(description="'speech', 'text' (on screen), 'caption', 'chapter' (of a summary) or 'frame'")
    text: str
    score: float
    match: str = Field(description="'keyword' (BM25 or substring), 'semantic' (embeddings) or 'keyword+semantic'")
    noise: str | None = Field(None, description="on-screen text that is likely OCR noise: why (listed after the rest)")


@dataclass(frozen=True)
class SearchResult:
    hits: list[dict[str, Any]]
    notes: list[str]  # why a kind of search did not run (no embeddings, no encoder)


def search(state: ServeState, memory: Memory, q: str, video_id: str | None, k: int) -> SearchResult:
    """Texts by keyword and meaning, then frames (CLIP): `queries.search_archive`, each hit a dict of HitOut."""
    encoders = state.encoders()
    result = queries.search_archive(
        memory, q, text_encoder=encoders.get("text"), clip_encoder=encoders.get("clip"), k=k, video_id=video_id
    )
    hits = [{**vars(h), "file": Path(h.path).name} for h in result.hits]
    return SearchResult([clean(h) for h in hits], list(result.notes))


@router.get("/api/search", response_model=list[HitOut], tags=["search"])
async def api_search(
    request: Request,
    q: str = Query(..., min_length=1, description="words or a question"),
    video_id: str | None = None,
    k: int = Query(10, ge=1, le=1000, description="hits per kind of search"),
) -> list[dict[str, Any]]:
    """One query over transcript, on-screen text and captions (keyword, then semantic when text
    embeddings are stored), and over frames when CLIP embeddings are stored."""
    return (await search_work(request, q, video_id, k)).hits


async def search_work(request: Request, q: str, video_id: str | None, k: int) -> SearchResult:
    """`search` on the server's search workers (a few at once, a bounded line, 503 past it)."""
    state = state_of(request)

    def work(cancel: threading.Event) -> SearchResult:
        with state.source.lease() as memory:
            vid = queries.resolve_video(memory, video_id) if video_id else None
            return search(state, memory, q, vid, k)

    return await state.work["search"].run(request, work)


# ------------------------------------------------------------------------------ SQL


class SQLIn(BaseModel):
    sql: str = Field(description="one read-only SELECT / WITH query")


class SQLOut(BaseModel):
    columns: list[str]
    rows: list[list[Any]]
    truncated: bool = Field(description="more rows existed than were returned")
    seconds: float


def run_guarded(
    memory: Memory, sql: str, max_rows: int, max_bytes: int | None = None, cancel: threading.Event | None = None,
    long_slots: threading.Semaphore | None = None,
) -> Any:
    """`sql` through the agents' guard (one read-only query, no files or settings, a time limit);
    `cancel` stops it (its client went away, the server is stopping); `long_slots` bounds the
    queries running long at once (past it: QueryBusy, a 503)."""
    from agents import guarded

    return guarded(memory).run(
        sql, max_rows=max_rows, timeout_s=SQL_TIMEOUT_S, cancel=cancel, long_slots=long_slots,
        **({"max_bytes": max_bytes} if max_bytes else {}),
    )  # fmt: skip


async def _guarded_work(request: Request, sql: str, max_rows: int, max_bytes: int | None = None) -> Any:
    """A guarded query on the server's SQL workers (a few at once, a bounded line, 503 past it)."""
    state = state_of(request)

    def work(cancel: threading.Event) -> Any:
        with state.source.lease() as memory:
            return run_guarded(memory, sql, max_rows, max_bytes, cancel, state.long_queries)

    return await state.work["sql"].run(request, work)


@router.post("/api/sql", response_model=SQLOut, tags=["sql"])
async def api_sql(request: Request, body: SQLIn) -> dict[str, Any]:
    """Run one guarded read-only query; a write, a file read or any other escape is a 400 with the
    guard's message; a 503 with Retry-After when the SQL workers and their line are full."""
    result = await _guarded_work(request, body.sql, SQL_ROWS)
    return {
        "columns": list(result.columns),
        "rows": clean([list(r) for r in result.rows]),
        "truncated": result.truncated,
        "seconds": result.seconds,
    }


@router.get("/api/sql/download", tags=["sql"], response_class=FileResponse)
async def api_sql_download(
    request: Request, sql: str, format: Literal["csv", "parquet", "json"] = "csv"
) -> Response:
    """The whole result of a guarded query as a file: every row, however many (written batch by
    batch to a temporary file, then sent from it), or an error that says why not."""
    state = state_of(request)

    def work(cancel: threading.Event) -> Path:
        from agents import guarded

        handle, name = tempfile.mkstemp(prefix="vidmem-download-", suffix=f".{format}")
        os.close(handle)
        path = Path(name)
        try:
            with state.source.lease() as memory, guarded(memory).stream(
                sql, timeout_s=DOWNLOAD_TIMEOUT_S, cancel=cancel
            ) as (schema, batches):
                if format == "parquet":
                    queries.write_parquet(batches, schema, path)
                else:
                    with path.open("wb") as out:
                        for chunk in queries.format_stream(batches, format):
                            out.write(chunk)
        except BaseException:
            path.unlink(missing_ok=True)
            raise
        return path

    path = await state.work["download"].run(request, work)
    media_type = {"csv": "text/csv", "parquet": "application/vnd.apache.parquet", "json": "application/json"}
    return FileResponse(
        path, media_type=media_type[format], filename=f"vidmem-result.{format}",
        background=BackgroundTask(path.unlink, missing_ok=True),
    )  # fmt: skip


@router.get("/api/schema", tags=["sql"], response_class=Response)
def api_schema() -> Response:
    """The schema description (tables, columns, meaning, units) and the query library's views and macros."""
    return Response(schema_text(), media_type="text/plain")


def schema_text() -> str:
    return describe_schema() + "\n\n" + queries.describe_library()


# ------------------------------------------------------------------------------ helpers


def clean_rows(table: pa.Table) -> list[dict[str, Any]]:
    return [clean(r) for r in table.to_pylist()]


def clean(value: Any) -> Any:
    """`value` made JSON-safe: NaN and infinities become null (JSON has no NaN)."""
    if isinstance(value, float):
        return value if value - value == 0 else None
    if isinstance(value, dict):
        return {k: clean(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [clean(v) for v in value]
    return value

