"""The shim toolkit's libcudart.so, libcudart_static.a and libcuda.so export CUDA's C ABI
(cass_cc/cudart): C built by gcc with its own prototypes links and runs against them, and
gets CUDA's error codes and names. This machine has no GPU: HIP answers hipErrorNoDevice /
hipErrorInvalidDevice, which the libraries turn into CUDA's codes."""
from __future__ import annotations

import ctypes
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from cass_cc.cudart.elfsyms import exported_functions
from tests.conftest import SHARED_CACHE, needs_clang, run_cass

RUNTIME_C = r"""
#include <stdio.h>
#include <stddef.h>
int cudaGetDeviceCount(int*);
const char* cudaGetErrorString(int);
const char* cudaGetErrorName(int);
int cudaMalloc(void**, size_t);
int cudaDeviceGetAttribute(int*, int, int);
int cudaSetDevice(int);
int main(void) {
  int n = -1;
  int e = cudaGetDeviceCount(&n);
  printf("count %d %d %s | %s\n", e, n, cudaGetErrorName(e), cudaGetErrorString(e));
  e = cudaSetDevice(0);
  printf("set %d %s\n", e, cudaGetErrorName(e));
  int v = -1;
  e = cudaDeviceGetAttribute(&v, 1 /* cudaDevAttrMaxThreadsPerBlock */, 0);
  printf("attr %d %s\n", e, cudaGetErrorName(e));
  e = cudaDeviceGetAttribute(&v, 100000 /* no such cudaDeviceAttr */, 0);
  printf("badattr %d %s\n", e, cudaGetErrorName(e));
  printf("names %s | %s | %s | %s\n", cudaGetErrorName(2), cudaGetErrorString(2), cudaGetErrorName(123456),
         cudaGetErrorString(123456));
  return 0;
}
"""
RUNTIME_EXPECTED = [
    "count 100 0 cudaErrorNoDevice | no CUDA-capable device is detected",
    "set 101 cudaErrorInvalidDevice",
    "attr 101 cudaErrorInvalidDevice",
    # HIP would answer hipErrorInvalidDevice for device 0; the conversion table has no HIP
    # attribute for this value, so the library answers CUDA's invalid-value first.
    "badattr 1 cudaErrorInvalidValue",
    "names cudaErrorMemoryAllocation | out of memory | unrecognized error code | unrecognized error code",
]

DLOPEN_C = r"""
#include <dlfcn.h>
#include <stdio.h>
typedef int (*count_fn)(int*);
typedef const char* (*name_fn)(int);
int main(int argc, char** argv) {
  void* lib = dlopen(argv[1], RTLD_NOW);
  if (!lib) { printf("dlopen failed: %s\n", dlerror()); return 1; }
  count_fn count = (count_fn)dlsym(lib, "cudaGetDeviceCount");
  name_fn name = (name_fn)dlsym(lib, "cudaGetErrorName");
  void* malloc_fn = dlsym(lib, "cudaMalloc");
  if (!count || !name || !malloc_fn) { printf("dlsym failed\n"); return 1; }
  int n = -1;
  int e = count(&n);
  printf("%d %d %s\n", e, n, name(e));
  return 0;
}
"""

DRIVER_C = r"""
#include <stdio.h>
#include <stddef.h>
int cuInit(unsigned int);
int cuDeviceGetCount(int*);
int cuDeviceGet(int*, int);
int cuGetErrorName(int, const char**);
int cuGetErrorString(int, const char**);
int cuMemAlloc(unsigned long long*, size_t);
int cuMemAlloc_v2(unsigned long long*, size_t);
int main(void) {
  const char* s = 0; const char* t = 0;
  int e = cuInit(0);
  cuGetErrorName(e, &s); cuGetErrorString(e, &t);
  printf("init %d %s | %s\n", e, s, t);
  int n = -1;
  e = cuDeviceGetCount(&n);
  cuGetErrorName(e, &s);
  printf("count %d %d %s\n", e, n, s);
  e = cuGetErrorName(100, &s);
  printf("name100 %d %s\n", e, s);
  s = "unchanged";
  e = cuGetErrorName(123456, &s);
  printf("unknown %d %s\n", e, s ? s : "(null)");
  return 0;
}
"""


@pytest.fixture(scope="module")
def tk(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The toolkit in the tests' shared cache (built once, by the first test that needs it)."""
    tmp = tmp_path_factory.mktemp("tk")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CASS_", "NVCC_"))}
    env["CASS_CACHE_DIR"] = str(SHARED_CACHE)
    env["CASS_CONFIG"] = str(tmp / "no-config.toml")
    proc = run_cass(["toolkit"], tmp, env, check=True)
    assert "stay linker scripts" not in proc.stderr, proc.stderr
    return Path(proc.stdout.strip())


def _gcc_run(tmp_path: Path, text: str, link: list[str], args: list[str] = ()) -> list[str]:
    src, exe = tmp_path / "main.c", tmp_path / "main"
    src.write_text(text)
    built = subprocess.run(["gcc", str(src), "-o", str(exe), *link], capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    # no LD_LIBRARY_PATH: the libraries are named by their paths in the toolkit
    ran = subprocess.run([str(exe), *args], capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    return ran.stdout.splitlines()


@needs_clang
def test_c_with_own_prototypes_links_libcudart_and_gets_cuda_codes(tk: Path, tmp_path: Path) -> None:
    lib64 = tk / "lib64"
    assert _gcc_run(tmp_path, RUNTIME_C, [f"-L{lib64}", "-lcudart"]) == RUNTIME_EXPECTED
    undefined = subprocess.run(["nm", "-D", "--undefined-only", str(tmp_path / "main")], capture_output=True, text=True).stdout
    assert "cudaGetDeviceCount" in undefined and "hipGetDeviceCount" not in undefined


@needs_clang
def test_c_with_own_prototypes_links_libcudart_static(tk: Path, tmp_path: Path) -> None:
    assert not (tk / "lib64" / "libcudart_static.so").exists()  # -lcudart_static takes the archive
    assert (tk / "lib64" / "libcudart_static.a").read_bytes().startswith(b"!<arch>\n")
    assert _gcc_run(tmp_path, RUNTIME_C, [f"-L{tk / 'lib64'}", "-lcudart_static"]) == RUNTIME_EXPECTED
    undefined = subprocess.run(["nm", "--undefined-only", str(tmp_path / "main")], capture_output=True, text=True).stdout
    assert "cudaGetDeviceCount" not in undefined and "hipGetDeviceCount" not in undefined  # HIP through dlopen


@needs_clang
def test_dlopen_libcudart_and_dlsym(tk: Path, tmp_path: Path) -> None:
    for name in ("libcudart.so", "libcudart.so.13"):
        out = _gcc_run(tmp_path, DLOPEN_C, [], [str(tk / "lib64" / name)])
        assert out == ["100 0 cudaErrorNoDevice"], name


@needs_clang
def test_libcuda_driver_api_with_own_prototypes(tk: Path, tmp_path: Path) -> None:
    out = _gcc_run(tmp_path, DRIVER_C, [f"-L{tk / 'lib64'}", "-lcuda"])
    # hipInit without a GPU answers hipErrorInvalidDevice (101), CUDA_ERROR_INVALID_DEVICE in CUDA
    assert out == [
        "init 101 CUDA_ERROR_INVALID_DEVICE | invalid device ordinal",
        "count 100 0 CUDA_ERROR_NO_DEVICE",
        "name100 0 CUDA_ERROR_NO_DEVICE",
        "unknown 1 (null)",
    ]
    exported = exported_functions(tk / "lib64" / "libcuda.so.1")
    assert {"cuMemAlloc", "cuMemAlloc_v2", "cuDeviceGetAttribute", "cuCtxGetDevice", "cuMemcpyHtoD", "cuMemcpyHtoD_v2"} <= exported
    assert (tk / "lib64" / "stubs" / "libcuda.so").read_bytes()[:4] == b"\x7fELF"


@needs_clang
def test_exports_follow_the_installed_hip(tk: Path) -> None:
    """A CUDA function whose HIP counterpart is missing is not exported, and the report says why."""
    exported = exported_functions(tk / "lib64" / "libcudart.so.13")
    assert {"cudaMalloc", "cudaGetDeviceProperties", "cudaPointerGetAttributes", "cudaFuncGetAttributes"} <= exported
    assert "cudaThreadSynchronize" in exported  # CUDA 12's, removed in 13: still CUDA code cass-cc accepts
    assert "cudaGetDeviceProperties_v2" in exported  # what CUDA 12's headers call, with 12's cudaDeviceProp
    assert "cudaMallocHost" in exported  # hipHostMalloc(p, size, flags): HIP's added flags passed as 0
    assert "cudaDeviceSetLimit" not in exported  # hipDeviceSetLimit arrived in HIP 5.3
    report = (tk / "lib64" / "cass" / "cudart-report.txt").read_text()
    assert "cudaDeviceSetLimit\thipDeviceSetLimit is not declared by the installed HIP headers" in report
    # the HIP names translated code calls resolve through libcudart.so too (auxiliary filter)
    assert "hipMalloc" in exported
    lib = ctypes.CDLL(str(tk / "lib64" / "libcudart.so"))
    assert lib.hipGetDeviceCount(ctypes.byref(ctypes.c_int())) == 100  # the real one, not the stub


CUDA_HEADERS = Path("/usr/local/cuda/include")
WITH_CUDA_HEADERS_C = r"""
#include <cuda_runtime_api.h>
#include <cuda.h>
#include <stdio.h>
int main(void) {
  int n = -1;
  cudaError_t e = cudaGetDeviceCount(&n);
  printf("%d %d %s\n", (int)e, n, cudaGetErrorName(e));
  struct cudaDeviceProp prop;
  printf("%s\n", cudaGetErrorName(cudaGetDeviceProperties(&prop, 0)));
  void* d = 0;
  printf("%s\n", cudaGetErrorName(cudaMemcpy(d, &n, 4, cudaMemcpyHostToDevice)));
  const char* name = 0;
  CUdeviceptr p;
  cuGetErrorName(cuMemAlloc(&p, 16), &name);
  printf("%s\n", name);
  return 0;
}
"""


@needs_clang
@pytest.mark.skipif(not (CUDA_HEADERS / "cuda_runtime_api.h").exists(), reason="needs CUDA's headers (nvidia-cuda-nvcc)")
def test_c_compiled_against_cuda_s_own_headers(tk: Path, tmp_path: Path) -> None:
    """A prebuilt-object case: gcc compiles against NVIDIA's headers (their symbol names,
    cuMemAlloc -> cuMemAlloc_v2, their struct cudaDeviceProp), the toolkit links it."""
    out = _gcc_run(tmp_path, WITH_CUDA_HEADERS_C, [f"-I{CUDA_HEADERS}", f"-L{tk / 'lib64'}", "-lcudart", "-lcuda"])
    assert out == ["100 0 cudaErrorNoDevice", "cudaErrorInvalidDevice", "cudaErrorInvalidDevice", "CUDA_ERROR_INVALID_DEVICE"]


CONVERSIONS_CPP = r"""
#include "cudart.cpp"
#include <stdio.h>
int main() {
  hipDeviceProp_t h; memset(&h, 0, sizeof h);
  strcpy(h.name, "gfx1100"); h.totalGlobalMem = 1ull << 34; h.multiProcessorCount = 48; h.maxThreadsDim[2] = 64;
  h.major = 11; h.maxSharedMemoryPerMultiProcessor = 65536; h.l2CacheSize = 6 << 20;
  cass_cuda_cudaDeviceProp d;
  cass_conv_cudaDeviceProp_to_cuda(&d, &h);
  const char* c = (const char*)&d;
  /* offsets of CUDA 13's cudaDeviceProp, from cuda_abi.json */
  printf("prop %s %llu %d %d %d %zu %d\n", c + OFF_NAME, *(unsigned long long*)(c + OFF_GLOBAL), *(int*)(c + OFF_SM),
         *(int*)(c + OFF_DIM2), *(int*)(c + OFF_MAJOR), *(size_t*)(c + OFF_SHM), *(int*)(c + OFF_L2));
  h.clockRate = 2500000;
  cass_cuda_cudaDeviceProp_12090 d12;  /* CUDA 12's layout, for cudaGetDeviceProperties_v2 */
  cass_conv_cudaDeviceProp_12090_to_cuda(&d12, &h);
  const char* c12 = (const char*)&d12;
  printf("prop12 %d %d\n", *(int*)(c12 + OFF12_CLOCK), *(int*)(c12 + OFF12_SM));
  hipPointerAttribute_t ha; memset(&ha, 0, sizeof ha); ha.memoryType = hipMemoryTypeDevice; ha.device = 3;
  cass_cuda_cudaPointerAttributes ca; cass_conv_cudaPointerAttributes_to_cuda(&ca, &ha);
  printf("ptr %d %d\n", ca.type, ca.device);
  int out = -1;
  bool ok = cass_cudaDeviceAttr_hipDeviceAttribute_t_to_hip(1, &out);
  printf("attr %d %d %d\n", ok, out == hipDeviceAttributeMaxThreadsPerBlock, out != 1);
  printf("err %d %d %d\n", cass_err_cudaError(hipErrorNoDevice), cass_err_cudaError(hipErrorRuntimeMemory), cass_err_cudaError(hipErrorTbd));
  return 0;
}
"""


@needs_clang
def test_generated_conversions(tk: Path, tmp_path: Path) -> None:
    """The generated record, enum and error conversions, compiled from the toolkit's own
    lib64/cass/cudart.cpp: HIP's cudaDeviceProp counterpart lands at CUDA's offsets, HIP's
    memory type and CUDA's device attribute values differ and are converted, and HIP-only
    error codes become cudaErrorUnknown."""
    from cass_cc import cudart

    offsets = {f[0]: f[2] for f in cudart.cuda_abi()["records"]["cudaDeviceProp"]["fields"]}
    defines = {"OFF_NAME": "name", "OFF_GLOBAL": "totalGlobalMem", "OFF_SM": "multiProcessorCount",
               "OFF_MAJOR": "major", "OFF_SHM": "sharedMemPerMultiprocessor", "OFF_L2": "l2CacheSize"}
    flags = [f"-D{k}={offsets[v]}" for k, v in defines.items()] + [f"-DOFF_DIM2={offsets['maxThreadsDim'] + 8}"]
    offsets12 = {f[0]: f[2] for f in cudart.cuda_abi()["records"]["cudaDeviceProp@12090"]["fields"]}
    flags += [f"-DOFF12_CLOCK={offsets12['clockRate']}", f"-DOFF12_SM={offsets12['multiProcessorCount']}"]
    src = tmp_path / "conv.cpp"
    src.write_text(CONVERSIONS_CPP)
    clang = shutil.which("clang-15") or "clang"
    exe = tmp_path / "conv"
    built = subprocess.run([clang, "-x", "c++", "-std=c++17", "-D__HIP_PLATFORM_AMD__", "-w", f"-I{tk / 'lib64' / 'cass'}",
                            *flags, str(src), "-o", str(exe), "-lamdhip64"], capture_output=True, text=True)
    assert built.returncode == 0, built.stderr[-3000:]
    out = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout.splitlines()
    assert out == [
        f"prop gfx1100 {1 << 34} 48 64 11 65536 {6 << 20}",
        "prop12 2500000 48",  # CUDA 12's cudaDeviceProp still has clockRate
        "ptr 2 3",  # hipMemoryTypeDevice (1) -> cudaMemoryTypeDevice (2)
        "attr 1 1 1",  # cudaDevAttrMaxThreadsPerBlock (1) -> HIP's value, which differs
        "err 100 999 999",  # hipErrorRuntimeMemory (1052), hipErrorTbd: no CUDA code -> cudaErrorUnknown
    ]


@pytest.mark.parametrize("spelling, expected", [
    ("void **", {"k": "ptr", "to": {"k": "ptr", "to": {"k": "void"}, "const": False}, "const": False}),
    ("const char *", {"k": "ptr", "to": {"k": "int", "size": 1}, "const": True}),
    ("void *const *", {"k": "ptr", "to": {"k": "ptr", "to": {"k": "void"}, "const": False}, "const": False}),
    ("size_t", {"k": "int", "size": 8}),
    ("int[3]", {"k": "array", "of": {"k": "int", "size": 4}, "n": 3}),
    ("int[2][3]", {"k": "array", "of": {"k": "array", "of": {"k": "int", "size": 4}, "n": 3}, "n": 2}),
    ("enum cudaMemcpyKind", {"k": "enum", "name": "cudaMemcpyKind"}),
    ("struct cudaDeviceProp *", {"k": "ptr", "to": {"k": "record", "name": "cudaDeviceProp"}, "const": False}),
    ("hipStream_t", {"k": "ptr", "to": {"k": "record", "name": "ihipStream_t"}, "const": False}),
    ("void (*)(void *)", {"k": "ptr", "to": {"k": "fn"}, "const": False}),
])
def test_type_spellings_resolve(spelling: str, expected: dict) -> None:
    from cass_cc.cudart.decls import Decls

    decls = Decls()
    decls.typedefs.update({"size_t": "unsigned long", "hipStream_t": "struct ihipStream_t *"})
    assert decls.resolve(spelling) == expected


def test_cuda_facts_are_cuda_13_s() -> None:
    """cuda_abi.json (extract_cuda.py): facts a C caller compiled against CUDA 13 relies on."""
    from cass_cc import cudart

    abi = cudart.cuda_abi()
    assert abi["cudart_version"] == 13000
    assert abi["enums"]["cudaError"]["cudaErrorNoDevice"] == 100 and abi["enums"]["cudaError_enum"]["CUDA_ERROR_NO_DEVICE"] == 100
    assert abi["records"]["cudaDeviceProp"]["size"] == 1008
    assert abi["aliases"]["cuMemAlloc"] == "cuMemAlloc_v2" and abi["aliases"]["cuMemcpyHtoD"] == "cuMemcpyHtoD_v2"
    assert abi["removed"]["cudaThreadSynchronize"] == 12090  # CUDA 12.9's, removed in 13


DRIVER_CONVERSIONS_CPP = r"""
#include "cuda.cpp"
#include <stdio.h>
int main() {
  int out = -1;
  bool ok = cass_CUdevice_attribute_enum_hipDeviceAttribute_t_to_hip(16 /* CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT */, &out);
  printf("attr %d %d %d\n", ok, out == hipDeviceAttributeMultiprocessorCount, out != 16);
  printf("err %d %d %d\n", cass_err_cudaError_enum(hipErrorNoDevice), cass_err_cudaError_enum(hipErrorInvalidContext),
         cass_err_cudaError_enum(hipErrorRuntimeOther));
  return 0;
}
"""


@needs_clang
def test_generated_driver_conversions(tk: Path, tmp_path: Path) -> None:
    """libcuda's tables: CUdevice_attribute values differ from hipDeviceAttribute_t's; HIP-only
    codes become CUDA_ERROR_UNKNOWN (999)."""
    src, exe = tmp_path / "conv.cpp", tmp_path / "conv"
    src.write_text(DRIVER_CONVERSIONS_CPP)
    clang = shutil.which("clang-15") or "clang"
    built = subprocess.run([clang, "-x", "c++", "-std=c++17", "-D__HIP_PLATFORM_AMD__", "-w", f"-I{tk / 'lib64' / 'cass'}",
                            str(src), "-o", str(exe), "-lamdhip64"], capture_output=True, text=True)
    assert built.returncode == 0, built.stderr[-3000:]
    out = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout.splitlines()
    assert out == ["attr 1 1 1", "err 100 201 999"]


@needs_clang  # and the ROCm beside it
def test_without_a_clang_the_linker_scripts_stay(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    from cass_cc.driver import toolkit
    from cass_cc.toolchain.rocm import find_rocm

    rocm = find_rocm(dict(os.environ))
    monkeypatch.setenv("CASS_CLANG", str(tmp_path / "no-clang"))
    lib64 = tmp_path / "lib64"
    lib64.mkdir()
    (lib64 / "libcudart.so").write_text("INPUT(libamdhip64.so)\n")
    toolkit.abi_libraries(lib64, lib64, rocm)
    assert (lib64 / "libcudart.so").read_text() == "INPUT(libamdhip64.so)\n"
    assert "stay linker scripts to HIP" in capsys.readouterr().err
