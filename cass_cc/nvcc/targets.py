"""GPU target names: nvcc's (sm_80, compute_80, ...) checked, and mapped to AMD ones."""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

from .. import CUDA_COMPAT_VERSION
from .invocation import UsageError

# \Z, not $: `$` also matches before a final newline, and nvcc 13 refuses -arch=sm_89 + newline
# ("Unsupported gpu architecture 'sm_89" + the newline; NVCC_*_FLAGS keep newlines in a word).
NVIDIA = re.compile(r"^(sm|compute|lto)_(\d+)([af]?)\Z")
AMD = re.compile(r"^gfx[0-9]{1,2}[0-9a-f]{2}(:[a-z0-9-]+[+-])*\Z")
WHOLE_SETS = ("all", "all-major", "native")

# The architecture numbers (with their a/f suffix) each CUDA release's nvcc accepts after
# sm_, compute_ and lto_: `nvcc --list-gpu-code` of that release. cass-cc takes CUDA 12.4's
# command line (CUDA_COMPAT_VERSION); the 13.0 row is the nvcc installed beside it, which the
# hostile harness (cass_data/hostile/cmdline.py) compares with through this same table.
ARCHS_BY_CUDA: dict[str, frozenset[str]] = {
    "12.4": frozenset({"50", "52", "53", "60", "61", "62", "70", "72", "75", "80", "86", "87",
                       "89", "90", "90a"}),
    "13.0": frozenset({"75", "80", "86", "87", "88", "89", "90", "90a",
                       "100", "100a", "100f", "103", "103a", "103f", "110", "110a", "110f",
                       "120", "120a", "120f", "121", "121a", "121f"}),
}
RELEASE = ".".join(CUDA_COMPAT_VERSION.split(".")[:2])
ACCEPTED = ARCHS_BY_CUDA[RELEASE]


def is_amd(name: str) -> bool:
    return AMD.match(name) is not None


def is_known(name: str, accepted: frozenset[str] = ACCEPTED) -> bool:
    """Whether `name` is an NVIDIA target of a release whose numbers are `accepted`."""
    m = NVIDIA.match(name)
    return m is not None and m[2] + m[3] in accepted


def check(name: str, sets: bool = False) -> str:
    """Return `name` if it is a target CUDA 12.4's nvcc (or cass-cc, for gfx names) knows."""
    if is_known(name) or is_amd(name) or (sets and name in WHOLE_SETS):
        return name
    raise UsageError(f"Unsupported gpu architecture '{name}'")


def _virtual(arch: str) -> None:
    check(arch)
    if arch.startswith("sm_"):
        raise UsageError(f"Value of -arch option ('{arch}') must be a virtual code architecture")


def _compatible(arch: str, code: str) -> None:
    """nvcc 13's rule (probed over pairs): virtual code (compute_N) is the arch's own PTX, so
    it must be that very arch; real code (sm_N) needs N >= the arch's, and an arch with a
    suffix (90a) only builds its own suffixed code (sm_90a, not sm_90)."""
    a, c = NVIDIA.match(arch), NVIDIA.match(code)
    if not a or not c:
        return  # an AMD name on either side: nothing to compare
    if c[1] == "compute":
        wrong = arch != code
    else:
        wrong = int(a[2]) > int(c[2]) or (a[3] != "" and (a[2], a[3]) != (c[2], c[3]))
    if wrong:
        raise UsageError(
            f"Incompatible code generation requested: arch='{arch}', code='{code}'"
        )


def from_arch(arch: str | None, codes: Sequence[str],
              read_codes: Callable[[Sequence[str]], None] | None = None) -> list[str]:
    """Targets of `-arch A [-code C,...]`, as nvcc expands them. `read_codes` is called
    with the codes where nvcc 13 reads them: after -arch's own name is checked, before
    "-arch option not specified" and whether they suit -arch."""
    if arch is not None:
        check(arch, sets=True)
        if codes and arch in WHOLE_SETS:
            raise UsageError(f"Cannot use '-arch={arch}' with '--gpu-code (-code)'")
    if read_codes is not None:
        read_codes(codes)
    if arch is None:
        if codes:
            raise UsageError("-arch option not specified")
        return []
    if not codes:
        m = NVIDIA.match(arch)
        if m and m[1] == "sm":
            return [arch, f"compute_{m[2]}{m[3]}"]
        return [arch]
    _virtual(arch)
    for code in codes:
        check(code)
        _compatible(arch, code)
    return list(codes)


def _split_top(spec: str) -> list[str]:
    """Split at commas outside [...] and "..." (Makefiles write code=\"sm_80,compute_80\"),
    pieces trimmed of blanks, empty ones dropped; an unclosed [ or " is nvcc's "Stray" error."""
    parts, depth, quoted, cur = [], 0, False, ""
    for ch in spec:
        depth += (ch == "[") - (ch == "]")
        quoted ^= ch == '"'
        if ch == "," and depth <= 0 and not quoted:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    if quoted:
        raise UsageError("Stray '\"' character")
    if depth > 0:
        raise UsageError("Stray '[' character")
    parts.append(cur)
    trimmed = (p.strip(" \t") for p in parts)
    return [p for p in trimmed if p]


def gencode_keys(spec: str) -> dict[str, str]:
    """The keywords of one -gencode value. nvcc 13 checks this much as it reads the option
    (before --version prints); the architectures and what is missing only later."""
    keys: dict[str, str] = {}
    for item in _split_top(spec):
        key, eq, value = item.partition("=")
        if not eq:
            raise UsageError(f"'{item}' is not in 'keyword=value' format")
        if key not in ("arch", "code"):
            raise UsageError(f"Keyword '{key}' is not defined for option 'generate-code'")
        if key in keys:
            raise UsageError(f"redefinition of keyword '{key}' ")  # sic: nvcc's trailing blank
        keys[key] = value
    return keys


def from_gencode(spec: str, read_codes: Callable[[Sequence[str]], None] | None = None) -> list[str]:
    """Targets of one `-gencode arch=compute_80,code=[compute_80,sm_80]`; `read_codes` as
    in from_arch, called once the arch and code are known present, before either is checked."""
    keys = gencode_keys(spec)
    if "arch" not in keys:  # nvcc names what it has, "(null)" for none
        raise UsageError(f"Option '--generate-code code={keys.get('code', '(null)')}', missing architecture")
    if "code" not in keys:
        raise UsageError(f"Option '--generate-code arch={keys['arch']}', missing code")
    arch, code = keys["arch"], keys["code"]
    if code[:1] + code[-1:] in ("[]", '""') and len(code) > 1:
        codes = code[1:-1].split(",")
    else:
        codes = [code]
    if read_codes is not None:
        read_codes(codes)
    if arch in WHOLE_SETS:
        raise UsageError(f"Unsupported gpu architecture '{arch}'")
    _virtual(arch)
    for c in codes:
        check(c)
        _compatible(arch, c)
    return codes


def listing(arch: bool, code: bool, accepted: frozenset[str] = ACCEPTED) -> list[str]:
    """What --list-gpu-arch (virtual: compute_N) and --list-gpu-code (real: sm_N) print:
    the release's plain numbers, lowest first; both options together print the -gencode
    pairs (arch=compute_N,code=sm_N), as nvcc 13 does."""
    numbers = sorted((n for n in accepted if n.isdigit()), key=int)
    if arch and code:
        return [f"arch=compute_{n},code=sm_{n}" for n in numbers]
    return [f"{'compute' if arch else 'sm'}_{n}" for n in numbers]


def offload_archs(
    targets: Sequence[str], arch_map: Mapping[str, str], default: Sequence[str]
) -> list[str]:
    """AMD offload targets for nvcc `targets`; several results make a fat binary.

    A gfx name passes through. Anything else looks up `arch_map` by its own name, then
    by the sm_NN of the same number (so compute_80 follows sm_80), then "*"; failing
    those it gets `default`. A map value may be a comma list ("gfx1100,gfx1030").
    No targets at all behave like one unmapped target.
    """
    out: list[str] = []
    for t in targets or [""]:
        if t:
            check(t, sets=True)
        if is_amd(t):
            found = [t]
        else:
            m = NVIDIA.match(t)
            keys = [t, f"sm_{m[2]}{m[3]}", f"sm_{m[2]}"] if m else [t]
            value = next((arch_map[k] for k in keys if k and k in arch_map), None)
            if value is None:
                value = arch_map.get("*")
            found = [v.strip() for v in value.split(",") if v.strip()] if value else list(default)
        for name in found:
            if name not in out:
                out.append(name)
    return out


# nvcc 13's default target when none is named: sm_75.
DEFAULT_CUDA_ARCH = 750


def cuda_arch(targets: Sequence[str]) -> int:
    """The `__CUDA_ARCH__` value device code sees: nvcc's for the lowest NVIDIA target
    named (sm_80 -> 800, compute_86 -> 860), or nvcc's default when only AMD ones are."""
    values = []
    for t in targets:
        m = NVIDIA.match(t)
        if m:
            values.append(int(m[2]) * 10)
    return min(values) if values else DEFAULT_CUDA_ARCH
