"""A tiny local OpenAI-compatible chat-completions server for the vision client's tests: a scripted
collaborator whose behaviour per request is set by `mode` (and which records every request)."""

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class VisionServer(ThreadingHTTPServer):
    daemon_threads = True
    #: ok | fail_first (one 500, then ok) | always_500 | slow | unknown_model | empty
    mode = "ok"
    answer = "The person is walking."
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
        content = "  " if mode == "empty" else self.server.answer
        message = {"role": "assistant", "content": content}
        choice = {"index": 0, "finish_reason": "stop", "message": message}
        self._send(
            200, {"id": "c", "object": "chat.completion", "created": 0, "model": body["model"], "choices": [choice]}
        )

    def _send(self, status: int, payload: dict[str, Any]) -> None:
        data = json.dumps(payload).encode()
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
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
