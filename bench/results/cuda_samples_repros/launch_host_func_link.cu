// cudaLaunchHostFunc: HIP 5.2's header declares hipLaunchHostFunc, but libamdhip64 5.2 does not
// export it: compiles, then `cass-cc FILE -o x` fails at link (undefined reference).
#include <cuda_runtime.h>
void CUDART_CB fn(void *) {}
int main() { return cudaLaunchHostFunc(0, fn, nullptr) != cudaSuccess; }
