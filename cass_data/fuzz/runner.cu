// cass-data fuzz's truth runner: loads a batch's cubin with the CUDA driver API and runs each
// kernel on its input, writing what the kernel left in `out`.
//
//   fuzz_runner DIR [FIRST COUNT]
//
// DIR holds fz.cubin, kernels.txt (one line per kernel: name grid block out_words) and in.bin
// (1,024 words per kernel, in order). Writes DIR/truth.bin (each kernel's out words, in order)
// and DIR/status.txt (one line per kernel: "ok" or the CUDA error's name). An error that poisons
// the context stops the run with exit status 3 after writing what it has; the caller reruns the
// rest one kernel at a time.
#include <cuda.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

static const char* err_name(CUresult r) {
  const char* s = nullptr;
  cuGetErrorName(r, &s);
  return s ? s : "CUDA_ERROR_UNKNOWN";
}

#define DIE(call) do { CUresult r_ = (call); if (r_ != CUDA_SUCCESS) { \
  fprintf(stderr, "fuzz_runner: %s: %s\n", #call, err_name(r_)); return 2; } } while (0)

struct Kernel { std::string name; unsigned grid, block, out_words; };

int main(int argc, char** argv) {
  if (argc != 2 && argc != 4) { fprintf(stderr, "usage: fuzz_runner DIR [FIRST COUNT]\n"); return 2; }
  std::string dir = argv[1];
  std::vector<Kernel> ks;
  FILE* f = fopen((dir + "/kernels.txt").c_str(), "r");
  if (!f) { fprintf(stderr, "fuzz_runner: %s/kernels.txt: cannot open\n", dir.c_str()); return 2; }
  char name[256];
  unsigned g, b, w;
  while (fscanf(f, "%255s %u %u %u", name, &g, &b, &w) == 4) ks.push_back({name, g, b, w});
  fclose(f);
  size_t first = 0, count = ks.size();
  if (argc == 4) { first = strtoul(argv[2], nullptr, 10); count = strtoul(argv[3], nullptr, 10); }
  std::vector<unsigned> in(ks.size() * 1024);
  f = fopen((dir + "/in.bin").c_str(), "rb");
  if (!f || fread(in.data(), 4, in.size(), f) != in.size()) { fprintf(stderr, "fuzz_runner: %s/in.bin: short\n", dir.c_str()); return 2; }
  fclose(f);

  DIE(cuInit(0));
  CUdevice dev; DIE(cuDeviceGet(&dev, 0));
  CUcontext ctx; DIE(cuDevicePrimaryCtxRetain(&ctx, dev)); DIE(cuCtxSetCurrent(ctx));
  CUmodule mod; DIE(cuModuleLoad(&mod, (dir + "/fz.cubin").c_str()));

  std::string suffix = argc == 4 ? "." + std::to_string(first) : "";
  FILE* out = fopen((dir + "/truth.bin" + suffix).c_str(), "wb");
  FILE* st = fopen((dir + "/status.txt" + suffix).c_str(), "w");
  int rc = 0;
  for (size_t i = first; i < first + count && i < ks.size(); ++i) {
    const Kernel& k = ks[i];
    std::vector<unsigned> host(k.out_words, 0u);
    CUfunction fn;
    CUresult r = cuModuleGetFunction(&fn, mod, k.name.c_str());
    CUdeviceptr din = 0, dout = 0;
    if (r == CUDA_SUCCESS) r = cuMemAlloc(&din, 4096);
    if (r == CUDA_SUCCESS) r = cuMemAlloc(&dout, 4ull * k.out_words);
    if (r == CUDA_SUCCESS) r = cuMemcpyHtoD(din, in.data() + 1024 * i, 4096);
    if (r == CUDA_SUCCESS) r = cuMemsetD32(dout, 0u, k.out_words);
    if (r == CUDA_SUCCESS) {
      void* params[] = {&din, &dout};
      r = cuLaunchKernel(fn, k.grid, 1, 1, k.block, 1, 1, 0, 0, params, nullptr);
    }
    if (r == CUDA_SUCCESS) r = cuCtxSynchronize();
    if (r == CUDA_SUCCESS) r = cuMemcpyDtoH(host.data(), dout, 4ull * k.out_words);
    fwrite(host.data(), 4, host.size(), out);
    fprintf(st, "%s\n", r == CUDA_SUCCESS ? "ok" : err_name(r));
    fflush(out);
    fflush(st);
    if (din) cuMemFree(din);
    if (dout) cuMemFree(dout);
    if (r != CUDA_SUCCESS && r != CUDA_ERROR_NOT_FOUND && r != CUDA_ERROR_INVALID_VALUE) { rc = 3; break; }
  }
  fclose(out);
  fclose(st);
  return rc;
}
