"""What the model translator needs from a model, whichever backend serves it."""
from __future__ import annotations

from typing import Protocol

from .settings import Generation, ModelSettings
from .store import Store


class Backend(Protocol):
    label: str  # how messages name the model

    def identity(self) -> str:
        """Names the weights and tokenizer (resolved revision or content hashes), cheaply:
        computed on every compile that has a model configured, without loading it."""
        ...

    def context_length(self) -> int:
        ...

    def count_tokens(self, text: str) -> int:
        """Tokens of `text` sent as the user message, chat template included."""
        ...

    def generate(self, prompts: list[str], generation: Generation) -> list[str]:
        """The answer to each prompt (each the one user message of a chat), in order."""
        ...


def make_backend(settings: ModelSettings, store: Store) -> Backend:
    if settings.endpoint:
        from .endpoint import EndpointBackend

        return EndpointBackend(settings)
    from .hf import HFBackend

    return HFBackend(settings, store)
