"""Hostile model endpoints: the total deadline, the reply size cap, host calls added by an
answer, failures not pinned in the cache; and the `cass-data hostile endpoint` CI slice."""
from __future__ import annotations

import time
from pathlib import Path
from typing import Iterator

import pytest

from cass_cc.model import ModelError, endpoint
from cass_cc.model.endpoint import EndpointBackend
from cass_cc.model.settings import Generation, ModelSettings
from cass_cc.translate.base import Target, Translation, TranslationError, TranslationUnavailable
from cass_cc.translate.chain import TranslatorChain
from cass_cc.translate.hostcalls import SIDE_EFFECTS, added
from cass_data.hostile import endpoint as family
from tests.conftest import SHARED_CACHE, needs_clang, run_cass
from tests.model.conftest import chat_server  # noqa: F401 - the scripted server fixture
from tests.model.server import Reply, fenced


@pytest.fixture(autouse=True)
def short_pauses(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(endpoint, "FIRST_PAUSE", 0.01)


@pytest.fixture
def hostile() -> Iterator[family.Server]:
    server = family.Server()
    yield server
    server.close()


def backend(url: str, **kw: object) -> EndpointBackend:
    return EndpointBackend(ModelSettings(endpoint=url, model="m", **kw))  # type: ignore[arg-type]


@pytest.mark.parametrize("in_body", [True, False])
def test_timeout_is_a_total_deadline_for_a_drip(hostile: family.Server, in_body: bool) -> None:
    """A byte every 0.1 s never trips a per-read time-out; the deadline still ends it."""
    url = hostile.url(family.Case("drip", "drip", {"every": 0.1, "in_body": in_body}))
    start = time.monotonic()
    with pytest.raises(ModelError, match=r"timed out \(no complete reply within 1 s\) \(after 2 tries\)"):
        backend(url, timeout=1.0, retries=1).generate(["p"], Generation())
    assert time.monotonic() - start < 2 * 1.0 + 1.0


def test_defaults_bound_a_request_to_a_few_minutes() -> None:
    from cass_cc.config import load

    config = load({}, {"CASS_CONFIG": "/nonexistent.toml"})
    s = ModelSettings.from_config(config)
    assert s.timeout * (s.retries + 1) <= 300
    assert (s.timeout, s.retries) == (ModelSettings().timeout, ModelSettings().retries)  # one set of defaults


@pytest.mark.parametrize("behaviour", ["huge", "huge_chunked"])
def test_a_reply_beyond_max_tokens_is_not_read(hostile: family.Server, behaviour: str) -> None:
    url = hostile.url(family.Case(behaviour, behaviour, {"bytes": 64 << 20}))
    b = backend(url, retries=2)
    start = time.monotonic()
    limit = 100 * endpoint.REPLY_BYTES_PER_TOKEN + endpoint.REPLY_ENVELOPE
    with pytest.raises(ModelError, match=rf"(larger|more) than the {limit} bytes an answer can take.*after 1 try"):
        b.generate(["p"], Generation(max_new_tokens=100))
    assert time.monotonic() - start < 5 and b.requests == 1  # not retried: the same reply again


@pytest.mark.parametrize("shape", range(9))
def test_wrong_shapes_are_one_line_errors(hostile: family.Server, shape: int) -> None:
    url = hostile.url(family.Case(f"s{shape}", "shape", {"shape": shape}))
    with pytest.raises(ModelError) as e:
        backend(url).generate(["p"], Generation())
    assert "\n" not in str(e.value)


def test_after_giving_up_the_run_asks_no_more(chat_server) -> None:  # type: ignore[no-untyped-def]
    server, url = chat_server(lambda n, body: Reply(status=503))
    b = backend(url, retries=1)
    with pytest.raises(ModelError, match="HTTP 503"):
        b.generate(["p"], Generation())
    with pytest.raises(ModelError, match=r"not asked \(HTTP 503"):
        b.generate(["q"], Generation())
    assert len(server.requests) == 2


@pytest.mark.parametrize(
    "source, answer, extra",
    [
        ("int main() {}", 'int main() { system("id"); }', ["system"]),
        ("int main() {}", 'int main() { std::system("id"); }', ["system"]),
        ("int main() {}", 'int main() { ::fopen("x", "w"); }', ["fopen"]),
        ("int main() {}", '#define RUN system\nint main() { RUN("id"); }', ["system"]),
        ("int main() {}", "auto f = &fork;", ["fork"]),
        ("int main() {}", 'std::ofstream out("x");', ["ofstream"]),
        ("int main() {}", 'std::filesystem::remove("x");', ["filesystem", "remove"]),
        ("int main() {}", 'int s = socket(2, 1, 0); connect(s, 0, 0); dlopen("x", 2);', ["connect", "dlopen", "socket"]),
        ('int main() { FILE* f = fopen("o", "w"); }', 'int main() { FILE* f = fopen("o", "w"); }', []),  # the source's own
        ("int main() {}", '// system("id")\nconst char* s = "fork()";', []),  # comments and strings
        ("int main() {}", "file.open(path); p->remove(3);", []),  # members: some class's own methods
        ("int main() {}", "int system = 3; int fork_count = 0;", []),  # not called
    ],
)
def test_added_host_calls(source: str, answer: str, extra: list[str]) -> None:
    assert added(source, answer) == extra


def test_side_effect_table_is_sorted_and_typed() -> None:
    assert list(SIDE_EFFECTS) == sorted(SIDE_EFFECTS)
    assert {kind for kind, _ in SIDE_EFFECTS.values()} == {"call", "name"}


class _Fails:
    name = "model"

    def __init__(self, error: TranslationError) -> None:
        self.error = error

    def identity(self) -> str:
        return "fails"

    def translate(self, source: str, filename: str, target: Target) -> Translation:
        raise self.error


class _Serves:
    name = "rules"

    def identity(self) -> str:
        return "rules-x"

    def translate(self, source: str, filename: str, target: Target) -> Translation:
        return Translation("hip", "rules-x")


@pytest.mark.parametrize("error, cacheable", [(TranslationUnavailable("HTTP 500"), False), (TranslationError("no fence"), True)])
def test_a_fallback_after_an_unavailable_model_is_not_cacheable(error: TranslationError, cacheable: bool) -> None:
    result = TranslatorChain([_Fails(error), _Serves()]).translate("src", "k.cu", Target())
    assert result.text == "hip" and result.cacheable is cacheable


# ---- through real builds -------------------------------------------------------------


def _project(tmp_path: Path, cass_env: dict[str, str], url: str) -> dict[str, str]:
    (tmp_path / "k.cu").write_text(family.KERNEL)
    family.seed_cache(tmp_path / "cache", SHARED_CACHE)
    return {**cass_env, "CASS_MODEL_ENDPOINT": url, "CASS_MODEL": "m", "CASS_MODEL_WHEN": "always",
            "CASS_MODEL_RETRIES": "0", "CASS_CACHE_DIR": str(tmp_path / "cache")}


@pytest.mark.e2e
@needs_clang
def test_a_server_error_is_not_pinned_in_the_cache(tmp_path: Path, cass_env: dict[str, str], chat_server) -> None:  # type: ignore[no-untyped-def]
    server, url = chat_server(lambda n, body: Reply(status=500) if n == 0 else Reply(content=fenced(family.HIP)))
    env = _project(tmp_path, cass_env, url)
    first = run_cass(["-v", "-cuda", "k.cu", "-o", "k.hip"], tmp_path, env, check=True)
    assert "k.cu:1:1: warning: model: " in first.stderr and "HTTP 500" in first.stderr
    assert family.store_values(tmp_path / "cache" / "translations") == []
    assert [v for v in family.store_values(tmp_path / "cache" / "model") if isinstance(v, str)] == []
    second = run_cass(["-v", "-cuda", "k.cu", "-o", "k.hip"], tmp_path, env, check=True)
    assert "k.cu: translated by model-" in second.stderr and len(server.requests) == 2


@pytest.mark.e2e
@needs_clang
def test_an_answer_adding_system_is_rejected(tmp_path: Path, cass_env: dict[str, str], chat_server) -> None:  # type: ignore[no-untyped-def]
    header, code = family.HOST_CALLS[0]
    server, url = chat_server(lambda n, body: Reply(content=fenced(header + family.HIP + code)))
    env = _project(tmp_path, cass_env, url)
    proc = run_cass(["-cuda", "k.cu", "-o", "k.hip"], tmp_path, env, check=True)
    [line] = proc.stderr.splitlines()
    assert line.startswith("k.cu:1:1: warning: model: m's answer adds host calls the source does not make: system (process)")
    assert "system" not in (tmp_path / "k.hip").read_text()


@pytest.mark.e2e
@needs_clang
def test_ci_slice(tmp_path: Path) -> None:
    """Every behaviour once, -cuda (the answers are still compiled to check them)."""
    behaviours = family.FAILING + family.ANSWERED
    tally = family.run(len(behaviours), 22, behaviours, SHARED_CACHE, "cuda")
    assert tally.failures == 0, tally.examples
    assert sum(tally.counts.values()) == len(behaviours)
