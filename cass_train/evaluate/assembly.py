"""The assembly task: each suite program's kernels as cubins (nvcc -cubin, sm_80/89/90) turned
into RDNA3 (gfx1100) code by the SASS lifter (cass_cc/sass) or a CASS assembly model, then
assembled with llvm-mc-16 and linked with ld.lld into a code object.

    kernels = assemble_program(program, sm, how, tools, work)   # one record per kernel

Levels per kernel: `translated` (lifted / the model answered), `assembled` (llvm-mc accepts the
.s), `linked` (a code object), `equivalent`: where the program's header has an `// emu:` launch
for the kernel and the gfx1100 emulator (cass_cc/emu) is here, the kernel runs on it twice with
the same inputs: the translated code object and the reference, the rules translation of the
program compiled by clang for gfx1100; every buffer must match (floats within 1e-5). Without
the emulator or a launch line the kernel is `assembled, not run` (equivalent = None).
"""
from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Sequence

from cass_cc.toolchain.found import Found

FLOAT_RTOL = 1e-5


@dataclass
class KernelResult:
    kernel: str  # mangled name
    demangled: str
    sm: int
    translated: bool = False
    assembled: bool = False
    linked: bool = False
    equivalent: bool | None = None
    how: str = ""  # lifter | model
    error: str = ""  # first reason it stopped
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def emu_available() -> bool:
    try:
        import cass_cc.emu  # noqa: F401
    except ImportError:
        return False
    return True


# ---------------------------------------------------------------- emulator launches

@dataclass(frozen=True)
class Launch:
    kernel: str
    grid: tuple[int, ...]
    block: tuple[int, ...]
    shared: int
    args: tuple[str, ...]


_ARRAY = re.compile(r"^(f32|f64|i32|u32|u8)\[(\d+)\](?:=(0|rand))?$")
_SCALAR = re.compile(r"^(f32|f64|i32|u32|i64):(-?[0-9.eE+-]+)$")


def parse_launch(line: str) -> Launch:
    """`KERNEL grid=X[,Y,Z] block=X[,Y,Z] [shared=BYTES] args=A;B;...` with arrays `f32[N]` (random),
    `u32[N]=0` (zeros) and scalars `i32:16`."""
    words = line.split()
    if not words:
        raise ValueError("empty emu line")
    fields = dict(w.split("=", 1) for w in words[1:] if "=" in w)
    for key in ("grid", "block", "args"):
        if key not in fields:
            raise ValueError(f"emu line for {words[0]} has no {key}=")
    dims = lambda s: tuple(int(v) for v in s.split(","))  # noqa: E731
    args = tuple(a for a in fields["args"].split(";") if a)
    for a in args:
        if not (_ARRAY.match(a) or _SCALAR.match(a)):
            raise ValueError(f"emu argument '{a}' is not f32[N], u32[N]=0 or i32:VALUE")
    return Launch(words[0], dims(fields["grid"]), dims(fields["block"]), int(fields.get("shared", "0")), args)


def launch_args(launch: Launch, seed: int = 1) -> list[Any]:
    import numpy as np

    rng = np.random.default_rng(seed)
    out: list[Any] = []
    for a in launch.args:
        m = _ARRAY.match(a)
        if m:
            kind, n, fill = m.group(1), int(m.group(2)), m.group(3) or "rand"
            dtype = {"f32": np.float32, "f64": np.float64, "i32": np.int32, "u32": np.uint32, "u8": np.uint8}[kind]
            if fill == "0":
                out.append(np.zeros(n, dtype))
            elif kind in ("f32", "f64"):
                out.append(rng.uniform(-1, 1, n).astype(dtype))
            elif kind == "i32":
                out.append(rng.integers(-1000, 1000, n).astype(dtype))
            else:
                out.append(rng.integers(0, 256 if kind == "u8" else 2**32, n, dtype=np.uint64).astype(dtype))
            continue
        s = _SCALAR.match(a)
        assert s is not None
        kind, value = s.group(1), s.group(2)
        out.append({"f32": np.float32, "f64": np.float64, "i32": np.int32, "u32": np.uint32, "i64": np.int64}[kind](
            float(value) if kind.startswith("f") else int(value)))
    return out


def _fit_args(code_object: Path, mangled: str, args: list[Any], param_offsets: Sequence[int]) -> list[Any]:
    """The launch's arguments (one per CUDA parameter) laid onto a code object's explicit
    arguments: the lifter keeps CUDA's offsets and declares the gaps between parameters as
    arguments of their own, which get zero bytes."""
    from cass_cc.emu import load

    explicit = [a for a in load(str(code_object)).kernel(mangled).args if not a.kind.startswith("hidden_")]
    if len(explicit) == len(args) or len(param_offsets) != len(args):
        return args
    by_offset = dict(zip(param_offsets, args))
    return [by_offset[a.offset] if a.offset in by_offset else bytes(a.size) for a in explicit]


def reference_kernel(reference: Path, mangled: str, short: str) -> str | None:
    """The reference's name for the kernel: the same mangled name, else the one kernel of that
    base name (HIP mangles vector types differently: uint2 is HIP_vector_type<unsigned, 2>)."""
    from cass_cc.emu import load

    names = list(load(str(reference)).kernels)
    if mangled in names:
        return mangled
    same = [n for n in names if n.startswith(f"_Z{len(short)}{short}")]
    return same[0] if len(same) == 1 else None


def run_equivalence(launch: Launch, mangled: str, candidate: Path, reference: Path,
                    param_offsets: Sequence[int] = (), reference_name: str | None = None) -> tuple[bool | None, str]:
    """Both code objects on the emulator with the same inputs: (True, ""), (False, why) when the
    translated kernel differs or faults, (None, why) when the reference cannot be run."""
    import numpy as np

    from cass_cc.emu import launch as emu_launch

    args = launch_args(launch)
    try:
        want = emu_launch(str(reference), reference_name or mangled, launch.grid, launch.block,
                          [a.copy() if hasattr(a, "copy") else a for a in args], shared=launch.shared)
    except Exception as e:  # a reference the emulator cannot run says nothing about the candidate
        return None, f"not checked: the reference on the emulator: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
    try:
        fitted = _fit_args(candidate, mangled, args, param_offsets)
        got = emu_launch(str(candidate), mangled, launch.grid, launch.block, [a.copy() if hasattr(a, "copy") else a for a in fitted],
                         shared=launch.shared)
    except Exception as e:  # the emulator's faults, uncovered instructions, load errors
        return False, f"translated code on the emulator: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
    for i, (g, w) in enumerate(zip(got, want)):
        if g.dtype.kind == "f":
            same = np.allclose(g, w, rtol=FLOAT_RTOL, atol=1e-6, equal_nan=True)
        else:
            same = np.array_equal(g, w)
        if not same:
            bad = int(np.count_nonzero(~np.isclose(g, w, rtol=FLOAT_RTOL, atol=1e-6)) if g.dtype.kind == "f" else np.count_nonzero(g != w))
            return False, f"buffer {i}: {bad} of {g.size} elements differ from the reference"
    return True, ""


# ---------------------------------------------------------------- one program

def _run(argv: Sequence[str], what: str) -> str | None:
    proc = subprocess.run(list(argv), capture_output=True, text=True, errors="replace")
    if proc.returncode != 0:
        from .build import first_error

        return f"{what}: {first_error(proc.stdout + proc.stderr)}"
    return None


def assemble_program(program: Any, sm: int, tools: Found, work: Path, model: Any = None,
                     reference: Path | None = None) -> list[KernelResult]:
    """Every kernel of one program for one SM. `model`: an AssemblyModel (else the lifter);
    `reference`: the clang-compiled gfx1100 code object for the emulator check (None: skip)."""
    from cass_cc.sass import codegen
    from cass_cc.sass.cubin import CubinError, read

    work.mkdir(parents=True, exist_ok=True)
    cub = work / f"{program.name}.sm_{sm}.cubin"
    err = _run([tools.nvcc, f"-arch=sm_{sm}", "-O2", "-cubin", *(f"-I{d}" for d in tools.extra_cuda_includes), str(program.path),
                "-o", str(cub)], "nvcc -cubin")
    if err:
        return [KernelResult("*", "*", sm, error=err)]
    try:
        cubins = [c for c in read(cub) if c.sm == sm] or read(cub)
    except CubinError as e:
        return [KernelResult("*", "*", sm, error=str(e))]
    cb = cubins[0]
    launches: dict[str, Launch] = {}
    for line in program.emu:
        try:
            launch = parse_launch(line)
        except ValueError as e:
            return [KernelResult("*", "*", sm, error=f"{program.path}: {e}")]
        launches[launch.kernel] = launch
    results: list[KernelResult] = []
    if model is None:
        report = codegen.lift_cubin(cb, tools.nvdisasm)
        lifted = {lk.name: lk for lk in report.lifted}
    else:
        from cass_cc.sass.modelpath import ModelPathError, sass_texts  # the CASS text form, as --emit-rdna3 sends

        try:
            texts = sass_texts(cb, tools.cuobjdump)
        except ModelPathError as e:
            return [KernelResult("*", "*", sm, error=str(e))]
        names = [k.name for k in cb.kernels]
        answers = dict(zip(names, model.translate([texts.get(n, "") for n in names])))
    for k in cb.kernels:
        r = KernelResult(k.name, k.demangled, sm, how="model" if model is not None else "lifter")
        results.append(r)
        s_path, o_path, co_path = work / f"{k.name}.sm_{sm}.s", work / f"{k.name}.sm_{sm}.o", work / f"{k.name}.sm_{sm}.co"
        if model is None:
            if k.name not in lifted:
                e = report.failed.get(k.name)
                r.error = "not lifted: unsupported " + ", ".join(e.unsupported) if e is not None else "not lifted"
                continue
            r.translated = True
            sub = codegen.LiftReport(cb, [lifted[k.name]], {}, report.functions)
            try:
                asm = codegen.gfx1100_asm(codegen.ir_module(sub), tools.opt, tools.llc)
            except codegen.CodegenError as e:
                r.error = str(e).splitlines()[0]
                continue
        else:
            asm = answers.get(k.name)
            if asm is None:
                r.error = "the model gave no assembly that llvm-mc accepts"
                continue
            r.translated = True
        s_path.write_text(asm)
        err = _run([tools.llvm_mc, "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx1100", codegen.CODE_OBJECT, "-filetype=obj",
                    str(s_path), "-o", str(o_path)], "llvm-mc")
        if err:
            r.error = err
            continue
        r.assembled = True
        err = _run([tools.ld_lld, "-shared", str(o_path), "-o", str(co_path)], "ld.lld")
        if err:
            r.error = err
            continue
        r.linked = True
        short = re.split(r"[<(]", k.demangled)[0].split()[-1].split("::")[-1]  # "void reduce<256u, long long>(...)" -> reduce
        launch = launches.get(short) or launches.get(k.name)
        if launch is None:
            r.note = "assembled, not run: no emu launch line for this kernel"
        elif not emu_available():
            r.note = "assembled, not run: no gfx1100 emulator (cass_cc/emu)"
        elif reference is None or not reference.exists():
            r.note = "assembled, not run: no reference code object (needs clang for gfx1100)"
        else:
            offsets = [q.offset for q in sorted(k.params, key=lambda q: q.offset)]
            ref_name = reference_kernel(reference, k.name, short)
            if ref_name is None:
                r.note = f"assembled, not run: no kernel named {short} in the reference"
            else:
                r.equivalent, why = run_equivalence(launch, k.name, co_path, reference, offsets, ref_name)
                if r.equivalent is False:
                    r.error = why
                elif r.equivalent is None:
                    r.note = "assembled, " + why
    return results


def tools_ok() -> str:
    """Empty when the assembly task's tools are here, else why not (for a skip)."""
    for tool in ("llvm-mc-16", "ld.lld-16", "llc-16"):
        if not shutil.which(tool):
            return f"{tool} not found"
    return ""
