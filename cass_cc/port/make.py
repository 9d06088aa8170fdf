"""Makefiles of a ported tree: each command rewritten for the program that runs it.

GNU make's grammar, as far as a port needs it: logical lines (`\\` continuations kept where
they were), comments, variable assignments (`=`, `:=`, `::=`, `?=`, `+=`, `!=`, with `export`
or `override`), rules and their tab-indented recipes, `include` of other make files (a shared
`make.config` is ported once, as a make file of the tree). A recipe line is split into its
shell commands (`&&`, `||`, `;`, `|`); each command's program is its first word, with make
variables expanded (`$(NVCC)` -> `nvcc`, `$(CC)` -> `cc` by make's defaults):

- nvcc (`nvcc`, `.../bin/nvcc`): hipcc, its options translated word by word (`word_edits`);
- a host compiler (gcc, g++, cc, clang++ ...): it gets what hipcc would have added, HIP's
  platform macro and include folder when it compiles (it may include a translated header) and
  the HIP runtime library where the line linked CUDA's (`-lcudart` -> `-lamdhip64`);
- anything else: only paths into the CUDA install are rewritten.

Variable assignments are rewritten for the programs whose commands use them (`NVCCFLAGS`
used by `$(NVCC)` gets nvcc's translation; `LIBS` used by `$(CXX)` the host one). Paths into
the CUDA install (`/usr/local/cuda`, `$(CUDA_PATH)`, a variable holding one) become ROCm's
`$(ROCM_PATH)` for include/ and lib*/, which the file then defines (`ROCM_PATH ?= <root>`) if
it does not already. Output modes hipcc has no counterpart for (`-ptx`, `-cubin`, `-lib`,
`-dlink`) are left as they are and reported. Every change is reported `(line, "old -> new")`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import PurePosixPath

Rewrite = tuple[int, str]  # (1-based line, "what -> what")
Edit = tuple[int, int, list[str]]  # (first word, number of words, new words; [] drops them)

# ---- nvcc's options -> hipcc's ---------------------------------------------------------------

# One-word nvcc options -> replacement words ([] drops them).
ONE_WORD: dict[str, list[str]] = {
    "--use_fast_math": ["-ffast-math"], "-use_fast_math": ["-ffast-math"], "--use-fast-math": ["-ffast-math"],
    "-rdc=true": ["-fgpu-rdc"], "--relocatable-device-code=true": ["-fgpu-rdc"],
    "-rdc=false": [], "--relocatable-device-code=false": [],
    "-dc": ["-fgpu-rdc", "-c"], "--device-c": ["-fgpu-rdc", "-c"], "-dw": ["-c"], "--device-w": ["-c"],
    "--compile": ["-c"], "--debug": ["-g"], "--shared": ["-shared"],
    "-lcublas": ["-lhipblas"], "-lcurand": ["-lhiprand"], "-lcufft": ["-lhipfft"],
    "-lcusparse": ["-lhipsparse"], "-lcusolver": ["-lhipsolver"], "-lcudadevrt": [],
    "--expt-relaxed-constexpr": [], "-expt-relaxed-constexpr": [],
    "--extended-lambda": [], "-extended-lambda": [], "--expt-extended-lambda": [], "-expt-extended-lambda": [],
    "-lineinfo": ["-gline-tables-only"], "--generate-line-info": ["-gline-tables-only"],
    "-G": ["-g"], "--device-debug": ["-g"],
    "-cudart=shared": [], "-cudart=static": [], "-cudart=none": [],
    "--cudart=shared": [], "--cudart=static": [], "--cudart=none": [],
    "-cuda": [], "--cuda": [], "-Wno-deprecated-gpu-targets": [], "--Wno-deprecated-gpu-targets": [],
    "-res-usage": [], "--resource-usage": [], "-keep": [], "--keep": [], "--display-error-number": [],
    "-fmad=true": [], "--fmad=true": [], "-fmad=false": ["-ffp-contract=off"], "--fmad=false": ["-ffp-contract=off"],
    "-ftz=true": ["-fgpu-flush-denormals-to-zero"], "--ftz=true": ["-fgpu-flush-denormals-to-zero"],
    "-ftz=false": [], "--ftz=false": [],
    "-prec-div=true": [], "-prec-div=false": [], "--prec-div=true": [], "--prec-div=false": [],
    "-prec-sqrt=true": [], "-prec-sqrt=false": [], "--prec-sqrt=true": [], "--prec-sqrt=false": [],
    "-m64": ["-m64"],
}
# The CUDA runtime's own libraries: the first becomes HIP's runtime library, the rest go.
CUDA_RUNTIME_LIBS = frozenset({"-lcudart", "-lcudart_static", "-lcuda"})
HIP_RUNTIME_LIB = ["-L$(ROCM_PATH)/lib", "-lamdhip64"]
# What hipcc gives the host compiler and gcc/g++ do not: for a file that includes a HIP header.
HIP_HOST_FLAGS = ["-D__HIP_PLATFORM_AMD__", "-I$(ROCM_PATH)/include"]
_SOURCE = re.compile(r"\.(?:c|cc|cpp|cxx|C|c\+\+)$|^\$[<^?]$|^\$\((?:SRC|SRCS|SOURCES|CSRC|CXXSRC)\w*\)$")
# Options taking a value (next word or `=value`) that hipcc does without: the pair is dropped.
DROP_WITH_VALUE = ("-ccbin", "--compiler-bindir", "-Xptxas", "--ptxas-options", "-maxrregcount", "--maxrregcount",
                   "-code", "--gpu-code", "-Xnvlink", "--nvlink-options", "-Xcudafe", "-Xfatbin", "--fatbin-options",
                   "-keep-dir", "--keep-dir", "-t", "--threads", "-split-compile", "--split-compile",
                   "-diag-suppress", "--diag-suppress", "-cudart", "--cudart", "--machine", "-Xarchive")
# Options taking a value that hipcc spells differently: nvcc's -> hipcc's prefix.
RENAMED_WITH_VALUE = {"--include-path": "-I", "--library-path": "-L", "--library": "-l", "--define-macro": "-D",
                      "--undefine-macro": "-U", "--output-file": "-o", "--pre-include": "-include",
                      "--optimize": "-O", "--std": "-std=", "-std": "-std=", "--default-stream": "-fgpu-default-stream="}
# nvcc options that make device code relocatable, and those of commands that do not link.
RDC_WORDS = frozenset({"-dc", "--device-c", "-rdc=true", "--relocatable-device-code=true", "-fgpu-rdc"})
NOT_LINKING = frozenset({"-c", "--compile", "-E", "-M", "-MM", "-ptx", "-cubin", "-fatbin", "-lib", "-dlink",
                         "--device-link", "--preprocess", "-dw", "--device-w"})
ARCH_FLAGS = ("-arch", "--gpu-architecture", "-gencode", "--generate-code")
HOST_FLAGS = ("-Xcompiler", "--compiler-options")
LINKER_FLAGS = ("-Xlinker", "--linker-options")
# nvcc output modes hipcc has no counterpart for: left as they are, reported.
UNPORTABLE = {"-ptx": "PTX", "--ptx": "PTX", "-cubin": "cubin", "--cubin": "cubin", "-fatbin": "fatbin",
              "--fatbin": "fatbin", "-lib": "a static library made by nvcc", "--lib": "a static library made by nvcc",
              "-dlink": "a separate device link", "--device-link": "a separate device link"}
NVCC_WORD = re.compile(r"^(?:.*/)?nvcc$")  # nvcc, $(CUDA_PATH)/bin/nvcc, /usr/local/cuda/bin/nvcc


def _flag_value(words: list[str], i: int, flag: str) -> tuple[str | None, int]:
    """The value of `flag` at words[i] (`-f v` or `-f=v`) and how many words it spans (0: not it)."""
    word = words[i]
    if word == flag:
        return (words[i + 1], 2) if i + 1 < len(words) else (None, 1)
    if word.startswith(flag + "="):
        return word[len(flag) + 1:], 1
    return None, 0


def unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


def word_edits(words: list[str], archs: list[str], runtime_lib: bool = False) -> list[Edit]:
    """nvcc words -> hipcc words. `runtime_lib`: the first of CUDA's runtime libraries becomes
    HIP's (a host linker needs it; hipcc adds it itself). Unknown words are left alone."""
    edits: list[Edit] = []
    arch_done = lib_done = False
    i = 0
    while i < len(words):
        word = words[i]
        span = 1
        new: list[str] | None = None
        if NVCC_WORD.match(word):
            new = ["hipcc"]
        elif word in CUDA_RUNTIME_LIBS:
            new = HIP_RUNTIME_LIB if runtime_lib and not lib_done else []
            lib_done = lib_done or runtime_lib
        elif word in ONE_WORD:
            new = list(ONE_WORD[word])
            if new == [word]:
                new = None
        elif word in ("-x", "--x") and i + 1 < len(words) and words[i + 1] == "cu":
            new, span = ["-x", "hip"], 2
        else:
            for flag in ARCH_FLAGS + HOST_FLAGS + LINKER_FLAGS + DROP_WITH_VALUE + tuple(RENAMED_WITH_VALUE):
                value, span = _flag_value(words, i, flag)
                if not span:
                    continue
                if flag in ARCH_FLAGS:
                    # every target option of a command becomes the AMD targets, once
                    new = [] if arch_done else [f"--offload-arch={a}" for a in archs]
                    arch_done = True
                elif value is None:
                    new = None  # an option ending its line: left for the user to see
                elif flag in HOST_FLAGS:
                    new = [w for w in re.split(r"[,\s]+", unquote(value)) if w]
                elif flag in LINKER_FLAGS:
                    new = ["-Wl," + ",".join(w for w in re.split(r"[,\s]+", unquote(value)) if w)]
                elif flag in RENAMED_WITH_VALUE:
                    prefix = RENAMED_WITH_VALUE[flag]
                    new = [prefix + value] if prefix.endswith("=") or flag != "--output-file" else [prefix, value]
                else:
                    new = []
                break
            else:
                span = 1
        if new is not None:
            edits.append((i, span, new))
        i += span
    return edits


def translate_words(words: list[str], archs: list[str], runtime_lib: bool = False) -> tuple[list[str], list[str]]:
    """nvcc words -> hipcc words, and what changed ("old -> new")."""
    out = list(words)
    changes = []
    for i, span, new in reversed(word_edits(words, archs, runtime_lib)):
        out[i:i + span] = new
        changes.append(describe(words[i:i + span], new))
    return out, changes[::-1]


def _compiles(words: list[str]) -> bool:
    """Does a host compiler command compile (not only link)?"""
    return "-D__HIP_PLATFORM_AMD__" not in words and any(w in ("-c", "-E", "-S") or _SOURCE.search(w) for w in words[1:])


def describe(old: list[str], new: list[str]) -> str:
    return f"{' '.join(old)} -> {' '.join(new) if new else '(dropped)'}"


# ---- paths into the CUDA install -------------------------------------------------------------

_VAR_REF = re.compile(r"\$[({](\w+)[)}]")
_CUDA_ROOT_LITERAL = r"/usr/local/cuda(?:-\d+(?:\.\d+)*)?|/opt/cuda|/usr/lib/cuda"
_CUDA_ROOT_VAR_NAME = re.compile(r"^(?:CUDA|CUDA_?TOOLKIT|NVCC|CUDA_TOOLKIT_ROOT)_?(?:PATH|HOME|DIR|ROOT|ROOT_DIR|"
                                 r"INSTALL_PATH|INSTALL_DIR|TOOLKIT|TOOLKIT_PATH|TOOLKIT_DIR|BASE)?$", re.I)
_SUBDIR = {"include": "include", "lib64": "lib", "lib": "lib", "lib64/stubs": "lib", "lib/x64": "lib",
           "targets/x86_64-linux/include": "include", "targets/x86_64-linux/lib": "lib"}
_SUBDIRS = "|".join(re.escape(s) for s in sorted(_SUBDIR, key=len, reverse=True))


def _cuda_roots(variables: dict[str, str]) -> set[str]:
    """Variables that hold the CUDA install's root (by name, or by a value that is one)."""
    roots: set[str] = set()
    for _ in range(4):  # CUDA_HOME = $(CUDA_PATH): a few levels
        for name, value in variables.items():
            v = value.strip()
            ref = _VAR_REF.fullmatch(v)
            if (re.fullmatch(_CUDA_ROOT_LITERAL, v) or (ref and ref.group(1) in roots)
                    or (_CUDA_ROOT_VAR_NAME.match(name) and "cuda" in v.lower() and not NVCC_WORD.match(v))):
                roots.add(name)
    return roots


def path_edit(word: str, roots: set[str]) -> str | None:
    """`-I$(CUDA_PATH)/include` -> `-I$(ROCM_PATH)/include`, `/usr/local/cuda/lib64` -> `$(ROCM_PATH)/lib`."""
    names = "|".join(re.escape(r) for r in sorted(roots))
    root = _CUDA_ROOT_LITERAL + (rf"|\$\((?:{names})\)|\$\{{(?:{names})\}}" if names else "")
    m = re.fullmatch(rf"(-I|-L|-isystem|-Wl,-rpath,|-Wl,-rpath=|)[\"']?(?:{root})/({_SUBDIRS})/?[\"']?", word)
    if m is None:
        return None
    return f"{m.group(1)}$(ROCM_PATH)/{_SUBDIR[m.group(2)]}"


# ---- make's grammar --------------------------------------------------------------------------

@dataclass
class Word:
    text: str
    start: int  # offsets in the logical line
    end: int


def split_words(text: str, start: int = 0, end: int | None = None) -> list[Word]:
    """Shell-like words of text[start:end]: quotes and $(...) / ${...} keep their spaces,
    `\\` + newline separates."""
    end = len(text) if end is None else end
    words: list[Word] = []
    i = start
    while i < end:
        c = text[i]
        if c in " \t\r\n":
            i += 1
            continue
        if c == "\\" and i + 1 < end and text[i + 1] in "\r\n":
            i += 2
            continue
        first, depth, quote = i, 0, ""
        while i < end:
            c = text[i]
            if quote:
                if c == "\\" and quote == '"' and i + 1 < end and text[i + 1] not in "\r\n":
                    i += 2
                    continue
                if c == quote:
                    quote = ""
                i += 1
                continue
            if c in "'\"":
                quote = c
            elif c == "$" and i + 1 < end and text[i + 1] in "({":
                depth += 1
                i += 1
            elif c in ")}" and depth:
                depth -= 1
            elif c == "\\" and i + 1 < end:
                if text[i + 1] in "\r\n":
                    break
                i += 1
            elif c in " \t\r\n" and not depth:
                break
            i += 1
        words.append(Word(text[first:i], first, i))
    return words


_ASSIGN = re.compile(r"^\s*(?:(?:export|override|private)\s+)*([\w.\-/]+)\s*(::=|:::=|:=|\?=|\+=|!=|=)")
_INCLUDE = re.compile(r"^\s*(?:-include|sinclude|include)\s+(.*)$")
_SEPARATORS = frozenset({"&&", "||", ";", "|", "(", ")"})
# make's default values of the variables a recipe names its compilers by
MAKE_DEFAULTS = {"CC": "cc", "CXX": "g++", "CPP": "$(CC) -E", "LD": "ld", "AR": "ar"}
HOST_COMPILER = re.compile(r"^(?:.*/)?(?:[\w.-]+-)?(?:gcc|g\+\+|cc|c\+\+|clang|clang\+\+|icc|icpc|icx|icpx|"
                           r"mpicc|mpicxx|mpic\+\+|mpiCC)(?:-\d+(?:\.\d+)*)?$")


@dataclass
class Logical:
    """One logical line: physical lines joined by `\\` continuations."""
    number: int  # 1-based line of its first physical line
    text: str  # with its continuations and final newline
    recipe: bool = False


def logical_lines(text: str) -> list[Logical]:
    lines: list[Logical] = []
    physical = text.splitlines(keepends=True)
    i = 0
    while i < len(physical):
        first = i
        while i < len(physical) and _continues(physical[i]):
            i += 1
        i += 1
        lines.append(Logical(first + 1, "".join(physical[first:i])))
    in_rule = False
    for line in lines:
        body = line.text
        if body.startswith("\t") and in_rule:
            line.recipe = True
            continue
        code = _code(body).strip()
        if not code:
            continue  # blank lines and comments keep a rule going
        if _ASSIGN.match(code) or _INCLUDE.match(code) or re.match(r"(?:ifn?eq|ifn?def|else|endif|define|endef)\b", code):
            in_rule = False if not re.match(r"(?:ifn?eq|ifn?def|else|endif)\b", code) else in_rule
            continue
        in_rule = ":" in code
    return lines


def _continues(line: str) -> bool:
    body = line.rstrip("\r\n")
    return len(body) != len(line) and (len(body) - len(body.rstrip("\\"))) % 2 == 1


def _code(text: str) -> str:
    """A non-recipe line without its comment (`#` not escaped)."""
    m = re.search(r"(?<!\\)#", text)
    return text[:m.start()] if m else text


@dataclass
class MakeContext:
    """What a make file sees besides its own text: the variables of the files it includes, and
    (for an included file) which programs the including files' commands run its variables with."""
    variables: dict[str, str] = field(default_factory=dict)
    rocm_root: str = "/opt/rocm"
    roles: dict[str, set[str]] = field(default_factory=dict)


def assignments(text: str, variables: dict[str, str] | None = None) -> dict[str, str]:
    """The file's variables after reading it (`+=` appends, `?=` sets only once), over `variables`."""
    found = dict(variables or {})
    for line in logical_lines(text):
        if line.recipe:
            continue
        code = _code(line.text.replace("\\\n", " "))
        m = _ASSIGN.match(code)
        if m is None:
            continue
        name, op, value = m.group(1), m.group(2), code[m.end():].strip()
        if op == "+=":
            found[name] = (found.get(name, "") + " " + value).strip()
        elif op == "?=":
            found.setdefault(name, value)
        elif op != "!=":
            found[name] = value
    return found


def includes(text: str) -> list[str]:
    """The files an `include` names (variables left unexpanded are skipped)."""
    found = []
    for line in logical_lines(text):
        m = None if line.recipe else _INCLUDE.match(_code(line.text.replace("\\\n", " ")))
        if m:
            found += [w.text for w in split_words(m.group(1)) if "$" not in w.text]
    return found


class _Rewriter:
    def __init__(self, text: str, archs: list[str], context: MakeContext) -> None:
        self.text = text
        self.archs = archs
        self.variables = assignments(text, context.variables)
        self.roots = _cuda_roots(self.variables)
        self.context = context
        self.roles = self._roles()
        self.rdc = self._relocatable()
        for name, roles in context.roles.items():
            self.roles.setdefault(name, set()).update(roles)
        self.rewrites: list[Rewrite] = []
        self.pending_notes: list[str] = []

    # -- what runs what ------------------------------------------------------------------------
    def program(self, word: str) -> str:
        """'nvcc', 'host' or 'other' for a command's first word, make variables expanded."""
        for _ in range(8):
            word = word.lstrip("@+-")
            if NVCC_WORD.match(word):
                return "nvcc"
            if HOST_COMPILER.match(word):
                return "host"
            ref = _VAR_REF.fullmatch(word)
            if ref is None:
                return "other"
            value = self.variables.get(ref.group(1), MAKE_DEFAULTS.get(ref.group(1), ""))
            words = value.split()
            if not words:
                return "other"
            word = words[0]
        return "other"

    def commands(self, words: list[Word]) -> list[tuple[str, list[Word]]]:
        """A recipe's words split into shell commands, each with its program."""
        out: list[tuple[str, list[Word]]] = []
        current: list[Word] = []
        for w in [*words, None]:
            if w is None or w.text in _SEPARATORS:
                while current and re.fullmatch(r"\w+=\S*", current[0].text):
                    current = current[1:]  # `VAR=x cmd`: the command is cmd
                if current:
                    out.append((self.program(current[0].text), current))
                current = []
            else:
                current.append(w)
        return out

    def _roles(self) -> dict[str, set[str]]:
        """Variable -> the programs of the commands that use it (through other variables too)."""
        roles: dict[str, set[str]] = {}

        def mark(text: str, role: str, depth: int = 0) -> None:
            for name in _VAR_REF.findall(text):
                if role not in roles.setdefault(name, set()) and depth < 8:
                    roles[name].add(role)
                    mark(self.variables.get(name, ""), role, depth + 1)

        for line in logical_lines(self.text):
            if line.recipe:
                for role, words in self.commands(split_words(line.text)):
                    mark(" ".join(w.text for w in words[1:]), role)
                    mark(words[0].text, role)
        return roles

    def expand(self, words: list[str], depth: int = 0) -> list[str]:
        """Words with whole-word variable references replaced by their values' words."""
        out: list[str] = []
        for w in words:
            ref = _VAR_REF.fullmatch(w)
            if ref is not None and depth < 8:
                value = self.variables.get(ref.group(1), MAKE_DEFAULTS.get(ref.group(1), ""))
                out += self.expand([x.text for x in split_words(value)], depth + 1)
            else:
                out.append(w)
        return out

    def _relocatable(self) -> bool:
        """Does some nvcc command compile relocatable device code (`-dc`, `-rdc=true`)? nvcc then
        device-links at the final link by itself; hipcc only when that link says -fgpu-rdc too."""
        for line in logical_lines(self.text):
            if line.recipe:
                for role, words in self.commands(split_words(line.text)):
                    if role == "nvcc" and RDC_WORDS & set(self.expand([w.text for w in words])):
                        return True
        return False

    def _rdc_link(self, words: list[str]) -> bool:
        """Is this nvcc command a link of relocatable device code that lacks -fgpu-rdc?"""
        return self.rdc and not (set(self.expand(words)) & (RDC_WORDS | NOT_LINKING))

    # -- rewriting ------------------------------------------------------------------------------
    def edits_for(self, roles: set[str], words: list[str], command: bool = False) -> list[Edit]:
        """Edits of `words` used by programs `roles` ({"nvcc"}, {"host"}, both ...). `command`:
        the words are a host compiler's command line (it gets HIP's macro and include folder)."""
        host = "host" in roles
        if "nvcc" in roles:
            edits = word_edits(words, self.archs, runtime_lib=host)  # hipcc adds HIP's runtime itself
            if command and self._rdc_link(words):
                first = next((e for e in edits if e[0] == 0), None)
                edits = [e for e in edits if e is not first] + [(0, 1, [*(first[2] if first else words[:1]), "-fgpu-rdc"])]
        else:
            edits = []
            lib_done = False
            for i, w in enumerate(words):
                if host and w in CUDA_RUNTIME_LIBS:
                    edits.append((i, 1, [] if lib_done else HIP_RUNTIME_LIB))
                    lib_done = True
            if host and command and _compiles(words):
                has_include = any((path_edit(w, self.roots) or w) == "-I$(ROCM_PATH)/include" for w in words)
                edits.append((0, 1, [words[0], *HIP_HOST_FLAGS[:1 if has_include else 2]]))
        taken = {k for i, span, _ in edits for k in range(i, i + span)}
        for i, w in enumerate(words):
            if i in taken:
                continue
            new = path_edit(w, self.roots)
            if new is not None:
                edits.append((i, 1, [new]))
            elif "nvcc" in roles and w in UNPORTABLE:
                self.pending_notes.append(f"nvcc {w} ({UNPORTABLE[w]}) left as is: hipcc has no counterpart")
        return sorted(edits)

    def rewrite(self) -> tuple[str, list[Rewrite]]:
        out: list[str] = []
        for line in logical_lines(self.text):
            self.pending_notes: list[str] = []
            new, changes = self.rewrite_line(line)
            out.append(new)
            self.rewrites += [(line.number + on, c) for on, c in changes]
            self.rewrites += [(line.number, c) for c in self.pending_notes]
        text = "".join(out)
        changed = first_difference(self.text, text)
        if changed is not None:  # never a file make reads differently: the original, and why
            return self.text, [(changed, "not rewritten: the rewrite would change how make reads this line; "
                                         "port the file by hand")]
        if "$(ROCM_PATH)" in text and "ROCM_PATH" not in self.variables:
            text, at = _define_rocm_path(text, self.context.rocm_root)  # two lines after line `at`
            self.rewrites = [(n + 2 if n > at else n, c) for n, c in self.rewrites]  # lines of the ported file
            self.rewrites.append((at + 2, f"added ROCM_PATH ?= {self.context.rocm_root}"))
        return text, sorted(self.rewrites)

    def rewrite_line(self, line: Logical) -> tuple[str, list[tuple[int, str]]]:
        text = line.text
        if line.recipe:
            body = text.lstrip("\t").lstrip("@+- ")
            if body.startswith("#"):
                return text, []  # a shell comment: kept, tab and all
            words = split_words(text)
            cut = next((k for k, w in enumerate(words) if w.text.startswith("#")), len(words))
            edits: list[tuple[Word, Word, list[str]]] = []
            for role, command in self.commands(words[:cut]):
                for i, span, new in self.edits_for({role}, [w.text for w in command], command=True):
                    edits.append((command[i], command[i + span - 1], new))
            return self._apply(text, edits)
        code = _code(text)
        if not code.strip():
            return text, []
        m = _ASSIGN.match(code)
        if m is not None:
            roles = self.roles.get(m.group(1), set()) or {"nvcc"}  # unused here: maybe by a file including this one
            words = split_words(text, m.end(), len(code))
            edits = self.edits_for(roles, [w.text for w in words])
            return self._apply(text, [(words[i], words[i + span - 1], new) for i, span, new in edits])
        if _INCLUDE.match(code) or re.match(r"\s*(?:ifn?eq|ifn?def|else|endif|define|endef|export|unexport|vpath)\b", code):
            return text, []
        # a rule line: only paths (`target: $(CUDA_PATH)/include/x.h`)
        words = split_words(text, 0, len(code))
        edits = self.edits_for(set(), [w.text for w in words])
        return self._apply(text, [(words[i], words[i + span - 1], new) for i, span, new in edits])

    def _apply(self, text: str, edits: list[tuple[Word, Word, list[str]]]) -> tuple[str, list[tuple[int, str]]]:
        """The line with `edits` made, and each change with the physical line (from 0) it is on."""
        changes = []
        for first, last, new in sorted(edits, key=lambda e: e[0].start, reverse=True):
            start, end = first.start, last.end
            on = text.count("\n", 0, start)
            old = text[start:end]
            if new:
                replacement = " ".join(new)
            else:
                replacement = ""
                before = start
                while before > 0 and text[before - 1] in " \t":
                    before -= 1
                if before > 0 and text[before - 1] not in "\r\n":
                    start = before  # the words and the blanks before them
                else:
                    while end < len(text) and text[end] in " \t":
                        end += 1  # a physical line's first words and the blanks after them
                    rest = text[end:end + 3].lstrip("\\")
                    if end == len(text) or text[end] in "\r\n" or (text[end] == "\\" and rest[:1] in ("\r", "\n")):
                        start = before  # nothing (but a continuation) left on it: no blanks either
            text = text[:start] + replacement + text[end:]
            changes.append((on, describe(old.split(), new)))
        return text, changes[::-1]


def shape(text: str) -> list[tuple[int, str]]:
    """How make reads a file, line by line: (first line, what it is) for every logical line that
    is not blank or a comment: a recipe line, an assignment to NAME, an include, a conditional,
    a rule."""
    found = []
    for line in logical_lines(text):
        code = line.text if line.recipe else _code(line.text)
        if not code.strip():
            continue
        if line.recipe:
            found.append((line.number, "recipe"))
        elif (m := _ASSIGN.match(code)) is not None:
            found.append((line.number, "assign " + m.group(1)))
        elif _INCLUDE.match(code):
            found.append((line.number, "include"))
        elif (c := re.match(r"\s*(ifn?eq|ifn?def|else|endif|define|endef|export|unexport|vpath)\b", code)) is not None:
            found.append((line.number, c.group(1)))
        else:
            found.append((line.number, "rule" if ":" in code else "other"))
    return found


def first_difference(old: str, new: str) -> int | None:
    """The first line (of `old`) where `new` reads differently to make, or None."""
    a, b = shape(old), shape(new)
    for (line, what), (_, other) in zip(a, b):
        if what != other:
            return line
    if len(a) != len(b):
        return a[min(len(a), len(b))][0] if len(a) > len(b) else (a[-1][0] if a else 1)
    return None


def _define_rocm_path(text: str, root: str) -> tuple[str, int]:
    """Put `ROCM_PATH ?= root` (and a comment line) after the file's leading comments; returns the
    text and the number of lines before them."""
    lines = text.splitlines(keepends=True)
    at = 0
    while at < len(lines) and lines[at].lstrip().startswith("#"):
        at += 1
    # (a comment after a value would be part of it: make keeps the blanks before the `#`)
    block = f"# cass-cc port: HIP's install, for the include/ and lib/ that were CUDA's\nROCM_PATH ?= {root}\n"
    lines.insert(at, block)
    return "".join(lines), at


def names_nvcc(text: str) -> bool:
    """Whether the file names nvcc outside its comments (`NVCC=nvcc` included)."""
    for line in logical_lines(text):
        code = line.text if line.recipe else _code(line.text)
        m = None if line.recipe else _ASSIGN.match(code)
        if any(NVCC_WORD.match(w.text) for w in split_words(code, m.end() if m else 0)):
            return True
    return False


def uses_nvcc(text: str, context: MakeContext) -> bool:
    """Does a make file name nvcc, get it from a file it includes, or lend its variables to
    commands of a file that does (context.roles: only such files' commands are counted)?"""
    return (names_nvcc(text) or bool(context.roles)
            or any(NVCC_WORD.match(v.split()[0]) for v in context.variables.values() if v.split()))


def rewrite_makefile(text: str, archs: list[str], context: MakeContext | None = None) -> tuple[str, list[Rewrite]]:
    """The ported make file and its rewrites. A file that names nvcc neither itself nor through
    the files it includes (context.variables) is left alone: a plain C Makefile keeps its flags."""
    context = context or MakeContext()
    if not uses_nvcc(text, context):
        return text, []
    return _Rewriter(text, archs, context).rewrite()


def variable_roles(text: str, variables: dict[str, str]) -> dict[str, set[str]]:
    """Variable -> the programs ("nvcc", "host", "other") of this file's commands that use it."""
    return _Rewriter(text, [], MakeContext(variables)).roles


def included_make_files(files: dict[str, str]) -> dict[str, list[str]]:
    """For make files of a tree (rel path -> text): rel -> the tree's files it includes, in
    order (paths resolved from the including file's folder, the one make runs in)."""
    found: dict[str, list[str]] = {}
    for rel, text in files.items():
        folder = PurePosixPath(rel).parent
        found[rel] = [_normal(folder / name) for name in includes(text)]
    return found


def _normal(path: PurePosixPath) -> str:
    parts: list[str] = []
    for part in path.parts:
        if part == "..":
            if parts:
                parts.pop()
        elif part != ".":
            parts.append(part)
    return "/".join(parts)
