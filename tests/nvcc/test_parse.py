from __future__ import annotations

import shlex

import pytest

from cass_cc.nvcc import Lang, Phase, UsageError, parse

CU, C, CXX, OBJ, LIB = Lang.CU, Lang.C, Lang.CXX, Lang.OBJ, Lang.LIB


def get(inv, path):
    obj = inv
    for part in path.split("."):
        obj = getattr(obj, part)
    if path == "inputs":
        return [(i.path, i.lang) for i in obj]
    return obj


CMAKE_COMPILE = (
    "-forward-unknown-to-host-compiler -DFOO -I/x -isystem=/y "
    "--generate-code=arch=compute_80,code=[compute_80,sm_80] -Xcompiler=-fPIC -std=c++17 "
    "-MD -MT CMakeFiles/t.dir/a.cu.o -MF CMakeFiles/t.dir/a.cu.o.d -x cu -c /src/a.cu "
    "-o CMakeFiles/t.dir/a.cu.o"
)
TORCH = (
    "-D__CUDA_NO_HALF_OPERATORS__ -D__CUDA_NO_HALF_CONVERSIONS__ --expt-relaxed-constexpr "
    "--compiler-options '-fPIC' -gencode=arch=compute_80,code=sm_80 -std=c++17 -O3 "
    "--use_fast_math -DTORCH_EXTENSION_NAME=x -c a.cu -o a.o"
)

# (command line, {field path: expected value})
CASES = [
    (CMAKE_COMPILE, {
        "phase": Phase.COMPILE, "inputs": [("/src/a.cu", CU)], "lang": CU,
        "output": "CMakeFiles/t.dir/a.cu.o", "targets": ["compute_80", "sm_80"],
        "defines": ["FOO"], "include_dirs": ["/x"], "system_include_dirs": ["/y"],
        "host_args": ["-fPIC"], "std": "c++17", "forward_unknown": True,
        "deps.mode": "MD", "deps.file": "CMakeFiles/t.dir/a.cu.o.d",
        "deps.targets": ["CMakeFiles/t.dir/a.cu.o"]}),
    ("--keep --keep-dir tmp -v CMakeCUDACompilerId.cu", {
        "phase": Phase.LINK, "keep": True, "keep_dir": "tmp", "verbose": True,
        "inputs": [("CMakeCUDACompilerId.cu", CU)], "output": None}),
    ("--version", {"phase": Phase.VERSION, "inputs": []}),
    ("-V", {"phase": Phase.VERSION}),
    ("--help", {"phase": Phase.HELP}),
    ("-h -c", {"phase": Phase.HELP}),
    ("-v -c x.cu", {"verbose": True, "phase": Phase.COMPILE}),
    # CMake: separable compilation, device link, link with -Xlinker.
    ("-forward-unknown-to-host-compiler -arch=sm_86 -x cu -rdc=true -c a.cu -o a.o",
     {"rdc": True, "phase": Phase.COMPILE, "targets": ["sm_86", "compute_86"]}),
    ("-forward-unknown-to-host-compiler --generate-code=arch=compute_86,code=[compute_86,sm_86] "
     "-Xcompiler=-fPIC -Wno-deprecated-gpu-targets -shared -dlink a.o b.o -o cmake_device_link.o",
     {"phase": Phase.DLINK, "inputs": [("a.o", OBJ), ("b.o", OBJ)],
      "ignored": ["--Wno-deprecated-gpu-targets"]}),
    ("-forward-unknown-to-host-compiler -O3 -DNDEBUG --generate-code=arch=compute_52,code=[compute_52,sm_52] "
     "-Xcompiler=-fPIE -x cu -c /s/m.cu -o m.o",
     {"opt": "3", "defines": ["NDEBUG"], "targets": ["compute_52", "sm_52"], "host_args": ["-fPIE"]}),
    ("a.o -o app -Xlinker=-rpath,-Xlinker,/opt/lib -lcudadevrt -lcudart_static -L/usr/local/cuda/lib64",
     {"phase": Phase.LINK, "linker_args": ["-rpath", "-Xlinker", "/opt/lib"],
      "libs": ["cudadevrt", "cudart_static"], "lib_dirs": ["/usr/local/cuda/lib64"], "output": "app"}),
    ("-forward-unknown-to-host-compiler -fopenmp -Wall -c a.cu",
     {"host_args": ["-fopenmp", "-Wall"]}),
    ("-Wall -forward-unknown-to-host-compiler -c a.cu", {"host_args": ["-Wall"]}),
    ("-forward-unknown-to-host-linker -Wl,--as-needed a.o", {"linker_args": ["-Wl,--as-needed"],
                                                             "host_args": []}),
    ("-forward-unknown-opts -pthread a.cu", {"linker_args": ["-pthread"], "host_args": ["-pthread"]}),
    ("-forward-unknown-to-host-compiler --foo=bar -c a.cu", {"host_args": ["--foo=bar"]}),
    # PyTorch extensions.
    (TORCH, {
        "defines": ["__CUDA_NO_HALF_OPERATORS__", "__CUDA_NO_HALF_CONVERSIONS__",
                    "TORCH_EXTENSION_NAME=x"],
        "relaxed_constexpr": True, "host_args": ["-fPIC"], "targets": ["sm_80"],
        "std": "c++17", "opt": "3", "fast_math": True, "phase": Phase.COMPILE,
        "inputs": [("a.cu", CU)], "output": "a.o"}),
    ("-I/t/include -I/t/include/torch/csrc/api/include -isystem /py/include -D_GLIBCXX_USE_CXX11_ABI=1 "
     "--expt-extended-lambda -gencode=arch=compute_80,code=compute_80 -gencode=arch=compute_90,code=sm_90 "
     "--ptxas-options=-v -lineinfo -c k.cu -o k.o",
     {"include_dirs": ["/t/include", "/t/include/torch/csrc/api/include"],
      "system_include_dirs": ["/py/include"], "extended_lambda": True,
      "targets": ["compute_80", "sm_90"], "ptxas_args": ["-v"], "lineinfo": True}),
    ("--compiler-options=-fPIC,-O2 -c a.cu", {"host_args": ["-fPIC", "-O2"]}),
    # Makefile style.
    ("-O2 -arch=sm_70 -o vecadd vecadd.cu", {"opt": "2", "targets": ["sm_70", "compute_70"],
                                            "phase": Phase.LINK, "output": "vecadd"}),
    ("-ccbin g++ -m64 -gencode arch=compute_75,code=sm_75 -gencode arch=compute_86,code=sm_86 "
     "-gencode arch=compute_86,code=compute_86 -o t.o -c t.cu",
     {"host_compiler": "g++", "machine": 64, "targets": ["sm_75", "sm_86", "compute_86"]}),
    ("-gencode arch=compute_80,code=\\\"sm_80,compute_80\\\" -c a.cu",
     {"targets": ["sm_80", "compute_80"]}),
    ("-ccbin=clang++ -ccbin gcc -c a.cu", {"host_compiler": "gcc"}),
    ("--compiler-bindir /usr/bin/g++-12 -c a.cu", {"host_compiler": "/usr/bin/g++-12"}),
    ("-g -G -O0 -c a.cu", {"debug": True, "device_debug": True, "opt": "0"}),
    ("-O3 -O3 -O2 a.cu", {"opt": "2"}),
    ("-O 1 a.cu", {"opt": "1"}),
    ("--optimize=3 a.cu", {"opt": "3"}),
    ("-Iinc -I inc2 -I=inc3 --include-path=a,b a.cu",
     {"include_dirs": ["inc", "inc2", "inc3", "a", "b"]}),
    ("-DA=1,B=2 -D C '-DD=a\\,b' -UE -U F a.cu",
     {"defines": ["A=1", "B=2", "C", "D=a,b"], "undefines": ["E", "F"]}),
    ("'-Xcompiler=-Wall,-DX=a\\,b' a.cu", {"host_args": ["-Wall", "-DX=a,b"]}),
    ("-Xcompiler -Wall -Xcompiler -Wextra a.cu", {"host_args": ["-Wall", "-Wextra"]}),
    ("-lm,pthread -l dl -Lx -L y a.cu", {"libs": ["m", "pthread", "dl"], "lib_dirs": ["x", "y"]}),
    ("-include=a.h,b.h -include c.h a.cu", {"pre_includes": ["a.h", "b.h", "c.h"]}),
    ("-std=c++14 -std c++20 a.cu", {"std": "c++20"}),
    ("--std=c++17 a.cu", {"std": "c++17"}),
    ("--use_fast_math --ftz=false -prec-div true --prec-sqrt=false -fmad=false a.cu",
     {"fast_math": True, "ftz": False, "prec_div": True, "prec_sqrt": False, "fmad": False}),
    ("-use_fast_math a.cu", {"fast_math": True, "ftz": None}),
    ("--extended-lambda a.cu", {"extended_lambda": True}),
    ("-extended-lambda -expt-relaxed-constexpr a.cu",
     {"extended_lambda": True, "relaxed_constexpr": True}),
    ("--default-stream per-thread a.cu", {"default_stream": "per-thread"}),
    ("-default-stream=legacy a.cu", {"default_stream": "legacy"}),
    ("-w -Werror all-warnings -Werror=reorder,cross-execution-space-call a.cu",
     {"no_warnings": True, "werror": ["all-warnings", "reorder", "cross-execution-space-call"]}),
    ("-cudart shared -cudadevrt none a.cu", {"shared_cudart": "shared",
                                             "ignored": ["--cudadevrt=none"]}),
    ("-cudart=static a.cu", {"shared_cudart": "static"}),
    ("-dryrun -keep -save-temps a.cu", {"dryrun": True, "keep": True}),
    ("-Xptxas -O3,-v -Xnvlink --verbose -Xarchive -x a.cu",
     {"ptxas_args": ["-O3", "-v"], "device_opt": "3", "nvlink_args": ["--verbose"],
      "archive_args": ["-x"]}),
    ("-dopt on -G a.cu", {"device_opt": "on", "device_debug": True}),
    ("-res-usage --resource-usage -maxrregcount=32 -t 4 -t0 -split-compile=0 a.cu",
     {"ignored": ["--resource-usage", "--resource-usage", "--maxrregcount=32",
                  "--threads=4", "--threads=0", "--split-compile=0"]}),
    ("-Xcudafe --diag_suppress=177 -diag-suppress 550,20012 --display-error-number a.cu",
     {"ignored": ["--cudafe-options=--diag_suppress=177", "--diag-suppress=550,20012",
                  "--display-error-number"]}),
    ("-allow-unsupported-compiler -time t.csv -src-in-ptx -restrict -Wreorder "
     "-Wext-lambda-captures-this -Wmissing-launch-bounds -objtemp a.cu",
     {"ignored": ["--allow-unsupported-compiler", "--source-in-ptx",
                  "--restrict", "--Wreorder", "--Wext-lambda-captures-this",
                  "--Wmissing-launch-bounds", "--objdir-as-tempdir"], "time_file": "t.csv"}),
    ("-Wno-deprecated-declarations -noeh -ftemplate-depth=900 a.cu",
     {"host_args": ["-Wno-deprecated-declarations", "-fno-exceptions", "-ftemplate-depth=900"]}),
    # Phases.
    ("-dc a.cu b.cu", {"phase": Phase.COMPILE, "rdc": True, "inputs": [("a.cu", CU), ("b.cu", CU)]}),
    ("-dw a.cu", {"phase": Phase.COMPILE, "rdc": False}),
    ("-c -dc a.cu", {"phase": Phase.COMPILE, "rdc": True}),
    ("--device-c --relocatable-device-code=true a.cu", {"rdc": True}),
    ("-rdc true -c a.cu", {"rdc": True}),
    ("-rdc=false a.cu", {"rdc": False, "phase": Phase.LINK}),
    ("-dlink a.o b.o -o dl.o", {"phase": Phase.DLINK}),
    ("-lib a.cu b.o -o libx.a", {"phase": Phase.LIB, "inputs": [("a.cu", CU), ("b.o", OBJ)]}),
    ("-shared -Xcompiler -fPIC a.cu -o libx.so", {"phase": Phase.SHARED}),
    ("-E a.cu", {"phase": Phase.PREPROCESS}),
    ("-c -E a.cu", {"phase": Phase.PREPROCESS}),
    ("-M a.cu", {"phase": Phase.DEPS, "deps.mode": "M"}),
    ("-MM -MF a.d a.cu", {"phase": Phase.DEPS, "deps.mode": "MM", "deps.file": "a.d"}),
    ("-c -M a.cu", {"phase": Phase.DEPS}),
    ("-E -M a.cu", {"phase": Phase.DEPS}),
    ("-MMD -MP -c a.cu -o a.o", {"phase": Phase.COMPILE, "deps.mode": "MMD", "deps.phony": True}),
    ("-MD -MT a -MT b -c a.cu", {"deps.targets": ["b"]}),
    ("--generate-dependencies-with-compile --dependency-output a.d -c a.cu",
     {"deps.mode": "MD", "deps.file": "a.d"}),
    ("-ptx a.cu", {"phase": Phase.PTX}),
    ("-cubin -ptx a.cu", {"phase": Phase.PTX}),
    ("-fatbin -cubin a.cu", {"phase": Phase.CUBIN}),
    ("-fatbin a.cu", {"phase": Phase.FATBIN}),
    ("-c -cuda a.cu", {"phase": Phase.CUDAFE}),
    ("-c -dlink a.cu", {"phase": Phase.COMPILE}),
    ("-lib -dlink a.o", {"phase": Phase.DLINK}),
    ("-link a.cu", {"phase": Phase.LINK}),
    # Languages.
    ("-x cu a.c b.cpp", {"inputs": [("a.c", CU), ("b.cpp", CU)], "lang": CU}),
    ("a.c -x c++ b.c", {"inputs": [("a.c", CXX), ("b.c", CXX)]}),
    ("-x c++ -x cu a.c", {"inputs": [("a.c", CU)]}),
    ("--x=c a.cu", {"inputs": [("a.cu", C)]}),
    ("a.cu b.c c.cc d.cpp e.cxx f.o g.obj h.a i.so j.so.1.2 k.lib",
     {"inputs": [("a.cu", CU), ("b.c", C), ("c.cc", CXX), ("d.cpp", CXX), ("e.cxx", CXX),
                 ("f.o", OBJ), ("g.obj", OBJ), ("h.a", LIB), ("i.so", LIB),
                 ("j.so.1.2", LIB), ("k.lib", LIB)]}),
    ("-c a.hip", {"inputs": [("a.hip", Lang.HIP)]}),
    ("-c x.C y.c++ z.ii w.i", {"inputs": [("x.C", CXX), ("y.c++", CXX), ("z.ii", CXX),
                                          ("w.i", C)]}),
    ("-fatbin k.ptx", {"inputs": [("k.ptx", Lang.PTX)]}),
    ("-dlink k.cubin k2.fatbin", {"inputs": [("k.cubin", Lang.CUBIN), ("k2.fatbin", Lang.CUBIN)]}),
    ("-c s.s", {"inputs": [("s.s", Lang.ASM)]}),
    # Targets.
    ("-arch=sm_80 a.cu", {"targets": ["sm_80", "compute_80"]}),
    ("-arch sm_90a a.cu", {"targets": ["sm_90a", "compute_90a"]}),
    ("-arch=compute_80 a.cu", {"targets": ["compute_80"]}),
    ("-arch=native a.cu", {"targets": ["native"]}),
    ("-arch=all a.cu", {"targets": ["all"]}),
    ("-arch=all-major a.cu", {"targets": ["all-major"]}),
    ("-arch=gfx1100 a.cu", {"targets": ["gfx1100"]}),
    ("--gpu-architecture=gfx90a a.cu", {"targets": ["gfx90a"]}),
    ("-arch=sm_80 -arch=sm_86 a.cu", {"targets": ["sm_86", "compute_86"]}),
    ("-arch=compute_80 -code=sm_80,sm_86 a.cu", {"targets": ["sm_80", "sm_86"]}),
    ("-code=sm_80 -arch=compute_80 a.cu", {"targets": ["sm_80"]}),
    ("-arch=compute_80 --gpu-code=sm_80 -code=compute_80 a.cu", {"targets": ["sm_80", "compute_80"]}),
    ("-arch=sm_80 -gencode arch=compute_86,code=sm_86 a.cu",
     {"targets": ["sm_80", "compute_80", "sm_86"]}),
    ("-gencode arch=compute_80,code=sm_80 -gencode=arch=compute_80,code=sm_80 a.cu",
     {"targets": ["sm_80"]}),
    ("--generate-code arch=compute_80,code=[compute_80,sm_80] a.cu",
     {"targets": ["compute_80", "sm_80"]}),
    ("-arch=native -gencode arch=compute_80,code=sm_80 a.cu", {"targets": ["native", "sm_80"]}),
    ("a.cu", {"targets": []}),
    # cass-cc's own.
    ("--cass-model=tiny --cass-no-cache --emit-rdna3 a.cu",
     {"cass": {"model": "tiny", "no-cache": "1", "emit-rdna3": "1"}}),
    ("--cass-x= a.cu", {"cass": {"x": ""}}),
    ("-m=64 a.cu", {"machine": 64}),
]


@pytest.mark.parametrize("line,expected", CASES, ids=[c[0][:60] for c in CASES])
def test_parse(line, expected):
    inv = parse(shlex.split(line))
    for path, value in expected.items():
        assert get(inv, path) == value, path


ERRORS = [
    ("-foo a.cu", "Unknown option '-foo'"),
    ("--foo a.cu", "Unknown option '--foo'"),
    ("-ofile a.cu", "Unknown option '-ofile'"),
    ("-xcu a.cu", "Unknown option '-xcu'"),
    ("-isystem/y a.cu", "Unknown option '-isystem/y'"),
    ("-archsm_80 a.cu", "Unknown option '-archsm_80'"),
    ("-gpu-architecture=sm_80 a.cu", "Unknown option '-gpu-architecture=sm_80'"),
    ("--arch=sm_80 a.cu", "Unknown option '--arch=sm_80'"),
    ("--I foo a.cu", "Unknown option '--I'"),
    ("-m32 a.cu", "Unknown option '-m32'"),
    ("--use-fast-math a.cu", "Unknown option '--use-fast-math'"),
    ("-Xcompiler-fPIC a.cu", "Unknown option '-Xcompiler-fPIC'"),
    ("--cass- a.cu", "Unknown option '--cass-'"),
    ("a.cu -o", "argument expected after '-o'"),
    ("-c=1 a.cu", "no argument expected after '-c'"),
    ("--help=1", "no argument expected after '--help'"),
    ("-Wno-deprecated-gpu-targets=1 a.cu", "no argument expected after '-Wno-deprecated-gpu-targets'"),
    ("-c", "No input files specified; use option --help for more information"),
    ("-Ofast a.cu", "'fast': expected a number"),
    ("-O -c a.cu", "'-c': expected a number"),
    ("-t=x a.cu", "'x': expected a number"),
    ("-rdc=1 a.cu", "'1': expected true or false"),
    ("-ftz=yes a.cu", "'yes': expected true or false"),
    ("-std=c++23 a.cu", "Value 'c++23' is not defined for option 'std'"),
    ("-std=gnu++17 a.cu", "Value 'gnu++17' is not defined for option 'std'"),
    ("-x none a.cu", "Value 'none' is not defined for option 'x'"),
    ("-x=foo a.cu", "Value 'foo' is not defined for option 'x'"),
    ("-Werror=foo a.cu", "Value 'foo' is not defined for option 'Werror'"),
    ("-cudart=foo a.cu", "Value 'foo' is not defined for option 'cudart'"),
    ("-default-stream=foo a.cu", "Value 'foo' is not defined for option 'default-stream'"),
    ("-dopt=off a.cu", "Value 'off' is not defined for option 'dopt'"),
    ("-arch=sm_abc a.cu", "Unsupported gpu architecture 'sm_abc'"),
    ("-arch=sm_80,sm_86 a.cu", "Unsupported gpu architecture 'sm_80,sm_86'"),
    ("-arch=gfx a.cu", "Unsupported gpu architecture 'gfx'"),
    ("-code=sm_80 a.cu", "-arch option not specified"),
    ("-arch=sm_80 -code=sm_86 a.cu", "Value of -arch option ('sm_80') must be a virtual code architecture"),
    ("-arch=all -code=sm_80 a.cu", "Cannot use '-arch=all' with '--gpu-code (-code)'"),
    ("-gencode arch=compute_80 a.cu", "Option '--generate-code arch=compute_80', missing code"),
    ("-gencode arch=compute_80,code=sm_80,sm_86 a.cu", "'sm_86' is not in 'keyword=value' format"),
    ("-E -MD a.cu", "'-MD'/'-MMD' is not supported when '-E' is also specified"),
    ("-MF d -c a.cu",
     "Option '--dependency-file' requires one of '-M', '-MM', '-MD' or '-MMD' to be specified"),
    ("-dc -dw a.cu", "Both '--device-c (-dc)' and '--device-w (-dw)' specified"),
    ("-dc -rdc=false a.cu",
     "'--device-c (-dc)' is not compatible with '--relocatable-device-code=false (-rdc=false)'"),
    ("-rdc=true -dw a.cu",
     "'--device-w (-dw)' is not compatible with '--relocatable-device-code=true (-rdc=true)'"),
    ("-c -o a.o x.cu y.cu",
     "A single input file is required for a non-link phase when an outputfile is specified"),
    ("foo.xyz", "Don't know what to do with 'foo.xyz'"),
    ("x.cu noext", "Don't know what to do with 'noext'"),
    ("-optix-ir a.cu", "Option '--optix-ir' is not supported by cass-cc"),
    ("-forward-unknown-to-host-compiler -foo bar a.cu", "Don't know what to do with 'bar'"),
]


@pytest.mark.parametrize("line,message", ERRORS, ids=[e[0] for e in ERRORS])
def test_errors(line, message):
    with pytest.raises(UsageError) as e:
        parse(shlex.split(line))
    assert str(e.value) == message


def files(table):
    def read(path):
        if path not in table:
            raise FileNotFoundError(path)
        return table[path]
    return read


def test_options_file_in_place():
    read = files({"o.txt": '-DA=1 "-DB=x y"\n-I/inc\n'})
    inv = parse(["-DZ", "-optf", "o.txt", "-DC", "a.cu"], read_file=read)
    assert inv.defines == ["Z", "A=1", "B=x y", "C"]
    assert inv.include_dirs == ["/inc"]


def test_options_file_spellings_and_lists():
    read = files({"a": "-DA", "b": "-DB", "c": "-DC -c", "n": "--options-file=a"})
    inv = parse(["--options-file=a,b", "--options-file", "c", "-optf=n", "x.cu"], read_file=read)
    assert inv.defines == ["A", "B", "C", "A"]
    assert inv.phase is Phase.COMPILE


def test_options_file_cmake_style():
    # CMake writes includes and defines of long command lines into a response file.
    read = files({"CMakeFiles/t.dir/includes_CUDA.rsp": "-I/a/include -isystem=/b/include"})
    inv = parse(["--options-file", "CMakeFiles/t.dir/includes_CUDA.rsp", "-c", "x.cu"], read_file=read)
    assert inv.include_dirs == ["/a/include"] and inv.system_include_dirs == ["/b/include"]


def test_options_file_missing():
    with pytest.raises(UsageError) as e:
        parse(["-optf", "nope.txt", "a.cu"], read_file=files({}))
    assert str(e.value) == "Could not open options file 'nope.txt'"


def test_options_file_loop():
    with pytest.raises(UsageError):
        parse(["-optf", "a", "x.cu"], read_file=files({"a": "-optf a"}))


@pytest.mark.parametrize(
    "env,argv,field,value",
    [
        ({"NVCC_PREPEND_FLAGS": "-DPRE -O1"}, ["-O3", "a.cu"], "opt", "3"),
        ({"NVCC_APPEND_FLAGS": "-O1"}, ["-O3", "a.cu"], "opt", "1"),
        # nvcc keeps the double quotes of a variable's word (nvcc 13: -D "Q=\"x y\"")
        ({"NVCC_PREPEND_FLAGS": "-DP", "NVCC_APPEND_FLAGS": '-DA -DQ="x y"'}, ["-DM", "a.cu"],
         "defines", ["P", "M", "A", 'Q="x y"']),
        ({"NVCC_APPEND_FLAGS": "-ccbin /opt/gcc"}, ["a.cu"], "host_compiler", "/opt/gcc"),
        ({}, ["a.cu"], "defines", []),
        ({"NVCC_PREPEND_FLAGS": ""}, ["a.cu"], "defines", []),
    ],
)
def test_env_flags(env, argv, field, value):
    # -ccbin /opt/gcc: nvcc would look for that compiler; here only the splitting is tested
    assert get(parse(argv, env=env, compiler_found=lambda name, env: True), field) == value


def test_env_unknown_option():
    with pytest.raises(UsageError) as e:
        parse(["a.cu"], env={"NVCC_APPEND_FLAGS": "-foo"})
    assert str(e.value) == "Unknown option '-foo'"


def test_env_options_file():
    inv = parse(["a.cu"], env={"NVCC_PREPEND_FLAGS": "-optf o"}, read_file=files({"o": "-DO"}))
    assert inv.defines == ["O"]


def test_argv_not_mutated():
    argv = ["-DA", "a.cu"]
    parse(argv)
    assert argv == ["-DA", "a.cu"]
