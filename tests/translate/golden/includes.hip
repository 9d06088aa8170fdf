#include <hip/hip_runtime.h>
#line 1 "includes.cu"
#include <hip/hip_runtime.h>
#include <hip/hip_runtime_api.h>
#include <hip/hip_runtime.h>
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include <hip/hip_cooperative_groups.h>
#include <hiprand/hiprand_kernel.h>
#include <hipblas/hipblas.h>
#include <hip/hip_runtime_api.h>
#include <hip/hip_runtime.h>
#include "my_kernels.cuh"
#include "helper_cuda.h"
#include <helper_cuda.h>
#  include   <hip/hip_complex.h>   // spaced out
#include <vector>
#include <hipcub/hipcub.hpp>
namespace cg = cooperative_groups;
