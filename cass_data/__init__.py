"""cass_data: verified CUDA<->HIP and SASS<->RDNA3 training pairs (built on cass_cc.toolchain)."""
