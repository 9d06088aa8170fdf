"""nvcc argv -> Invocation. A pure function: no globals, no environment, no output."""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

from ..records import factory, record
from . import targets as tg
from .invocation import Input, Invocation, Lang, Phase, UsageError
from .options import (
    BY_SPELLING, CASS_FLAGS, CASS_PREFIX, CASS_VALUES, GLUED, Arity, Disp, Kind, Option,
)

# Highest first: with several phase options nvcc does the one earliest here,
# whatever their order on the command line (checked against nvcc 13.0).
PHASE_ORDER = (
    Phase.HELP, Phase.VERSION, Phase.DEPS, Phase.PREPROCESS, Phase.PTX, Phase.CUBIN,
    Phase.FATBIN, Phase.CUDAFE, Phase.COMPILE, Phase.DLINK, Phase.LIB, Phase.SHARED,
    Phase.LINK,
)
# Phases where -o names the output of a single input.
ONE_OUTPUT = (Phase.PREPROCESS, Phase.DEPS, Phase.COMPILE, Phase.PTX, Phase.CUBIN, Phase.FATBIN,
              Phase.CUDAFE)

SUFFIX_LANG = {
    ".cu": Lang.CU, ".hip": Lang.HIP,
    ".c": Lang.C, ".i": Lang.C,
    ".cc": Lang.CXX, ".cpp": Lang.CXX, ".cxx": Lang.CXX, ".ii": Lang.CXX,
    ".C": Lang.CXX, ".c++": Lang.CXX,  # gcc's, not nvcc's: accepted as a superset
    ".o": Lang.OBJ, ".obj": Lang.OBJ,
    ".a": Lang.LIB, ".so": Lang.LIB, ".lib": Lang.LIB,
    ".ptx": Lang.PTX, ".cubin": Lang.CUBIN, ".fatbin": Lang.CUBIN,
    ".s": Lang.ASM, ".S": Lang.ASM,
}
X_LANG = {"c": Lang.C, "c++": Lang.CXX, "cu": Lang.CU}
OPTF = ("-optf", "--options-file")
FORWARD_COMPILER = ("-forward-unknown-to-host-compiler", "--forward-unknown-to-host-compiler")
FORWARD_LINKER = ("-forward-unknown-to-host-linker", "--forward-unknown-to-host-linker")
FORWARD_BOTH = ("-forward-unknown-opts", "--forward-unknown-opts")
MAX_OPTF_DEPTH = 16


def _read_text(path: str) -> str:
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        return f.read()


def split_list(value: str) -> list[str]:
    """Split an nvcc list value at commas; `\\,` is a literal comma."""
    parts = re.split(r"(?<!\\),", value)
    return [p.replace("\\,", ",") for p in parts]


# nvcc's own words for text it cannot split into arguments (both the variables and options files).
STRAY_QUOTE = "Stray '\"' character"
STRAY_BACKSLASH = "Stray '' character"
_BLANKS = " \t\n\r\f\v"
# nvcc 13 splits the variables at spaces and tabs only: a newline stays inside the word.
_ENV_BLANKS = " \t"


def split_env_flags(text: str) -> list[str]:
    """NVCC_PREPEND_FLAGS / NVCC_APPEND_FLAGS split as nvcc 13 splits them (probed with
    -dryrun): at blanks outside double quotes, the quotes kept in the word (`-DX="a b"`
    defines X as `"a b"`), `\\"` inside quotes not closing them, other backslashes literal
    (a trailing one is then a file name nvcc does not know what to do with)."""
    words: list[str] = []
    word, quoted, started, i = "", False, False, 0
    while i < len(text):
        ch = text[i]
        if quoted and ch == "\\" and text[i + 1:i + 2] == '"':
            word, i = word + '\\"', i + 2
            continue
        if ch in _ENV_BLANKS and not quoted:
            if started:
                words.append(word)
            word, started, i = "", False, i + 1
            continue
        quoted ^= ch == '"'
        word, started, i = word + ch, True, i + 1
    if quoted:
        raise UsageError(STRAY_QUOTE)
    if started:
        words.append(word)
    return words


def split_file_flags(text: str) -> list[str]:
    """An options file split as nvcc 13 splits it: at blanks outside double quotes, the
    quotes removed, a backslash outside quotes taking the next character literally (inside
    them only before a quote); single quotes are plain characters. An unclosed quote or a
    backslash with nothing after it is nvcc's "Stray" error, not a guess."""
    words: list[str] = []
    word, quoted, started, i = "", False, False, 0
    while i < len(text):
        ch = text[i]
        if ch == "\\" and (not quoted or text[i + 1:i + 2] == '"'):
            if i + 1 >= len(text):
                raise UsageError(STRAY_BACKSLASH)
            word, started, i = word + text[i + 1], True, i + 2
            continue
        if ch == '"':
            quoted, started, i = not quoted, True, i + 1
            continue
        if ch in _BLANKS and not quoted:
            if started:
                words.append(word)
            word, started, i = "", False, i + 1
            continue
        word, started, i = word + ch, True, i + 1
    if quoted:
        raise UsageError(STRAY_QUOTE)
    if started:
        words.append(word)
    return words


def _dangling(words: Sequence[str]) -> str | None:
    """The last word, if it is an option whose value would have to come from outside
    `words`: nvcc reads each options file and each NVCC_*_FLAGS variable as a whole, so
    `-o` at the end of one is "argument expected after '-o'", never the next word."""
    i = 0
    while i < len(words):
        tok = words[i]
        i += 1
        if not tok.startswith("-") or tok == "-" or tok.startswith(CASS_PREFIX) or tok in CASS_FLAGS:
            continue
        if tok in CASS_VALUES or tok in OPTF:
            needs = True
        else:
            try:
                found = _match(tok)
            except UsageError:
                continue  # reported in its turn by parse()
            needs = found is not None and found[1] is None and found[0].arity is not Arity.FLAG
        if needs:
            if i >= len(words):
                return tok
            i += 1
    return None


def _whole(words: list[str]) -> list[str]:
    tok = _dangling(words)
    if tok is not None:
        raise UsageError(f"argument expected after '{tok}'")
    return words


def expand(
    argv: Sequence[str], env: Mapping[str, str], read_file: Callable[[str], str]
) -> list[str]:
    """NVCC_PREPEND_FLAGS + argv + NVCC_APPEND_FLAGS, with options files read in place."""
    # NVCC_PREPEND_FLAGS is read with the command line after it: nvcc 13 lets an option at its
    # end take its value from there (`-include` + argv); options files stand alone (_whole).
    args = split_env_flags(env.get("NVCC_PREPEND_FLAGS", ""))
    args += list(argv)
    args += _whole(split_env_flags(env.get("NVCC_APPEND_FLAGS", "")))
    return _expand_files(args, read_file, 0)


def _expand_files(args: list[str], read_file: Callable[[str], str], depth: int) -> list[str]:
    out: list[str] = []
    i = 0
    while i < len(args):
        tok = args[i]
        i += 1
        name, eq, value = tok.partition("=")
        if name not in OPTF:
            out.append(tok)
            continue
        if not eq:
            if i >= len(args):
                raise UsageError(f"argument expected after '{tok}'")
            value = args[i]
            i += 1
        if depth >= MAX_OPTF_DEPTH:
            raise UsageError(f"Options files nested too deeply at '{value}'")
        for path in split_list(value):
            try:
                text = read_file(path)
            except OSError:
                raise UsageError(f"Could not open options file '{path}'") from None
            out += _expand_files(_whole(split_file_flags(text)), read_file, depth + 1)
    return out


@record(frozen=False)
class _State:
    """What parsing collects before it can settle the Invocation."""

    inv: Invocation = factory(Invocation)
    phases: set[Phase] = factory(set)
    paths: list[str] = factory(list)
    arch: str | None = None
    codes: list[str] = factory(list)
    gencodes: list[str] = factory(list)
    rdc: bool | None = None
    dc: bool = False
    dw: bool = False
    dep_only: str | None = None  # -M / -MM
    dep_compile: str | None = None  # -MD / -MMD
    x: Lang | None = None
    dlto: bool = False  # -dlto / -lto
    astoolspatch: bool = False  # --compile-as-tools-patch
    # Refusals nvcc makes only after --version/--help had their say (nvcc 13 prints its
    # version whatever unknown options, architectures or phase conflicts come with it).
    refusals: list[str] = factory(list)


def parse(
    argv: Sequence[str],
    env: Mapping[str, str] = {},  # noqa: B006 - read only
    read_file: Callable[[str], str] = _read_text,
) -> Invocation:
    """Parse an nvcc command line (without argv[0]); raise UsageError as nvcc would."""
    args = expand(argv, env, read_file)
    st = _State()
    inv = st.inv
    inv.forward_unknown = any(a in FORWARD_COMPILER + FORWARD_BOTH for a in args)
    inv.forward_unknown_linker = any(a in FORWARD_LINKER + FORWARD_BOTH for a in args)
    i = 0
    while i < len(args):
        tok = args[i]
        i += 1
        if not tok.startswith("-") or tok == "-":
            st.paths.append(tok)
            continue
        if tok.startswith(CASS_PREFIX) or tok in CASS_FLAGS:
            _cass(inv, tok)
            continue
        name, eq, value = tok.partition("=")
        if name in CASS_VALUES:
            if not eq:
                if i >= len(args):
                    raise UsageError(f"argument expected after '{tok}'")
                value, i = args[i], i + 1
            inv.cass[CASS_VALUES[name]] = value
            continue
        found = _match(tok)
        if found is None:
            _unknown(st, tok)
            continue
        opt, value = found
        if value is None and opt.arity is not Arity.FLAG:
            if i >= len(args):
                raise UsageError(f"argument expected after '{tok}'")
            value = args[i]
            i += 1
        _apply(st, opt, value)
    return _finish(st)


def _match(tok: str) -> tuple[Option, str | None] | None:
    """The option `tok` spells, and its value if written in the same word."""
    if tok in BY_SPELLING:
        return BY_SPELLING[tok], None
    name, eq, value = tok.partition("=")
    if eq and name in BY_SPELLING:
        opt = BY_SPELLING[name]
        if opt.arity is Arity.FLAG:
            raise UsageError(f"no argument expected after '{name}'")
        return opt, value
    glued = GLUED.get(tok[:2])
    if glued is not None and len(tok) > 2:
        return glued, tok[2:]
    return None


def _unknown(st: _State, tok: str) -> None:
    inv = st.inv
    if not (inv.forward_unknown or inv.forward_unknown_linker):
        st.refusals.append(f"Unknown option '{tok}'")
        return
    if inv.forward_unknown:
        inv.host_args.append(tok)
    if inv.forward_unknown_linker:
        inv.linker_args.append(tok)


def _cass(inv: Invocation, tok: str) -> None:
    if tok in CASS_FLAGS:
        inv.cass[CASS_FLAGS[tok]] = "1"
        return
    name, eq, value = tok[len(CASS_PREFIX):].partition("=")
    if not name:
        raise UsageError(f"Unknown option '{tok}'")
    inv.cass[name] = value if eq else "1"


# A number as nvcc reads one (C's strtol with base 0, probed against nvcc 13): blanks
# around it, a sign, then hex (0x1f), octal (017: so 08 is refused) or decimal.
_C_INTEGER = re.compile(r"\s*([+-]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)\s*")
INT32 = (-(2**31), 2**31 - 1)


def c_integer(value: str) -> int | None:
    """The value of `value` read as nvcc reads numbers, or None if it is not one."""
    m = _C_INTEGER.fullmatch(value)
    if m is None:
        return None
    digits = m[2]
    n = int(digits, 16) if digits[:2] in ("0x", "0X") else int(digits, 8) if digits[0] == "0" else int(digits)
    return -n if m[1] == "-" else n


def _bounds(opt: Option, n: int) -> str | None:
    """nvcc's complaint when a NUMBER is outside what the option allows."""
    low, high = opt.low, opt.high
    if (low is None or n >= low) and (high is None or n <= high):
        return None
    short = f" ({opt.short})" if opt.glued else ""  # nvcc names -O and -t so, -jtd not
    what = f"Argument for {opt.long}{short} must be"
    if high is not None:
        return f"{what} between [{low}-{high}]"
    return f"{what} greater than {low - 1}" if low else f"{what} non-negative"


def _check_number(opt: Option, value: str) -> None:
    if not value.strip():
        return  # nvcc takes an empty value (-O= , --diag-error=1,,2) as none
    n = c_integer(value)
    if n is None:
        raise UsageError(f"'{value}': expected a number")
    if not INT32[0] <= n <= INT32[1]:
        raise UsageError(f"32-bit integer value ({value}) out of range")
    complaint = _bounds(opt, n)
    if complaint:
        raise UsageError(complaint)


def _check(opt: Option, value: str) -> None:
    if opt.kind is Kind.NUMBER:
        _check_number(opt, value)
    elif opt.kind is Kind.BOOL and value not in ("true", "false"):
        raise UsageError(f"'{value}': expected true or false")
    if opt.choices and value not in opt.choices:
        raise UsageError(f"Value '{value}' is not defined for option '{opt.name}'")


def _values(opt: Option, value: str | None) -> list[str]:
    if value is None:
        return []
    values = split_list(value) if opt.arity is Arity.LIST else [value]
    for v in values:
        _check(opt, v)
    if opt.kind is Kind.NUMBER:  # as the tools we run read numbers: 0x10 -> 16; empty: none
        values = [str(c_integer(v)) for v in values if v.strip()]
    return values


def _set(inv: Invocation, path: str, value: object) -> None:
    obj: object = inv
    *outer, last = path.split(".")
    for part in outer:
        obj = getattr(obj, part)
    setattr(obj, last, value)


def _apply(st: _State, opt: Option, value: str | None) -> None:
    inv = st.inv
    if opt.disp is Disp.SPECIAL and opt.target == "gencode":
        st.gencodes.append(value or "")  # brackets: split by targets.from_gencode
        return
    values = _values(opt, value)
    d = opt.disp
    if d is Disp.PHASE:
        st.phases.add(Phase[opt.target])
    elif d is Disp.SET:
        if values:  # an empty number (-O=) sets nothing, as in nvcc
            _set(inv, opt.target, values[0])
    elif d is Disp.APPEND:
        getattr(inv, opt.target).extend(values)
    elif d is Disp.TRUE:
        _set(inv, opt.target, True)
    elif d is Disp.BOOL:
        _set(inv, opt.target, values[0] == "true")
    elif d is Disp.HOST:
        if value is None or values:
            inv.host_args.append(opt.target.format(*values))
    elif d is Disp.IGNORED:
        inv.ignored.append(opt.long if value is None else f"{opt.long}={value}")
    elif d is Disp.UNSUPPORTED:
        st.refusals.append(f"Option '{opt.long}' is not supported by cass-cc")
    else:
        _special(st, opt.target, values)


def _special(st: _State, key: str, values: list[str]) -> None:
    inv = st.inv
    if key == "arch":
        st.arch = values[0]
    elif key == "code":
        st.codes += values
    elif key == "rdc":
        st.rdc = values[0] == "true"
    elif key in ("dc", "dw", "dlto", "astoolspatch"):
        setattr(st, key, True)
        if key == "dlto":
            st.inv.ignored.append("--dlink-time-opt")  # no AMD meaning beyond the checks below
    elif key in ("M", "MM"):
        st.dep_only = key
    elif key in ("MD", "MMD"):
        st.dep_compile = key
    elif key == "MT":
        inv.deps.targets = [values[0]]  # nvcc: the last -MT wins
    elif key == "x":
        st.x = X_LANG[values[0]]
    elif key == "machine":
        inv.machine = int(values[0])
    elif key == "m64":
        inv.machine = 64
    elif key in ("forward", "optf"):
        pass  # forward: settled before the loop; optf: only reached as a stray value
    else:  # pragma: no cover - a table entry without a handler
        raise AssertionError(f"no handler for special option {key!r}")


def _finish(st: _State) -> Invocation:
    inv = st.inv
    first = next((p for p in PHASE_ORDER if p in st.phases), None)
    if first in (Phase.HELP, Phase.VERSION):
        inv.phase = first
        inv.inputs = [Input(p, st.x or _suffix_lang(p) or Lang.OBJ) for p in st.paths]
        return inv
    if st.refusals:
        raise UsageError(st.refusals[0])
    if inv.host_compiler == "":  # nvcc runs the named compiler even for -dryrun; no name, no compiler
        raise UsageError("Failed to preprocess host compiler properties.")
    _phase(st)
    inv.targets = _targets(st)
    inv.lang = st.x
    for arg in inv.ptxas_args:
        m = re.fullmatch(r"-O(\d)", arg)
        if m:
            inv.device_opt = m[1]
    if not st.paths:
        raise UsageError("No input files specified; use option --help for more information")
    inv.inputs = [Input(p, st.x or _lang_of(p)) for p in st.paths]
    if inv.output is not None and inv.phase in ONE_OUTPUT and len(inv.inputs) > 1:
        raise UsageError(
            "A single input file is required for a non-link phase when an outputfile is specified"
        )
    return inv


# Phases that count against each other (nvcc 13, probed over every pair and triple of
# phase options): -lib with -link, and -M/-MM with two of these. -E, -shared and -MD do not count.
_COUNTED = (Phase.COMPILE, Phase.PTX, Phase.CUBIN, Phase.FATBIN, Phase.CUDAFE, Phase.DLINK,
            Phase.LIB, Phase.LINK)


def _conflicts(st: _State) -> None:
    """nvcc's refusals of phase options that cannot go together (not --help/--version's)."""
    counted = set(st.phases) & set(_COUNTED)
    if st.dc or st.dw:
        counted.add(Phase.COMPILE)
    if {Phase.LIB, Phase.LINK} <= counted or (st.dep_only and len(counted) > 1):
        raise UsageError("More than one compilation phase specified")
    if st.dlto and Phase.PTX in st.phases:
        raise UsageError("'-dlto' is not compatible with '-ptx'")


def _phase(st: _State) -> None:
    inv = st.inv
    if not {Phase.HELP, Phase.VERSION} & st.phases:
        _conflicts(st)
    if st.dc and st.dw:
        raise UsageError("Both '--device-c (-dc)' and '--device-w (-dw)' specified")
    if st.dc and st.rdc is False:
        raise UsageError(
            "'--device-c (-dc)' is not compatible with "
            "'--relocatable-device-code=false (-rdc=false)'"
        )
    if st.dw and st.rdc is True:
        raise UsageError(
            "'--device-w (-dw)' is not compatible with "
            "'--relocatable-device-code=true (-rdc=true)'"
        )
    inv.rdc = st.dc or bool(st.rdc)
    if st.dc or st.dw:
        st.phases.add(Phase.COMPILE)
    if st.dep_only:
        st.phases.add(Phase.DEPS)
    inv.deps.mode = st.dep_only or st.dep_compile
    if st.dep_compile and Phase.PREPROCESS in st.phases:
        raise UsageError("'-MD'/'-MMD' is not supported when '-E' is also specified")
    if inv.deps.file is not None and inv.deps.mode is None:
        raise UsageError(
            "Option '--dependency-file' requires one of '-M', '-MM', '-MD' or '-MMD' "
            "to be specified"
        )
    inv.phase = next((p for p in PHASE_ORDER if p in st.phases), Phase.LINK)
    if st.astoolspatch and inv.phase not in (Phase.PTX, Phase.CUBIN, Phase.FATBIN):
        raise UsageError("--compile-as-tools-patch requires -ptx, -cubin or -fatbin")
    if st.dlto and inv.phase is Phase.CUBIN:
        raise UsageError("Option '-dlto' cannot generate '--cubin' intermediate at compile time")


def _targets(st: _State) -> list[str]:
    found = tg.from_arch(st.arch, st.codes)
    for spec in st.gencodes:
        found += tg.from_gencode(spec)
    out: list[str] = []
    for t in found:
        if t not in out:
            out.append(t)
    return out


def _suffix_lang(path: str) -> Lang | None:
    if re.search(r"\.so(\.\d+)+$", path):
        return Lang.LIB
    dot = path.rfind(".")
    if dot <= path.rfind("/"):
        return None
    return SUFFIX_LANG.get(path[dot:])


def _lang_of(path: str) -> Lang:
    lang = _suffix_lang(path)
    if lang is None:
        raise UsageError(f"Don't know what to do with '{path}'")
    return lang
