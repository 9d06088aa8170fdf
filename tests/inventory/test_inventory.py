"""The inventory's committed data: complete, consistent, and its facts as CUDA has them."""
from __future__ import annotations

from cass_cc.inventory import data, uses
from cass_cc.translate import status


def test_every_name_has_a_status() -> None:
    names = data.names()
    statuses = {s.key: s for s in data.statuses()}
    assert len({n.key for n in names}) == len(names), "keys must be unique"
    missing = [n.key for n in names if n.key not in statuses]
    assert not missing, f"{len(missing)} names without a status (python -m cass_cc.translate.status): {missing[:10]}"
    assert set(statuses) <= {n.key for n in names}, "statuses of names the inventory no longer has"
    assert {s.status for s in statuses.values()} <= set(data.STATUSES)
    assert all(s.reason for s in statuses.values() if s.status in ("refused", "fails"))


def test_kinds_groups_and_size() -> None:
    names = data.names()
    assert {n.kind for n in names} <= set(data.KINDS)
    assert {n.group for n in names} <= set(data.GROUPS)
    by_group: dict[str, int] = {}
    for n in names:
        by_group[n.group] = by_group.get(n.group, 0) + 1
    # CUDA 12.9 + 13.0: about 2,300 runtime, 2,400 driver, 1,000 device names
    floors = {"runtime": 2000, "driver": 2000, "device": 600, "math": 300, "fp16": 200, "bf16": 200, "cooperative_groups": 100}
    for group, floor in floors.items():
        assert by_group.get(group, 0) >= floor, (group, by_group.get(group))


def test_known_names() -> None:
    rows = {n.key: n for n in data.names()}
    assert rows["field:cudaDeviceProp::deviceOverlap"].cuda == "12"  # removed in 13, still counts
    assert rows["field:cudaDeviceProp::totalGlobalMem"].cuda == "12,13"
    assert rows["enumerator:cudaErrorInvalidValue"].value == "1"
    assert rows["enumerator:cudaSuccess"].scope == "" and rows["type:cudaError"].signature == "enum"
    assert rows["function:cudaMemcpy@cuda_runtime_api.h"].signature == \
        "cudaError_t (void *, const void *, size_t, enum cudaMemcpyKind)"
    assert rows["function:umin@crt/math_functions.h"].group == "math"
    assert rows["function:cuMemAlloc@cuda.h"].signature.startswith("CUresult (CUdeviceptr *, size_t)")
    assert "function:cuMemAlloc_v2@cuda.h" not in rows  # programs write the macro's name
    assert rows["macro:CUDART_PI_F"].header == "math_constants.h"
    assert rows["guard:__CUDA_RUNTIME_H__"].header == "cuda_runtime.h"
    assert "member:cooperative_groups::thread_block_tile::meta_group_rank@cooperative_groups.h" in rows
    assert "function:__hmul_rn@cuda_fp16.h" in rows and "function:__hmul_rn@cuda_bf16.h" in rows


def test_guards_and_versions() -> None:
    guards = data.guards_defined_by("cuda_runtime.h")
    for guard in ("__CUDA_RUNTIME_H__", "__DRIVER_TYPES_H__", "__CUDA_RUNTIME_API_H__", "__VECTOR_TYPES_H__"):
        assert guard in guards
    versions = {(v.cuda, v.macro): v.value for v in data.versions()}
    assert versions[("13", "CUDART_VERSION")] == "13000" and versions[("12", "CUDA_VERSION")].startswith("12")


def test_uses_are_one_statement_per_name() -> None:
    names = [n for n in data.names() if n.kind != "header"]
    for number, n in enumerate(names[:: max(1, len(names) // 400)]):
        use = uses.use_of(n, number)
        assert use.count("\n") in (0, 2), use
        assert f"inv_u{number}" in use or use.startswith("#if !defined(")


def test_errors_attributed_by_line() -> None:
    out = status.Outcome()
    status.parse_diagnostics(
        "x.cu:7:5: warning: 'cudaFoo' has no known HIP counterpart\n"
        "x.cu:7:5: error: use of undeclared identifier 'cudaFoo'\n"
        "In file included from x.cu:1:\n/usr/include/hip/h.h:3:1: error: bad\n"
        "/usr/include/hip/h.h:9:1: error: in template\nx.cu:9:12: note: in instantiation requested here\n",
        "x.cu", out)
    assert out.errors == {7: ["use of undeclared identifier 'cudaFoo'"], 1: ["bad"], 9: ["in template"]}
    assert out.warnings == {7: ["'cudaFoo' has no known HIP counterpart"]}


def test_declared_names_of_a_prelude() -> None:
    text = ("#define CUDART_PI_F 3.14f\nstruct cudaDeviceProp : hipDeviceProp_t { int deviceOverlap; };\n"
            "template <class T> static __device__ inline T umin(T a, T b) { return hipMin(a, b); }\n")
    found = status.declared_names(text)
    assert {"CUDART_PI_F", "cudaDeviceProp", "deviceOverlap", "umin"} <= found
    assert "hipMin" not in found  # called, not declared
