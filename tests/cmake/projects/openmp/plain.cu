__global__ void once(int* v) { v[threadIdx.x] = 1; }
int main() { return 0; }
