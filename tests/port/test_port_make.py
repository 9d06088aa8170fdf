"""Makefiles ported by what each command does (cass_cc/port/make.py): nvcc's commands become
hipcc's, a host compiler's get what hipcc would have given them, shared make.config files are
ported once, and the ported trees build with hipcc and gcc for gfx1100 (e2e)."""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from cass_cc.port.make import MakeContext, logical_lines, rewrite_makefile, split_words, translate_words
from cass_cc.toolchain.bundle import device_targets
from tests.port.test_e2e import _device_libs

PROJECTS = Path(__file__).parent / "projects"
ARCHS = ["gfx1100"]
CONTEXT = MakeContext(rocm_root="/opt/rocm")


@pytest.mark.parametrize(
    "nvcc, hipcc",
    [
        ("-cuda", ""),
        ("-Xcompiler=-fopenmp,-O3", "-fopenmp -O3"),
        ('-Xcompiler "-O3 -Wall"', "-O3 -Wall"),
        ("--compiler-options=-fPIC", "-fPIC"),
        ("-Xlinker -rpath,/x", "-Wl,-rpath,/x"),
        ("-Xptxas=-v", ""),
        ("--ptxas-options -v,-O3", ""),
        ("-maxrregcount 32", ""),
        ("--maxrregcount=64", ""),
        ("-G -lineinfo", "-g -gline-tables-only"),
        ("--relocatable-device-code=true", "-fgpu-rdc"),
        ("--device-c", "-fgpu-rdc -c"),
        ("-gencode=arch=compute_70,code=\\\"sm_70,compute_70\\\"", "--offload-arch=gfx1100"),
        ("--generate-code arch=compute_80,code=sm_80 -code=sm_80", "--offload-arch=gfx1100"),
        ("--gpu-architecture=compute_75", "--offload-arch=gfx1100"),
        ("-ccbin=/usr/bin/g++-12", ""),
        ("--compiler-bindir /usr/bin", ""),
        ("-Xcudafe --diag_suppress=code_is_unreachable", ""),
        ("-res-usage -Wno-deprecated-gpu-targets -t 4", ""),
        ("--fmad=false --ftz=true", "-ffp-contract=off -fgpu-flush-denormals-to-zero"),
        ("--std c++17 --include-path inc --define-macro X=1", "-std=c++17 -Iinc -DX=1"),
        ("--output-file a.o", "-o a.o"),
        ("-lcudart -lcuda", ""),
    ],
)
def test_nvcc_options_in_every_spelling(nvcc: str, hipcc: str) -> None:
    words = [w.text for w in split_words(nvcc)]
    assert " ".join(translate_words(words, ARCHS)[0]) == hipcc


def _port(text: str, context: MakeContext = CONTEXT) -> tuple[str, list[tuple[int, str]]]:
    return rewrite_makefile(text, ARCHS, context)


def test_gcc_link_gets_hips_runtime_and_host_compiles_its_platform() -> None:
    text = ("NVCC = nvcc\nCC = gcc\n"
            "app: main.o k.o\n\t$(CC) main.o k.o -o app -L$(CUDA_LIB_DIR) -lcuda -lcudart -lm\n"
            "main.o: main.c\n\t$(CC) -O2 -c main.c\n"
            "k.o: k.cu\n\t$(NVCC) -c k.cu -lcudart\n")
    new, rewrites = _port(text)
    assert "\t$(CC) main.o k.o -o app -L$(CUDA_LIB_DIR) -L$(ROCM_PATH)/lib -lamdhip64 -lm\n" in new
    assert "\t$(CC) -D__HIP_PLATFORM_AMD__ -I$(ROCM_PATH)/include -O2 -c main.c\n" in new
    assert "\t$(NVCC) -c k.cu\n" in new  # hipcc links HIP's runtime itself
    assert new.startswith("# cass-cc port: HIP's install, for the include/ and lib/ that were CUDA's\nROCM_PATH ?= /opt/rocm\n")
    assert (6, "-lcuda -> -L$(ROCM_PATH)/lib -lamdhip64") in rewrites and (6, "-lcudart -> (dropped)") in rewrites


def test_variables_are_ported_for_the_programs_that_use_them() -> None:
    text = ("NVCC = /usr/local/cuda/bin/nvcc\nNVFLAGS = -arch=sm_80 -G\nCFLAGS = -G -O2\nLIBS = -lcudart\n"
            "a: a.o\n\tg++ $(CFLAGS) a.o -o a $(LIBS)\n"
            "a.o: a.cu\n\t$(NVCC) $(NVFLAGS) -c a.cu\n")
    new, _ = _port(text)
    assert "NVCC = hipcc\n" in new and "NVFLAGS = --offload-arch=gfx1100 -g\n" in new
    assert "CFLAGS = -G -O2\n" in new  # g++'s flags are not nvcc's
    assert "LIBS = -L$(ROCM_PATH)/lib -lamdhip64\n" in new


def test_cuda_install_paths_become_rocms() -> None:
    text = ("CUDA_PATH ?= /usr/local/cuda-12.4\nINC = -I$(CUDA_PATH)/include -I${CUDA_PATH}/samples/common/inc\n"
            "LIBDIR = /usr/local/cuda/lib64\n"
            "x: x.cu\n\t$(CUDA_PATH)/bin/nvcc $(INC) -L$(LIBDIR) x.cu -L/usr/local/cuda/lib64/stubs -o x\n")
    new, rewrites = _port(text)
    assert "INC = -I$(ROCM_PATH)/include -I${CUDA_PATH}/samples/common/inc\n" in new  # not CUDA's: kept
    assert "LIBDIR = $(ROCM_PATH)/lib\n" in new
    assert "\thipcc $(INC) -L$(LIBDIR) x.cu -L$(ROCM_PATH)/lib -o x\n" in new
    assert "CUDA_PATH ?= /usr/local/cuda-12.4\n" in new  # the root itself: its include/ and lib/ uses were rewritten
    assert (3, "/usr/local/cuda/lib64 -> $(ROCM_PATH)/lib") in [(n - 2, c) for n, c in rewrites]


def test_recipe_comments_keep_their_tab_and_continuations_hold() -> None:
    text = ("NVCC := nvcc\n"
            "k.o: k.cu\n"
            "\t# nvcc -arch=sm_80 stays a shell comment\n"
            "\t$(NVCC) -O2 \\\n"
            "\t  -Xptxas -v \\\n"
            "\t  -arch=sm_80 -c k.cu # -G here is a comment too\n")
    new, rewrites = _port(text)
    assert new == ("NVCC := hipcc\n"
                   "k.o: k.cu\n"
                   "\t# nvcc -arch=sm_80 stays a shell comment\n"
                   "\t$(NVCC) -O2 \\\n"
                   "\\\n"
                   "\t  --offload-arch=gfx1100 -c k.cu # -G here is a comment too\n")
    assert [line.number for line in logical_lines(new)] == [1, 2, 3, 4]
    assert rewrites == [(1, "nvcc -> hipcc"), (5, "-Xptxas -v -> (dropped)"), (6, "-arch=sm_80 -> --offload-arch=gfx1100")]


def test_output_modes_hipcc_lacks_are_kept_and_reported() -> None:
    new, rewrites = _port("k.ptx: k.cu\n\tnvcc -ptx k.cu -o k.ptx\n")
    assert "\thipcc -ptx k.cu -o k.ptx\n" in new
    assert (2, "nvcc -ptx (PTX) left as is: hipcc has no counterpart") in rewrites


def test_plain_c_makefile_untouched_unless_its_include_brings_nvcc() -> None:
    text = "CC = gcc\napp: app.c\n\t$(CC) -G -c app.c -lcuda\n"
    assert _port(text) == (text, [])
    new, _ = _port(text, MakeContext({"NVCC": "nvcc"}, "/opt/rocm"))
    assert "-L$(ROCM_PATH)/lib -lamdhip64" in new


def _build(tree: Path, folder: str, target: str) -> Path:
    device_libs = _device_libs()
    if device_libs is None:
        pytest.skip("no ROCm device libraries for gfx1100")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CASS_", "NVCC_"))}
    env.update(HIP_PLATFORM="amd", DEVICE_LIB_PATH=str(device_libs))
    proc = subprocess.run(["make", target], cwd=tree / folder, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "cass-cc" not in proc.stdout and "nvcc" not in proc.stdout
    return tree / folder / target


needs_hipcc = pytest.mark.skipif(not (shutil.which("hipcc") and shutil.which("make") and shutil.which("gcc")),
                                 reason="needs hipcc, gcc and make")


@pytest.mark.e2e
@needs_hipcc
def test_c_program_linked_by_gcc_builds(tmp_path: Path, run_port) -> None:  # type: ignore[no-untyped-def]
    """gcc compiles main.c (which includes a translated header) and links the nvcc object."""
    out = tmp_path / "out"
    assert run_port(str(PROJECTS / "make-gcc-link"), "-o", str(out)).exit_code == 0
    app = _build(out, ".", "app")
    assert device_targets(str(app)) == ["gfx1100"]


@pytest.mark.e2e
@needs_hipcc
def test_shared_make_config_is_ported_once_and_both_programs_build(tmp_path: Path, run_port) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "out"
    result = run_port(str(PROJECTS / "make-config"), "-o", str(out))
    assert result.exit_code == 0, result.output
    config = (out / "make.config").read_text()
    assert "NVCC           = hipcc\n" in config and "-lamdhip64" in config
    assert "make.config" in result.output  # reported as a rewritten build file
    for folder in ("vadd", "scale"):  # scale links with g++ through make.config's LINK_LIBS
        assert device_targets(str(_build(out, folder, folder))) == ["gfx1100"]


def test_relocatable_device_code_links_with_fgpu_rdc() -> None:
    """nvcc device-links `-dc` objects at the final link by itself; hipcc needs -fgpu-rdc there."""
    text = ("CC = nvcc\nCFLAGS := -O3 -arch=$(ARCH)\nobj = a.o b.o\n"
            "main: $(obj)\n\t$(CC) $(CFLAGS) $(obj) -o $@\n"
            "%.o: %.cu\n\t$(CC) $(CFLAGS) -dc $< -o $@\n")
    new, rewrites = _port(text)
    assert "\t$(CC) -fgpu-rdc $(CFLAGS) $(obj) -o $@\n" in new
    assert "\t$(CC) $(CFLAGS) -fgpu-rdc -c $< -o $@\n" in new
    assert (5, "$(CC) -> $(CC) -fgpu-rdc") in rewrites
    plain = text.replace(" -dc ", " -c ")
    assert "-fgpu-rdc" not in _port(plain)[0]


def test_shell_build_script_commands_by_program() -> None:
    from cass_cc.port.shell import rewrite_shell

    text = (PROJECTS / "make-gcc-link" / "build.sh").read_text()
    new, rewrites = rewrite_shell(text, ARCHS, "/opt/rocm")
    assert new.splitlines()[:2] == ["#!/bin/sh", "ROCM_PATH=${ROCM_PATH:-/opt/rocm}  # cass-cc port: HIP's install, for CUDA's include/ and lib/"]
    assert "NVCC=hipcc\n" in new
    assert "$NVCC -O2 --offload-arch=gfx1100 -fPIC -c kernel.cu -o kernel.o\n" in new
    assert "gcc -D__HIP_PLATFORM_AMD__ -O2 -I${ROCM_PATH}/include -c main.c -o main.o\n" in new
    assert "-L${ROCM_PATH}/lib -L${ROCM_PATH}/lib -lamdhip64 && echo built  # done\n" in new
    assert (7, "-arch=sm_80 -> --offload-arch=gfx1100") in rewrites
    plain = "#!/bin/sh\ngcc -G -c x.c -lcudart\n"
    assert rewrite_shell(plain, ARCHS) == (plain, [])  # no nvcc: not a CUDA build script


@pytest.mark.e2e
@needs_hipcc
def test_shell_build_script_builds(tmp_path: Path, run_port) -> None:  # type: ignore[no-untyped-def]
    device_libs = _device_libs()
    if device_libs is None:
        pytest.skip("no ROCm device libraries for gfx1100")
    out = tmp_path / "out"
    assert run_port(str(PROJECTS / "make-gcc-link"), "-o", str(out)).exit_code == 0
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CASS_", "NVCC_"))}
    env.update(HIP_PLATFORM="amd", DEVICE_LIB_PATH=str(device_libs))
    proc = subprocess.run(["sh", "build.sh"], cwd=out, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0 and "built" in proc.stdout, proc.stdout + proc.stderr
    assert device_targets(str(out / "app")) == ["gfx1100"]


def test_a_flag_touching_a_continuation_keeps_it() -> None:
    text = "ARCH=sm_80\nNVCC=nvcc\nk.o: k.cu\n\t$(NVCC) -O2 -arch=$(ARCH)\\\n\t-c k.cu -o k.o\n"
    new, rewrites = _port(text)
    assert new == "ARCH=sm_80\nNVCC=hipcc\nk.o: k.cu\n\t$(NVCC) -O2 --offload-arch=gfx1100\\\n\t-c k.cu -o k.o\n"
    assert rewrites == [(2, "nvcc -> hipcc"), (4, "-arch=$(ARCH) -> --offload-arch=gfx1100")]


def test_a_rewrite_that_would_change_how_make_reads_the_file_is_refused() -> None:
    from cass_cc.port.make import first_difference, shape

    text = "NVCC = nvcc\nk.o: k.cu\n\t$(NVCC) -arch=sm_80\\\n\t-c k.cu\n"
    assert [what for _, what in shape(text)] == ["assign NVCC", "rule", "recipe"]
    broken = text.replace("-arch=sm_80\\\n", "--offload-arch=gfx1100\n")  # the continuation lost
    assert first_difference(text, broken) == 3  # the lost continuation makes line 4 a recipe of its own
    assert first_difference(text, _port(text)[0]) is None
