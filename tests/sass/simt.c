/* A small SIMT runtime for running lifted kernels on the CPU.
 *
 * Each thread of a block is a ucontext fiber that runs the kernel body until it
 * needs the others: a barrier, or a warp-wide operation (shuffle, ballot). The scheduler
 * runs every runnable fiber until it blocks, then settles one warp's pending warp
 * operation among the lanes that reached it (lanes that exited or wait at a barrier are
 * not taking part, as on a diverged warp), and only when no warp operation is pending,
 * releases the barrier. Warps are 32 consecutive threads in x-fastest order, as in CUDA.
 *
 * The lifted IR calls the __cass_* functions below; blocks run one after another.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

typedef void (*kernel_fn)(void *params, void *shared);

enum { RUN, BARRIER, WARP, DONE };
enum { OP_SHFL, OP_BALLOT, OP_REDUX, OP_MATCH };

typedef struct {
    ucontext_t ctx;
    int state, op;
    uint32_t mode, a, b, c;
    uint64_t result;
} fiber;

#define STACK_SIZE (256 * 1024)

static fiber *fibers;
static char *stacks;
static int nthreads, cur;
static unsigned bdim[3], gdim[3], bidx[3];
static ucontext_t sched;
static kernel_fn kfn;
static void *kparams, *kshared;
static uint64_t clock_ticks;

static void fiber_main(void) {
    kfn(kparams, kshared);
    fibers[cur].state = DONE; /* returning resumes `sched` through uc_link */
}

static void yield_to_scheduler(void) { swapcontext(&fibers[cur].ctx, &sched); }

unsigned __cass_tid(unsigned d) {
    unsigned t = (unsigned)cur;
    if (d == 0) return t % bdim[0];
    if (d == 1) return (t / bdim[0]) % bdim[1];
    return t / (bdim[0] * bdim[1]);
}
unsigned __cass_ctaid(unsigned d) { return bidx[d]; }
unsigned __cass_ntid(unsigned d) { return bdim[d]; }
unsigned __cass_nctaid(unsigned d) { return gdim[d]; }
unsigned __cass_laneid(void) { return (unsigned)cur % 32; }
uint64_t __cass_clock(void) { return clock_ticks += 16; }
float __cass_tanhf(float x) { return tanhf(x); }

void __cass_barrier(void) {
    fibers[cur].state = BARRIER;
    fibers[cur].op = -1;
    yield_to_scheduler();
}

/* BAR.RED: kind 0 count of true predicates in the block, 1 all true, 2 any true. */
uint32_t __cass_barrier_red(uint32_t kind, _Bool p) {
    fiber *f = &fibers[cur];
    f->state = BARRIER;
    f->op = (int)kind;
    f->a = p;
    yield_to_scheduler();
    return (uint32_t)f->result;
}

uint64_t __cass_shfl(uint32_t mode, uint32_t v, uint32_t b, uint32_t c) {
    fiber *f = &fibers[cur];
    f->state = WARP;
    f->op = OP_SHFL;
    f->mode = mode;
    f->a = v;
    f->b = b;
    f->c = c;
    yield_to_scheduler();
    return f->result;
}

uint32_t __cass_ballot(_Bool p) {
    fiber *f = &fibers[cur];
    f->state = WARP;
    f->op = OP_BALLOT;
    f->a = p;
    yield_to_scheduler();
    return (uint32_t)f->result;
}

/* REDUX: kind 0 sum, 1 umin, 2 umax, 3 and, 4 or, 5 xor, 9 smin, 10 smax, over the active
   lanes in `group` (the lanes of a WARPSYNC.EXCLUSIVE group; all lanes otherwise). */
uint32_t __cass_redux(uint32_t kind, uint32_t v, uint32_t group) {
    fiber *f = &fibers[cur];
    f->state = WARP;
    f->op = OP_REDUX;
    f->mode = kind;
    f->a = v;
    f->b = group;
    yield_to_scheduler();
    return (uint32_t)f->result;
}

/* MATCH: kind 0 any (lanes with an equal value), 1 all (the active mask when all are equal, else 0). */
uint32_t __cass_match(uint32_t kind, uint64_t v) {
    fiber *f = &fibers[cur];
    f->state = WARP;
    f->op = OP_MATCH;
    f->mode = kind;
    f->a = (uint32_t)v;
    f->b = (uint32_t)(v >> 32);
    yield_to_scheduler();
    return (uint32_t)f->result;
}

static uint32_t match_one(int warp, const fiber *f) {
    uint32_t same = 0, active = 0;
    for (int l = 0; l < 32 && warp * 32 + l < nthreads; l++) {
        const fiber *g = &fibers[warp * 32 + l];
        if (g->state != WARP) continue;
        active |= 1u << l;
        if (g->a == f->a && g->b == f->b) same |= 1u << l;
    }
    if (f->mode == 0) return same;
    return same == active ? active : 0;
}

static uint32_t redux_step(uint32_t kind, uint32_t acc, uint32_t x) {
    switch (kind) {
    case 0: return acc + x;
    case 1: return acc < x ? acc : x;
    case 2: return acc > x ? acc : x;
    case 3: return acc & x;
    case 4: return acc | x;
    case 5: return acc ^ x;
    case 9: return (int32_t)acc < (int32_t)x ? acc : x;
    default: return (int32_t)acc > (int32_t)x ? acc : x;
    }
}

static uint32_t redux_one(int warp, const fiber *f) {
    uint32_t acc = 0;
    int have = 0;
    for (int l = 0; l < 32 && warp * 32 + l < nthreads; l++) {
        const fiber *g = &fibers[warp * 32 + l];
        if (g->state != WARP || !((f->b >> l) & 1u)) continue;
        acc = have ? redux_step(f->mode, acc, g->a) : g->a;
        have = 1;
    }
    return acc;
}

/* PTX shfl.sync: source lane j and whether it is in range; out of range reads itself. */
static uint64_t shfl_one(int warp, int lane, const fiber *f) {
    int bval = f->b & 31, cval = f->c & 31, seg = (f->c >> 8) & 31;
    int max_lane = (lane & seg) | (cval & ~seg), min_lane = lane & seg, j, ok;
    switch (f->mode) {
    case 0: j = min_lane | (bval & ~seg); ok = j <= max_lane; break;
    case 1: j = lane - bval; ok = j >= max_lane; break;
    case 2: j = lane + bval; ok = j <= max_lane; break;
    default: j = lane ^ bval; ok = j <= max_lane; break;
    }
    if (!ok) j = lane;
    int src = warp * 32 + j;
    uint32_t val = src < nthreads ? fibers[src].a : f->a;
    return (uint64_t)val | ((uint64_t)(ok != 0) << 32);
}

static int settle_warps(void) {
    int settled = 0;
    for (int w = 0; w * 32 < nthreads; w++) {
        int first = -1;
        uint32_t ballot = 0;
        for (int l = 0; l < 32 && w * 32 + l < nthreads; l++) {
            fiber *f = &fibers[w * 32 + l];
            if (f->state != WARP) continue;
            if (first < 0) first = f->op;
            if (f->op != first) {
                fprintf(stderr, "simt: warp %d mixes warp operations\n", w);
                abort();
            }
            if (f->op == OP_BALLOT && f->a) ballot |= 1u << l;
        }
        if (first < 0) continue;
        for (int l = 0; l < 32 && w * 32 + l < nthreads; l++) {
            fiber *f = &fibers[w * 32 + l];
            if (f->state != WARP) continue;
            f->result = f->op == OP_BALLOT ? ballot : f->op == OP_REDUX ? redux_one(w, f) : f->op == OP_MATCH ? match_one(w, f) : shfl_one(w, l, f);
        }
        for (int l = 0; l < 32 && w * 32 + l < nthreads; l++) {
            fiber *f = &fibers[w * 32 + l];
            if (f->state == WARP) f->state = RUN;
        }
        settled = 1;
    }
    return settled;
}

static int run_block(void) {
    for (int t = 0; t < nthreads; t++) {
        fiber *f = &fibers[t];
        memset(f, 0, sizeof *f);
        getcontext(&f->ctx);
        f->ctx.uc_stack.ss_sp = stacks + (size_t)t * STACK_SIZE;
        f->ctx.uc_stack.ss_size = STACK_SIZE;
        f->ctx.uc_link = &sched;
        makecontext(&f->ctx, fiber_main, 0);
        f->state = RUN;
    }
    for (;;) {
        int alive = 0;
        for (int t = 0; t < nthreads; t++) {
            if (fibers[t].state == RUN) {
                cur = t;
                swapcontext(&sched, &fibers[t].ctx);
            }
        }
        for (int t = 0; t < nthreads; t++) alive += fibers[t].state != DONE;
        if (!alive) return 0;
        if (settle_warps()) continue;
        int released = 0, waiting = 0, count = 0;
        for (int t = 0; t < nthreads; t++) {
            if (fibers[t].state == BARRIER) {
                waiting++;
                count += fibers[t].a != 0;
            }
        }
        for (int t = 0; t < nthreads; t++) {
            if (fibers[t].state == BARRIER) {
                fiber *f = &fibers[t];
                f->result = f->op == 0 ? (uint64_t)count : f->op == 1 ? count == waiting : count != 0;
                fibers[t].state = RUN;
                released = 1;
            }
        }
        if (!released) {
            fprintf(stderr, "simt: deadlock\n");
            return 1;
        }
    }
}

/* Run `fn` over the grid. `shared_bytes` is the block's whole shared window. */
int cass_launch(kernel_fn fn, const unsigned *grid, const unsigned *block, void *params, unsigned shared_bytes) {
    nthreads = (int)(block[0] * block[1] * block[2]);
    if (nthreads <= 0 || nthreads > 1024) return 2;
    memcpy(bdim, block, sizeof bdim);
    memcpy(gdim, grid, sizeof gdim);
    fibers = calloc((size_t)nthreads, sizeof *fibers);
    stacks = malloc((size_t)nthreads * STACK_SIZE);
    kshared = calloc(1, shared_bytes ? shared_bytes : 16);
    if (!fibers || !stacks || !kshared) return 3;
    kfn = fn;
    kparams = params;
    int rc = 0;
    for (unsigned z = 0; z < grid[2] && !rc; z++)
        for (unsigned y = 0; y < grid[1] && !rc; y++)
            for (unsigned x = 0; x < grid[0] && !rc; x++) {
                bidx[0] = x;
                bidx[1] = y;
                bidx[2] = z;
                memset(kshared, 0xA5, shared_bytes ? shared_bytes : 16); /* no zeroed memory to lean on */
                rc = run_block();
            }
    free(fibers);
    free(stacks);
    free(kshared);
    return rc;
}
