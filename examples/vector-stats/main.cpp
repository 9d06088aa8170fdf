// Host program: plain C++, compiled by the host compiler (as nvcc does for .cpp files).
#include <cmath>
#include <cstdio>
#include <vector>
#include "ops.h"

int main() {
  const size_t n = 1 << 20;
  std::vector<float> x(n), y(n), expect(n);
  for (size_t i = 0; i < n; ++i) {
    x[i] = (float)(i % 17) * 0.25f;
    y[i] = (float)(i % 5);
    expect[i] = 2.0f * x[i] + y[i];
  }
  char name[256] = "?";
  CHECK(gpu_name(name, sizeof name));
  CHECK(gpu_saxpy(2.0f, x.data(), y.data(), n));
  size_t bad = 0;
  for (size_t i = 0; i < n; ++i) bad += std::fabs(y[i] - expect[i]) > 1e-5f;
  double sum = 0.0, ref = 0.0;
  CHECK(gpu_sum(y.data(), n, &sum));
  for (size_t i = 0; i < n; ++i) ref += y[i];
  bool ok = bad == 0 && std::fabs(sum - ref) <= 1e-4 * std::fabs(ref);
  printf("device %s: saxpy mismatches %zu, sum %.1f (expected %.1f)\n", name, bad, sum, ref);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
