"""The prove stage: each lifted kernel run beside clang's kernel of the HIP translation on the
gfx1100 emulator (cass_cc/emu), same planned inputs (cass_cc/sass/inputs), every buffer compared.

Per unit: clang's `.s` of each file (build-amd) and the lifter's `.s` of each cubin (extract) are
assembled (llvm-mc-16) and linked (ld.lld-16) into code objects; for each lifted pair whose kernel
is in clang's code (by name, or by its signature as CUDA spells it: HIP's vector and bf16 types
mangle otherwise; cass_cc/emu/differential.py kernel_in), the inputs are planned from the cubin's parameter records and demangled
signature, and the launches of inputs.shapes() (the program's own block size when its source
says it, then inputs.SHAPES) are tried in order until clang's kernel runs and writes a buffer;
the lifted kernel then runs on that launch and inputs. Outcomes per pair:

    proven     every buffer the same (bytes, or floats within the planner's tolerance)
    differs    a buffer differs: the pair is rejected ("lifted kernel differs on the emulator")
    compiled   no proof either way, with the reason (inputs not planned, a fault, the budget,
               clang's kernel writing nothing, another argument layout, an instruction the
               emulator does not cover)

Deterministic: the inputs depend on the plan alone, the emulator's budget counts instructions.
"""
from __future__ import annotations

import base64
import shutil
import subprocess
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from cass_cc.util import first_line

from .context import Context, reject, unit_folder

DIFFERS = "lifted kernel differs on the emulator"


def pair_key(p: dict[str, Any]) -> str:
    return f"{p['sm']}|{p['file']}|{p['kernel']}"


class BuildError(Exception):
    pass


def _tool(argv: list[str], what: str) -> None:
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
        raise BuildError(f"{what} failed: {' | '.join(lines[:2]) or f'exit {proc.returncode}'}")


def _code_object(asm: str, folder: Path, name: str, ctx: Context, version5: bool) -> Any:
    """assemble + link one .s; the lifter's llc output is code object v5 (assembled as
    --emit-rdna3 does), clang-15's carries v4 metadata (llvm-mc-16's default)."""
    from cass_cc.emu import load

    s, o, co = folder / f"{name}.s", folder / f"{name}.o", folder / f"{name}.co"
    s.write_text(asm)
    v5 = ["--amdhsa-code-object-version=5"] if version5 else []
    _tool([ctx.found.path("llvm-mc"), "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx1100", *v5, "-filetype=obj", str(s),
           "-o", str(o)], "llvm-mc")
    _tool([ctx.found.path("ld.lld"), "-shared", str(o), "-o", str(co)], "ld.lld")
    return load(co)


def prove_pair(clang_co: Any, lifted_co: Any, kernel: Any, block: tuple[int, int, int] | None = None) -> dict[str, Any]:
    """One lifted kernel against clang's: {"outcome": proven | differs | compiled, "reason", "detail"}.
    block: the program's own block size for this kernel (tried first), when known."""
    from cass_cc.emu.differential import run_beside

    r = run_beside(clang_co, lifted_co, kernel, block, names=("clang's kernel", "lifted kernel"))
    if r["outcome"] == "differs":
        return {"outcome": "differs", "reason": DIFFERS, "detail": r["detail"]}
    if r["outcome"] == "same":
        return {"outcome": "proven", "reason": "",
                "detail": f"agrees with clang's gfx1100 kernel on the emulator: {r['detail']}"}
    return {"outcome": "compiled", "reason": r["reason"], "detail": r["detail"]}


def has_kernel(clang_kernels: set[str], kernel: str) -> bool:
    """Whether clang's code has the cubin's `kernel` (mangled): by name, or by the signature as
    CUDA spells it (HIP's vector and bf16 types mangle otherwise; differential.kernel_in)."""
    from cass_cc.emu.differential import kernel_in
    from cass_cc.sass.cubin import demangle

    cubin_kernel = SimpleNamespace(name=kernel, demangled=demangle([kernel])[kernel])
    return bool(kernel_in(SimpleNamespace(kernels=clang_kernels), cubin_kernel))


def prove_unit(sources: dict[str, str], nvidia: dict[str, Any], amd: dict[str, Any], extracted: dict[str, Any],
               ctx: Context, scratch: str) -> dict[str, Any]:
    from cass_cc.sass.cubin import read
    from cass_cc.sass.inputs import source_block

    from .asm import rdna3_kernels

    clang_asm = amd.get("asm", {}) if amd.get("ok") else {}
    clang_kernels = {rel: set(rdna3_kernels(text)) for rel, text in clang_asm.items()}
    todo = [p for p in extracted.get("pairs", []) if p["task"] == "sass-rdna3-lifted"
            and has_kernel(clang_kernels.get(p["file"], set()), p["kernel"])]
    results: dict[str, dict[str, Any]] = {}
    folder = Path(scratch)
    clang_cos: dict[str, Any] = {}
    lifted_cos: dict[int, Any] = {}
    cubin_kernels: dict[tuple[str, int], dict[str, Any]] = {}
    modules = extracted.get("modules", [])
    for p in todo:
        key = pair_key(p)
        try:
            if p["file"] not in clang_cos:
                clang_cos[p["file"]] = _code_object(clang_asm[p["file"]], folder, f"clang{len(clang_cos)}", ctx, False)
            m = p.get("module", -1)
            if not 0 <= m < len(modules):
                results[key] = {"outcome": "compiled", "reason": "no lifted module stored (extract before version 2)"}
                continue
            if rdna3_kernels(modules[m]).get(p["kernel"]) != p["rdna3"]:
                results[key] = {"outcome": "compiled", "reason": "the pair's text is not its module's kernel"}
                continue
            if m not in lifted_cos:
                lifted_cos[m] = _code_object(modules[m], folder, f"lifted{m}", ctx, True)
            ck = (p["sm"], p["cubin"])
            if ck not in cubin_kernels:
                path = folder / f"k{p['cubin']}.{p['sm']}.cubin"
                path.write_bytes(base64.b64decode(nvidia["sms"][p["sm"]]["cubins"][p["cubin"]]["cubin"]))
                cubin_kernels[ck] = {k.name: k for k in read(path, int(p["sm"][3:]))[0].kernels}
        except (BuildError, subprocess.TimeoutExpired) as e:
            results[key] = {"outcome": "compiled", "reason": "code object not built", "detail": first_line(e)}
            continue
        except Exception as e:  # noqa: BLE001 - a code object the loader refuses is this pair's outcome
            results[key] = {"outcome": "compiled", "reason": f"code object not loaded ({type(e).__name__})",
                            "detail": first_line(e)}
            continue
        kernel = cubin_kernels[ck].get(p["kernel"])
        if kernel is None:
            results[key] = {"outcome": "compiled", "reason": "kernel not in its cubin"}
            continue
        results[key] = prove_pair(clang_cos[p["file"]], lifted_cos[m], kernel, source_block(sources, kernel.demangled))
    return {"ok": True, "pairs": results}


def prove(sources: dict[str, str], nvidia: dict[str, Any], amd: dict[str, Any], extracted: dict[str, Any],
          ctx: Context) -> dict[str, Any]:
    if not (ctx.has("llvm-mc") and ctx.has("ld.lld")):
        return reject("no llvm-mc/ld.lld here", "the prove stage assembles gfx1100 code objects")
    scratch = unit_folder(ctx)
    try:
        return prove_unit(sources, nvidia, amd, extracted, ctx, scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

