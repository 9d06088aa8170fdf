/* cass-cc includes this first in every CUDA source it compiles with clang.

   nvcc predefines __NVCC__, and CUDA code (CMake's compiler identification among it)
   tests it. It cannot go on the command line: HIP's hip_common.h picks HIP's NVIDIA
   platform when it sees __NVCC__. So let hip_common.h settle the platform (AMD) first;
   its include guard keeps the decision when the source includes HIP headers later. */
#include <hip/hip_common.h>
#define __NVCC__ 1
