; gfx1100 (AMDGPU, wave32) definitions of the __cass_* runtime functions the lifted bodies call.
; targets.py copies the `define`s a module uses into it; these `;` lines stay here. Attribute
; groups (set in targets.py): #0 alwaysinline, #1 the warp-wide call sites (WARP_OP_ATTRS),
; #2 alwaysinline convergent. __cass_tid/__cass_ctaid (runtime.dim3_definition), __cass_tanhf
; (tanhf.ll) and the directed-rounding __cass_dfma_* (targets.py) are not in this file.

; blockDim: the v5 hidden arguments' group sizes, u16 at +12.
define internal i32 @__cass_ntid(i32 %d) #0 {
  %p = call ptr addrspace(4) @llvm.amdgcn.implicitarg.ptr()
  %o = mul i32 %d, 2
  %o2 = add i32 %o, 12
  %g = getelementptr i8, ptr addrspace(4) %p, i32 %o2
  %v = load i16, ptr addrspace(4) %g, align 2
  %r = zext i16 %v to i32
  ret i32 %r
}

; gridDim: the v5 hidden arguments' block counts, u32 at +0.
define internal i32 @__cass_nctaid(i32 %d) #0 {
  %p = call ptr addrspace(4) @llvm.amdgcn.implicitarg.ptr()
  %o = mul i32 %d, 4
  %g = getelementptr i8, ptr addrspace(4) %p, i32 %o
  %r = load i32, ptr addrspace(4) %g, align 4
  ret i32 %r
}

define internal i32 @__cass_laneid() #0 {
  %r = call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)
  ret i32 %r
}

define internal void @__cass_barrier() #2 {
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  ret void
}

; Ballots and the active mask are inline asm, not llvm.amdgcn.ballot: instcombine makes
; ballot(true) a read_register of exec_lo, which GVN treats as a load and merges with an
; earlier one under a wider exec (an aggregated atomic's leader elected by the lanes of
; another branch); a side-effecting asm stays in its block.
define internal i32 @__cass_ballot(i1 zeroext %p) #2 {
  %v = zext i1 %p to i32
  %r = call i32 asm sideeffect "v_cmp_ne_u32_e64 $0, 0, $1", "=s,v"(i32 %v) #1
  ret i32 %r
}

define internal i64 @__cass_clock() #0 {
  %r = call i64 @llvm.readcyclecounter()
  ret i64 %r
}

; REDUX over the active lanes in this lane's group (%group: all lanes, or the mask of the
; WARPSYNC.EXCLUSIVE before it, which may differ per lane): read each active lane's value
; in turn (the active mask is uniform) and combine those in the group.
define internal i32 @__cass_redux(i32 %kind, i32 %v, i32 %group) #2 {
entry:
  %mask = call i32 asm sideeffect "s_mov_b32 $0, exec_lo", "=s"() #1
  br label %check
check:
  %m = phi i32 [ %mask, %entry ], [ %m2, %body ]
  %acc = phi i32 [ 0, %entry ], [ %acc2, %body ]
  %have = phi i1 [ false, %entry ], [ %have2, %body ]
  %done = icmp eq i32 %m, 0
  br i1 %done, label %exit, label %body
body:
  %l = call i32 @llvm.cttz.i32(i32 %m, i1 true)
  %x = call i32 @llvm.amdgcn.readlane(i32 %v, i32 %l)
  %add = add i32 %acc, %x
  %umin = call i32 @llvm.umin.i32(i32 %acc, i32 %x)
  %umax = call i32 @llvm.umax.i32(i32 %acc, i32 %x)
  %and = and i32 %acc, %x
  %or = or i32 %acc, %x
  %xor = xor i32 %acc, %x
  %smin = call i32 @llvm.smin.i32(i32 %acc, i32 %x)
  %smax = call i32 @llvm.smax.i32(i32 %acc, i32 %x)
  %r0 = icmp eq i32 %kind, 0
  %r1 = icmp eq i32 %kind, 1
  %r2 = icmp eq i32 %kind, 2
  %r3 = icmp eq i32 %kind, 3
  %r4 = icmp eq i32 %kind, 4
  %r5 = icmp eq i32 %kind, 5
  %r9 = icmp eq i32 %kind, 9
  %s10 = select i1 %r9, i32 %smin, i32 %smax
  %s5 = select i1 %r5, i32 %xor, i32 %s10
  %s4 = select i1 %r4, i32 %or, i32 %s5
  %s3 = select i1 %r3, i32 %and, i32 %s4
  %s2 = select i1 %r2, i32 %umax, i32 %s3
  %s1 = select i1 %r1, i32 %umin, i32 %s2
  %comb = select i1 %r0, i32 %add, i32 %s1
  %next = select i1 %have, i32 %comb, i32 %x
  %bit = shl i32 1, %l
  %inb = and i32 %group, %bit
  %in = icmp ne i32 %inb, 0
  %acc2 = select i1 %in, i32 %next, i32 %acc
  %have2 = or i1 %have, %in
  %mm2 = sub i32 %m, 1
  %m2 = and i32 %m, %mm2
  br label %check
exit:
  ret i32 %acc
}

; BAR.RED: a barrier that also counts the threads whose predicate is true (kind 0:
; the count, 1: all true, 2: any true), through two LDS counters at LDS 0 and 4
; (the kernel's shared window starts after them, see targets._lds_front).
define internal i32 @__cass_barrier_red(i32 %kind, i1 zeroext %p) #2 {
entry:
  %tx = call i32 @llvm.amdgcn.workitem.id.x()
  %ty = call i32 @llvm.amdgcn.workitem.id.y()
  %tz = call i32 @llvm.amdgcn.workitem.id.z()
  %txy = or i32 %tx, %ty
  %txyz = or i32 %txy, %tz
  %first = icmp eq i32 %txyz, 0
  %ctrue = getelementptr i8, ptr addrspace(3) null, i32 0
  %cfalse = getelementptr i8, ptr addrspace(3) null, i32 4
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  br i1 %first, label %clear, label %count
clear:
  store volatile i32 0, ptr addrspace(3) %ctrue, align 4
  store volatile i32 0, ptr addrspace(3) %cfalse, align 4
  br label %count
count:
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %np = xor i1 %p, true
  %pv = zext i1 %p to i32
  %npv = zext i1 %np to i32
  %bt = call i32 asm sideeffect "v_cmp_ne_u32_e64 $0, 0, $1", "=s,v"(i32 %pv) #1
  %bf = call i32 asm sideeffect "v_cmp_ne_u32_e64 $0, 0, $1", "=s,v"(i32 %npv) #1
  %nt = call i32 @llvm.ctpop.i32(i32 %bt)
  %nf = call i32 @llvm.ctpop.i32(i32 %bf)
  %act = call i32 asm sideeffect "s_mov_b32 $0, exec_lo", "=s"() #1
  %lead = call i32 @llvm.cttz.i32(i32 %act, i1 true)
  %lane = call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)
  %isleader = icmp eq i32 %lane, %lead
  br i1 %isleader, label %add, label %wait
add:
  %o1 = atomicrmw add ptr addrspace(3) %ctrue, i32 %nt syncscope("workgroup") monotonic, align 4
  %o2 = atomicrmw add ptr addrspace(3) %cfalse, i32 %nf syncscope("workgroup") monotonic, align 4
  br label %wait
wait:
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %t = load volatile i32, ptr addrspace(3) %ctrue, align 4
  %f = load volatile i32, ptr addrspace(3) %cfalse, align 4
  %all = icmp eq i32 %f, 0
  %any = icmp ne i32 %t, 0
  %allv = zext i1 %all to i32
  %anyv = zext i1 %any to i32
  %is1 = icmp eq i32 %kind, 1
  %is0 = icmp eq i32 %kind, 0
  %r12 = select i1 %is1, i32 %allv, i32 %anyv
  %r = select i1 %is0, i32 %t, i32 %r12
  ret i32 %r
}

; MATCH over the active lanes: compare with each active lane's value in turn.
define internal i32 @__cass_match(i32 %kind, i64 %v) #2 {
entry:
  %mask = call i32 asm sideeffect "s_mov_b32 $0, exec_lo", "=s"() #1
  %vlo = trunc i64 %v to i32
  %vs = lshr i64 %v, 32
  %vhi = trunc i64 %vs to i32
  br label %check
check:
  %m = phi i32 [ %mask, %entry ], [ %m2, %body ]
  %acc = phi i32 [ 0, %entry ], [ %acc2, %body ]
  %done = icmp eq i32 %m, 0
  br i1 %done, label %exit, label %body
body:
  %l = call i32 @llvm.cttz.i32(i32 %m, i1 true)
  %xlo = call i32 @llvm.amdgcn.readlane(i32 %vlo, i32 %l)
  %xhi = call i32 @llvm.amdgcn.readlane(i32 %vhi, i32 %l)
  %eqlo = icmp eq i32 %xlo, %vlo
  %eqhi = icmp eq i32 %xhi, %vhi
  %eq = and i1 %eqlo, %eqhi
  %bit = shl i32 1, %l
  %add = select i1 %eq, i32 %bit, i32 0
  %acc2 = or i32 %acc, %add
  %mm = sub i32 %m, 1
  %m2 = and i32 %m, %mm
  br label %check
exit:
  %all = icmp eq i32 %acc, %mask
  %allr = select i1 %all, i32 %mask, i32 0
  %isany = icmp eq i32 %kind, 0
  %r = select i1 %isany, i32 %acc, i32 %allr
  ret i32 %r
}

; PTX shfl.sync semantics: lane j, validity p, own value when p is false.
define internal i64 @__cass_shfl(i32 %mode, i32 %v, i32 %b, i32 %c) #2 {
  %lane = call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)
  %bv = and i32 %b, 31
  %cv = and i32 %c, 31
  %c8 = lshr i32 %c, 8
  %seg = and i32 %c8, 31
  %nseg = xor i32 %seg, -1
  %ls = and i32 %lane, %seg
  %cn = and i32 %cv, %nseg
  %max = or i32 %ls, %cn
  %bn = and i32 %bv, %nseg
  %jidx = or i32 %ls, %bn
  %jup = sub i32 %lane, %bv
  %jdown = add i32 %lane, %bv
  %jbfly = xor i32 %lane, %bv
  %is0 = icmp eq i32 %mode, 0
  %is1 = icmp eq i32 %mode, 1
  %is2 = icmp eq i32 %mode, 2
  %j23 = select i1 %is2, i32 %jdown, i32 %jbfly
  %j123 = select i1 %is1, i32 %jup, i32 %j23
  %j = select i1 %is0, i32 %jidx, i32 %j123
  %pup = icmp sge i32 %j, %max
  %ple = icmp sle i32 %j, %max
  %p = select i1 %is1, i1 %pup, i1 %ple
  %src = select i1 %p, i32 %j, i32 %lane
  %addr = shl i32 %src, 2
  %r = call i32 @llvm.amdgcn.ds.bpermute(i32 %addr, i32 %v)
  %r64 = zext i32 %r to i64
  %p64 = zext i1 %p to i64
  %ph = shl i64 %p64, 32
  %out = or i64 %r64, %ph
  ret i64 %out
}
