"""A local OpenAI-compatible chat-completions server on 127.0.0.1, scripted per test."""
from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable


@dataclass
class Reply:
    status: int = 200
    content: str = ""
    delay: float = 0.0  # seconds before answering (time-out tests)


@dataclass
class ChatServer:
    """`script(n, body)` decides the reply to the n-th chat request (0-based)."""

    script: Callable[[int, dict], Reply]
    requests: list[dict] = field(default_factory=list)
    headers: list[dict] = field(default_factory=list)
    models: tuple[str, ...] = ("served-model",)

    def start(self) -> str:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:  # quiet
                pass

            def _send(self, status: int, payload: object) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:
                if self.path.endswith("/models"):
                    self._send(200, {"object": "list", "data": [{"id": m} for m in server.models]})
                else:
                    self._send(404, {"error": "not found"})

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                n = len(server.requests)
                server.requests.append(body)
                server.headers.append(dict(self.headers))
                reply = server.script(n, body)
                if reply.delay:
                    time.sleep(reply.delay)
                if reply.status != 200:
                    self._send(reply.status, {"error": {"message": "scripted failure"}})
                    return
                message = {"role": "assistant", "content": reply.content}
                try:
                    self._send(200, {"id": f"c{n}", "object": "chat.completion", "choices": [{"index": 0, "message": message, "finish_reason": "stop"}]})
                except (BrokenPipeError, ConnectionResetError):  # the client timed out
                    pass

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()


def fenced(code: str, fence: str = "amd") -> str:
    return f"Here is the translation:\n```{fence}\n{code}```\nDone."
