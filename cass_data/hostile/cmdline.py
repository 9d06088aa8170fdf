"""`cass-data hostile cmdline`: generated nvcc command lines, real nvcc 13's exit status as the truth.

Each case is a command line built from cass-cc's own option table (cass_cc/nvcc/options.py: every
spelling, values good and bad by the option's kind and choices, values missing, options repeated
and in conflict, odd file names, options files and the NVCC_PREPEND_FLAGS/NVCC_APPEND_FLAGS
variables, with quotes and backslashes). Both tools run it with `--dryrun` in a scratch folder
holding a tiny k.cu; a case fails when cass-cc prints a traceback, hangs, or exits 0 where nvcc
exits non-zero or the other way round.

cass-cc takes CUDA 12.4's command line, the nvcc here is 13.0. Their differences are the tables
below, nothing else: GPU architectures come from targets.ARCHS_BY_CUDA (a case names "the i-th
number both releases accept" (COMMON), 90a, or one only the other release has, given to the other
so both refuse it), EXCUSED lists the refusals that are cass-cc's on purpose, NVCC_BUGS nvcc's
own crashes.

nvcc answers once into a JSONL table (`--record FILE`); `--table FILE` replays it without nvcc.
cass-cc runs in this process (its `main(argv)` with the case's environment; an exception escaping
is a traceback) or, with `--subprocess`, as `bin/cass-cc` (~0.3 s of Python start-up a case).
`--jobs N` runs N processes, each in its own scratch folder, which is reset before every case
(nvcc --dryrun writes -time's file), so a table is a function of --count and --seed alone, row
for row in case order. `--record T --jobs N --nvcc-only` records nvcc's answers and runs nothing
of cass-cc's: it needs Python, click and nvcc, no clang or ROCm (10,000 lines: ~7 min on 2 busy
cores). Values whose answer depends on the machine are not generated: -ccbin names no program
except gcc, which nvcc itself needs; nvcc runs the host compiler even for --dryrun, and cass-cc
looks for it as nvcc does (parse.host_compiler_found), but cannot tell a program that is no
compiler from one that is: the harness offers neither.
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import random
import re
import shutil
import signal
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Iterator

import click

from cass_cc.nvcc import options as nvopts
from cass_cc.nvcc import targets as tg

from .common import CASS_CC, Result, Tally, finish, run_bounded, sort_outcome

NVCC_RELEASE = "13.0"  # the nvcc the truth comes from (`nvcc --version` is checked)
CASS_RELEASE = tg.RELEASE  # the command line cass-cc takes
TIMEOUT = 60.0

# Refusals that are cass-cc's on purpose, where nvcc 13 --dryrun says yes: (what, words of the
# message). Everything else nvcc accepts, cass-cc must accept.
EXCUSED = (
    ("option nvcc has that cass-cc does not (Disp.UNSUPPORTED)", "is not supported by cass-cc"),
    ("PTX or cubin input: no AMD build", "cannot be built for AMD GPUs"),
    ("-ptx/-cubin give one file per AMD target", "makes one file per GPU target"),
    ("-dlink of sources", "-dlink takes objects"),
    ("-cuda of a HIP input", "-cuda translates CUDA sources"),
    # nvcc --dryrun opens no input; cass-cc's translates (the commands it prints name the
    # translation), so a name made by quoting that is no file here is read, and refused.
    ("an input that does not exist (nvcc --dryrun never opens it)", "cannot read: No such file or directory"),
)
# nvcc's own failures, no answer to compare with: (what, words of its message).
NVCC_BUGS = (
    ("nvcc 13.0 crashes on -link -noprof -dlto (exit 255)", "nvcc: Segmentation fault"),
)
# Where nvcc 13 and CUDA 12.4 differ, besides the architecture table: (what, how the harness
# deals with it). Kept as data so a new difference is one line here, not a special case below.
RELEASE_NOTES = (
    ("GPU architectures", "targets.ARCHS_BY_CUDA; cases name architectures by rank"),
    ("'Stray' from NVCC_*_FLAGS", "nvcc 13 prints it without its 'nvcc' prefix; exit status 1 alike"),
)

SOURCE = "__global__ void k(int* p) { *p = 1; }\nint main() { return 0; }\n"
# Files in the scratch folder (all exist: nvcc --dryrun reads no input, cass-cc's reads sources).
FILES = {"k.cu": SOURCE, "k2.cu": SOURCE, "h.cpp": "int h() { return 1; }\n", "sp ace.cu": SOURCE,
         "k.xyz": "", "k.CU": SOURCE, "k.cu.bak": SOURCE}
INPUTS = ["k.cu"] * 6 + ["k2.cu", "h.cpp", "sp ace.cu", "k.xyz", "k.CU", "k.cu.bak", "-", "nodot",
                         "sub/", "./k.cu"]
BAD_ARCHS = ["sm_99", "sm_800", "compute_80a", "sm_30", "sm_abc", "sm_", "compute80", "sm_80,sm_86", "SM_80",
             "sm_75a", "sm_87f", "lto_", ""]
NUMBERS_GOOD = ["0", "3", "1", "0x10", "010", " 3", "+2", "-0", "2147483647", "", "101"]
NUMBERS_BAD = ["x", "08", "3x", "1e3", "0b1", "-1", "99999999999999999999", "2147483648", "0x80000000",
               "-2147483649", "0x", "1.5", "--", "200"]
# Backslashes and quotes too: nvcc unescapes some lists' values (-D, -Xcompiler), not others'.
ANY_VALUES = ["a", "x.h", "-c", "dir/x", "", "a,b", "a\\,b", "=", "k.cu", "a\\b", "a\\", '"a,b"', 'a"b']
QUOTING = ['"', '\\', "'", '"a b"', "'a b'", '\\"', 'a\\ b', '""', "#", "\t"]


# The plain architecture numbers both releases accept. A case's "i-th architecture" is one of
# these, the same for both tools: ranks into each release's own list (tables recorded before,
# `@sm:3@`) kept their order among themselves but not against 90a (12.4's 87 < 90, 13.0's 121 >
# 90), and -gencode arch/code compatibility depends on that order.
COMMON = sorted((n for n in tg.ARCHS_BY_CUDA["12.4"] & tg.ARCHS_BY_CUDA["13.0"] if n.isdigit()), key=int)


def arch_token(rng: random.Random) -> str:
    """A placeholder render() turns into each release's architecture (see the module doc)."""
    r = rng.random()
    prefix = rng.choice(["sm", "compute", "lto", "sm", "compute"])
    if r < 0.55:
        return f"@{prefix}:c{rng.randrange(len(COMMON))}@"  # the i-th of COMMON
    if r < 0.65:
        return f"@{prefix}:a@"  # 90a, both releases have it
    if r < 0.75:
        return f"@{prefix}:other@"  # only the other release has it: both refuse
    if r < 0.85:
        return rng.choice(["all", "all-major", "native"])
    return rng.choice(BAD_ARCHS)


_PLACEHOLDER = re.compile(r"@(sm|compute|lto):(\d+|c\d+|a|other)@")


def render(text: str, release: str) -> str:
    """The placeholders of `text` as architectures of `release`."""
    accepted = tg.ARCHS_BY_CUDA[release]
    plain = sorted((n for n in accepted if n.isdigit()), key=int)
    other = next(r for r in tg.ARCHS_BY_CUDA if r != release)
    only_other = sorted(tg.ARCHS_BY_CUDA[other] - accepted)

    def one(m: re.Match[str]) -> str:
        which = m[2]
        if which.startswith("c"):
            number = COMMON[int(which[1:])]
        else:
            number = plain[int(which)] if which.isdigit() else "90a" if which == "a" else only_other[0]
        return f"{m[1]}_{number}"

    return _PLACEHOLDER.sub(one, text)


def _value(opt: nvopts.Option, rng: random.Random) -> str:
    if opt.target in ("arch", "code"):
        return ",".join(arch_token(rng) for _ in range(rng.choice([1, 1, 1, 2])))
    if opt.target == "gencode":
        a, c = arch_token(rng), arch_token(rng)
        return rng.choice([f"arch={a},code={c}", f"arch={a},code=[{c},{a}]", f"arch={a}", f"code={c}",
                           f"arch={a},code={c},arch={a}", "x=1", f"arch={a},code=\"{c},{a}\""])
    if opt.kind is nvopts.Kind.NUMBER:
        pool = NUMBERS_GOOD if rng.random() < 0.6 else NUMBERS_BAD
        value = rng.choice(pool)
        return ",".join([value, rng.choice(NUMBERS_GOOD)]) if opt.arity is nvopts.Arity.LIST and rng.random() < 0.2 else value
    if opt.kind is nvopts.Kind.BOOL:
        return rng.choice(["true", "false", "true", "TRUE", "1", "", "yes"])
    if opt.choices:
        return rng.choice([*opt.choices, *opt.choices, "bogus", opt.choices[0].upper(), ""])
    if opt.target == "output":
        return rng.choice(["out.o", "out.o", "sub/new/out.o", "adir", "k.xyz/x.o", "", "-c"])
    if opt.long == "--target-directory":  # nvcc checks it names one of its installed targets
        return "x86_64-linux"
    if opt.target == "host_compiler" and rng.random() < 0.3:
        return "gcc"  # nvcc's own default host compiler, so on PATH wherever nvcc works
    if opt.target == "optf":
        return rng.choice(["f.opt", "f.opt", "missing.opt", "f.opt,f.opt"])
    return rng.choice(ANY_VALUES)


def _spell(opt: nvopts.Option, rng: random.Random) -> list[str]:
    """One use of `opt`: its long or short spelling, the value glued, after `=`, apart, or missing."""
    name = opt.short if opt.short and rng.random() < 0.5 else opt.long
    if opt.arity is nvopts.Arity.FLAG:
        return [name + "=1"] if rng.random() < 0.03 else [name]
    if rng.random() < 0.04:
        return [name]  # the value missing (or the next word taken as it)
    value = _value(opt, rng)
    style = rng.random()
    if opt.glued and name == opt.short and style < 0.3 and value:
        return [name + value]
    if style < 0.6:
        return [f"{name}={value}"]
    return [name, value]


PHASES = [o for o in nvopts.OPTIONS if o.disp is nvopts.Disp.PHASE or o.target in ("dc", "dw", "M", "MM", "MD", "MMD", "dlto")]


@dataclass
class Case:
    argv: list[str]  # the command line less `--dryrun`, placeholders not yet rendered
    env: dict[str, str] = field(default_factory=dict)
    optf: str | None = None  # text of f.opt, when the case has one
    # Where `--dryrun` goes in argv: 1 when NVCC_PREPEND_FLAGS ends with an option wanting a
    # value, which nvcc 13 takes from the command line (argv[0] is then that value, not our
    # --dryrun: a lost --dryrun would make both tools really build).
    dryrun_at: int = 0

    def rendered(self, release: str) -> "Case":
        return Case([render(a, release) for a in self.argv], {k: render(v, release) for k, v in self.env.items()},
                    None if self.optf is None else render(self.optf, release), self.dryrun_at)

    def command(self) -> list[str]:
        """The arguments both tools get."""
        return [*self.argv[:self.dryrun_at], "--dryrun", *self.argv[self.dryrun_at:]]


def _words(rng: random.Random, count: int) -> list[str]:
    words: list[str] = []
    for _ in range(count):
        r = rng.random()
        if r < 0.25:
            words += _spell(rng.choice(PHASES), rng)
        elif r < 0.8:
            words += _spell(rng.choice(nvopts.OPTIONS), rng)
        elif r < 0.9:
            words.append(rng.choice(INPUTS))
        else:
            words.append(rng.choice(["-foo", "--bogus=1", "-", "--", "-Wall", "-forward-unknown-to-host-compiler"]))
    return words


def _flag_text(rng: random.Random) -> str:
    """Text of an options file or variable: words, sometimes with quotes and backslashes."""
    words = _words(rng, rng.randrange(0, 4))
    if rng.random() < 0.4:
        n = rng.randrange(len(words) + 1)
        words.insert(n, rng.choice(QUOTING) + rng.choice(["", "k.cu", "-DX=1", "-c"]))
    if rng.random() < 0.1:
        words.append("-o")  # an option without its value at the end
    sep = rng.choice([" ", " ", "\n", "  \t"])
    return sep.join(words) + rng.choice(["", "", "\n", "\\"][: 3 if rng.random() < 0.9 else 4])


def generate(rng: random.Random) -> Case:
    case = Case(_words(rng, rng.randrange(1, 6)))
    if rng.random() < 0.85:
        case.argv.insert(rng.randrange(len(case.argv) + 1), rng.choice(INPUTS[:6]))
    if rng.random() < 0.15:
        case.optf = _flag_text(rng)
        case.argv.insert(rng.randrange(len(case.argv) + 1), rng.choice(["-optf", "--options-file"]))
        i = case.argv.index("-optf") if "-optf" in case.argv else case.argv.index("--options-file")
        case.argv.insert(i + 1, "f.opt")
    for var in ("NVCC_PREPEND_FLAGS", "NVCC_APPEND_FLAGS"):
        if rng.random() < 0.1:
            case.env[var] = _flag_text(rng)
    if _wants_value(case.env.get("NVCC_PREPEND_FLAGS", "")):
        case.argv.insert(0, rng.choice(ANY_VALUES))
        case.dryrun_at = 1
    return case


def _wants_value(text: str) -> bool:
    """Whether the last word of an NVCC_*_FLAGS text (nvcc 13 splits these at spaces and tabs)
    is an option spelled without the value it needs."""
    words = text.replace("\t", " ").split(" ")
    last = words[-1] if words else ""
    opt = nvopts.BY_SPELLING.get(last)
    return last in ("-optf", "--options-file") or (opt is not None and opt.arity is not nvopts.Arity.FLAG)


# ---- running the two tools ----------------------------------------------------------------------


def scratch_folder(root: Path) -> Path:
    """The folder a case runs in, as every case finds it: FILES, an empty adir, nothing else.
    Run before each case: nvcc --dryrun writes -time's file (appending to k.cu if so named),
    and a case must not depend on which cases ran before it in the same folder (--jobs)."""
    root.mkdir(parents=True, exist_ok=True)
    for entry in os.scandir(root):
        if entry.is_dir(follow_symlinks=False):
            shutil.rmtree(entry.path, ignore_errors=True)
        else:
            os.unlink(entry.path)
    for name, text in FILES.items():
        (root / name).write_text(text)
    (root / "adir").mkdir()
    return root


def _prepare(case: Case, folder: Path) -> None:
    scratch_folder(folder)
    if case.optf is not None:
        (folder / "f.opt").write_text(case.optf)


def _env(case: Case) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NVCC_PREPEND_FLAGS", "NVCC_APPEND_FLAGS")}
    env.update(case.env)
    return env


def real_nvcc() -> str | None:
    """The real NVIDIA nvcc (never cass-cc's shim, which may be first on PATH), or None."""
    from cass_cc.toolchain.tool import is_ours

    for candidate in ("/usr/local/bin/nvcc", shutil.which("nvcc")):
        if candidate and os.path.isfile(candidate) and not is_ours(os.path.realpath(candidate)) and not is_ours(candidate):
            return candidate
    return None


_TEMPORARY = re.compile(r"tmpxft_[0-9a-f]+_[0-9a-f]+")  # nvcc's temporaries are named by process id


def fatal_line(stderr: str) -> str:
    """nvcc's message, the same on every run (a table must not depend on process ids)."""
    line = next((ln for ln in stderr.splitlines() if "fatal" in ln or "Segmentation fault" in ln), "")
    return _TEMPORARY.sub("tmpxft_N", line)


def run_nvcc(nvcc: str, case: Case, folder: Path) -> dict[str, Any]:
    c = case.rendered(NVCC_RELEASE)
    _prepare(c, folder)
    r = run_bounded([nvcc, *c.command()], timeout=TIMEOUT, cwd=folder, env=_env(c))
    return {"rc": r.rc, "fatal": fatal_line(r.stderr.decode("utf-8", "replace"))}


class _Alarm(Exception):
    pass


@contextlib.contextmanager
def _within(seconds: float) -> Iterator[None]:
    def ring(signum: int, frame: Any) -> None:
        raise _Alarm()

    old = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def run_cass_inprocess(case: Case, folder: Path) -> Result:
    """cass-cc's `main(["--dryrun", ...])` here, with the case's environment and folder."""
    from cass_cc import log
    from cass_cc.cli import main

    c = case.rendered(CASS_RELEASE)
    _prepare(c, folder)
    err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="replace")
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="replace")
    saved_env, saved_cwd, verbosity = dict(os.environ), os.getcwd(), log.verbosity
    env = _env(c)
    start = time.monotonic()
    rc: int | None
    try:
        os.environ.clear()
        os.environ.update(env)
        os.chdir(folder)
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out), _within(TIMEOUT):
            try:
                rc = main(c.command())
            except SystemExit as e:
                rc = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
            except _Alarm:
                rc = None
            except Exception:  # an exception escaping main is what a user sees as a traceback
                import traceback

                err.write("Traceback (most recent call last):\n" + traceback.format_exc())
                rc = 1
    finally:
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)
        log.verbosity = verbosity
    err.flush()
    return Result(rc, b"", err.buffer.getvalue(), time.monotonic() - start)  # type: ignore[attr-defined]


def run_cass_subprocess(case: Case, folder: Path) -> Result:
    c = case.rendered(CASS_RELEASE)
    _prepare(c, folder)
    return run_bounded([*CASS_CC, *c.command()], timeout=TIMEOUT, cwd=folder, env=_env(c))


def said(stderr: bytes) -> str:
    """cass-cc's own words on stderr, less -dryrun's command lines."""
    lines = [ln for ln in stderr.decode("utf-8", "replace").splitlines() if not ln.startswith("#$")]
    return "\n".join(lines)[-600:]


def judge(truth: dict[str, Any], ours: Result) -> str:
    """ok / refused (both agree), excused, or a failure: hang, traceback, disagrees."""
    outcome = sort_outcome(ours)
    if outcome in ("hang", "traceback"):
        return outcome
    if (truth["rc"] == 0) == (ours.rc == 0):
        return outcome
    if any(words in truth["fatal"] for _, words in NVCC_BUGS):
        return "excused"
    if truth["rc"] == 0 and any(words.encode() in ours.stderr for _, words in EXCUSED):
        return "excused"
    return "disagrees"


def cases(count: int, seed: int) -> Iterator[Case]:
    rng = random.Random(seed)
    for _ in range(count):
        yield generate(rng)


# One case's work, as a worker does it: (the case, nvcc's answer or None to ask nvcc) ->
# (nvcc's answer, our outcome or None with --nvcc-only, the example kept for failures).
_Job = tuple[Case, "dict[str, Any] | None"]
_Done = tuple[dict[str, Any], "str | None", "dict[str, Any] | None"]


@dataclass
class _Worker:
    """What each process running cases holds: its own scratch folder, so cases in parallel
    never see each other's files, and the tools to run."""
    folder: Path
    nvcc: str | None
    cass: bool  # False: --nvcc-only, record nvcc's answers and run nothing of ours
    subprocess_mode: bool

    def __call__(self, job: _Job) -> _Done:
        case, truth = job
        if truth is None:
            assert self.nvcc is not None
            truth = run_nvcc(self.nvcc, case, self.folder)
        if not self.cass:
            return truth, None, None
        ours = (run_cass_subprocess if self.subprocess_mode else run_cass_inprocess)(case, self.folder)
        example = {"argv": case.rendered(CASS_RELEASE).argv, "env": case.env, "optf": case.optf,
                   "nvcc": truth, "rc": ours.rc, "said": said(ours.stderr)}
        return truth, judge(truth, ours), example


_WORKER: _Worker | None = None  # set in each pool process by _start_worker


def _start_worker(root: Path, nvcc: str | None, cass: bool, subprocess_mode: bool) -> None:
    global _WORKER
    _WORKER = _Worker(scratch_folder(root / f"w{os.getpid()}"), nvcc, cass, subprocess_mode)


def _in_worker(job: _Job) -> _Done:
    assert _WORKER is not None
    return _WORKER(job)


def nvcc_outcome(truth: dict[str, Any]) -> str:
    """nvcc's own outcome (--nvcc-only): ok, refused, or hang (rc None), sorted as ours are."""
    return "hang" if truth["rc"] is None else "ok" if truth["rc"] == 0 else "refused"


def run(count: int, seed: int, *, record: Path | None = None, table: Path | None = None,
        subprocess_mode: bool = False, folder: Path | None = None, jobs: int = 1,
        nvcc_only: bool = False) -> Tally:
    """Run `count` cases (or every case of `table`); nvcc's answers recorded to `record` if given.

    With jobs > 1 the cases run in that many processes, each in its own scratch folder; rows
    and tallies come in case order, so a table is the same for any `jobs`. nvcc_only runs
    nothing of cass-cc's (recording on a machine with nvcc but no clang/ROCm): the tally is
    then nvcc's own outcomes."""
    tally = Tally("cmdline (nvcc only)" if nvcc_only else "cmdline")
    root = folder or Path(tempfile.mkdtemp(prefix="cass-hostile-cmdline-"))
    nvcc: str | None = None
    if table is not None:
        rows = [json.loads(line) for line in table.read_text().splitlines() if line.strip()]
        todo: list[_Job] = [(Case(**r["case"]), r["nvcc"]) for r in rows]
    else:
        nvcc = real_nvcc()
        if nvcc is None:
            raise click.ClickException("no real NVIDIA nvcc (/usr/local/bin/nvcc or on PATH); use --table FILE")
        todo = [(c, None) for c in cases(count, seed)]
    args = (root, nvcc, not nvcc_only, subprocess_mode)
    with contextlib.ExitStack() as stack:
        sink = stack.enter_context(record.open("w")) if record is not None else None
        if jobs > 1:
            import multiprocessing

            pool = stack.enter_context(multiprocessing.get_context("fork").Pool(jobs, _start_worker, args))
            done: Iterator[_Done] = pool.imap(_in_worker, todo, chunksize=4)
        else:
            _start_worker(*args)
            done = map(_in_worker, todo)
        for (case, _), (truth, outcome, example) in zip(todo, done):
            if sink:
                sink.write(json.dumps({"case": asdict(case), "nvcc": truth}) + "\n")
            tally.add(nvcc_outcome(truth) if outcome is None else outcome, example)
    return tally


@click.command("cmdline")
@click.option("--count", default=1000, show_default=True, help="cases to generate")
@click.option("--seed", default=0, show_default=True)
@click.option("--report", type=click.Path(path_type=Path), help="write the Tally JSON here")
@click.option("--record", type=click.Path(path_type=Path), help="write nvcc's answers as a JSONL table")
@click.option("--table", type=click.Path(path_type=Path, exists=True), help="replay a recorded table (no nvcc)")
@click.option("--subprocess", "subprocess_mode", is_flag=True, help="run bin/cass-cc per case, not in this process")
@click.option("--jobs", default=1, show_default=True, type=click.IntRange(min=1),
              help="cases at once, each process in its own scratch folder (same table, same tally)")
@click.option("--nvcc-only", is_flag=True, help="only record nvcc's answers (needs --record; no clang/ROCm needed)")
def command(count: int, seed: int, report: Path | None, record: Path | None, table: Path | None,
            subprocess_mode: bool, jobs: int, nvcc_only: bool) -> None:
    """nvcc command lines against real nvcc 13's exit status (--dryrun both)."""
    if nvcc_only and (record is None or table is not None):
        raise click.UsageError("--nvcc-only records nvcc's answers: give --record FILE, not --table")
    start = time.monotonic()
    tally = run(count, seed, record=record, table=table, subprocess_mode=subprocess_mode, jobs=jobs,
                nvcc_only=nvcc_only)
    finish(tally, time.monotonic() - start, report)
