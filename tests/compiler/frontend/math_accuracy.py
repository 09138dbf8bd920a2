#!/usr/bin/env python3
"""Math accuracy of Warpforge's CUDA math library (compiler/cuda/include/__wf_math.h).

Compiles math_kernel.cu with `warpforge compile` (clang front end), runs it on the emulator over a
spread of inputs and compares each result with Python's math module (double reference; for the
double functions the reference itself has up to ~1 ulp of error, so bounds get +1 ulp of slack).
Bounds: CUDA C Programming Guide, appendix Mathematical Functions.
usage: math_accuracy.py WARPFORGE [--n N] [--report]"""
import math, os, struct, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
FLOAT = [  # name, reference, max ulp, domain (lo, hi)
    ("expf", math.exp, 2, (-87, 88)), ("exp2f", lambda x: 2.0 ** x, 2, (-125, 127)),
    ("exp10f", lambda x: 10.0 ** x, 2, (-37, 38)), ("logf", math.log, 1, (1e-30, 1e30)),
    ("log2f", math.log2, 1, (1e-30, 1e30)), ("log10f", math.log10, 2, (1e-30, 1e30)),
    ("sinf", math.sin, 2, (-100, 100)), ("cosf", math.cos, 2, (-100, 100)), ("tanf", math.tan, 4, (-100, 100)),
    ("atanf", math.atan, 2, (-50, 50)), ("asinf", math.asin, 4, (-1, 1)), ("acosf", math.acos, 3, (-1, 1)),
    ("sinhf", math.sinh, 3, (-80, 80)), ("coshf", math.cosh, 2, (-80, 80)), ("tanhf", math.tanh, 2, (-20, 20)),
    ("erff", math.erf, 2, (-5, 5)), ("cbrtf", lambda x: math.copysign(abs(x) ** (1 / 3), x), 1, (-1e6, 1e6)),
    ("sqrtf", math.sqrt, 0, (0, 1e30)), ("rsqrtf", lambda x: 1 / math.sqrt(x), 2, (1e-30, 1e30)),
    ("expm1f", math.expm1, 1, (-20, 20)), ("log1pf", math.log1p, 1, (-0.9, 1e6)),
    ("powf(x,1.7)", lambda x: x ** f32(1.7), 8, (0, 1e10)),  # the kernel passes 1.7f
    ("atan2f(x,.75)", lambda x: math.atan2(x, 0.75), 3, (-1e3, 1e3)),
    ("hypotf(x,3)", lambda x: math.hypot(x, 3.0), 3, (-1e10, 1e10)),
]
DOUBLE = [
    ("exp", math.exp, 1, (-700, 700)), ("exp2", lambda x: 2.0 ** x, 1, (-1000, 1000)),
    ("log", math.log, 1, (1e-300, 1e300)), ("log2", math.log2, 1, (1e-300, 1e300)),
    ("log10", math.log10, 1, (1e-300, 1e300)), ("sin", math.sin, 2, (-1000, 1000)),
    ("cos", math.cos, 2, (-1000, 1000)), ("tan", math.tan, 2, (-1000, 1000)), ("atan", math.atan, 2, (-50, 50)),
    ("asin", math.asin, 2, (-1, 1)), ("acos", math.acos, 2, (-1, 1)), ("sinh", math.sinh, 2, (-700, 700)),
    ("cosh", math.cosh, 1, (-700, 700)), ("tanh", math.tanh, 1, (-30, 30)), ("erf", math.erf, 2, (-6, 6)),
    ("cbrt", lambda x: math.copysign(abs(x) ** (1 / 3), x), 1, (-1e6, 1e6)), ("sqrt", math.sqrt, 0, (0, 1e300)),
    ("expm1", math.expm1, 1, (-30, 30)), ("log1p", math.log1p, 1, (-0.9, 1e6)),
    ("pow(x,1.7)", lambda x: x ** 1.7, 2, (0, 1e100)), ("atan2(x,.75)", lambda x: math.atan2(x, 0.75), 2, (-1e3, 1e3)),
    ("hypot(x,3)", lambda x: math.hypot(x, 3.0), 2, (-1e10, 1e10)),
]

def f32(v):
    return struct.unpack("f", struct.pack("f", v))[0]

def ulp(ref, single):
    if ref == 0 or math.isinf(ref):
        return 2.0 ** (-149 if single else -1074)
    e = math.frexp(abs(ref))[1]
    return 2.0 ** (max(e, -125 if single else -1021) - (24 if single else 53))

def inputs(lo, hi, n, single):
    xs = []
    for i in range(n):
        t = (i + 0.5) / n
        if lo > 0 and hi / lo > 1e3:  # log spread
            x = math.exp(math.log(lo) + t * (math.log(hi) - math.log(lo)))
        elif lo >= 0 and hi > 1e3:
            x = lo + (hi - lo) * t ** 4
        else:
            x = lo + (hi - lo) * t
        xs.append(f32(x) if single else x)
    return xs

def run(wf, module, kernel, single, table, n, work):
    fmt = "f" if single else "d"
    size = 4 if single else 8
    cols = len(table)
    ins = []
    for _, _, _, dom in table:
        ins.append(inputs(dom[0], dom[1], n, single))
    # one launch per function column keeps the kernel simple: column k reads its own inputs
    worst = []
    failures = []
    for k, (name, ref, bound, dom) in enumerate(table):
        xs = ins[k]
        inp = os.path.join(work, "in.bin")
        with open(inp, "wb") as fh:
            fh.write(struct.pack(f"{n}{fmt}", *xs))
        out = os.path.join(work, "out.bin")
        cmd = [wf, "emu", module, "-k", kernel, "-g", str((n + 127) // 128), "-b", "128",
               "--buffer", f"in=@{inp}", "--buffer", f"out={cols * n * size}",
               "-a", "ptr:out", "-a", "ptr:in", "-a", f"u32:{n}", "--dump", f"out={out}"]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        with open(out, "rb") as fh:
            data = struct.unpack(f"{cols * n}{fmt}", fh.read())
        got = data[k * n:(k + 1) * n]
        w, wx = 0.0, None
        for x, g in zip(xs, got):
            try:
                r = ref(x)
            except (OverflowError, ValueError):
                continue
            if single and abs(r) > 3.4028234663852886e38:
                continue
            if math.isnan(g) or math.isinf(g) and not math.isinf(r):
                e = float("inf")
            else:
                e = abs(g - r) / ulp(r, single)
            if e > w:
                w, wx = e, x
        slack = 0.5 if single else 1.0  # the reference's own rounding
        worst.append((name, w, bound, wx))
        if w > bound + slack:
            failures.append(name)
    return worst, failures

def main():
    wf = sys.argv[1]
    n = 512
    if "--n" in sys.argv:
        n = int(sys.argv[sys.argv.index("--n") + 1])
    with tempfile.TemporaryDirectory() as work:
        module = os.path.join(work, "math.wfx")
        subprocess.run([wf, "compile", os.path.join(HERE, "math_kernel.cu"), "-o", module], check=True)
        failures = []
        for kernel, single, table in (("mathf", True, FLOAT), ("mathd", False, DOUBLE)):
            worst, bad = run(wf, module, kernel, single, table, n, work)
            failures += bad
            for name, w, bound, wx in worst:
                print(f"{name:16s} max {w:8.3f} ulp (bound {bound}) at x={wx!r}")
    if failures:
        print("FAIL:", ", ".join(failures))
        return 1
    print("PASS")
    return 0

if __name__ == "__main__":
    sys.exit(main())
