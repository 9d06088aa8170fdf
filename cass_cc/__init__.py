"""cass-cc: an nvcc-compatible compiler driver that builds CUDA programs for AMD GPUs."""
from __future__ import annotations

__version__ = "0.1.0"

# The CUDA release whose nvcc command line and predefined macros cass-cc reproduces.
# Build systems (CMake, autotools, PyTorch extensions) read it from `--version`.
CUDA_COMPAT_VERSION = "12.4.131"
