// Directed-rounding float intrinsics (__fadd_rd, __fmul_ru, __fdiv_rd, __fsqrt_ru, ...): HIP 5.2 has only the _rn ones.
__global__ void k(float *x) {
  x[0] = __fadd_rd(x[1], x[2]) + __fadd_ru(x[1], x[2]) + __fmul_rd(x[1], x[2]) + __fmul_ru(x[1], x[2]);
  x[3] = __fdiv_rd(x[1], x[2]) + __fdiv_ru(x[1], x[2]) + __fsqrt_rd(x[1]) + __fsqrt_ru(x[1]);
}
