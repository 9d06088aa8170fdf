#include <cuda_runtime.h>
#include <cuda_runtime_api.h>
#include <cuda.h>
#include <device_launch_parameters.h>
#include <cuda_fp16.h>
#include <cooperative_groups.h>
#include <curand_kernel.h>
#include <cublas_v2.h>
#include <cuda_profiler_api.h>
#include "device_launch_parameters.h"
#include "my_kernels.cuh"
#include "helper_cuda.h"
#include <helper_cuda.h>
#  include   <cuComplex.h>   // spaced out
#include <vector>
#include <cub/cub.cuh>
namespace cg = cooperative_groups;
