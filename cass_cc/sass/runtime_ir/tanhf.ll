; MUFU.TANH (sm_75+) is approximate; this is within a few ulps of it (through exp2).
; 0x4007154760000000 is 2*log2(e) as a float. On NVPTX the exp2 becomes ex2.approx
; (nvptx.py), as MUFU.EX2 does.
define internal float @__cass_tanhf(float %x) #0 {
  %a = call float @llvm.fabs.f32(float %x)
  %t = fmul float %a, 0x4007154760000000
  %e = call float @llvm.exp2.f32(float %t)
  %e1 = fadd float %e, 1.0
  %q = fdiv float 2.0, %e1
  %r = fsub float 1.0, %q
  %small = fcmp olt float %a, 0x3F20000000000000
  %r2 = select i1 %small, float %a, float %r
  %s = call float @llvm.copysign.f32(float %r2, float %x)
  ret float %s
}
