"""The lifter checked on an NVIDIA GPU: each kernel's lifted IR, compiled back to PTX, run
beside the original cubin on the same inputs (issue: cubin -> RDNA3, proof (b)).

    # here (nvcc, nvdisasm, opt/llc-16): cubins for sm_90, lifted, PTX; one folder to carry
    python3 bench/sass_gpu_check.py prepare --out .sassgpu [--hecbench /tmp/hecfull --names ../shared/eval/hecbench_dev.txt]
    # on the GPU machine (CUDA driver only: ctypes, no toolkit needed)
    python3 bench/sass_gpu_check.py run --root .sassgpu --out results.jsonl
    python3 bench/sass_gpu_check.py summary results.jsonl

Inputs come from the kernel's demangled signature: every pointer gets its own 16 MiB buffer
of values of its element type (floats in [0, 1), integers in [0, 64) so data-driven indices
stay in bounds), integer scalars 64, float scalars 1.5, by-value structs small integers;
a launch of 3 blocks of 64 threads (or the kernel's required block size) with 8 KiB of
dynamic shared memory. The original runs twice (a kernel whose two runs differ is
nondeterministic: atomics ordering, races) and the lifted kernel once; every buffer is then
compared, bytes first, then as its element type with a relative tolerance of 1e-5.
Outcomes: agree, differ, lifted-fault, nondeterministic, original-fault, timeout.
A fault poisons a CUDA context, so kernels run in a worker process the parent restarts.
"""
from __future__ import annotations

import collections
import ctypes
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import click

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench._cli import CONTEXT  # noqa: E402
from cass_cc.click_main import run_click  # noqa: E402

SM = 90
BUF_BYTES = 16 << 20
DYN_SHARED = 8 << 10
GRID, BLOCK = (3, 1, 1), (64, 1, 1)
INT_SCALAR, FLOAT_SCALAR = 64, 1.5
RTOL, ATOL = 1e-5, 1e-6
KERNEL_TIMEOUT = 20.0
# A kernel whose original run faults or is nondeterministic under the first shape (it
# assumes another block shape, reads shared memory no thread of ours wrote) is tried again
# under the next; the first conclusive outcome stands.
# Later shapes: one block (no inter-block races: atomics ordering, look-back scans), one warp
# with integers in [0, 4), and by-value structs whose first 8 bytes point at a buffer of their
# own (Thrust/CUB agents and tensor descriptors carry their data pointer there).
SHAPES = [{}, {"block": [256, 1, 1], "grid": [2, 1, 1], "int_value": 256},
          {"block": [16, 16, 1], "grid": [2, 2, 1], "int_value": 32},
          {"block": [64, 1, 1], "grid": [1, 1, 1]},
          {"block": [32, 1, 1], "grid": [1, 1, 1], "int_value": 16, "int_high": 4},
          {"struct_pointer": True},
          {"struct_pointer": True, "block": [64, 1, 1], "grid": [1, 1, 1], "int_high": 4}]
WORKERS = 4  # worker processes at once: module loads (the driver's PTX JIT) are CPU-bound
INCONCLUSIVE = ("nondeterministic", "original-fault", "timeout", "worker-crash")
# Errors after which a CUDA context is unusable.
STICKY = ("ILLEGAL_ADDRESS", "LAUNCH_FAILED", "MISALIGNED", "ILLEGAL_INSTRUCTION", "HARDWARE_STACK", "INVALID_PC",
          "ASSERT", "TRAP", "EXCEPTION", "LAUNCH_TIMEOUT")

# element type of a pointer (as demangled) -> numpy dtype name
ELEMENT = {"float": "float32", "double": "float64", "int": "int32", "unsigned int": "uint32", "long": "int64",
           "unsigned long": "uint64", "long long": "int64", "unsigned long long": "uint64", "short": "int16",
           "unsigned short": "uint16", "char": "int8", "signed char": "int8", "unsigned char": "uint8", "bool": "bool",
           "__half": "float16", "half": "float16", "int2": "int32", "float2": "float32", "float4": "float32",
           "double2": "float64", "int4": "int32", "uint4": "uint32", "uint2": "uint32", "float3": "float32",
           "unsigned": "uint32", "size_t": "uint64"}
SCALAR_INT = {"int", "unsigned int", "long", "unsigned long", "long long", "unsigned long long", "short",
              "unsigned short", "char", "signed char", "unsigned char", "bool", "unsigned", "size_t"}


# ---- here: build, lift, compile to PTX ----------------------------------------------------

def _arg_plan(kernel, lifted_shared: int) -> dict:  # type: ignore[no-untyped-def]
    params = sorted(kernel.params, key=lambda p: p.offset)
    from cass_cc.sass.inputs import param_types  # the planner's signature reader

    types = param_types(kernel.demangled)
    if types is not None and len(types) != len(params):
        types = None
    args = []
    for i, p in enumerate(params):
        t = types[i] if types else ""
        base = re.sub(r"\b(const|volatile|__restrict__|__restrict|restrict)\b", "", t).strip()
        if t.endswith("*") and p.size == 8:
            elem = re.sub(r"\s+", " ", base.rstrip("*").strip())
            args.append({"kind": "buf", "offset": p.offset, "size": 8, "dtype": ELEMENT.get(elem, "int32")})
        elif not types and p.size == 8:
            args.append({"kind": "buf", "offset": p.offset, "size": 8, "dtype": "int32"})
        elif base in ("float", "double") and p.size in (4, 8):
            args.append({"kind": "float", "offset": p.offset, "size": p.size})
        elif (base in SCALAR_INT or not types) and p.size in (1, 2, 4, 8):
            args.append({"kind": "int", "offset": p.offset, "size": p.size})
        else:
            args.append({"kind": "bytes", "offset": p.offset, "size": p.size})
    block = list(kernel.reqntid) if kernel.reqntid else list(BLOCK)
    return {"args": args, "param_size": kernel.param_size, "grid": list(GRID), "block": block, "reqntid": bool(kernel.reqntid),
            "lifted_shared": lifted_shared}


def _prepare_source(cu: Path, origin: str, out: Path, tools: dict[str, str], extra: list[str]) -> list[dict]:
    from cass_cc.sass import codegen, cubin
    from cass_cc.sass.nvptx import NVPTX
    from cass_cc.sass.targets import module

    stem = re.sub(r"[^A-Za-z0-9_.-]", "_", f"{origin}-{cu.stem}")
    cub, ptx = out / f"{stem}.cubin", out / f"{stem}.ptx"
    argv = [tools["nvcc"], "-cubin", f"-arch=sm_{SM}", "-O3", "-std=c++17", "--expt-relaxed-constexpr", "-w",
            f"-I{cu.parent}", *extra, "-o", str(cub), str(cu)]
    proc = subprocess.run(argv, capture_output=True, text=True)
    if proc.returncode != 0:
        return [{"origin": origin, "file": cu.name, "status": "nvcc failed"}]
    try:
        cb = cubin.read(cub)[0]
        report = codegen.lift_cubin(cb, tools["nvdisasm"], NVPTX)
    except Exception as e:  # noqa: BLE001 - counted, never fatal
        return [{"origin": origin, "file": cu.name, "status": f"unreadable: {e}"}]
    jobs = [{"origin": origin, "file": cu.name, "kernel": name, "status": "not lifted",
             "detail": str(err)[:200]} for name, err in report.failed.items()]
    if not report.lifted:
        return jobs
    with tempfile.TemporaryDirectory() as tmp:
        ll, bc = Path(tmp, "m.ll"), Path(tmp, "m.bc")
        ll.write_text(module(NVPTX, report.lifted, report.kernels))
        nv = ["-mtriple=nvptx64-nvidia-cuda", f"-mcpu=sm_{SM}"]
        steps = [[tools["opt"], "-O2", *nv, str(ll), "-o", str(bc)],
                 [tools["llc"], "-O2", *nv, "-mattr=+ptx78", str(bc), "-o", str(ptx)]]
        for step in steps:
            p = subprocess.run(step, capture_output=True, text=True)
            if p.returncode != 0:
                first = next((line for line in p.stderr.splitlines() if line.strip()), "?")
                return jobs + [{"origin": origin, "file": cu.name, "kernel": lk.name, "status": "no PTX",
                                "detail": first[:200]} for lk in report.lifted]
    kernels = report.kernels
    for lk in report.lifted:
        jobs.append({"origin": origin, "file": cu.name, "kernel": lk.name, "demangled": kernels[lk.name].demangled,
                     "status": "ready", "cubin": cub.name, "ptx": ptx.name,
                     **_arg_plan(kernels[lk.name], lk.shared_size)})
    return jobs


def prepare(out: Path, hecbench: Path | None, names: list[str], jobs: int) -> None:
    from cass_cc.toolchain import Toolchain
    from tests.sass.harness import cuda_source

    tc = Toolchain(os.environ)
    tools = {"nvcc": tc.nvcc.path, "nvdisasm": tc.nvdisasm.path, "opt": tc.tool("opt").path, "llc": tc.tool("llc").path}
    out.mkdir(parents=True, exist_ok=True)
    units: list[tuple[Path, str, list[str]]] = []
    tests_cu = out / "sass_tests.cu"
    tests_cu.write_text(cuda_source())
    units.append((tests_cu, "tests", []))
    for n in names:
        folder = hecbench / "src" / f"{n}-cuda" if hecbench else None
        if folder and folder.is_dir():
            inc = [f"-I{hecbench / 'src' / 'include'}"]
            units += [(cu, n, inc) for cu in sorted(folder.glob("*.cu"))]
    records: list[dict] = []
    start = time.monotonic()
    with ThreadPoolExecutor(jobs) as pool:
        for i, recs in enumerate(pool.map(lambda u: _prepare_source(u[0], u[1], out, tools, u[2]), units), 1):
            records += recs
            if i % 20 == 0:
                print(f"{i}/{len(units)} files, {time.monotonic() - start:.0f} s", file=sys.stderr, flush=True)
    (out / "jobs.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    ready = sum(r["status"] == "ready" for r in records)
    print(f"{len(units)} files, {len(records)} kernel records, {ready} ready for the GPU ({out})")


# ---- there: the CUDA driver through ctypes -------------------------------------------------

class Cuda:
    def __init__(self) -> None:
        self.lib = ctypes.CDLL("libcuda.so.1")
        self.check(self.lib.cuInit(0), "cuInit")
        dev = ctypes.c_int()
        self.check(self.lib.cuDeviceGet(ctypes.byref(dev), 0), "cuDeviceGet")
        self.ctx = ctypes.c_void_p()
        self.check(self.lib.cuDevicePrimaryCtxRetain(ctypes.byref(self.ctx), dev), "ctx")
        self.check(self.lib.cuCtxSetCurrent(self.ctx), "ctx")
        self.modules: dict[str, ctypes.c_void_p] = {}

    def check(self, rc: int, what: str) -> None:
        if rc:
            name = ctypes.c_char_p()
            self.lib.cuGetErrorName(rc, ctypes.byref(name))
            raise RuntimeError(f"{what}: {name.value.decode() if name.value else rc}")

    def module(self, path: Path) -> ctypes.c_void_p:
        key = str(path)
        if key not in self.modules:
            data = path.read_bytes() + (b"\0" if path.suffix == ".ptx" else b"")
            m = ctypes.c_void_p()
            self.check(self.lib.cuModuleLoadData(ctypes.byref(m), data), f"load {path.name}")
            self.modules[key] = m
        return self.modules[key]

    def function(self, path: Path, name: str) -> ctypes.c_void_p:
        f = ctypes.c_void_p()
        self.check(self.lib.cuModuleGetFunction(ctypes.byref(f), self.module(path), name.encode()), f"function {name}")
        return f

    def alloc(self, data: bytes) -> int:
        p = ctypes.c_uint64()
        self.check(self.lib.cuMemAlloc_v2(ctypes.byref(p), ctypes.c_size_t(len(data))), "cuMemAlloc")
        self.check(self.lib.cuMemcpyHtoD_v2(p, data, ctypes.c_size_t(len(data))), "HtoD")
        return p.value

    def read(self, ptr: int, n: int) -> bytes:
        buf = ctypes.create_string_buffer(n)
        self.check(self.lib.cuMemcpyDtoH_v2(buf, ctypes.c_uint64(ptr), ctypes.c_size_t(n)), "DtoH")
        return buf.raw

    def free(self, ptr: int) -> None:
        self.lib.cuMemFree_v2(ctypes.c_uint64(ptr))

    def launch(self, f: ctypes.c_void_p, grid: list[int], block: list[int], shared: int,
               params: ctypes.Array | None, packed: bytes | None) -> None:
        if shared > 48 << 10:
            self.check(self.lib.cuFuncSetAttribute(f, 8, shared), "max dynamic shared")  # MAX_DYNAMIC_SHARED_SIZE_BYTES
        if packed is not None:  # CU_LAUNCH_PARAM_BUFFER_POINTER / _SIZE / _END
            buf = ctypes.create_string_buffer(packed, len(packed))
            size = ctypes.c_size_t(len(packed))
            extra = (ctypes.c_void_p * 5)(1, ctypes.cast(buf, ctypes.c_void_p), 2, ctypes.cast(ctypes.pointer(size), ctypes.c_void_p), 0)
            rc = self.lib.cuLaunchKernel(f, *grid, *block, shared, None, None, extra)
        else:
            rc = self.lib.cuLaunchKernel(f, *grid, *block, shared, None, params, None)
        self.check(rc, "launch")
        self.check(self.lib.cuCtxSynchronize(), "synchronize")


def _buffers(job: dict) -> list[str]:
    """dtype of every buffer in launch order: pointer parameters, then (under `struct_pointer`)
    one buffer per by-value struct of at least 8 bytes."""
    bufs = [a["dtype"] for a in job["args"] if a["kind"] == "buf"]
    if job.get("struct_pointer"):
        bufs += ["int32" for a in job["args"] if a["kind"] == "bytes" and a["size"] >= 8]
    return bufs


def _inputs(job: dict, rng_cache: dict) -> list[bytes]:
    import numpy as np

    out = []
    high = int(job.get("int_high", 64))
    for position, dt in enumerate(_buffers(job)):  # different contents per position: swapped buffers show
        if (dt, position, high) not in rng_cache:
            rng = np.random.default_rng(1234 + position)
            n = BUF_BYTES // np.dtype(dt).itemsize
            if dt.startswith("float"):
                arr = rng.random(n).astype(dt)
            elif dt == "bool":
                arr = rng.integers(0, 2, n).astype(dt)
            else:
                arr = rng.integers(0, high, n).astype(dt)
            rng_cache[(dt, position, high)] = arr.tobytes()
        out.append(rng_cache[(dt, position, high)])
    return out


def _packed(job: dict, pointers: list[int]) -> bytes:
    import struct

    blob = bytearray(job["param_size"])
    n_direct = sum(a["kind"] == "buf" for a in job["args"])
    direct, extra = iter(pointers[:n_direct]), iter(pointers[n_direct:])
    for a in job["args"]:
        o, n = a["offset"], a["size"]
        if a["kind"] == "buf":
            blob[o : o + 8] = struct.pack("<Q", next(direct))
        elif a["kind"] == "float":
            blob[o : o + n] = struct.pack("<f" if n == 4 else "<d", FLOAT_SCALAR)
        elif a["kind"] == "int":
            blob[o : o + n] = int(job.get("int_value", INT_SCALAR)).to_bytes(8, "little")[:n]
        else:
            blob[o : o + n] = b"".join((2).to_bytes(4, "little") for _ in range((n + 3) // 4))[:n]
            if job.get("struct_pointer") and n >= 8:
                blob[o : o + 8] = struct.pack("<Q", next(extra))
    return bytes(blob)


def _run_side(cuda: Cuda, job: dict, root: Path, lifted: bool, data: list[bytes]) -> list[bytes]:
    pointers = [cuda.alloc(d) for d in data]
    args_ptr = None
    try:
        packed = _packed(job, pointers)
        if lifted:
            f = cuda.function(root / job["ptx"], job["kernel"])
            args_ptr = cuda.alloc(packed or b"\0")
            holder = ctypes.c_uint64(args_ptr)
            params = (ctypes.c_void_p * 1)(ctypes.cast(ctypes.pointer(holder), ctypes.c_void_p))
            cuda.launch(f, job["grid"], job["block"], job["lifted_shared"] + DYN_SHARED, params, None)
        else:
            f = cuda.function(root / job["cubin"], job["kernel"])
            cuda.launch(f, job["grid"], job["block"], DYN_SHARED, None, packed)
        return [cuda.read(p, len(d)) for p, d in zip(pointers, data)]
    finally:
        for p in pointers:
            cuda.free(p)
        if args_ptr is not None:
            cuda.free(args_ptr)


def _compare(job: dict, a: list[bytes], b: list[bytes]) -> tuple[bool, str]:
    import numpy as np

    for i, (x, y, dt) in enumerate(zip(a, b, _buffers(job))):
        if x == y:
            continue
        if not dt.startswith("float"):
            n = np.count_nonzero(np.frombuffer(x, np.uint8) != np.frombuffer(y, np.uint8))
            return False, f"buffer {i} ({dt}): {n} bytes differ"
        u, v = np.frombuffer(x, dt).astype("float64"), np.frombuffer(y, dt).astype("float64")
        same = np.isclose(u, v, rtol=RTOL, atol=ATOL, equal_nan=True)
        if not same.all():
            j = int(np.argmin(same))
            return False, f"buffer {i} ({dt}): {int((~same).sum())} elements differ, first [{j}] {u[j]!r} vs {v[j]!r}"
    return True, ""


def with_shape(job: dict, shape: int) -> dict:
    """The job under launch shape `shape` (SHAPES); a required block size is kept."""
    if shape == 0:
        return job
    alt = dict(job, **SHAPES[shape])
    if job.get("reqntid"):
        alt["block"] = job["block"]
    return alt


def _applies(job: dict, shape: int) -> bool:
    """Whether shape `shape` launches `job` differently from the shapes before it could."""
    if SHAPES[shape].get("struct_pointer"):
        return any(a["kind"] == "bytes" and a["size"] >= 8 for a in job["args"])
    return True


def worker(root: Path, indices: list[int], shape: int = 0) -> None:
    """Runs jobs in order, one JSON line each on stdout; exits after a fault (the context is gone)."""
    jobs = [with_shape(json.loads(line), shape) for line in (root / "jobs.jsonl").read_text().splitlines()]
    cuda = Cuda()
    cache: dict = {}
    for i in indices:
        job = jobs[i]
        rec = {"index": i}
        start = time.monotonic()
        data = _inputs(job, cache)
        stage = "original"
        try:
            first = _run_side(cuda, job, root, False, data)
            second = _run_side(cuda, job, root, False, data)
            stage = "lifted"
            lifted = _run_side(cuda, job, root, True, data)
        except RuntimeError as e:
            rec.update(outcome="original-fault" if stage == "original" else "lifted-fault", detail=str(e))
            rec["seconds"] = round(time.monotonic() - start, 3)
            print(json.dumps(rec), flush=True)
            if any(word in str(e) for word in STICKY):
                return  # the context is lost: the parent starts a new worker
            continue
        same_orig, why = _compare(job, first, second)
        if not same_orig:
            ok, detail = _compare(job, first, lifted)
            rec.update(outcome="nondeterministic", detail=why, lifted_agrees_with_first=ok)
        else:
            ok, detail = _compare(job, first, lifted)
            rec.update(outcome="agree" if ok else "differ", detail=detail)
        rec["seconds"] = round(time.monotonic() - start, 3)
        print(json.dumps(rec), flush=True)


def run(root: Path, out: Path, deadline: float) -> None:
    jobs = [json.loads(line) for line in (root / "jobs.jsonl").read_text().splitlines()]
    results: dict[int, dict] = {}
    start = time.monotonic()
    pending = [i for i, j in enumerate(jobs) if j["status"] == "ready"]
    for shape in range(len(SHAPES)):
        todo = [i for i in pending if _applies(jobs[i], shape)]
        for i, rec in _run_shape(root, todo, shape, start + deadline).items():
            if i not in results or results[i]["outcome"] in INCONCLUSIVE:
                results[i] = dict(rec, shape=shape)
        pending = [i for i in pending if i in results and results[i]["outcome"] in INCONCLUSIVE]
        if not pending or time.monotonic() - start > deadline:
            break
    lines = []
    for i, job in enumerate(jobs):
        rec = {k: job.get(k) for k in ("origin", "file", "kernel", "demangled", "status", "detail")}
        if i in results:
            rec.update({k: v for k, v in results[i].items() if k != "index"})
        elif job["status"] == "ready":
            rec["outcome"] = "not run (deadline)"
        lines.append(json.dumps(rec))
    out.write_text("\n".join(lines) + "\n")
    print(summary([json.loads(line) for line in lines]))


def _run_shape(root: Path, pending: list[int], shape: int, stop: float) -> dict[int, dict]:
    """`pending` split over WORKERS worker processes running side by side."""
    slices = [pending[i::WORKERS] for i in range(WORKERS)]
    results: dict[int, dict] = {}
    with ThreadPoolExecutor(WORKERS) as pool:
        for part in pool.map(lambda sl: _run_slice(root, sl, shape, stop), [sl for sl in slices if sl]):
            results.update(part)
    return results


def _run_slice(root: Path, pending: list[int], shape: int, stop: float) -> dict[int, dict]:
    import select

    results: dict[int, dict] = {}
    while pending and time.monotonic() < stop:
        proc = subprocess.Popen([sys.executable, __file__, "worker", "--root", str(root), "--shape", str(shape),
                                 *map(str, pending)], stdout=subprocess.PIPE, text=True)
        assert proc.stdout is not None
        done_here: set[int] = set()
        hung = False
        while True:
            ready, _, _ = select.select([proc.stdout], [], [], KERNEL_TIMEOUT)
            line = proc.stdout.readline() if ready else None
            if line:
                rec = json.loads(line)
                results[rec["index"]] = rec
                done_here.add(rec["index"])
                continue
            if line is None:  # no word for KERNEL_TIMEOUT seconds: the current kernel hangs
                hung = True
                proc.kill()
            proc.wait()
            break
        current = next((i for i in pending if i not in done_here), None)
        last_was_fault = bool(done_here) and "fault" in results[max(done_here, key=pending.index)].get("outcome", "")
        if current is not None and (hung or not last_was_fault):  # it hung, or the worker died inside it
            outcome = "timeout" if hung else "worker-crash"
            results[current] = {"index": current, "outcome": outcome,
                                "detail": f"> {KERNEL_TIMEOUT:.0f} s" if hung else f"exit {proc.returncode}"}
            done_here.add(current)
        pending = [i for i in pending if i not in done_here]
        print(f"shape {shape}: {len(results)} run in this slice, {len(pending)} left", file=sys.stderr, flush=True)
    return results


def summary(records: list[dict]) -> str:
    rows = []
    for group, recs in (("sass tests", [r for r in records if r["origin"] == "tests"]),
                        ("HeCBench dev", [r for r in records if r["origin"] != "tests"])):
        kernels = [r for r in recs if r.get("kernel")]
        outcomes = collections.Counter(r.get("outcome") or r["status"] for r in kernels)
        agree = outcomes["agree"]
        rows.append(f"{group}: {len(kernels)} kernels; agree {agree} ({100 * agree / max(len(kernels), 1):.1f}%); "
                    + ", ".join(f"{k} {v}" for k, v in outcomes.most_common() if k != "agree"))
    return "\n".join(rows)


@click.group(help=__doc__.split("\n")[0], context_settings=CONTEXT)
def command() -> None:
    pass


@command.command("prepare")
@click.option("--out", type=click.Path(path_type=Path), required=True)
@click.option("--hecbench", type=click.Path(path_type=Path))
@click.option("--names", type=click.Path(path_type=Path))
@click.option("--jobs", type=int, default=os.cpu_count() or 2)
def prepare_command(out: Path, hecbench: Path | None, names: Path | None, jobs: int) -> None:
    prepare(out, hecbench, names.read_text().split() if names else [], jobs)


@command.command("run")
@click.option("--root", type=click.Path(path_type=Path), required=True)
@click.option("--out", type=click.Path(path_type=Path), required=True)
@click.option("--deadline", type=float, default=480.0)
def run_command(root: Path, out: Path, deadline: float) -> None:
    run(root, out, deadline)


@command.command("worker")
@click.option("--root", type=click.Path(path_type=Path), required=True)
@click.option("--shape", type=int, default=0)
@click.argument("indices", nargs=-1, type=int)
def worker_command(root: Path, shape: int, indices: tuple[int, ...]) -> None:
    worker(root, list(indices), shape)


@command.command("summary")
@click.argument("results", type=click.Path(path_type=Path))
def summary_command(results: Path) -> None:
    print(summary([json.loads(line) for line in results.read_text().splitlines() if line.strip()]))


def main(argv: list[str] | None = None) -> int:
    return run_click(command, argv, "bench/sass_gpu_check.py")


if __name__ == "__main__":
    raise SystemExit(main())
