"""A tiny local OpenAI-compatible chat-completions server for the vision tests (client, captions,
actions): a scripted collaborator whose behaviour per request is set by `mode`, whose reply is
`answer` or what `answer_for(request body)` says (a test can look at the image it was sent), and
which records every request."""

import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class VisionServer(ThreadingHTTPServer):
    daemon_threads = True
    #: ok | fail_first (one 500, then ok) | always_500 | slow | unknown_model | empty | not_json (an HTML
    #: page with status 200) | no_choices (a completion without choices)
    mode = "ok"
    answer = "The person is walking."
    answer_for: Callable[[dict[str, Any]], str] | None = None
    requests: list[dict[str, Any]]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"


class _Handler(BaseHTTPRequestHandler):
    server: VisionServer

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.requests.append(body)
        mode = self.server.mode
        if mode == "slow":
            time.sleep(2.0)
        if mode == "always_500" or (mode == "fail_first" and len(self.server.requests) == 1):
            return self._send(500, {"error": {"message": "boom"}})
        if mode == "unknown_model":
            return self._send(404, {"error": {"message": f"model {body['model']} not found"}})
        if mode == "not_json":
            return self._send(200, b"<html>gateway says hi</html>", "text/html")
        if mode == "no_choices":
            return self._send(200, {"id": "x", "object": "chat.completion"})
        answer = self.server.answer_for(body) if self.server.answer_for else self.server.answer
        content = "  " if mode == "empty" else answer
        message = {"role": "assistant", "content": content}
        choice = {"index": 0, "finish_reason": "stop", "message": message}
        self._send(
            200, {"id": "c", "object": "chat.completion", "created": 0, "model": body["model"], "choices": [choice]}
        )

    def _send(self, status: int, payload: dict[str, Any] | bytes, kind: str = "application/json") -> None:
        data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        try:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeout case)
            pass

    def log_message(self, *args: Any) -> None:
        pass


@contextmanager
def vision_server() -> Iterator[VisionServer]:
    server = VisionServer(("127.0.0.1", 0), _Handler)
    server.requests = []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
