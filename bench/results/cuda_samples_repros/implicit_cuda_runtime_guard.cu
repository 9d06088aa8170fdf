// nvcc pre-includes cuda_runtime.h in every .cu file: helper_cuda.h's checkCudaErrors and
// findCudaDevice exist only under these guards, so a .cu that includes it first fails.
#if !defined(__DRIVER_TYPES_H__) || !defined(__CUDA_RUNTIME_H__)
#error "__DRIVER_TYPES_H__ / __CUDA_RUNTIME_H__ undefined without an explicit #include <cuda_runtime.h>"
#endif
int main() { return 0; }
