"""Carry out one parsed nvcc invocation: translate, compile, link, as ordered stages
(stages.py: the table, from the input's suffix).

    .cu  --translate (cached)-->  .hip  --clang -x hip-->  .o  --host linker-->  a.out
    .c/.cpp  ------------------------------host compiler-->  .o  ------^
    .o/.a/.so  --------------------------------------------------------^

Every output is written under a temporary name and renamed into place on success,
so a failed or interrupted step never leaves a file `make` would trust.
"""
from __future__ import annotations

import atexit
import functools
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path

from .. import log
from ..cache import TranslationCache, key
from ..config import Config
from ..nvcc.invocation import Input, Invocation, Lang, Phase
from ..toolchain import Toolchain, ToolchainError, wave_size
from ..translate.base import Diagnostic, Target, Translation, TranslationError
from ..util import atomic_path, atomic_write_text, output_problem
from ..toolchain.tool import COMPILE, ToolTimeout, run_tool
from . import commands, crashes, dlink, headers, profile, sources, stages
from .errors import DriverError, ToolFailed

# -E and -M look at the host side only; the device flags then go unused, which is expected.
_HOST_ONLY = ["--cuda-host-only", "-Wno-unused-command-line-argument"]
# What clang and gcc print when they crash rather than report an error.
CRASH_MARK = crashes.MARK
CRASH_RETRIES = crashes.RETRIES
SOURCE_LANGS = (Lang.CU, Lang.HIP, Lang.C, Lang.CXX, Lang.ASM)
LINKER_LANGS = (Lang.OBJ, Lang.LIB)


def _unbuildable(inp: Input) -> DriverError:
    what = "PTX" if inp.lang is Lang.PTX else "NVIDIA machine code"
    hint = "compile the CUDA source instead"
    return DriverError(f"{inp.path}: {what} cannot be built for AMD GPUs; {hint}")


_ERROR_LINE = re.compile(rb"^.*?: (?:fatal )?error: (.*)$", re.M)


def _only_explained(stderr: bytes, headers: set[str]) -> bool:
    """Whether a failed compile is wholly explained by these CUDA library headers' missing HIP
    libraries: every error is a header clang could not find, or the translation's refusal of one
    of them (`#error "cass-cc: CUDA header <cublasLt.h> ..."`), after which the rest is fallout."""
    errors = _ERROR_LINE.findall(stderr)
    if any(f'"cass-cc: CUDA header <{h}>'.encode() in e for e in errors for h in headers):
        return True
    return bool(errors) and all(e.rstrip().endswith(b"file not found") for e in errors)


def _not_a_pipe(path: str) -> None:
    """A FIFO or socket named like a source would block the first read until a writer comes,
    perhaps never: refused up front (a missing file or a folder is said where it is read)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return
    if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode):
        raise DriverError(f"{path}: not a regular file (a {'FIFO' if stat.S_ISFIFO(mode) else 'socket'}); give a source file")


class Build:
    def __init__(self, inv: Invocation, config: Config, tc: Toolchain, archs: list[str], env: Mapping[str, str]):
        self.inv = inv
        self.config = config
        self.tc = tc
        self.archs = archs
        self.env = env
        self.dry = inv.dryrun
        self.cache = None if config.no_cache else TranslationCache(config.cache_path(env), config.cache_require_hit)
        self._translated: dict[str, tuple[Path, Translation]] = {}
        self._shadows: dict[str, Path | None] = {}
        self._plans: dict[str, tuple[stages.Stage, ...]] = {}
        self._chain = None
        # Sources read for this build, to name missing HIP libraries if a compile fails.
        self._read: list[tuple[str, bytes]] = []

    # ---- running tools -------------------------------------------------------------

    def execute(self, argv: Sequence[str], stdout: int | None = None) -> None:
        if self.inv.verbose or self.dry:
            log.command(argv)
        if self.dry:
            return
        proc = self._run(argv, stdout)
        retries = 0
        while retries < CRASH_RETRIES and crashes.crashed(proc.returncode, proc.stderr):
            # LLVM 15's gfx11 back end corrupts its heap now and then, on code it compiles
            # fine the next time (seen here on about half the compiles of one HeCBench kernel).
            retries += 1
            log.note(f"{os.path.basename(argv[0])} crashed; retrying ({retries} of {CRASH_RETRIES})")
            proc = self._run(argv, stdout)
        if retries and not crashes.crashed(proc.returncode, proc.stderr):
            log.warning(f"{os.path.basename(argv[0])} crashed and was run again ({retries} of {CRASH_RETRIES} retries)")
        if crashes.crashed(proc.returncode, proc.stderr):  # every try: one line, the dump in a file
            self._explain_missing_libraries()
            self._pass_on(crashes.diagnostics(proc.stderr))
            raise DriverError(crashes.message(self._user_files(argv), argv, proc.returncode, proc.stderr))
        if proc.returncode != 0:
            explained = self._explain_missing_libraries()  # the likely cause, in words clang cannot know
            if not (explained and _only_explained(proc.stderr, explained)):  # else that one line says it all
                self._pass_on(proc.stderr)
            raise ToolFailed(proc.returncode)
        self._pass_on(proc.stderr)
        self._read.clear()  # what this command read built; the next one's sources explain its failure

    def _run(self, argv: Sequence[str], stdout: int | None) -> subprocess.CompletedProcess[bytes]:
        """Run a tool; its stderr is kept (to spot crashes) and passed on by the caller."""
        try:
            return run_tool(argv, budget=COMPILE, timeout=self.config.tool_timeout, stdout=stdout)
        except OSError as e:
            raise DriverError(f"cannot run {argv[0]}: {e.strerror}") from None
        except ToolTimeout as e:
            raise DriverError(f"{self._user_files(argv)}: {e}") from None

    def _user_files(self, argv: Sequence[str]) -> str:
        """The user's inputs a command works on (by their own names, not the translations'),
        for one-line messages about the command."""
        args = set(argv)
        named = [i.path for i in self.inv.inputs
                 if i.path in args or (i.path in self._translated and str(self._translated[i.path][0]) in args)]
        return ", ".join(named or [i.path for i in self.inv.inputs]) or os.path.basename(argv[0])

    @staticmethod
    def _pass_on(stderr: bytes) -> None:
        sys.stderr.buffer.write(stderr)
        sys.stderr.flush()

    def _explain_missing_libraries(self) -> set[str]:
        """One line per HIP library that a source read for this build (the .cu files and
        every user header they include, translated now or long ago) needs and that is not
        installed: on every failing build, cached or not."""
        include_dir = self.tc.rocm.root / "include"
        said: set[str] = set()
        headers: set[str] = set()
        for path, data in self._read:
            for library, header, message in sources.missing_library_headers(path, data, include_dir):
                headers.add(header)
                if library not in said:
                    said.add(library)
                    print(message, file=sys.stderr)
        self._read.clear()
        return headers

    def produce(self, final: str, make: Callable[[str], Sequence[str]]) -> None:
        """Run the command `make(output_path)` so that `final` appears only on success."""
        if self.dry:
            self.execute(make(final))
            return
        with self.output(final) as tmp:
            self.execute(make(tmp))

    @staticmethod
    def writable(final: str) -> None:
        """Refuse, naming the user's path, an output that cannot be made: a folder there, a
        missing folder (nvcc makes none) or one we may not write in."""
        why = output_problem(final)
        if why:
            raise DriverError(f"Could not open output file {final}: {why}")

    @contextmanager
    def output(self, final: str) -> Iterator[str]:
        """atomic_path for a user's output: checked first, and an error in the rename
        (the folder changed meanwhile) names the user's path, not the hidden temporary."""
        self.writable(final)
        try:
            with atomic_path(final) as tmp:
                yield tmp
        except OSError as e:
            if e.filename is None or os.path.dirname(str(e.filename)) != os.path.dirname(final):
                raise
            raise DriverError(f"Could not open output file {final}: {e.strerror}") from None

    # ---- stages --------------------------------------------------------------------

    def chain(self):  # type: ignore[no-untyped-def]
        """The translator chain from the `translator` setting, built once per invocation."""
        if self._chain is None:
            from ..translate import chain_from_setting

            # a configured model joins the chain; it compiles its answers through this build
            from .validate import BuildValidator

            self._chain = chain_from_setting(self.config.translator, self.config, self.env, BuildValidator(self))
        return self._chain

    @functools.cached_property
    def target(self) -> Target:
        """What translation is for: the HIP version found and the targets' wave size."""
        waves = {wave_size(a) for a in self.archs}
        if len(waves) > 1:
            log.warning(f"targets {', '.join(self.archs)} mix wave32 and wave64; translating for wave{min(waves)}")
        return Target(hip_version=self.tc.rocm.hip_version[:2], wave_size=min(waves))

    @functools.cached_property
    def toolkit(self) -> Path:
        """The shim CUDA toolkit folder (cass_cc/driver/toolkit.py) that -v names as nvcc's TOP."""
        from . import toolkit

        return toolkit.build(self.config.cache_path(self.env), self.tc.rocm)

    @functools.cached_property
    def scratch(self) -> Path:
        """Where translations go when the cache is off (CASS_NO_CACHE): a folder per run."""
        folder = Path(tempfile.mkdtemp(prefix="cass-cc-"))
        atexit.register(shutil.rmtree, folder, True)
        return folder

    def translate(self, inp: Input) -> tuple[Path, Translation]:
        """CUDA -> HIP for one input, through the cache. Returns the .hip path clang reads."""
        if inp.path in self._translated:
            return self._translated[inp.path]
        data = sources.without_bom(sources.read_input(inp.path))
        source = sources.decode_source(inp.path, data)
        chain = self.chain()
        target = self.target
        user_headers = sources.user_angle_headers(data, self.inv.include_dirs)
        if user_headers:  # <names> the user's -I folders hold are theirs, even a CUDA header's name
            target = target._replace(user_headers=user_headers)
        k = key(data, inp.path, chain.identity(), target.key())
        hit = self.cache.get(k) if self.cache else None
        if hit:
            translation, path = hit
            log.note(f"{inp.path}: translation from cache ({translation.translator})")
        else:
            try:
                translation = chain.translate(source, inp.path, target)
            except TranslationError as e:
                raise DriverError(f"{inp.path}: cannot translate to HIP: {e}") from None
            path = self._store(k, inp, translation)
            log.note(f"{inp.path}: translated by {translation.translator}")
        # Said only if the compile then fails: the include may sit in a branch not taken.
        self._read.append((inp.path, data))
        for d in self._without_user_names(inp, translation):
            if d.severity != "note" or self.inv.verbose:
                print(d.format(inp.path), file=sys.stderr)
        if self.inv.keep and not self.dry:  # a dry run writes nothing
            kept = Path(self.inv.keep_dir or ".") / (Path(inp.path).name + ".hip")
            try:
                atomic_write_text(kept, translation.text)
            except OSError as e:  # -keep-dir naming a file, an unwritable folder
                raise DriverError(f"{kept}: cannot keep the translation: {e.strerror}") from None
            log.note(f"kept {kept}")
        self._translated[inp.path] = (path, translation)
        return path, translation

    def _store(self, k: str, inp: Input, translation: Translation) -> Path:
        """Where clang reads the translation: the cache, or a scratch file when the result
        must not be cached (a model that could not be asked) or the cache cannot hold it."""
        if self.cache and translation.cacheable:
            try:
                return self.cache.put(k, translation)
            except OSError as e:  # a read-only or full cache folder only costs the next build time
                log.warning(f"{self.cache.root}: cannot write the translation cache ({e.strerror}); going on without it")
        path = self.scratch / f"{len(self._translated)}-{Path(inp.path).name}.hip"
        atomic_write_text(path, translation.text)
        return path

    def _without_user_names(self, inp: Input, translation: Translation) -> tuple[Diagnostic, ...]:
        """The translation's diagnostics less 'no known HIP counterpart' for names the user's
        headers declare (`#define cudaCheck(x)` in helpers.h): those are the program's own."""
        if not translation.unsupported:
            return translation.diagnostics
        from ..translate.rules import no_counterpart

        cl = headers.closure(inp.path, self.inv.include_dirs, [str(self.tc.rocm.root / "include")])
        declared = sources.names_declared_in(cl.files, set(translation.unsupported))
        quiet = {no_counterpart(name) for name in declared}
        return tuple(d for d in translation.diagnostics if d.message not in quiet)

    def prepared(self, inp: Input) -> tuple[str, list[str]]:
        """The file the compiler reads for `inp`, and the include flags that must precede the user's.

        For a translated file: the cached translation, its original folder for quoted
        includes, and the shadow tree of translated headers in front (headers.py).
        """
        hip, _ = self.translate(inp)
        return str(hip), self.include_flags(inp)

    def include_flags(self, inp: Input) -> list[str]:
        """Quoted includes beside the user's file, translated headers first (used to
        compile the translation, and to check a model's answer the same way)."""
        here = os.path.dirname(os.path.abspath(inp.path))
        flags: list[str] = []
        shadow = self.shadow(inp)
        if shadow:
            flags += ["-iquote", headers.shadow_of(shadow, here)]
        flags += ["-iquote", here]
        if shadow:
            for d in self.inv.include_dirs:
                flags.append(f"-I{headers.shadow_of(shadow, d)}")
        return flags

    def shadow(self, inp: Input) -> Path | None:
        if inp.path in self._shadows:
            return self._shadows[inp.path]
        cl = headers.closure(inp.path, self.inv.include_dirs, [str(self.tc.rocm.root / "include")])
        self._read.extend(cl.files.items())  # their includes explain a failing compile too
        tree = None
        if cl.files:

            def translate_header(path: str) -> str:
                return self.translate(Input(path, Lang.CU))[1].text

            identity = f"{self.chain().identity()}|{self.target.key()}"
            root = self.cache.root if self.cache else self.scratch
            tree = headers.shadow_tree(cl, root, identity, sources.uses_cuda_text, translate_header)
            if tree:
                log.note(f"{inp.path}: translated headers in {tree}")
        self._shadows[inp.path] = tree
        return tree

    def hip_command(self, inp: Input, out: str, mode: list[str], archs: list[str] | None = None) -> list[str]:
        if inp.lang is Lang.CU:
            src, include_flags = self.prepared(inp)
            text = self._translated[inp.path][1].text.encode("utf-8", "surrogateescape")
        else:
            src, include_flags = inp.path, []
            text = b"" if self.dry else sources.read_input(inp.path)
        return commands.hip_compile(
            self.inv,
            src,
            out,
            hip=self.tc.hip_clang(archs or self.archs),
            archs=archs or self.archs,
            include_flags=include_flags,
            mode=mode,
            llvm_fixes=self.tc.llvm_fixes(),
            bracket_depth=commands.bracket_depth(text),
        )

    def compile_command(self, inp: Input, out: str, mode: list[str]) -> list[str]:
        if inp.lang in (Lang.CU, Lang.HIP):
            return self.hip_command(inp, out, mode)
        # nvcc hands .c (and assembler) files to the host C compiler, .cpp to the C++ one,
        # with the CUDA headers visible. Ours see HIP's; host files that use the CUDA API
        # are translated first (same rules, same cache) so they call HIP.
        c_like = inp.lang in (Lang.C, Lang.ASM)
        compiler = self.tc.host_cc(self.inv.host_compiler) if c_like else self.tc.host_cxx(self.inv.host_compiler)
        src, include_flags = inp.path, []
        if stages.TRANSLATE in self.plan(inp):
            src, include_flags = self.prepared(inp)
        return commands.host_compile(self.inv, compiler.path, src, inp.lang, out, mode, include_flags)

    def plan(self, inp: Input) -> tuple[stages.Stage, ...]:
        """The input's stages, decided once (a host source is read to see if it uses CUDA)."""
        if inp.path not in self._plans:
            host_api = inp.lang in (Lang.C, Lang.CXX) and sources.uses_cuda_api(inp.path)
            self._plans[inp.path] = stages.plan(inp.lang, host_api)
        return self._plans[inp.path]

    def compile(self, inp: Input, out: str) -> None:
        """One source to one object through its stages (stages.py), with -MD/-MMD dependency
        output if asked; -keep keeps each stage's output."""
        plan = self.plan(inp)
        if self.inv.verbose:
            log.note(f"{inp.path}: " + " -> ".join(f"{s.name} ({s.makes})" for s in plan))
        if stages.TRANSLATE in plan:
            self.translate(inp)
        deps = self.inv.deps
        if deps.mode not in ("MD", "MMD"):
            self.produce(out, lambda o: self.compile_command(inp, o, ["-c"]))
        else:
            dep_final = deps.file or str(Path(out).with_suffix(".d"))
            targets = deps.targets or [out]
            if self.dry:
                self.execute(self.compile_command(inp, out, ["-c", *self._dep_flags(deps.mode, dep_final, targets)]))
            else:
                with ExitStack() as stack:
                    tmp_out = stack.enter_context(self.output(out))
                    tmp_dep = stack.enter_context(self.output(dep_final))
                    self.execute(self.compile_command(inp, tmp_out, ["-c", *self._dep_flags(deps.mode, tmp_dep, targets)]))
                    self._fix_deps(inp, tmp_dep)
        if self.inv.keep and plan[-1] is stages.HIP:
            self.keep_device_side(inp)

    def keep_device_side(self, inp: Input) -> None:
        """-keep: each GPU target's assembly and code object beside the kept translation."""
        folder = Path(self.inv.keep_dir or ".")
        for arch in self.archs:
            for suffix, mode in stages.KEPT_BESIDE_HIP:
                kept = stages.kept_path(folder, inp.path, arch, suffix)
                if self.dry:
                    self.execute(self.hip_command(inp, str(kept), list(mode), archs=[arch]))
                    continue
                try:
                    self.produce(str(kept), lambda o, m=mode, a=arch: self.hip_command(inp, o, list(m), archs=[a]))
                except DriverError as e:
                    raise DriverError(f"{kept}: cannot keep the device side: {e}") from None
                log.note(f"kept {kept}")

    def _dep_flags(self, mode: str, dep_file: str, targets: list[str]) -> list[str]:
        flags = [f"-{mode}", "-MF", dep_file]
        for t in targets:
            flags += ["-MT", t]
        if self.inv.deps.phony:
            flags.append("-MP")
        return flags

    def _fix_deps(self, inp: Input, dep_file: str) -> None:
        """Dependency files name the user's .cu file, not the cached .hip."""
        if inp.path not in self._translated:
            return
        hip, _ = self.translate(inp)
        text = Path(dep_file).read_text().replace(str(hip), inp.path)
        shadow = self._shadows.get(inp.path)
        if shadow:
            text = text.replace(str(shadow), "")
        Path(dep_file).write_text(text)

    # ---- phases --------------------------------------------------------------------

    def run(self) -> int:
        inv = self.inv
        if inv.verbose or self.dry:
            profile.print_lines(self.toolkit, self.env)
        if not inv.inputs:
            raise DriverError("No input files specified; use option --help for more information")
        if not self.dry:  # before any work: a bad -o or -MF should not cost a translation
            for final in (inv.output, inv.deps.file):
                if final:
                    self.writable(final)
        for inp in inv.inputs:
            if inp.lang in SOURCE_LANGS:
                _not_a_pipe(inp.path)
        phase = inv.phase
        if inv.verbose and any(i.lang in (Lang.CU, Lang.HIP) for i in inv.inputs):
            log.note(profile.target_note(inv.targets, self.archs))
        if phase is Phase.COMPILE:
            return self.run_compile()
        if phase in (Phase.LINK, Phase.SHARED, Phase.LIB):
            return self.run_link()
        if phase is Phase.PREPROCESS:
            return self.run_preprocess()
        if phase is Phase.DEPS:
            return self.run_deps()
        if phase in (Phase.PTX, Phase.CUBIN, Phase.FATBIN, Phase.CUDAFE):
            return self.run_device_only()
        if phase is Phase.DLINK:
            return self.run_dlink()
        raise DriverError(f"phase {phase.value} is not supported")

    def sources(self) -> list[Input]:
        return [i for i in self.inv.inputs if i.lang in SOURCE_LANGS]

    def _single_output_check(self, inputs: list[Input]) -> None:
        if self.inv.output and len(inputs) > 1:
            raise DriverError("A single input file is required for a non-link phase when an outputfile is specified")

    def run_compile(self) -> int:
        sources = self.sources()
        self._single_output_check(sources)
        for inp in self.inv.inputs:
            if inp.lang in LINKER_LANGS:
                log.warning(f"{inp.path}: linker input unused because linking is not done")
            elif inp.lang not in SOURCE_LANGS:
                raise _unbuildable(inp)
        for inp in sources:
            out = self.inv.output or (Path(inp.path).stem + ".o")
            self.compile(inp, out)
        return 0

    def run_link(self) -> int:
        inv = self.inv
        default = {Phase.LINK: "a.out", Phase.SHARED: "a.so", Phase.LIB: "a.a"}[inv.phase]
        out = inv.output or default
        with tempfile.TemporaryDirectory(prefix="cass-cc-") as tmp:
            objects: list[str] = []
            for n, inp in enumerate(self.inv.inputs):
                if inp.lang in SOURCE_LANGS:
                    obj = os.path.join(tmp, f"{n}_{Path(inp.path).stem}.o")
                    self.compile(inp, obj)
                    objects.append(obj)
                elif inp.lang in LINKER_LANGS:
                    objects.append(inp.path)
                else:
                    raise _unbuildable(inp)
            if inv.phase is Phase.LIB:
                ar = shutil.which("ar", path=self.env.get("PATH")) or "ar"
                self.produce(out, lambda o: [ar, "rcs", o, *objects])
                return 0
            self.produce(out, lambda o: self.link_command(objects, o))
        return 0

    def link_command(self, objects: list[str], out: str) -> list[str]:
        inv = self.inv
        rocm = self.tc.rocm
        libs = []
        for name in inv.libs:
            try:
                mapped = commands.map_library(name, rocm, inv.lib_dirs)
            except LookupError as e:
                raise DriverError(str(e)) from None
            if mapped:
                libs.append(mapped)
        libomp = commands.llvm_libomp(self.tc.clang.path) if commands.uses_openmp(inv.host_args) else None
        if inv.rdc or (not self.dry and any(dlink.has_relocatable_device_code(o) for o in objects)):
            linker = dlink.sibling_cxx(self.tc.clang.path)
            hip_link = ["--hip-link", "-fgpu-rdc", f"--rocm-path={rocm.root}", f"--rocm-device-lib-path={self.tc.device_lib_dir(self.archs)}"]
            hip_link += [f"--offload-arch={a}" for a in self.archs]
            objects = dlink.archives_as_libraries(objects, self.scratch / "archives")
        else:
            linker, hip_link = self.tc.host_cxx(inv.host_compiler).path, []
        # the toolkit's lib64 as nvcc's LIBRARIES= names it: CMake finds its link line by it
        toolkit_libs = profile.link_flags(self.toolkit)
        return commands.link(inv, linker, objects, out, rocm, libs, shared=inv.phase is Phase.SHARED,
                             hip_link=hip_link, libomp=libomp, toolkit_libs=toolkit_libs)

    def run_preprocess(self) -> int:
        for inp in self.sources():
            mode = ["-E", *_HOST_ONLY] if inp.lang in (Lang.CU, Lang.HIP) else ["-E"]
            if self.inv.output:
                self.produce(self.inv.output, lambda o, i=inp: self.compile_command(i, o, mode))
            else:
                self.execute(self.compile_command(inp, "-", mode))
        return 0

    def run_deps(self) -> int:
        deps = self.inv.deps
        sources = self.sources()
        self._single_output_check(sources)
        for inp in sources:
            targets = deps.targets or [Path(inp.path).stem + ".o"]
            flags = [f"-{deps.mode or 'M'}"] + [f for t in targets for f in ("-MT", t)]
            if deps.phony:
                flags.append("-MP")
            if inp.lang in (Lang.CU, Lang.HIP):
                flags += _HOST_ONLY
            final = deps.file or self.inv.output
            if self.dry:  # nothing is made, so nothing is renamed into place
                self.execute(self.compile_command(inp, final or "-", flags))
            elif final:
                with self.output(final) as tmp:
                    self.execute(self.compile_command(inp, tmp, flags))
                    self._fix_deps(inp, tmp)
            else:
                with tempfile.TemporaryDirectory(prefix="cass-cc-") as tmp:
                    dep = os.path.join(tmp, "deps.d")
                    self.execute(self.compile_command(inp, dep, flags))
                    self._fix_deps(inp, dep)
                    sys.stdout.write(Path(dep).read_text())
        return 0

    def run_device_only(self) -> int:
        """-ptx / -cubin / -fatbin / -cuda with their AMD meanings (see --help)."""
        inv = self.inv
        sources = [i for i in self.sources() if i.lang in (Lang.CU, Lang.HIP)]
        self._single_output_check(sources)
        suffix = {Phase.PTX: ".ptx", Phase.CUBIN: ".cubin", Phase.FATBIN: ".fatbin", Phase.CUDAFE: ".cu.cpp.ii"}[inv.phase]
        if inv.phase in (Phase.PTX, Phase.CUBIN) and len(self.archs) > 1:
            raise DriverError(f"-{inv.phase.value} makes one file per GPU target; got {', '.join(self.archs)}: name one with -arch")
        mode = {
            Phase.PTX: ["-S", "--cuda-device-only"],
            Phase.CUBIN: ["-c", "--cuda-device-only", "--no-gpu-bundle-output"],
            Phase.FATBIN: ["-c", "--cuda-device-only", "--gpu-bundle-output"],
        }.get(inv.phase)
        for inp in sources:
            out = inv.output or (Path(inp.path).stem + suffix)
            if inv.phase is Phase.CUDAFE:
                if inp.lang is not Lang.CU:
                    raise DriverError(f"{inp.path}: -cuda translates CUDA sources; this one is HIP already")
                _, translation = self.translate(inp)
                if not self.dry:
                    self.writable(out)
                    atomic_write_text(out, translation.text)
                continue
            self.produce(out, lambda o, i=inp: self.hip_command(i, o, list(mode or [])))
        return 0

    def run_dlink(self) -> int:
        objects = [i.path for i in self.inv.inputs if i.lang in LINKER_LANGS]
        if len(objects) != len(self.inv.inputs):
            raise DriverError("-dlink takes objects made with -dc or -rdc=true (compile sources first)")
        dlink.device_link(self, objects, self.inv.output or "a_dlink.o")
        return 0


def make_toolchain(config: Config, env: Mapping[str, str]) -> Toolchain:
    return Toolchain(env, config.rocm_path, config.cache_path(env))


__all__ = ["Build", "DriverError", "ToolFailed", "ToolchainError", "make_toolchain"]
