// Interface between the host program (main.cpp) and the CUDA files.
#pragma once
#include <cstddef>

#define CHECK(call)                                                                  \
  do {                                                                               \
    int err_ = static_cast<int>(call);                                               \
    if (err_ != 0) {                                                                 \
      fprintf(stderr, "%s:%d: CUDA error %d\n", __FILE__, __LINE__, err_);           \
      return err_;                                                                   \
    }                                                                                \
  } while (0)

// y = a * x + y on the GPU; returns 0 or a CUDA error code.
int gpu_saxpy(float a, const float* x, float* y, size_t n);
// Sum of x on the GPU; returns 0 or a CUDA error code.
int gpu_sum(const float* x, size_t n, double* out);
// Name of device 0, for the report.
int gpu_name(char* buf, size_t len);
