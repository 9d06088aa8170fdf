"""`--emit-rdna3`'s second path: kernels the lifter cannot cover, translated by a CASS assembly
model (SASS in the CASS text form -> a ```hipasm answer), each answer assembled by llvm-mc
before it is used (cass_cc/translate/model.py's AssemblyModel).

A model answer is one kernel's code and `.amdhsa_kernel` descriptor, as in the training pairs
(cass_cc/sass/asmtext.py cuts them that way). The code object needs the kernel in its
`.amdgpu_metadata` too: the entry is written here from the cubin's parameter layout and the
answer's descriptor, and joined to the lifter's metadata so one `.s` holds every kernel.
"""
from __future__ import annotations

import re
import tempfile
from collections.abc import Sequence
from pathlib import Path

from ..toolchain.tool import ToolTimeout, run_tool
from .asmtext import sass_kernels
from .cubin import Cubin, Kernel

TARGET = "amdgcn-amd-amdhsa--gfx1100"
_METADATA = re.compile(r"^\s*\.amdgpu_metadata\b.*?^\s*\.end_amdgpu_metadata\s*$", re.S | re.M)
_DROP = re.compile(r"^\s*\.(amdgcn_target|amdhsa_code_object_version)\b.*$", re.M)
# code object v5 hidden arguments after the explicit ones (offsets from their 8-aligned start)
_HIDDEN = (("hidden_block_count_x", 0, 4), ("hidden_block_count_y", 4, 4), ("hidden_block_count_z", 8, 4),
           ("hidden_group_size_x", 12, 2), ("hidden_group_size_y", 14, 2), ("hidden_group_size_z", 16, 2),
           ("hidden_remainder_x", 18, 2), ("hidden_remainder_y", 20, 2), ("hidden_remainder_z", 22, 2),
           ("hidden_global_offset_x", 40, 8), ("hidden_global_offset_y", 48, 8), ("hidden_global_offset_z", 56, 8),
           ("hidden_grid_dims", 64, 2))


class ModelPathError(Exception):
    """One line: why the model path could not serve a kernel."""


def sass_texts(cb: Cubin, cuobjdump: str) -> dict[str, str]:
    """Each kernel's SASS in the CASS assembly models' text form, by mangled name."""
    with tempfile.TemporaryDirectory(prefix="cass-sass-") as tmp:
        path = Path(tmp, "k.cubin")
        path.write_bytes(cb.data or Path(cb.path).read_bytes())
        try:
            proc = run_tool([cuobjdump, "--dump-sass", str(path)], text=True, errors="replace")
        except ToolTimeout as e:
            raise ModelPathError(f"{cb.path}: {e}") from None
    if proc.returncode != 0:
        first = next((ln for ln in proc.stderr.splitlines() if ln.strip()), "failed")
        raise ModelPathError(f"{cb.path}: cuobjdump: {first}")
    return sass_kernels(proc.stdout)


def _directive(text: str, name: str) -> int | None:
    m = re.search(rf"^\s*\.{name}\s+(\d+)\s*$", text, re.M)
    return int(m.group(1)) if m else None


def kernel_part(answer: str, k: Kernel) -> str:
    """The answer's code and descriptor, its own metadata and target lines dropped; the
    kernel must carry the original's (mangled) name."""
    if not re.search(rf"^\s*\.amdhsa_kernel\s+{re.escape(k.name)}\s*$", answer, re.M):
        named = re.search(r"^\s*\.amdhsa_kernel\s+(\S+)", answer, re.M)
        got = f"names {named.group(1)}" if named else "has no .amdhsa_kernel descriptor"
        raise ModelPathError(f"the model's answer {got}, not {k.name}")
    return _DROP.sub("", _METADATA.sub("", answer)).strip("\n") + "\n"


def metadata_entry(k: Kernel, part: str) -> str:
    """The kernel's `amdhsa.kernels` list item, in llc's layout."""
    explicit = max((p.offset + p.size for p in k.params), default=0)
    kernarg = _directive(part, "amdhsa_kernarg_size") or explicit
    lines = ["  - .args:"]
    for i, p in enumerate(sorted(k.params, key=lambda q: q.offset)):
        lines += [f"      - .name:           a{i}", f"        .offset:         {p.offset}",
                  f"        .size:           {p.size}", "        .value_kind:     by_value"]
    hidden = (explicit + 7) // 8 * 8
    for name, offset, size in _HIDDEN:
        if hidden + offset + size <= kernarg:
            lines += [f"      - .offset:         {hidden + offset}", f"        .size:           {size}",
                      f"        .value_kind:     {name}"]
    if lines == ["  - .args:"]:
        lines = ["  - .args:           []"]
    vgprs = _directive(part, "amdhsa_next_free_vgpr") or 1
    sgprs = _directive(part, "amdhsa_next_free_sgpr") or 1
    lines += [f"    .group_segment_fixed_size: {_directive(part, 'amdhsa_group_segment_fixed_size') or 0}",
              "    .kernarg_segment_align: 8", f"    .kernarg_segment_size: {kernarg}",
              "    .max_flat_workgroup_size: 1024", f"    .name:           {k.name}",
              f"    .private_segment_fixed_size: {_directive(part, 'amdhsa_private_segment_fixed_size') or 0}",
              f"    .sgpr_count:     {sgprs}", "    .sgpr_spill_count: 0", f"    .symbol:         {k.name}.kd",
              "    .uses_dynamic_stack: false", f"    .vgpr_count:     {vgprs}", "    .vgpr_spill_count: 0",
              "    .wavefront_size: 32", "    .workgroup_processor_mode: 1"]
    return "\n".join(lines) + "\n"


def join(lifted_asm: str, parts: Sequence[tuple[Kernel, str]]) -> str:
    """One `.s`: the lifter's kernels (llc's output, or nothing) and the model's, with one
    metadata block that lists them all."""
    if not parts:
        return lifted_asm
    entries = "".join(metadata_entry(k, part) for k, part in parts)
    code = "".join(part for _, part in parts)
    found = _METADATA.search(lifted_asm)
    if found is None:  # the model served every kernel
        head = f'\t.text\n\t.amdgcn_target "{TARGET}"\n\t.amdhsa_code_object_version 5\n'
        meta = (f"\t.amdgpu_metadata\n---\namdhsa.kernels:\n{entries}amdhsa.target:   {TARGET}\n"
                "amdhsa.version:\n  - 1\n  - 2\n...\n\n\t.end_amdgpu_metadata\n")
        return lifted_asm + head + code + meta
    block = found.group(0)
    at = block.index("amdhsa.target:")
    merged = block[:at] + entries + block[at:]
    before, after = lifted_asm[: found.start()], lifted_asm[found.end():]
    return before + "\t.text\n" + code + merged + after
