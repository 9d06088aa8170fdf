; NVPTX definitions of the __cass_* runtime functions: PTX's own special registers, bar.sync,
; shfl.sync, vote.ballot.sync, redux.sync, match.*.sync and bar.red. nvptx.py copies the
; `define`s a module uses into it; these `;` lines stay here. Attribute groups (set in nvptx.py):
; #0 alwaysinline, #1 the warp-wide call sites, #2 alwaysinline convergent. LLVM 16 has no
; activemask intrinsic: the active mask is `activemask.b32` in inline asm. __cass_tid, _ctaid,
; _ntid, _nctaid (runtime.dim3_definition), __cass_tanhf (tanhf.ll) and the __cass_dfma_*
; (nvptx.py) are not in this file.

define internal i32 @__cass_laneid() #0 {
  %r = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
  ret i32 %r
}

define internal void @__cass_barrier() #2 {
  call void @llvm.nvvm.barrier0()
  ret void
}

define internal i32 @__cass_ballot(i1 zeroext %p) #2 {
  %mask = call i32 asm sideeffect "activemask.b32 $0;", "=r"() #1
  %r = call i32 @llvm.nvvm.vote.ballot.sync(i32 %mask, i1 %p)
  ret i32 %r
}

define internal i64 @__cass_clock() #0 {
  %r = call i64 @llvm.nvvm.read.ptx.sreg.clock64()
  ret i64 %r
}

; REDUX over the active lanes in this lane's group; %kind as mem.py's op_REDUX codes it: 0 add,
; 1 umin, 2 umax, 3 and, 4 or, 5 xor, 9 min (signed), 10 max (signed: the default label).
define internal i32 @__cass_redux(i32 %kind, i32 %v, i32 %group) #2 {
entry:
  %active = call i32 asm sideeffect "activemask.b32 $0;", "=r"() #1
  %mask = and i32 %active, %group
  switch i32 %kind, label %max [
    i32 0, label %add
    i32 1, label %umin
    i32 2, label %umax
    i32 3, label %and
    i32 4, label %or
    i32 5, label %xor
    i32 9, label %min
  ]
add:
  %r.add = call i32 @llvm.nvvm.redux.sync.add(i32 %v, i32 %mask)
  ret i32 %r.add
umin:
  %r.umin = call i32 @llvm.nvvm.redux.sync.umin(i32 %v, i32 %mask)
  ret i32 %r.umin
umax:
  %r.umax = call i32 @llvm.nvvm.redux.sync.umax(i32 %v, i32 %mask)
  ret i32 %r.umax
and:
  %r.and = call i32 @llvm.nvvm.redux.sync.and(i32 %v, i32 %mask)
  ret i32 %r.and
or:
  %r.or = call i32 @llvm.nvvm.redux.sync.or(i32 %v, i32 %mask)
  ret i32 %r.or
xor:
  %r.xor = call i32 @llvm.nvvm.redux.sync.xor(i32 %v, i32 %mask)
  ret i32 %r.xor
min:
  %r.min = call i32 @llvm.nvvm.redux.sync.min(i32 %v, i32 %mask)
  ret i32 %r.min
max:
  %r.max = call i32 @llvm.nvvm.redux.sync.max(i32 %v, i32 %mask)
  ret i32 %r.max
}

define internal i32 @__cass_match(i32 %kind, i64 %v) #2 {
entry:
  %mask = call i32 asm sideeffect "activemask.b32 $0;", "=r"() #1
  %isany = icmp eq i32 %kind, 0
  br i1 %isany, label %any, label %all
any:
  %ra = call i32 @llvm.nvvm.match.any.sync.i64(i32 %mask, i64 %v)
  ret i32 %ra
all:
  %s = call {i32, i1} @llvm.nvvm.match.all.sync.i64p(i32 %mask, i64 %v)
  %m = extractvalue {i32, i1} %s, 0
  ret i32 %m
}

; BAR.RED: kind 0 the count of true predicates, 1 all true, 2 any true.
define internal i32 @__cass_barrier_red(i32 %kind, i1 zeroext %p) #2 {
entry:
  %pi = zext i1 %p to i32
  switch i32 %kind, label %or [ i32 0, label %popc
                                i32 1, label %and ]
popc:
  %c = call i32 @llvm.nvvm.barrier0.popc(i32 %pi)
  ret i32 %c
and:
  %a = call i32 @llvm.nvvm.barrier0.and(i32 %pi)
  ret i32 %a
or:
  %o = call i32 @llvm.nvvm.barrier0.or(i32 %pi)
  ret i32 %o
}

; PTX shfl.sync itself: (value, lane valid) packed as the runtime contract says.
define internal i64 @__cass_shfl(i32 %mode, i32 %v, i32 %b, i32 %c) #2 {
entry:
  %mask = call i32 asm sideeffect "activemask.b32 $0;", "=r"() #1
  switch i32 %mode, label %bfly [ i32 0, label %idx
                                  i32 1, label %up
                                  i32 2, label %down ]
idx:
  %si = call {i32, i1} @llvm.nvvm.shfl.sync.idx.i32p(i32 %mask, i32 %v, i32 %b, i32 %c)
  br label %done
up:
  %su = call {i32, i1} @llvm.nvvm.shfl.sync.up.i32p(i32 %mask, i32 %v, i32 %b, i32 %c)
  br label %done
down:
  %sd = call {i32, i1} @llvm.nvvm.shfl.sync.down.i32p(i32 %mask, i32 %v, i32 %b, i32 %c)
  br label %done
bfly:
  %sb = call {i32, i1} @llvm.nvvm.shfl.sync.bfly.i32p(i32 %mask, i32 %v, i32 %b, i32 %c)
  br label %done
done:
  %s = phi {i32, i1} [ %si, %idx ], [ %su, %up ], [ %sd, %down ], [ %sb, %bfly ]
  %r = extractvalue {i32, i1} %s, 0
  %p = extractvalue {i32, i1} %s, 1
  %r64 = zext i32 %r to i64
  %p64 = zext i1 %p to i64
  %ph = shl i64 %p64, 32
  %out = or i64 %r64, %ph
  ret i64 %out
}
