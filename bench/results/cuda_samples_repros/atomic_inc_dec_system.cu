// atomicInc_system / atomicDec_system (sm_60+): HIP 5.2 has the other *_system atomics but not these two.
__global__ void k(unsigned int *p) {
  atomicInc_system(p, 17u);
  atomicDec_system(p + 1, 137u);
}
