"""vidmem serve: the memory in a browser (archive, video timeline, search, SQL, ask) and a JSON API."""

import argparse
import ipaddress
import os
import sys
from types import FrameType

from vidmem.cli import EXIT_OK, EXIT_USAGE, add_memory_arg

TOKEN_ENV = "VIDMEM_SERVE_TOKEN"


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "serve",
        help="browse the memory in a web browser, with a JSON API",
        description="Serve the memory over HTTP: the archive, each video with its timeline, boxes and transcript, "
        "search, guarded read-only SQL and questions. The JSON API is documented at /docs. The memory is "
        "opened read-only and only while requests use it, so `vidmem ingest` can write between them (a DuckLake "
        "memory can be read while it is written).",
        epilog="Examples:\n  vidmem serve --memory archive.duckdb\n"
        "  VIDMEM_SERVE_TOKEN=secret vidmem serve --host 0.0.0.0 --port 8080",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_memory_arg(p)
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument(
        "--token",
        default=os.environ.get(TOKEN_ENV),
        help=f"require this token on every request (default ${TOKEN_ENV}); needed to listen beyond this machine",
    )
    p.add_argument(
        "--hold-s", type=float, default=2.0, metavar="S",
        help="keep the memory open this long after the last request (default 2; 0: close after each request)",
    )
    p.set_defaults(run=run)


#: The Host header values a server listening on loopback answers (any port).
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1", "[::1]")


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def run(args: argparse.Namespace) -> int:
    if not is_loopback(args.host) and not args.token:
        print(
            f"vidmem serve: listening on {args.host} exposes the memory beyond this machine: set a token "
            f"(--token or ${TOKEN_ENV})",
            file=sys.stderr,
        )
        return EXIT_USAGE
    import uvicorn

    from vidmem.serve import MemoryBusy, MemorySource, create_app

    try:  # a wrong path or a file that is no memory fails here, in words
        with MemorySource(args.memory, hold_s=0).lease():
            pass
    except MemoryBusy as exc:  # an ingest is writing: serve anyway, pages say so until it is done
        print(f"vidmem serve: {exc}", file=sys.stderr)
    # on this machine only, only this machine's names: a page that re-binds a foreign name to 127.0.0.1
    # must not read the archive; beyond it the token guards every request
    hosts = LOOPBACK_NAMES if is_loopback(args.host) else None
    app = create_app(args.memory, token=args.token, hold_s=args.hold_s, allowed_hosts=hosts)
    # never the token itself: this line lands in logs
    where = f"http://{args.host}:{args.port}/" + ("?token=<your token>" if args.token else "")
    print(f"vidmem serve: {args.memory} at {where} (API: /docs); Ctrl+C stops", file=sys.stderr)
    # Stopping (Ctrl+C, SIGTERM) cancels running queries at once and gives open streams (a question's
    # events) a second to end: a slow query must not hold the server until its time limit.
    stop_work = app.state.serve.stop_work

    class StoppingServer(uvicorn.Server):
        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            stop_work()
            super().handle_exit(sig, frame)

    config = uvicorn.Config(app, host=args.host, port=args.port, log_level="warning", timeout_graceful_shutdown=1)
    StoppingServer(config).run()
    return EXIT_OK
