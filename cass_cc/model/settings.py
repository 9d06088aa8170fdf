"""The model settings (rows `model*` of cass_cc/config.py's table), as one value."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# Context assumed for an endpoint when none is configured (Qwen2.5-Coder's 32k).
ENDPOINT_CONTEXT = 32768


@dataclass(frozen=True)
class Generation:
    """What changes a model's answer besides the model and the prompt: part of every key.

    Batch size and device are left out on purpose: `cass-cc translate` batches on a GPU
    and a later build asks one file at a time, and both must find the same entries."""

    max_new_tokens: int = 4096
    temperature: float = 0.0  # 0: greedy decoding
    top_p: float = 1.0
    dtype: str = "auto"

    def key(self) -> str:
        return f"n{self.max_new_tokens}-t{self.temperature:g}-p{self.top_p:g}-{self.dtype}"


@dataclass(frozen=True)
class ModelSettings:
    model: str = ""  # Hugging Face id, local folder or .gguf file; for an endpoint, the served model's name
    endpoint: str = ""
    revision: str = "main"
    when: str = "unsupported"  # or "always"
    scope: str = "file"  # or "function"
    answer: str = "auto"  # or "whole", "body" (no prelude: the rules' is put before it); auto: the model's config.json
    generation: Generation = Generation()
    batch_size: int = 16
    device: str = "auto"
    context: int = 0  # 0: from the model's config
    timeout: float = 120.0  # total per request (endpoint.py); with the retries, ~4 minutes at most
    retries: int = 1
    api_key: str = ""

    @property
    def configured(self) -> bool:
        return bool(self.model or self.endpoint)

    @property
    def label(self) -> str:
        """How messages name the model."""
        return self.endpoint if self.endpoint and not self.model else self.model

    @classmethod
    def from_config(cls, config: Any) -> "ModelSettings":
        return cls(
            model=config.model,
            endpoint=config.model_endpoint,
            revision=config.model_revision,
            when=config.model_when,
            scope=config.model_scope,
            answer=config.model_answer,
            generation=Generation(
                max_new_tokens=config.model_max_tokens,
                temperature=config.model_temperature,
                top_p=config.model_top_p,
                dtype=config.model_dtype,
            ),
            batch_size=config.model_batch_size,
            device=config.model_device,
            context=config.model_context,
            timeout=config.model_timeout,
            retries=config.model_retries,
            api_key=config.model_api_key,
        )
