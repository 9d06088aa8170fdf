#include <cstdio>
#include <vector>
#include "histogram.h"

int main() {
  std::vector<unsigned char> data(1 << 16);
  for (size_t i = 0; i < data.size(); ++i) data[i] = (unsigned char)(i * 7);
  unsigned int bins[256] = {0};
  if (histogram256(data.data(), (int)data.size(), bins) != 0) {
    std::printf("no GPU\n");
    return 0;
  }
  unsigned long total = 0;
  for (unsigned int b : bins) total += b;
  std::printf("total %lu\n", total);
  return total == data.size() ? 0 : 1;
}
