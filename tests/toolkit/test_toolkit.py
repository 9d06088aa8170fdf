"""The shim CUDA toolkit: builds that call nvcc by name or by $(CUDA_PATH), and host
files compiled by g++ against <cuda_runtime.h>, end up with HIP."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from cass_cc.driver import toolkit
from cass_cc.toolchain.bundle import device_targets
from tests.conftest import needs_clang, run_cass

KERNEL = """\
#include <cuda_runtime.h>
__global__ void fill(float* x, float v, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = v; }
int fill_on_gpu(float* d, int n) { fill<<<(n + 127) / 128, 128>>>(d, 1.5f, n); return (int)cudaDeviceSynchronize(); }
"""
HOST = """\
#include <cuda_runtime.h>
#include <cstdio>
int fill_on_gpu(float* d, int n);
int main() {
  float* d = nullptr;
  if (cudaMalloc((void**)&d, 256 * sizeof(float)) != cudaSuccess) return 1;
  int rc = fill_on_gpu(d, 256);
  printf("%s\\n", cudaGetErrorString((cudaError_t)rc));
  return cudaFree(d) == cudaSuccess ? rc : 1;
}
"""


def test_names_header_maps_host_api_for_the_installed_hip() -> None:
    text = toolkit.names_header((5, 2))
    assert "#define cudaMalloc hipMalloc" in text and "#define cudaStream_t hipStream_t" in text
    assert "#define cudaDeviceSetLimit " not in text  # needs HIP 5.3
    assert "#define __shfl_down_sync" not in text  # device intrinsics are the translator's
    assert "#define cudaDeviceSetLimit hipDeviceSetLimit" in toolkit.names_header((5, 3))


@pytest.fixture
def tk(cass_env: dict[str, str], tmp_path: Path) -> Path:
    proc = run_cass(["toolkit"], tmp_path, cass_env, check=True)
    return Path(proc.stdout.strip())


@needs_clang
def test_toolkit_layout(tk: Path) -> None:
    assert os.access(tk / "bin" / "nvcc", os.X_OK)
    assert "#include <hip/hip_runtime.h>" in (tk / "include" / "cuda_runtime.h").read_text()
    for lib in ("libcudart.so", "libcudart_static.a", "libcudadevrt.a"):
        assert (tk / "lib64" / lib).is_file(), lib
    assert "libamdhip64.so" in (tk / "lib64" / "libnvrtc.so").read_text()  # hiprtc is in libamdhip64 (ROCm 5)
    # libcudart is a real library exporting CUDA's C ABI (tests/toolkit/test_cudart_abi.py), needing HIP's
    assert b"libamdhip64.so" in (tk / "lib64" / "libcudart.so").read_bytes()


@pytest.mark.e2e
@needs_clang
def test_makefile_hard_coding_nvcc_with_shim_on_path(tk: Path, tmp_path: Path, cass_env: dict[str, str]) -> None:
    (tmp_path / "k.cu").write_text(KERNEL)
    (tmp_path / "main.cu").write_text(HOST)
    (tmp_path / "Makefile").write_text(
        "app: k.o main.o\n\tnvcc -arch=sm_80 $^ -o $@\n"
        "%.o: %.cu\n\tnvcc -arch=sm_80 -O2 -c $< -o $@\n"
    )
    env = {**cass_env, "PATH": f"{tk / 'bin'}{os.pathsep}{cass_env['PATH']}"}
    proc = subprocess.run(["make", "-j4"], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert device_targets(str(tmp_path / "app")) == ["gfx1100"]


@pytest.mark.e2e
@needs_clang
def test_makefile_with_cuda_path_and_host_cpp_by_gxx(tk: Path, tmp_path: Path, cass_env: dict[str, str]) -> None:
    """$(CUDA_PATH)/bin/nvcc for the kernels, g++ -I$(CUDA_PATH)/include for the host file,
    and a link by g++ with -L$(CUDA_PATH)/lib64 -lcudart, as many Makefiles do."""
    (tmp_path / "k.cu").write_text(KERNEL)
    (tmp_path / "main.cpp").write_text(HOST)
    (tmp_path / "Makefile").write_text(
        "CUDA_PATH ?= /usr/local/cuda\n"
        "NVCC = $(CUDA_PATH)/bin/nvcc\n"
        "app: k.o main.o\n\tg++ $^ -o $@ -L$(CUDA_PATH)/lib64 -lcudart -lcudadevrt\n"
        "k.o: k.cu\n\t$(NVCC) -arch=sm_86 -Xcompiler -fPIC -c $< -o $@\n"
        "main.o: main.cpp\n\tg++ -I$(CUDA_PATH)/include -c $< -o $@\n"
    )
    proc = subprocess.run(["make", f"CUDA_PATH={tk}"], cwd=tmp_path, env=cass_env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert device_targets(str(tmp_path / "app")) == ["gfx1100"]
    symbols = subprocess.run(["nm", "-D", "--undefined-only", str(tmp_path / "app")], capture_output=True, text=True).stdout
    assert "hipMalloc" in symbols and "cudaMalloc" not in symbols


GUARDED_HOST = r"""
#include <cuda_runtime.h>
#include <math_constants.h>
#include <cstdio>
#ifdef __DRIVER_TYPES_H__  /* as cuda-samples' helper_cuda.h */
static int deviceCount() { int n = -1; cudaGetDeviceCount(&n); return n; }
#endif
int main() {
  cudaDeviceProp p;
  cudaError_t e = cudaGetDeviceProperties(&p, 0);
  printf("%d %d %.6f %d %d\n", deviceCount(), CUDART_VERSION, CUDART_PI_F, (int)(e != cudaSuccess), (int)sizeof(p.deviceOverlap));
  return 0;
}
"""


@needs_clang
def test_host_code_sees_cudas_guards_constants_and_fields(tk: Path, tmp_path: Path) -> None:
    """g++ against the toolkit: CUDA's guard and version macros, CUDART_* values and
    cudaDeviceProp's CUDA-only fields are there; a header HIP lacks is an error naming it."""
    (tmp_path / "h.cpp").write_text(GUARDED_HOST)
    subprocess.run(["g++", f"-I{tk / 'include'}", str(tmp_path / "h.cpp"), f"-L{tk / 'lib64'}", "-lcudart",
                    "-o", str(tmp_path / "h")], check=True)
    count, version, pi, failed, size = subprocess.run([str(tmp_path / "h")], capture_output=True, text=True).stdout.split()
    assert (count, version, pi, failed, size) == ("0", "12040", "3.141593", "1", "4")
    (tmp_path / "c.cpp").write_text("#include <cupti.h>\n")
    proc = subprocess.run(["g++", f"-I{tk / 'include'}", "-c", str(tmp_path / "c.cpp"), "-o", str(tmp_path / "c.o")],
                          capture_output=True, text=True)
    assert proc.returncode != 0 and "cass-cc: CUDA header <cupti.h> is not supported by HIP 5.2" in proc.stderr


@needs_clang
def test_toolkit_headers_are_never_part_of_a_user_include_closure(tk: Path, tmp_path: Path) -> None:
    """Found through -I, the toolkit's headers are cass-cc's (HIP already), not user headers to
    translate into a shadow tree (cuda-samples' dct8x8 once got a translated copy of
    cass_cuda_names.h, and two cudaDeviceProp definitions)."""
    from cass_cc.driver import headers

    (tmp_path / "Common.h").write_text("#pragma once\n#include <cuda_runtime.h>\n")
    (tmp_path / "k.cu").write_text('#include "Common.h"\n#include <math_constants.h>\n')
    files = headers.closure(str(tmp_path / "k.cu"), [str(tk / "include")]).files
    assert list(files) == [str(tmp_path / "Common.h")]


@needs_clang
def test_libraries_hip_lacks_fail_the_link_by_name(tk: Path, tmp_path: Path) -> None:
    """-lnppc (no HIP counterpart) and the headers CUDA ships that HIP lacks (CUPTI) say so."""
    src = tmp_path / "m.c"
    src.write_text("int main(void) { return 0; }\n")
    proc = subprocess.run(["gcc", str(src), f"-L{tk / 'lib64'}", "-lnppc", "-o", str(tmp_path / "m")],
                          capture_output=True, text=True)
    assert proc.returncode != 0
    assert "cass-cc: -lnppc (NPP) has no HIP counterpart" in proc.stderr, proc.stderr
    assert not (tmp_path / "m").exists()
    assert '#error "cass-cc: CUDA header <cupti_pcsampling.h> is not supported by HIP' in \
        (tk / "include" / "cupti_pcsampling.h").read_text()
    assert '#error "cass-cc: CUDA header <npp.h> is not supported by HIP' in (tk / "include" / "npp.h").read_text()
    if not Path("/usr/include/hiprand/hiprand.h").exists():  # a HIP library not installed: which one, for g++ too
        text = (tk / "include" / "curand.h").read_text()
        assert '#error "cass-cc: CUDA header <curand.h> needs hipRAND (<hiprand/hiprand.h>), which is not installed' in text
        host = tmp_path / "h.cpp"
        host.write_text("#include <curand.h>\nint main() { return 0; }\n")
        proc = subprocess.run(["g++", f"-I{tk / 'include'}", "-c", str(host), "-o", str(tmp_path / "h.o")],
                              capture_output=True, text=True)
        assert proc.returncode != 0 and "needs hipRAND" in proc.stderr, proc.stderr
