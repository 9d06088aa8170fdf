// Thrust needs rocThrust, absent from Debian 12: is the reason named, or clang's bare "file not found"?
#include <thrust/device_vector.h>
#include <thrust/sort.h>
int main() { thrust::device_vector<int> v(4); thrust::sort(v.begin(), v.end()); return 0; }
