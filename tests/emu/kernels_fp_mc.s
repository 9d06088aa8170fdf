.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
// Rounding modes set at run time, and calls. Arguments: pointers in order at kernarg 0, 8, 16, 24.
.text
// out[12 * i + 3 * k + j] for k = MODE f64 rounding 0..3 and j = fma(a, b, c), a + c, a * b
.globl directed_f64
.p2align 8
.type directed_f64,@function
directed_f64:
  s_load_b256 s[4:11], s[0:1], 0x0
  v_lshlrev_b32 v1, 3, v0
  v_mul_u32_u24 v20, 96, v0
  s_waitcnt lgkmcnt(0)
  global_load_b64 v[2:3], v1, s[4:5]
  global_load_b64 v[4:5], v1, s[6:7]
  global_load_b64 v[6:7], v1, s[8:9]
  s_waitcnt vmcnt(0)
.irp k, 0, 1, 2, 3
  s_setreg_imm32_b32 hwreg(HW_REG_MODE, 2, 2), \k
  v_fma_f64 v[8:9], v[2:3], v[4:5], v[6:7]
  v_add_f64 v[10:11], v[2:3], v[6:7]
  v_mul_f64 v[12:13], v[2:3], v[4:5]
  global_store_b64 v20, v[8:9], s[10:11] offset:24*\k
  global_store_b64 v20, v[10:11], s[10:11] offset:24*\k+8
  global_store_b64 v20, v[12:13], s[10:11] offset:24*\k+16
.endr
  s_endpgm
.size directed_f64, .-directed_f64
// out[4 * i + k] = a + b in f32 with s_round_mode k; out2[i] = MODE[3:0] read back by s_getreg
.globl round_mode_f32
.p2align 8
.type round_mode_f32,@function
round_mode_f32:
  s_load_b256 s[4:11], s[0:1], 0x0
  v_lshlrev_b32 v1, 2, v0
  v_lshlrev_b32 v20, 4, v0
  s_waitcnt lgkmcnt(0)
  global_load_b32 v2, v1, s[4:5]
  global_load_b32 v3, v1, s[6:7]
  s_waitcnt vmcnt(0)
.irp k, 0, 1, 2, 3
  s_round_mode \k
  v_add_f32 v4, v2, v3
  global_store_b32 v20, v4, s[8:9] offset:4*\k
.endr
  s_getreg_b32 s12, hwreg(HW_REG_MODE, 0, 4)
  v_mov_b32 v5, s12
  global_store_b32 v1, v5, s[10:11]
  s_endpgm
.size round_mode_f32, .-round_mode_f32
// out[i] = f(in[i]) with f called twice through s_swappc_b64 (add 5, then times 3); waves whose
// lane 0 value is odd call through a second function pointer (a divergent indirect call)
.globl calls
.p2align 8
.type calls,@function
calls:
  s_load_b128 s[4:7], s[0:1], 0x0
  v_lshlrev_b32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  global_load_b32 v2, v1, s[4:5]
  s_waitcnt vmcnt(0)
  s_getpc_b64 s[16:17]
  s_add_u32 s16, s16, add_five@rel32@lo+4
  s_addc_u32 s17, s17, add_five@rel32@hi+12
  s_swappc_b64 s[30:31], s[16:17]
  v_readfirstlane_b32 s8, v2
  s_getpc_b64 s[16:17]
  s_add_u32 s16, s16, times_three@rel32@lo+4
  s_addc_u32 s17, s17, times_three@rel32@hi+12
  s_getpc_b64 s[18:19]
  s_add_u32 s18, s18, times_four@rel32@lo+4
  s_addc_u32 s19, s19, times_four@rel32@hi+12
  s_bitcmp1_b32 s8, 0
  s_cselect_b64 s[16:17], s[18:19], s[16:17]
  s_swappc_b64 s[30:31], s[16:17]
  global_store_b32 v1, v2, s[6:7]
  s_endpgm
.size calls, .-calls
// out[i] = a + b in f32, rounded toward +inf in odd workgroups and toward -inf in even ones: the
// waves set different modes on two paths and meet again at the add
.globl mode_per_wave
.p2align 8
.type mode_per_wave,@function
mode_per_wave:
  s_load_b128 s[4:7], s[0:1], 0x0
  s_load_b64 s[8:9], s[0:1], 0x10
  s_lshl_b32 s10, s2, 5  // workgroup id x: the first system SGPR after the kernarg pointer
  v_add_nc_u32 v1, s10, v0
  v_lshlrev_b32 v1, 2, v1
  s_waitcnt lgkmcnt(0)
  global_load_b32 v2, v1, s[4:5]
  global_load_b32 v3, v1, s[6:7]
  s_waitcnt vmcnt(0)
  s_bitcmp1_b32 s2, 0
  s_cbranch_scc1 .Lodd
  s_round_mode 2
  s_branch .Ljoin
.Lodd:
  s_round_mode 1
.Ljoin:
  v_add_f32 v4, v2, v3
  global_store_b32 v1, v4, s[8:9]
  s_endpgm
.size mode_per_wave, .-mode_per_wave
// out[2 * i] = a * b, out[2 * i + 1] = a + b in f64, with the descriptor flushing f64 denormals
.globl flush_f64
.p2align 8
.type flush_f64,@function
flush_f64:
  s_load_b128 s[4:7], s[0:1], 0x0
  s_load_b64 s[8:9], s[0:1], 0x10
  v_lshlrev_b32 v1, 3, v0
  v_lshlrev_b32 v20, 4, v0
  s_waitcnt lgkmcnt(0)
  global_load_b64 v[2:3], v1, s[4:5]
  global_load_b64 v[4:5], v1, s[6:7]
  s_waitcnt vmcnt(0)
  v_mul_f64 v[6:7], v[2:3], v[4:5]
  v_add_f64 v[8:9], v[2:3], v[4:5]
  global_store_b64 v20, v[6:7], s[8:9]
  global_store_b64 v20, v[8:9], s[8:9] offset:8
  s_endpgm
.size flush_f64, .-flush_f64
.p2align 2
.type add_five,@function
add_five:
  v_add_nc_u32 v2, 5, v2
  s_setpc_b64 s[30:31]
.size add_five, .-add_five
.type times_three,@function
times_three:
  v_mul_lo_u32 v2, v2, 3
  s_setpc_b64 s[30:31]
.size times_three, .-times_three
.type times_four,@function
times_four:
  v_lshlrev_b32 v2, 2, v2
  s_setpc_b64 s[30:31]
.size times_four, .-times_four
.rodata
.p2align 6
.amdhsa_kernel directed_f64
  .amdhsa_next_free_vgpr 24
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_wavefront_size32 1
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel round_mode_f32
  .amdhsa_next_free_vgpr 24
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_wavefront_size32 1
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel mode_per_wave
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_system_sgpr_workgroup_id_x 1
  .amdhsa_wavefront_size32 1
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel flush_f64
  .amdhsa_next_free_vgpr 24
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_float_denorm_mode_16_64 0
  .amdhsa_wavefront_size32 1
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel calls
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 32
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_wavefront_size32 1
.end_amdhsa_kernel

.text
// out[i] = a bit per float compare of a[i] with b[i]: lg, nlg, neq, eq, o, u, lt, nge (NaN-sensitive forms)
.globl cmp_nan_f32
.p2align 8
.type cmp_nan_f32,@function
cmp_nan_f32:
  s_load_b128 s[4:7], s[0:1], 0x0
  s_load_b64 s[8:9], s[0:1], 0x10
  v_lshlrev_b32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  global_load_b32 v2, v1, s[4:5]
  global_load_b32 v3, v1, s[6:7]
  s_waitcnt vmcnt(0)
  v_mov_b32 v4, 0
.irp k, 0, 1, 2, 3, 4, 5, 6, 7
  .if \k == 0
  v_cmp_lg_f32 vcc_lo, v2, v3
  .elseif \k == 1
  v_cmp_nlg_f32 vcc_lo, v2, v3
  .elseif \k == 2
  v_cmp_neq_f32 vcc_lo, v2, v3
  .elseif \k == 3
  v_cmp_eq_f32 vcc_lo, v2, v3
  .elseif \k == 4
  v_cmp_o_f32 vcc_lo, v2, v3
  .elseif \k == 5
  v_cmp_u_f32 vcc_lo, v2, v3
  .elseif \k == 6
  v_cmp_lt_f32 vcc_lo, v2, v3
  .else
  v_cmp_nge_f32 vcc_lo, v2, v3
  .endif
  v_cndmask_b32 v5, 0, 1 << \k, vcc_lo
  v_or_b32 v4, v4, v5
.endr
  global_store_b32 v1, v4, s[8:9]
  s_endpgm
.size cmp_nan_f32, .-cmp_nan_f32
.rodata
.p2align 6
.amdhsa_kernel cmp_nan_f32
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_wavefront_size32 1
.end_amdhsa_kernel
