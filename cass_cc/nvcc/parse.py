"""nvcc argv -> Invocation. A pure function: no globals, no environment, no output (what it
must learn from the machine, options files and whether -ccbin names a program, it asks the
callables it is given)."""
from __future__ import annotations

import os
import re
import shutil
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
    Phase.HELP, Phase.VERSION, Phase.LIST_CODE, Phase.LIST_ARCH, Phase.DEPS, Phase.PREPROCESS, Phase.PTX, Phase.CUBIN,
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


def host_compiler_found(name: str, env: Mapping[str, str]) -> bool:
    """Whether nvcc would find the -ccbin compiler `name` (it runs it even for -dryrun, and
    says "Failed to preprocess host compiler properties" when it cannot): a folder means the
    gcc in it, a name without a slash is looked up on PATH, anything else is a path."""
    path = os.path.join(name, "gcc") if name and os.path.isdir(name) else name
    if "/" not in path:
        return bool(path) and shutil.which(path, path=env.get("PATH")) is not None
    return os.path.isfile(path) and os.access(path, os.X_OK)


# nvcc's own words for text it cannot split into arguments (both the variables and options files).
STRAY_QUOTE = "Stray '\"' character"
STRAY_BACKSLASH = "Stray '' character"


def split_values(opt: Option, value: str) -> list[str]:
    """One option's value as nvcc 13 reads it (probed with -dryrun): a LIST split at commas
    outside double quotes, each piece trimmed of blanks and empty ones dropped (-I, ;
    --Werror= ; -D ''), an unclosed quote refused; in an `escapes` list a backslash takes
    the next character literally and the quotes stay (-DX=a\\b -> X=ab, -DX="a,b" ->
    X="a,b"), in the others backslashes stay and the quotes go (-I "a,b" -> a,b). Other
    options take the value as it is."""
    if opt.arity is not Arity.LIST:
        return [value]
    items, cur, quoted, i = [], "", False, 0
    while i < len(value):
        ch, nxt = value[i], value[i + 1:i + 2]
        if ch == "\\" and (opt.escapes or (quoted and nxt == '"')):
            if not nxt:
                raise UsageError(STRAY_BACKSLASH)
            cur, i = cur + nxt, i + 2
            continue
        if ch == '"':
            quoted = not quoted
            cur += ch if opt.escapes else ""
        elif ch == "," and not quoted:
            items.append(cur)
            cur = ""
        else:
            cur += ch
        i += 1
    if quoted:
        raise UsageError(STRAY_QUOTE)
    items.append(cur)
    trimmed = (item.strip(" \t") for item in items)  # -I " a" is a; --Werror=" reorder" too
    return [item for item in trimmed if item]
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
    """An options file split as nvcc 13 splits it (probed with -dryrun): at blanks outside
    double quotes, the quotes removed; a backslash, inside quotes or out, takes the next
    character literally, but an escaped quote is dropped (a\\"b -> ab) and escaped blanks at
    either end of a word are trimmed (`\\ -c` is -c; a word of nothing else is none, while
    "" is an empty word); single quotes are plain characters. An unclosed quote or a
    backslash with nothing after it is nvcc's "Stray" error, not a guess."""
    words: list[str] = []
    chars: list[tuple[str, bool]] = []  # (character, escaped outside quotes)
    quoted = started = keep = False  # keep: the word had a quote, so it stays even if empty
    i = 0

    def end() -> None:
        while chars and chars[0][1] and chars[0][0] in " \t":
            chars.pop(0)
        while chars and chars[-1][1] and chars[-1][0] in " \t":
            chars.pop()
        if chars or keep:
            words.append("".join(c for c, _ in chars))

    while i < len(text):
        ch = text[i]
        if ch == "\\":
            if i + 1 >= len(text):
                raise UsageError(STRAY_BACKSLASH)
            if text[i + 1] == '"':
                keep = True
            else:
                chars.append((text[i + 1], not quoted))
            started, i = True, i + 2
            continue
        if ch == '"':
            quoted, started, keep, i = not quoted, True, True, i + 1
            continue
        if ch in _BLANKS and not quoted:
            if started:
                end()
            chars, started, keep, i = [], False, False, i + 1
            continue
        chars.append((ch, False))
        started, i = True, i + 1
    if quoted:
        raise UsageError(STRAY_QUOTE)
    if started:
        end()
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
            opt = found[0] if found is not None and found[1] is None else None
            needs = opt is not None and opt.arity is not Arity.FLAG and not opt.optional
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


def expand(argv: Sequence[str], env: Mapping[str, str]) -> list[str]:
    """NVCC_PREPEND_FLAGS + argv + NVCC_APPEND_FLAGS. Options files are read where parse()
    meets -optf as an option: as the value of another (`-cudart -optf`) it is just a word."""
    # NVCC_PREPEND_FLAGS is read with the command line after it: nvcc 13 lets an option at its
    # end take its value from there (`-include` + argv); options files stand alone (_whole).
    args = split_env_flags(env.get("NVCC_PREPEND_FLAGS", ""))
    args += list(argv)
    args += _whole(split_env_flags(env.get("NVCC_APPEND_FLAGS", "")))
    return args


def _options_files(value: str, read_file: Callable[[str], str], depth: int) -> list[str]:
    """The words of the options files one -optf names."""
    if depth >= MAX_OPTF_DEPTH:
        raise UsageError(f"Options files nested too deeply at '{value}'")
    out: list[str] = []
    for path in split_values(BY_SPELLING["-optf"], value):
        try:
            text = read_file(path)
        except OSError:
            raise UsageError(f"Could not open options file '{path}'") from None
        out += _whole(split_file_flags(text))
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
    ewp: bool = False  # --extensible-whole-program
    time_trace: bool = False  # -fdevice-time-trace
    forward: set[str] = factory(set)  # the -forward-unknown-* options given
    # Unknown options with where they would go if forwarded (len of host_args, linker_args
    # then): whether they are refused or forwarded is known only once every word is read.
    unknown: list[tuple[str, int, int]] = factory(list)
    # nvcc 13 checks a value's form (choices, number syntax, 32 bits, quotes) as it reads
    # it, even with --version; these refusals come later: after --version/--help print and
    # after unknown options (bounds, cass-cc's unsupported options), and the choices a tool
    # nvcc runs checks (not with -dryrun).
    refusals: list[str] = factory(list)
    tool_refusals: list[str] = factory(list)


def parse(
    argv: Sequence[str],
    env: Mapping[str, str] = {},  # noqa: B006 - read only
    read_file: Callable[[str], str] = _read_text,
    compiler_found: Callable[[str, Mapping[str, str]], bool] = host_compiler_found,
) -> Invocation:
    """Parse an nvcc command line (without argv[0]); raise UsageError as nvcc would."""
    # (word, how deep in options files, which file: an option at the end of one takes no
    # optional value from the words after it)
    args = [(w, 0, 0) for w in expand(argv, env)]
    st = _State()
    inv = st.inv
    i = files = 0
    while i < len(args):
        tok, depth, group = args[i]
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
                value, i = args[i][0], i + 1
            inv.cass[CASS_VALUES[name]] = value
            continue
        found = _match(tok)
        if found is None:
            st.unknown.append((tok, len(inv.host_args), len(inv.linker_args)))
            continue
        opt, value = found
        if value is None and opt.arity is not Arity.FLAG:
            if opt.optional and (i >= len(args) or args[i][2] != group or _is_option(args[i][0])):
                _apply(st, opt, None)
                continue
            if i >= len(args):
                raise UsageError(f"argument expected after '{tok}'")
            value = args[i][0]
            i += 1
        if opt.target == "optf":  # its words take its place
            files += 1
            args[i:i] = [(w, depth + 1, files) for w in _options_files(value or "", read_file, depth)]
            continue
        _apply(st, opt, value)
    return _finish(st, env, compiler_found)


def _is_option(word: str) -> bool:
    return word.startswith("-") and word != "-"


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


def _unknowns(st: _State) -> None:
    """Refuse the first unknown option, or forward them all to where -forward-unknown-*
    (anywhere on the line) sends them, each in its place among -Xcompiler/-Xlinker's."""
    inv = st.inv
    inv.forward_unknown = bool(st.forward & set(FORWARD_COMPILER + FORWARD_BOTH))
    inv.forward_unknown_linker = bool(st.forward & set(FORWARD_LINKER + FORWARD_BOTH))
    if st.unknown and not (inv.forward_unknown or inv.forward_unknown_linker):
        raise UsageError(f"Unknown option '{st.unknown[0][0]}'")
    for tok, host_at, linker_at in reversed(st.unknown):  # from the end: earlier places stay put
        if inv.forward_unknown:
            inv.host_args.insert(host_at, tok)
        if inv.forward_unknown_linker:
            inv.linker_args.insert(linker_at, tok)


def _cass(inv: Invocation, tok: str) -> None:
    if tok in CASS_FLAGS:
        inv.cass[CASS_FLAGS[tok]] = "1"
        return
    name, eq, value = tok[len(CASS_PREFIX):].partition("=")
    if not name:
        raise UsageError(f"Unknown option '{tok}'")
    inv.cass[name] = value if eq else "1"


# A number as nvcc reads one (C's strtol with base 0, probed against nvcc 13): blanks
# before it (not after), a sign, then hex (0x1f), octal (017: so 08 is refused) or decimal.
_C_INTEGER = re.compile(r"\s*([+-]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)")  # "3 " is not one
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


def _check_number(st: _State, opt: Option, value: str) -> None:
    # nvcc sets nothing for an empty value (-O=) but checks it as 0: --ftemplate-depth= is
    # "must be greater than 0"; blanks alone are no number. (A list's empty pieces are
    # dropped before this.)
    n = c_integer(value) if value else 0
    if n is None:
        raise UsageError(f"'{value}': expected a number")
    if not INT32[0] <= n <= INT32[1]:
        raise UsageError(f"32-bit integer value ({value}) out of range")
    complaint = _bounds(opt, n)
    if complaint:  # after --version and unknown options (nvcc 13: `-V -ftemplate-depth=0` prints)
        st.refusals.append(complaint)


def _check(st: _State, opt: Option, value: str) -> None:
    if opt.kind is Kind.NUMBER:
        _check_number(st, opt, value)
    elif opt.kind is Kind.BOOL and value not in ("true", "false"):
        raise UsageError(f"'{value}': expected true or false")
    if opt.choices and value not in opt.choices:
        complaint = f"Value '{value}' is not defined for option '{opt.name}'"
        if not opt.tool_checks:
            raise UsageError(complaint)
        st.tool_refusals.append(complaint)


def _values(st: _State, opt: Option, value: str | None) -> list[str]:
    if value is None:
        return []
    values = split_values(opt, value)
    for v in values:
        _check(st, opt, v)
    if opt.kind is Kind.NUMBER:  # as the tools we run read numbers: 0x10 -> 16; empty: none
        values = [str(c_integer(v)) for v in values if v]
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
        tg.gencode_keys(value or "")  # its form is checked now, its architectures later
        st.gencodes.append(value or "")
        return
    values = _values(st, opt, value)
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
        _special(st, opt, values)


def _special(st: _State, opt: Option, values: list[str]) -> None:
    inv, key = st.inv, opt.target
    if key == "arch":
        st.arch = values[0]
    elif key == "code":
        for v in values:  # checked as read, unlike -arch (nvcc 13: `-V -code=sm_99` is refused)
            if not (tg.is_known(v) or tg.is_amd(v)):
                raise UsageError(f"Value '{v}' is not defined for option 'gpu-code'")
        st.codes += values
    elif key == "rdc":
        st.rdc = values[0] == "true"
    elif key in ("dc", "dw", "dlto", "astoolspatch", "ewp", "time_trace"):
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
    elif key == "forward":
        st.forward.add(opt.long)
    elif key == "target_dir":
        # nvcc looks for the folder under its toolkit's targets/, which on an x86-64 Linux
        # install holds x86_64-linux alone (another target's is a cross build gcc refuses).
        if os.path.normpath(os.path.join("targets", values[0])) not in ("targets", "targets/x86_64-linux"):
            st.refusals.append(f"Invalid target directory: {values[0]}.")
        inv.ignored.append(f"{opt.long}={values[0]}")
    else:  # pragma: no cover - a table entry without a handler
        raise AssertionError(f"no handler for special option {key!r}")


def _finish(st: _State, env: Mapping[str, str], compiler_found: Callable[[str, Mapping[str, str]], bool]) -> Invocation:
    """The checks nvcc 13 makes once every word is read, in its order (probed pairwise)."""
    inv = st.inv
    first = next((p for p in PHASE_ORDER if p in st.phases), None)
    if first in (Phase.HELP, Phase.VERSION):
        inv.phase = first
        inv.inputs = [Input(p, st.x or _suffix_lang(p) or Lang.OBJ) for p in st.paths]
        return inv
    _unknowns(st)
    if first in (Phase.LIST_CODE, Phase.LIST_ARCH):  # printed whatever else is wrong
        inv.phase = first
        inv.lists = [p for p in (Phase.LIST_ARCH, Phase.LIST_CODE) if p in st.phases]
        return inv
    if st.refusals:
        raise UsageError(st.refusals[0])
    if {"--use-local-env", "--force-cl-env-setup"} <= set(inv.ignored):  # two ways to set up cl.exe
        raise UsageError("-use-local-env and -force-cl-env-setup cannot both be specified at the same time")
    _phase(st)
    inv.targets = _targets(st)
    if st.dlto and st.ewp:  # after the architectures' faults, before "No input files" (nvcc 13)
        raise UsageError("'-dlto' is not compatible with '-ewp'")
    inv.lang = st.x
    for arg in inv.ptxas_args:
        m = re.fullmatch(r"-O(\d)", arg)
        if m:
            inv.device_opt = m[1]
    if not st.paths:
        raise UsageError("No input files specified; use option --help for more information")
    if inv.output is not None and inv.phase in ONE_OUTPUT and len(st.paths) > 1:
        raise UsageError(
            "A single input file is required for a non-link phase when an outputfile is specified"
        )
    ccbin = inv.host_compiler if inv.host_compiler is not None else env.get("NVCC_CCBIN")
    if ccbin is not None and not compiler_found(ccbin, env):
        raise UsageError("Failed to preprocess host compiler properties.")
    if st.dlto and inv.device_debug:
        raise UsageError("Option --link-time-opt cannot be combined with --device-debug.")
    if st.dlto and inv.phase is Phase.CUBIN and Phase.DLINK not in st.phases:  # -dlink -cubin links
        raise UsageError("Option '-dlto' cannot generate '--cubin' intermediate at compile time")
    # what -cubin and -ptx can make of the targets: checked this late (nvcc 13), after the
    # host compiler and the inputs' number, before the inputs' kinds
    real = [t for t in inv.targets if not tg.NVIDIA.match(t) or t.startswith("sm_") or t in tg.WHOLE_SETS]
    if inv.phase is Phase.CUBIN and Phase.DLINK not in st.phases and inv.targets and not real:
        raise UsageError("Option '--cubin' is not allowed when compiling for a virtual compute architecture")
    _one_target(st)
    if st.tool_refusals and not inv.dryrun:
        raise UsageError(st.tool_refusals[0])
    # nvcc names the last input it cannot place (`a.xyz b.xyz` -> b.xyz).
    for path in reversed(st.paths):
        if st.x is None:
            _lang_of(path)
    inv.inputs = [Input(p, st.x or _lang_of(p)) for p in st.paths]
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
    if st.dlto and Phase.PTX in st.phases and Phase.DLINK not in st.phases:
        raise UsageError("'-dlto' is not compatible with '-ptx'")
    # -cudart=none means no device link too (nvcc 13). A phase chosen before -dlink's makes it
    # moot (-c, -ptx, -E, -M, -cuda), but -cubin and -fatbin with -dlink are device links.
    nodlink = "--no-device-link" in st.inv.ignored or st.inv.shared_cudart == "none"
    chosen = st.phases | ({Phase.COMPILE} if st.dc or st.dw else set()) | ({Phase.DEPS} if st.dep_only else set())
    first = next((p for p in PHASE_ORDER if p in chosen), Phase.LINK)
    moot = first in (Phase.DEPS, Phase.PREPROCESS, Phase.PTX, Phase.CUDAFE, Phase.COMPILE)
    if nodlink and Phase.DLINK in st.phases and not moot:
        raise UsageError("'--device-link (-dlink)' is not compatible with '--no-device-link (-nodlink)'")
    if st.time_trace and Phase.PREPROCESS in st.phases:
        raise UsageError("'-fdevice-time-trace' is not compatible with '-E'")
    if {"--display-error-number", "--no-display-error-number"} <= set(st.inv.ignored):  # either order
        raise UsageError("'--display-error-number' is not compatible with '--no-display-error-number'")


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
    if st.ewp and st.dc:
        raise UsageError("'--device-c' is not compatible with '--extensible-whole-program'")
    if st.ewp and st.rdc:
        raise UsageError("'--relocatable-device-code=true' is not compatible with '--extensible-whole-program'")
    inv.rdc = st.dc or bool(st.rdc)
    if st.dc or st.dw:
        st.phases.add(Phase.COMPILE)
    if st.dep_only:
        st.phases.add(Phase.DEPS)
    inv.deps.mode = st.dep_only or st.dep_compile
    if st.dep_compile and Phase.PREPROCESS in st.phases and not st.dep_only:  # -M -E -MD is -M
        raise UsageError("'-MD'/'-MMD' is not supported when '-E' is also specified")
    if inv.deps.file is not None and inv.deps.mode is None:
        raise UsageError(
            "Option '--dependency-file' requires one of '-M', '-MM', '-MD' or '-MMD' "
            "to be specified"
        )
    inv.phase = next((p for p in PHASE_ORDER if p in st.phases), Phase.LINK)
    if st.astoolspatch and (inv.rdc or st.dlto or Phase.DLINK in st.phases):  # -dlto and -dlink imply relocatable device code
        raise UsageError("'--compile-as-tools-patch' is not compatible with '-rdc=true'")
    if st.astoolspatch and not {Phase.PTX, Phase.CUBIN, Phase.FATBIN} & st.phases:  # given, if not chosen
        raise UsageError("--compile-as-tools-patch requires -ptx, -cubin or -fatbin")


DLTO_CONFLICT = ("'-dlto' conflicts with '-gencode' or '-code' to control what is generated; "
                 "use 'code=lto_<arch>' instead of '-dlto' to request lto intermediate")


def _lto(st: _State, codes: Sequence[str], gencode: bool) -> None:
    """nvcc 13's link-time-optimization refusals, made as it reads the codes of -code or of
    one -gencode (probed with -dryrun). -dlto, when a CUDA source is built (.cu or -x cu; a
    .cpp or .o alone is fine), conflicts with any -gencode, even of lto_ code, and with a
    -code naming other than lto_ code; -ptx, given (even with -E or -dlink), refuses lto_
    code (though its message names -arch, -arch=lto_XX alone is accepted). The first code
    at fault is the one named."""
    conflict = st.dlto and any((st.x or _suffix_lang(p)) is Lang.CU for p in st.paths)
    if conflict and gencode:
        raise UsageError(DLTO_CONFLICT)
    for code in codes:
        lto = code.startswith("lto_")
        if lto and Phase.PTX in st.phases:
            raise UsageError("Cannot use '-ptx' with '-arch=lto_<arch>'")
        if conflict and not lto:
            raise UsageError(DLTO_CONFLICT)


def _one_target(st: _State) -> None:
    """-ptx writes one PTX file and -cubin one cubin: nvcc refuses more than one virtual
    architecture (-ptx) or more than one code instance (-cubin) when that is the phase it
    runs (`-E -ptx` preprocesses, whatever the architectures); `all`/`all-major` are many.
    -arch=sm_XX alone is one instance (its implied PTX is not counted); -gencode entries and
    -code lists count each code they name, repeats once."""
    many = st.arch in ("all", "all-major")
    virtuals: set[str] = set()
    codes: set[str] = set()
    if st.arch and st.arch not in tg.WHOLE_SETS:
        virtuals.add(re.sub(r"^(sm|lto)_", "compute_", st.arch))
        codes.update(st.codes or [st.arch])
    for spec in st.gencodes:
        arch = re.search(r"arch=([^,]+)", spec)
        if arch:
            virtuals.add(re.sub(r"^(sm|lto)_", "compute_", arch[1]))
        codes.update(tg.from_gencode(spec))
    if st.inv.phase is Phase.PTX and (many or len(virtuals) > 1):
        raise UsageError("Option '--ptx (-ptx)' is not allowed when compiling for multiple GPU architectures")
    if st.inv.phase is Phase.CUBIN and Phase.DLINK not in st.phases and (many or len(codes) > 1):
        raise UsageError("Option '--cubin' is not allowed when compiling for multiple GPU code instances")


def _targets(st: _State) -> list[str]:
    """-arch/-code's targets, then each -gencode's in turn (nvcc 13 names the first
    -gencode's fault before it reads the next), with _lto's checks as the codes are read."""
    found = tg.from_arch(st.arch, st.codes, lambda codes: _lto(st, codes, gencode=False))
    for spec in st.gencodes:
        found += tg.from_gencode(spec, lambda codes: _lto(st, codes, gencode=True))
    out: list[str] = []
    for t in found:
        if t not in out:
            out.append(t)
    return out


def _suffix_lang(path: str) -> Lang | None:
    if re.search(r"\.so(\.\d+)+\Z", path):
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
