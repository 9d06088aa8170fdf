"""CUDA functions HIP defines with other results than CUDA documents, or whose definition does not
link: cass-cc serves its own under another name.

HIP 5.2 defines these names itself (non-template functions), so a definition under CUDA's name
would clash: the rules translator renames each use `__hadd` -> `__cass_cuda_hadd` and the prelude
defines the helper from corrected.h, on AMD only; on HIP's NVIDIA platform (cass-cc verify) the
helper is CUDA's own function. Where the name also has overloads HIP gets right (`__hadd` on
`__half`, the comparisons on the bfloat16 stand-in), a template forwards those to HIP's.

Found by cass-data's differential fuzzer (one-operation kernels, NVIDIA's results as truth) and
read off HIP 5.2's headers; tests/translate/test_corrected.py runs each family on the gfx1100
emulator against exactly rounded references. Every family is measured on HIP 5.2 only, so it is
served for every HIP version (a renamed helper never clashes with a later HIP's own).
"""
from __future__ import annotations

import functools
import re
from pathlib import Path

HEADER = Path(__file__).with_name("corrected.h")
PREFIX = "__cass_cuda_"
_ROUND = ("rz", "rd", "ru")

# family -> the CUDA names it serves
FAMILIES: dict[str, tuple[str, ...]] = {
    # HIP 5.2: `(value >> 1) || sign` (a bool) for the signed ones; a + b overflowing for the unsigned
    "int_average": ("__hadd", "__rhadd", "__uhadd", "__urhadd"),
    # HIP 5.2: NaN stays NaN
    "saturatef": ("__saturatef",),
    # HIP 5.2: `(float)x` whatever the rounding the name asks for; __uint2double_rn takes an int
    "int_to_float": tuple(f"__{src}2{dst}_{r}" for src, dst in (("int", "float"), ("uint", "float"), ("ll", "float"),
                                                                  ("ull", "float"), ("ll", "double"), ("ull", "double"))
                          for r in _ROUND) + ("__uint2double_rn",),
    # HIP 5.2: `(double)x`, i.e. rounded to nearest
    "narrow": tuple(f"__double2float_{r}" for r in _ROUND),
    "half_narrow": tuple(f"__float2half_{r}" for r in _ROUND),
    # HIP 5.2: NaN and -0 kept where CUDA gives +0
    "half_sat": tuple(f"__h{op}{pair}_sat" for op in ("add", "sub", "mul", "fma") for pair in ("", "2")),
    # HIP 5.2: __hne true with a NaN; the unordered forms are the ordered ones
    "half_compare": tuple(f"__h{form}" for op in ("ne", "equ", "neu", "ltu", "leu", "gtu", "geu")
                          for form in (op, f"{op}2", f"b{op}2")),
    # HIP 5.2: calls __llvm_amdgcn_rcp_f16, which no device library defines (link error)
    "half_rcp": ("hrcp", "h2rcp"),
    # HIP 5.2's device library: trunc(x) + (|x - trunc(x)| >= 0.5 ? copysign(1, x) : 0), so -0.3 -> +0
    "round": ("roundf", "round"),
    # HIP 5.2 declares `int __umul24(unsigned, unsigned)`; CUDA's returns unsigned int, and the type
    # decides what min(), comparisons and divisions around it do (r1:327: min(__umul24(..), 2) was 0)
    "umul24": ("__umul24",),
    # HIP 5.2's device library multiplies __mul24's sign-extended 24-bit operands with `mul nsw`, so a
    # product past 2**31 is poison: LLVM took __mul24(x, x) for non-negative and dropped the sign
    # extension of (long long)__mul24(v1, v1) (r5:5639). CUDA's is the product's low 32 bits.
    "mul24": ("__mul24",),
    # HIP 5.2 declares these `unsigned int`; CUDA's return int, so a comparison, min/max or division
    # beside an int went unsigned (r2:886: __popc(x) < -12 was true; r2:455: max(__ffs(71), -16) was -16)
    "bit_count": ("__popc", "__popcll", "__ffs", "__ffsll"),
    # CUDA's min/max of an int and an unsigned compare and return unsigned (likewise long/unsigned long,
    # long long/unsigned long long); HIP 5.2 takes mixed types to a double min/max: min(-1, 5u) is
    # 5u in CUDA and -1.0 in HIP (r1:40: a branch went the other way)
    "minmax": ("min", "max"),
}
# sections a family's section uses
_NEEDS = {"half_narrow": ("narrow",)}

CORRECTED: dict[str, str] = {name: family for family, names in FAMILIES.items() for name in names}


def helper_name(name: str) -> str:
    """The helper a translation calls for CUDA's `name`."""
    return PREFIX + name.lstrip("_")


@functools.lru_cache(maxsize=None)
def _sections() -> dict[str, str]:
    parts = re.split(r"^//== (\w+)\n", HEADER.read_text(encoding="utf-8"), flags=re.M)
    return dict(zip(parts[1::2], parts[2::2]))


def family_text(family: str) -> str:
    """The prelude piece for one family: its section (with those it uses) on AMD, CUDA's own
    functions under the helpers' names on HIP's NVIDIA platform."""
    sections = _sections()
    amd = "".join(f"#ifndef CASS_CORRECTED_{s}\n#define CASS_CORRECTED_{s}\n{sections[s]}#endif\n"
                  for s in ("common", *_NEEDS.get(family, ()), family))
    nvidia = "".join(f"#define {helper_name(n)} {n}\n" for n in FAMILIES[family])
    return f"#if defined(__HIP_PLATFORM_AMD__)\n{amd}#else\n{nvidia}#endif\n"
