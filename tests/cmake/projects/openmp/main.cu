#include <cstdio>
__global__ void twice(int* v, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) v[i] *= 2; }
int main() {
    long s = 0;
#pragma omp parallel for reduction(+ : s)
    for (int i = 0; i < 1000; ++i) s += i;
    printf("%ld\n", s);
    return s != 499500;
}
