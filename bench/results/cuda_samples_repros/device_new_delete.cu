// new/delete in device code: clang's cuda_wrappers/<new> calls host malloc/free under HIP 5.2.
#include <new>
struct V { int n; __device__ V(int n) : n(n) {} };
__global__ void make(V **p) { *p = new V(4); }
__global__ void drop(V **p) { delete *p; }
