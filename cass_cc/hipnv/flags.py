"""hipcc/clang command lines -> nvcc runs.

`parse(argv)` reads hipcc/clang spellings (`--offload-arch=gfx1100`, `-x hip`, `-fopenmp`,
`-Wl,...`, `-lhipblas`) through FLAGS and gives their nvcc spellings; `plan_commands` turns
that into the nvcc command lines that serve it. Both are pure.

FLAGS has the shape of nvcc's own table (nvcc/options.py): a spelling, its Arity, what is done
with it (Disp) and whether it takes its value glued. tests/verify/test_hipnv.py checks that it
is sorted and unique and that every Disp has a handler.
"""
from __future__ import annotations

import enum
import os
import re
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..nvcc.options import Arity
from ..records import record

DEFAULT_ARCH = "sm_80"


class HipnvError(Exception):
    """A command line the adapter cannot serve; the message is one line."""


class Disp(enum.Enum):
    """What the adapter does with a flag (its disposition)."""

    PASS = "pass"  # nvcc spells it the same: to the compile
    PASS_LINK = "pass-link"  # nvcc spells it the same: to the link (-L, -Xlinker, -shared)
    COMPILE_ONLY = "compile-only"  # passed, and no link follows (-c, -E, -M, -MM)
    INFO = "info"  # passed; needs no inputs (--version)
    OUTPUT = "output"  # -o
    DROP = "drop"  # AMD only: nothing for nvcc
    HOST = "host"  # for the host compiler: -Xcompiler WORD
    HOST_LINK = "host-link"  # for the host compiler, at the link too (-fopenmp, -pthread)
    LINKER = "linker"  # -Wl,a,b -> -Xlinker a,b
    LIB = "lib"  # -lhipblas -> -lcublas (LIBRARIES)
    LANG = "lang"  # -x hip: the language of the inputs after it (LANGUAGES)
    FAST_MATH = "fast-math"  # -ffast-math -> --use_fast_math
    RDC = "rdc"  # -fgpu-rdc -> -rdc=true, compile and link
    STD = "std"  # -std=gnu++17 -> -std=c++17
    OPT = "opt"  # -Ofast -> -O3 --use_fast_math
    STREAM = "stream"  # -fgpu-default-stream=per-thread -> --default-stream per-thread
    DEP = "dep"  # -MQ target -> -MT target


@record
class Flag:
    spelling: str
    # FLAG: no value, or one in the word (-Wall, -O3, -std=c++17); ONE: the next word (or glued, if glued).
    arity: Arity
    disp: Disp
    glued: bool = False  # also a prefix: -Iinc, -O3, -Wall (spellings ending in = or , always are)

    def prefix(self) -> bool:
        return self.glued or self.spelling.endswith(("=", ","))

    def words(self, word: str, value: str) -> list[str]:
        """What nvcc gets for a flag it spells the same: -I inc -> -Iinc, -MF f -> -MF f."""
        if self.arity is Arity.FLAG:
            return [word]
        return [self.spelling + value] if self.glued else [word, value]


F, ONE = Arity.FLAG, Arity.ONE
D = Disp

# Sorted by spelling (a test checks); matched exactly first, then by the longest prefix.
FLAGS: tuple[Flag, ...] = (
    Flag("--amdgpu-target=", F, D.DROP),
    Flag("--cuda-gpu-arch=", F, D.DROP),
    Flag("--gpu-max-threads-per-block=", F, D.DROP),
    Flag("--hip-link", F, D.DROP),
    Flag("--hip-path=", F, D.DROP),
    Flag("--offload-arch=", F, D.DROP),
    Flag("--rocm-device-lib-path=", F, D.DROP),
    Flag("--rocm-path=", F, D.DROP),
    Flag("--save-temps", F, D.DROP),
    Flag("--std=", F, D.STD),
    Flag("--version", F, D.INFO),
    Flag("-D", ONE, D.PASS, glued=True),
    Flag("-E", F, D.COMPILE_ONLY),
    Flag("-I", ONE, D.PASS, glued=True),
    Flag("-L", ONE, D.PASS_LINK, glued=True),
    Flag("-M", F, D.COMPILE_ONLY),
    Flag("-MD", F, D.PASS),
    Flag("-MF", ONE, D.PASS),
    Flag("-MM", F, D.COMPILE_ONLY),
    Flag("-MMD", F, D.PASS),
    Flag("-MP", F, D.PASS),
    Flag("-MQ", ONE, D.DEP),
    Flag("-MT", ONE, D.PASS),
    Flag("-O", F, D.OPT, glued=True),
    Flag("-U", ONE, D.PASS, glued=True),
    Flag("-W", F, D.HOST, glued=True),
    Flag("-Wl,", F, D.LINKER),
    Flag("-Xclang", ONE, D.DROP),
    Flag("-Xcompiler", ONE, D.PASS),
    Flag("-Xlinker", ONE, D.PASS_LINK),
    Flag("-c", F, D.COMPILE_ONLY),
    Flag("-f", F, D.HOST, glued=True),
    Flag("-fPIC", F, D.HOST_LINK),
    Flag("-ffast-math", F, D.FAST_MATH),
    Flag("-fgpu-default-stream=", F, D.STREAM),
    Flag("-fgpu-flush-denormals-to-zero", F, D.DROP),
    Flag("-fgpu-rdc", F, D.RDC),
    Flag("-fhip-new-launch-api", F, D.DROP),
    Flag("-fno-gpu-rdc", F, D.DROP),
    Flag("-fopenmp", F, D.HOST_LINK, glued=True),
    Flag("-g", F, D.HOST, glued=True),
    Flag("-include", ONE, D.PASS),
    Flag("-isystem", ONE, D.PASS),
    Flag("-l", ONE, D.LIB, glued=True),
    Flag("-m", F, D.HOST, glued=True),
    Flag("-mcpu=", F, D.DROP),
    Flag("-mcumode", F, D.DROP),
    Flag("-mllvm", ONE, D.DROP),
    Flag("-mno-cumode", F, D.DROP),
    Flag("-mno-unsafe-fp-atomics", F, D.DROP),
    Flag("-mno-wavefrontsize64", F, D.DROP),
    Flag("-munsafe-fp-atomics", F, D.DROP),
    Flag("-mwavefrontsize64", F, D.DROP),
    Flag("-o", ONE, D.OUTPUT, glued=True),
    Flag("-pthread", F, D.HOST_LINK),
    Flag("-rdynamic", F, D.HOST_LINK),
    Flag("-save-temps", F, D.DROP),
    Flag("-shared", F, D.PASS_LINK),
    Flag("-std=", F, D.STD),
    Flag("-v", F, D.PASS),
    Flag("-w", F, D.PASS),
    Flag("-x", ONE, D.LANG, glued=True),
)
_EXACT = {f.spelling: f for f in FLAGS}
_PREFIXES = sorted((f for f in FLAGS if f.prefix()), key=lambda f: -len(f.spelling))

# hipcc's libraries -> CUDA's; None: nothing to link (the CUDA runtime comes with nvcc).
LIBRARIES: dict[str, str | None] = {
    "amdhip64": None, "hip_hcc": None, "hipblas": "cublas", "hipfft": "cufft", "hiprand": "curand",
    "hiprtc": "nvrtc", "hipsolver": "cusolver", "hipsparse": "cusparse", "rocblas": "cublas", "rocfft": "cufft",
    "rocrand": "curand", "rocsolver": "cusolver", "rocsparse": "cusparse", "roctracer64": None, "roctx64": None,
}
HIP_SOURCES = (".hip", ".cu", ".cpp", ".cc", ".cxx", ".c++", ".C")
LANGUAGES = {"hip": "cu", "cu": "cu", "cuda": "cu", "c++": "c++", "c": "c", "none": ""}
# Always given: HIP (clang) accepts constexpr host functions in device code.
NVCC_BASE = ("--expt-relaxed-constexpr", "-Wno-deprecated-gpu-targets",
             "-D__HIP_PLATFORM_NVIDIA__=1", "-D__HIP_PLATFORM_NVCC__=1")
# HIP accepts __device__ lambdas too; nvcc's --extended-lambda costs ~1.5 s a compile, so it is
# given only when a source (or a header it includes with "") writes one.
DEVICE_LAMBDA = re.compile(r"\]\s*(?:\([^()]*\))?\s*(?:mutable\s*)?(?:__host__\s+)?__device__")
_QUOTED_INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)


def uses_device_lambdas(sources: Sequence[str], include_dirs: Sequence[str] = (), limit: int = 200) -> bool:
    """True when a source or a header it includes with quotes (recursively, up to `limit` files)
    has a lambda marked __device__."""
    seen: set[str] = set()
    todo = [os.path.abspath(s) for s in sources]
    while todo and len(seen) < limit:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        try:
            text = Path(path).read_text(errors="replace")
        except OSError:
            continue
        if DEVICE_LAMBDA.search(text):
            return True
        for name in _QUOTED_INCLUDE.findall(text):
            for d in (os.path.dirname(path), *include_dirs):
                candidate = os.path.abspath(os.path.join(d, name))
                if os.path.isfile(candidate):
                    todo.append(candidate)
                    break
    return False


def _lookup(word: str) -> tuple[Flag, str | None] | None:
    """(flag, glued value or None) for an option word."""
    if word in _EXACT:
        return _EXACT[word], None
    for f in _PREFIXES:
        if word.startswith(f.spelling) and len(word) > len(f.spelling):
            return f, word[len(f.spelling):]
    return None


@dataclass
class Parsed:
    sources: list[str] = field(default_factory=list)  # HIP sources (compiled as CUDA)
    others: list[str] = field(default_factory=list)  # objects, archives, C files: passed as they are
    compile_flags: list[str] = field(default_factory=list)
    link_flags: list[str] = field(default_factory=list)  # -l, -L, -Xlinker, -shared
    output: str | None = None
    language: str | None = None  # from -x
    compile_only: bool = False  # -c, -E, -M
    info: bool = False  # --version: no inputs needed


def _compile_only(p: Parsed, words: list[str]) -> None:
    p.compile_only = True
    p.compile_flags += words


def _info(p: Parsed, words: list[str]) -> None:
    p.info = True
    p.compile_flags += words


def _output(p: Parsed, value: str) -> None:
    p.output = value


def _host_link(p: Parsed, word: str) -> None:
    p.compile_flags += ["-Xcompiler", word]
    p.link_flags += ["-Xcompiler", word]


def _lib(p: Parsed, value: str) -> None:
    mapped = LIBRARIES.get(value, value)
    if mapped:
        p.link_flags.append(f"-l{mapped}")


def _lang(p: Parsed, value: str) -> None:
    lang = LANGUAGES.get(value)
    if lang is None:
        raise HipnvError(f"-x {value}: unknown language for nvcc")
    p.language = lang or None


def _rdc(p: Parsed) -> None:
    p.compile_flags.append("-rdc=true")
    p.link_flags.append("-rdc=true")


def _opt(p: Parsed, value: str) -> None:
    p.compile_flags.append("-O" + {"fast": "3", "s": "2", "z": "2", "": "2"}.get(value, value))
    if value == "fast":
        p.compile_flags.append("--use_fast_math")


def _std(value: str) -> str:
    return "-std=" + value.replace("gnu++", "c++").replace("hip", "c++")


def _stream(value: str) -> list[str]:
    return ["--default-stream", "per-thread" if value == "per-thread" else "legacy"]


# Disp -> what it adds to the parts, given (parts, the word as written, its value, Flag.words).
APPLY: dict[Disp, Callable[[Parsed, str, str, list[str]], None]] = {
    Disp.PASS: lambda p, word, value, words: p.compile_flags.extend(words),
    Disp.PASS_LINK: lambda p, word, value, words: p.link_flags.extend(words),
    Disp.COMPILE_ONLY: lambda p, word, value, words: _compile_only(p, words),
    Disp.INFO: lambda p, word, value, words: _info(p, words),
    Disp.OUTPUT: lambda p, word, value, words: _output(p, value),
    Disp.DROP: lambda p, word, value, words: None,
    Disp.HOST: lambda p, word, value, words: p.compile_flags.extend(["-Xcompiler", word]),
    Disp.HOST_LINK: lambda p, word, value, words: _host_link(p, word),
    Disp.LINKER: lambda p, word, value, words: p.link_flags.extend(["-Xlinker", value]),
    Disp.LIB: lambda p, word, value, words: _lib(p, value),
    Disp.LANG: lambda p, word, value, words: _lang(p, value),
    Disp.FAST_MATH: lambda p, word, value, words: p.compile_flags.append("--use_fast_math"),
    Disp.RDC: lambda p, word, value, words: _rdc(p),
    Disp.STD: lambda p, word, value, words: p.compile_flags.append(_std(value)),
    Disp.OPT: lambda p, word, value, words: _opt(p, value),
    Disp.STREAM: lambda p, word, value, words: p.compile_flags.extend(_stream(value)),
    Disp.DEP: lambda p, word, value, words: p.compile_flags.extend(["-MT", value]),
}


def parse(argv: Sequence[str]) -> Parsed:
    """A hipcc/clang command line -> its parts in nvcc spellings (pure)."""
    p = Parsed()
    i = 0
    while i < len(argv):
        word = argv[i]
        i += 1
        if not word.startswith("-") or word == "-":
            kind = p.language
            if kind is None:
                kind = "cu" if word.endswith(HIP_SOURCES) else ""
            (p.sources if kind == "cu" else p.others).append(word)
            continue
        found = _lookup(word)
        if found is None:
            p.compile_flags.append(word)  # nvcc's own spelling, or nvcc says why not
            continue
        flag, value = found
        if flag.arity is Arity.ONE and value is None:
            if i >= len(argv):
                raise HipnvError(f"{word} needs an argument")
            value = argv[i]
            i += 1
        # A bare -O, -std= or -Wl, has no value: it reads as "None" (-ONone), for nvcc to refuse.
        APPLY[flag.disp](p, word, str(value), flag.words(word, str(value)))
    return p


@dataclass(frozen=True)
class Plan:
    steps: tuple[tuple[str, ...], ...]  # nvcc command lines, run in order
    temporaries: tuple[str, ...] = ()  # objects to delete afterwards


def plan_commands(argv: Sequence[str], nvcc: str, folder: Path, arch: str = DEFAULT_ARCH,
                  tmpdir: str | None = None, extended_lambda: bool | None = None) -> Plan:
    """The nvcc runs that serve one hipcc command line (pure, given a temporary folder name and
    `extended_lambda`; None: look at the sources)."""
    p = parse(argv)
    base = [nvcc, f"-arch={arch}", f"-I{folder / 'include'}", *NVCC_BASE]
    if extended_lambda is None:
        includes = [w[2:] for w in p.compile_flags if w.startswith("-I") and len(w) > 2]
        extended_lambda = uses_device_lambdas(p.sources, includes)
    if extended_lambda:
        base.append("--extended-lambda")
    if p.info or (not p.sources and not p.others):
        return Plan((tuple([nvcc, *p.compile_flags]),))
    out = ["-o", p.output] if p.output else []
    if p.compile_only or not p.others:
        lang = ["-x", "cu"] if p.sources else []
        # nvcc takes one language for all inputs: HIP sources and C files do not mix in one run.
        if p.sources and p.others and p.compile_only:
            raise HipnvError(f"cannot compile HIP sources and {p.others[0]} in one nvcc run; compile them separately")
        link = [] if p.compile_only else p.link_flags
        return Plan((tuple([*base, *p.compile_flags, *lang, *p.sources, *p.others, *out, *link]),))
    # A link with sources and objects: compile each HIP source to a temporary object first.
    tmp = tmpdir or tempfile.gettempdir()
    steps: list[tuple[str, ...]] = []
    objects: list[str] = []
    for n, src in enumerate(p.sources):
        obj = os.path.join(tmp, f"{n}-{Path(src).stem}.o")
        objects.append(obj)
        steps.append(tuple([*base, *p.compile_flags, "-x", "cu", "-c", src, "-o", obj]))
    steps.append(tuple([*base, *objects, *p.others, *out, *p.link_flags]))  # link flags carry -fopenmp and the like
    return Plan(tuple(steps), tuple(objects))
