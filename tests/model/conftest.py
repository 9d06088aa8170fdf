"""Fixtures for the model translator: a tiny random-weight Qwen2 model with an offline
tokenizer (made once per test worker), and a scripted local chat-completions server."""
from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Callable, Iterator

import pytest

from tests.model.server import ChatServer, Reply

HAVE_TORCH = all(importlib.util.find_spec(m) is not None for m in ("torch", "transformers", "tokenizers"))
needs_torch = pytest.mark.skipif(not HAVE_TORCH, reason="needs torch, transformers and tokenizers (pip install -e '.[test]')")


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not HAVE_TORCH:
        pytest.skip("needs torch, transformers and tokenizers")
    import torch

    torch.set_num_threads(1)  # two test workers share two cores
    from cass_cc.model.synthetic import tiny_config, write_model

    return write_model(tmp_path_factory.mktemp("tiny-qwen2"), tiny_config())


@pytest.fixture
def chat_server() -> Iterator[Callable[[Callable[[int, dict], Reply]], tuple[ChatServer, str]]]:
    """chat_server(script) -> (server, url); stopped after the test."""
    started: list[ChatServer] = []

    def start(script: Callable[[int, dict], Reply]) -> tuple[ChatServer, str]:
        server = ChatServer(script)
        url = server.start()
        started.append(server)
        return server, url

    yield start
    for server in started:
        server.stop()
