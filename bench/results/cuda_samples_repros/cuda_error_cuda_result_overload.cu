// helper_cuda.h overloads _cudaGetErrorEnum on cudaError_t and on CUresult (when <cuda.h> is in):
// both become hipError_t, so the second is a redefinition (every driver-API sample using helper_cuda.h).
#include <cuda.h>
#include <cuda_runtime.h>
static const char *name(cudaError_t) { return "runtime"; }
static const char *name(CUresult) { return "driver"; }
int main() { return name(cudaSuccess)[0] != name(CUDA_SUCCESS)[0]; }
