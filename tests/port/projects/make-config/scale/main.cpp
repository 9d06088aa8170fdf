#include <cstdio>
int run_twice(float *host, int n);
int main() {
  float x[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  printf("rc %d x[7] %g\n", run_twice(x, 8), x[7]);
  return 0;
}
