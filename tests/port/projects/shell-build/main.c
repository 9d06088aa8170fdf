#include <stdio.h>
#include "kernel.h"
int main(void) {
  float x[4] = {1, 2, 3, 4};
  int count = 0;
  cudaGetDeviceCount(&count);
  printf("devices %d rc %d\n", count, scale_on_gpu(x, 4, 2.0f));
  return 0;
}
