"""Built-in coordinates as bare operands (issue 21, found by cass-data fuzz r2:6/7): CUDA's
`blockDim.x` is an unsigned int, HIP's a proxy object, so a template deducing from it alone failed
to compile (`t.shfl(blockDim.x, 3)`) or deduced the proxy. Translated, built for gfx1100 and run
on the emulator against the values CUDA gives."""
from __future__ import annotations

import numpy as np

from cass_cc.translate.base import Target
from cass_cc.translate.rules import RulesTranslator
from tests.emu.conftest import needs_amd
from tests.translate.conftest import cass_cc_build, kernel_named

SOURCE = r"""
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
template <class T> __device__ T twice(T v) { return v + v; }
__device__ auto dim() { return blockDim.x; }
__global__ void coords(unsigned* out) {
  cg::thread_block_tile<8> t = cg::tiled_partition<8>(cg::this_thread_block());
  unsigned* o = out + 5 * threadIdx.x;
  o[0] = t.shfl(blockDim.x, 3);
  o[1] = cg::reduce(t, threadIdx.x, cg::plus<unsigned>());
  auto n = gridDim.x;
  o[2] = twice(n) + twice(blockIdx.x);
  o[3] = dim() + max(threadIdx.x, 7u);
  o[4] = __shfl_sync(0xffffffffu, threadIdx.x, 5);
}
"""


def test_bare_coordinates_are_cast_and_others_keep_their_spelling() -> None:
    out = RulesTranslator().translate(
        "__global__ void k(float* p) { int i = blockIdx.x * blockDim.x + threadIdx.x; f(threadIdx.y, p->blockDim.x); }\n",
        "k.cu", Target((5, 2), 32)).text
    assert "int i = blockIdx.x * blockDim.x + threadIdx.x;" in out
    assert "f((unsigned)threadIdx.y, p->blockDim.x)" in out


@needs_amd
def test_coordinates_deduce_unsigned(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from cass_cc.emu import launch, load

    cass_cc_build(SOURCE, tmp_path / "coords.co", "-cubin", "-arch=sm_80")
    co = load(tmp_path / "coords.co")
    out = launch(co, kernel_named(co, "coords"), 1, 32, [np.zeros(5 * 32, np.uint32)])[0].reshape(32, 5)
    tid = np.arange(32)
    assert (out[:, 0] == 32).all()
    assert out[:, 1].tolist() == [sum(range(8 * (k // 8), 8 * (k // 8) + 8)) for k in tid]
    assert (out[:, 2] == 2).all()
    assert out[:, 3].tolist() == [32 + max(int(k), 7) for k in tid]
    assert (out[:, 4] == 5).all()
