"""CUDA names that nothing provides on HIP 5.2 are refused by name (refusable.py), where a program
uses them as CUDA's, and never where it declares them itself or only asks about them."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from cass_cc.translate import hipnames
from cass_cc.translate import refusable
from cass_cc.translate.base import Target
from cass_cc.translate.rules import RulesTranslator

HIP52 = Target((5, 2), 32)


def _warnings(source: str, target: Target = HIP52) -> list[str]:
    out = RulesTranslator().translate(source, "r.cu", target)
    return [f"{d.line}: {d.message}" for d in out.diagnostics if d.severity == "warning"]


def test_fields_members_namespace_names_and_globals_are_refused_by_name() -> None:
    source = """\
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(float *x) {
  auto g = cg::this_grid();
  auto t = cg::binary_partition(cg::tiled_partition<32>(cg::this_thread_block()), x[0] > 0);
  x[1] = g.block_rank();
}
int main() {
  cudaDeviceProp p; cudaGetDeviceProperties(&p, 0);
  nv_bfloat16 *q = 0;
  return p.gpuDirectRDMASupported + (int)p.totalGlobalMem;
}
"""
    assert _warnings(source) == [
        "5: 'binary_partition' (cooperative_groups/details/partitioning.h) is not supported by HIP 5.2",
        "6: 'block_rank' (a member of cooperative_groups::cluster_group/grid_group) is not supported by HIP 5.2",
        "10: 'nv_bfloat16' (cuda_bf16.h) is not supported by HIP 5.2",
        "11: 'gpuDirectRDMASupported' (a field of cudaDeviceProp) is not supported by HIP 5.2",
    ]


def test_using_namespace_brings_cudas_names_in() -> None:
    source = "#include <cooperative_groups.h>\nusing namespace cooperative_groups;\n" \
             "__global__ void k(int *x) { auto t = binary_partition(tiled_partition<32>(this_thread_block()), *x); }\n"
    assert _warnings(source) == [
        "3: 'binary_partition' (cooperative_groups/details/partitioning.h) is not supported by HIP 5.2"]


def test_the_programs_own_names_and_questions_are_quiet() -> None:
    source = """\
#include <sys/wait.h>
#ifndef NOMINMAX
#define NOMINMAX
#endif
namespace mylib { int binary_partition(int a) { return a; } int wait(int *s) { return *s; } }
struct Config { int seamlessCubemap; int gpuDirectRDMASupported; };
float htanh(float x) { return x; }
int main() {
  int status = 0;
  wait(&status);
  Config c; c.seamlessCubemap = 1; c.gpuDirectRDMASupported = 0;
  return mylib::wait(&status) + mylib::binary_partition(1) + (int)htanh(1.0f);
}
"""
    assert _warnings(source) == []


def test_a_hip_without_a_table_says_nothing() -> None:
    """No facts for HIP 6.0 here (hip_names.tsv has 5.2 only): nothing is refused on a guess."""
    assert refusable.lookup("gpuDirectRDMASupported", (5, 2))
    assert refusable.lookup("gpuDirectRDMASupported", (6, 0)) == ()
    assert _warnings("int f(cudaDeviceProp *p) { return p->gpuDirectRDMASupported; }\n", Target((6, 0), 32)) == []


def test_names_hip_spells_the_same_and_served_ones_are_never_candidates() -> None:
    candidates = refusable.candidates()
    for name in ("totalGlobalMem", "__fadd_rn", "make_float4", "reserved", "x",  # HIP has them
                 "deviceOverlap", "CUDART_VERSION", "umin", "reduce"):  # cass-cc serves them
        assert name not in candidates, name
    assert {"gpuDirectRDMASupported", "binary_partition", "nv_bfloat16"} <= candidates


def test_toolkit_headers_without_a_row_are_refused_where_included() -> None:
    out = RulesTranslator().translate("#include <cupti_pcsampling.h>\nint main() { return 0; }\n", "h.cu", HIP52)
    assert '#error "cass-cc: CUDA header <cupti_pcsampling.h> is not supported by HIP 5.2"' in out.text
    quoted = RulesTranslator().translate('#include "cupti_pcsampling.h"\n', "h.cu", HIP52)
    assert "#error" not in quoted.text  # the program's own file of that name
    libcu = RulesTranslator().translate("#include <cuda/pipeline>\n#include <cuda/std/atomic>\n", "h.cu", HIP52)
    assert '#error "cass-cc: CUDA header <cuda/pipeline> is libcu++, which HIP 5.2 has no counterpart for"' in libcu.text
    assert "<cuda/std/atomic> is libcu++" in libcu.text


HIP_ROOT = Path("/usr")


@pytest.mark.skipif(not (HIP_ROOT / "include" / "hip" / "hip_version.h").is_file() or not shutil.which("clang++-15"),
                    reason="needs HIP 5.2's headers and clang-15")
def test_hip_names_table_is_what_the_installed_headers_give(tmp_path: Path) -> None:
    """data/hip_names.tsv for HIP 5.2 is regenerated from the headers and must be unchanged."""
    from cass_cc.toolchain.rocm import find_rocm

    rocm = find_rocm(os.environ)
    if rocm.hip_version[:2] != (5, 2):
        pytest.skip("the committed table's HIP is 5.2")
    table = tmp_path / "hip_names.tsv"
    shutil.copy(hipnames.TABLE, table)
    count = hipnames.update((5, 2), hipnames.hip_identifiers("clang++-15", rocm.root, rocm.root / "include"), table)
    assert count > 800
    assert table.read_text() == hipnames.TABLE.read_text(), "run: python -m cass_cc.translate.hipnames"
