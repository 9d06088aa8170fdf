"""Rewrites a rename cannot do (issue: built-in hipify, item 3), called by rules.py.

Each function takes the translation job (job.Job, which rules._Job is: tokens, their output texts, the
navigation helpers) and the index of the identifier that triggered it, edits
`job.out`, and returns the index to continue from. Every rewrite keeps the newlines of
what it replaces, so lines keep their numbers.

- `symbol_arg`: `cudaMemcpyToSymbol(sym, ...)` and friends take `HIP_SYMBOL(sym)`.
- `launch_bounds`: `__launch_bounds__(threads, minBlocks[, maxCluster])` keeps only the
  thread count: CUDA's second argument (blocks per SM) means something else in HIP
  (waves per execution unit), and HIP has no third.
- `redefinition`: a program's own `atomicMax(float*, float)` and the like, which CUDA
  lacks but HIP defines, is renamed so that HIP's (same meaning) serves the calls.
- `lane_assumption`: on wave64 targets, literal 32-lane masks and `& 31`-style lane
  arithmetic are flagged (on wave32, the default for RDNA, they are exact).
- `static_device_variable`: a `static __constant__`/`__device__` variable at namespace scope goes
  into an anonymous namespace (clang 15's -fgpu-rdc loses its uses otherwise).
- `tile_member`: `tile.meta_group_rank()`/`meta_group_size()` -> served.py's helpers (HIP < 6).
- `launch_chevrons`: `k << < g, b >> > (args)` (Visual Studio's formatting), line breaks or
  comments between the chevrons: made `<<<`/`>>>`, the only spelling clang lexes as a launch.
- `coordinate`: `blockDim.x` alone as an argument, initializer or return value -> `(unsigned)blockDim.x`.
"""
from __future__ import annotations

import bisect
from collections.abc import Iterator

from .job import Job

# HIP name -> index of the argument that names a device symbol.
SYMBOL_ARGS = {
    "hipMemcpyToSymbol": 0,
    "hipMemcpyToSymbolAsync": 0,
    "hipMemcpyFromSymbol": 1,
    "hipMemcpyFromSymbolAsync": 1,
    "hipGetSymbolAddress": 1,
    "hipGetSymbolSize": 1,
}

# Functions CUDA lacks for these argument types but HIP defines: name -> parameter type
# lists (normalised: no names, no spaces) that HIP already has.
HIP_DEFINES = {
    "atomicMax": {("float*", "float"), ("double*", "double")},
    "atomicMin": {("float*", "float"), ("double*", "double")},
    "atomicAdd": {("double*", "double")},
}

FULL_MASKS = {"0xffffffff", "0xFFFFFFFF", "0xffffffffu", "0xFFFFFFFFu", "0xffffffffU", "0xFFFFFFFFU", "~0u", "~0U"}


def symbol_arg(job: Job, i: int, hip_name: str) -> None:
    """Wrap the symbol argument of a (renamed) symbol call at i in HIP_SYMBOL(...)."""
    call = job.call_args(i)
    if call is None:
        return
    _, args = call
    index = SYMBOL_ARGS[hip_name]
    if index >= len(args):
        return
    sig = [k for k in args[index] if job.tokens[k].kind not in _SKIP]
    if not sig:
        return
    first, last = sig[0], sig[-1]
    if job.tokens[first].text == "HIP_SYMBOL" or job.tokens[first].kind in ("string", "raw_string"):
        return
    job.out[first] = "HIP_SYMBOL(" + job.out[first]
    job.out[last] = job.out[last] + ")"


def launch_bounds(job: Job, i: int) -> None:
    call = job.call_args(i)
    if call is None:
        return
    close, args = call
    if len(args) < 2:
        return
    # Drop ", minBlocks[, maxCluster]": blank from the first top-level comma to the close.
    first_comma = args[0][-1] + 1 if args[0] else None
    if first_comma is None:
        return
    for k in range(first_comma, close):
        tok = job.tokens[k]
        job.out[k] = tok.text if tok.kind in ("newline", "continuation") else ""
    tok = job.tokens[i]
    job.note(tok, "__launch_bounds__ keeps the thread count only: CUDA's minimum blocks per "
                   "multiprocessor has no HIP equivalent")


def redefinition(job: Job, i: int) -> bool:
    """Rename a program's own definition of a function HIP already defines. True if done."""
    name = job.tokens[i].text
    prev = job.prev_sig(i)
    if prev is None or prev.kind != "ident" or prev.text in ("return", "else"):
        return False  # a call, not a declaration
    call = job.call_args(i)
    if call is None:
        return False
    close, args = call
    after = job.next_sig_index(close)
    if after is None or job.tokens[after].text != "{":
        return False
    types = tuple(_param_type(job, a) for a in args)
    if types not in HIP_DEFINES[name]:
        return False
    job.out[i] = f"cass_program_{name}"
    job.note(job.tokens[i], f"the program's own {name}({', '.join(types)}) is renamed: HIP defines it, "
                             "and its version serves the calls")
    return True


_TYPE_WORDS = frozenset({"int", "float", "double", "unsigned", "long", "short", "char", "signed", "bool"})


def _param_type(job: Job, indices: list[int]) -> str:
    """'float* address' -> 'float*'; 'const double v' -> 'double'."""
    toks = [job.tokens[k] for k in indices if job.tokens[k].kind not in _SKIP]
    words = [t.text for t in toks if t.text not in ("const", "volatile", "__restrict__", "restrict")]
    if len(words) >= 2 and toks[-1].kind == "ident" and words[-1] not in _TYPE_WORDS:
        words = words[:-1]  # the parameter's name
    return "".join(words)


def lane_assumption(job: Job, i: int) -> None:
    """On wave64: flag `& 31` / `% 32` / `/ 32` lane arithmetic (call at the number token)."""
    if job.target.wave_size != 64:
        return
    tok = job.tokens[i]
    prev = job.prev_sig(i)
    if tok.text in ("31", "32") and prev is not None and prev.text in ("&", "%", "/"):
        job.warn(tok, f"'{prev.text} {tok.text}' assumes 32-lane warps; the target runs 64-lane waves")


def full_mask_on_wave64(job: Job, mask_indices: list[int]) -> None:
    """A literal 32-bit full mask passed to a *_sync function, on a wave64 target."""
    if job.target.wave_size != 64:
        return
    toks = [job.tokens[k] for k in mask_indices if job.tokens[k].kind not in _SKIP]
    text = "".join(t.text for t in toks)
    if text in FULL_MASKS and toks:
        job.warn(toks[0], f"mask '{text}' names 32 lanes; the target runs 64-lane waves")


_SKIP = frozenset({"space", "newline", "continuation", "comment"})


# -- kernel launches with split chevrons ------------------------------------------------------
# nvcc reads `<< <`, `< <<`, `>> >`... as a launch's chevrons; clang's HIP mode only lexes
# `<<<` and `>>>` whole. A split opener after a callee (a name, `)`, `]`, a template's `>`)
# is never valid C++ otherwise (`a << <b` is not an expression); `operator<< <T>` (an
# explicit specialization or call of operator<<) is, and stays. A split closer alone is valid
# C++ (`f<A<B<int>> >(x)`), so one is joined only as the partner of an opener, the first
# run of three `>` at parenthesis depth 0 that a `(` follows; or alone, as the end of a
# #define body that is nothing else (`#define CLOSE >> >`); a split opener may end any
# #define body (`#define LAUNCH(k) k << <`).
_OPENERS = ("<", "<<")
_CLOSERS = (">", ">>")


def launch_chevrons(job: Job) -> None:
    """Join every split launch chevron pair (called when the source has a split run)."""
    from .windows import Edge

    tokens = job.tokens
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if type(tok) is Edge or tok.kind != "punct" or tok.text not in _OPENERS:
            i += 1
            continue
        run = _chevron_run(job, i, _OPENERS)
        if run is None or not _callee_before(job, i):
            i = run[-1] + 1 if run else i + 1
            continue
        closer = _launch_closer(job, run[-1])
        if closer is not None:
            _join(job, closer)
        if closer is not None or _ends_define(job, run[-1]):
            _join(job, run)
        i = (closer or run)[-1] + 1
    for i, tok in enumerate(tokens):  # closers of openers in other macros: `#define CLOSE >> >`
        if type(tok) is not Edge and tok.kind == "punct" and tok.text in _CLOSERS and tok.directive == "define":
            run = _chevron_run(job, i, _CLOSERS)
            if run is not None and _ends_define(job, run[-1]) and _whole_body(job, run[0]):
                _join(job, run)


def _chevron_run(job: Job, i: int, kinds: tuple[str, str]) -> list[int] | None:
    """Indices of the chevron tokens of the run starting at i, when it is exactly three
    chevrons in at most two tokens and not part of a longer run; else None."""
    prev = job.prev_sig(i)
    if prev is not None and prev.text in kinds:
        return None
    run = [i]
    count = len(job.tokens[i].text)
    while count < 3 and len(run) < 2:
        j = job.next_sig_index(run[-1])
        if j is None or job.tokens[j].text not in kinds or job.tokens[j].kind != "punct":
            return None
        if job.tokens[j].directive != job.tokens[i].directive:
            return None  # a #define's body ends at its line
        run.append(j)
        count += len(job.tokens[j].text)
    j = job.next_sig_index(run[-1])
    if count != 3 or (j is not None and job.tokens[j].text in kinds and job.tokens[j].directive == job.tokens[i].directive):
        return None
    return run  # `<<<` whole, or `<<` and `<` (or `<` and `<<`) apart; never `<` `<` `<`


def _callee_before(job: Job, i: int) -> bool:
    prev = job.prev_sig(i)
    if prev is None or prev.directive != job.tokens[i].directive:
        return False
    if prev.kind == "ident":
        return prev.text != "operator"
    return prev.text in (")", "]", ">", ">>")


def _launch_closer(job: Job, last: int) -> list[int] | None:
    """The closing run of the launch whose opener ends at `last`: the first run of three
    `>` at depth 0 followed by `(` (or ending a #define body), before a `;` or brace."""
    tokens = job.tokens
    directive = tokens[last].directive
    depth = 0
    j = last + 1
    while j < len(tokens):
        tok = tokens[j]
        if tok.directive != directive or (directive is not None and tok.kind == "newline"):
            return None  # the #define's body ended
        if tok.kind == "punct":
            text = tok.text
            if text in ("(", "["):
                depth += 1
            elif text in (")", "]"):
                depth -= 1
                if depth < 0:
                    return None
            elif text in (";", "{", "}"):
                return None
            elif depth == 0 and text in _CLOSERS:
                run = _chevron_run(job, j, _CLOSERS)
                if run is not None:
                    after = job.next_sig_index(run[-1])
                    if (after is not None and tokens[after].text == "(" and tokens[after].directive == directive) \
                            or _ends_define(job, run[-1]):
                        return run
                    return None
        j += 1
    return None


def _ends_define(job: Job, last: int) -> bool:
    """Is the token at `last` the end of a #define's body?"""
    if job.tokens[last].directive != "define":
        return False
    after = job.next_sig_index(last)
    return after is None or job.tokens[after].directive != "define" or job.tokens[after].kind == "directive"


def _whole_body(job: Job, first: int) -> bool:
    """Is the run at `first` an object-like macro's whole body (`#define CLOSE >> >`)?
    A body that ends with one may be a template (`#define V std::vector<std::pair<int, W<int>> >`)."""
    name = job.prev_sig_index(first)
    if name is None or job.tokens[name].kind != "ident":
        return False
    head = job.prev_sig_index(name)
    return head is not None and job.tokens[head].kind == "directive"


def _join(job: Job, run: list[int]) -> None:
    """`<<` ` ` `<` -> `<<<` ` `: the chevrons move to the first token, what lay between stays."""
    text = "".join(job.tokens[k].text for k in run)
    if len(run) == 1 or job.out[run[0]] != job.tokens[run[0]].text:
        return
    job.out[run[0]] = text
    for k in run[1:]:
        job.out[k] = ""


# CUDA's vector types have no operators, so programs (helper_math.h and its many copies)
# define them; HIP's vector types have them all, elementwise, and a second definition
# makes every use ambiguous. The program's own are removed where HIP has the same one.
VECTOR_TYPES = frozenset(
    f"{base}{n}"
    for base in ("char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "longlong", "ulonglong",
                 "float", "double")
    for n in (1, 2, 3, 4)
)
VECTOR_OPERATORS = frozenset(
    "+ - * / % & | ^ << >> == != += -= *= /= %= &= |= ^= <<= >>= ~ ++ --".split()
)


def vector_operator(job: Job, i: int) -> int | None:
    """At `operator`: blank a free operator definition on HIP vector types. Returns the
    index after the definition, or None when it is not one to remove."""
    op_i = job.next_sig_index(i)
    if op_i is None or job.tokens[op_i].text not in VECTOR_OPERATORS:
        return None
    call = job.call_args(op_i)
    if call is None:
        return None
    close, args = call
    types = [_param_type(job, a).replace("&", "") for a in args if a]
    if not types or len(types) > 2 or not any(t in VECTOR_TYPES for t in types):
        return None
    if any(t not in VECTOR_TYPES and t.endswith("*") for t in types):
        return None  # pointer arithmetic is not HIP's vector operator
    body = job.next_sig_index(close)
    if body is None or job.tokens[body].text != "{":
        return None
    end = _matching_brace(job, body)
    start = _declaration_start(job, i)
    if end is None or start is None or _inside_class(job, start):
        return None
    for k in range(start, end + 1):
        tok = job.tokens[k]
        job.out[k] = job.newlines([k]) if tok.kind not in ("newline", "continuation") else tok.text
    op = job.tokens[op_i].text
    job.out[start] = f"/* cass-cc: operator{op}({', '.join(types)}) removed: HIP defines it */" + job.out[start]
    job.note(job.tokens[i], f"the program's operator{op}({', '.join(types)}) is removed: HIP's vector types define it")
    return end + 1


def _matching_brace(job: Job, open_i: int) -> int | None:
    depth = 0
    for k in range(open_i, len(job.tokens)):
        text = job.tokens[k].text
        if job.tokens[k].kind != "punct":
            continue
        if text == "{":
            depth += 1
        elif text == "}":
            depth -= 1
            if depth == 0:
                return k
    return None


def _declaration_start(job: Job, i: int) -> int | None:
    """First token of the declaration holding token i (after the previous ; { } or directive line)."""
    tokens = job.tokens
    k = i
    while k > 0:
        k -= 1
        prev = tokens[k]
        if prev.kind in _SKIP:
            continue
        if prev.text in (";", "{", "}") or prev.kind == "directive" or prev.directive is not None:
            if prev.directive is not None and tokens[i].directive is not None:
                return None  # inside a macro: leave it
            start = k + 1
            while start < i and tokens[start].kind in ("space", "newline", "comment"):
                start += 1
            return start
    return 0


def _enclosing_braces(job: Job, start: int) -> Iterator[int]:
    """The `{` of every block around `start`, innermost first."""
    tokens = job.tokens
    braces = job.braces()
    depth = 0
    for b in range(bisect.bisect_left(braces, start) - 1, -1, -1):
        n = braces[b]
        if tokens[n].text == "}":
            depth += 1
        elif depth:
            depth -= 1
        else:
            yield n


def _inside_class(job: Job, start: int) -> bool:
    """Is the declaration at `start` a member (inside struct/class/union braces)?"""
    tokens = job.tokens
    n = next(_enclosing_braces(job, start), None)
    if n is None:
        return False
    seen = 0
    for m in range(n - 1, -1, -1):  # the head of the block: struct X ... {
        head = tokens[m]
        if head.kind in _SKIP:
            continue
        seen += 1
        if head.text in (";", "{", "}") or seen > 40:
            return False
        if head.text in ("struct", "class", "union"):
            return True
    return False


# Cooperative groups' thread_block_tile members HIP 5.x lacks -> helpers (served.py) taking
# the tile: `t.meta_group_rank()` becomes `__cass_meta_group_rank(t)`.
CG_TILE_MEMBERS = {"meta_group_rank": "__cass_meta_group_rank", "meta_group_size": "__cass_meta_group_size"}
_CLOSE = {")": "(", "]": "["}


def tile_member(job: Job, i: int) -> int | None:
    """`obj.meta_group_rank()` / `p->meta_group_size()` at i (the member's name) -> the
    helper call on the object; None (nothing done) unless the object is a plain postfix
    expression (names, `.`, `->`, `::`, calls and subscripts)."""
    dot = job.prev_sig_index(i)
    open_i = job.next_sig_index(i)
    close_i = job.next_sig_index(open_i) if open_i is not None else None
    if (dot is None or job.tokens[dot].text not in (".", "->") or open_i is None or job.tokens[open_i].text != "("
            or close_i is None or job.tokens[close_i].text != ")"):
        return None
    start = _postfix_start(job, job.prev_sig_index(dot))
    if start is None:
        return None
    arrow = job.tokens[dot].text == "->"
    job.out[start] = f"{CG_TILE_MEMBERS[job.tokens[i].text]}({'*' if arrow else ''}" + job.out[start]
    job.out[dot] = ")"
    for k in (i, open_i, close_i):
        job.out[k] = ""
    job.emitted.add("served:cg_tile_meta")
    return close_i + 1


def _postfix_start(job: Job, j: int | None) -> int | None:
    """Index of the first token of the postfix expression ending at j, or None."""
    tokens = job.tokens
    while j is not None:
        text = tokens[j].text
        if text in _CLOSE:
            depth = 0
            while j is not None:
                if tokens[j].text == text:
                    depth += 1
                elif tokens[j].text == _CLOSE[text]:
                    depth -= 1
                    if depth == 0:
                        break
                j = job.prev_sig_index(j)
            if j is None:
                return None
            j = job.prev_sig_index(j)
            continue
        if tokens[j].kind != "ident":
            return None
        before = job.prev_sig_index(j)
        if before is not None and tokens[before].text in (".", "->", "::"):
            j = job.prev_sig_index(before)
            continue
        return j
    return None


# `static __constant__ float c[4];` at namespace scope -> `namespace { __constant__ float c[4]; }`:
# the same internal linkage, but clang 15 with -fgpu-rdc renames a static device variable's
# definition (`c.static.<cuid>`) and not the kernels' references to it, so the device link
# fails with "undefined symbol: c" (cuda-samples' binomialOptions, quasirandomGenerator).
DEVICE_VARIABLE_SPACES = frozenset({"__constant__", "__device__", "__managed__"})


def static_device_variable(job: Job, i: int) -> int | None:
    """At `__constant__`/`__device__` (i): a `static` device variable at namespace scope is put
    in an anonymous namespace; returns the index after its `;`, or None (nothing done)."""
    tokens = job.tokens
    if tokens[i].directive is not None:
        return None
    before, after = job.prev_sig_index(i), job.next_sig_index(i)
    static = next((k for k in (before, after) if k is not None and tokens[k].text == "static"), None)
    if static is None:
        return None
    start = static if static == before else i
    depth = 0
    j = i
    while True:
        j = job.next_sig_index(j)
        if j is None:
            return None
        text = tokens[j].text
        if text in ("(", "[", "{"):
            if text == "(" and depth == 0:
                return None  # a function (or an initializer after `=`, handled below)
            depth += 1
        elif text in (")", "]", "}"):
            depth -= 1
        elif text == "=" and depth == 0:
            break  # an initialized variable: find its `;`
        elif text == ";" and depth == 0:
            break
    while tokens[j].text != ";" or depth:
        if tokens[j].text in ("(", "[", "{"):
            depth += 1
        elif tokens[j].text in (")", "]", "}"):
            depth -= 1
        j = job.next_sig_index(j)
        if j is None:
            return None
    if _inside_class(job, start) or _inside_function(job, start):
        return None
    job.out[static] = "namespace {" if static == before else ""
    if static != before:
        job.out[start] = "namespace { " + job.out[start]
    job.out[j] = "; }"
    return j + 1


def _inside_function(job: Job, start: int) -> bool:
    """Is `start` inside braces that are not a namespace's or an extern "C"'s?"""
    tokens = job.tokens
    for n in _enclosing_braces(job, start):
        head = job.prev_sig_index(n)  # `namespace x {`, `namespace {`, `extern "C" {`
        prev = job.prev_sig_index(head) if head is not None else None
        if head is None or not (tokens[head].text == "namespace" or tokens[head].kind == "string"
                                or (prev is not None and tokens[prev].text == "namespace")):
            return True
    return False


# CUDA's built-in coordinates are uint3/dim3 variables: `blockDim.x` is an unsigned int. HIP's are
# proxy objects that convert to one, which is the same in arithmetic (HIP defines their operators)
# but not where a type is deduced from the operand alone: `t.shfl(blockDim.x, 3)`, `cg::reduce(t,
# threadIdx.x, op)`, `auto n = blockDim.x;`, `std::max(gridDim.x, n)` fail to compile or deduce the
# proxy (found by cass-data fuzz, r2:6/7). Only such bare operands are cast, so ported code keeps
# its spelling elsewhere.
BUILTIN_COORDINATES = frozenset({"threadIdx", "blockIdx", "blockDim", "gridDim"})
_BARE_BEFORE = frozenset({"(", ",", "{", "return"})
_BARE_AFTER = frozenset({")", ",", "}", ";"})


def coordinate(job: Job, i: int) -> int | None:
    """`threadIdx` at i, followed by `.x`/`.y`/`.z`: cast to unsigned where it stands alone;
    the index after the member, or None when i is not such a use."""
    dot = job.next_sig_index(i)
    member = job.next_sig_index(dot) if dot is not None else None
    if member is None or job.tokens[dot].text != "." or job.tokens[member].text not in ("x", "y", "z"):
        return None
    before, after = job.prev_sig(i), job.next_sig_index(member)
    declared = job.prev_sig(i, 3)
    bare = before is not None and (before.text in _BARE_BEFORE
                                   or before.text == "=" and declared is not None and declared.text == "auto")
    if bare and after is not None and job.tokens[after].text in _BARE_AFTER:
        job.out[i] = "(unsigned)" + job.out[i]
    return member + 1
