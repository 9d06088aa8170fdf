"""Build the test kernels once per session and run them on the CPU SIMT runtime.

Per SM: one .cu holding every case -> nvcc -cubin -> cass_cc.sass lifts each kernel twice,
for gfx1100 (opt/llc-16, then llvm-mc-16 assembles the .s) and for x86-64 (opt/llc-16 to an
object linked with simt.c into a shared library). References are plain C in one more
library. Every artifact is cached under the shared test cache, keyed by everything that
changes it, and built under a file lock, so xdist workers build each thing once.
"""
from __future__ import annotations

import ctypes
import os
import random
import struct
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from cass_cc.sass import codegen, cubin
from cass_cc.sass.runtime import RUNTIME_IR
from cass_cc.sass.targets import CPU, GFX1100, module
from cass_cc.toolchain import Toolchain
from cass_cc.util import sha256_hex
from tests.conftest import SHARED_CACHE, built_once, file_lock
from tests.conftest import run_checked as _run
from tests.sass.kernels import CASES, PRELUDE_C, PRELUDE_CUDA, Buf, Case, Raw, Scalar

SMS = (80, 86, 89, 90)
HERE = Path(__file__).resolve().parent
SASS_SRC = HERE.parent.parent / "cass_cc" / "sass"
CACHE = SHARED_CACHE / "sass"

CTYPES = {"i32": ctypes.c_int32, "u32": ctypes.c_uint32, "i64": ctypes.c_int64, "f32": ctypes.c_float, "f64": ctypes.c_double}
FMT = {"i32": "i", "u32": "I", "i64": "q", "f32": "f", "f64": "d", "i8": "b", "u8": "B", "i16": "h"}


def _hash(*parts: str | bytes) -> str:
    return sha256_hex(*parts)[:20]


def lifter_identity() -> str:
    """The lifter's sources (its runtime functions' IR included), and the LLVM fixes plugin opt
    loads (toolchain/llvmfix.py)."""
    guard = SASS_SRC.parent / "toolchain" / "llvmfix.cpp"
    sources = [*sorted(SASS_SRC.glob("*.py")), *sorted(RUNTIME_IR.glob("*.ll"))]
    return _hash(*(p.read_bytes() for p in sources), guard.read_bytes(), os.environ.get("CASS_CC_NO_LLVM_FIXES", ""))


def locked(name: str):  # type: ignore[no-untyped-def]
    return file_lock(CACHE, name)


def cached(name: str, key: str, build) -> Path:  # type: ignore[no-untyped-def]
    """CACHE/<key>/<name>, made by build(path) once across workers and runs."""
    return built_once(CACHE, name, key, build)


def cuda_source() -> str:
    return PRELUDE_CUDA + "\n".join(c.cuda for c in CASES) + "\n"


def ref_source() -> str:
    return PRELUDE_C + "\n".join(f"REF({c.name}) {{ (void)gx; (void)gy; (void)gz; (void)bx; (void)by; (void)bz; (void)dyn;\n{c.ref}\n}}" for c in CASES) + "\n"


@dataclass
class SmBuild:
    sm: int
    cubin: cubin.Cubin
    cpu: codegen.LiftReport
    amd: codegen.LiftReport
    asm: str
    lib: ctypes.CDLL
    errors: list[str] = field(default_factory=list)

    def kernel(self, name: str) -> cubin.Kernel:
        for k in self.cubin.kernels:
            if k.demangled.split("(")[0] == name or k.name == name:
                return k
        raise KeyError(name)


@dataclass
class Build:
    sms: dict[int, SmBuild]
    refs: ctypes.CDLL


def build_all() -> Build:
    tc = Toolchain(os.environ)
    nvcc, nvdisasm = tc.nvcc.path, tc.nvdisasm.path
    opt, llc, mc = tc.tool("opt").path, tc.tool("llc").path, tc.llvm_mc.path
    cc = tc.host_cc().path
    src = cuda_source()
    ident = lifter_identity()

    def one_sm(sm: int) -> SmBuild:
        def compile_cubin(path: Path) -> None:
            cu = path.with_suffix(".cu")
            cu.write_text(src)
            _run([nvcc, "-cubin", f"-arch=sm_{sm}", "-O3", "-o", str(path), str(cu)])

        cub_path = cached(f"sm_{sm}.cubin", _hash(src, tc.nvcc.version_text, str(sm)), compile_cubin)
        cb = cubin.read(cub_path)[0]
        fns = codegen.disassemble(cb.data, nvdisasm)
        cpu = codegen.lift_cubin(cb, nvdisasm, CPU, fns)
        amd = codegen.lift_cubin(cb, nvdisasm, GFX1100, fns)
        amd_ir = module(GFX1100, amd.lifted, amd.kernels)
        cpu_ir = module(CPU, cpu.lifted, cpu.kernels)
        errors: list[str] = []

        def compile_asm(path: Path) -> None:
            text = codegen.gfx1100_asm(amd_ir, opt, llc)
            path.write_text(text)
            codegen.assemble(path, path.with_suffix(".o"), mc)

        asm = ""
        try:
            asm = cached(f"sm_{sm}.s", _hash(amd_ir, ident), compile_asm).read_text()
        except Exception as e:  # reported per kernel by the tests
            errors.append(f"gfx1100 build: {e}")

        def compile_lib(path: Path) -> None:
            ll = path.with_suffix(".ll")
            ll.write_text(cpu_ir)
            bc, obj = path.with_suffix(".bc"), path.with_suffix(".o")
            _run([opt, "-O2", str(ll), "-o", str(bc)])
            _run([llc, "-O2", "-filetype=obj", "-relocation-model=pic", str(bc), "-o", str(obj)])
            _run([cc, "-O2", "-shared", "-fPIC", "-o", str(path), str(obj), str(HERE / "simt.c"), "-lm"])

        lib_path = cached(f"sm_{sm}.so", _hash(cpu_ir, ident, (HERE / "simt.c").read_text()), compile_lib)
        return SmBuild(sm, cb, cpu, amd, asm, ctypes.CDLL(str(lib_path)), errors)

    def compile_refs(path: Path) -> None:
        c = path.with_suffix(".c")
        c.write_text(ref_source())
        _run([cc, "-O1", "-ffp-contract=off", "-fno-builtin", "-shared", "-fPIC", "-o", str(path), str(c), "-lm"])

    with ThreadPoolExecutor(max_workers=4) as pool:
        futures = {sm: pool.submit(one_sm, sm) for sm in SMS}
        refs_path = cached("refs.so", _hash(ref_source()), compile_refs)
        sms = {sm: f.result() for sm, f in futures.items()}
    return Build(sms, ctypes.CDLL(str(refs_path)))


# ---- running one case ---------------------------------------------------------------------


def _values(arg: Buf, rng: random.Random) -> list:
    specials = [0.0, -0.0, float("inf"), float("-inf"), float("nan"), 1e-40, -3e-39, 1e30, -1e-37, 3.0, 1e38, -2.5e-38]
    out = []
    for i in range(arg.n):
        if arg.ty in ("f32", "f64"):
            if arg.gen == "wide":  # doubles over the whole exponent range, subnormals and specials
                out.append(_wide_double(rng, i))
            elif arg.gen == "special" and i % 4 == 0:
                out.append(specials[(i // 4) % len(specials)])
            elif arg.gen == "pos":
                out.append(rng.uniform(0.1, 10.0))
            else:
                out.append(rng.uniform(-1.0, 1.0))
        elif arg.gen == "bits":
            bits = 64 if arg.ty == "i64" else 32
            v = rng.getrandbits(bits)
            out.append(v - (1 << bits) if arg.ty[0] == "i" and v >= 1 << (bits - 1) else v)
        elif arg.gen == "bf16":  # two finite bfloat16 per word, half of them near 1
            halves = []
            for _ in range(2):
                exp = rng.randint(0, 254) if rng.random() < 0.5 else rng.randint(118, 136)
                halves.append((rng.getrandbits(1) << 15) | (exp << 7) | rng.getrandbits(7))
            out.append(halves[0] | halves[1] << 16)
        elif arg.gen == "f16x2":  # two finite fp16 per word, signed zeros among them
            halves = [(rng.getrandbits(1) << 15) | ((rng.randint(1, 30) << 10 | rng.getrandbits(10)) if rng.random() > 0.05 else 0)
                      for _ in range(2)]
            out.append(halves[0] | halves[1] << 16)
        elif arg.gen in ("bf16s", "f16s"):  # two 16-bit lanes, half of them NaNs, zeros, infinities, denormals, constants
            table = BF16_SPECIALS if arg.gen == "bf16s" else F16_SPECIALS
            halves = [rng.choice(table) if rng.random() < 0.5 else rng.getrandbits(16) for _ in range(2)]
            out.append(halves[0] | halves[1] << 16)
        elif arg.gen == "small":
            out.append(rng.randint(0, 15))
        else:
            out.append(rng.randint(-1000, 1000) if arg.ty[0] == "i" else rng.randint(0, 2000))
    return out


# 16-bit encodings the min/max and compare kernels meet often: +-0, +-inf, quiet and
# signed NaNs with payloads, denormals, and the constants the kernels compare against
BF16_SPECIALS = [0x0000, 0x8000, 0x7F80, 0xFF80, 0x7FC0, 0xFFA1, 0x3F80, 0xBF80, 0x0001, 0x8001]
F16_SPECIALS = [0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0xFD01, 0x3A00, 0xBF40, 0x008F, 0x808F, 0x3400, 0xB800, 0x0001]


def _wide_double(rng: random.Random, i: int) -> float:
    specials = [0.0, -0.0, float("inf"), float("-inf"), float("nan"), 5e-324, -2.2250738585072014e-308, 1.7976931348623157e308, 1.0, -3.0]
    if i % 16 == 0:
        return specials[(i // 16) % len(specials)]
    exp = rng.choice([rng.randint(0, 2046), rng.randint(0, 60), rng.randint(1986, 2046), 0, 1023])
    bits = (rng.getrandbits(1) << 63) | (exp << 52) | rng.getrandbits(52)
    return struct.unpack("<d", struct.pack("<Q", bits))[0]


def _size_align(arg) -> tuple[int, int]:
    if isinstance(arg, Raw):
        return arg.size, arg.align
    if isinstance(arg, Buf):
        return 8, 8
    return ({"i32": 4, "u32": 4, "f32": 4, "i64": 8, "f64": 8, "i8": 1, "u8": 1, "i16": 2}[arg.ty],) * 2


def expected_layout(case: Case) -> list[tuple[int, int]]:
    pos, out = 0, []
    for a in case.args:
        size, align = _size_align(a)
        pos = (pos + align - 1) // align * align
        out.append((pos, size))
        pos += size
    return out


DIMS_DATA = (ctypes.c_int32 * 120)(*[(i * 7919) % 1000 - 500 for i in range(120)])  # read-only, shared by kernel and reference


def _raw_bytes(arg: Raw) -> bytes:
    if arg.fill == "dims":  # struct Dims { const int *data; long long size[25], stride[25]; int n; }: 2x3x4x5 view of DIMS_DATA
        sizes, strides = [2, 3, 4, 5] + [1] * 21, [60, 20, 5, 1] + [0] * 21
        data = struct.pack("<Q25q25qi4x", ctypes.addressof(DIMS_DATA), *sizes, *strides, 4)
        assert len(data) == arg.size
        return data
    if arg.fill == "bigstruct":
        data = struct.pack("<32fi4xd", *[j * 0.25 - 3.0 for j in range(32)], 3, 0.125)
        assert len(data) == arg.size
        return data
    raise ValueError(arg.fill)


def kernargs(case: Case, buffers: list, layout: list[tuple[int, int]], address=ctypes.addressof) -> bytes:
    """A case's packed parameter bytes at the kernel's parameter offsets; a buffer's pointer is
    address(buffer) (another runtime, e.g. the gfx1100 emulator, passes its device addresses)."""
    size = max((o + s for o, s in layout), default=8)
    raw = bytearray(size)
    for a, buf, (off, sz) in zip(case.args, buffers, layout):
        if isinstance(a, Buf):
            struct.pack_into("<Q", raw, off, address(buf))
        elif isinstance(a, Scalar):
            struct.pack_into("<" + FMT[a.ty], raw, off, a.value)
        else:
            raw[off : off + sz] = _raw_bytes(a)
    return bytes(raw)


def _pack(case: Case, buffers: list, layout: list[tuple[int, int]]) -> ctypes.Array:
    raw = kernargs(case, buffers, layout)
    return (ctypes.c_uint8 * len(raw)).from_buffer_copy(raw)


def _same(a: float, b: float, ty: str, rtol: float) -> bool:
    if ty not in ("f32", "f64"):
        return a == b
    if a != a and b != b:
        return True
    if rtol == 0.0:
        fmt = "<f" if ty == "f32" else "<d"
        return struct.pack(fmt, a) == struct.pack(fmt, b)
    if a == b:
        return True
    return abs(a - b) <= rtol * max(abs(a), abs(b)) + rtol


@dataclass
class Outcome:
    mismatches: list[str]
    checked: int


def run_case(b: Build, sm: int, case: Case) -> Outcome:
    smb = b.sms[sm]
    k = smb.kernel(case.name)
    layout = [(p.offset, p.size) for p in k.params]
    rng = random.Random(case.name)
    kbufs, rbufs = [], []
    for a in case.args:
        if isinstance(a, Buf):
            vals = _values(a, rng) if a.kind != "out" else [0] * a.n
            ct = CTYPES[a.ty] * a.n
            kbufs.append(ct(*vals))
            rbufs.append(ct(*vals))
        else:
            kbufs.append(None)
            rbufs.append(None)
    kparams, rparams = _pack(case, kbufs, layout), _pack(case, rbufs, layout)
    lifted = next(lk for lk in smb.cpu.lifted if lk.name == k.name)
    fn = smb.lib[f"{k.name}.body"]
    grid = (ctypes.c_uint * 3)(*case.grid)
    block = (ctypes.c_uint * 3)(*case.block)
    launch = smb.lib.cass_launch
    launch.restype = ctypes.c_int
    rc = launch(ctypes.cast(fn, ctypes.c_void_p), grid, block, kparams, ctypes.c_uint(lifted.shared_size + case.dyn))
    if rc != 0:
        return Outcome([f"cass_launch returned {rc}"], 0)
    ref = b.refs[f"ref_{case.name}"]
    ref(*[ctypes.c_uint(x) for x in (*case.grid, *case.block, case.dyn)], rparams)
    bad: list[str] = []
    checked = 0
    for idx, a in enumerate(case.args):
        if not isinstance(a, Buf) or a.kind == "in":
            continue
        for i in range(a.n):
            got, want = kbufs[idx][i], rbufs[idx][i]
            checked += 1
            if not _same(got, want, a.ty, case.rtol):
                bad.append(f"arg {idx}[{i}]: lifted {got!r}, reference {want!r}")
    return Outcome(bad, checked)
