// Host code only: compiles against the toolkit, then links CUDA::cublas and CUDA::nppc.
#include <cuda_runtime.h>
int main() { return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1; }
