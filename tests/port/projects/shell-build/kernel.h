#ifndef KERNEL_H
#define KERNEL_H
#include <cuda_runtime.h>
#ifdef __cplusplus
extern "C" {
#endif
int scale_on_gpu(float *host, int n, float factor);
#ifdef __cplusplus
}
#endif
#endif
