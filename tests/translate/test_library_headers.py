"""How the rules translate the CUDA libraries' headers (issue 23): rocThrust's headers with
`__CUDACC__` hidden and thrust's execution policies brought in, hipSOLVER told to take hipBLAS's
enumerations, cuBLAS's math modes served. Built and run end to end in tests/libs (ROCm 5.7 root)."""
from __future__ import annotations

from cass_cc.translate import Target
from cass_cc.translate.rules import RulesTranslator

THRUST = "#include <cstdio>\n#include <thrust/sort.h> // sorting\n#include <thrust/device_vector.h>\nint line = __LINE__;\n"


def translate(source: str) -> str:
    out = RulesTranslator().translate(source, "t.cu", Target(hip_version=(5, 7)))
    assert not out.diagnostics, [d.message for d in out.diagnostics]
    return out.text.split('#line 1 "t.cu"\n', 1)[1]


def test_thrust_headers_are_included_with_cudacc_hidden_and_lines_kept() -> None:
    body = translate(THRUST)
    assert body.count('#pragma push_macro("__CUDACC__")') == 2 == body.count('#pragma pop_macro("__CUDACC__")')
    assert body.count("#include <thrust/execution_policy.h>") == 1  # once, after the first thrust header
    # each wrapped line is followed by a #line naming the next source line: __LINE__ stays 4
    lines = body.splitlines()
    assert lines[lines.index("int line = __LINE__;") - 1].startswith("#line 4")
    assert "#line 3 // sorting" in body


def test_cusolver_takes_hipblas_enumerations() -> None:
    out = RulesTranslator().translate("#include <cusolverDn.h>\n#include <cublas_v2.h>\n"
                                      "cublasFillMode_t f = CUBLAS_FILL_MODE_LOWER;\n", "t.cu", Target(hip_version=(5, 7)))
    head = out.text.split("#line 1")[0]
    assert "#define HIPSOLVER_USE_HIPBLAS_ENUMS" in head
    assert "hipblasFillMode_t f = HIPBLAS_FILL_MODE_LOWER;" in out.text


def test_cublas_math_modes_are_served() -> None:
    out = RulesTranslator().translate("#include <cublas_v2.h>\nvoid f(cublasHandle_t h) { cublasSetMathMode(h, CUBLAS_DEFAULT_MATH); }\n",
                                      "t.cu", Target(hip_version=(5, 7)))
    assert not out.diagnostics, [d.message for d in out.diagnostics]
    assert "hipblasStatus_t cublasSetMathMode(hipblasHandle_t h, cublasMath_t mode)" in out.text
    assert "cublasSetMathMode(h, CUBLAS_DEFAULT_MATH)" in out.text.split("#line 1")[1]
