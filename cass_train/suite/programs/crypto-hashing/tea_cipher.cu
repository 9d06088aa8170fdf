// cass-bench: tea_cipher
// domain: crypto-hashing
// features: uint2, constant-memory-key, encrypt-decrypt-roundtrip, __funnelshift_l
// emu: encrypt grid=1 block=256 args=u32[512];u32[512]=0;i32:256
// args:
// XTEA encryption of 1M 64-bit blocks in CTR-like fashion (block index mixed in), then
// decryption on the device; ciphertexts match the host and decryption restores the plaintext.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__constant__ unsigned c_key[4];
#define DELTA 0x9E3779B9u

__host__ __device__ inline uint2 xtea_enc(uint2 v, const unsigned* k) {
  unsigned v0 = v.x, v1 = v.y, sum = 0;
  for (int i = 0; i < 32; ++i) {
    v0 += (((v1 << 4) ^ (v1 >> 5)) + v1) ^ (sum + k[sum & 3]);
    sum += DELTA;
    v1 += (((v0 << 4) ^ (v0 >> 5)) + v0) ^ (sum + k[(sum >> 11) & 3]);
  }
  return make_uint2(v0, v1);
}

__host__ __device__ inline uint2 xtea_dec(uint2 v, const unsigned* k) {
  unsigned v0 = v.x, v1 = v.y, sum = DELTA * 32;
  for (int i = 0; i < 32; ++i) {
    v1 -= (((v0 << 4) ^ (v0 >> 5)) + v0) ^ (sum + k[(sum >> 11) & 3]);
    sum -= DELTA;
    v0 -= (((v1 << 4) ^ (v1 >> 5)) + v1) ^ (sum + k[sum & 3]);
  }
  return make_uint2(v0, v1);
}

__global__ void encrypt(const uint2* in, uint2* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint2 v = in[i];
  v.x ^= __funnelshift_l((unsigned)i, (unsigned)i, 13);  // whitening with the block index (a rotate)
  out[i] = xtea_enc(v, c_key);
}

__global__ void decrypt(const uint2* in, uint2* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint2 v = xtea_dec(in[i], c_key);
  v.x ^= __funnelshift_l((unsigned)i, (unsigned)i, 13);
  out[i] = v;
}

int main() {
  const int n = 1 << 20;
  const unsigned key[4] = {0x01234567u, 0x89ABCDEFu, 0xFEDCBA98u, 0x76543210u};
  std::vector<uint2> p(n), c(n), back(n);
  unsigned s = 31415u;
  for (auto& v : p) { s = s * 1664525u + 1013904223u; v.x = s; s = s * 1664525u + 1013904223u; v.y = s; }
  CHECK(cudaMemcpyToSymbol(c_key, key, sizeof(key)));
  uint2 *dp, *dc, *db;
  CHECK(cudaMalloc(&dp, n * 8)); CHECK(cudaMalloc(&dc, n * 8)); CHECK(cudaMalloc(&db, n * 8));
  CHECK(cudaMemcpy(dp, p.data(), n * 8, cudaMemcpyHostToDevice));
  encrypt<<<n / 256, 256>>>(dp, dc, n);
  decrypt<<<n / 256, 256>>>(dc, db, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(c.data(), dc, n * 8, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(back.data(), db, n * 8, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; i += 7) {  // every 7th block on the host
    uint2 v = p[i];
    unsigned r = ((unsigned)i << 13) | ((unsigned)i >> 19);
    v.x ^= r;
    uint2 e = xtea_enc(v, key);
    bad += e.x != c[i].x || e.y != c[i].y;
  }
  for (int i = 0; i < n; ++i) bad += back[i].x != p[i].x || back[i].y != p[i].y;
  printf("tea_cipher: blocks=%d c0=%08x%08x mismatches=%d\n", n, c[0].x, c[0].y, bad);
  cudaFree(dp); cudaFree(dc); cudaFree(db);
  printf(bad == 0 ? "PASS\n" : "FAIL\n");
  return bad == 0 ? 0 : 1;
}
