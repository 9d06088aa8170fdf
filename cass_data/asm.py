"""Assembly text per kernel: the CASS SASS form and RDNA3 kernels (cass_cc/sass/asmtext.py, shared
with `cass-cc --emit-rdna3`'s model path)."""
from __future__ import annotations

from cass_cc.sass.asmtext import rdna3_kernels, sass_kernels

__all__ = ["rdna3_kernels", "sass_kernels"]
