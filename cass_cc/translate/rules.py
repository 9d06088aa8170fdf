"""The built-in rule-based CUDA -> HIP translator.

It works on tokens (lexer.py), never on raw text, so comments and string literals are
left alone while macro bodies and #if conditions are translated. What it does:

* renames identifiers found in the mapping tables (mappings.py), unless the name is a
  member (`x.cudaMalloc`, `p->cudaMalloc`) or qualified by a namespace (`ns::cudaMalloc`);
* rewrites `#include <cuda_runtime.h>` and friends to the HIP headers;
* on HIP < 6.2 rewrites the *_sync warp functions to the mask-less HIP forms, and
  `__reduce_*_sync`/`__match_*_sync` to helpers (prelude.py);
* does the rewrites a rename cannot (rewrites.py): HIP_SYMBOL, __launch_bounds__,
  programs redefining functions HIP has, 32-lane assumptions on wave64 targets;
* reports CUDA names with no HIP counterpart on the target as warnings.

Kernel launches `k<<<g, b, shm, s>>>(args)` are left as they are: clang's HIP mode
accepts the triple-chevron syntax natively (it lowers to hipLaunchKernel with the same
semantics as hipLaunchKernelGGL), which keeps every line intact and avoids having to
parse template arguments of the kernel name; macros that expand to chevrons, template
kernels (`k<T, U<V>><<<`) and line breaks around the chevrons work as they are. Only
chevrons split by spaces, comments or line breaks (`k << < g, b >> > (x)`, which nvcc
accepts) are joined (rewrites.launch_chevrons), what lay between them kept after them.

Line structure is preserved: the output is a prelude (prelude.py), then `#line 1 "<file>"`, then the
input with every original line on its original line number (rewrites keep the newlines
of the text they replace).
"""
from __future__ import annotations

import bisect
import functools
import re
from pathlib import Path

from . import mappings, ptx, refusable, rewrites
from .corrected import CORRECTED, helper_name
from .identity import rules_identity
from .prelude import BF16_HEADER, BF16_NAMES, FP16_NAMES, SIMD_NAMES, bf16_stand_in, prelude
from .served import ATOMIC_OVERLOADED, is_served, served_names
from .base import Diagnostic, Target, Translation
from .lexer import SIGNIFICANT_SKIP, Token, tokenize
from .windows import Touched, Windows


# CUDA-looking identifiers that should have a table row; those without one are reported.
CUDA_NAME = re.compile(r"(?:cuda|cu)[A-Z]\w*|cublas\w*|curand\w*|cusparse\w*|cufft\w*")

INVENTORY_NAMES = Path(__file__).resolve().parent.parent / "inventory" / "data" / "names.tsv"


@functools.lru_cache(maxsize=None)
def _inventory_names() -> frozenset[str] | None:
    """Every public name of CUDA's headers (cass_cc/inventory), where the inventory is there."""
    try:
        with open(INVENTORY_NAMES, encoding="utf-8") as f:
            return frozenset(line.split("\t", 1)[0] for line in f if line[:1] not in ("#", "\n"))
    except OSError:
        return None


def is_cuda_name(name: str) -> bool:
    """Is a CUDA-looking name without a table row one of CUDA's own (worth a warning)? With the
    inventory, only its names are; without it, every CUDA_NAME one may be. A program's
    `cudaCheck` is neither reported (it declares it, or its headers do) nor, with the
    inventory, ever taken for CUDA's."""
    names = _inventory_names()
    return names is None or name in names


def no_counterpart(name: str) -> str:
    """The warning for a CUDA name without a table row (the driver drops it where the user's
    own headers declare the name)."""
    return f"'{name}' has no known HIP counterpart"


def declared_names(source: str) -> set[str]:
    """The CUDA-looking names without a table row that `source` declares or #defines (a
    header's `#define cudaCheck(x)`, its own `cudaError_t cuLogsCurrent(...)` stand-in)."""
    return _Job(tokenize(source), Target()).user_names


# CUDA headers whose contents HIP (before the version given) lacks; prelude.py has them.
# cuda_fp16.h: HIP 5.2's hip_fp16.h here and the ROCm 6-era amd_hip_fp16.h Triton bundles both
# declare the __half operators __device__ only; the prelude's templates yield to HIP's own
# functions wherever both exist, so on a HIP that has them it is text that goes unused.
HEADER_HELPERS = {"cooperative_groups/reduce.h": (6, 0), "cuda_fp16.h": (7, 0)}
# HIP libraries that keep CUDA's header paths and pick their CUDA backend when `__CUDACC__` is
# defined (rocThrust: thrust/detail/config/compiler.h). cass-cc's build defines `__CUDACC__` for the
# program's own guards, so on HIP-clang (`__HIP__`) these headers are included with it hidden.
CUDACC_BLIND_HEADERS = ("thrust/",)
_HIDE_CUDACC = '#ifdef __HIP__\n#pragma push_macro("__CUDACC__")\n#undef __CUDACC__\n#endif\n'
_SHOW_CUDACC = '\n#ifdef __HIP__\n#pragma pop_macro("__CUDACC__")\n#endif'
# CUDA's thrust headers bring in the execution policies (thrust::device, thrust::host) through any
# algorithm or vector header; rocThrust's do not, so the first thrust include also includes them.
THRUST_POLICIES = "thrust/execution_policy.h"


# HIP version whose thread_block_tile has meta_group_rank()/meta_group_size() (6.0); before it,
# served.py's helpers stand in.
CG_TILE_META_HIP = (6, 0)

# HIP version from which the *_sync warp functions exist (with 64-bit masks).
WARP_SYNC_HIP = (6, 2)

# Rewrites for HIP < 6.2: CUDA name -> (HIP name, number of leading arguments dropped).
# The expression forms that need the wave size are built in _warp_replacement.
WARP_SYNC_FALLBACK: dict[str, tuple[str, int]] = {
    "__shfl_sync": ("__shfl", 1),
    "__shfl_up_sync": ("__shfl_up", 1),
    "__shfl_down_sync": ("__shfl_down", 1),
    "__shfl_xor_sync": ("__shfl_xor", 1),
    "__any_sync": ("__any", 1),
    "__all_sync": ("__all", 1),
    "__ballot_sync": ("__ballot", 1),
    "__activemask": ("__ballot", 0),
    "__syncwarp": ("", 0),
    # No HIP counterpart at all before 6.2: helpers from prelude.py, over 32-lane groups.
    "__reduce_add_sync": ("__cass_reduce_add", 0),
    "__reduce_min_sync": ("__cass_reduce_min", 0),
    "__reduce_max_sync": ("__cass_reduce_max", 0),
    "__reduce_and_sync": ("__cass_reduce_and", 0),
    "__reduce_or_sync": ("__cass_reduce_or", 0),
    "__reduce_xor_sync": ("__cass_reduce_xor", 0),
    "__match_any_sync": ("__cass_match_any", 0),
    "__match_all_sync": ("__cass_match_all", 0),
}

# Votes whose mask limits which lanes take part (HIP's take every active lane).
_MASKED_VOTES = frozenset({"__ballot_sync", "__any_sync", "__all_sync"})

# __syncwarp on HIP < 6.2: a helper from prelude.py (a wave barrier with its memory ordering on
# AMD, CUDA's own __syncwarp on HIP's NVIDIA platform).
SYNCWARP_EXPR = "__cass_syncwarp()"

# Keywords after which `cudaFoo(` is a use, not a declaration of a user's function.
_EXPR_KEYWORDS = frozenset(
    {"return", "else", "case", "throw", "new", "delete", "sizeof", "co_return", "co_yield", "do",
     "defined", "if", "elif", "ifdef", "ifndef", "undef"}
)
# Words that may come before a declaration's type (`static inline char* cudaName(int)`).
_DECL_SPECIFIERS = frozenset({"static", "inline", "extern", "const", "constexpr", "volatile", "__host__", "__device__",
                              "__global__", "__forceinline__", "__inline__", "virtual", "friend", "typedef", "unsigned",
                              "signed", "long", "short", "struct", "class", "union", "enum", "typename", "mutable"})
_TAG_KEYWORDS = frozenset({"struct", "union", "enum", "class"})
_OPEN = {"(": ")", "[": "]", "{": "}"}
_BRACES = frozenset({"{", "}"})


class RulesTranslator:
    name = "rules"

    def __init__(self, windows: bool = True) -> None:
        self.windows = windows  # lex only the lines that can need work (windows.py)

    def identity(self) -> str:
        return rules_identity()

    def translate(self, source: str, filename: str, target: Target) -> Translation:
        job = self._run(source, target)
        head = prelude(job.emitted) + f'#line 1 "{_escape(filename)}"\n'
        diagnostics = tuple(job.diagnostics) + half2_member_warnings(source)
        unsupported = job.unsupported
        if diagnostics:  # none in #if branches the preprocessor certainly drops
            diagnostics, unsupported = _live_only(source, diagnostics, job)
        return Translation(
            text=head + "".join(job.out),
            translator=self.identity(),
            diagnostics=diagnostics,
            unsupported=tuple(sorted(unsupported)),
        )


    def _run(self, source: str, target: Target) -> _Job:
        # On wave64 every number is work (lane arithmetic); a string or char literal whose
        # backslash ends in CR-LF splits that line break in two, which windows.py's line
        # count would not.
        runs = _split_launch_runs(source)
        if self.windows and target.wave_size != 64 and "\\\r" not in source:
            uses = _uses(source) + runs
            view = Windows(source, uses, functools.partial(_work_indices, kinds=_WORK_KINDS))
            while True:
                tokens, out, work = view.build()
                try:
                    job = _Job(tokens, target, out, work, launches=bool(runs))
                    job.run()
                    return job
                except Touched as touched:  # a rule read past the lines lexed
                    if not view.widen(touched):
                        break
        job = _Job(tokenize(source), target, launches=bool(runs))
        job.run()
        return job


# CUDA's __half2 has members x and y of type __half; HIP's (5.2 here, and the header Triton
# bundles) has x and y as the raw 16-bit patterns (unsigned short), so `h2.x` compiles and reads
# a wrong value (`float f = h2.x;` converts the bit pattern) or picks a wrong overload. A read
# of .x/.y (or ->x/->y) is flagged, once a variable, where the variable's latest declaration
# before it is a __half2/half2 one (names are reused: `half2 add(half2 a, ...)` beside
# `float2 add(float2 a, ...)`).
_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_HALF2_DECL = re.compile(r"\b(?:__)?half2\b(?:\s*(?:\*|&|\bconst\b|\bvolatile\b|\b__restrict__\b))*\s*([A-Za-z_]\w*)\s*(?![\w(])")
_DECL = r"\b(\w+)\s*(?:(?:[*&]|\bconst\b|\bvolatile\b|\b__restrict__\b)\s*)*\b{name}\s*(?=[,;=)\[])"
_MEMBER = r"\b{name}\s*(?:\[[^\[\]]*\]\s*)?(?:\.|->)\s*[xy]\b"


def half2_member_warnings(source: str) -> tuple[Diagnostic, ...]:
    if "half2" not in source:
        return ()
    code = _COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), source)
    names = {m.group(1) for m in _HALF2_DECL.finditer(code)} - {"const", "volatile", "__restrict__"}
    found: list[Diagnostic] = []
    for name in sorted(names):
        decls = [(m.start(), m.group(1) in ("half2", "__half2")) for m in re.finditer(_DECL.format(name=re.escape(name)), code)]
        for use in re.finditer(_MEMBER.format(name=re.escape(name)), code):
            latest = [half2 for start, half2 in decls if start < use.start()]
            if not latest or not latest[-1]:
                continue
            line = code.count("\n", 0, use.start()) + 1
            column = use.start() - code.rfind("\n", 0, use.start())
            found.append(Diagnostic(line, column, "warning",
                                    f"'{use.group(0)}': HIP's __half2 holds .x/.y as raw 16-bit patterns (unsigned short), "
                                    "CUDA's as __half; read the halves with __low2half()/__high2half()"))
            break
    return tuple(sorted(found, key=lambda d: (d.line, d.column)))


def _live_only(source: str, diagnostics: tuple[Diagnostic, ...], job: _Job) -> tuple[tuple[Diagnostic, ...], set[str]]:
    """The diagnostics outside branches the preprocessor certainly drops (conditions.py), and
    the unsupported names without a report in a live or unknown branch."""
    from .conditions import dead_lines

    dead = dead_lines(source)
    if not dead:
        return diagnostics, job.unsupported
    starts = [first for first, _ in dead]

    def is_dead(line: int) -> bool:
        k = bisect.bisect_right(starts, line) - 1
        return k >= 0 and line <= dead[k][1]

    quiet = {name for _, name in job.reported} - {name for line, name in job.reported if not is_dead(line)}
    return tuple(d for d in diagnostics if not is_dead(d.line)), job.unsupported - quiet


def _escape(filename: str) -> str:
    return filename.replace("\\", "\\\\").replace('"', '\\"')


# Identifiers without a table row that can still need work: CUDA-looking names (reported),
# "__" names (warp helpers, SIMD intrinsics, __launch_bounds__), and those below.
_CANDIDATE_PREFIXES = frozenset({"cu", "__"})
_CANDIDATE_NAMES = frozenset({"operator", *rewrites.HIP_DEFINES, *ptx.ASM_KEYWORDS, *served_names(), *CORRECTED,
                              *rewrites.CG_TILE_MEMBERS, *rewrites.BUILTIN_COORDINATES, *refusable.candidates()})
# Directives that only ask about a name (`#ifdef NOMINMAX`): never a use to refuse.
_ASKING_DIRECTIVES = frozenset({"if", "elif", "ifdef", "ifndef", "elifdef", "elifndef", "undef"})
_WORK_KINDS = frozenset({"ident", "header"})
_WORK_KINDS_WAVE64 = _WORK_KINDS | {"number"}  # lane arithmetic is flagged on wave64
_WORD = re.compile(r"[A-Za-z_]\w*")


@functools.lru_cache(maxsize=None)
def _active_names() -> frozenset[str]:
    """Names whose uses can change a translation (besides CUDA_NAME ones): every other
    identifier the rules visit goes through `_identifier` untouched, as do table rows
    that keep their name on every HIP version (`sqrt`, `__syncthreads`)."""
    renamed = {name for name, row in mappings.table().items()
               if row.hip_name != name or row.status != "supported" or row.hip_version is not None}
    return frozenset({*renamed, *WARP_SYNC_FALLBACK, *SIMD_NAMES, *served_names(), *CORRECTED, *rewrites.CG_TILE_MEMBERS,
                      *rewrites.BUILTIN_COORDINATES,
                      *refusable.candidates(), "__launch_bounds__", "operator",
                      *rewrites.HIP_DEFINES, *ptx.ASM_KEYWORDS, "include", "include_next", "import"})


# Launch chevrons split by what the lexer makes space, newline, continuation or comment tokens
# of (`<< <`, `> >>`, `<<\n<`, `>> /* c */ >`): rewrites.launch_chevrons joins them, acting
# only on runs holding a `<<` or `>>` token (as Visual Studio's formatting and line breaks leave
# them). Such a run is found from `<<`/`>>` beside a gap character, a search for a literal that
# costs next to nothing; the whole run is then matched at that spot.
_GAP = r"(?:[\s\\]|/\*.*?(?:\*/|\Z)|//(?:[^\n\r\\]|\\[ \t]*(?:\r\n|\n|\r)|\\)*)*"
_SPLIT_HINTS = (re.compile(r"<<(?:[\s\\/]|(?<=[\s\\/]..))"), re.compile(r">>(?:[\s\\/]|(?<=[\s\\/]..))"))
_SPLIT_AFTER = {"<": re.compile(rf"<<{_GAP}<", re.S), ">": re.compile(rf">>{_GAP}>", re.S)}
_SPLIT_BEFORE = {"<": re.compile(rf"<{_GAP}<<", re.S), ">": re.compile(rf">{_GAP}>>", re.S)}
_UNSPLIT = (re.compile("<<<"), re.compile(">>>"))
_BACK_REACH = 400  # characters looked back for the `<` of a `< <<` run


def _split_launch_runs(source: str) -> list[int]:
    """Where the split chevron runs of `source` start and end, and where its `<<<`/`>>>` are
    (a split closer's opener may be whole), when it has a split run; else nothing."""
    found: list[int] = []
    for hint in _SPLIT_HINTS:
        for m in hint.finditer(source):
            p = m.start()
            char = source[p]
            run = _SPLIT_AFTER[char].match(source, p)
            if run is not None and run.end() - p > 3:
                found += (run.start(), run.end() - 1)
                continue
            begin = max(0, p - _BACK_REACH)
            for back in _SPLIT_BEFORE[char].finditer(source, begin, p + 2):
                if back.end() == p + 2 and back.end() - back.start() > 3:
                    found += (back.start(), back.end() - 1)
    if found:
        found += [m.start() for pattern in _UNSPLIT for m in pattern.finditer(source)]
    return found


_STATIC_DEVICE = re.compile(r"\bstatic\s+(__(?:constant|device|managed)__)\b|\b(__(?:constant|device|managed)__)\s+static\b")


def _uses(source: str) -> list[int]:
    """Positions of the active names in `source` (a superset of where tokens with those
    names start: comments and strings, longer words, are left to the lexer to tell)."""
    words = set(_WORD.findall(source))
    names = _active_names().intersection(words)
    names |= {w for w in words if w[:2] == "cu" and CUDA_NAME.fullmatch(w)}
    positions: list[int] = []
    if "static" in words:  # static device variables (rewrites.static_device_variable)
        positions += [m.start(m.lastindex) for m in _STATIC_DEVICE.finditer(source)]
    find = source.find
    for name in names:
        i = find(name)
        while i >= 0:
            positions.append(i)
            i = find(name, i + len(name))
    return positions


def _work_indices(tokens: list[Token], kinds: frozenset[str]) -> list[int]:
    """The tokens that may need work; most tokens need none."""
    table = mappings.table()
    return [
        i for i, t in enumerate(tokens)
        if t.kind in kinds and (t.kind != "ident" or t.text[:2] in _CANDIDATE_PREFIXES
                                or t.text in table or t.text in _CANDIDATE_NAMES)
    ]


class _Job:
    """One translation: token list in, output texts (one per token) out."""

    def __init__(self, tokens: list[Token], target: Target, out: list[str] | None = None,
                 work: list[int] | None = None, launches: bool = False) -> None:
        """`out` and `work` come with a token list from windows.py (its edges have no text
        to read); otherwise they are made here. `launches`: the source splits a launch's
        chevrons somewhere (`k << < g, b >> > (x)`), to be joined."""
        self.launches = launches
        self.tokens = tokens
        self.target = target
        self.out = [t.text for t in tokens] if out is None else out
        self.diagnostics: list[Diagnostic] = []
        self.unsupported: set[str] = set()
        self.reported: list[tuple[int, str]] = []  # (line, name) of each unsupported-name warning
        self.emitted: set[str] = set()  # HIP names written, for the prelude
        self.table = mappings.table()
        kinds = _WORK_KINDS_WAVE64 if target.wave_size == 64 else _WORK_KINDS
        self.work = _work_indices(tokens, kinds) if work is None else work
        self._braces: list[int] | None = None
        self._aliases: set[str] | None = None
        self._using: frozenset[str] | None = None
        self.user_names = self._user_declared_names()

    # -- navigation -------------------------------------------------------------------------
    def braces(self) -> list[int]:
        """Indices of the `{` and `}` tokens, in order (made on first use)."""
        if self._braces is None:
            try:
                self._braces = [i for i, t in enumerate(self.tokens) if t.kind == "punct" and t.text in _BRACES]
            except Touched as touched:
                touched.whole = True  # no use lexing a few more lines
                raise
        return self._braces

    def prev_sig(self, i: int, back: int = 1) -> Token | None:
        tokens = self.tokens
        while i > 0:
            i -= 1
            if tokens[i].kind not in SIGNIFICANT_SKIP:
                back -= 1
                if back == 0:
                    return tokens[i]
        return None

    def prev_sig_index(self, i: int) -> int | None:
        tokens = self.tokens
        while i > 0:
            i -= 1
            if tokens[i].kind not in SIGNIFICANT_SKIP:
                return i
        return None

    def next_sig_index(self, i: int) -> int | None:
        tokens = self.tokens
        for j in range(i + 1, len(tokens)):
            if tokens[j].kind not in SIGNIFICANT_SKIP:
                return j
        return None

    # -- passes -----------------------------------------------------------------------------
    def _user_declared_names(self) -> set[str]:
        """CUDA-looking names without a table row that this file itself declares or #defines,
        anywhere in it (`#define cudaCheck(x)`, `cudaError_t cudaStatus;`, `char* cudaName(int)`,
        `int& cudaRef = x;`, `typedef struct {...} cudaThing;`, `enum { cudaMineA, cudaMineB }`,
        a macro's parameter): not reported as unsupported."""
        names: set[str] = set()
        for i in self.work:
            tok = self.tokens[i]
            own_kept = tok.text in ATOMIC_OVERLOADED or tok.text in CORRECTED  # served unless the file has its own
            if tok.kind != "ident" or (tok.text in self.table and not own_kept):
                continue
            if not (tok.text[:2] == "cu" and CUDA_NAME.fullmatch(tok.text) or tok.text in refusable.candidates()
                    or own_kept):
                continue
            if tok.text in names:
                continue
            prev = self.prev_sig(i)
            if prev is None:
                continue
            if prev.kind == "directive" and prev.directive == "define":
                names.add(tok.text)
            elif prev.kind == "ident" and prev.text not in _EXPR_KEYWORDS and prev.directive is None:
                if prev.text in _TAG_KEYWORDS and not self._tag_defined(i):
                    continue  # `struct cudaX *p`: a use of CUDA's tag, not the program's own
                names.add(tok.text)
            elif tok.directive == "define" and prev.text in ("(", ",") and self._in_macro_params(i):
                names.add(tok.text)
            elif prev.kind == "punct" and self._declared_after(i, prev.text):
                names.add(tok.text)
        return names

    def _tag_defined(self, i: int) -> bool:
        """After `struct`/`union`/`enum`/`class`: is the name at i defined here (`struct X {`,
        `struct X : Base {`) or declared alone (`struct X;`), rather than used (`struct X *p`)?"""
        nxt = self.next_sig_index(i)
        return nxt is not None and self.tokens[nxt].text in ("{", ":", ";")

    def _declared_after(self, i: int, prev: str) -> bool:
        """Is the name at i, after the punctuator `prev`, declared there: `T* name`, `T& name`
        (at a statement's or parameter's start), `} name;`, an enumerator?"""
        nxt = self.next_sig_index(i)
        after = self.tokens[nxt].text if nxt is not None else ""
        if prev in ("*", "&", "&&", "**"):
            if after not in ("=", ";", ",", ")", "[", "(", "{"):
                return False
            k = self.prev_sig_index(i)
            while k is not None and self.tokens[k].text in ("*", "&", "&&", "const"):
                k = self.prev_sig_index(k)
            if k is None or not (self.tokens[k].kind == "ident" and self.tokens[k].text not in _EXPR_KEYWORDS
                                 or self.tokens[k].text in (">", ">>")):
                return False
            start = self.prev_sig_index(k)
            while start is not None and self.tokens[start].text in _DECL_SPECIFIERS:
                start = self.prev_sig_index(start)
            if start is None or self.tokens[start].kind == "directive":
                return True
            opener = self.tokens[start].text
            if after == "(":
                # `T* name(` declares a function only where a declaration starts: after `(`, `,` or a
                # comparison's `>` it is an operand (`(v1 & __rhadd(v1, v6))`, `(a > b * min(c, d))`),
                # and taking it for a declaration would turn off the file's corrected __rhadd/min
                return opener in (";", "{", "}") or opener == ">" and self._closes_template(start)
            return opener in (";", "{", "}", "(", ",", ">")
        if prev == "}":
            return after in (";", ",")
        if prev in ("{", ",") and after in ("=", ",", "}"):
            return self._in_enum_body(i)
        return False

    def _closes_template(self, i: int) -> bool:
        """Does the `>` at i close a `template <...>` header?"""
        depth = 0
        k: int | None = i
        while k is not None:
            text = self.tokens[k].text
            if text in (">", ">>"):
                depth += len(text)
            elif text == "<":
                depth -= 1
                if depth == 0:
                    before = self.prev_sig_index(k)
                    return before is not None and self.tokens[before].text == "template"
            elif text in (";", "{", "}"):
                return False
            k = self.prev_sig_index(k)
        return False

    def _in_enum_body(self, i: int) -> bool:
        """Is token i directly inside the braces of an `enum ... { }`?"""
        depth = 0
        k = self.prev_sig_index(i)
        while k is not None:
            text = self.tokens[k].text
            if text in (")", "]", "}"):
                depth += 1
            elif text in ("(", "["):
                if depth == 0:
                    return False
                depth -= 1
            elif text == "{":
                if depth == 0:
                    break
                depth -= 1
            elif text == ";" and depth == 0:
                return False
            k = self.prev_sig_index(k)
        for _ in range(6):  # enum [class|struct] [Name] [: type] {
            k = self.prev_sig_index(k) if k is not None else None
            if k is None:
                return False
            if self.tokens[k].text == "enum":
                return True
            if self.tokens[k].text in (";", "{", "}", "=", ")"):
                return False
        return False

    def _in_macro_params(self, i: int) -> bool:
        """Is the identifier at i a parameter of a function-like #define?"""
        k = self.prev_sig_index(i)
        while k is not None:
            tok = self.tokens[k]
            if tok.text == "(":
                name_i = self.prev_sig_index(k)
                directive_i = self.prev_sig_index(name_i) if name_i is not None else None
                return (name_i is not None and self.tokens[name_i].kind == "ident" and directive_i is not None
                        and self.tokens[directive_i].kind == "directive" and k == name_i + 1)
            if tok.text != "," and tok.kind != "ident":
                return False
            k = self.prev_sig_index(k)
        return False

    def run(self) -> None:
        tokens = self.tokens
        done = 0  # a rewrite may consume tokens past the one that started it
        for i in self.work:
            if i < done:
                continue
            tok = tokens[i]
            if tok.kind == "ident":
                if tok.text in ptx.ASM_KEYWORDS:
                    rewrite = ptx.rewrite_asm(tokens, i, self.target)
                    if rewrite is not None:
                        done = self._asm(i, rewrite)
                        continue
                done = self._identifier(i)
            elif tok.kind == "header":
                self._include(i)
            elif tok.kind == "number":
                rewrites.lane_assumption(self, i)
        if self.launches:
            rewrites.launch_chevrons(self)

    def _asm(self, i: int, rewrite: "ptx.AsmRewrite") -> int:
        """Inline PTX: the rewrite replaces the whole asm(...), or it is left for a model."""
        self.diagnostics.extend(rewrite.diagnostics)
        if rewrite.supported:
            self.out[i] = rewrite.text
            for j in range(i + 1, rewrite.end):
                self.out[j] = ""
            self.emitted |= rewrite.helpers
        else:
            self.unsupported.add("asm")  # rules could not serve it: the chain may ask a model
        return rewrite.end

    def _include(self, i: int) -> None:
        tok = self.tokens[i]
        name = tok.text[1:-1].strip()
        row = mappings.lookup_header(name)
        quoted = tok.text.startswith('"')
        if row is None:
            if quoted or name in self.target.user_headers:
                return
            if name.startswith(CUDACC_BLIND_HEADERS):
                self._hide_cudacc(i)
                return
            if name in refusable.headers():
                self._refuse_header(i, name, f"is not supported by HIP {_ver(self.target)}")  # CUPTI, nvperf ...
            elif name.startswith("cuda/"):  # libcu++ (`<cuda/barrier>`, `<cuda/std/atomic>`)
                self._refuse_header(i, name, f"is libcu++, which HIP {_ver(self.target)} has no counterpart for")
            return
        if row.hip_name == BF16_HEADER and not quoted and bf16_stand_in(self.target.hip_version):
            self.out[i] = "<hip/hip_runtime.h>"
            self.emitted.add("cuda_bf16.h")  # prelude_bf16.h stands in for the header
            self.emitted.add("header:" + name)  # and CUDA's guard macros for it
            return
        if row.available_on(self.target.hip_version):
            self.out[i] = f"<{row.hip_name}>"
            self.emitted.add("header:" + name)  # CUDA's guard and version macros (served.py)
            if name in HEADER_HELPERS and self.target.hip_version < HEADER_HELPERS[name]:
                self.emitted.add(name)  # prelude.py supplies what the HIP header lacks
        elif quoted or name in self.target.user_headers:
            return  # "cuda_fp8.h" in quotes, or found on the user's -I path, is the program's own file
        elif row.status in ("supported", "deprecated") and row.hip_name and row.hip_version:
            need = ".".join(map(str, row.hip_version))
            self._refuse_header(i, name, f"needs HIP {need} (<{row.hip_name}>); target is HIP {_ver(self.target)}")
        else:
            self._refuse_header(i, name, f"is not supported by HIP {_ver(self.target)}")

    def _hide_cudacc(self, i: int) -> None:
        """Include the header at token i with `__CUDACC__` hidden on HIP-clang (CUDACC_BLIND_HEADERS);
        #line directives keep the lines after it numbered as in the source."""
        start = i
        while start > 0 and self.tokens[start].kind != "directive":
            start -= 1
        line = self.tokens[start].line
        self.out[start] = f"{_HIDE_CUDACC}#line {line}\n{self.out[start]}"
        also = ""
        if self.tokens[i].text[1:-1].startswith("thrust/") and "thrust:policies" not in self.emitted:
            self.emitted.add("thrust:policies")
            also = f"\n#include <{THRUST_POLICIES}>"
        self.out[i] = f"{self.out[i]}{also}{_SHOW_CUDACC}\n#line {self.tokens[i].line + 1}"

    def _refuse_header(self, i: int, name: str, why: str) -> None:
        """A CUDA header HIP has nothing for: the #include becomes an #error that says so, where
        the program includes it (a branch the preprocessor drops stays quiet)."""
        start = i
        while start > 0 and self.tokens[start].kind != "directive":
            start -= 1
        self.unsupported.add(name)
        message = f"cass-cc: CUDA header <{name}> {why}".replace("\\", "\\\\").replace('"', '\\"')
        self.out[start] = "#error"
        self.out[i] = f'"{message}"'

    def _identifier(self, i: int) -> int:
        tok = self.tokens[i]
        name = tok.text
        row = self.table.get(name)
        if row is None and name[:2] not in _CANDIDATE_PREFIXES and name not in _CANDIDATE_NAMES:
            return i + 1  # most identifiers: nothing to do (the fast path)
        if name in WARP_SYNC_FALLBACK and (row is None or row.family == "device") and not self._qualified(i):
            return self._warp(i, row)
        if name == "__launch_bounds__":
            rewrites.launch_bounds(self, i)
            return i + 1
        if name in SIMD_NAMES and not self._qualified(i):
            self.out[i] = "__cass" + name  # a helper from prelude.py: HIP 5.2 has none of these
            self.emitted.add(self.out[i])
            return i + 1
        if name == "operator":
            after = rewrites.vector_operator(self, i)
            return after if after is not None else i + 1
        if name in rewrites.HIP_DEFINES and not self._qualified(i) and rewrites.redefinition(self, i):
            return i + 1
        if name in rewrites.DEVICE_VARIABLE_SPACES:
            after = rewrites.static_device_variable(self, i)
            if after is not None:
                return after
        if name in rewrites.BUILTIN_COORDINATES and not self._qualified(i) and name not in self.user_names:
            after = rewrites.coordinate(self, i)
            if after is not None:
                return after
        if name in rewrites.CG_TILE_MEMBERS and self.target.hip_version < CG_TILE_META_HIP:
            after = rewrites.tile_member(self, i)
            if after is not None:
                return after
        if name in CORRECTED and name not in self.user_names and not self._qualified(i):
            self.out[i] = helper_name(name)  # corrected.py: HIP's own gives other results than CUDA's
            self.emitted.add("corrected:" + CORRECTED[name])
            if row is not None and row.family == "bf16" and bf16_stand_in(self.target.hip_version):
                self.emitted.add("cuda_bf16.h")
            return i + 1
        served = is_served(name, self.target.hip_version)
        if served is not None and name in ATOMIC_OVERLOADED and name in self.user_names:
            served = None  # the program defines its own atomicMin(long long*, ...): ours would clash
        if served is not None and not self._qualified(i):
            self.emitted.add("served:" + served.key)  # served.py defines it in the prelude
            return i + 1
        if row is None:
            if (CUDA_NAME.fullmatch(name) and name not in self.user_names and not self._qualified(i)
                    and is_cuda_name(name)):
                self._report(tok, name, no_counterpart(name))
            elif name in refusable.candidates():
                self._refuse_name(i)
            return i + 1
        if self._qualified(i):
            return i + 1
        if row.kind == "namespace" and not self._namespace_use(i):
            return i + 1  # a variable or member that happens to be called `cub`
        if row.family == "bf16" and name in BF16_NAMES and bf16_stand_in(self.target.hip_version):
            self.out[i] = row.hip_name or name
            self.emitted.add("cuda_bf16.h")  # defined by prelude_bf16.h
            return i + 1
        if (name in FP16_NAMES and not row.available_on(self.target.hip_version)
                and self.target.hip_version < HEADER_HELPERS["cuda_fp16.h"]):
            self.out[i] = name
            self.emitted.add("cuda_fp16.h")  # defined by prelude_fp16.h
            return i + 1
        if row.available_on(self.target.hip_version):
            self.out[i] = row.hip_name
            self.emitted.add(row.hip_name)
            if row.hip_name in rewrites.SYMBOL_ARGS:
                rewrites.symbol_arg(self, i, row.hip_name)
            if row.status == "deprecated":
                self.note(tok, f"'{name}' is deprecated; translated to '{row.hip_name}'")
            return i + 1
        if row.status in ("supported", "deprecated") and row.hip_name and row.hip_version:
            self.out[i] = row.hip_name
            need = ".".join(map(str, row.hip_version))
            self._report(tok, name, f"'{name}' needs HIP {need} ('{row.hip_name}'); target is HIP {_ver(self.target)}")
        else:
            self._report(tok, name, f"'{name}' is not supported by HIP {_ver(self.target)}"
                                    + (" (deprecated in CUDA)" if row.status == "deprecated" else ""))
        return i + 1

    def _refuse_name(self, i: int) -> None:
        """A CUDA name nothing provides on this HIP (refusable.py): say so where it is used as
        CUDA's (a member after `.`/`->`, a namespace's name after `ns::`, a global name alone),
        never where the program declares it or only asks about it (`#ifdef`)."""
        tok = self.tokens[i]
        where = refusable.lookup(tok.text, self.target.hip_version)
        if not where or tok.text in self.user_names or tok.directive in _ASKING_DIRECTIVES:
            return
        if tok.text in self.unsupported:
            return  # said once, at its first use (a WMMA kernel names `fragment` dozens of times)
        prev = self.prev_sig(i)
        if prev is not None and prev.text in (".", "->", ".*", "->*"):
            hit = refusable.member_of(where)
        elif self._qualified(i):
            hit = refusable.namespaced(where) if self._cuda_namespace(i) else None
        else:
            hit = refusable.unqualified(where)
            if hit is None and refusable.namespaced(where) is not None:
                used = self._used_namespaces()  # `using namespace cooperative_groups;` then `this_thread()`
                hit = next((w for w in where if w.scope.split("::")[0] in used), None)
        if hit is not None:
            self._report(tok, tok.text, f"{refusable.describe(tok.text, hit, where)} is not supported by HIP {_ver(self.target)}")

    def _cuda_namespace(self, i: int) -> bool:
        """Is the name at i qualified by one of CUDA's namespaces or an alias of one made here
        (`cg::`, `cooperative_groups::details::`, `nvcuda::wmma::`), judged by the leftmost?"""
        first = None
        k = self.prev_sig_index(i)
        while k is not None and self.tokens[k].text == "::":
            k = self.prev_sig_index(k)
            if k is None or self.tokens[k].kind != "ident":
                break
            first = self.tokens[k].text
            k = self.prev_sig_index(k)
        return first is not None and (first in refusable.NAMESPACES or first in self._namespace_aliases())

    def _namespace_aliases(self) -> set[str]:
        """`namespace cg = cooperative_groups;` -> {"cg"} (made on first use)."""
        if self._aliases is None:
            aliases = set()
            for k in self._every("namespace"):
                name = self.next_sig_index(k)
                eq = self.next_sig_index(name) if name is not None else None
                if eq is not None and self.tokens[eq].text == "=":
                    target = self.next_sig_index(eq)
                    if target is not None and self.tokens[target].text == "::":
                        target = self.next_sig_index(target)
                    if target is not None and self.tokens[target].text in refusable.NAMESPACES:
                        aliases.add(self.tokens[name].text)
            self._aliases = aliases
        return self._aliases

    def _used_namespaces(self) -> frozenset[str]:
        """CUDA's namespaces this file brings in whole (`using namespace cg;`)."""
        if self._using is None:
            used = set()
            for k in self._every("namespace"):
                before = self.prev_sig(k)
                nxt = self.next_sig_index(k)
                if before is not None and before.text == "using" and nxt is not None:
                    name = self.tokens[nxt].text
                    used.add("cooperative_groups" if name in self._namespace_aliases() else name)
            self._using = frozenset(used)
        return self._using

    def _every(self, word: str) -> list[int]:
        """Indices of every identifier token `word` in the file (all lines lexed for it)."""
        try:
            return [k for k, t in enumerate(self.tokens) if t.kind == "ident" and t.text == word]
        except Touched as touched:
            touched.whole = True
            raise

    def _namespace_use(self, i: int) -> bool:
        """`cub::`, `namespace cub`, `using namespace cub` -- not a variable named `cub`."""
        nxt = self.next_sig_index(i)
        if nxt is not None and self.tokens[nxt].text == "::":
            return True
        prev = self.prev_sig(i)
        return prev is not None and prev.text == "namespace"

    def _qualified(self, i: int) -> bool:
        """True for members (`a.x`, `a->x`) and names qualified by a namespace (`ns::x`)."""
        prev = self.prev_sig(i)
        if prev is None or prev.kind != "punct":
            return False
        if prev.text in (".", "->", ".*", "->*"):
            return True
        if prev.text == "::":
            before = self.prev_sig(i, 2)
            return before is not None and (before.kind == "ident" or before.text == ">")
        return False

    # -- warp functions -----------------------------------------------------------------------
    def _warp(self, i: int, row: mappings.Mapping | None) -> int:
        tok = self.tokens[i]
        if self.target.hip_version >= WARP_SYNC_HIP:
            self.note(tok, f"'{tok.text}' kept: HIP >= 6.2 has it with a 64-bit mask"
                            " (define HIP_ENABLE_WARP_SYNC_BUILTINS)")
            return i + 1
        call = self.call_args(i)
        if call is None:
            self._report(tok, tok.text, f"'{tok.text}' is not called; HIP {_ver(self.target)} has no such function")
            return i + 1
        close, args = call
        j = i + 1
        while j < close:  # translate what the arguments contain first
            j = self._identifier(j) if self.tokens[j].kind == "ident" else j + 1
        hip_name, dropped = WARP_SYNC_FALLBACK[tok.text]
        if len(args) < dropped or (dropped and not self._significant(args[0])):
            self._report(tok, tok.text, f"'{tok.text}' called with too few arguments")
            return i + 1
        if dropped:
            rewrites.full_mask_on_wave64(self, args[0])
        if hip_name.startswith("__cass_"):
            self.emitted.add(hip_name)
        kept = args[dropped:]
        # newlines inside the dropped part stay, so every later line keeps its number
        dropped_lines = "".join(self.newlines(a) for a in args[:dropped])
        kept_text = ",".join("".join(self.out[j] for j in a) for a in kept)
        if dropped and kept_text.startswith(" "):
            kept_text = kept_text[1:]
        mask = self._partial_mask(args[0]) if dropped and tok.text in _MASKED_VOTES else None
        if tok.text == "__syncwarp":
            text = SYNCWARP_EXPR + "".join(self.newlines(a) for a in args)
            self.emitted.add("__cass_syncwarp")
        elif tok.text == "__activemask":
            text = self._ballot_expr("1")
        elif tok.text == "__ballot_sync":
            text = self._ballot_expr(dropped_lines + kept_text)
            if mask is not None:  # only the mask's lanes vote (CUDA); HIP's ballot has every active lane
                text = f"({text} & ({mask}))"
            dropped_lines = ""
        elif mask is not None:  # __any_sync/__all_sync over the mask's lanes only
            votes = f"({self._ballot_expr(dropped_lines + kept_text)} & ({mask}))"
            text = (f"({votes} != 0u)" if tok.text == "__any_sync"
                    else f"({votes} == ({self._ballot_expr('1')} & ({mask})))")
            dropped_lines = ""
        elif tok.text == "__shfl_sync" and len(kept) == 3:
            # CUDA takes the source lane modulo the width; HIP 5.2's __shfl adds it to the
            # segment's first lane as it is, reaching into the next segment.
            var, lane, width = (" ".join("".join(self.out[j] if self.tokens[j].kind not in SIGNIFICANT_SKIP else " "
                                                for j in a).split()) for a in kept)
            text = f"{hip_name}({var}, ({lane}) & (({width}) - 1), {width})" + "".join(self.newlines(a) for a in args)
        else:
            text = f"{hip_name}({dropped_lines}{kept_text})"
            dropped_lines = ""
        if dropped_lines:
            text += dropped_lines
        self.out[i] = text
        for j in range(i + 1, close + 1):
            self.out[j] = ""
        return close + 1

    def _partial_mask(self, indices: list[int]) -> str | None:
        """A vote's mask as text, unless it is the whole (32-lane) warp or the target runs 64-lane
        waves (there the rules keep HIP's wave-wide votes and warn about literal masks)."""
        text = " ".join("".join(self.out[k] if self.tokens[k].kind not in SIGNIFICANT_SKIP else " " for k in indices).split())
        if self.target.wave_size != 32 or text.replace(" ", "") in rewrites.FULL_MASKS:
            return None
        return text

    def _significant(self, indices: list[int]) -> bool:
        return any(self.tokens[k].kind not in SIGNIFICANT_SKIP for k in indices)

    def _ballot_expr(self, arg: str) -> str:
        if self.target.wave_size == 32:
            return f"((unsigned int)__ballot({arg}))"
        return f"__ballot({arg})"

    def newlines(self, indices: list[int]) -> str:
        parts = []
        for j in indices:
            tok = self.tokens[j]
            if tok.kind == "newline":
                parts.append(tok.text)
            elif tok.kind == "continuation":
                parts.append(tok.text)
            elif tok.kind in ("comment", "string", "raw_string"):
                parts.append("\n" * _count_lines(tok.text))
        return "".join(parts)

    def call_args(self, i: int) -> tuple[int, list[list[int]]] | None:
        """For a name at i followed by `(`: (index of the closing paren, token indices of each
        argument, split on top-level commas). Commas inside (), [], {} and template
        argument lists do not split. None when there is no call or it is unbalanced."""
        open_i = self.next_sig_index(i)
        if open_i is None or self.tokens[open_i].text != "(":
            return None
        args: list[list[int]] = [[]]
        stack: list[str] = [")"]
        for j in range(open_i + 1, len(self.tokens)):
            tok = self.tokens[j]
            text = tok.text
            if tok.kind == "punct":
                if text in _OPEN:
                    stack.append(_OPEN[text])
                elif text == "<" and self._template_open(j):
                    stack.append(">")
                elif text in (">", ">>") and stack[-1] == ">":
                    stack.pop()
                    if text == ">>" and stack[-1] == ">":
                        stack.pop()
                elif text in (")", "]", "}"):
                    if text != stack[-1]:
                        return None
                    stack.pop()
                    if not stack:
                        return j, args
                elif text == ";":
                    return None
                elif text == "," and len(stack) == 1:
                    args.append([])
                    continue
            args[-1].append(j)
        return None

    def _template_open(self, j: int) -> bool:
        """Is the `<` at j the start of a template argument list? It is when it follows a
        name and a matching `>` comes before anything that cannot be in one."""
        prev = self.prev_sig(j)
        if prev is None or prev.kind != "ident":
            return False
        angles = 0
        parens = 0
        for k in range(j, len(self.tokens)):
            text = self.tokens[k].text
            if text == "<":
                angles += 1
            elif text in (">", ">>") and parens == 0:  # `f<(a >> b)>`: inside parentheses it is a shift
                angles -= len(text)
                if angles <= 0:
                    return True
            elif text in ("(", "["):
                parens += 1
            elif text in (")", "]"):
                parens -= 1
                if parens < 0:
                    return False
            elif text in (";", "{", "}", "&&", "||"):
                return False
        return False

    # -- diagnostics --------------------------------------------------------------------------
    def _report(self, tok: Token, name: str, message: str) -> None:
        self.unsupported.add(name)
        self.reported.append((tok.line, name))
        self.diagnostics.append(Diagnostic(tok.line, tok.col, "warning", message))

    def warn(self, tok: Token, message: str) -> None:
        """A warning about code that translated but may not behave the same."""
        self.diagnostics.append(Diagnostic(tok.line, tok.col, "warning", message))

    def note(self, tok: Token, message: str) -> None:
        self.diagnostics.append(Diagnostic(tok.line, tok.col, "note", message))


def _ver(target: Target) -> str:
    return f"{target.hip_version[0]}.{target.hip_version[1]}"


def _count_lines(text: str) -> int:
    return text.count("\n") + text.count("\r") - text.count("\r\n")
