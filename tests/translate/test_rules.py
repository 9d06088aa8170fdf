from __future__ import annotations

import re
from pathlib import Path

import pytest

from cass_cc.translate import RulesTranslator, Target
from cass_cc.translate.prelude import BASE
from cass_cc.translate.served import guards_of

GOLDEN = Path(__file__).with_name("golden")
HIP52 = Target(hip_version=(5, 2), wave_size=32)


def body(source: str, target: Target = HIP52, filename: str = "t.cu") -> str:
    text = RulesTranslator().translate(source, filename, target).text
    line = f'#line 1 "{filename}"\n'
    assert text.startswith(BASE) and line in text
    return text.split(line, 1)[1]


def test_identity_names_version_data_and_code() -> None:
    from cass_cc.translate import mappings
    from cass_cc.translate.identity import _code_hash

    ident = RulesTranslator().identity()
    assert re.fullmatch(r"rules-\d+-[0-9a-f]{12}-[0-9a-f]{12}", ident)
    assert mappings.data_hash()[:12] in ident and _code_hash()[:12] in ident


def test_rename_basic_and_global_qualified() -> None:
    assert body("cudaMalloc(&p, n); ::cudaFree(p);") == "hipMalloc(&p, n); ::hipFree(p);"


def test_members_and_namespaces_untouched() -> None:
    src = "a.cudaMalloc(); b->cudaFree(); ns::cudaMemcpy(); t<int>::cudaSuccess; a. cudaMalloc;"
    assert body(src) == src


def test_comments_and_literals_untouched() -> None:
    src = '// cudaMalloc\n/* cudaFree */ "cudaMemcpy" \'c\' R"(cudaSuccess)" L"cudaStream_t"\n'
    assert body(src) == src


def test_macro_bodies_and_if_branches() -> None:
    src = "#define M(x) cudaMemcpy(x, \\\n  cudaMemcpyHostToDevice)\n#if 0\ncudaFree(p);\n#elif defined(cudaSuccess)\n#endif\n"
    out = body(src)
    assert "hipMemcpy(x, \\\n  hipMemcpyHostToDevice)" in out
    assert "hipFree(p);" in out and "defined(hipSuccess)" in out


def test_includes() -> None:
    src = '#include <cuda_runtime.h>\n#include "cuda.h"\n#include "mine.h"\n#include <vector>\n'
    assert body(src) == '#include <hip/hip_runtime.h>\n#include <hip/hip_runtime.h>\n#include "mine.h"\n#include <vector>\n'


def test_launch_kept() -> None:
    src = "k<T, 4><<<g, b, 0, s>>>(a, f<int>(b));\n"
    assert body(src) == src


def test_warp_sync_rewrites_hip52() -> None:
    src = ("a = __shfl_down_sync(0xffffffffu, v, 1);\n"
           "b = __shfl_xor_sync(m, f<int, 2>(v, g(1, 2)), 4, 16);\n"
           "c = __ballot_sync(m, x > 0 && y < 1);\n"
           "__syncwarp(mask);\n")
    out = body(src)
    assert "a = __shfl_down(v, 1);" in out
    assert "b = __shfl_xor(f<int, 2>(v, g(1, 2)), 4, 16);" in out
    assert "c = (((unsigned int)__ballot(x > 0 && y < 1)) & (m));" in out  # only the mask's lanes vote
    assert "__cass_syncwarp();" in out and "mask" not in out


def test_syncwarp_stays_portable_hip() -> None:
    """Port output is HIP that builds on NVIDIA too (cass-cc verify): AMD's builtins only under
    __HIP_PLATFORM_AMD__, CUDA's own __syncwarp elsewhere."""
    text = RulesTranslator().translate("__global__ void k() { __syncwarp(); }\n", "s.cu", Target((5, 2), 32)).text
    helper = text[text.index("static __device__ inline void __cass_syncwarp()"):]
    amd, _, nvidia = helper.partition("#else")
    assert "#if defined(__HIP_PLATFORM_AMD__)" in amd and "__builtin_amdgcn_wave_barrier()" in amd
    assert "__syncwarp();" in nvidia.split("#endif")[0]
    assert "__builtin_amdgcn" not in text.split("#line 1")[-1]


def test_warp_sync_wave64_ballot_not_truncated() -> None:
    out = body("c = __ballot_sync(m, p); d = __activemask();", Target((5, 2), 64))
    assert out == "c = __ballot(p); d = __ballot(1);"


def test_warp_sync_kept_on_hip62_with_note() -> None:
    src = "a = __shfl_sync(0xffffffff, v, 0);"
    result = RulesTranslator().translate(src, "t.cu", Target((6, 2), 32))
    assert result.text.endswith(src)
    assert [d.severity for d in result.diagnostics] == ["note"]
    assert not result.unsupported


def test_warp_sync_multiline_keeps_lines() -> None:
    src = "x = __shfl_sync(\n   0xffffffff,\n   v,\n   0);\ny = 1;\n"
    out = body(src)
    assert out.count("\n") == src.count("\n")
    assert out.splitlines()[4] == "y = 1;"


def test_shfl_with_width_takes_the_lane_modulo_the_width() -> None:
    # CUDA: lane 24 of an 8-wide segment is lane 0 of it; HIP 5.2's __shfl would reach lane 24+base
    src = "x = __shfl_sync(m, v, 24, 8);\ny = __shfl_sync(m, v,  // lane\n  f(i) + 1, W);\nz = 1;\n"
    out = body(src)
    assert out.splitlines()[0] == "x = __shfl(v, (24) & ((8) - 1), 8);"
    assert out.splitlines()[1] == "y = __shfl(v, (f(i) + 1) & ((W) - 1), W)"
    assert out.count("\n") == src.count("\n") and out.splitlines()[3] == "z = 1;"


def test_warp_sync_args_translated_inside() -> None:
    out = body("x = __shfl_sync(m, cudaSuccess, 0);")
    assert out == "x = __shfl(hipSuccess, 0);"


def test_unsupported_reported() -> None:
    # cuLogsCurrent: one of CUDA's own names (CUDA 12.9) without a table row
    src = "cuLogsCurrent(1);\n  cudaLaunch(k);\n__match_any_sync(m, v);\n"
    result = RulesTranslator().translate(src, "t.cu", HIP52)
    assert set(result.unsupported) == {"cuLogsCurrent", "cudaLaunch"}  # __match_any_sync has a helper
    assert "__cass_match_any(m, v)" in result.text
    assert all(d.severity == "warning" for d in result.diagnostics)
    assert (result.diagnostics[1].line, result.diagnostics[1].column) == (2, 3)


def test_user_declared_cuda_like_names_not_reported() -> None:
    src = ("#define cudaCheck(call) do { cudaError_t e = call; } while (0)\n"
           "#define WRAP(cudaCall) cudaCall\n"
           "inline void cudaAssert(int code) {}\n"
           "int main() { cudaError_t cudaStatus = cudaSuccess; cudaCheck(cudaStatus); WRAP(cudaAssert(1)); }\n")
    result = RulesTranslator().translate(src, "t.cu", HIP52)
    assert result.unsupported == ()
    assert "hipError_t cudaStatus = hipSuccess" in result.text


USER_NAMES = """\
void run(float* p, float* q, int a, int n) {
  cudaCheckLater(1);
  int *cudaPtr = 0; float &cudaRef = *q; char* cudaBuf[4];
  cudaTypedefd t; cudaAnonEnum e = cudaEnumA; cudaUsing u = cudaMineB;
  a = n * cudaTimes;
}
static inline void cudaCheckLater(int v) {}
template <typename T> T* cudaAllocT(size_t n);
const char* cudaName(int);
struct S { int cudaMember; float* cudaData; };
typedef struct { int a; } cudaTypedefd;
typedef enum { cudaEnumA, cudaEnumB } cudaAnonEnum;
using cudaUsing = int;
enum Mine { cudaMineA = 1, cudaMineB };
"""


def test_names_the_file_declares_anywhere_are_not_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    from cass_cc.translate import rules

    monkeypatch.setattr(rules, "_inventory_names", lambda: None)  # every CUDA-looking name counts
    result = RulesTranslator().translate(USER_NAMES, "t.cu", HIP52)
    assert result.unsupported == ("cudaTimes",), result.diagnostics  # used, declared nowhere


def test_with_the_inventory_only_cuda_names_are_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    from cass_cc.translate import rules

    monkeypatch.setattr(rules, "_inventory_names", lambda: frozenset({"cuLogsCurrent"}))
    result = RulesTranslator().translate("cudaCheck(1);\ncuLogsCurrent(0);\n", "t.cu", HIP52)
    assert result.unsupported == ("cuLogsCurrent",)


DEAD_BRANCHES = """\
#define USE_NEW 1
#if 0
cuLogsCurrent(0);
#endif
#ifdef _WIN32
cuLogsDumpToFile(0);
#elif defined(__APPLE__)
cuLogsDumpToFile(1);
#else
cuLogsRegisterCallback(0);
#endif
#if CUDART_VERSION < 5000
cuLogsDumpToMemory(0);
#elif !USE_NEW
cuLogsUnregisterCallback(0);
#endif
#ifdef SOMETHING_FROM_THE_BUILD
cuStreamGetDevice(0);
#endif
"""


def test_no_warnings_in_branches_the_preprocessor_drops() -> None:
    result = RulesTranslator().translate(DEAD_BRANCHES, "t.cu", HIP52)
    # the live branch and the one a -D flag may turn on are reported; the translation is whole
    assert [d.line for d in result.diagnostics] == [10, 18]
    assert result.unsupported == ("cuLogsRegisterCallback", "cuStreamGetDevice")
    assert "cuLogsCurrent(0);" in result.text


@pytest.mark.parametrize("conditions, dead", [
    ("#if 0\nx\n#else\ny\n#endif\n", [(2, 2)]),
    ("#if 1\nx\n#elif 1\ny\n#else\nz\n#endif\n", [(4, 6)]),
    ("#if defined(U) && 0\nx\n#endif\n#if defined(U) || 0\ny\n#endif\n", [(2, 2)]),
    ("#ifndef _MSC_VER\nx\n#else\ny\n#endif\n", [(4, 4)]),
    ("#if CUDA_VERSION >= 11000 && __CUDACC_VER_MAJOR__ > 10\nx\n#else\ny\n#endif\n", [(4, 4)]),
    ("#define A 2\n#if A * 3 == 6 ? 0 : 1\nx\n#endif\n", [(3, 3)]),
    ("#ifdef U\n#define A 1\n#endif\n#if A\nx\n#endif\n", []),  # A may be defined: unknown
    ("#if 0\n#if 1\nx\n#endif\ny\n#endif\nz\n", [(2, 5)]),
    ("#if 0 /* c */ \\\n  || 0\nx\n#endif\n", [(3, 3)]),
    ("#if f(1)\nx\n#endif\n", []),
])
def test_dead_lines(conditions: str, dead: list[tuple[int, int]]) -> None:
    from cass_cc.translate.conditions import dead_lines

    assert dead_lines(conditions) == dead


def test_deprecated_is_translated_with_note() -> None:
    result = RulesTranslator().translate("cudaThreadSynchronize();", "t.cu", HIP52)
    assert result.text.endswith("hipDeviceSynchronize();")
    assert [d.severity for d in result.diagnostics] == ["note"]


def test_hip_version_gated_name_warns_on_old_hip() -> None:
    old = RulesTranslator().translate("cudaDeviceSetLimit(cudaLimitStackSize, 1);", "t.cu", HIP52)
    new = RulesTranslator().translate("cudaDeviceSetLimit(cudaLimitStackSize, 1);", "t.cu", Target((6, 0), 32))
    assert "cudaDeviceSetLimit" in old.unsupported and new.unsupported == ()
    assert new.text.endswith("hipDeviceSetLimit(hipLimitStackSize, 1);")


def test_prelude_adds_kernel_overloads_only_when_used() -> None:
    plain = RulesTranslator().translate("cudaMalloc(&p, 4);", "t.cu", HIP52).text
    head = plain.split('#line 1 "t.cu"\n')[0]
    assert head.startswith(BASE) and "hipFuncGetAttributes" not in head and "template" not in head
    # what nvcc's implicit <cuda_runtime.h> defines, and nothing else (served.header_macros)
    assert {l for l in head.splitlines() if l.startswith("#define")} == {
        f"#define {g}" for g in guards_of("cuda_runtime.h")} | {"#define CUDART_VERSION 12040"}
    used = RulesTranslator().translate("cudaFuncGetAttributes(&a, k);", "t.cu", HIP52).text
    head, rest = used.split('#line 1 "t.cu"\n')
    assert "R (*func)(A...)" in head and "hipFuncGetAttributes" in head
    assert rest == "hipFuncGetAttributes(&a, k);"


def test_line_directive_escapes_filename() -> None:
    text = RulesTranslator().translate("", 'C:\\a "b".cu', HIP52).text
    assert '#line 1 "C:\\\\a \\"b\\".cu"\n' in text


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.cu")), ids=lambda p: p.name)
def test_line_structure_preserved(path: Path) -> None:
    """Every input line stays on its line number after the #line 1 directive."""
    source = path.read_text()
    out = body(source)
    assert out.count("\n") == source.count("\n")
    assert "#line" not in out  # no rewrite needed a re-sync
    for number, (a, b) in enumerate(zip(source.splitlines(), out.splitlines()), 1):
        # identifiers that were not renamed keep their column order; a cheap check that
        # the line is the same line: its first token (after the include rewrite) matches;
        # launch chevrons split over lines are joined, so they do not count
        a_first, b_first = re.findall(r"[^\s<>]+", a)[:1], re.findall(r"[^\s<>]+", b)[:1]
        if not b_first or b.startswith(("/* cass-cc:", '#error "cass-cc:')) or re.match(r"(asm|__asm__)\b", a.strip()):
            continue  # removed definitions HIP has, refused headers and rewritten inline PTX keep their lines
        if a_first and not re.match(r"(cuda|cu[A-Z]|__\w+_sync|__activemask|__syncwarp|cublas|curand|CU)", a_first[0]):
            from cass_cc.translate.corrected import helper_name

            name = re.match(r"\w+", a_first[0])
            renamed = name and b_first[0] == helper_name(name.group()) + a_first[0][name.end():]
            assert a_first == b_first or renamed, (number, a, b)  # corrected.py's renames keep the line


def test_deterministic() -> None:
    source = (GOLDEN / "warp_sync.cu").read_text()
    first = RulesTranslator().translate(source, "w.cu", HIP52)
    assert all(RulesTranslator().translate(source, "w.cu", HIP52) == first for _ in range(3))




def test_wave64_flags_32_lane_assumptions() -> None:
    src = "__global__ void k(int* o) {\n  int lane = threadIdx.x & 31;\n  o[lane] = __shfl_sync(0xffffffff, lane, 0);\n}\n"
    wave64 = RulesTranslator().translate(src, "t.cu", Target((5, 2), 64))
    messages = [d.format("t.cu") for d in wave64.diagnostics]
    assert any(m.startswith("t.cu:2:28: warning: '& 31' assumes 32-lane warps") for m in messages), messages
    assert any("t.cu:3:25: warning: mask '0xffffffff' names 32 lanes" in m for m in messages), messages
    wave32 = RulesTranslator().translate(src, "t.cu", HIP52)
    assert not [d for d in wave32.diagnostics if d.severity == "warning"]


def test_redefinition_only_for_signatures_hip_has() -> None:
    src = ("__device__ float atomicMax(float* a, float v) { return v; }\n"
           "__device__ int atomicMax(int* a, unsigned long long v) { return 0; }\n"
           "__global__ void k(float* f) { atomicMax(f, 1.0f); }\n")
    text = body(src)
    assert text.startswith("__device__ float cass_program_atomicMax(float* a, float v)")
    assert "__device__ int atomicMax(int* a, unsigned long long v)" in text  # not one HIP has
    assert "{ atomicMax(f, 1.0f); }" in text  # calls keep the name: HIP's serves them


def test_namespace_rows_rename_only_namespace_uses() -> None:
    src = ("#include <cub/cub.cuh>\nusing namespace cub;\nint f(int* cub) {\n"
           "  cub::DeviceReduce::Sum(nullptr, n, a, b, 4);\n  return cub[0];\n}\n")
    body = RulesTranslator().translate(src, "t.cu", HIP52).text.split("\n", 2)[2]
    assert "using namespace hipcub;" in body and "hipcub::DeviceReduce::Sum" in body
    assert "int f(int* cub)" in body and "return cub[0];" in body


def test_simd_intrinsics_get_helpers() -> None:
    result = RulesTranslator().translate("__global__ void k(int* o) { o[0] = __vmaxs4(o[1], 0); }\n", "t.cu", HIP52)
    assert "o[0] = __cass__vmaxs4(o[1], 0);" in result.text
    assert "unsigned int __cass__vmaxs4(unsigned int a, unsigned int b)" in result.text.split("#line")[0]
    assert result.unsupported == ()


def test_user_headers_named_like_cuda_headers_are_left_alone() -> None:
    src = "#include <cuda_fp8.h>\n#include <cuda_runtime.h>\n"
    refused = body(src)
    assert refused.startswith('#error "cass-cc: CUDA header <cuda_fp8.h>')
    mine = Target((5, 2), 32, user_headers=frozenset({"cuda_fp8.h"}))
    assert body(src, mine) == "#include <cuda_fp8.h>\n#include <hip/hip_runtime.h>\n"
    assert mine.key() != HIP52.key() and HIP52.key() == "hip5.2-w32"


def test_elaborated_use_of_a_cuda_tag_is_not_the_programs_own_declaration() -> None:
    """`struct cudaMemcpy3DBatchOp *q` uses CUDA's tag (reported); `struct cudaMine { ... }` and
    `struct cudaOther;` declare the program's own (quiet)."""
    src = ("void f() { struct cudaMemcpy3DBatchOp* q = 0; }\nvoid g() { cudaMemcpy3DBatchOp* p = 0; }\n"
           "struct cudaMine { int a; };\nstruct cudaOther;\nvoid h() { cudaMine m; }\n")
    out = RulesTranslator().translate(src, "e.cu", HIP52)
    assert [(d.line, d.message.split("'")[1]) for d in out.diagnostics] == [(1, "cudaMemcpy3DBatchOp"), (2, "cudaMemcpy3DBatchOp")]


def test_comparison_with_a_shift_in_parentheses_is_not_a_template() -> None:
    # fuzz r3:2992: `x < ((a - b) >> c)` was read as a template argument list closed by the
    # shift, so the call's arguments never closed and __any_sync stayed untranslated.
    src = ("__global__ void k(const unsigned* in, int* out) {\n"
           "  out[0] = __any_sync(0xaaaaaaaau, (blockDim.x < ((30u - in[0]) >> (in[1] & 31u))));\n}\n")
    r = RulesTranslator().translate(src, "t.cu", HIP52)
    assert not r.diagnostics
    assert "__any_sync" not in r.text and "& (0xaaaaaaaau)) != 0u)" in r.text
