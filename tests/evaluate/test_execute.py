"""Execution through cass_cc/verify's runner: timing/memory measurement on host processes, and the
whole build-both-sides-and-run path forced on a tiny program (without a GPU both sides fail the
same way, which is what the record must say); with a GPU, suite programs really run."""
from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from tests.evaluate.conftest import EVAL_CACHE, eval_env

TINY = """// cass-bench: tiny_fill
// domain: linear-algebra
// features: elementwise, events
// args: 4096
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
__global__ void fill(int* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = 3 * i; }
int main(int argc, char** argv) {
  int n = atoi(argv[1]);
  int* d;
  if (cudaMalloc(&d, n * sizeof(int)) != cudaSuccess) { printf("FAIL: no device memory\\n"); return 1; }
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  cudaEventRecord(a);
  fill<<<(n + 255) / 256, 256>>>(d, n);
  cudaEventRecord(b); cudaEventSynchronize(b);
  float ms = 0; cudaEventElapsedTime(&ms, a, b);
  int* h = (int*)malloc(n * sizeof(int));
  cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += h[i] != 3 * i;
  printf("kernel time: %.3f ms\\n", ms);
  printf(bad == 0 ? "PASS\\n" : "FAIL\\n");
  return bad == 0 ? 0 : 1;
}
"""


def test_measured_run_reads_kernel_time_exit_and_peak_memory(tmp_path):
    from cass_train.evaluate.execute import measured_run

    code = "import sys; b = bytearray(60 << 20); print('kernel time: 2.500 ms'); sys.exit(3)"
    wall, rss, kms, status = measured_run([sys.executable, "-c", code], str(tmp_path))
    assert status == 3 and kms == 2.5
    assert rss > 60  # MiB: the 60 MiB buffer is resident
    assert 0 < wall < 30
    wall, rss, kms, status = measured_run([sys.executable, "-c", "import time; time.sleep(5)"], str(tmp_path), timeout=0.5)
    assert status == -9 and wall == float("inf")


@pytest.mark.skipif(not Path("/usr/local/cuda/bin/nvcc").exists() and not shutil.which("nvcc"), reason="needs nvcc")
def test_forced_run_builds_both_sides_and_records_the_outcome(tmp_path):
    from cass_train.evaluate.engine import Settings, evaluate
    from cass_train.suite import load
    from cass_cc.verify.gpu import nvidia_gpu

    (tmp_path / "s").mkdir()
    (tmp_path / "s" / "tiny_fill.cu").write_text(TINY)
    suite = load(str(tmp_path / "s"))
    records, _, _ = evaluate(Settings(translator="rules", suite=suite, jobs=1, cache=tmp_path / "cache", run=True, repeat=1,
                                      env=eval_env()))
    r = records[0]
    assert r["ran"] is True and r["compiled"] is not False
    from cass_cc.toolchain.found import Found

    gpu = nvidia_gpu(Found.find(eval_env()).nvcc, EVAL_CACHE, eval_env()).present
    if gpu:
        assert r["passed"] is True and r["original_passed"] is True and r["runtime_ratio"] is not None
    else:  # both sides built (nvcc, HIP-on-NVIDIA) and ran; both failed without a device, alike
        assert r["passed"] is False and r["original_passed"] is False
        assert r["run_outcome"] == "agree", r
        assert r["exec_error"].startswith("translation exit 1, verdict FAIL")


@pytest.mark.gpu
def test_suite_programs_pass_on_the_gpu(suite, tmp_path):
    from cass_cc.toolchain.found import Found
    from cass_train.evaluate.engine import Settings, evaluate
    from cass_cc.verify.gpu import nvidia_gpu

    if not nvidia_gpu(Found.find(eval_env()).nvcc, EVAL_CACHE, eval_env()).present:
        pytest.skip("no NVIDIA GPU")
    chosen = suite.select("gemv_shfl,histogram_shared,softmax_warp")
    records, _, _ = evaluate(Settings(translator="rules", suite=chosen, jobs=2, cache=tmp_path, run=True, env=eval_env()))
    for r in records:
        assert r["original_passed"] and r["passed"], r
        assert r["runtime_ratio"] and r["memory_ratio"]
