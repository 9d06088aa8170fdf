"""nvcc's options as data: one sorted table, reverse maps built from it.

Spellings and arities follow `nvcc --help` of CUDA 13.0 (plus a few hidden options
real builds use: -Xcudafe, -Xfatbin, -Xcicc). `parse.py` reads only this table.
"""
from __future__ import annotations

import enum

from ..records import record


class Arity(enum.Enum):
    FLAG = "flag"  # no value: -c
    ONE = "one"  # one value: -o file, --std=c++17
    LIST = "list"  # comma list, may repeat: -I a,b  -Xcompiler=-Wall,-DX=a\,b


class Disp(enum.Enum):
    """What parsing does with an option (its disposition)."""

    PHASE = "phase"  # selects Phase[target]
    SET = "set"  # Invocation field <target> = value (last wins, as nvcc)
    APPEND = "append"  # Invocation list field <target> += values
    TRUE = "true"  # Invocation bool field <target> = True
    BOOL = "bool"  # Invocation field <target> = value == "true"
    HOST = "host"  # host_args += target.format(value)
    IGNORED = "ignored"  # accepted, no AMD meaning: recorded in Invocation.ignored
    UNSUPPORTED = "unsupported"  # accepted by nvcc, refused by cass-cc
    SPECIAL = "special"  # handled by name (target) in parse.py


class Kind(enum.Enum):
    """What a value must look like (nvcc checks these)."""

    ANY = "any"
    NUMBER = "number"  # "'x': expected a number"
    BOOL = "bool"  # "'x': expected true or false"


@record
class Option:
    long: str  # "--gpu-architecture"
    short: str | None  # "-arch"; None when nvcc has only the long spelling
    arity: Arity
    disp: Disp
    target: str = ""  # field name ("deps.file" for nested), phase, host template, special key
    choices: tuple[str, ...] = ()  # allowed values, if nvcc restricts them
    kind: Kind = Kind.ANY
    glued: bool = False  # the short spelling also takes its value glued: -Ipath, -O3
    # Bounds nvcc puts on a NUMBER's value (every NUMBER must also fit 32 signed bits).
    low: int | None = None
    high: int | None = None
    # A LIST whose values nvcc unescapes (probed with -dryrun): a backslash takes the next
    # character literally and goes (-DX=a\b defines X as ab), "..." groups commas and stays.
    # The other lists (-I, -L, -Xlinker...) keep backslashes and drop the quotes.
    escapes: bool = False
    # `choices` are checked by the tool nvcc hands the value to (fatbinary), not by nvcc:
    # --dryrun, which runs no tool, takes any value.
    tool_checks: bool = False
    # The value may be left out: a next word that is an option (not "-") is not taken as it
    # (nvcc 13: `-Ofc -c` and `-Ofc` at the end are fine, `-Ofc max` sets max).
    optional: bool = False

    @property
    def name(self) -> str:
        """The name nvcc uses in messages: the long spelling without dashes."""
        return self.long.lstrip("-")


F, ONE, LIST = Arity.FLAG, Arity.ONE, Arity.LIST
PH, SET, APP, TRUE, BOOL, HOST, IGN, UNSUP, SPEC = (
    Disp.PHASE, Disp.SET, Disp.APPEND, Disp.TRUE, Disp.BOOL, Disp.HOST,
    Disp.IGNORED, Disp.UNSUPPORTED, Disp.SPECIAL,
)
NUM, TF = Kind.NUMBER, Kind.BOOL
O = Option

WERROR_KINDS = (
    "all-warnings", "cross-execution-space-call", "default-stream-launch",
    "deprecated-declarations", "ext-lambda-captures-this", "missing-launch-bounds",
    "reorder",
)

# Sorted by long spelling (plain string order); tests/nvcc/test_options.py checks it.
OPTIONS: tuple[Option, ...] = (
    O("--Ofast-compile", "-Ofc", ONE, IGN, choices=("0", "max", "mid", "min"), optional=True),
    O("--Wdefault-stream-launch", "-Wdefault-stream-launch", F, IGN),
    O("--Werror", "-Werror", LIST, APP, "werror", choices=WERROR_KINDS),
    O("--Wext-lambda-captures-this", "-Wext-lambda-captures-this", F, IGN),
    O("--Wmissing-launch-bounds", "-Wmissing-launch-bounds", F, IGN),
    O("--Wno-deprecated-declarations", "-Wno-deprecated-declarations", F, HOST,
      "-Wno-deprecated-declarations"),
    O("--Wno-deprecated-gpu-targets", "-Wno-deprecated-gpu-targets", F, IGN),
    O("--Wreorder", "-Wreorder", F, IGN),
    O("--allow-unsupported-compiler", "-allow-unsupported-compiler", F, IGN),
    O("--archive-options", "-Xarchive", LIST, APP, "archive_args"),
    O("--archiver-binary", "-arbin", ONE, IGN),
    O("--augment-host-linker-script", "-aug-hls", F, IGN),
    O("--brief-diagnostics", "-brief-diag", ONE, IGN, kind=TF),
    O("--cicc-options", "-Xcicc", LIST, IGN, escapes=True),
    O("--clean-targets", "-clean", F, UNSUP),
    O("--compile", "-c", F, PH, "COMPILE"),
    O("--compile-as-tools-patch", "-astoolspatch", F, SPEC, "astoolspatch"),
    O("--compiler-bindir", "-ccbin", ONE, SET, "host_compiler"),
    O("--compiler-options", "-Xcompiler", LIST, APP, "host_args", escapes=True),
    O("--compress-mode", "-compress-mode", ONE, IGN,
      choices=("default", "size", "speed", "balance", "none"), tool_checks=True),
    O("--cubin", "-cubin", F, PH, "CUBIN"),
    O("--cuda", "-cuda", F, PH, "CUDAFE"),
    O("--cudadevrt", "-cudadevrt", ONE, IGN, choices=("none", "static")),
    O("--cudafe-options", "-Xcudafe", LIST, IGN),
    O("--cudart", "-cudart", ONE, SET, "shared_cudart", choices=("none", "shared", "static")),
    O("--debug", "-g", F, TRUE, "debug"),
    O("--default-stream", "-default-stream", ONE, SET, "default_stream",
      choices=("legacy", "null", "per-thread")),
    O("--define-macro", "-D", LIST, APP, "defines", glued=True, escapes=True),
    O("--dependency-drive-prefix", "-ddp", ONE, IGN),
    O("--dependency-output", "-MF", ONE, SET, "deps.file"),
    O("--dependency-target-name", "-MT", ONE, SPEC, "MT"),
    O("--device-c", "-dc", F, SPEC, "dc"),
    O("--device-debug", "-G", F, TRUE, "device_debug"),
    O("--device-entity-has-hidden-visibility", "-device-entity-has-hidden-visibility",
      ONE, IGN, kind=TF),
    O("--device-link", "-dlink", F, PH, "DLINK"),
    O("--device-stack-protector", "-device-stack-protector", ONE, IGN, kind=TF),
    O("--device-w", "-dw", F, SPEC, "dw"),
    O("--diag-error", "-diag-error", LIST, IGN, kind=NUM),
    O("--diag-suppress", "-diag-suppress", LIST, IGN, kind=NUM),
    O("--diag-warn", "-diag-warn", LIST, IGN, kind=NUM),
    O("--disable-warnings", "-w", F, TRUE, "no_warnings"),
    O("--display-error-number", "-err-no", F, IGN),
    O("--dlink-time-opt", "-dlto", F, SPEC, "dlto"),
    O("--dont-use-profile", "-noprof", F, IGN),
    O("--dopt", "-dopt", ONE, SET, "device_opt", choices=("on",)),
    O("--drive-prefix", "-dp", ONE, IGN),
    O("--dryrun", "-dryrun", F, TRUE, "dryrun"),
    O("--entries", "-e", LIST, IGN),
    O("--expt-extended-lambda", "-expt-extended-lambda", F, TRUE, "extended_lambda"),
    O("--expt-relaxed-constexpr", "-expt-relaxed-constexpr", F, TRUE, "relaxed_constexpr"),
    O("--extended-lambda", "-extended-lambda", F, TRUE, "extended_lambda"),
    O("--extensible-whole-program", "-ewp", F, SPEC, "ewp"),
    O("--extra-device-vectorization", "-extra-device-vectorization", F, IGN),
    O("--fatbin", "-fatbin", F, PH, "FATBIN"),
    O("--fatbin-options", "-Xfatbin", LIST, IGN),
    O("--fdevice-syntax-only", "-fdevice-syntax-only", F, IGN),
    O("--fdevice-time-trace", "-fdevice-time-trace", ONE, SPEC, "time_trace"),
    O("--fmad", "-fmad", ONE, BOOL, "fmad", kind=TF),
    O("--force-cl-env-setup", "-force-cl-env-setup", F, IGN),
    O("--forward-unknown-opts", "-forward-unknown-opts", F, SPEC, "forward"),
    O("--forward-unknown-to-host-compiler", "-forward-unknown-to-host-compiler", F, SPEC,
      "forward"),
    O("--forward-unknown-to-host-linker", "-forward-unknown-to-host-linker", F, SPEC,
      "forward"),
    O("--frandom-seed", "-frandom-seed", ONE, HOST, "-frandom-seed={}"),
    O("--ftemplate-backtrace-limit", "-ftemplate-backtrace-limit", ONE, HOST,
      "-ftemplate-backtrace-limit={}", kind=NUM, low=0),
    O("--ftemplate-depth", "-ftemplate-depth", ONE, HOST, "-ftemplate-depth={}", kind=NUM,
      low=1),
    O("--ftz", "-ftz", ONE, BOOL, "ftz", kind=TF),
    O("--gen-opt-lto", "-gen-opt-lto", F, IGN),
    O("--generate-code", "-gencode", LIST, SPEC, "gencode"),
    O("--generate-dependencies", "-M", F, SPEC, "M"),
    O("--generate-dependencies-with-compile", "-MD", F, SPEC, "MD"),
    O("--generate-dependency-targets", "-MP", F, TRUE, "deps.phony"),
    O("--generate-line-info", "-lineinfo", F, TRUE, "lineinfo"),
    O("--generate-nonsystem-dependencies", "-MM", F, SPEC, "MM"),
    O("--generate-nonsystem-dependencies-with-compile", "-MMD", F, SPEC, "MMD"),
    O("--gpu-architecture", "-arch", ONE, SPEC, "arch"),
    O("--gpu-code", "-code", LIST, SPEC, "code"),
    O("--help", "-h", F, PH, "HELP"),
    O("--host-linker-script", "-hls", ONE, UNSUP, choices=("use-lcs", "gen-lcs"), optional=True),
    O("--include-path", "-I", LIST, APP, "include_dirs", glued=True),
    O("--input-drive-prefix", "-idp", ONE, IGN),
    O("--jobserver", "-jobserver", F, IGN),
    O("--jump-table-density", "-jtd", ONE, IGN, kind=NUM, low=0, high=101),
    O("--keep", "-keep", F, TRUE, "keep"),
    O("--keep-device-functions", "-keep-device-functions", F, IGN),
    O("--keep-dir", "-keep-dir", ONE, SET, "keep_dir"),
    O("--lib", "-lib", F, PH, "LIB"),
    O("--libdevice-directory", "-ldir", ONE, IGN),
    O("--library", "-l", LIST, APP, "libs", glued=True),
    O("--library-path", "-L", LIST, APP, "lib_dirs", glued=True),
    O("--link", "-link", F, PH, "LINK"),
    O("--linker-options", "-Xlinker", LIST, APP, "linker_args"),
    O("--list-gpu-arch", "-arch-ls", F, PH, "LIST_ARCH"),
    O("--list-gpu-code", "-code-ls", F, PH, "LIST_CODE"),
    O("--lto", "-lto", F, SPEC, "dlto"),
    O("--ltoir", "-ltoir", F, UNSUP),
    O("--m64", "-m64", F, SPEC, "m64"),
    O("--machine", "-m", ONE, SPEC, "machine", choices=("64",)),
    O("--maxrregcount", "-maxrregcount", ONE, IGN, kind=NUM),
    O("--no-align-double", None, F, IGN),
    O("--no-compress", "-no-compress", F, IGN),
    O("--no-device-link", "-nodlink", F, IGN),
    O("--no-display-error-number", "-no-err-no", F, IGN),
    O("--no-exceptions", "-noeh", F, HOST, "-fno-exceptions"),
    O("--no-host-device-initializer-list", "-nohdinitlist", F, IGN),
    O("--no-host-device-move-forward", "-nohdmoveforward", F, IGN),
    O("--nvlink-options", "-Xnvlink", LIST, APP, "nvlink_args", escapes=True),
    O("--objdir-as-tempdir", "-objtemp", F, IGN),
    O("--optimization-info", "-opt-info", LIST, IGN, choices=("inline",)),
    O("--optimize", "-O", ONE, SET, "opt", kind=NUM, glued=True, low=0),
    O("--options-file", "-optf", LIST, SPEC, "optf"),
    O("--optix-ir", "-optix-ir", F, UNSUP),
    O("--output-directory", "-odir", ONE, IGN),
    O("--output-file", "-o", ONE, SET, "output"),
    O("--pre-include", "-include", LIST, APP, "pre_includes"),
    O("--prec-div", "-prec-div", ONE, BOOL, "prec_div", kind=TF),
    O("--prec-sqrt", "-prec-sqrt", ONE, BOOL, "prec_sqrt", kind=TF),
    O("--preprocess", "-E", F, PH, "PREPROCESS"),
    O("--profile", "-pg", F, HOST, "-pg"),
    O("--ptx", "-ptx", F, PH, "PTX"),
    O("--ptxas-options", "-Xptxas", LIST, APP, "ptxas_args", escapes=True),
    # QNX only: nvcc passes -V<config> to the host compiler, which only QNX's qcc takes.
    O("--qpp-config", "-qpp-config", ONE, UNSUP),
    O("--relocatable-device-code", "-rdc", ONE, SPEC, "rdc", kind=TF),
    O("--relocatable-link", "-r", F, UNSUP),
    O("--relocatable-ptx", "-reloc-ptx", F, IGN),
    O("--resource-usage", "-res-usage", F, IGN),
    O("--restrict", "-restrict", F, IGN),
    O("--run", "-run", F, UNSUP),
    O("--run-args", "-run-args", LIST, UNSUP),
    O("--sanitize", "-sanitize", ONE, UNSUP),
    O("--save-temps", "-save-temps", F, TRUE, "keep"),
    O("--shared", "-shared", F, PH, "SHARED"),
    O("--source-in-ptx", "-src-in-ptx", F, IGN),
    O("--split-compile", "-split-compile", ONE, IGN, kind=NUM, low=0),
    O("--split-compile-extended", "-split-compile-extended", ONE, IGN, kind=NUM, low=0),
    O("--static-global-template-stub", "-static-global-template-stub", ONE, IGN, kind=TF),
    O("--std", "-std", ONE, SET, "std", choices=("c++03", "c++11", "c++14", "c++17", "c++20")),
    O("--system-include", "-isystem", LIST, APP, "system_include_dirs"),
    O("--target-directory", "-target-dir", ONE, SPEC, "target_dir"),
    O("--threads", "-t", ONE, IGN, kind=NUM, glued=True, low=0),
    O("--time", "-time", ONE, SET, "time_file"),
    O("--undefine-macro", "-U", LIST, APP, "undefines", glued=True, escapes=True),
    O("--use-local-env", "-use-local-env", F, IGN),
    O("--use_fast_math", "-use_fast_math", F, TRUE, "fast_math"),
    O("--verbose", "-v", F, TRUE, "verbose"),
    O("--version", "-V", F, PH, "VERSION"),
    O("--x", "-x", ONE, SPEC, "x", choices=("c", "c++", "cu")),
)

BY_LONG: dict[str, Option] = {o.long: o for o in OPTIONS}
BY_SHORT: dict[str, Option] = {o.short: o for o in OPTIONS if o.short}
# Every accepted spelling (long and short) -> record.
BY_SPELLING: dict[str, Option] = {**BY_LONG, **BY_SHORT}
# Single-letter short spellings that take a glued value: "-I" -> record.
GLUED: dict[str, Option] = {o.short: o for o in OPTIONS if o.glued and o.short}

# cass-cc's own options: --cass-<name>[=value] -> Invocation.cass[name], and this alias.
CASS_PREFIX = "--cass-"
CASS_FLAGS: dict[str, str] = {"--emit-rdna3": "emit-rdna3"}
# cass-cc's own options with a value (`--model X`, `--model=X`) -> Invocation.cass[name].
CASS_VALUES: dict[str, str] = {"--model": "model", "--model-endpoint": "model-endpoint"}
