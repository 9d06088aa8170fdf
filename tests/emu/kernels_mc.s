.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
.text
.globl dpp8_reverse
.p2align 8
.type dpp8_reverse,@function
dpp8_reverse:
  s_load_b128 s[4:7], s[0:1], 0x0
  v_lshlrev_b32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  global_load_b32 v2, v1, s[4:5]
  s_waitcnt vmcnt(0)
  v_mov_b32_dpp v3, v2 dpp8:[7,6,5,4,3,2,1,0]
  global_store_b32 v1, v3, s[6:7]
  s_endpgm
.size dpp8_reverse, .-dpp8_reverse
.globl dpp16_quad_perm
.p2align 8
.type dpp16_quad_perm,@function
dpp16_quad_perm:
  s_load_b128 s[4:7], s[0:1], 0x0
  v_lshlrev_b32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  global_load_b32 v2, v1, s[4:5]
  s_waitcnt vmcnt(0)
  v_mov_b32_dpp v3, v2 quad_perm:[3,2,1,0] row_mask:0xf bank_mask:0xf
  global_store_b32 v1, v3, s[6:7]
  s_endpgm
.size dpp16_quad_perm, .-dpp16_quad_perm
.globl dpp16_row_shr_add
.p2align 8
.type dpp16_row_shr_add,@function
dpp16_row_shr_add:
  s_load_b128 s[4:7], s[0:1], 0x0
  v_lshlrev_b32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  global_load_b32 v2, v1, s[4:5]
  s_waitcnt vmcnt(0)
  v_add_nc_u32_dpp v3, v2, v2 row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:1
  global_store_b32 v1, v3, s[6:7]
  s_endpgm
.size dpp16_row_shr_add, .-dpp16_row_shr_add
.globl dpp16_row_mirror
.p2align 8
.type dpp16_row_mirror,@function
dpp16_row_mirror:
  s_load_b128 s[4:7], s[0:1], 0x0
  v_lshlrev_b32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  global_load_b32 v2, v1, s[4:5]
  s_waitcnt vmcnt(0)
  v_mov_b32_dpp v3, v2 row_mirror row_mask:0xf bank_mask:0xf
  global_store_b32 v1, v3, s[6:7]
  s_endpgm
.size dpp16_row_mirror, .-dpp16_row_mirror
.globl dpp16_row_share
.p2align 8
.type dpp16_row_share,@function
dpp16_row_share:
  s_load_b128 s[4:7], s[0:1], 0x0
  v_lshlrev_b32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  global_load_b32 v2, v1, s[4:5]
  s_waitcnt vmcnt(0)
  v_mov_b32_dpp v3, v2 row_share:3 row_mask:0xf bank_mask:0xf
  global_store_b32 v1, v3, s[6:7]
  s_endpgm
.size dpp16_row_share, .-dpp16_row_share
.globl permlane16_reverse
.p2align 8
.type permlane16_reverse,@function
permlane16_reverse:
  s_load_b128 s[4:7], s[0:1], 0x0
  v_lshlrev_b32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  global_load_b32 v2, v1, s[4:5]
  s_waitcnt vmcnt(0)
  s_mov_b32 s8, 0x89abcdef
  s_mov_b32 s9, 0x01234567
  v_permlane16_b32 v3, v2, s8, s9
  global_store_b32 v1, v3, s[6:7]
  s_endpgm
.size permlane16_reverse, .-permlane16_reverse
.globl permlanex16_swap
.p2align 8
.type permlanex16_swap,@function
permlanex16_swap:
  s_load_b128 s[4:7], s[0:1], 0x0
  v_lshlrev_b32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  global_load_b32 v2, v1, s[4:5]
  s_waitcnt vmcnt(0)
  s_mov_b32 s8, 0x76543210
  s_mov_b32 s9, 0xfedcba98
  v_permlanex16_b32 v3, v2, s8, s9
  global_store_b32 v1, v3, s[6:7]
  s_endpgm
.size permlanex16_swap, .-permlanex16_swap
.globl readlane_writelane
.p2align 8
.type readlane_writelane,@function
readlane_writelane:
  s_load_b128 s[4:7], s[0:1], 0x0
  v_lshlrev_b32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  global_load_b32 v2, v1, s[4:5]
  s_waitcnt vmcnt(0)
  v_readlane_b32 s8, v2, 5
  v_readfirstlane_b32 s9, v2
  v_mov_b32 v3, v2
  v_writelane_b32 v3, s8, 0
  v_writelane_b32 v3, s9, 31
  global_store_b32 v1, v3, s[6:7]
  s_endpgm
.size readlane_writelane, .-readlane_writelane
.globl vopd_add_mul
.p2align 8
.type vopd_add_mul,@function
vopd_add_mul:
  s_load_b128 s[4:7], s[0:1], 0x0
  v_lshlrev_b32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  global_load_b32 v2, v1, s[4:5]
  s_waitcnt vmcnt(0)
  v_mov_b32 v5, v2
  v_dual_add_f32 v3, v2, v2 :: v_dual_mul_f32 v4, v5, v5
  v_add_f32 v3, v3, v4
  global_store_b32 v1, v3, s[6:7]
  s_endpgm
.size vopd_add_mul, .-vopd_add_mul
.globl scalar_loop
.p2align 8
.type scalar_loop,@function
scalar_loop:
  s_load_b128 s[4:7], s[0:1], 0x0
  v_lshlrev_b32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  global_load_b32 v2, v1, s[4:5]
  s_waitcnt vmcnt(0)
  s_mov_b32 s8, 0
  s_mov_b32 s9, 10
.Lloop_scalar_loop:
  s_add_u32 s8, s8, s9
  s_sub_u32 s9, s9, 1
  s_cmp_lg_u32 s9, 0
  s_cbranch_scc1 .Lloop_scalar_loop
  v_add_nc_u32 v3, s8, v2
  global_store_b32 v1, v3, s[6:7]
  s_endpgm
.size scalar_loop, .-scalar_loop
.globl exec_abs
.p2align 8
.type exec_abs,@function
exec_abs:
  s_load_b128 s[4:7], s[0:1], 0x0
  v_lshlrev_b32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  global_load_b32 v2, v1, s[4:5]
  s_waitcnt vmcnt(0)
  v_mov_b32 v3, v2
  v_cmp_gt_i32 vcc_lo, 0, v2
  s_and_saveexec_b32 s8, vcc_lo
  s_cbranch_execz .Lskip_exec_abs
  v_sub_nc_u32 v3, 0, v2
.Lskip_exec_abs:
  s_or_b32 exec_lo, exec_lo, s8
  global_store_b32 v1, v3, s[6:7]
  s_endpgm
.size exec_abs, .-exec_abs
.globl vccz_cndmask
.p2align 8
.type vccz_cndmask,@function
vccz_cndmask:
  s_load_b128 s[4:7], s[0:1], 0x0
  v_lshlrev_b32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  global_load_b32 v2, v1, s[4:5]
  s_waitcnt vmcnt(0)
  v_cmp_lt_i32 vcc_lo, v2, 10
  v_cndmask_b32 v3, 7, 9, vcc_lo
  s_cbranch_vccz .Lnone_vccz_cndmask
  v_add_nc_u32 v3, 100, v3
.Lnone_vccz_cndmask:
  global_store_b32 v1, v3, s[6:7]
  s_endpgm
.size vccz_cndmask, .-vccz_cndmask
.globl salu_bits
.p2align 8
.type salu_bits,@function
salu_bits:
  s_load_b128 s[4:7], s[0:1], 0x0
  v_lshlrev_b32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  global_load_b32 v2, v1, s[4:5]
  s_waitcnt vmcnt(0)
  s_mov_b32 s8, 0xf0f0
  s_bcnt1_i32_b32 s9, s8
  s_ff1_i32_b32 s10, s8
  s_lshl_b32 s11, s9, 4
  s_or_b32 s11, s11, s10
  v_add_nc_u32 v3, s11, v2
  global_store_b32 v1, v3, s[6:7]
  s_endpgm
.size salu_bits, .-salu_bits
.globl lds_barrier_swap
.p2align 8
.type lds_barrier_swap,@function
lds_barrier_swap:
  s_load_b128 s[4:7], s[0:1], 0x0
  v_lshlrev_b32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  global_load_b32 v2, v1, s[4:5]
  s_waitcnt vmcnt(0)
  ds_store_b32 v1, v2
  s_waitcnt lgkmcnt(0)
  s_barrier
  v_sub_nc_u32 v4, 63, v0
  v_lshlrev_b32 v4, 2, v4
  ds_load_b32 v3, v4
  s_waitcnt lgkmcnt(0)
  global_store_b32 v1, v3, s[6:7]
  s_endpgm
.size lds_barrier_swap, .-lds_barrier_swap
.globl lds_wrapped_address
.p2align 8
.type lds_wrapped_address,@function
lds_wrapped_address:
  s_load_b128 s[4:7], s[0:1], 0x0
  v_lshlrev_b32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  global_load_b32 v2, v1, s[4:5]
  s_waitcnt vmcnt(0)
  ds_store_b32 v1, v2
  s_waitcnt lgkmcnt(0)
  s_barrier
  v_sub_nc_u32 v4, 63, v0
  v_lshlrev_b32 v4, 2, v4
  v_subrev_nc_u32 v5, 64, v4
  ds_load_b32 v3, v5 offset:64
  s_waitcnt lgkmcnt(0)
  global_store_b32 v1, v3, s[6:7]
  s_endpgm
.size lds_wrapped_address, .-lds_wrapped_address
.globl movrel
.p2align 8
.type movrel,@function
movrel:
  s_load_b128 s[4:7], s[0:1], 0x0
  v_lshlrev_b32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  global_load_b32 v2, v1, s[4:5]
  s_waitcnt vmcnt(0)
  v_mov_b32 v3, 1
  v_mov_b32 v4, 2
  v_mov_b32 v5, 3
  s_mov_b32 m0, 2
  v_movreld_b32 v3, v2
  s_mov_b32 m0, 1
  v_movrels_b32 v6, v4
  v_add_nc_u32 v6, v6, v3
  v_add_nc_u32 v6, v6, v4
  s_mov_b32 m0, 0x20001
  v_movrelsd_2_b32 v3, v3
  v_add_nc_u32 v6, v6, v5
  s_mov_b32 m0, 1
  v_movrelsd_b32 v3, v3
  v_add_nc_u32 v6, v6, v4
  global_store_b32 v1, v6, s[6:7]
  s_endpgm
.size movrel, .-movrel
.globl pk_f16
.p2align 8
.type pk_f16,@function
pk_f16:
  s_load_b128 s[4:7], s[0:1], 0x0
  v_lshlrev_b32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  global_load_b32 v2, v1, s[4:5]
  s_waitcnt vmcnt(0)
  v_pk_add_f16 v3, v2, v2 op_sel:[1,0] op_sel_hi:[0,1] neg_lo:[0,1] neg_hi:[1,0]
  v_pk_max_f16 v4, v3, 1.0 op_sel_hi:[1,0]
  v_pk_add_f16 v5, v4, v2
  global_store_b32 v1, v5, s[6:7]
  s_endpgm
.size pk_f16, .-pk_f16
.rodata
.p2align 6
.amdhsa_kernel pk_f16
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_wavefront_size32 1
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel movrel
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_wavefront_size32 1
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel dpp8_reverse
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_wavefront_size32 1
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel dpp16_quad_perm
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_wavefront_size32 1
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel dpp16_row_shr_add
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_wavefront_size32 1
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel dpp16_row_mirror
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_wavefront_size32 1
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel dpp16_row_share
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_wavefront_size32 1
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel permlane16_reverse
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_wavefront_size32 1
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel permlanex16_swap
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_wavefront_size32 1
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel readlane_writelane
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_wavefront_size32 1
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel vopd_add_mul
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_wavefront_size32 1
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel scalar_loop
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_wavefront_size32 1
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel exec_abs
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_wavefront_size32 1
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel vccz_cndmask
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_wavefront_size32 1
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel salu_bits
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_wavefront_size32 1
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel lds_barrier_swap
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_wavefront_size32 1
  .amdhsa_group_segment_fixed_size 256
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel lds_wrapped_address
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_wavefront_size32 1
  .amdhsa_group_segment_fixed_size 256
.end_amdhsa_kernel
.text
.globl uncovered
.p2align 8
.type uncovered,@function
uncovered:
  v_mov_b32 v2, 0
  v_mov_b32 v3, 0
  s_mov_b32 m0, 0
  v_cvt_pknorm_i16_f32 v4, v2, v2
  s_endpgm
.size uncovered, .-uncovered
.globl spin
.p2align 8
.type spin,@function
spin:
  s_mov_b32 s8, 0
.Lspin:
  s_add_u32 s8, s8, 1
  s_branch .Lspin
.size spin, .-spin
.rodata
.p2align 6
.amdhsa_kernel uncovered
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_wavefront_size32 1
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel spin
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_wavefront_size32 1
.end_amdhsa_kernel
.text
// Shared by the kernels below: v2 = in[lane] (v1 = its byte offset); out[lane] = REG; descriptor.
.macro load_x
  s_load_b128 s[4:7], s[0:1], 0x0
  v_lshlrev_b32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  global_load_b32 v2, v1, s[4:5]
  s_waitcnt vmcnt(0)
.endm
.macro store_out reg
  global_store_b32 v1, \reg, s[6:7]
  s_endpgm
.endm
.macro descriptor name
.p2align 6
.amdhsa_kernel \name
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_wavefront_size32 1
.end_amdhsa_kernel
.endm
// issue 21's emulator defects, each a kernel of its own: out[i] from in[i]
.globl swap_b32
.p2align 8
.type swap_b32,@function
swap_b32:
  load_x
  v_lshlrev_b32 v3, 1, v2
  v_swap_b32 v2, v3
  v_sub_nc_u32 v4, v2, v3
  store_out v4
.size swap_b32, .-swap_b32
.globl bitset
.p2align 8
.type bitset,@function
bitset:
  load_x
  s_mov_b32 s8, 0
  s_bitset1_b32 s8, 5
  s_bitset1_b32 s8, 31
  s_bitset1_b32 s8, 3
  s_bitset0_b32 s8, 5
  v_add_nc_u32 v3, s8, v2
  store_out v3
.size bitset, .-bitset
.globl clamp_add
.p2align 8
.type clamp_add,@function
clamp_add:
  load_x
  v_add_nc_u32 v3, v2, 0xfffffff0 clamp
  store_out v3
.size clamp_add, .-clamp_add
.rodata
descriptor swap_b32
descriptor bitset
descriptor clamp_add
.text
// out = v_div_fmas_f32(x, 2, -x) with VCC clear (no scaling) = x: src2's neg modifier holds
// (the emulator once read src2 again without its modifiers, giving 3x)
.globl div_fmas_neg
.p2align 8
.type div_fmas_neg,@function
div_fmas_neg:
  load_x
  v_cvt_f32_i32 v3, v2
  s_mov_b32 vcc_lo, 0
  v_div_fmas_f32 v4, v3, 2.0, -v3
  v_cvt_i32_f32 v5, v4
  store_out v5
.size div_fmas_neg, .-div_fmas_neg
.rodata
descriptor div_fmas_neg
.text
// out = v_sad_u8(x, 3x, 7) + v_msad_u8(x, 0x00ff0102, 0) + v_sad_u32(x, 100, 0): pseudocode with lambdas
.globl sad
.p2align 8
.type sad,@function
sad:
  load_x
  v_mul_lo_u32 v3, v2, 3
  v_sad_u8 v4, v2, v3, 7
  v_mov_b32 v5, 0x00ff0102
  v_msad_u8 v6, v2, v5, 0
  v_sad_u32 v7, v2, 0x64, 0
  v_add3_u32 v4, v4, v6, v7
  store_out v4
.size sad, .-sad
.rodata
descriptor sad
// issue 23: DS_SWIZZLE_B32 takes its source from ADDR (v2 here; DATA0 encodes v0, the lane id)
.text
.globl swizzle_broadcast
.p2align 8
.type swizzle_broadcast,@function
swizzle_broadcast:
  load_x
  ds_swizzle_b32 v3, v2 offset:swizzle(BROADCAST,32,15)
  s_waitcnt lgkmcnt(0)
  store_out v3
.size swizzle_broadcast, .-swizzle_broadcast
.globl swizzle_swap16
.p2align 8
.type swizzle_swap16,@function
swizzle_swap16:
  load_x
  ds_swizzle_b32 v3, v2 offset:swizzle(SWAP,16)
  s_waitcnt lgkmcnt(0)
  store_out v3
.size swizzle_swap16, .-swizzle_swap16
.globl swizzle_quad_perm
.p2align 8
.type swizzle_quad_perm,@function
swizzle_quad_perm:
  load_x
  ds_swizzle_b32 v3, v2 offset:swizzle(QUAD_PERM,3,2,1,0)
  s_waitcnt lgkmcnt(0)
  store_out v3
.size swizzle_quad_perm, .-swizzle_quad_perm
.rodata
descriptor swizzle_broadcast
descriptor swizzle_swap16
descriptor swizzle_quad_perm
