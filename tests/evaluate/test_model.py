"""Model translators are scored on their own answers, with no fallback to the rules: through a
scripted OpenAI-style endpoint, a fenced correct answer compiles and a random answer scores zero.
(A random-weight local model is run on the GPU machine by bench/eval_h100.sh.)"""
from __future__ import annotations

import json
import random
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tests.evaluate.conftest import EVAL_CACHE, eval_env

SAXPY = """// cass-bench: tiny_saxpy
// domain: linear-algebra
// features: elementwise
// args:
#include <cstdio>
#include <cuda_runtime.h>
__global__ void saxpy(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
int main() { float* d; cudaMalloc(&d, 64); cudaFree(d); printf("PASS\\n"); return 0; }
"""
NOISE = SAXPY.replace("tiny_saxpy", "tiny_noise").replace("domain: linear-algebra", "domain: ml-operators")


@pytest.fixture
def server():
    from cass_train.evaluate.translators import Options, RulesTranslator

    good = RulesTranslator(Options()).translate_many([("s", SAXPY, "tiny_saxpy.cu")])["s"].text
    words = "the kernel of a warp thread memory block grid float pointer".split()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):  # quiet
            pass

        def _send(self, obj):
            data = json.dumps(obj).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            self._send({"data": [{"id": "scripted"}]})

        def do_POST(self):
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            prompt = body["messages"][-1]["content"]
            if "tiny_saxpy" in prompt:
                answer = f"Here it is:\n```amd\n{good}```\n"
            else:
                rng = random.Random(len(prompt))
                answer = " ".join(rng.choice(words) for _ in range(60))
            self._send({"choices": [{"message": {"content": answer}}]})

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    t = threading.Thread(target=httpd.serve_forever, daemon=True)
    t.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    httpd.shutdown()


def test_model_answers_scored_as_they_are(server, tmp_path):
    from cass_train.evaluate.engine import Settings, evaluate
    from cass_train.suite import load

    (tmp_path / "suite").mkdir()
    (tmp_path / "suite" / "tiny_saxpy.cu").write_text(SAXPY)
    (tmp_path / "suite" / "tiny_noise.cu").write_text(NOISE)
    suite = load(str(tmp_path / "suite"))
    records, identity, _ = evaluate(Settings(translator=f"endpoint:{server}", suite=suite, jobs=1, cache=EVAL_CACHE,
                                             run=False, env=eval_env()))
    assert identity.startswith("model-") and "endpoint:" in identity
    by = {r["program"]: r for r in records}
    assert by["tiny_noise"]["translated"] is False and "amd fence" in by["tiny_noise"]["translate_error"]
    assert by["tiny_saxpy"]["translated"] is True and by["tiny_saxpy"]["compiled"] is True, by["tiny_saxpy"]


def test_assembly_model_answers_are_assembled_or_scored_down(server, suite, tmp_path):
    """The assembly task with a model: answers that llvm-mc rejects score nothing."""
    import shutil

    from cass_train.evaluate.engine import Settings, evaluate

    if not (shutil.which("llvm-mc-16") and shutil.which("llc-16")):
        pytest.skip("needs llvm 16")
    chosen = suite.select("histogram_shared")
    records, identity, _ = evaluate(Settings(translator=f"endpoint:{server}", suite=chosen, task="assembly", jobs=1,
                                             cache=tmp_path / "c", sms=(80,), env=eval_env()))
    assert identity.startswith("asm-model-")
    kernels = records[0]["kernels"]
    assert kernels and all(k["how"] == "model" and not k["assembled"] for k in kernels), kernels
    assert "no assembly that llvm-mc accepts" in kernels[0]["error"]
