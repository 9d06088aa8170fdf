"""`--help` (the version text is in cass_cc/version.py, kept import-free for speed)."""
from __future__ import annotations

HELP_HEAD = """\
Usage  : cass-cc [options] <inputfile>...          (nvcc's command line)
         cass-cc cache stats|clear                 (the translation cache)
         cass-cc setup                             (check the toolchain, prepare device libraries)
         cass-cc port SRC -o OUT|--inplace|--examine  (translate a whole tree to HIP source)
         cass-cc toolkit                           (print a CUDA-toolkit-shaped folder: bin/nvcc,
                                                    include/, lib64/ serving builds through HIP)
         cass-cc translate [options] FILE.cu...    (translate ahead of a build; batched with a model)
         cass-cc verify FILE.cu... [-- ARGS]       (translate, build both sides for NVIDIA, run, compare;
         cass-cc verify --original DIR --ported DIR --build CMD --run CMD   trees; see verify --help)
         cass-cc hipcc [hipcc options] FILE...     (build HIP sources with nvcc, for NVIDIA GPUs)
         cass-cc emu-run CODE_OBJECT KERNEL --grid G --block B [--arg KIND:VALUE]...
               (run one kernel of a gfx1100 code object on the CPU emulator; see emu-run --help)
         cass-cc --emit-rdna3 FILE.cubin [-o OUT.s] [--emit-hsaco] [--model ID_OR_PATH | --model-endpoint URL]
               (NVIDIA SASS -> gfx1100: lifted, else the CASS assembly model)

cass-cc accepts nvcc's options and builds CUDA programs for AMD GPUs: each .cu
file is translated to HIP (rule-based translator, cached), then compiled by
clang's HIP driver for the AMD targets; .c/.cpp files go to the host compiler;
linking uses the host compiler and the HIP runtime.

GPU targets: -arch/-code/-gencode/--gpu-architecture take NVIDIA names (sm_80,
compute_80, all, all-major, native), which map to AMD targets through the
arch-map setting (default: every NVIDIA target -> gfx1100). AMD names such as
-arch=gfx1100 are accepted directly; several AMD targets give a fat binary.

AMD meanings of NVIDIA-specific outputs:
  -ptx     device assembly for the (single) AMD target, AMDGCN text
  -cubin   device code object (ELF) for the (single) AMD target
  -fatbin  offload bundle holding a code object per AMD target
  -cuda    the translated HIP source
  -keep    also writes each stage's output into --keep-dir: <file>.cu.hip (the
           translation), <file>.cu.<gfx>.s and .co (each target's assembly, code object)

Settings (command line --cass-<key>=VALUE > environment CASS_<KEY> >
[tool.cass-cc] in $CASS_CONFIG or ~/.config/cass-cc/config.toml > default):
"""


def help_text() -> str:
    from ..config import SETTINGS
    from ..nvcc.options import OPTIONS, Disp

    lines = [HELP_HEAD]
    for s in SETTINGS:
        lines.append(f"  {s.env:<24} {s.help}\n")
    lines.append("\nnvcc options (accepted with nvcc's meaning unless marked):\n")
    marks = {Disp.IGNORED: "accepted, no effect on AMD", Disp.UNSUPPORTED: "refused: no AMD equivalent"}
    for opt in OPTIONS:
        spellings = ", ".join(x for x in (opt.short, opt.long) if x)
        mark = marks.get(opt.disp, "")
        lines.append(f"  {spellings:<48} {mark}".rstrip() + "\n")
    return "".join(lines)
