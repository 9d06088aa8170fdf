"""Every type row names a HIP type, and every CUDA enum/struct/union tag keeps working where a
program spells it with its keyword (`enum cudaError e;`, `struct cudaDeviceProp p;`): its
row's HIP name must be a tag of the same kind in HIP's headers (`hipError_t`, not `hipError`;
HIP's `hipExternalMemoryHandleDesc` is a typedef, its tag `hipExternalMemoryHandleDesc_st`).
Checked by compiling a use of each for gfx1100 against the installed HIP."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from cass_cc.translate import mappings
from tests.translate.conftest import cass_cc_build
from tests.translate.test_e2e import TC
from tests.translate.test_mappings import INSTALLED_HIP, NOT_INSTALLED

pytestmark = pytest.mark.skipif(TC is None, reason="needs clang and ROCm")
CUDA_INCLUDE = Path("/usr/local/cuda/include")
HIP_HEADERS = ["hip/hip_runtime.h", "hip/hip_cooperative_groups.h", "hip/hip_complex.h", "hip/hiprtc.h", "hip/hip_fp16.h"]
# Type rows that are class templates in both APIs, with arguments for a use.
TEMPLATE_ARGS = {"thread_block_tile": "<32, thread_block>", "texture": "<float, 1, hipReadModeElementType>"}
_TAG_USE = re.compile(r"\b(enum|struct|union)\s+(?:__device_builtin__\s+)?((?:cuda|CU|cu)\w*)\b")


def _rows() -> list[mappings.Mapping]:
    return [row for row in mappings.all_rows() if row.kind == "type" and row.family not in NOT_INSTALLED
            and row.available_on(INSTALLED_HIP)]


def _failing_lines(uses: list[str], tmp_path: Path) -> dict[int, str]:
    """Compile one HIP file of `uses` (one a line); the lines clang reports errors on."""
    assert TC is not None
    head = [f"#include <{h}>" for h in HIP_HEADERS] + ["using namespace cooperative_groups;"]
    src = tmp_path / "uses.hip"
    src.write_text("\n".join(head + uses) + "\n")
    proc = subprocess.run([TC.clang.path, "-x", "hip", "--offload-arch=gfx1100", f"--rocm-path={TC.rocm.root}",
                           "-nogpulib", "-fsyntax-only", "-ferror-limit=0", str(src)], capture_output=True, text=True)
    errors: dict[int, str] = {}
    for m in re.finditer(rf"^{re.escape(str(src))}:(\d+):\d+: error: (.*)$", proc.stderr, re.M):
        errors.setdefault(int(m.group(1)) - len(head) - 1, m.group(2))
    assert proc.returncode == 0 or errors, proc.stderr[-2000:]
    return errors


def test_every_type_row_names_a_hip_type(tmp_path: Path) -> None:
    rows = _rows()
    uses = [f"{row.hip_name}{TEMPLATE_ARGS.get(row.hip_name, '')}* p{n};" for n, row in enumerate(rows)]
    errors = _failing_lines(uses, tmp_path)
    bad = [f"{rows[n].family}: {rows[n].cuda_name} -> {rows[n].hip_name}: {why}" for n, why in sorted(errors.items())]
    assert not bad, "\n".join(bad)
    assert len(rows) > 250


def cuda_tags() -> dict[str, str]:
    """CUDA's enum/struct/union tags (name -> keyword) as its headers spell them."""
    tags: dict[str, str] = {}
    for path in sorted(CUDA_INCLUDE.rglob("*.h")):
        code = re.sub(r"/\*.*?\*/|//[^\n]*", " ", path.read_text(errors="replace"), flags=re.S)
        for m in _TAG_USE.finditer(code):
            tags.setdefault(m.group(2), m.group(1))
    return tags


@pytest.mark.skipif(not CUDA_INCLUDE.is_dir(), reason="needs CUDA's headers (to know which names are tags)")
def test_cuda_tags_are_hip_tags(tmp_path: Path) -> None:
    table = mappings.table()
    tags = [(name, keyword, table[name]) for name, keyword in sorted(cuda_tags().items())
            if name in table and table[name].family not in NOT_INSTALLED and table[name].available_on(INSTALLED_HIP)]
    uses = [f"{keyword} {row.hip_name}* q{n};" for n, (_, keyword, row) in enumerate(tags)]
    errors = _failing_lines(uses, tmp_path)
    bad = [f"{tags[n][1]} {tags[n][0]} -> {tags[n][2].hip_name}: {why}" for n, why in sorted(errors.items())]
    assert not bad, "\n".join(bad)
    assert any(name == "cudaError" for name, _, _ in tags) and len(tags) > 100


TAGS_PROGRAM = """\
#include <cuda_runtime.h>
#include <cstdio>
__global__ void k(float* x) { x[threadIdx.x] = 1.0f; }
static const char* name(enum cudaError e) { return cudaGetErrorName(e); }
int main() {
    float* d = nullptr;
    cudaError err = cudaMalloc(&d, 256 * sizeof(float));
    enum cudaError again = cudaGetLastError();
    struct cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost;
    struct cudaExternalMemoryHandleDesc handle = {};
    enum cudaExternalMemoryHandleType type = cudaExternalMemoryHandleTypeOpaqueFd;
    cudaExternalSemaphoreWaitParams wait = {};
    handle.type = type;
    (void)wait, (void)kind;
    k<<<1, 256>>>(d);
    printf("%s %s %s\\n", name(err), name(again), prop.name);
    return cudaFree(d) == cudaSuccess ? 0 : 1;
}
"""


@pytest.mark.e2e
def test_tags_build_for_gfx1100(tmp_path: Path) -> None:
    cass_cc_build(TAGS_PROGRAM, tmp_path / "tags", "-arch=sm_80")


HOST_PROGRAM = """\
#include <hip/hip_runtime_api.h>
#include "cass_cuda_names.h"
int main(void) {
    enum cudaError e = cudaSuccess;
    cudaError f = e;
    struct cudaExternalMemoryHandleDesc handle;
    enum cudaMemcpyKind kind = cudaMemcpyHostToDevice;
    (void)handle, (void)kind;
    return (int)f;
}
"""


@pytest.mark.parametrize("compiler, lang", [("g++", "c++"), ("gcc", "c")])
def test_shim_toolkit_names_keep_tags(tmp_path: Path, compiler: str, lang: str) -> None:
    """Host code built against the shim toolkit (its #defines come from the same rows) spells
    the tags too, in C and C++."""
    import shutil

    from cass_cc.driver import toolkit

    if shutil.which(compiler) is None:
        pytest.skip(f"needs {compiler}")
    (tmp_path / "cass_cuda_names.h").write_text(toolkit.names_header(INSTALLED_HIP))
    src = tmp_path / ("host.cpp" if lang == "c++" else "host.c")
    src.write_text(HOST_PROGRAM.replace("(void)handle, (void)kind;", "(void)handle; (void)kind;"))
    proc = subprocess.run([compiler, "-x", lang, "-fsyntax-only", "-D__HIP_PLATFORM_AMD__", f"-I{tmp_path}", str(src)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-2000:]
