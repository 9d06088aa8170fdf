"""The OpenAI-compatible endpoint backend against a local server: requests, retries,
time-outs, errors. No torch needed."""
from __future__ import annotations

import time

import pytest

from cass_cc.model import ModelError
from cass_cc.model import endpoint
from cass_cc.model.endpoint import EndpointBackend, chat_url
from cass_cc.model.settings import Generation, ModelSettings
from tests.model.server import Reply, fenced


@pytest.fixture(autouse=True)
def short_pauses(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(endpoint, "FIRST_PAUSE", 0.01)


def backend(url: str, **kw: object) -> EndpointBackend:
    return EndpointBackend(ModelSettings(endpoint=url, **kw))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "url, full",
    [
        ("http://h:8000/v1", "http://h:8000/v1/chat/completions"),
        ("http://h:8000/v1/", "http://h:8000/v1/chat/completions"),
        ("http://h:8000", "http://h:8000/v1/chat/completions"),
        ("https://h/api/v1/chat/completions", "https://h/api/v1/chat/completions"),
    ],
)
def test_chat_url(url: str, full: str) -> None:
    assert chat_url(url) == full


def test_requests_carry_prompt_and_generation_settings(chat_server) -> None:  # type: ignore[no-untyped-def]
    server, url = chat_server(lambda n, body: Reply(content=fenced(body["messages"][0]["content"][-3:])))
    b = backend(url, model="cass-src-1.5b", api_key="sekrit")
    answers = b.generate(["p1", "p2", "p3"], Generation(max_new_tokens=77, temperature=0.5, top_p=0.9))
    assert answers == [fenced("p1"), fenced("p2"), fenced("p3")]  # in the caller's order
    body = server.requests[0]
    assert body["model"] == "cass-src-1.5b" and body["max_tokens"] == 77
    assert body["temperature"] == 0.5 and body["top_p"] == 0.9
    assert body["messages"][0]["role"] == "user" and len(body["messages"]) == 1
    assert server.headers[0]["Authorization"] == "Bearer sekrit"
    assert b.identity() == f"endpoint:{url}/chat/completions:cass-src-1.5b"


def test_model_name_from_the_server_listing(chat_server) -> None:  # type: ignore[no-untyped-def]
    server, url = chat_server(lambda n, body: Reply(content="ok"))
    assert backend(url).generate(["p"], Generation()) == ["ok"]
    assert server.requests[0]["model"] == "served-model"


def test_server_error_is_retried(chat_server) -> None:  # type: ignore[no-untyped-def]
    server, url = chat_server(lambda n, body: Reply(status=503) if n == 0 else Reply(content="second try"))
    b = backend(url, model="m", retries=2)
    assert b.generate(["p"], Generation()) == ["second try"]
    assert len(server.requests) == 2


def test_timeout_is_retried(chat_server) -> None:  # type: ignore[no-untyped-def]
    server, url = chat_server(lambda n, body: Reply(content="late", delay=1.0) if n == 0 else Reply(content="on time"))
    b = backend(url, model="m", timeout=0.3, retries=1)
    start = time.monotonic()
    assert b.generate(["p"], Generation()) == ["on time"]
    assert time.monotonic() - start < 1.0 + 0.5  # gave up on the first after its time-out
    assert len(server.requests) == 2


def test_gives_up_after_retries_with_one_line(chat_server) -> None:  # type: ignore[no-untyped-def]
    server, url = chat_server(lambda n, body: Reply(status=500))
    with pytest.raises(ModelError, match=r"/v1/chat/completions: HTTP 500 .*\(after 3 tries\)") as e:
        backend(url, model="m", retries=2).generate(["p"], Generation())
    assert "\n" not in str(e.value)
    assert len(server.requests) == 3


def test_client_error_is_not_retried(chat_server) -> None:  # type: ignore[no-untyped-def]
    server, url = chat_server(lambda n, body: Reply(status=400))
    with pytest.raises(ModelError, match=r"HTTP 400 .*\(after 1 try\)"):
        backend(url, model="m", retries=3).generate(["p"], Generation())
    assert len(server.requests) == 1


def test_nothing_listening_fails_cleanly() -> None:
    with pytest.raises(ModelError, match="127.0.0.1:9/v1/chat/completions: .*after 2 tries"):
        backend("http://127.0.0.1:9/v1", model="m", retries=1, timeout=2).generate(["p"], Generation())
