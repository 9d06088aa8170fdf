"""Any OpenAI-compatible chat-completions server (vLLM, TGI, llama.cpp's server, ...),
e.g. one serving a CASS model to a whole build farm. Plain urllib: no heavy imports.

URL: `http://host:8000/v1` (or the full `.../v1/chat/completions`; a bare host gets
`/v1` added). The `model` setting is the served model's name; when empty, the first
one `GET /v1/models` lists. Each request gets `model-timeout` seconds; connection
errors, time-outs, 408, 429 and 5xx answers are retried `model-retries` times with a
growing pause; other errors fail at once. `model-batch-size` requests run at a time
(the server batches them). The identity is the URL and the model name: the endpoint's
owner must change one of them when the weights change.
"""
from __future__ import annotations

import json
import time
import urllib.error
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from . import ModelError
from .prompts import messages
from .settings import ENDPOINT_CONTEXT, Generation, ModelSettings

RETRY_STATUS = {408, 429, 500, 502, 503, 504}
FIRST_PAUSE = 0.5  # seconds; doubled after each failed try, at most MAX_PAUSE
MAX_PAUSE = 8.0


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

    def identity(self) -> str:
        return f"endpoint:{self.url}:{self.settings.model}"

    def context_length(self) -> int:
        return self.settings.context or ENDPOINT_CONTEXT

    def count_tokens(self, text: str) -> int:
        """No tokenizer here: UTF-8 bytes bound a byte-level BPE's token count from above."""
        return len(text.encode("utf-8")) + 32

    def model_name(self) -> str:
        if not self._name:
            listing = self._request(self.url[: -len("/chat/completions")] + "/models", None)
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
        reply = self._request(self.url, body)
        try:
            return str(reply["choices"][0]["message"]["content"] or "")
        except (KeyError, IndexError, TypeError):
            raise ModelError(f"{self.url}: unexpected reply (no choices[0].message.content)") from None

    def _request(self, url: str, body: dict[str, Any] | None) -> Any:
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.settings.api_key:
            headers["Authorization"] = f"Bearer {self.settings.api_key}"
        data = json.dumps(body).encode() if body is not None else None
        pause, last = FIRST_PAUSE, ""
        for attempt in range(self.settings.retries + 1):
            if attempt:
                time.sleep(pause)
                pause = min(pause * 2, MAX_PAUSE)
            self.requests += 1
            request = urllib.request.Request(url, data=data, headers=headers, method="POST" if data else "GET")
            try:
                with urllib.request.urlopen(request, timeout=self.settings.timeout) as response:
                    return json.loads(response.read().decode("utf-8"))
            except urllib.error.HTTPError as e:
                last = f"HTTP {e.code} {e.reason}"
                if e.code not in RETRY_STATUS:
                    break
            except (urllib.error.URLError, TimeoutError, ConnectionError, OSError) as e:
                reason = getattr(e, "reason", e)
                last = "timed out" if isinstance(reason, TimeoutError) or "timed out" in str(reason) else str(reason)
            except ValueError:
                raise ModelError(f"{url}: reply is not JSON") from None
        tries = attempt + 1
        raise ModelError(f"{url}: {last} (after {tries} tr{'y' if tries == 1 else 'ies'})")
