// Inline PTX that cass-cc does not translate (vabsdiff4, SIMD video instruction) reaches the AMD
// assembler: "<inline asm>:1:2: invalid instruction" (at device link under -rdc), no named reason.
__device__ unsigned int sad4(unsigned int a, unsigned int b, unsigned int c) {
  unsigned int r;
  asm("vabsdiff4.u32.u32.u32.add %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  return r;
}
__global__ void k(unsigned int *p) { p[0] = sad4(p[1], p[2], p[3]); }
