"""The web app: `create_app(uri)` builds the FastAPI application behind `vidmem serve`.

Pages are rendered on the server (Jinja2, autoescaped) with a little vanilla JavaScript; each one
shows what a package function returns. The JSON API they use is documented at /docs.
"""

import contextlib
import hmac
import logging
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.middleware.trustedhost import TrustedHostMiddleware

from agents import AgentError, GuardError, SQLRunError
from memory import MemoryURI, StoreError, VidmemError
from queries import ParameterError, QueryError, UnknownVideoError
from queries.errors import QueryBusy
from vidmem.serve.limits import Overloaded
from vidmem.serve.source import MemoryBusy, MemorySource
from vidmem.serve.state import ContextFactory, ServeState

log = logging.getLogger(__name__)

TOKEN_COOKIE = "vidmem_token"
_PACKAGE = resources.files("vidmem.serve")


def create_app(
    uri: str | MemoryURI,
    *,
    token: str | None = None,
    hold_s: float = 2.0,
    context_factory: ContextFactory | None = None,
    encoders: dict[str, Any] | None = None,
    allowed_hosts: Sequence[str] | None = None,
) -> FastAPI:
    """The app over the memory at `uri`, opened read-only per burst of requests (see MemorySource).

    `token`: when set, every request must carry it (header `Authorization: Bearer TOKEN`, the
    cookie set by a first visit to `/?token=TOKEN`, or `?token=` itself). `context_factory`
    builds the agents' ToolContext for the Ask page (default: the chat model from the environment,
    like `vidmem ask`). `encoders`: query-time encoders by role ('text', 'clip') for semantic
    search (default: those ingest's settings name, when their weights are here). `allowed_hosts`:
    the Host header values served (None: any); others are a 400, so that a web page on a foreign
    name that re-binds to this machine's address (DNS rebinding) cannot read the archive.
    """
    from vidmem.serve import api, asking, pages  # routes import this module's helpers

    source = MemorySource(uri, hold_s=hold_s)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # Finding the query encoders imports the model libraries (seconds): do it before the first search asks.
        threading.Thread(target=app.state.serve.encoders, name="vidmem-encoders", daemon=True).start()
        yield
        app.state.serve.stop_work()  # queries still running stop now, not at their time limit
        source.close()

    app = FastAPI(
        title="vidmem",
        summary="A video memory in the browser: archive, video timeline, search, SQL and questions.",
        version="0.1.0",
        lifespan=lifespan,
        docs_url=None,  # served below from local files: the machine may have no internet
    )
    app.state.serve = ServeState(
        source=source,
        templates=Jinja2Templates(directory=str(_PACKAGE / "templates")),
        context_factory=context_factory,
        found_encoders=encoders,
    )
    app.mount("/static", StaticFiles(directory=str(_PACKAGE / "static")), name="static")
    app.include_router(api.router)
    app.include_router(asking.router)
    app.include_router(pages.router)
    app.add_exception_handler(VidmemError, _vidmem_error)
    if token:
        _require_token(app, token)
    if allowed_hosts is not None:  # added last, so it runs first: a foreign Host learns nothing, not even 401
        app.add_middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts))

    _api_docs(app)

    @app.get("/", include_in_schema=False)
    def home() -> RedirectResponse:
        return RedirectResponse("/videos")

    return app


def _api_docs(app: FastAPI) -> None:
    """Swagger UI at /docs from the files the fastapi-offline package ships (FastAPI's default loads it
    from a CDN, which an offline machine cannot reach)."""
    try:
        import fastapi_offline

        assets = Path(fastapi_offline.__file__).parent / "static"
        app.mount("/swagger-ui", StaticFiles(directory=assets), name="swagger")
        prefix = "/swagger-ui"
    except ImportError:
        prefix = "https://cdn.jsdelivr.net/npm/swagger-ui-dist@5"

    @app.get("/docs", include_in_schema=False)
    def docs() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url="/openapi.json", title="vidmem API", swagger_js_url=f"{prefix}/swagger-ui-bundle.js",
            swagger_css_url=f"{prefix}/swagger-ui.css", swagger_favicon_url="/static/favicon.svg",
        )


def _require_token(app: FastAPI, token: str) -> None:
    expected = token.encode()

    @app.middleware("http")
    async def check_token(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        scheme, _, credentials = request.headers.get("authorization", "").partition(" ")
        given = (
            (credentials.strip() if scheme.lower() == "bearer" else "")  # RFC 7235: the scheme is case-insensitive
            or request.query_params.get("token")
            or request.cookies.get(TOKEN_COOKIE, "")
        )
        if not hmac.compare_digest(given.encode(), expected):
            return PlainTextResponse(
                "vidmem serve: this server needs its token: open /?token=TOKEN once, or send "
                "'Authorization: Bearer TOKEN'",
                status_code=401,
            )
        response = await call_next(request)
        if request.query_params.get("token"):  # a first visit by link: later page loads and media use the cookie
            response.set_cookie(TOKEN_COOKIE, token, httponly=True, samesite="strict")
        return response


#: Exception class -> HTTP status; the first match in order wins.
_STATUS: tuple[tuple[type[Exception], int], ...] = (
    (UnknownVideoError, 404),
    (Overloaded, 503),
    (QueryBusy, 503),
    (MemoryBusy, 503),
    (GuardError, 400),
    (SQLRunError, 400),
    (ParameterError, 400),
    (QueryError, 400),
    (AgentError, 400),
    (StoreError, 503),
)


def status_of(exc: Exception) -> int:
    return next((code for cls, code in _STATUS if isinstance(exc, cls)), 500)


async def _vidmem_error(request: Request, exc: Exception) -> Response:
    """vidmem's errors in words: JSON {"detail": ...} for the API, a page for people."""
    code = status_of(exc)
    message = str(exc).strip()
    if code == 500:
        log.error("%s %s failed: %s", request.method, request.url.path, message)
    headers = {"Retry-After": str(exc.retry_after_s)} if isinstance(exc, Overloaded | QueryBusy) else None
    if request.url.path.startswith("/api/"):
        return JSONResponse({"detail": message}, status_code=code, headers=headers)
    state: ServeState = request.app.state.serve
    return state.templates.TemplateResponse(
        request, "error.html", {"message": message, "status": code, "page": ""}, status_code=code, headers=headers
    )

