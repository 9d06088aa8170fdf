// Launch chevrons in the spellings nvcc accepts; only split ones are rewritten.
#include <cuda_runtime.h>
#include <ostream>

template <typename T> struct Box { T v; };
template <typename T, typename U> __global__ void pair_kernel(T* out) { out[threadIdx.x] = T(sizeof(U)); }
__global__ void fill(int* out, int v) { out[threadIdx.x] = v; }

#define LAUNCH(k, g, b) k<<<g, b>>>
#define LAUNCH_SPLIT(k, g, b) k << < g, b >> >
#define OPEN << <
#define CLOSE >> >
#define NESTED std::pair<int, Box<Box<int>> >

template <typename T> struct Printer;
template <typename T> std::ostream& operator<<(std::ostream& os, const Printer<T>&);
template <typename T> struct Printer {
    friend std::ostream& operator<< <>(std::ostream& os, const Printer<T>& p);  // not a launch
};

template <typename T> T make(int n) { return T(); }

void run(int* out, float* f, cudaStream_t stream, std::ostream& os, int a, int b) {
    fill << < 1, 32 >> > (out, 1);
    fill<< <1, 32>>>(out, 2);
    fill<<<1, 32>> >(out, 3);
    fill< << 1, 32> >>(out, 4);
    fill <<
        < 1, 32 >>>
        (out, 5);
    fill<<<1, 32, 0,
           stream>>
           >(out, 6);
    fill << /* grid */ < 1, 32 >> /* end */ > (out, 7);
    fill<<<1, 32, 0, stream>>>(out, 8);
    fill<<<
        1, 32
    >>>(out, 9);
    LAUNCH(fill, 1, 32)(out, 10);
    LAUNCH_SPLIT(fill, 1, 32)(out, 11);
    fill OPEN 1, 32 CLOSE(out, 12);
    pair_kernel<float, Box<int>><<<1, 32>>>(f);
    pair_kernel<float, Box<Box<int>>><<<1, 32>>>(f);
    pair_kernel<float, Box<Box<int>> > << < 1, 32, 0, stream >> > (f);
    pair_kernel<float, Box<int>> << < dim3(1), dim3(make<int>(32)) >> > (f);
    (fill)<< <1, 32>> >(out, 13);
    // not launches: shifts, comparisons, templates closed by "> >"
    os << (a < b) << (a >> 1) << (b > a);
    NESTED nested = make<std::pair<int, Box<Box<int>> > >(0);
    Box<Box<Box<int>> > boxes = make<Box<Box<Box<int>> > >(0);
    (void)nested, (void)boxes;
}
