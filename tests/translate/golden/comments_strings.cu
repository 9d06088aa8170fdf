#include <cuda_runtime.h>
#include <cstdio>
// cudaMalloc(&p, n) in a line comment stays as it is
/* cudaFree(p);
   cudaMemcpy(a, b, n, cudaMemcpyHostToDevice); in a block comment */
static const char* kName = "cudaMalloc failed: cudaErrorMemoryAllocation";
static const char kC = 'c';
static const char* kRaw = R"cu(cudaMemcpy("x") )" cudaFree )cu";
static const wchar_t* kWide = L"cudaStream_t";
int f(void* p) {
    cudaError_t e = cudaMalloc(&p, 16); /* cudaMalloc */ // cudaFree
    printf("cudaGetErrorString says %s\n", cudaGetErrorString(e));
    return e == cudaSuccess ? 0 : 1;
}
