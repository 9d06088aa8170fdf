"""CMake files of a ported tree: CUDA (the CUDA language or legacy FindCUDA) -> CMake's HIP language.

The file is parsed with CMake's grammar (command invocations, quoted, unquoted and bracket
arguments, line and bracket comments); each command is rewritten for what it does:

- `project()`/`enable_language()`/`check_language()` with CUDA -> HIP, preceded once per file
  by HIP_SETUP (finds ROCm's clang, device libraries and hip-lang package, see below);
- `find_package(CUDAToolkit)` -> `find_package(hip)`; `find_package(CUDA)` (FindCUDA) ->
  `enable_language(HIP)` + `find_package(hip)`; versions are dropped (HIP's are not CUDA's);
- `cuda_add_executable`/`cuda_add_library` -> `add_executable`/`add_library`, the .cu sources
  marked `LANGUAGE HIP`, `target_link_libraries(t hip::host)` (FindCUDA's plain signature),
  `OPTIONS`/`RELEASE`/`DEBUG` nvcc flags -> HIP compile options;
- `cuda_compile(var srcs)` -> `set(var srcs)` + sources marked HIP, when `${var}` only feeds
  targets; `cuda_include_directories` -> `include_directories`;
- `CUDA_NVCC_FLAGS[_<CONFIG>]`, `CMAKE_CUDA_FLAGS[_<CONFIG>]` set/list(APPEND)/string(APPEND)
  -> `string(APPEND CMAKE_HIP_FLAGS ...)`, nvcc flags translated with the Makefile side's word
  table (targets come from `CMAKE_HIP_ARCHITECTURES`, so target flags are dropped);
- `CMAKE_CUDA_*` -> `CMAKE_HIP_*`, `CUDA_ARCHITECTURES` values -> the AMD targets, CUDA
  properties and generator expressions -> HIP ones, `CUDA::` targets and FindCUDA's
  `${CUDA_*_LIBRARY}` variables -> ROCm's CMake targets (LIBRARY_PACKAGES, with a
  `find_package` of their package before the command), other FindCUDA variables (LEGACY_VARS).

What cannot be rewritten safely stays as it was and is reported `(line, "... left as is: why")`;
every rewrite is reported `(line, "before -> after")`.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ..driver.libraries import CUDA_LIBRARIES

Rewrite = tuple[int, str]  # (1-based line, "what -> what")


class CMakeSyntaxError(ValueError):
    """Text CMake itself would refuse (an unclosed quote, bracket or parenthesis)."""

    def __init__(self, text: str, pos: int, what: str) -> None:
        self.line = text.count("\n", 0, pos) + 1
        super().__init__(f"line {self.line}: {what}")


# ---- CMake's grammar -------------------------------------------------------------------------

@dataclass(frozen=True)
class Arg:
    text: str  # as written, quotes included
    start: int
    end: int
    kind: str  # "unquoted", "quoted", "bracket", "(" or ")"

    @property
    def value(self) -> str:
        if self.kind == "quoted":
            return self.text[1:-1]
        if self.kind == "bracket":
            return self.text[self.text.index("[", 1) + 1 : self.text.rindex("]", 0, -1)]
        return self.text


@dataclass(frozen=True)
class Command:
    name: str  # lower case: CMake's command names are case-insensitive
    start: int
    end: int  # after the closing parenthesis
    args: tuple[Arg, ...]
    line: int

    @property
    def values(self) -> list[str]:
        return [a.value for a in self.args if a.kind not in "()"]


_BRACKET_OPEN = re.compile(r"\[(=*)\[")
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _bracket_end(text: str, pos: int) -> int | None:
    """End of a bracket argument or comment opening at `pos`, None if none opens there."""
    m = _BRACKET_OPEN.match(text, pos)
    if not m:
        return None
    close = text.find("]" + m.group(1) + "]", m.end())
    if close < 0:
        raise CMakeSyntaxError(text, pos, "unclosed bracket")
    return close + len(m.group(1)) + 2


def _skip_comment(text: str, pos: int) -> int:
    """`pos` at a `#`: the position after the comment."""
    end = _bracket_end(text, pos + 1)
    if end is not None:
        return end
    newline = text.find("\n", pos)
    return len(text) if newline < 0 else newline


def _quoted_end(text: str, pos: int) -> int:
    i = pos + 1
    while i < len(text):
        if text[i] == "\\":
            i += 2
        elif text[i] == '"':
            return i + 1
        else:
            i += 1
    raise CMakeSyntaxError(text, pos, "unclosed quote")


def _unquoted_end(text: str, pos: int) -> int:
    i = pos
    while i < len(text) and text[i] not in ' \t\r\n()#"':
        i += 2 if text[i] == "\\" else 1
        if i < len(text) and text[i] == '"' and i > pos:  # legacy `a"b c"d`: quotes inside a word
            i = _quoted_end(text, i)
    return i


def _arguments(text: str, pos: int) -> tuple[list[Arg], int]:
    """`pos` after a command's `(`: its arguments and the position after its `)`."""
    args: list[Arg] = []
    depth = 0
    i = pos
    while i < len(text):
        c = text[i]
        if c in " \t\r\n":
            i += 1
        elif c == "#":
            i = _skip_comment(text, i)
        elif c == "(":
            depth += 1
            args.append(Arg("(", i, i + 1, "("))
            i += 1
        elif c == ")":
            if depth == 0:
                return args, i + 1
            depth -= 1
            args.append(Arg(")", i, i + 1, ")"))
            i += 1
        else:
            if c == '"':
                end, kind = _quoted_end(text, i), "quoted"
            elif (bracket := _bracket_end(text, i)) is not None:
                end, kind = bracket, "bracket"
            else:
                end, kind = _unquoted_end(text, i), "unquoted"
            args.append(Arg(text[i:end], i, end, kind))
            i = end
    raise CMakeSyntaxError(text, pos, "unclosed parenthesis")


def parse(text: str) -> list[Command]:
    """Every command invocation of a CMake file, in order. Raises CMakeSyntaxError."""
    commands: list[Command] = []
    i = 0
    while i < len(text):
        c = text[i]
        if c == "#":
            i = _skip_comment(text, i)
            continue
        m = _IDENTIFIER.match(text, i)
        if not m or (i > 0 and (text[i - 1].isalnum() or text[i - 1] == "_")):
            i += 1
            continue
        j = m.end()
        while j < len(text) and text[j] in " \t":
            j += 1
        if j >= len(text) or text[j] != "(":
            i = m.end()
            continue
        args, end = _arguments(text, j + 1)
        commands.append(Command(m.group().lower(), m.start(), end, tuple(args), text.count("\n", 0, m.start()) + 1))
        i = end
    return commands


def quote(value: str) -> str:
    """A CMake argument holding `value`: unquoted when it can be."""
    if value and not re.search(r'[\s()#"\\;]', value):
        return value
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


# ---- tables ----------------------------------------------------------------------------------

# HIP library (driver.libraries.CUDA_LIBRARIES' file stem) -> (ROCm CMake package, its target).
# Libraries without a CMake package in ROCm (roctx64) are not here: their uses are reported.
LIBRARY_PACKAGES: dict[str, tuple[str, str]] = {
    "hipblas": ("hipblas", "roc::hipblas"),
    "hipblaslt": ("hipblaslt", "roc::hipblaslt"),
    "hipfft": ("hipfft", "hip::hipfft"),
    "hiprand": ("hiprand", "hip::hiprand"),
    "hipsolver": ("hipsolver", "roc::hipsolver"),
    "hipsparse": ("hipsparse", "roc::hipsparse"),
    "MIOpen": ("miopen", "MIOpen"),
}
HIP_RUNTIME_TARGET = "hip::host"

# FindCUDA / FindCUDAToolkit variables -> HIP's: (for `${NAME}`, for a bare NAME, as in if(NAME)).
# None: the meaning is gone; uses are reported. Library variables are derived (library_target).
LEGACY_VARS: dict[str, tuple[str | None, str | None]] = {
    "CUDA_FOUND": ("${hip_FOUND}", "hip_FOUND"),
    "CUDAToolkit_FOUND": ("${hip_FOUND}", "hip_FOUND"),
    "CUDA_LIBRARIES": (HIP_RUNTIME_TARGET, None),
    "CUDA_INCLUDE_DIRS": ("${hip_INCLUDE_DIRS}", None),
    "CUDAToolkit_INCLUDE_DIRS": ("${hip_INCLUDE_DIRS}", None),
    "CUDA_TOOLKIT_INCLUDE": ("${hip_INCLUDE_DIRS}", None),
    "CUDA_TOOLKIT_ROOT_DIR": ("${ROCM_PATH}", None),
    "CUDAToolkit_ROOT": ("${ROCM_PATH}", None),
    "CUDA_NVCC_FLAGS": ("${CMAKE_HIP_FLAGS}", None),
    "CUDA_VERSION": (None, None), "CUDA_VERSION_MAJOR": (None, None), "CUDA_VERSION_MINOR": (None, None),
    "CUDA_VERSION_STRING": (None, None), "CUDAToolkit_VERSION": (None, None),
    "CUDAToolkit_VERSION_MAJOR": (None, None), "CUDAToolkit_VERSION_MINOR": (None, None),
    "CUDA_NVCC_EXECUTABLE": (None, None), "CUDAToolkit_NVCC_EXECUTABLE": (None, None),
    "CUDA_SEPARABLE_COMPILATION": (None, None),
}
# FindCUDA settings that mean nothing to HIP: `set()` of them is dropped.
DROPPED_SETTINGS = frozenset({
    "CUDA_HOST_COMPILER", "CUDA_PROPAGATE_HOST_FLAGS", "CUDA_VERBOSE_BUILD", "CUDA_64_BIT_DEVICE_CODE",
    "CUDA_ATTACH_VS_BUILD_RULE_TO_CUDA_FILE", "CUDA_BUILD_CUBIN", "CUDA_BUILD_EMULATION",
    "CUDA_GENERATED_OUTPUT_DIR", "CUDA_USE_STATIC_CUDA_RUNTIME", "CUDA_LINK_LIBRARIES_KEYWORD",
    "CUDA_HOST_COMPILATION_CPP", "CUDA_RESOLVE_DEVICE_SYMBOLS",
})
# FindCUDA commands with no HIP language counterpart: reported, left.
UNPORTABLE_COMMANDS = {
    "cuda_compile_ptx": "PTX has no AMD counterpart",
    "cuda_compile_cubin": "cubins have no AMD counterpart",
    "cuda_compile_fatbin": "fatbins have no AMD counterpart",
    "cuda_wrap_srcs": "FindCUDA's internal rule generator",
    "cuda_link_separable_compilation_objects": "a separate device link (HIP links with -fgpu-rdc)",
    "cuda_compute_separable_compilation_object_file_name": "a separate device link (HIP links with -fgpu-rdc)",
    "cuda_select_nvcc_arch_flags": "nvcc target flags (HIP takes CMAKE_HIP_ARCHITECTURES)",
    "cuda_build_clean_target": "FindCUDA's own clean target",
    "cuda_add_cufft_to_target": None, "cuda_add_cublas_to_target": None,  # rewritten, see _add_library_to_target
}
_CONFIGS = ("RELEASE", "DEBUG", "MINSIZEREL", "RELWITHDEBINFO")
_TARGET_OPTIONS = {"executable": ("WIN32", "MACOSX_BUNDLE", "EXCLUDE_FROM_ALL"),
                   "library": ("STATIC", "SHARED", "MODULE", "OBJECT", "EXCLUDE_FROM_ALL")}
_CU_SOURCE = re.compile(r"\.cu$")
_VERSION = re.compile(r"^\d+(?:\.\d+)*$")
_FALSE = frozenset({"OFF", "FALSE", "NO", "N", "0", "IGNORE", "NOTFOUND", ""})
# nvcc-only spellings left in other commands (target_compile_options & co.): reported
_NVCC_FLAG = re.compile(
    r"(?<![\w-])(?:--expt-relaxed-constexpr|--expt-extended-lambda|--extended-lambda|--use_fast_math|-lineinfo"
    r"|-Xcompiler|--compiler-options|-Xptxas|-rdc=true|-arch=sm_\w+|-gencode)(?![\w-])"
)


def library_target(cuda_name: str) -> tuple[str | None, str | None]:
    """CUDA library name (`cublas`, `CUBLAS`, `cudart_static`) -> (ROCm target, its package);
    (None, None) when HIP has no CMake target for it."""
    name = cuda_name.removesuffix("_static").removesuffix("_LIBRARIES").removesuffix("_LIBRARY")
    name = {"cuda_driver": "cuda"}.get(name, name)  # FindCUDAToolkit's name for libcuda
    for key, mapped in CUDA_LIBRARIES.items():
        if key.lower() == name.lower():
            if mapped is None:
                return HIP_RUNTIME_TARGET, None
            if mapped in LIBRARY_PACKAGES:
                package, target = LIBRARY_PACKAGES[mapped]
                return target, package
    return None, None


SOURCES_BLOCK = """
# cass-cc port: compile this folder's CUDA sources (.cu) as HIP
file(GLOB_RECURSE _cass_port_cu_sources CONFIGURE_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/*.cu")
set_source_files_properties(${_cass_port_cu_sources} PROPERTIES LANGUAGE HIP)
"""

# Before the first command of a file that enables HIP. Measured with CMake 3.25 on Debian 12
# (ROCm 5.2 under /usr, clang-15) and /opt/rocm layouts: CMake looks for hip-lang only under
# <root>/lib/cmake and its compiler checks need ROCm's paths, which clang only finds by itself
# under /opt/rocm. @ARCHS@: the port's targets, CMake's default (rocm_agent_enumerator needs a GPU).
HIP_SETUP = """# cass-cc port: CMake's HIP language on this machine's ROCm. Hints, as -D<NAME>=... or environment:
#   ROCM_PATH            ROCm's root (default /opt/rocm, else /usr where a distribution installs it)
#   HIP_DEVICE_LIB_PATH  device-library bitcode folder (ROCm 5.2 lacks gfx11's: `cass-cc setup` makes one)
#   HIPCXX or CMAKE_HIP_COMPILER  the clang++ to use (default: the one hipcc runs)
if(NOT DEFINED _cass_port_hip_setup)
  set(_cass_port_hip_setup 1)
  foreach(_cass_hint ROCM_PATH HIP_DEVICE_LIB_PATH)
    if(NOT DEFINED ${_cass_hint} AND DEFINED ENV{${_cass_hint}})
      set(${_cass_hint} "$ENV{${_cass_hint}}")
    endif()
  endforeach()
  if(NOT DEFINED ROCM_PATH)
    if(EXISTS /opt/rocm)
      set(ROCM_PATH /opt/rocm)
    else()
      set(ROCM_PATH /usr)
    endif()
  endif()
  if(NOT DEFINED CMAKE_HIP_ARCHITECTURES)
    set(CMAKE_HIP_ARCHITECTURES "@ARCHS@" CACHE STRING "HIP targets")
  endif()
  if(NOT CMAKE_HIP_COMPILER AND "$ENV{HIPCXX}" STREQUAL "")
    # the clang hipcc runs: its folder and major version from `hipcc --version`
    execute_process(COMMAND ${CMAKE_COMMAND} -E env HIP_PLATFORM=amd hipcc --version
      OUTPUT_VARIABLE _cass_hipcc ERROR_QUIET)
    set(_cass_hints "${ROCM_PATH}/llvm/bin")
    set(_cass_names clang++)
    if(_cass_hipcc MATCHES "InstalledDir: ([^\\n]*)")
      list(APPEND _cass_hints "${CMAKE_MATCH_1}")
    endif()
    if(_cass_hipcc MATCHES "clang version ([0-9]+)")
      list(APPEND _cass_hints "/usr/lib/llvm-${CMAKE_MATCH_1}/bin")
      list(APPEND _cass_names "clang++-${CMAKE_MATCH_1}")
    endif()
    find_program(CMAKE_HIP_COMPILER NAMES ${_cass_names} HINTS ${_cass_hints} NO_DEFAULT_PATH)
  endif()
  if(NOT DEFINED HIP_DEVICE_LIB_PATH AND NOT EXISTS "${ROCM_PATH}/amdgcn/bitcode")
    file(GLOB HIP_DEVICE_LIB_PATH LIST_DIRECTORIES true "${ROCM_PATH}/lib/*/amdgcn/bitcode")
  endif()
  # C and C++ files of the project may include a translated header (HIP's runtime API): they get
  # what the HIP language gives its own files, the platform macro, HIP's headers and runtime
  add_compile_definitions("$<$<COMPILE_LANGUAGE:C,CXX>:__HIP_PLATFORM_AMD__>")
  if(NOT ROCM_PATH STREQUAL "/usr")  # /usr/include is the compiler's own: naming it breaks libstdc++
    add_compile_options("$<$<COMPILE_LANGUAGE:C,CXX>:-I${ROCM_PATH}/include>")
  endif()
  link_libraries("$<$<LINK_LANGUAGE:C,CXX>:-L${ROCM_PATH}/lib>" "$<$<LINK_LANGUAGE:C,CXX>:amdhip64>")
  # clang reads both at configure time (compiler checks); the options carry them into the build
  set(ENV{ROCM_PATH} "${ROCM_PATH}")
  add_compile_options("$<$<COMPILE_LANGUAGE:HIP>:--rocm-path=${ROCM_PATH}>")
  add_link_options("$<$<LINK_LANGUAGE:HIP>:--rocm-path=${ROCM_PATH}>")
  if(HIP_DEVICE_LIB_PATH)
    set(ENV{HIP_DEVICE_LIB_PATH} "${HIP_DEVICE_LIB_PATH}")
    add_compile_options("$<$<COMPILE_LANGUAGE:HIP>:--rocm-device-lib-path=${HIP_DEVICE_LIB_PATH}>")
    add_link_options("$<$<LINK_LANGUAGE:HIP>:--rocm-device-lib-path=${HIP_DEVICE_LIB_PATH}>")
  endif()
  # CMake < 3.28 looks for hip-lang only in <root>/lib/cmake (later ones in lib/<arch> too):
  # give it a root holding this ROCm's <root>/lib/<arch>/cmake packages there (build folder links)
  if(CMAKE_VERSION VERSION_LESS 3.28 AND NOT DEFINED CMAKE_HIP_COMPILER_ROCM_ROOT
     AND NOT EXISTS "${ROCM_PATH}/lib/cmake/hip-lang")
    file(GLOB _cass_packages LIST_DIRECTORIES true "${ROCM_PATH}/lib/*/cmake/*")
    set(_cass_root "${CMAKE_BINARY_DIR}/cass-port-rocm")
    file(MAKE_DIRECTORY "${_cass_root}/lib/cmake")
    foreach(_cass_package ${_cass_packages})
      get_filename_component(_cass_name "${_cass_package}" NAME)
      file(CREATE_LINK "${_cass_package}" "${_cass_root}/lib/cmake/${_cass_name}" SYMBOLIC)
    endforeach()
    if(_cass_packages)
      set(CMAKE_HIP_COMPILER_ROCM_ROOT "${_cass_root}")
      if("$ENV{CMAKE_PREFIX_PATH}" STREQUAL "")
        set(ENV{CMAKE_PREFIX_PATH} "${_cass_root}")
      else()
        set(ENV{CMAKE_PREFIX_PATH} "${_cass_root}:$ENV{CMAKE_PREFIX_PATH}")
      endif()
    endif()
  endif()
endif()
"""


# ---- rewriting -------------------------------------------------------------------------------

@dataclass
class _Edit:
    start: int
    end: int
    new: str
    what: str | None  # None: part of another edit's report


class _Rewriter:
    def __init__(self, text: str, archs: list[str]) -> None:
        self.text = text
        self.archs = archs
        self.edits: list[_Edit] = []
        self.reports: list[Rewrite] = []
        self.commands = parse(text)
        self.enables_hip_at: int | None = None  # where HIP_SETUP goes

    def line_of(self, pos: int) -> int:
        return self.text.count("\n", 0, pos) + 1

    def indent_of(self, command: Command) -> str:
        line_start = self.text.rfind("\n", 0, command.start) + 1
        prefix = self.text[line_start : command.start]
        return prefix if not prefix.strip() else ""

    def source(self, command: Command) -> str:
        return " ".join(self.text[command.start : command.end].split())

    def report(self, pos: int, what: str) -> None:
        self.reports.append((self.line_of(pos), what))

    def replace(self, command: Command, lines: list[str]) -> None:
        """Replace a whole command by `lines` (commands, at its indentation; [] drops it)."""
        new = ("\n" + self.indent_of(command)).join(lines)
        what = f"{self.source(command)} -> {'; '.join(lines) if lines else '(dropped)'}"
        self.edits.append(_Edit(command.start, command.end, new, what))

    def insert_before(self, command: Command, lines: list[str], what: str) -> None:
        indent = self.indent_of(command)
        self.edits.append(_Edit(command.start, command.start, "".join(line + "\n" + indent for line in lines), what))

    def enable_hip(self, command: Command) -> None:
        if self.enables_hip_at is None or command.start < self.enables_hip_at:
            self.enables_hip_at = command.start

    def need_package(self, command: Command, package: str | None) -> None:
        if package:
            self.insert_before(command, [f"find_package({package} REQUIRED)"], f"added find_package({package} REQUIRED)")

    # -- nvcc flags -----------------------------------------------------------------------------

    def hip_words(self, command: Command, values: list[str]) -> list[str]:
        """nvcc flags (CMake list items, maybe several words each) -> HIP compile flags."""
        from .make import translate_words

        words = [w for v in values for item in v.split(";") for w in item.split()]
        # targets come from CMAKE_HIP_ARCHITECTURES: every target flag is dropped
        new, changes = translate_words(words, [])
        for change in changes:
            self.report(command.start, f"nvcc flag {change}")
        return new

    def append_flags(self, command: Command, variable: str, values: list[str], own: str, append: bool = True) -> None:
        """`own`: the CUDA variable (its `${}` is the old value: appending); `append`: False for
        a set() that replaced the value (kept as a set() when the variable was CMAKE_CUDA_FLAGS*)."""
        self_refs = {"${" + own + "}", "${" + variable + "}"}
        append = append or any(ref in v for v in values for ref in self_refs)
        words = [w for w in self.hip_words(command, values) if w not in self_refs]
        if not append:
            self.replace(command, [f"set({variable} {quote(' '.join(words))})"])
        else:
            self.replace(command, [f"string(APPEND {variable} {quote(' ' + ' '.join(words))})"] if words else [])

    # -- commands --------------------------------------------------------------------------------

    def run(self) -> None:
        for command in self.commands:
            handler = getattr(self, "cmd_" + command.name, None)
            if command.name in UNPORTABLE_COMMANDS and UNPORTABLE_COMMANDS[command.name]:
                self.report(command.start, f"{command.name}() left as is: {UNPORTABLE_COMMANDS[command.name]}")
            elif handler is None or not handler(command):
                self.rewrite_args(command)

    def cmd_project(self, command: Command) -> bool:
        return self._languages(command)

    cmd_enable_language = cmd_check_language = cmd_project  # each names languages the same way

    def _languages(self, command: Command) -> bool:
        for arg in command.args:
            if arg.value == "CUDA":
                self.edits.append(_Edit(arg.start, arg.end, "HIP", f"{command.name}(... CUDA) -> HIP"))
                if command.name != "check_language":
                    self.enable_hip(command)
        return False  # the other arguments: the usual rules

    def cmd_find_package(self, command: Command) -> bool:
        values = command.values
        if not values or values[0] not in ("CUDA", "CUDAToolkit"):
            return False
        kept = [v for v in values[1:] if not _VERSION.match(v) and v != "EXACT"]
        find = f"find_package({' '.join(['hip', *kept])})"
        if values[0] == "CUDAToolkit":
            self.replace(command, [find])
        else:
            self.replace(command, ["enable_language(HIP)", find])
            self.enable_hip(command)
            if "REQUIRED" not in kept:
                self.report(command.start, "find_package(CUDA) was optional: enable_language(HIP) makes HIP required")
        return True

    def _add_target(self, command: Command, kind: str) -> bool:
        values = command.values
        if not values:
            return False
        name, rest = values[0], values[1:]
        options: list[str] = []
        while rest and rest[0] in _TARGET_OPTIONS[kind]:
            options.append(rest.pop(0))
        sources: list[str] = []
        flags: dict[str, list[str]] = {}
        section: str | None = None
        for value in rest:
            if value == "OPTIONS" or value in _CONFIGS:
                section = value
                flags.setdefault(section, [])
            elif section:
                flags[section].append(value)
            else:
                sources.append(value)
        lines = [f"add_{kind}({' '.join(quote(v) for v in [name, *options, *sources])})"]
        cu = [s for s in sources if _CU_SOURCE.search(s)]
        if cu:
            lines.append(f"set_source_files_properties({' '.join(quote(s) for s in cu)} PROPERTIES LANGUAGE HIP)")
        lines.append(f"target_link_libraries({quote(name)} {HIP_RUNTIME_TARGET})")
        for section, values_ in flags.items():
            words = self.hip_words(command, values_)
            if not words:
                continue
            condition = "$<COMPILE_LANGUAGE:HIP>" if section == "OPTIONS" else f"$<AND:$<COMPILE_LANGUAGE:HIP>,$<CONFIG:{section.title()}>>"
            lines.append(f"target_compile_options({quote(name)} PRIVATE {quote('$<' + condition + ':' + ';'.join(words) + '>')})")
        self.replace(command, lines)
        return True

    def cmd_cuda_add_executable(self, command: Command) -> bool:
        return self._add_target(command, "executable")

    def cmd_cuda_add_library(self, command: Command) -> bool:
        return self._add_target(command, "library")

    def cmd_cuda_include_directories(self, command: Command) -> bool:
        self.replace(command, [f"include_directories({' '.join(a.text for a in command.args)})"])
        return True

    def cmd_cuda_add_cublas_to_target(self, command: Command) -> bool:
        return self._add_library_to_target(command, "cublas")

    def cmd_cuda_add_cufft_to_target(self, command: Command) -> bool:
        return self._add_library_to_target(command, "cufft")

    def _add_library_to_target(self, command: Command, library: str) -> bool:
        target, package = library_target(library)
        if not command.values or target is None:
            self.report(command.start, f"{command.name}() left as is: HIP has no CMake target for {library}")
            return True
        self.need_package(command, package)
        self.replace(command, [f"target_link_libraries({quote(command.values[0])} {target})"])
        return True

    def cmd_cuda_compile(self, command: Command) -> bool:
        values = command.values
        if len(values) < 2:
            return False
        variable, rest = values[0], values[1:]
        reason = self._objects_escape(variable, command)
        if reason:
            self.report(command.start, f"cuda_compile() left as is: ${{{variable}}} {reason}")
            return True
        sources: list[str] = []
        options: list[str] = []
        section = None
        for value in rest:
            if value in ("STATIC", "SHARED", "MODULE") and section is None:
                continue  # HIP objects need no such hint: add_library(SHARED) gives -fPIC itself
            if value == "OPTIONS" or value in _CONFIGS:
                section = value
            elif section == "OPTIONS":
                options.append(value)
            elif section:
                self.report(command.start, f"cuda_compile(... {section}) flags dropped: set per-configuration flags by hand")
            else:
                sources.append(value)
        srcs = " ".join(quote(s) for s in sources)
        props = f"set_source_files_properties({srcs} PROPERTIES LANGUAGE HIP"
        words = self.hip_words(command, options)
        if words:
            props += f" COMPILE_OPTIONS {quote(';'.join(words))}"
        self.replace(command, [f"set({quote(variable)} {srcs})", props + ")"])
        return True

    def _objects_escape(self, variable: str, compile_: Command) -> str | None:
        """Why the objects in ${variable} can't become the sources themselves (None: they can)."""
        reference = "${" + variable + "}"
        feeds = {"add_executable", "add_library", "cuda_add_executable", "cuda_add_library", "target_sources"}
        for command in self.commands:
            if command is compile_ or not any(reference in a.text for a in command.args):
                continue
            if command.name not in feeds:
                return f"is used by {command.name}() at line {command.line}, not only as target sources"
        return None

    def cmd_set(self, command: Command) -> bool:
        values = command.values
        if not values:
            return False
        variable, items = values[0], values[1:]
        if "CACHE" in items:
            items = items[: items.index("CACHE")]
        elif items and items[-1] == "PARENT_SCOPE":
            return False
        flags = self._flags_variable(variable)
        if flags:
            # CUDA_NVCC_FLAGS were nvcc's own, beside CMake's: they add to CMAKE_HIP_FLAGS
            self.append_flags(command, flags, items, variable, append=variable.startswith("CUDA_NVCC"))
            return True
        if variable == "CUDA_SEPARABLE_COMPILATION":
            on = bool(items) and items[0].upper() not in _FALSE
            if items and items[0].startswith("$"):
                self.report(command.start, "CUDA_SEPARABLE_COMPILATION left as is: a variable's value (add -fgpu-rdc to CMAKE_HIP_FLAGS)")
                return True
            self.replace(command, ['string(APPEND CMAKE_HIP_FLAGS " -fgpu-rdc")'] if on else [])
            return True
        if variable in DROPPED_SETTINGS:
            self.replace(command, [])
            return True
        if variable == "CMAKE_CUDA_ARCHITECTURES":
            self._architectures(command, command.args[1:])
            self.edits.append(_Edit(command.args[0].start, command.args[0].end, "CMAKE_HIP_ARCHITECTURES", None))
            return True
        return False

    def cmd_list(self, command: Command) -> bool:
        values = command.values
        if len(values) >= 2 and values[0] == "APPEND":
            flags = self._flags_variable(values[1])
            if flags:
                self.append_flags(command, flags, values[2:], values[1])
                return True
        return False

    cmd_string = cmd_list  # string(APPEND <flags> ...): the same as list(APPEND ...) for flags

    @staticmethod
    def _flags_variable(name: str) -> str | None:
        """CUDA_NVCC_FLAGS[_<CONFIG>] / CMAKE_CUDA_FLAGS[_<CONFIG>] -> the CMAKE_HIP_FLAGS variable."""
        m = re.fullmatch(r"(?:CUDA_NVCC_FLAGS|CMAKE_CUDA_FLAGS)(_(?:RELEASE|DEBUG|MINSIZEREL|RELWITHDEBINFO))?", name)
        return f"CMAKE_HIP_FLAGS{m.group(1) or ''}" if m else None

    def cmd_set_target_properties(self, command: Command) -> bool:
        return self._properties(command)

    cmd_set_property = cmd_set_source_files_properties = cmd_set_target_properties

    def _properties(self, command: Command) -> bool:
        args = [a for a in command.args if a.kind not in "()"]
        for n, arg in enumerate(args):
            if arg.value == "CUDA_ARCHITECTURES":
                self.edits.append(_Edit(arg.start, arg.end, "HIP_ARCHITECTURES", None))
                # set_property(... PROPERTY CUDA_ARCHITECTURES v...): every value; otherwise the next one
                values = args[n + 1 :] if n and args[n - 1].value == "PROPERTY" else args[n + 1 : n + 2]
                self._architectures(command, values, name_arg=arg)
            elif arg.value == "CUDA_SEPARABLE_COMPILATION":
                self.report(arg.start, "CUDA_SEPARABLE_COMPILATION property left as is: give the target -fgpu-rdc "
                            "compile and link options")
        self.rewrite_args(command, skip={a.start for a in args if a.value == "CUDA_ARCHITECTURES"})
        return True

    def _architectures(self, command: Command, values: tuple[Arg, ...] | list[Arg], name_arg: Arg | None = None) -> None:
        values = [a for a in values if a.kind not in "()" and a.value not in ("CACHE", "PARENT_SCOPE")]
        if "CACHE" in [a.value for a in command.args]:
            cache = [a.value for a in command.args].index("CACHE")
            values = [a for a in values if a.start < command.args[cache].start]
        if not values or all(a.value.upper() in _FALSE for a in values):
            if name_arg is None:
                self.report(command.start, "CMAKE_CUDA_ARCHITECTURES -> CMAKE_HIP_ARCHITECTURES")
            return
        new = ";".join(self.archs)
        old = " ".join(a.text for a in values)
        self.edits.append(_Edit(values[0].start, values[-1].end, new, f"CUDA_ARCHITECTURES {old} -> HIP_ARCHITECTURES {new}"))

    # -- arguments of any command ----------------------------------------------------------------

    def rewrite_args(self, command: Command, skip: set[int] = frozenset()) -> None:  # type: ignore[assignment]
        for arg in command.args:
            if arg.kind in "()" or arg.start in skip:
                continue
            self._arg(command, arg)

    def _arg(self, command: Command, arg: Arg) -> None:
        if arg.kind == "unquoted" and arg.text in LEGACY_VARS:  # a bare name: if(CUDA_FOUND)
            bare = LEGACY_VARS[arg.text][1]
            if bare:
                self.edits.append(_Edit(arg.start, arg.end, bare, f"{arg.text} -> {bare}"))
            else:
                self.report(arg.start, f"{arg.text} left as is: no HIP counterpart")
            return
        for rule in _ARG_RULES:
            for m in rule.pattern.finditer(arg.text):
                start = arg.start + m.start()
                if any(e.start <= start < max(e.end, e.start + 1) for e in self.edits):
                    continue
                rule.apply(self, command, m, start)
        for m in _FLAG_WORD.finditer(arg.text):
            start = arg.start + m.start()
            if any(e.start <= start < max(e.end, e.start + 1) for e in self.edits):
                continue
            new, changes = _translate_flag(m.group())
            if new is not None:
                self.edits.append(_Edit(start, start + len(m.group()), new, f"nvcc flag {changes}"))
            elif _NVCC_FLAG.fullmatch(m.group()):
                self.report(arg.start, f"nvcc flag {m.group()} left as is: remove or translate it by hand")


# A flag inside an argument (`--extended-lambda` of `$<$<COMPILE_LANGUAGE:CUDA>:--extended-lambda>`,
# `-Xcompiler=-fPIC` of a list): ends at a list separator, a blank or a generator expression's `>`.
_FLAG_WORD = re.compile(r"(?<![\w$<-])-{1,2}[A-Za-z][^\s;>]*")


def _translate_flag(word: str) -> tuple[str | None, str]:
    """An nvcc flag that stands alone -> its hipcc words (joined by `;`, a CMake list), or None
    when it is not nvcc's, needs the next argument, or is the same for clang."""
    from .make import translate_words

    new, changes = translate_words([word], [])
    if not changes or new == [word] or word in ("-Xcompiler", "--compiler-options", "-Xptxas", "-Xlinker"):
        return None, ""
    return ";".join(new), changes[0]


@dataclass(frozen=True)
class _ArgRule:
    pattern: re.Pattern[str]
    apply: Callable[[_Rewriter, Command, re.Match[str], int], None]  # (rewriter, command, match, absolute start)


def _edit(rw: _Rewriter, m: re.Match[str], start: int, new: str) -> None:
    rw.edits.append(_Edit(start, start + len(m.group()), new, f"{m.group()} -> {new}"))


def _cmake_variable(rw: _Rewriter, command: Command, m: re.Match[str], start: int) -> None:
    if m.group(1) == "SEPARABLE_COMPILATION":
        rw.report(start, "CMAKE_CUDA_SEPARABLE_COMPILATION left as is: add -fgpu-rdc to CMAKE_HIP_FLAGS")
        return
    _edit(rw, m, start, f"CMAKE_HIP_{m.group(1)}")


def _property(rw: _Rewriter, command: Command, m: re.Match[str], start: int) -> None:
    _edit(rw, m, start, f"HIP_{m.group(1)}")


def _genex(rw: _Rewriter, command: Command, m: re.Match[str], start: int) -> None:
    languages = re.sub(r"\bCUDA\b", "HIP", m.group(2))
    if m.group(1).endswith("AND_ID"):
        languages = re.sub(r"\bNVIDIA\b", "Clang", languages)
    new = f"$<{m.group(1)}:{languages}"
    rw.edits.append(_Edit(start, start + len(m.group()), new, f"{m.group()}> -> {new}>"))


def _target(rw: _Rewriter, command: Command, m: re.Match[str], start: int) -> None:
    target, package = library_target(m.group(1))
    if target is None:
        rw.report(start, f"{m.group()} left as is: HIP has no CMake target for it; link its HIP library by hand")
        return
    rw.need_package(command, package)
    _edit(rw, m, start, target)


def _library_variable(rw: _Rewriter, command: Command, m: re.Match[str], start: int) -> None:
    target, package = library_target(m.group(1))
    if target is None:
        rw.report(start, f"{m.group()} left as is: HIP has no CMake target for it")
        return
    rw.need_package(command, package)
    _edit(rw, m, start, target)


def _legacy_reference(rw: _Rewriter, command: Command, m: re.Match[str], start: int) -> None:
    new = LEGACY_VARS[m.group(1)][0]
    if new is None:
        rw.report(start, f"{m.group()} left as is: no HIP counterpart (compare HIP's version, hip_VERSION, by hand)"
                  if "VERSION" in m.group(1) else f"{m.group()} left as is: no HIP counterpart")
        return
    _edit(rw, m, start, new)


_ARG_RULES = (
    _ArgRule(re.compile(r"\$\{CUDA_(\w+?)_(?:LIBRARY|LIBRARIES)\}"), _library_variable),
    _ArgRule(re.compile(r"\$\{(" + "|".join(sorted(LEGACY_VARS, key=len, reverse=True)) + r")\}"), _legacy_reference),
    _ArgRule(re.compile(r"\bCMAKE_CUDA_(\w+)"), _cmake_variable),
    _ArgRule(re.compile(r"(?<!\w)CUDA_(STANDARD_REQUIRED|STANDARD|EXTENSIONS|ARCHITECTURES)\b"), _property),
    _ArgRule(re.compile(r"\$<(COMPILE_LANGUAGE|LINK_LANGUAGE|COMPILE_LANG_AND_ID|LINK_LANG_AND_ID):([^>:]*)"), _genex),
    _ArgRule(re.compile(r"\bCUDA::(\w+)"), _target),
)


def _apply(text: str, edits: list[_Edit], reports: list[Rewrite]) -> str:
    out = []
    pos = 0
    for edit in sorted(edits, key=lambda e: (e.start, e.end)):
        if edit.start < pos:
            continue  # overlapping: the first wins
        out.append(text[pos : edit.start] + edit.new)
        pos = edit.end
        if edit.what:
            reports.append((text.count("\n", 0, edit.start) + 1, edit.what))
    out.append(text[pos:])
    return "".join(out)


def rewrite_cmake(text: str, archs: list[str], mark_sources: bool = True) -> tuple[str, list[Rewrite]]:
    """A CMake file (CMakeLists.txt or *.cmake) for CMake's HIP language. `mark_sources`: append
    SOURCES_BLOCK when the file names .cu sources (CMakeLists.txt only)."""
    try:
        rw = _Rewriter(text, archs)
    except CMakeSyntaxError as e:
        return text, [(e.line, f"not rewritten, CMake could not parse it: {e}")]
    rw.run()
    if rw.enables_hip_at is not None and "_cass_port_hip_setup" not in text:
        setup = HIP_SETUP.replace("@ARCHS@", ";".join(archs))
        first = next(c for c in rw.commands if c.start == rw.enables_hip_at)
        rw.edits.append(_Edit(first.start, first.start, setup + rw.indent_of(first),
                              "added the HIP language set-up (ROCM_PATH, HIP_DEVICE_LIB_PATH hints)"))
    reports = list(rw.reports)
    result = _apply(text, rw.edits, reports)
    if rw.edits and mark_sources and re.search(r"\.cu\b", result) and "_cass_port_cu_sources" not in result:
        result = result + ("" if result.endswith("\n") else "\n") + SOURCES_BLOCK
        reports.append((result.count("\n", 0, len(result) - len(SOURCES_BLOCK)) + 2,
                        "added set_source_files_properties(<*.cu> LANGUAGE HIP)"))
    reports.sort(key=lambda r: r[0])
    return result, reports
