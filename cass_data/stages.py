"""The per-unit stages, each a function of its inputs and the Context (run in workers):

    translate(unit)            -> HIP files (cass-cc's translator chain, as `cass-cc port` writes them)
    build_nvidia(unit)         -> a cubin per sm (and per .cu of a tree) from nvcc
    build_amd(unit, hip)       -> gfx1100 assembly from clang (device -S) + a host-side check
    extract(nvidia, amd)       -> SASS and RDNA3 per kernel; lifter pairs where the lifter covers a kernel
    prove(unit, nvidia, amd, extract) -> each lifted kernel beside clang's on the gfx1100 emulator ("proven")
    verify(unit, hip)          -> both programs built for NVIDIA and run; "executed" when they agreed

A result is a dict with "ok" and, when not ok, "reason" (a short class for the counts) and
"detail". Nothing here raises for a program's failure.
"""
from __future__ import annotations

import base64
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from cass_cc.toolchain import hipclang

from .asm import rdna3_kernels, sass_kernels
from .context import HIP_FLAGS, NVCC_FLAGS, Context, reject, unit_folder
from .sandbox import Limits, run, scrubbed_env

VERSIONS = {"translate": 1, "build-nvidia": 1, "build-amd": 1, "extract": 2, "prove": 2, "verify": 1}
TRANSLATED = (".cu", ".cuh", ".h", ".hpp", ".hh", ".inc", ".inl", ".cpp", ".c")


def _write(files: dict[str, str], folder: str) -> None:
    for rel, text in files.items():
        p = Path(folder, rel)
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(text.encode("utf-8", "surrogateescape"))


def _cu_files(unit: dict[str, Any]) -> list[str]:
    if unit["kind"] == "tree":
        return sorted(r for r in unit["files"] if r.endswith(".cu"))
    return [unit["main"]]


# ------------------------------------------------------------------ translate

_CHAINS: dict[str, Any] = {}


def _chain(spec: str) -> Any:
    if spec not in _CHAINS:
        from cass_cc.config import load
        from cass_cc.translate import chain_from_setting

        config = load() if "model" in spec else None
        _CHAINS[spec] = chain_from_setting(spec, config, dict(os.environ))
    return _CHAINS[spec]


def translate(unit: dict[str, Any], ctx: Context) -> dict[str, Any]:
    from cass_cc.port.buildfiles import build_file_kind, rewrite_build_file
    from cass_cc.port.files import strip_line_directive
    from cass_cc.translate import Target, TranslationError

    chain = _chain(ctx.settings.translator)
    target = Target(hip_version=tuple(ctx.hip_version), wave_size=32)  # type: ignore[arg-type]
    hip: dict[str, str] = {}
    diagnostics: list[str] = []
    unsupported: list[str] = []
    translator = ""
    for rel, text in unit["files"].items():
        if rel.endswith(TRANSLATED):
            try:
                t = chain.translate(text, rel, target)
            except TranslationError as e:
                return reject("translation failed", f"{rel}: {e}")
            hip[rel] = strip_line_directive(t.text, rel)
            translator = translator or t.translator
            diagnostics += [d.format(rel) for d in t.diagnostics if d.severity != "note"]
            unsupported += list(t.unsupported)
        elif build_file_kind(rel):
            hip[rel] = rewrite_build_file(rel, text, ["gfx1100"])[0]
        else:
            hip[rel] = text
    return {"ok": True, "hip": hip, "translator": translator or ctx.identity.get("translator", ""),
            "diagnostics": diagnostics[:50], "unsupported": sorted(set(unsupported))}


# ------------------------------------------------------------------ build

def _limits(ctx: Context) -> Limits:
    return Limits(wall=ctx.settings.build_timeout, cpu=int(ctx.settings.build_timeout) + 30)


def build_nvidia(unit: dict[str, Any], ctx: Context) -> dict[str, Any]:
    if not ctx.has("nvcc"):
        return reject("no nvcc here")
    scratch = unit_folder(ctx)
    try:
        _write(unit["files"], scratch)
        env = scrubbed_env(scratch, [os.path.dirname(ctx.found.path("nvcc"))])
        out: dict[str, Any] = {}
        for sm in ctx.settings.sms:
            cubins, logs = [], []
            for i, rel in enumerate(_cu_files(unit)):
                target = os.path.join(scratch, f"k{i}.{sm}.cubin")
                folder = os.path.dirname(os.path.join(scratch, rel))
                r = run([ctx.found.path("nvcc"), *NVCC_FLAGS, f"-arch={sm}", "-cubin", f"-I{folder}", f"-I{scratch}",
                         os.path.join(scratch, rel), "-o", target], scratch, env, _limits(ctx))
                if r.ok and os.path.isfile(target):
                    cubins.append({"file": rel, "cubin": base64.b64encode(Path(target).read_bytes()).decode()})
                else:
                    logs.append(f"{rel}: " + ("timed out" if r.code is None else r.tail()))
            out[sm] = {"ok": bool(cubins), "cubins": cubins, "log": "\n".join(logs)[-2000:]}
        if not any(v["ok"] for v in out.values()):
            return {**reject("nvcc failed", next(iter(out.values()))["log"] if out else ""), "sms": out}
        return {"ok": True, "sms": out}
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def build_amd(unit: dict[str, Any], hip: dict[str, str], ctx: Context) -> dict[str, Any]:
    if ctx.settings.skip_amd:
        return reject("gfx1100 side skipped")
    if not ctx.has("clang"):
        return reject("no clang here", "the gfx1100 side needs a HIP-capable clang (run this stage where it is)")
    scratch = unit_folder(ctx)
    try:
        _write(hip, scratch)
        env = scrubbed_env(scratch, [os.path.dirname(ctx.found.path("clang"))])
        # the store key names clang and HIP; llvm-mc's version is part of the lifter's identity too
        hip = ctx.found.hip_clang()
        asm: dict[str, str] = {}
        for i, rel in enumerate(_cu_files(unit)):
            src = os.path.join(scratch, rel)
            flags = [*HIP_FLAGS, f"-I{scratch}", f"-I{os.path.dirname(src)}"]
            s_path = os.path.join(scratch, f"k{i}.s")
            r = run(hip.command(src, s_path, mode=hipclang.DEVICE_ASM, flags=flags), scratch, env, _limits(ctx))
            if not r.ok or not os.path.isfile(s_path):
                return reject("clang (gfx1100) failed", f"{rel}: " + ("timed out" if r.code is None else r.tail()))
            r = run(hip.command(src, None, mode=hipclang.HOST_SYNTAX, flags=flags), scratch, env, _limits(ctx))
            if not r.ok:
                return reject("clang (host side) failed", f"{rel}: " + ("timed out" if r.code is None else r.tail()))
            if ctx.has("llvm-mc"):  # -S does not assemble: inline asm and clang-15's output are checked here
                r = run([ctx.found.path("llvm-mc"), "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx1100", "-filetype=obj", s_path,
                         "-o", os.path.join(scratch, f"k{i}.o")], scratch, env, _limits(ctx))
                if not r.ok:
                    return reject("gfx1100 assembly rejected by llvm-mc", f"{rel}: {r.tail()}")
            asm[rel] = Path(s_path).read_text(errors="replace")
        return {"ok": True, "asm": asm}
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


# ------------------------------------------------------------------ extract

def extract(nvidia: dict[str, Any], amd: dict[str, Any] | None, ctx: Context) -> dict[str, Any]:
    """Pairs per kernel and sm: ("sass-rdna3": clang's gfx1100 code of the translation) and
    ("sass-rdna3-lifted": the lifter's gfx1100 code of that SASS); kernel-level misses counted."""
    scratch = unit_folder(ctx)
    try:
        rdna3: dict[str, str] = {}
        for text in (amd or {}).get("asm", {}).values():
            rdna3.update(rdna3_kernels(text))
        pairs: list[dict[str, Any]] = []
        modules: list[str] = []  # the lifter's whole .s per cubin (the prove stage runs it)
        misses: dict[str, int] = {}

        def miss(reason: str) -> None:
            misses[reason] = misses.get(reason, 0) + 1

        for sm, built in sorted(nvidia["sms"].items()):
            for i, entry in enumerate(built["cubins"]):
                path = os.path.join(scratch, f"k{i}.{sm}.cubin")
                Path(path).write_bytes(base64.b64decode(entry["cubin"]))
                r = run([ctx.found.path("cuobjdump"), "--dump-sass", path], scratch, scrubbed_env(scratch), Limits(wall=120))
                if not r.ok:
                    miss("cuobjdump failed")
                    continue
                sass = sass_kernels(r.stdout)
                for kernel in sorted(sass):
                    if amd is not None and amd.get("ok"):
                        if kernel in rdna3:
                            pairs.append({"task": "sass-rdna3", "kernel": kernel, "sm": sm, "sass": sass[kernel],
                                          "rdna3": rdna3[kernel], "file": entry["file"]})
                        else:
                            miss("kernel not on the gfx1100 side")
                if ctx.settings.lift and sass:
                    lifted, failed, module = lift(path, int(sm[3:]), ctx)
                    for kernel, why in sorted(failed.items()):
                        miss(why)
                    if lifted:
                        modules.append(module)
                    for kernel in sorted(lifted):
                        if kernel in sass:
                            pairs.append({"task": "sass-rdna3-lifted", "kernel": kernel, "sm": sm, "sass": sass[kernel],
                                          "rdna3": lifted[kernel], "file": entry["file"], "module": len(modules) - 1,
                                          "cubin": i})
        return {"ok": True, "pairs": pairs, "misses": misses, "modules": modules}
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def lift(cubin_path: str, sm: int, ctx: Context) -> tuple[dict[str, str], dict[str, str], str]:
    """The lifter's gfx1100 assembly per kernel (the `cass-cc --emit-rdna3` path: lift, opt/llc-16,
    and the .s must assemble with llvm-mc-16), the reason for each kernel it does not cover, and
    the whole .s (descriptors and metadata: what runs)."""
    from cass_cc.sass import codegen
    from cass_cc.sass.cubin import CubinError, read

    if not all(ctx.has(t) for t in ("nvdisasm", "opt", "llc", "llvm-mc")):
        return {}, {}, ""
    try:
        cubins = read(cubin_path, sm)
        report = codegen.lift_cubin(cubins[0], ctx.found.path("nvdisasm"))
    except (CubinError, Exception) as e:  # nvdisasm refusing a file is one item's failure
        return {}, {"?": f"lifter: {type(e).__name__}"}, ""
    failed = {name: "lifter: unsupported " + ", ".join(sorted(err.unsupported)[:2]) for name, err in report.failed.items()}
    if not report.lifted:
        return {}, failed, ""
    try:
        asm = codegen.gfx1100_asm(codegen.ir_module(report), ctx.found.path("opt"), ctx.found.path("llc"))
        with tempfile.TemporaryDirectory(prefix="cass-data-lift-") as tmp:
            s = Path(tmp, "k.s")
            s.write_text(asm)
            codegen.assemble(s, Path(tmp, "k.o"), ctx.found.path("llvm-mc"))
    except codegen.CodegenError as e:
        return {}, {**failed, **{k.name: f"lifter: {str(e).split(':')[0]}" for k in report.lifted}}, ""
    kernels = rdna3_kernels(asm)
    return {k.name: kernels[k.name] for k in report.lifted if k.name in kernels}, failed, asm


# ------------------------------------------------------------------ prove

def prove(unit: dict[str, Any], nvidia: dict[str, Any], amd: dict[str, Any], extracted: dict[str, Any],
          ctx: Context) -> dict[str, Any]:
    """Lifted kernels run beside clang's on the gfx1100 emulator (prove.py); the unit's CUDA
    sources say the block sizes its launches use."""
    from .prove import prove as prove_lifted

    return prove_lifted(unit["files"], nvidia, amd, extracted, ctx)


# ------------------------------------------------------------------ verify

def verify(unit: dict[str, Any], hip: dict[str, str], ctx: Context) -> dict[str, Any]:
    """Both programs built for NVIDIA (the translation with the HIP-on-NVIDIA compiler) and run with
    the differential runner, in a scratch folder, scrubbed environment, limits on each run."""
    from cass_cc.verify.runner import BuildSpec, Case, RunSpec, Tools
    from cass_cc.verify.runner import verify as run_case

    if unit["kind"] == "kernel":
        return reject("not a program (a kernel alone)")
    arch = ctx.settings.run_arch or ctx.settings.sms[-1]
    scratch = unit_folder(ctx)
    try:
        orig, port = os.path.join(scratch, "cuda"), os.path.join(scratch, "hip")
        _write(unit["files"], orig)
        _write(hip, port)
        limit = (f"ulimit -t {int(ctx.settings.run_timeout) + 5}; ulimit -f {512 * 1024}; ulimit -c 0; "
                 f"ulimit -u 1024 2>/dev/null; ")
        if unit["kind"] == "tree":
            build = BuildSpec(command=unit["build"].format(arch=arch), arch=arch, in_place=True,
                              timeout=ctx.settings.build_timeout)
            command = limit + unit["run"]["command"].format(arch=arch)
            case = Case(unit["id"], orig, port, build, RunSpec(command=command, timeout=ctx.settings.run_timeout,
                                                               memory_mb=ctx.settings.run_memory_mb), work=scratch)
        else:
            args = " ".join(unit["run"].get("args", [])) if unit.get("run") else ""
            build = BuildSpec(arch=arch, timeout=ctx.settings.build_timeout)
            run_spec = RunSpec(command=limit + f"exec ../prog {args}", timeout=ctx.settings.run_timeout,
                               memory_mb=ctx.settings.run_memory_mb, run=True)
            case = Case(unit["id"], os.path.join(orig, unit["main"]), os.path.join(port, unit["main"]), build,
                        run_spec, work=os.path.join(scratch, "work"))
        tools = Tools(ctx.found, ctx.hipnv_folder, True)
        env = scrubbed_env(scratch, [os.path.dirname(ctx.found.path("nvcc"))])
        result = run_case(case, tools, env)
        info = {"outcome": result.outcome, "runner_level": result.level, "reasons": result.reasons[:5],
                "diff": result.diff[-1500:], "seconds": round(result.seconds, 3),
                "original_verdict": result.original.run.verdict if result.original.run else None,
                "build_seconds": round(result.original.build_seconds + result.translation.build_seconds, 3),
                "run_seconds": round(sum(s.run.seconds for s in (result.original, result.translation) if s.run), 3)}
        code = result.original.run.exit_code if result.original.run else None
        if result.outcome == "agree":
            if code != 0:
                return {**reject("original exited non-zero", f"exit {code}"), **info}
            if info["original_verdict"] == "FAIL":
                return {**reject("original failed its own check"), **info}
            return {"ok": True, **info}
        reason = {"differ": "ran and differed", "timeout": "run timed out", "build-failed": "HIP-on-NVIDIA build failed",
                  "original-failed": "CUDA original did not build for the run"}.get(result.outcome, f"run: {result.outcome}")
        return {**reject(reason, (result.diff or "; ".join(result.reasons))), **info}
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
