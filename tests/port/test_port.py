"""`cass-cc port` through click's runner: outputs, reports, modes, refusals, failures."""
from __future__ import annotations

import csv
import json
from pathlib import Path

from .conftest import TREE, snapshot


def test_output_tree(tree: Path, tmp_path: Path, run_port) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "out"
    result = run_port(str(tree), "-o", str(out), "--hip-version", "5.2")
    assert result.exit_code == 0, result.output
    # the whole tree, and the record of what the port wrote (writes.py: a later port keeps edits)
    assert sorted(snapshot(out)) == sorted([*TREE, ".cass-port-manifest.json"])
    scale = (out / "scale.cu").read_text()
    assert "#line" not in scale
    # the prelude (HIP's header, then CUDA's guard macros for the program's helper headers), then the file
    assert scale.startswith("#include <hip/hip_runtime.h>\n") and "\n#define __CUDA_RUNTIME_H__\n" in scale
    assert scale.split("#pragma clang diagnostic pop\n#endif\n", 1)[1].startswith("// scale: one kernel")
    assert "hipStream_t stream" in scale and "cudaStream_t" not in scale
    header = (out / "kernels.cuh").read_text()
    assert "#include <hip/hip_runtime.h>" in header and "cuda" not in header
    main = (out / "main.cpp").read_text()
    assert "hipMalloc(&d, sizeof host) != hipSuccess" in main and "hipMemcpyDeviceToHost" in main
    assert "#line" not in main
    assert (out / "util/plain.c").read_text() == TREE["util/plain.c"]  # no CUDA: left as it is
    assert (out / "data/input.txt").read_text() == TREE["data/input.txt"]
    makefile = (out / "Makefile").read_text()
    assert "CC      = hipcc\n" in makefile
    assert "CFLAGS  = -O2 --offload-arch=gfx1100 -Wall\n" in makefile
    assert "-lcudart" not in makefile and "\t$(CC) $(CFLAGS) $(OBJS) -o $@\n" in makefile
    cmake = (out / "CMakeLists.txt").read_text()
    assert "project(app LANGUAGES CXX HIP)" in cmake and "find_package(hip REQUIRED)" in cmake
    assert "set(CMAKE_HIP_ARCHITECTURES gfx1100)" in cmake and "hip::host" in cmake
    assert "PROPERTIES LANGUAGE HIP" in cmake
    assert snapshot(tree) == {rel: text.encode() for rel, text in TREE.items()}  # the source is untouched
    assert "4 source files: 3 translated, 1 unchanged, 0 failed" in result.stderr  # the summary line


def test_json_report_and_stats(tree: Path, tmp_path: Path, run_port) -> None:  # type: ignore[no-untyped-def]
    out, js, csv_path = tmp_path / "out", tmp_path / "r.json", tmp_path / "s.csv"
    result = run_port(str(tree), "-o", str(out), "--hip-version", "5.2", "--report-json", str(js),
                      "--print-stats-csv", str(csv_path), "--print-stats")
    assert result.exit_code == 0, result.output
    report = json.loads(js.read_text())
    assert report["mode"] == "output" and report["target"] == {"hip_version": "5.2", "wave_size": 32, "offload_arch": ["gfx1100"]}
    files = {f["path"]: f for f in report["files"]}
    assert set(files) == {"kernels.cuh", "scale.cu", "main.cpp", "util/plain.c", "Makefile", "CMakeLists.txt"}
    assert files["main.cpp"]["status"] == "translated"
    assert files["main.cpp"]["renamed"]["runtime"]["cudaMalloc"] == 1
    assert files["main.cpp"]["renamed"]["runtime"]["cudaMemcpy"] == 2
    assert files["main.cpp"]["renamed"]["headers"] == {"#include <cuda_runtime.h>": 1}
    assert files["scale.cu"]["renamed"]["runtime"] == {"cudaStream_t": 1}
    assert files["util/plain.c"]["status"] == "unchanged"
    assert files["Makefile"]["status"] == "translated"
    assert "line 3: -Xcompiler -Wall -> -Wall" in files["Makefile"]["rewrites"]
    assert report["summary"] == {"sources": 4, "translated": 3, "unchanged": 1, "failed": 0, "build_files": 2,
                                 "build_files_rewritten": 2, "copied": 1}
    rows = {r["family"]: r for r in csv.DictReader(csv_path.open())}
    assert int(rows["runtime"]["converted"]) == report["stats"]["runtime"]["converted"] >= 10
    assert rows["total"]["files"] == "3"
    assert result.stdout.splitlines()[0].split() == ["family", "converted", "names", "unsupported", "files"]
    assert any(line.startswith("runtime") for line in result.stdout.splitlines())


def test_examine_writes_nothing(tree: Path, tmp_path: Path, run_port) -> None:  # type: ignore[no-untyped-def]
    before = snapshot(tmp_path)
    result = run_port(str(tree), "--examine", "--hip-version", "5.2", env={"CASS_NO_CACHE": "0", "CASS_CACHE_DIR": str(tmp_path / "cache")})
    assert result.exit_code == 0, result.output
    assert snapshot(tmp_path) == before  # not even the cache
    assert "translated  main.cpp" in result.stderr and "nothing would be written" in result.stderr


def test_inplace_keeps_originals(tree: Path, run_port) -> None:  # type: ignore[no-untyped-def]
    result = run_port(str(tree), "--inplace", "--hip-version", "5.2")
    assert result.exit_code == 0, result.output
    assert (tree / "main.cpp.cuda-orig").read_text() == TREE["main.cpp"]
    assert "hipMalloc" in (tree / "main.cpp").read_text()
    assert (tree / "Makefile.cuda-orig").read_text() == TREE["Makefile"]
    assert not (tree / "util/plain.c.cuda-orig").exists()
    first = snapshot(tree)
    assert run_port(str(tree), "--inplace", "--hip-version", "5.2").exit_code == 0
    assert snapshot(tree) == first  # a second run starts from the originals again


def test_cache_serves_second_run(tree: Path, tmp_path: Path, run_port) -> None:  # type: ignore[no-untyped-def]
    env = {"CASS_NO_CACHE": "0", "CASS_CACHE_DIR": str(tmp_path / "cache")}
    assert run_port(str(tree), "-o", str(tmp_path / "a"), "--hip-version", "5.2", env=env).exit_code == 0
    env["CASS_CACHE_REQUIRE_HIT"] = "1"  # not read by port, but a second run must give the same tree
    assert run_port(str(tree), "-o", str(tmp_path / "b"), "--hip-version", "5.2", env=env).exit_code == 0
    assert snapshot(tmp_path / "a") == snapshot(tmp_path / "b")


def test_refuses_output_inside_source(tree: Path, run_port) -> None:  # type: ignore[no-untyped-def]
    for out in (tree / "hip", tree):
        result = run_port(str(tree), "-o", str(out), "--hip-version", "5.2")
        assert result.exit_code == 1
        assert len(result.stderr.strip().splitlines()) == 1 and "source folder" in result.stderr
    assert not (tree / "hip").exists()


def test_refuses_no_mode(tree: Path, run_port) -> None:  # type: ignore[no-untyped-def]
    result = run_port(str(tree), "--hip-version", "5.2")
    assert result.exit_code == 1 and "exactly one of" in result.stderr


def test_bad_file_fails_with_reason(tree: Path, tmp_path: Path, run_port) -> None:  # type: ignore[no-untyped-def]
    (tree / "bad.cu").write_bytes(b"__global__ void k() {}\nint x\xff = 1;\n")
    (tree / "latin1.cu").write_bytes(b"// (c) M\xfcller\n__global__ void k2() {}\n")
    js = tmp_path / "r.json"
    result = run_port(str(tree), "-o", str(tmp_path / "out"), "--hip-version", "5.2", "--report-json", str(js))
    assert result.exit_code == 1
    assert "failed      bad.cu: bad.cu:2: source is not UTF-8 text (byte 0xff" in result.stderr
    files = {f["path"]: f for f in json.loads(js.read_text())["files"]}
    assert files["bad.cu"]["status"] == "failed" and "not UTF-8" in files["bad.cu"]["error"]
    assert files["latin1.cu"]["status"] == "translated"
    assert "latin1.cu:1:1: warning: not UTF-8 (byte 0xfc" in files["latin1.cu"]["diagnostics"][0]
    assert b"M\xfcller" in (tmp_path / "out/latin1.cu").read_bytes()  # kept byte for byte
    assert (tmp_path / "out/bad.cu").read_bytes() == (tree / "bad.cu").read_bytes()  # copied, so the tree is complete


def test_no_build_files(tree: Path, tmp_path: Path, run_port) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "out"
    assert run_port(str(tree), "-o", str(out), "--hip-version", "5.2", "--no-build-files", "-q").exit_code == 0
    assert (out / "Makefile").read_text() == TREE["Makefile"]


def test_unsupported_and_diagnostics_reported(tmp_path: Path, run_port) -> None:  # type: ignore[no-untyped-def]
    src = tmp_path / "src"
    src.mkdir()
    (src / "k.cu").write_text("__global__ void k(int* p) { p[0] = __shfl_sync(0xffffffff, p[0], 0); }\n"
                              "void f() { cudaIpcMemHandle_t h; cudaLimitDevRuntimePendingLaunchCount; cuLogsCurrent(0, 0); }\n")
    js = tmp_path / "r.json"
    result = run_port(str(src), "--examine", "--hip-version", "5.2", "--offload-arch", "gfx90a", "--report-json", str(js))
    assert result.exit_code == 0, result.output
    report = json.loads(js.read_text())
    assert report["target"]["wave_size"] == 64
    entry = report["files"][0]
    assert entry["renamed"] == {"device": {"__shfl_sync": 1}, "runtime": {"cudaIpcMemHandle_t": 1}}
    assert entry["unsupported"] == {"cuLogsCurrent": {"count": 1, "family": "unknown"},
                                    "cudaLimitDevRuntimePendingLaunchCount": {"count": 1, "family": "runtime"}}
    assert any("64-lane waves" in d for d in entry["diagnostics"])
    assert report["stats"]["unknown"]["unsupported"] == 1 and report["stats"]["runtime"]["unsupported"] == 1
    assert "unsupported, left as is: cuLogsCurrent (unknown)" in result.stderr


def test_names_the_trees_own_headers_declare_are_not_reported(tmp_path: Path, run_port) -> None:  # type: ignore[no-untyped-def]
    """A CUDA name that a header of the project itself defines is the project's (as the driver
    treats the headers a compile includes); one nothing provides is still reported."""
    src = tmp_path / "src"
    src.mkdir()
    (src / "mine.h").write_text("#pragma once\ntypedef unsigned short nv_bfloat16;\n#define MAJOR_VERSION 3\n")
    (src / "k.cu").write_text('#include "mine.h"\n__global__ void k(nv_bfloat16* p) { p[0] = MAJOR_VERSION; }\n'
                              "int f(cudaDeviceProp* q) { return q->gpuDirectRDMASupported; }\n")
    js = tmp_path / "r.json"
    result = run_port(str(src), "--examine", "--hip-version", "5.2", "--report-json", str(js))
    assert result.exit_code == 0, result.output
    entry = next(f for f in json.loads(js.read_text())["files"] if f["path"] == "k.cu")
    assert list(entry["unsupported"]) == ["gpuDirectRDMASupported"]
    assert not any("nv_bfloat16" in d or "MAJOR_VERSION" in d for d in entry["diagnostics"])
