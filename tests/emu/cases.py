"""The HIP test kernels (kernels.hip): launch shape, inputs, and a NumPy reference for each.

A case's `make(rng)` returns the argument list; `ref(args)` returns {argument index: expected
array} for the buffers to compare; `tol` is the relative tolerance for float outputs.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np


@dataclass
class Case:
    name: str
    grid: tuple
    block: tuple
    make: Callable
    ref: Callable
    tol: float = 0.0
    shared: int = 0


def f32(rng, n, lo=-4.0, hi=4.0):
    return rng.uniform(lo, hi, n).astype(np.float32)


def i32(rng, n, lo=-1000, hi=1000):
    return rng.integers(lo, hi, n).astype(np.int32)


def _int_ops(a):
    x, y = a[0].astype(np.int64), a[1].astype(np.int64)
    safe = np.where(y == 0, 1, y)
    q = np.where(y != 0, np.trunc(x / safe), 0).astype(np.int64)
    r = np.where(y != 0, x - q * safe, 0)
    sh = ((x << (y & 7)) ^ (x >> 3))
    out = np.stack([x * y, q, r, sh, np.minimum(x, y) - np.maximum(x, y), np.abs(x) & 0xFFFF], axis=1)
    return {2: (out.astype(np.int64) & 0xFFFFFFFF).astype(np.uint32).view(np.int32).reshape(-1)}


def _uint_ops(a):
    x = a[0].astype(np.uint64)
    pop = np.array([bin(int(v)).count("1") for v in x])
    clz = np.array([32 - int(v).bit_length() for v in x])
    ffs = np.array([(int(v) & -int(v)).bit_length() for v in x])
    brev = np.array([int(f"{int(v):032b}"[::-1], 2) for v in x])
    return {1: np.stack([pop, clz, ffs, brev], axis=1).astype(np.uint32).reshape(-1)}


def _float_math(a):
    x = a[0]
    out = np.stack([np.sqrt(np.abs(x)), np.floor(x) + np.ceil(x), np.maximum(x, 0.5) * np.minimum(x, -0.5),
                    x / np.float32(3), np.trunc(x * np.float32(100)).astype(np.float32)], axis=1)
    return {1: out.astype(np.float32).reshape(-1)}


def _convert(a):
    x = a[0]
    oi = np.trunc(x).astype(np.int32)
    ou = np.trunc(np.abs(x)).astype(np.uint32)
    return {1: oi, 2: ou, 3: (oi * 3).astype(np.float32) + ou.astype(np.float32)}


def _scan(a):
    x = a[0].reshape(-1, 32)
    return {1: np.cumsum(x, axis=1).astype(np.int32).reshape(-1)}


def _ballot(a):
    p = (a[0] > 0).reshape(-1, 32)
    return {1: (p.astype(np.uint64) << np.arange(32, dtype=np.uint64)).sum(axis=1).astype(np.uint32)}


def _vote(a):
    p = (a[0] > 0).reshape(-1, 32)
    anyv = np.repeat(p.any(axis=1), 32)
    allv = np.repeat(p.all(axis=1), 32)
    return {1: np.stack([anyv, allv], axis=1).astype(np.int32).reshape(-1)}


def _collatz(a):
    out = []
    for v in a[0]:
        x, s = int(v), 0
        while x != 1 and s < 1000:
            x = (3 * x + 1) & 0xFFFFFFFF if x & 1 else x // 2
            s += 1
        out.append(s)
    return {1: np.array(out, np.int32)}


def _switch(a):
    op, x = a[0] & 7, a[1]
    table = [x + 1, x * 2, -x, x * x, x - 7, x * np.float32(0.25)]
    r = np.zeros_like(x)
    for k, v in enumerate(table):
        r = np.where(op == k, v, r)
    return {2: r.astype(np.float32)}


def _private(a):
    x = a[0].astype(np.int64)
    return {1: ((x * (x & 31)) + (x * ((x >> 5) & 31))).astype(np.int32)}


def _matmul(a):
    A, B = a[0].reshape(64, 64), a[1].reshape(64, 64)
    return {2: (A.astype(np.float64) @ B).astype(np.float32).reshape(-1)}


def _stencil(a):
    x, out = a[0], a[1].copy()
    out[1:-1] = np.float32(0.25) * x[:-2] + np.float32(0.5) * x[1:-1] + np.float32(0.25) * x[2:]
    return {1: out}


def _struct(a):
    raw, x = a[0], a[1]
    scale, off, bias = np.frombuffer(raw[:4], np.float32)[0], np.frombuffer(raw[4:8], np.int32)[0], np.frombuffer(raw[8:16], np.float64)[0]
    return {2: (x.astype(np.float64) * scale + np.float64(off)).astype(np.float32).astype(np.float64) + bias}  # clang contracts to an fma


def _cas(a):
    return {0: np.array([256], np.int32), 1: None}


N = 1000
STRUCT = np.array([1.5], np.float32).tobytes() + np.array([-3], np.int32).tobytes() + np.array([0.125], np.float64).tobytes()

CASES = [
    Case("vadd", (4,), (256,), lambda r: [f32(r, N), f32(r, N), np.zeros(N, np.float32), N], lambda a: {2: a[0] + a[1]}),
    Case("saxpy", (8,), (128,), lambda r: [np.float32(2.5), f32(r, N), f32(r, N), N],
         lambda a: {2: (np.float64(a[0]) * a[1] + a[2]).astype(np.float32)}, 1e-6),
    Case("int_ops", (4,), (256,), lambda r: [i32(r, N), i32(r, N, -9, 9), np.zeros(6 * N, np.int32), N], _int_ops),
    Case("uint_ops", (4,), (256,), lambda r: [r.integers(0, 2**32, N, dtype=np.uint64).astype(np.uint32), np.zeros(4 * N, np.uint32), N], _uint_ops),
    Case("float_math", (4,), (256,), lambda r: [f32(r, N), np.zeros(5 * N, np.float32), N], _float_math, 1e-6),
    Case("transcend", (4,), (256,), lambda r: [f32(r, N, -3, 3), np.zeros(3 * N, np.float32), N],
         lambda a: {1: np.stack([np.exp(a[0]), np.log(np.abs(a[0]) + 1), np.sin(a[0])], axis=1).astype(np.float32).reshape(-1)}, 2e-4),
    Case("convert", (4,), (256,), lambda r: [f32(r, N, -1e4, 1e4), np.zeros(N, np.int32), np.zeros(N, np.uint32), np.zeros(N, np.float32), N], _convert),
    Case("block_sum", (16,), (256,), lambda r: [f32(r, 16 * 256), np.zeros(16, np.float32)],
         lambda a: {1: a[0].reshape(16, 256).astype(np.float64).sum(axis=1).astype(np.float32)}, 1e-4),
    Case("block_max_int", (8,), (128,), lambda r: [i32(r, 8 * 128, -10**6, 10**6), np.zeros(8, np.int32)],
         lambda a: {1: a[0].reshape(8, 128).max(axis=1)}),
    Case("shfl_xor_sum", (4,), (128,), lambda r: [i32(r, 512, -50, 50).astype(np.float32), np.zeros(512, np.float32)],
         lambda a: {1: np.repeat(a[0].reshape(-1, 32).sum(axis=1), 32).astype(np.float32)}),
    Case("shfl_down_scan", (2,), (128,), lambda r: [i32(r, 256), np.zeros(256, np.int32)], _scan),
    Case("shfl_idx", (2,), (64,), lambda r: [i32(r, 128), r.integers(0, 32, 128).astype(np.int32), np.zeros(128, np.int32)],
         lambda a: {2: a[0].reshape(-1, 32)[np.arange(4)[:, None], a[1].reshape(-1, 32)].reshape(-1)}),
    Case("ballot_count", (2,), (128,), lambda r: [i32(r, 256, -3, 3), np.zeros(8, np.uint32)], _ballot),
    Case("vote_any_all", (2,), (128,), lambda r: [np.concatenate([np.ones(64, np.int32), np.zeros(32, np.int32), i32(r, 160, -1, 2)]), np.zeros(512, np.int32)], _vote),
    Case("atomic_add_int", (4,), (256,), lambda r: [i32(r, N), np.zeros(1, np.int32), N], lambda a: {1: np.array([a[0].sum()], np.int32)}),
    Case("atomic_add_float", (4,), (256,), lambda r: [i32(r, N, -20, 20).astype(np.float32), np.zeros(1, np.float32), N],
         lambda a: {1: np.array([a[0].sum()], np.float32)}),
    Case("atomic_max_ret", (2,), (64,), lambda r: [i32(r, 128), np.full(1, -10**9, np.int32), np.zeros(128, np.int32)],
         lambda a: {1: np.array([a[0].max()], np.int32)}),
    Case("lds_histogram", (4,), (256,), lambda r: [i32(r, N, 0, 10**6), np.zeros(16, np.int32), N],
         lambda a: {1: np.bincount(a[0] & 15, minlength=16).astype(np.int32)}),
    Case("loop_collatz", (2,), (128,), lambda r: [i32(r, 200, 1, 5000), np.zeros(200, np.int32), 200], _collatz),
    Case("switch_op", (4,), (256,), lambda r: [i32(r, N, 0, 100), f32(r, N), np.zeros(N, np.float32), N], _switch),
    Case("daxpy", (4,), (256,), lambda r: [0.75, r.uniform(-1, 1, N), r.uniform(-1, 1, N), N], lambda a: {2: a[0] * a[1] + a[2]}, 1e-15),
    Case("dmath", (4,), (256,), lambda r: [r.uniform(-100, 100, N), np.zeros(3 * N), N],
         lambda a: {1: np.stack([np.sqrt(np.abs(a[0])), a[0] / 7.0, np.floor(a[0]) * 2.5], axis=1).reshape(-1)}, 1e-15),
    Case("int64_ops", (4,), (256,), lambda r: [r.integers(-2**40, 2**40, N), r.integers(-2**20, 2**20, N), np.zeros(4 * N, np.int64), N],
         lambda a: {2: np.stack([a[0] * a[1], a[0] + (a[1] << 13), a[0] >> 7, (a[0].view(np.uint64) >> np.uint64(9)).view(np.int64)], axis=1).reshape(-1)}),
    Case("int64_div", (1,), (128,), lambda r: [r.integers(-2**50, 2**50, 100), r.integers(-2**20, 2**20, 100), np.zeros(100, np.int64), 100],
         lambda a: {2: np.where(a[1] != 0, np.abs(a[0]) // np.abs(np.where(a[1] == 0, 1, a[1])) * np.sign(a[0]) * np.sign(a[1]), 0)}),
    Case("half_ops", (4,), (256,), lambda r: [f32(r, N, -2, 2).astype(np.float16), f32(r, N, -2, 2).astype(np.float16), np.zeros(N, np.float16), N],
         lambda a: {2: (a[0] * a[1] + a[0]).astype(np.float16)}, 2e-3),
    Case("half_to_float", (4,), (256,), lambda r: [f32(r, N).astype(np.float16), np.zeros(N, np.float32), N],
         lambda a: {1: a[0].astype(np.float32) * 3}),
    Case("dyn_lds_reverse", (3,), (96,), lambda r: [i32(r, 288), np.zeros(288, np.int32)],
         lambda a: {1: a[0].reshape(3, 96)[:, ::-1].reshape(-1)}, 0.0, 96 * 4),
    Case("struct_arg", (4,), (256,), lambda r: [STRUCT, f32(r, N), np.zeros(N), N], _struct),
    Case("launch2d", (3, 5), (16, 8), lambda r: [np.zeros(40 * 37, np.float32), 40, 37],
         lambda a: {0: (np.arange(40)[None, :] * 1000.0 + np.arange(37)[:, None]).astype(np.float32).reshape(-1)}),
    Case("launch3d", (2, 3, 2), (4, 4, 4), lambda r: [np.zeros(7 * 10 * 6, np.int32), 7, 10, 6],
         lambda a: {0: (np.arange(7)[None, None, :] + 100 * np.arange(10)[None, :, None] + 10000 * np.arange(6)[:, None, None]).astype(np.int32).reshape(-1)}),
    Case("ids", (3,), (64,), lambda r: [np.zeros(4 * 192, np.int32)],
         lambda a: {0: np.stack([np.tile(np.arange(64), 3), np.repeat(np.arange(3), 64), np.full(192, 64), np.full(192, 3)], axis=1).astype(np.int32).reshape(-1)}),
    Case("matmul_tiled", (4, 4), (16, 16), lambda r: [f32(r, 4096, -1, 1), f32(r, 4096, -1, 1), np.zeros(4096, np.float32), 64], _matmul, 1e-4),
    Case("stencil1d", (4,), (256,), lambda r: [f32(r, N), np.zeros(N, np.float32), N], _stencil, 1e-6),
    Case("select_minmax", (4,), (256,), lambda r: [f32(r, N), f32(r, N), np.zeros(N, np.float32), N],
         lambda a: {2: np.where(a[0] > a[1], a[0] - a[1], np.where(a[0] < -a[1], a[1], a[0] * a[1])).astype(np.float32)}),
    Case("private_array", (2,), (64,), lambda r: [i32(r, 100, 0, 1000), np.zeros(100, np.int32), 100], _private),
    Case("byte_ops", (4,), (256,), lambda r: [r.integers(0, 256, N).astype(np.uint8), np.zeros(N, np.uint16), N],
         lambda a: {1: (a[0].astype(np.int64) * 3 + (np.roll(a[0], -1) >> 1)).astype(np.uint16)}),
    Case("warp_reduce_max", (2,), (128,), lambda r: [f32(r, 256), np.zeros(8, np.float32)],
         lambda a: {1: a[0].reshape(-1, 32).max(axis=1)}),
]

CASES.append(Case("atomic_cas_count", (2,), (64,), lambda r: [np.zeros(1, np.int32), np.zeros(128, np.int32)],
                  lambda a: {0: np.array([128], np.int32), 1: "permutation"}))


def _device_calls(a):
    x, n = a[0].astype(np.int64), a[3]
    out = np.array([sum(int(x[(k * 7 + i) % n]) * (k + 1) for k in range(24)) for i in range(n)], np.int32)
    f = a[0].astype(np.float32)
    for i in range(n):
        v = np.float32(f[i])
        for _ in range(i % 5):
            v = np.float32(v * np.float32(0.5))
        f[i] = np.float32(v + np.float32(i % 5))  # each level adds 1.0 after the halvings (exact here)
    return {1: out, 2: f}


CASES.append(Case("device_calls", (3,), (128,), lambda r: [i32(r, 300, -50, 50), np.zeros(300, np.int32), np.zeros(300, np.float32), 300],
                  _device_calls))
