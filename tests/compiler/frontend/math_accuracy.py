#!/usr/bin/env python3
"""Math accuracy of Warpforge's CUDA math library (compiler/cuda/include/__wf_math.h).

Compiles math_kernel.cu with `warpforge compile` (clang front end), runs it on the emulator over a
spread of inputs and compares each function with a reference. With mpmath installed the references
are exact (128-bit) and a result may be off by the guide's bound + 0.5 ulp (the bound is stated
against the correctly rounded result); without it Python's math module is the reference, which has up
to ~1 ulp of error itself in double, so bounds get +1 ulp of slack there, and the functions the math
module lacks or computes less accurately than that (gamma, erfc, Bessel, sinpi) are skipped.
Bounds: CUDA C Programming Guide, appendix Mathematical Functions (Tables 6 and 7); the Bessel functions
are checked away from their zeros for x < 8 and by the guide's absolute error from 8 on.
usage: math_accuracy.py WARPFORGE [--n N]"""
import math, os, struct, subprocess, sys, tempfile

try:
    import mpmath
    mpmath.mp.prec = 128
except ImportError:
    mpmath = None


class MathRefs:  # Python's math module (double precision)
    exp, log, log2, log10, sqrt, expm1, log1p = math.exp, math.log, math.log2, math.log10, math.sqrt, math.expm1, math.log1p
    sin, cos, tan, atan, asin, acos, atan2, hypot = math.sin, math.cos, math.tan, math.atan, math.asin, math.acos, math.atan2, math.hypot
    sinh, cosh, tanh, asinh, acosh, atanh, erf = math.sinh, math.cosh, math.tanh, math.asinh, math.acosh, math.atanh, math.erf
    exp2 = staticmethod(lambda x: 2.0 ** x)
    exp10 = staticmethod(lambda x: 10.0 ** x)
    pow = staticmethod(lambda x, y: x ** y)
    rsqrt = staticmethod(lambda x: 1 / math.sqrt(x))
    # not precise enough (math.cbrt is the C library's, off by up to 3 ulp) or missing
    cbrt = rcbrt = erfc = gamma = lgamma = sinpi = cospi = j0 = j1 = y0 = y1 = None


class MpRefs:  # mpmath, exact for our purpose
    if mpmath:
        exp, log, log10, sqrt, expm1, log1p = mpmath.exp, mpmath.ln, mpmath.log10, mpmath.sqrt, mpmath.expm1, mpmath.log1p
        sin, cos, tan, atan, asin, acos, atan2, hypot = mpmath.sin, mpmath.cos, mpmath.tan, mpmath.atan, mpmath.asin, mpmath.acos, mpmath.atan2, mpmath.hypot
        sinh, cosh, tanh, asinh, acosh, atanh = mpmath.sinh, mpmath.cosh, mpmath.tanh, mpmath.asinh, mpmath.acosh, mpmath.atanh
        erf, erfc, gamma, sinpi, cospi = mpmath.erf, mpmath.erfc, mpmath.gamma, mpmath.sinpi, mpmath.cospi
        cbrt = staticmethod(lambda x: mpmath.sign(x) * mpmath.cbrt(abs(x)))  # the real root
        log2 = staticmethod(lambda x: mpmath.log(x, 2))
        exp2 = staticmethod(lambda x: mpmath.power(2, x))
        exp10 = staticmethod(lambda x: mpmath.power(10, x))
        pow = staticmethod(lambda x, y: mpmath.power(x, y))
        rsqrt = staticmethod(lambda x: 1 / mpmath.sqrt(x))
        rcbrt = staticmethod(lambda x: mpmath.sign(x) / mpmath.cbrt(abs(x)))
        lgamma = staticmethod(lambda x: mpmath.log(abs(mpmath.gamma(x))))
        j0 = staticmethod(lambda x: mpmath.besselj(0, x))
        j1 = staticmethod(lambda x: mpmath.besselj(1, x))
        y0 = staticmethod(lambda x: mpmath.bessely(0, x))
        y1 = staticmethod(lambda x: mpmath.bessely(1, x))


def f32(v):
    return struct.unpack("f", struct.pack("f", v))[0]


def fn(name):  # the reference of a one-argument function of the same name
    return lambda R, x: getattr(R, name)(x) if getattr(R, name) else None


def row(name, bound, lo, hi, ref=None, abs_tol=0.0):  # one column of the kernel, in its order
    return (name, ref or fn(name.rstrip("f") if name not in ("erf", "erfc") else name), bound, (lo, hi), abs_tol)


FLOAT = [
    row("expf", 2, -87, 88, fn("exp")), row("exp2f", 2, -125, 127, fn("exp2")), row("exp10f", 2, -37, 38, fn("exp10")),
    row("logf", 1, 1e-30, 1e30, fn("log")), row("log2f", 1, 1e-30, 1e30, fn("log2")), row("log10f", 2, 1e-30, 1e30, fn("log10")),
    row("sinf", 2, -100, 100, fn("sin")), row("cosf", 2, -100, 100, fn("cos")), row("tanf", 4, -100, 100, fn("tan")),
    row("atanf", 2, -50, 50, fn("atan")), row("asinf", 4, -1, 1, fn("asin")), row("acosf", 3, -1, 1, fn("acos")),
    row("sinhf", 3, -80, 80, fn("sinh")), row("coshf", 2, -80, 80, fn("cosh")), row("tanhf", 2, -20, 20, fn("tanh")),
    row("erff", 2, -5, 5, fn("erf")), row("cbrtf", 1, -1e6, 1e6, fn("cbrt")), row("sqrtf", 0, 0, 1e30, fn("sqrt")),
    row("rsqrtf", 2, 1e-30, 1e30, fn("rsqrt")), row("expm1f", 1, -20, 20, fn("expm1")), row("log1pf", 1, -0.9, 1e6, fn("log1p")),
    row("asinhf", 3, -100, 100, fn("asinh")), row("acoshf", 4, 1, 1e6, fn("acosh")), row("atanhf", 3, -0.9999, 0.9999, fn("atanh")),
    row("rcbrtf", 1, 1e-30, 1e30, fn("rcbrt")), row("erfcf", 4, -5, 10, fn("erfc")), row("tgammaf", 11, -20.9, 35, fn("gamma")),
    row("lgammaf", 6, 0.01, 1000, fn("lgamma")), row("sinpif", 2, -8, 8, fn("sinpi")), row("cospif", 2, -8, 8, fn("cospi")),
    row("j0f", 9, 0.1, 2.0, fn("j0")), row("j1f", 9, 0.1, 3.5, fn("j1")), row("y0f", 9, 1.2, 3.5, fn("y0")),
    row("y1f", 9, 2.5, 5.0, fn("y1")), row("j0f(x>=8)", 0, 8, 1000, fn("j0"), 2.2e-6), row("j1f(x>=8)", 0, 8, 1000, fn("j1"), 2.2e-6),
    row("y0f(x>=8)", 0, 8, 1000, fn("y0"), 2.2e-6), row("y1f(x>=8)", 0, 8, 1000, fn("y1"), 2.2e-6),
    row("powf(x,1.7)", 8, 0, 1e10, lambda R, x: R.pow(x, f32(1.7))),  # the kernel passes 1.7f
    row("atan2f(x,.75)", 3, -1e3, 1e3, lambda R, x: R.atan2(x, 0.75)),
    row("hypotf(x,3)", 3, -1e10, 1e10, lambda R, x: R.hypot(x, 3.0)),
]
DOUBLE = [
    row("exp", 1, -700, 700), row("exp2", 1, -1000, 1000), row("log", 1, 1e-300, 1e300), row("log2", 1, 1e-300, 1e300),
    row("log10", 1, 1e-300, 1e300), row("sin", 1, -1000, 1000), row("cos", 1, -1000, 1000), row("tan", 2, -1000, 1000),
    row("atan", 2, -50, 50), row("asin", 2, -1, 1), row("acos", 1, -1, 1), row("sinh", 1, -700, 700),
    row("cosh", 1, -700, 700), row("tanh", 1, -30, 30), row("erf", 2, -6, 6), row("cbrt", 1, -1e6, 1e6),
    row("sqrt", 0, 0, 1e300), row("expm1", 1, -30, 30), row("log1p", 1, -0.9, 1e6),
    row("exp10", 1, -307, 308), row("asinh", 2, -50, 50), row("acosh", 2, 1, 1e6), row("atanh", 2, -0.9999, 0.9999),
    row("rsqrt", 1, 1e-300, 1e300), row("rcbrt", 1, 1e-300, 1e300), row("erfc", 4, -5, 26), row("tgamma", 8, -20.9, 170, fn("gamma")),
    row("lgamma", 4, 0.01, 1000), row("sinpi", 1, -8, 8), row("cospi", 1, -8, 8),
    row("j0", 7, 0.1, 2.0), row("j1", 7, 0.1, 3.5), row("y0", 7, 1.2, 3.5), row("y1", 7, 2.5, 5.0),
    row("j0(x>=8)", 0, 8, 1000, fn("j0"), 5e-12), row("j1(x>=8)", 0, 8, 1000, fn("j1"), 5e-12),
    row("y0(x>=8)", 0, 8, 1000, fn("y0"), 5e-12), row("y1(x>=8)", 0, 8, 1000, fn("y1"), 5e-12),
    row("pow(x,1.7)", 2, 0, 1e100, lambda R, x: R.pow(x, 1.7)),
    row("atan2(x,.75)", 2, -1e3, 1e3, lambda R, x: R.atan2(x, 0.75)),
    row("hypot(x,3)", 2, -1e10, 1e10, lambda R, x: R.hypot(x, 3.0)),
    row("pow(3.3,x)", 2, -600, 600, lambda R, x: R.pow(3.3, x)),
    row("pow(x,-14.3)", 2, 1e-20, 1e20, lambda R, x: R.pow(x, -14.3)),
]


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


def reference(ref, x):
    """(value, exact): the mpmath value when mpmath has the function, else Python's; None if neither."""
    if mpmath:
        try:
            r = ref(MpRefs, mpmath.mpf(x))
            if r is not None:
                return r, True
        except (ValueError, ZeroDivisionError):
            return None, True
    try:
        return ref(MathRefs, x), False
    except (OverflowError, ValueError, ZeroDivisionError):
        return None, False


def run(wf, module, kernel, single, table, n, work):
    fmt = "f" if single else "d"
    size = 4 if single else 8
    worst, failures = [], []
    for k, (name, ref, bound, dom, abs_tol) in enumerate(table):
        xs = inputs(dom[0], dom[1], n, single)
        inp = os.path.join(work, "in.bin")
        with open(inp, "wb") as fh:
            fh.write(struct.pack(f"{n}{fmt}", *xs))
        out = os.path.join(work, "out.bin")
        cmd = [wf, "emu", module, "-k", kernel, "-g", str((n + 127) // 128), "-b", "128",
               "--buffer", f"in=@{inp}", "--buffer", f"out={n * size}",
               "-a", "ptr:out", "-a", "ptr:in", "-a", f"u32:{n}", "-a", f"u32:{k}", "--dump", f"out={out}"]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        with open(out, "rb") as fh:
            got = struct.unpack(f"{n}{fmt}", fh.read())
        w, wx, checked, exact_ref = 0.0, None, 0, False
        for x, g in zip(xs, got):
            r, exact_ref = reference(ref, x)
            if r is None:
                continue
            rf = float(r)
            if math.isinf(rf) or (single and abs(rf) > 3.4028234663852886e38):
                continue
            checked += 1
            if math.isnan(g) or math.isinf(g):
                e = float("inf")
            elif abs_tol:
                e = float(abs(g - r))
            else:
                e = float(abs(g - r)) / ulp(rf, single)
            if e > w:
                w, wx = e, x
        if not checked:
            worst.append((name, None, bound, abs_tol, None))
            continue
        # the guide bounds the distance from the correctly rounded result: + 0.5 ulp against an
        # exact reference; Python's own rounding adds up to 0.5 (float) or 1 (double) ulp more
        slack = (0.5 + 1e-3) if exact_ref else (0.5 if single else 1.0)
        worst.append((name, w, bound, abs_tol, wx))
        if w > (abs_tol if abs_tol else bound + slack):
            failures.append(name)
    return worst, failures


def main():
    wf = sys.argv[1]
    n = 512
    if "--n" in sys.argv:
        n = int(sys.argv[sys.argv.index("--n") + 1])
    print("references:", "mpmath (exact)" if mpmath else "Python's math module (mpmath not installed)")
    with tempfile.TemporaryDirectory() as work:
        module = os.path.join(work, "math.wfx")
        subprocess.run([wf, "compile", os.path.join(HERE, "math_kernel.cu"), "-o", module], check=True)
        failures = []
        for kernel, single, table in (("mathf", True, FLOAT), ("mathd", False, DOUBLE)):
            worst, bad = run(wf, module, kernel, single, table, n, work)
            failures += bad
            for name, w, bound, abs_tol, wx in worst:
                if w is None:
                    print(f"{name:16s} skipped (needs mpmath)")
                elif abs_tol:
                    print(f"{name:16s} max {w:8.2e} abs (bound {abs_tol:g}) at x={wx!r}")
                else:
                    print(f"{name:16s} max {w:8.3f} ulp (bound {bound}) at x={wx!r}")
    if failures:
        print("FAIL:", ", ".join(failures))
        return 1
    print("PASS")
    return 0


HERE = os.path.dirname(os.path.abspath(__file__))
if __name__ == "__main__":
    sys.exit(main())
