"""Any OpenAI-compatible chat-completions server (vLLM, TGI, llama.cpp's server, ...),
e.g. one serving a CASS model to a whole build farm. Plain urllib: no heavy imports.

URL: `http://host:8000/v1` (or the full `.../v1/chat/completions`; a bare host gets
`/v1` added). The `model` setting is the served model's name; when empty, the first
one `GET /v1/models` lists. `model-batch-size` requests run at a time (the server
batches them). The identity is the URL and the model name: the endpoint's owner must
change one of them when the weights change.

A misbehaving server cannot hold a build:
- `model-timeout` is a total deadline per request, connecting to last byte: a server that
  drips a byte a second is cut off at the deadline (a watchdog shuts the socket down),
  not only one that goes silent. Connection errors, time-outs, 408, 429 and 5xx replies
  are retried `model-retries` times with a growing pause; other errors (4xx, redirects,
  which are not followed, bad JSON, replies of the wrong shape) fail at once. The defaults
  (120 s, 1 retry) bound one request to about 4 minutes.
- Once a request has failed every try, the rest of the run does not ask again (the
  other files of a `cass-cc translate` would each wait as long).
- A reply larger than the answer can be (`max_tokens x REPLY_BYTES_PER_TOKEN` plus
  REPLY_ENVELOPE) is not read past that size and fails.
Plain http.client (no proxy support): the chat URL is the server itself.
"""
from __future__ import annotations

import http.client
import json
import socket
import threading
import time
import urllib.parse
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from . import ModelError
from .prompts import messages
from .settings import ENDPOINT_CONTEXT, Generation, ModelSettings

RETRY_STATUS = {408, 429, 500, 502, 503, 504}
FIRST_PAUSE = 0.5  # seconds; doubled after each failed try, at most MAX_PAUSE
MAX_PAUSE = 8.0
# The largest reply that can hold an answer of max_tokens tokens. A byte-level BPE token
# of code is a few bytes (Qwen2.5's longest are runs of spaces, tens of bytes), and JSON
# escapes at most 6 bytes (\uXXXX) per character: 64 bytes a token is generous. The
# envelope (id, usage, logprobs off) is a few hundred bytes; a model listing is small.
REPLY_BYTES_PER_TOKEN = 64
REPLY_ENVELOPE = 1 << 16
READ_CHUNK = 1 << 16


def chat_url(url: str) -> str:
    url = url.rstrip("/")
    if url.endswith("/chat/completions"):
        return url
    if urllib.parse.urlparse(url).path in ("", "/"):
        url += "/v1"
    return url + "/chat/completions"


class EndpointBackend:
    def __init__(self, settings: ModelSettings) -> None:
        self.settings = settings
        self.url = chat_url(settings.endpoint)
        self.label = settings.model or settings.endpoint
        self._name = settings.model
        self.requests = 0  # sent, retries included (tests, benchmarks)
        self._given_up = ""  # the failure after which this run asks no more (see the docstring)

    def identity(self) -> str:
        return f"endpoint:{self.url}:{self.settings.model}"

    def context_length(self) -> int:
        return self.settings.context or ENDPOINT_CONTEXT

    def count_tokens(self, text: str) -> int:
        """No tokenizer here: UTF-8 bytes bound a byte-level BPE's token count from above."""
        return len(text.encode("utf-8")) + 32

    def model_name(self) -> str:
        if not self._name:
            listing = self._request(self.url[: -len("/chat/completions")] + "/models", None, REPLY_ENVELOPE)
            try:
                self._name = str(listing["data"][0]["id"])
            except (KeyError, IndexError, TypeError):
                raise ModelError(f"{self.url}: no model listed at /models; set --cass-model=NAME") from None
        return self._name

    def generate(self, prompts: list[str], generation: Generation) -> list[str]:
        if not prompts:
            return []
        name = self.model_name()
        with ThreadPoolExecutor(max_workers=max(1, min(self.settings.batch_size, len(prompts)))) as pool:
            return list(pool.map(lambda p: self._ask(name, p, generation), prompts))

    def _ask(self, name: str, prompt: str, generation: Generation) -> str:
        body = {
            "model": name,
            "messages": messages(prompt),
            "max_tokens": generation.max_new_tokens,
            "temperature": generation.temperature,
            "top_p": generation.top_p,
        }
        limit = generation.max_new_tokens * REPLY_BYTES_PER_TOKEN + REPLY_ENVELOPE
        reply = self._request(self.url, body, limit)
        try:
            content = reply["choices"][0]["message"]["content"]
        except (KeyError, IndexError, TypeError):
            raise ModelError(f"{self.url}: unexpected reply (no choices[0].message.content)") from None
        if not isinstance(content, str):  # null or another type: nothing was answered
            raise ModelError(f"{self.url}: unexpected reply (choices[0].message.content is {type(content).__name__})")
        return content

    def _request(self, url: str, body: dict[str, Any] | None, limit: int) -> Any:
        """The JSON reply to one request, retried as the module docstring says; at most
        `limit` bytes are read. Raises ModelError (one line: URL, failure, tries)."""
        if self._given_up:
            raise ModelError(f"{url}: not asked ({self._given_up} earlier in this run)")
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.settings.api_key:
            headers["Authorization"] = f"Bearer {self.settings.api_key}"
        data = json.dumps(body).encode() if body is not None else None
        pause, last, retry = FIRST_PAUSE, "", False
        for attempt in range(self.settings.retries + 1):
            if attempt:
                time.sleep(pause)
                pause = min(pause * 2, MAX_PAUSE)
            self.requests += 1
            try:
                status, reason, payload = _exchange(url, data, headers, self.settings.timeout, limit)
            except _Failed as e:
                last, retry = str(e), e.retry
            else:
                if status == 200:
                    try:
                        return json.loads(payload.decode("utf-8"))
                    except (ValueError, RecursionError):  # not UTF-8 or not JSON; nested past the parser's depth
                        raise ModelError(f"{url}: reply is not JSON") from None
                last, retry = f"HTTP {status} {reason}".strip(), status in RETRY_STATUS
                if 300 <= status < 400:
                    last += " (redirects are not followed: give the server's own URL)"
            if not retry:
                break
        tries = attempt + 1
        message = f"{last} (after {tries} tr{'y' if tries == 1 else 'ies'})"
        if retry:  # the server is down or overloaded: the other requests of this run would wait as long
            self._given_up = message
        raise ModelError(f"{url}: {message}")


class _Failed(Exception):
    def __init__(self, message: str, retry: bool) -> None:
        super().__init__(message)
        self.retry = retry


def _exchange(url: str, data: bytes | None, headers: dict[str, str], timeout: float, limit: int) -> tuple[int, str, bytes]:
    """One HTTP request: (status, reason, body), all within `timeout` seconds in total.
    Raises _Failed: retry=True for connection trouble and time-outs."""
    parts = urllib.parse.urlsplit(url)
    try:
        port = parts.port
    except ValueError:
        raise _Failed("bad port in the URL", retry=False) from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise _Failed("not an http:// or https:// URL", retry=False)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    deadline = time.monotonic() + timeout
    kind = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
    conn = kind(parts.hostname, port, timeout=timeout)
    watchdog: threading.Timer | None = None
    try:
        conn.connect()  # bounded by the socket timeout
        # The socket timeout bounds each read; the watchdog bounds them all together. It holds
        # the socket itself: http.client lets go of conn.sock once a reply says Connection: close.
        watchdog = threading.Timer(max(0.0, deadline - time.monotonic()), _cut, (conn.sock,))
        watchdog.daemon = True
        watchdog.start()
        conn.request("POST" if data is not None else "GET", path, body=data, headers=headers)
        response = conn.getresponse()
        size = response.getheader("Content-Length", "")
        if size.isdigit() and int(size) > limit:
            raise _Failed(f"reply of {int(size)} bytes, more than the {limit} bytes an answer can take", retry=False)
        body = bytearray()
        while chunk := response.read(min(READ_CHUNK, limit + 1 - len(body))):
            body += chunk
            if len(body) > limit:
                raise _Failed(f"reply larger than the {limit} bytes an answer can take; stopped reading", retry=False)
        # http.client ends a read at EOF without a word, also when the watchdog cut it short
        if time.monotonic() >= deadline:
            raise _Failed(f"timed out (no complete reply within {timeout:g} s)", retry=True)
        if size.isdigit() and len(body) < int(size):
            raise _Failed("connection closed mid-reply", retry=True)
        return response.status, response.reason or "", bytes(body)
    except (OSError, http.client.HTTPException, ValueError) as e:  # ValueError: a bad chunk size
        if time.monotonic() >= deadline or isinstance(e, TimeoutError):
            raise _Failed(f"timed out (no complete reply within {timeout:g} s)", retry=True) from None
        raise _Failed(_describe(e), retry=True) from None
    finally:
        if watchdog is not None:
            watchdog.cancel()
        conn.close()


def _cut(sock: socket.socket) -> None:
    """At the deadline: shut the socket down, which wakes a read blocked on it."""
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass  # already closed: the request is over


def _describe(e: Exception) -> str:
    """One line for a connection failure ("connection refused", "closed mid-reply")."""
    if isinstance(e, http.client.IncompleteRead):
        return "connection closed mid-reply"
    if isinstance(e, http.client.RemoteDisconnected):
        return "connection closed without a reply"
    if isinstance(e, (http.client.HTTPException, ValueError)):
        return f"bad HTTP reply ({type(e).__name__})"
    if isinstance(e, OSError) and e.strerror:
        return e.strerror.lower()
    return str(e) or type(e).__name__
