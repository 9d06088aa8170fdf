"""`cass-data hostile endpoint`: misbehaving model endpoints on 127.0.0.1 against a build.

One raw-socket thread server plays every case; the case is named by the URL's first path
segment (`http://127.0.0.1:PORT/<case>/v1`), so one server serves a whole run. Behaviours:
a good answer, a drip (a byte every fraction of a second, forever), silence, HTTP errors
(500, 503, 429, 404, ...), truncated JSON, JSON of the wrong shape, replies far beyond
max_tokens (with and without Content-Length), answers that add host calls (system, fopen,
std::ofstream, ...), answers that do not compile or have no fence, a connection closed
mid-reply, redirect loops, non-UTF-8 bytes, and bytes that are not HTTP.

Each case runs `cass-cc -v -c k.cu` (model-when=always, a short model-timeout) in a folder
of its own and checks (anything else is "disagrees"):
- no traceback, and no run past (retries + 1) x timeout + pauses + slack ("hang");
- the build succeeds: by the model for a good answer, else by the rules with a warning;
- the cache holds only real answers: a failed request leaves no answer in `<cache>/model`
  and no translation in `<cache>/translations` (the fallback is not pinned), and the
  next build asks the server again; an answer that was really given is stored as given.

Shared helper (kept here, not in common.py): `seed_cache` links the slow, build-derived
parts of a warm cache folder (patched device libraries) into a case's fresh one.
"""
from __future__ import annotations

import json
import os
import random
import shutil
import socket
import socketserver
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import click

from .common import CASS_CC, Tally, finish, run_bounded, sort_outcome

KERNEL = """\
#include <cuda_runtime.h>
__global__ void scale(float* x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}
void launch(float* x, int n) { scale<<<(n + 255) / 256, 256>>>(x, 2.0f, n); }
"""
HIP = KERNEL.replace("cuda_runtime.h", "hip/hip_runtime.h")
# Host code a hostile answer adds (each compiles with the HIP above once its header is in).
HOST_CALLS = (
    ("#include <cstdlib>\n", 'int leak() { return system("touch /tmp/cass-owned"); }\n'),
    ("#include <cstdlib>\n", 'int leak() { return std::system("id"); }\n'),
    ("#include <cstdio>\n", 'void leak() { FILE* f = fopen("/tmp/x", "w"); if (f) fclose(f); }\n'),
    ("#include <cstdio>\n", 'int leak() { return remove("/tmp/x"); }\n'),
    ("#include <cstdio>\n", 'void leak() { auto p = popen("ls", "r"); (void)p; }\n'),
    ("#include <fstream>\n", 'void leak() { std::ofstream out("/tmp/x"); out << 1; }\n'),
    ("#include <unistd.h>\n", "int leak() { return fork(); }\n"),
    ("#include <unistd.h>\n", 'int leak() { return unlink("/tmp/x"); }\n'),
    ("#include <sys/socket.h>\n", "int leak() { return socket(2, 1, 0); }\n"),
    ("#include <dlfcn.h>\n", 'void* leak() { return dlopen("libc.so.6", 2); }\n'),
    ("#include <cstdlib>\n#define RUN system\n", 'int leak() { return RUN("id"); }\n'),
)
MAX_TOKENS = 512  # small, so "huge" replies need not be large to be far beyond it
TIMEOUT = 1.5  # model-timeout for the cases (seconds)
RETRIES = 1
SLACK = 90.0  # start-up, the rules and clang on a loaded machine
# Behaviours whose request fails: nothing may be cached, and the next build asks again.
FAILING = ("drip", "silent", "status", "truncated", "shape", "huge", "huge_chunked", "close", "redirect",
           "not_utf8", "not_http")
ANSWERED = ("good", "host_call", "no_compile", "no_fence")
SLOW = ("drip", "silent")  # each try lasts the whole time-out


@dataclass
class Case:
    name: str
    behaviour: str
    params: dict[str, Any]


def fenced(code: str) -> str:
    return f"Here is the HIP version:\n```amd\n{code}```\n"


def chat_reply(content: Any) -> bytes:
    return json.dumps({"id": "c", "object": "chat.completion",
                       "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                                    "finish_reason": "stop"}]}).encode()


def make_case(n: int, rng: random.Random, behaviours: tuple[str, ...]) -> Case:
    b = behaviours[n % len(behaviours)] if n < len(behaviours) else rng.choice(behaviours)
    p: dict[str, Any] = {}
    if b == "drip":
        p["every"] = rng.choice((0.05, 0.2, 0.5))
        p["in_body"] = rng.random() < 0.5  # drip the body, or the status line and headers
    elif b == "status":
        p["code"] = rng.choice((500, 502, 503, 504, 429, 408, 400, 401, 404, 413))
    elif b == "truncated":
        p["cut"] = rng.random()
    elif b == "shape":
        p["shape"] = rng.randrange(9)
    elif b in ("huge", "huge_chunked"):
        p["bytes"] = rng.choice((MAX_TOKENS * 64 + (1 << 16) + 1, 2 << 20, 16 << 20))
    elif b == "host_call":
        p["call"] = rng.randrange(len(HOST_CALLS))
    elif b == "close":
        p["cut"] = rng.random()
    elif b == "redirect":
        p["code"] = rng.choice((301, 302, 303, 307, 308))
    elif b == "not_http":
        p["data"] = rng.randbytes(rng.randrange(1, 2048)).hex()
    return Case(f"case{n}", b, p)


def answer_text(case: Case) -> str | None:
    """The content the server answers with, for cases that answer at all."""
    if case.behaviour == "good":
        return fenced(HIP)
    if case.behaviour == "host_call":
        header, code = HOST_CALLS[case.params["call"]]
        return fenced(header + HIP + code)
    if case.behaviour == "no_compile":
        return fenced("this is not C++ {\n")
    if case.behaviour == "no_fence":
        return "I would rather not translate this."
    return None


# ---- the server --------------------------------------------------------------------


def _response(status: str, body: bytes, length: bool = True, extra: str = "") -> bytes:
    head = f"HTTP/1.1 {status}\r\nContent-Type: application/json\r\n{extra}"
    if length:
        head += f"Content-Length: {len(body)}\r\n"
    return (head + "Connection: close\r\n\r\n").encode() + body


def _shape(n: int) -> bytes:
    return [b"[]", b"{}", b'"text"', b'{"choices": []}', b'{"choices": [{}]}',
            b'{"choices": [{"message": {"content": null}}]}', b'{"choices": [{"message": {"content": 42}}]}',
            b'{"choices": "many"}', b"[" * 40000 + b"]" * 40000][n]


class Server:
    """A thread server that plays each case's behaviour, counting requests per case."""

    def __init__(self) -> None:
        self.cases: dict[str, Case] = {}
        self.requests: dict[str, int] = {}
        self.stop = threading.Event()
        server = self

        class Handler(socketserver.BaseRequestHandler):
            def handle(self) -> None:
                try:
                    server.serve(self.request)
                except OSError:
                    pass  # the client gave up (its deadline): what the case is about

        socketserver.ThreadingTCPServer.allow_reuse_address = True
        self.tcp = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler)
        self.tcp.daemon_threads = True
        threading.Thread(target=self.tcp.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()

    def url(self, case: Case) -> str:
        self.cases[case.name] = case
        return f"http://127.0.0.1:{self.tcp.server_address[1]}/{case.name}/v1"

    def close(self) -> None:
        self.stop.set()
        self.tcp.shutdown()
        self.tcp.server_close()

    def serve(self, sock: socket.socket) -> None:
        sock.settimeout(30)
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(65536)
            if not chunk:
                return
            data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        path = lines[0].split(" ")[1]
        length = next((int(h.split(":", 1)[1]) for h in lines[1:] if h.lower().startswith("content-length:")), 0)
        while len(body) < length:
            chunk = sock.recv(65536)
            if not chunk:
                return
            body += chunk
        case = self.cases.get(path.split("/")[1])
        if case is None:
            sock.sendall(_response("404 Not Found", b"{}"))
            return
        self.requests[case.name] = self.requests.get(case.name, 0) + 1
        self.play(sock, case, path)

    def play(self, sock: socket.socket, case: Case, path: str) -> None:
        b, p = case.behaviour, case.params
        content = answer_text(case)
        if content is not None:
            sock.sendall(_response("200 OK", chat_reply(content)))
        elif b == "drip":
            reply = _response("200 OK", chat_reply(fenced(HIP)))
            if p["in_body"]:
                head_end = reply.index(b"\r\n\r\n") + 4
                sock.sendall(reply[:head_end])
                reply = reply[head_end:]
            for byte in reply * 1000:  # never ends before the client's deadline
                if self.stop.wait(p["every"]):
                    return
                sock.sendall(bytes([byte]))
        elif b == "silent":
            sock.settimeout(0.1)
            while not self.stop.is_set():
                try:
                    if not sock.recv(1):
                        return  # the client closed: its deadline
                except socket.timeout:
                    continue
        elif b == "status":
            sock.sendall(_response(f"{p['code']} Scripted", b'{"error": {"message": "scripted"}}'))
        elif b == "truncated":
            reply = chat_reply(fenced(HIP))
            sock.sendall(_response("200 OK", reply[: int(len(reply) * p["cut"])]))
        elif b == "shape":
            sock.sendall(_response("200 OK", _shape(p["shape"])))
        elif b in ("huge", "huge_chunked"):
            self.huge(sock, p["bytes"], chunked=b == "huge_chunked")
        elif b == "close":
            reply = _response("200 OK", chat_reply(fenced(HIP)))
            sock.sendall(reply[: int(len(reply) * p["cut"])])
        elif b == "redirect":
            sock.sendall(_response(f"{p['code']} Moved", b"", extra=f"Location: {path}\r\n"))
        elif b == "not_utf8":
            sock.sendall(_response("200 OK", chat_reply(fenced(HIP)).replace(b"hip_runtime", b"hip_\xff\xferuntime")))
        elif b == "not_http":
            sock.sendall(bytes.fromhex(p["data"]))

    def huge(self, sock: socket.socket, size: int, chunked: bool) -> None:
        """A chat reply whose content is `size` bytes, streamed: the client must stop early."""
        start, end = b'{"choices": [{"message": {"content": "', b'"}}]}'
        total = len(start) + size + len(end)
        if chunked:
            sock.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
        else:
            sock.sendall(f"HTTP/1.1 200 OK\r\nContent-Length: {total}\r\n\r\n".encode())
        block = b"x" * 65536
        pieces = [start] + [block] * (size // len(block)) + [b"x" * (size % len(block)), end]
        for piece in pieces:
            if chunked:
                piece = f"{len(piece):x}\r\n".encode() + piece + b"\r\n"
            sock.sendall(piece)
        if chunked:
            sock.sendall(b"0\r\n\r\n")


# ---- running a case ----------------------------------------------------------------


def seed_cache(cache: Path, warm: Path | None) -> None:
    """Link a warm cache's device libraries and LLVM plugin into a fresh cache folder: they
    take a minute to make and have nothing to do with what the cases test."""
    if warm is None:
        return
    for name in ("devlibs", "plugins"):
        if (warm / name).is_dir() and not (cache / name).exists():
            cache.mkdir(parents=True, exist_ok=True)
            shutil.copytree(warm / name, cache / name, copy_function=os.link)


def store_values(folder: Path) -> list[Any]:
    """Every value of a diskcache folder (empty when there is none)."""
    if not (folder / "cache.db").exists():
        return []
    import diskcache

    with diskcache.Cache(str(folder)) as db:
        return [db.get(k) for k in db.iterkeys()]


def run_case(case: Case, server: Server, work: Path, warm: Path | None, phase: str) -> tuple[str, str]:
    """(outcome, why) for one case."""
    folder = work / case.name
    folder.mkdir(parents=True)
    (folder / "k.cu").write_text(KERNEL)
    cache = folder / "cache"
    seed_cache(cache, warm)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CASS_", "NVCC_"))}
    env.update(CASS_CACHE_DIR=str(cache), CASS_CONFIG=str(folder / "none.toml"), CASS_MODEL_ENDPOINT=server.url(case),
               CASS_MODEL="m", CASS_MODEL_WHEN="always", CASS_MODEL_TIMEOUT=str(TIMEOUT),
               CASS_MODEL_RETRIES=str(RETRIES), CASS_MODEL_MAX_TOKENS=str(MAX_TOKENS))
    out = "k.o" if phase == "c" else "k.hip"
    argv = [*CASS_CC, "-v", f"-{'c' if phase == 'c' else 'cuda'}", "k.cu", "-o", out]
    limit = (RETRIES + 1) * TIMEOUT + 1.0 + SLACK
    r = run_bounded(argv, timeout=limit, cwd=folder, env=env)
    outcome = sort_outcome(r)
    stderr = r.stderr.decode("utf-8", "replace")
    if outcome != "ok":
        return outcome, f"{case.behaviour} {case.params}: rc {r.rc} after {r.seconds:.1f}s: {stderr[-600:]}"
    if not (folder / out).is_file():
        return "disagrees", f"{case.behaviour}: exit 0 without {out}"
    why = check_served(case, stderr) or check_cache(case, cache)
    if why is None and case.behaviour in FAILING and case.behaviour not in SLOW:
        asked = server.requests.get(case.name, 0)
        again = run_bounded(argv, timeout=limit, cwd=folder, env=env)
        if sort_outcome(again) != "ok":
            why = f"second build: {sort_outcome(again)}"
        elif server.requests.get(case.name, 0) <= asked:
            why = "the second build did not ask the model again (a failure was cached)"
    return ("disagrees", f"{case.behaviour} {case.params}: {why}") if why else ("ok", "")


def check_served(case: Case, stderr: str) -> str | None:
    by_model = "k.cu: translated by model-" in stderr
    if case.behaviour == "good":
        return None if by_model else "a good answer was not used"
    if by_model:
        return "a bad reply was used"
    if "translated by rules instead" not in stderr:
        return "no warning naming the model's failure"
    if case.behaviour == "host_call" and "adds host calls" not in stderr:
        return "an answer adding host calls was not rejected for it"
    return None


def check_cache(case: Case, cache: Path) -> str | None:
    answers = [v for v in store_values(cache / "model") if isinstance(v, str)]
    translations = store_values(cache / "translations")
    if case.behaviour in FAILING:
        if answers or translations:
            return f"a failed request left {len(answers)} answer(s), {len(translations)} translation(s) in the cache"
        return None
    if answers != [answer_text(case)]:
        return f"the model store holds {answers!r:.200} rather than the answer given"
    return None


def run(count: int, seed: int, behaviours: tuple[str, ...], warm: Path | None, phase: str,
        progress: Callable[[str], None] = lambda _: None) -> Tally:
    rng = random.Random(seed)
    tally = Tally("endpoint")
    server = Server()
    work = Path(tempfile.mkdtemp(prefix="cass-hostile-endpoint-"))
    try:
        for n in range(count):
            case = make_case(n, rng, behaviours)
            outcome, why = run_case(case, server, work, warm, phase)
            tally.add(outcome, why)
            progress(f"{case.name} {case.behaviour}: {outcome}")
    finally:
        server.close()
        shutil.rmtree(work, ignore_errors=True)
    return tally


def default_warm() -> Path | None:
    from cass_cc.config import load

    try:
        return load().cache_path(os.environ)
    except Exception:  # a broken user config: no warm cache, cases just take longer
        return None


@click.command("endpoint")
@click.option("--count", default=60, show_default=True, help="cases")
@click.option("--seed", default=0, show_default=True)
@click.option("--report", type=click.Path(dir_okay=False, path_type=Path), help="write the tally as JSON")
@click.option("--behaviour", "only", multiple=True, type=click.Choice(FAILING + ANSWERED), help="only these (repeatable)")
@click.option("--phase", type=click.Choice(["c", "cuda"]), default="c", show_default=True,
              help="build with -c (clang too) or -cuda (translation only)")
@click.option("--warm-cache", type=click.Path(file_okay=False, path_type=Path),
              help="a cache folder whose device libraries seed each case's (default: the configured one)")
@click.option("-v", "--verbose", is_flag=True, help="a line per case")
def command(count: int, seed: int, report: Path | None, only: tuple[str, ...], phase: str, warm_cache: Path | None,
            verbose: bool) -> None:
    """Misbehaving model endpoints on 127.0.0.1 against `cass-cc -c k.cu`."""
    start = time.monotonic()
    tally = run(count, seed, only or FAILING + ANSWERED, warm_cache or default_warm(), phase,
                click.echo if verbose else lambda _: None)
    finish(tally, time.monotonic() - start, report)
