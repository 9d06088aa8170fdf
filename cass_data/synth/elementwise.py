"""Elementwise programs: a random expression tree applied to 1-3 input arrays.

The tree is written once as a `__host__ __device__` function, so kernel and CPU reference
evaluate the same formula. Floating-point trees also get a host-only twin that propagates
a first-order error bound E (in double) beside the value; the check is
|gpu - cpu| <= 16 eps E, which holds without fast math whatever the GPU contracts into FMAs
or how its libm rounds, yet catches any real miscompile. Integer trees compute in unsigned
arithmetic (wrapping, no undefined behaviour) and compare exactly.
"""
from __future__ import annotations

import random

from .common import MAIN_END, MAIN_START, ctype_literal, pick_block, prelude, report_bad

FLOAT_FN = {
    "float": {"min": "fminf", "max": "fmaxf", "sqrt": "sqrtf", "abs": "fabsf", "exp": "expf", "sin": "sinf"},
    "double": {"min": "fmin", "max": "fmax", "sqrt": "sqrt", "abs": "fabs", "exp": "exp", "sin": "sin"},
}
FLOAT_OPS = ("add", "sub", "mul", "div", "min", "max", "sqrt", "exp", "sin")
INT_OPS = ("add", "sub", "mul", "xor", "and", "or", "shr", "shl", "div", "mod", "min", "max")

# element type -> (storage type, compute type)
TYPES = {
    "float": ("float", "float"),
    "double": ("double", "double"),
    "half": ("__half", "float"),
    "int": ("int32_t", "uint32_t"),
    "int64": ("int64_t", "uint64_t"),
}


class Tree:
    """SSA statements for the value (`ops`) and, for floats, the error bound (`err`)."""

    def __init__(self, rng: random.Random, ctype: str, nin: int) -> None:
        self.rng, self.ctype, self.nin = rng, ctype, nin
        self.is_float = ctype in FLOAT_FN
        self.ops: list[str] = []
        self.err: list[str] = []
        self.count = 0

    def _new(self) -> str:
        self.count += 1
        return f"t{self.count}"

    def leaf(self) -> str:
        rng, t = self.rng, self._new()
        if rng.random() < 0.75:
            x = f"x{rng.randrange(self.nin)}"
            self.ops.append(f"{self.ctype} {t} = {x};")
            self.err.append(f"double v{t[1:]} = (double){x}, e{t[1:]} = 0.0;")
        elif self.is_float:
            c = rng.randint(-24, 24) / 8
            self.ops.append(f"{self.ctype} {t} = {ctype_literal(c, self.ctype)};")
            self.err.append(f"double v{t[1:]} = {c!r}, e{t[1:]} = 0.0;")
        else:
            c = rng.randint(0, 1 << 16)
            self.ops.append(f"{self.ctype} {t} = {c}u;")
        return t

    def build(self, depth: int) -> str:
        if depth == 0 or self.rng.random() < 0.2:
            return self.leaf()
        ops = FLOAT_OPS if self.is_float else INT_OPS
        op = self.rng.choice(ops)
        a = self.build(depth - 1)
        unary = op in ("sqrt", "exp", "sin")
        b = None if unary else self.build(depth - 1)
        t = self._new()
        if self.is_float:
            self.ops.append(f"{self.ctype} {t} = {self._float_expr(op, a, b)};")
            self.err.append(_float_err(op, t[1:], a[1:], b[1:] if b else ""))
        else:
            self.ops.append(f"{self.ctype} {t} = {_int_expr(op, a, b or '', self.ctype)};")
        return t

    def _float_expr(self, op: str, a: str, b: str | None) -> str:
        f = FLOAT_FN[self.ctype]
        one = ctype_literal(1.0, self.ctype)
        lim = ctype_literal(4.0, self.ctype)
        return {
            "add": f"{a} + {b}",
            "sub": f"{a} - {b}",
            "mul": f"{a} * {b}",
            "div": f"{a} / ({f['abs']}({b}) + {one})",
            "min": f"{f['min']}({a}, {b})",
            "max": f"{f['max']}({a}, {b})",
            "sqrt": f"{f['sqrt']}({f['abs']}({a}) + {one})",
            "exp": f"{f['exp']}({f['min']}({f['max']}({a}, -{lim}), {lim}))",
            "sin": f"{f['sin']}({a})",
        }[op]


def _float_err(op: str, t: str, a: str, b: str) -> str:
    """Value and error bound of one node, in double, from its operands' (v, e)."""
    va, ea, vb, eb = f"v{a}", f"e{a}", f"v{b}", f"e{b}"
    value, err = {
        "add": (f"{va} + {vb}", f"{ea} + {eb}"),
        "sub": (f"{va} - {vb}", f"{ea} + {eb}"),
        "mul": (f"{va} * {vb}", f"{ea} * fabs({vb}) + {eb} * fabs({va})"),
        "div": (f"{va} / (fabs({vb}) + 1.0)",
                f"{ea} / (fabs({vb}) + 1.0) + fabs({va}) * ({eb} + fabs({vb}) + 1.0) / ((fabs({vb}) + 1.0) * (fabs({vb}) + 1.0))"),
        "min": (f"fmin({va}, {vb})", f"fmax({ea}, {eb})"),
        "max": (f"fmax({va}, {vb})", f"fmax({ea}, {eb})"),
        "sqrt": (f"sqrt(fabs({va}) + 1.0)", f"({ea} + fabs({va}) + 1.0) / (2.0 * sqrt(fabs({va}) + 1.0))"),
        "exp": (f"exp(fmin(fmax({va}, -4.0), 4.0))", f"exp(fmin(fmax({va}, -4.0), 4.0)) * ({ea} + 4.0)"),
        "sin": (f"sin({va})", f"{ea} + 4.0 * fabs(sin({va}))"),
    }[op]
    return f"double v{t} = {value}; double e{t} = {err} + fabs(v{t});"


def _int_expr(op: str, a: str, b: str, ctype: str) -> str:
    bits = 31 if ctype == "uint32_t" else 63
    one = "1u" if ctype == "uint32_t" else "1ull"
    return {
        "add": f"{a} + {b}",
        "sub": f"{a} - {b}",
        "mul": f"{a} * {b}",
        "xor": f"{a} ^ {b}",
        "and": f"{a} & {b}",
        "or": f"{a} | {b}",
        "shr": f"{a} >> ({b} & {bits}u)",
        "shl": f"{a} << ({b} & 7u)",
        "div": f"{a} / ({b} | {one})",
        "mod": f"{a} % ({b} | {one})",
        "min": f"({a} < {b} ? {a} : {b})",
        "max": f"({a} > {b} ? {a} : {b})",
    }[op]


def generate(rng: random.Random) -> str:
    etype = rng.choice(("float", "float", "double", "half", "int", "int64"))
    store, ctype = TYPES[etype]
    nin = rng.randint(1, 3)
    tree = Tree(rng, ctype, nin)
    root = tree.build(rng.randint(2, 4))
    params = ", ".join(f"{ctype} x{k}" for k in range(nin))
    body = "\n".join("    " + s for s in tree.ops)
    half = etype == "half"

    def load(k: int, idx: str, prefix: str = "") -> str:
        if half:
            return f"__half2float({prefix}in{k}[{idx}])"
        return f"({ctype}){prefix}in{k}[{idx}]"

    def store_expr(v: str) -> str:
        if half:
            return f"__float2half(fminf(fmaxf({v}, -60000.0f), 60000.0f))"
        return f"({store}){v}"

    call = lambda idx: f"expr({', '.join(load(k, idx) for k in range(nin))})"  # noqa: E731
    ins = ", ".join(f"const {store}* __restrict__ in{k}" for k in range(nin))
    shape = rng.choice(("bounds", "gridstride", "grid2d"))
    block = pick_block(rng)
    if shape == "grid2d":
        bx = rng.choice([b for b in (8, 16, 32, 64, 128) if b <= block])
        by = block // bx
        rows, cols = rng.randint(3, 700), rng.randint(3, 900)
        n_expr = f"{rows} * {cols}"
        kernel = f"""__global__ void apply(int rows, int cols, {ins}, {store}* __restrict__ out) {{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < cols && y < rows) {{
        int i = y * cols + x;
        out[i] = {store_expr(call('i'))};
    }}
}}"""
        launch = f"""    dim3 block({bx}, {by});
    dim3 grid(({cols} + {bx} - 1) / {bx}, ({rows} + {by} - 1) / {by});
    apply<<<grid, block>>>({rows}, {cols}, {', '.join(f'd_in{k}' for k in range(nin))}, d_out);"""
    else:
        n_expr = str(rng.randint(1, 1 << rng.randint(8, 20)))
        if shape == "bounds":
            kernel = f"""__global__ void apply(int n, {ins}, {store}* __restrict__ out) {{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = {store_expr(call('i'))};
}}"""
            grid = f"(n + {block} - 1) / {block}"
        else:
            kernel = f"""__global__ void apply(int n, {ins}, {store}* __restrict__ out) {{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        out[i] = {store_expr(call('i'))};
}}"""
            grid = str(rng.choice((1, 3, 8, 40, 160)))
        launch = f"    apply<<<{grid}, {block}>>>(n, {', '.join(f'd_in{k}' for k in range(nin))}, d_out);"

    # Inputs: floats in [-2, 2) (or [-4, 4)), integers over a wide signed range.
    if etype in ("int", "int64"):
        gen = "(%s)(((int64_t)lcg_next() << 8) - 2000000000LL)" % store if etype == "int64" else "(int32_t)(lcg_next() * 255u - 2000000000u)"
    elif half:
        gen = "__float2half((float)lcg_real(-4.0, 4.0))"
    else:
        lim = rng.choice((2.0, 4.0))
        gen = f"({store})lcg_real({-lim}, {lim})"

    host_args = ", ".join(load(k, "i", "h_") for k in range(nin))
    if tree.is_float:
        err_params = ", ".join(f"double x{k}" for k in range(nin))
        err_body = "\n".join("    " + s for s in tree.err)
        err_fn = f"""
static double expr_err({err_params}) {{
{err_body}
    return e{root[1:]};
}}
"""
        eps = "1.1920929e-07" if ctype == "float" else "2.220446049250313e-16"
        tol = f"16.0 * {eps} * expr_err({host_args}) + 1e-30"
        if half:
            tol += " + fabs(want) * 1e-3 + 1e-7"
        want = f"(double){ctype}_of(expr({host_args}))"
        got = "(double)" + ("__half2float(h_out[i])" if half else "h_out[i]")
        compare = f"""            double want = {want};
            double got = {got};
            if (!close_enough(got, want, {tol})) {{
    {report_bad('i', 'got', 'want').strip()}
            }}"""
        conv = (f"static double {ctype}_of({ctype} v) {{ return (double)fminf(fmaxf(v, -60000.0f), 60000.0f); }}\n"
                if half else f"static double {ctype}_of({ctype} v) {{ return (double)v; }}\n")
        if half:
            compare = compare.replace(f"(double){ctype}_of(expr({host_args}))",
                                      f"(double)__half2float(__float2half((float){ctype}_of(expr({host_args}))))")
    else:
        err_fn = ""
        conv = ""
        compare = f"""            {store} want = ({store})expr({host_args});
            if (h_out[i] != want) {{
    {report_bad('i', 'h_out[i]', 'want').strip()}
            }}"""

    allocs = "\n".join(
        f"""    {store}* h_in{k} = ({store}*)malloc(n * sizeof({store}));
    for (int i = 0; i < n; ++i) h_in{k}[i] = {gen};
    {store}* d_in{k};
    CHECK(cudaMalloc(&d_in{k}, n * sizeof({store})));
    CHECK(cudaMemcpy(d_in{k}, h_in{k}, n * sizeof({store}), cudaMemcpyHostToDevice));"""
        for k in range(nin)
    )
    frees = " ".join(f"CHECK(cudaFree(d_in{k})); free(h_in{k});" for k in range(nin))
    includes = ("cuda_fp16.h",) if half else ()
    return f"""{prelude(rng, includes)}
// elementwise: {etype} ({ctype} arithmetic), {nin} input(s), {shape} launch, {tree.count} tree nodes
__host__ __device__ inline {ctype} expr({params}) {{
{body}
    return {root};
}}
{err_fn}{conv}
{kernel}
{MAIN_START}    const int n = {n_expr};
{allocs}
    {store}* d_out;
    CHECK(cudaMalloc(&d_out, n * sizeof({store})));
{launch}
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    {store}* h_out = ({store}*)malloc(n * sizeof({store}));
    CHECK(cudaMemcpy(h_out, d_out, n * sizeof({store}), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; ++i) {{
{compare}
    }}
    {frees} CHECK(cudaFree(d_out)); free(h_out);
{MAIN_END}"""
