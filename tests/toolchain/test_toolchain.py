"""The toolchain layer on this machine's real tools, and its refusals."""
from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from cass_cc.toolchain import Toolchain, ToolchainError, wave_size
from cass_cc.toolchain.devlibs import isa_number
from cass_cc.toolchain.rocm import find_rocm, isa_file
from cass_cc.toolchain.specs import SPECS
from cass_cc.toolchain.tool import VersionCache, find, parse_version
from tests.conftest import SHARED_CACHE, needs_clang


@pytest.mark.parametrize(
    "name, text, expected",
    [
        ("clang", "Debian clang version 15.0.6\nTarget: x86_64-pc-linux-gnu\n", (15, 0, 6)),
        ("clang", "AMD clang version 17.0.0 (https://github.com/RadeonOpenCompute/llvm-project roc-6.0.2 24012)\n", (17, 0, 0)),
        ("hipcc", "HIP version: 5.2.21153-0\n", (5, 2, 21153)),
        ("llvm-mc", "Debian LLVM version 16.0.6\n  Optimized build.\n", (16, 0, 6)),
        ("ld.lld", "Debian LLD 16.0.6 (compatible with GNU linkers)\n", (16, 0, 6)),
        ("host-cxx", "g++ (Debian 12.2.0-14+deb12u1) 12.2.0\nCopyright (C) 2022\n", (12, 2, 0)),
        ("host-cxx", "Debian clang version 16.0.6 (15~deb12u1)\n", (16, 0, 6)),
        ("nvcc", "nvcc: NVIDIA (R) Cuda compiler driver\nCuda compilation tools, release 13.0, V13.0.88\n", (13, 0, 88)),
        ("cuobjdump", "cuobjdump: NVIDIA (R) CUDA Object Utility\nCuda compilation tools, release 13.0, V13.0.85\n", (13, 0, 85)),
    ],
)
def test_version_parsers(name: str, text: str, expected: tuple[int, ...]) -> None:
    assert parse_version(text, SPECS[name].pattern) == expected


def _fake_tool(path: Path, version_line: str) -> None:
    path.write_text(f"#!/bin/sh\necho '{version_line}'\n")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)


def test_explicit_variable_wins_and_too_old_is_refused(tmp_path: Path) -> None:
    old = tmp_path / "llvm-mc"
    _fake_tool(old, "LLVM version 15.0.6")
    env = {"CASS_LLVM_MC": str(old), "PATH": ""}
    with pytest.raises(ToolchainError) as e:
        find(SPECS["llvm-mc"], env, [], VersionCache(None))
    assert "version 15.0.6, need 16+" in str(e.value) and "CASS_LLVM_MC" in str(e.value)
    new = tmp_path / "llvm-mc-new"
    _fake_tool(new, "LLVM version 18.1.8")
    tool = find(SPECS["llvm-mc"], {"CASS_LLVM_MC": str(new)}, [], VersionCache(None))
    assert tool.path == str(new) and tool.version == (18, 1, 8)


def test_path_search_skips_our_own_nvcc(tmp_path: Path) -> None:
    """An nvcc shim first on PATH is skipped; the real one behind it is found."""
    from tests.conftest import ROOT

    real_dir = tmp_path / "cuda" / "bin"
    real_dir.mkdir(parents=True)
    _fake_tool(real_dir / "nvcc", "Cuda compilation tools, release 12.4, V12.4.131")
    env = {"PATH": f"{ROOT / 'shims' / 'bin'}{os.pathsep}{real_dir}"}
    tool = find(SPECS["nvcc"], env, [], VersionCache(None))
    assert tool.path == str(real_dir / "nvcc") and tool.version == (12, 4, 131)


def test_version_cache_probes_once(tmp_path: Path) -> None:
    exe = tmp_path / "tool"
    _fake_tool(exe, "LLVM version 16.0.0")
    cache = VersionCache(tmp_path / "tools.json")
    calls = []
    assert cache.get(str(exe), lambda: calls.append(1) or "v1") == "v1"
    assert VersionCache(tmp_path / "tools.json").get(str(exe), lambda: calls.append(1) or "v2") == "v1"
    assert calls == [1]


def test_rocm_explicit_path_must_hold_hip(tmp_path: Path) -> None:
    with pytest.raises(ToolchainError, match="CASS_ROCM_PATH"):
        find_rocm({}, str(tmp_path))


def _hip_tree(root: Path, bitcode: list[str]) -> None:
    """A HIP installation's landmarks: hip_version.h, libamdhip64.so, ocml.bc in each folder named."""
    (root / "include" / "hip").mkdir(parents=True)
    (root / "include" / "hip" / "hip_version.h").write_text(
        "#define HIP_VERSION_MAJOR 5\n#define HIP_VERSION_MINOR 7\n#define HIP_VERSION_PATCH 31921\n")
    (root / "lib" / "x86_64-linux-gnu").mkdir(parents=True)
    (root / "lib" / "x86_64-linux-gnu" / "libamdhip64.so").write_bytes(b"")
    for folder in bitcode:
        (root / folder).mkdir(parents=True)
        (root / folder / "ocml.bc").write_bytes(b"BC")


@pytest.mark.parametrize("bitcode, found", [
    # Debian 12 (ROCm 5.2)
    (["lib/x86_64-linux-gnu/amdgcn/bitcode"], "lib/x86_64-linux-gnu/amdgcn/bitcode"),
    # Debian 13 / Ubuntu 24.04 (ROCm 5.7): LLVM 17's resource folder; the newest LLVM's of several
    (["lib/llvm-17/lib/clang/17/amdgcn/bitcode"], "lib/llvm-17/lib/clang/17/amdgcn/bitcode"),
    (["lib/llvm-16/lib/clang/16/amdgcn/bitcode", "lib/llvm-17/lib/clang/17/amdgcn/bitcode"],
     "lib/llvm-17/lib/clang/17/amdgcn/bitcode"),
    # AMD's /opt/rocm-X.Y (6.x), and 7.x's LLVM folder
    (["amdgcn/bitcode"], "amdgcn/bitcode"),
    (["lib/llvm/lib/clang/20/lib/amdgcn/bitcode"], "lib/llvm/lib/clang/20/lib/amdgcn/bitcode"),
])
def test_rocm_device_libraries_in_every_layout(tmp_path: Path, bitcode: list[str], found: str) -> None:
    _hip_tree(tmp_path, bitcode)
    rocm = find_rocm({}, str(tmp_path))
    assert rocm.device_lib_dir == tmp_path / found and rocm.hip_version[:2] == (5, 7)


@pytest.mark.parametrize("installed, link, chosen", [
    (["rocm-6.2.0", "rocm-6.10.1", "rocm-5.7.1"], None, "rocm-6.10.1"),  # versioned packages only: the newest
    (["rocm-6.2.0", "rocm-7.0.2"], "rocm-6.2.0", "rocm"),  # /opt/rocm, AMD's choice, wins
])
def test_rocm_in_amds_versioned_folders(tmp_path: Path, installed: list[str], link: str | None, chosen: str) -> None:
    for name in installed:
        _hip_tree(tmp_path / name, ["amdgcn/bitcode"])
    if link:
        (tmp_path / "rocm").symlink_to(tmp_path / link)
    rocm = find_rocm({}, opt=tmp_path)
    assert rocm.root == tmp_path / chosen and rocm.origin == "default"


def test_rocm_from_hip_path(tmp_path: Path) -> None:
    _hip_tree(tmp_path / "hip", ["amdgcn/bitcode"])
    assert find_rocm({"HIP_PATH": str(tmp_path / "hip")}, opt=tmp_path / "none").origin == "HIP_PATH"


def test_isa_names() -> None:
    assert isa_file("gfx1100") == "oclc_isa_version_1100.bc"
    assert isa_file("gfx90a:xnack+") == "oclc_isa_version_90a.bc"
    assert isa_number("gfx1100") == 11000 and isa_number("gfx1103") == 11003 and isa_number("gfx1030") == 10300
    assert wave_size("gfx1100") == 32 and wave_size("gfx90a") == 64


@needs_clang
def test_this_machine_has_a_hip_toolchain() -> None:
    tc = Toolchain(os.environ, cache_dir=SHARED_CACHE)
    assert tc.clang.version >= (14,)
    assert tc.rocm.hip_version >= (5, 0, 0)
    libs = tc.device_lib_dir(["gfx1100"])
    assert (libs / "oclc_isa_version_1100.bc").is_file() and (libs / "ocml.bc").is_file()


def test_clang_without_amdgpu_target_is_refused(tmp_path: Path) -> None:
    exe = tmp_path / "clang"
    exe.write_text("#!/bin/sh\nif [ \"$1\" = --version ]; then echo 'clang version 17.0.1'; else echo '  x86-64 - 64-bit X86'; fi\n")
    exe.chmod(0o755)
    with pytest.raises(ToolchainError, match="not built with the AMDGPU target"):
        find(SPECS["clang"], {"CASS_CLANG": str(exe)}, [], VersionCache(None))


def test_host_compiler_choice(tmp_path: Path) -> None:
    gxx = tmp_path / "my-g++"
    _fake_tool(gxx, "g++ (Custom) 13.1.0")
    folder = tmp_path / "bin"
    folder.mkdir()
    _fake_tool(folder / "g++", "g++ (Folder) 11.4.0")
    base = {"PATH": os.environ.get("PATH", "")}
    assert Toolchain(base).host_cxx(str(gxx)).version == (13, 1, 0)  # -ccbin a compiler
    assert Toolchain(base).host_cxx(str(folder)).version == (11, 4, 0)  # -ccbin a folder
    assert Toolchain({**base, "NVCC_CCBIN": str(gxx)}).host_cxx().version == (13, 1, 0)
    assert Toolchain({**base, "CUDAHOSTCXX": str(folder)}).host_cxx().version == (11, 4, 0)
    assert Toolchain({**base, "CUDAHOSTCXX": str(folder)}).host_cxx(str(gxx)).version == (13, 1, 0)  # -ccbin wins


def test_llvm_fixes_opt_out_and_missing_headers_are_named(tmp_path: Path) -> None:
    from cass_cc.toolchain.llvmfix import llvm_fixes
    from cass_cc.toolchain.tool import Tool

    lonely = tmp_path / "bin" / "clang-99"  # a clang with no llvm-config or clang++ of its version
    lonely.parent.mkdir()
    lonely.write_text("#!/bin/sh\n")
    lonely.chmod(0o755)
    clang = Tool("clang", str(lonely), (99, 0, 0), "clang version 99.0.0")
    assert llvm_fixes(clang, tmp_path, {"CASS_CC_NO_LLVM_FIXES": "1"}) is None
    with pytest.raises(ToolchainError, match="apt-get install llvm-99-dev"):
        llvm_fixes(clang, tmp_path, {})


@needs_clang
def test_llvm_fixes_is_built_once_for_this_clang(tmp_path: Path) -> None:
    tc = Toolchain(os.environ, cache_dir=tmp_path)
    plugin = tc.llvm_fixes()
    assert plugin is not None and plugin.stat().st_size > 0 and plugin.parent == tmp_path / "plugins"
    mtime = plugin.stat().st_mtime_ns
    assert Toolchain(os.environ, cache_dir=tmp_path).llvm_fixes() == plugin
    assert plugin.stat().st_mtime_ns == mtime  # the second toolchain found it in the cache
