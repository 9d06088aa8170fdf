// NVTX v3 (header-only, shipped in CUDA's include/nvtx3): no such header through cass-cc (ROCm's
// roctx is not in Debian 12; NVTX calls could be served as no-ops), clang's bare "file not found".
#include <nvtx3/nvToolsExt.h>
int main() { nvtxRangePushA("x"); nvtxRangePop(); return 0; }
