/* cass-cc: hipCUB names that are not CUB's any more. The generated <hipcub/hipcub.hpp> makes
 * hipcub a namespace that uses ::cub; CCCL 3 (CUDA 13) dropped cub::Max, cub::Min and cub::Sum
 * (now cuda::maximum<>, ...), which hipCUB code still names. Declared here, they win over any
 * cub:: ones in qualified lookup of hipcub::X. */
#ifndef CASS_HIPNV_HIPCUB_H
#define CASS_HIPNV_HIPCUB_H
namespace hipcub {
struct Max {
  template <class T> __host__ __device__ __forceinline__ T operator()(const T& a, const T& b) const { return a < b ? b : a; }
};
struct Min {
  template <class T> __host__ __device__ __forceinline__ T operator()(const T& a, const T& b) const { return b < a ? b : a; }
};
struct Sum {
  template <class T> __host__ __device__ __forceinline__ T operator()(const T& a, const T& b) const { return a + b; }
};
}  // namespace hipcub
#endif
