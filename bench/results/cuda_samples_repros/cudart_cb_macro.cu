// CUDART_CB (cuda_runtime_api.h's calling-convention macro, empty on Linux) is undefined.
#include <cuda_runtime.h>
void CUDART_CB callback(cudaStream_t stream, cudaError_t status, void *data) {}
int main() { return cudaStreamAddCallback(0, callback, nullptr, 0) != cudaSuccess; }
