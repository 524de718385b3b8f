#!/usr/bin/env python3
"""mpgpu's Python benchmark (issue 35 section 5): one table of

  1. call overhead: a small operation from Python on the CPU context, against Python ints
     (and gmpy2 when importable);
  2. huge integers from Python on the chosen context: products, divisions and conversions
     (int -> Integer -> int, against int.to_bytes / int.from_bytes), against Python ints and
     gmpy2; and conversions alone at larger sizes (--convert-log-bits, e.g. 30);
  3. batches from NumPy: powm and products of many instances, against a Python loop (pow)
     and a gmpy2 loop (powmod) on one core; on a CUDA context with CuPy installed, also
     batches from CuPy arrays (their import, zero-copy in the batch's layout, and powm with
     the imports included, against the same loops).

It prints and records; it never fails on speed. Each result is checked against the
reference (Python ints), and a mismatch makes it exit 1.

    PYTHONPATH=<build>/python python3 python/bench/bench.py              # context "auto"
    python3 python/bench/bench.py --context cpu --quick                  # a short run
    python3 python/bench/bench.py --max-log-bits 26 --csv bench/results/python-<date>.csv
    python3 python/bench/bench.py --context cpu --quick --convert-log-bits 28,30   # + 2^30-bit conversions
    python3 python/bench/bench.py --context cuda:0 --sections convert --convert-log-bits 24,28,30  # those alone

Times are the best of several runs (each at least --min-time seconds of repetitions);
on a CUDA context every timed call ends with the context's synchronize().
"""
import argparse
import csv
import platform
import random
import sys
import time

import mpgpu

try:
    import gmpy2
except ImportError:  # the gmpy2 columns stay empty
    gmpy2 = None
try:
    import numpy as np
except ImportError:
    np = None


def import_cupy(ctx):
    """CuPy when the context is CUDA and it imports (the "from CuPy" rows), else None."""
    if not ctx.is_cuda:
        return None
    try:
        import cupy
    except ImportError:
        return None
    return cupy

if hasattr(sys, "set_int_max_str_digits"):
    sys.set_int_max_str_digits(0)

ROWS = []
MISMATCHES = []


def best_time(fn, min_time, repeats=3, sync=None):
    """Best seconds per call of fn() over `repeats` rounds of at least min_time each."""
    fn()  # warm-up (plans, pools, caches)
    if sync:
        sync()
    best = float("inf")
    for _ in range(repeats):
        n, start = 0, time.perf_counter()
        while True:
            fn()
            n += 1
            if sync:
                sync()
            elapsed = time.perf_counter() - start
            if elapsed >= min_time:
                break
        best = min(best, elapsed / n)
    return best


def fmt(seconds):
    if seconds is None:
        return "-"
    for unit, scale in (("s", 1), ("ms", 1e-3), ("us", 1e-6), ("ns", 1e-9)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def record(section, what, mpgpu_s, python_s=None, gmpy2_s=None, ok=True, note=""):
    ROWS.append(dict(section=section, what=what, mpgpu_s=mpgpu_s, python_s=python_s, gmpy2_s=gmpy2_s,
                     ok=ok, note=note))
    if not ok:
        MISMATCHES.append(what)
    ratio = lambda ref: f"{ref / mpgpu_s:.3g}x" if ref and mpgpu_s else "-"  # noqa: E731
    print(f"| {section:<9} | {what:<44} | {fmt(mpgpu_s):>9} | {fmt(python_s):>9} | {ratio(python_s):>8} | "
          f"{fmt(gmpy2_s):>9} | {ratio(gmpy2_s):>8} | {'ok' if ok else 'MISMATCH':<8} | {note}", flush=True)


def header():
    print("| section   | what                                         |     mpgpu |    Python |  speedup |"
          "     gmpy2 |  speedup | check    | note")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | --- | --- |")


def call_overhead(args):
    cpu = mpgpu.Context("cpu")
    a, b = mpgpu.Integer(12345, context=cpu), mpgpu.Integer(678, context=cpu)
    x, y = 12345, 678
    t = best_time(lambda: a + b, args.min_time)
    g = None
    if gmpy2:
        ga, gb = gmpy2.mpz(x), gmpy2.mpz(y)
        g = best_time(lambda: ga + gb, args.min_time)
    record("overhead", "a + b, small Integers (CPU context)", t, best_time(lambda: x + y, args.min_time), g,
           ok=int(a + b) == x + y)
    t = best_time(lambda: a + 1, args.min_time)
    record("overhead", "a + 1, Integer and int (CPU context)", t, best_time(lambda: x + 1, args.min_time),
           best_time(lambda: ga + 1, args.min_time) if gmpy2 else None, ok=int(a + 1) == x + 1)
    t = best_time(lambda: a * b % 1000, args.min_time)
    record("overhead", "a * b % 1000, small (CPU context)", t, best_time(lambda: x * y % 1000, args.min_time),
           best_time(lambda: ga * gb % 1000, args.min_time) if gmpy2 else None, ok=int(a * b % 1000) == x * y % 1000)
    small = mpgpu.Batch([1, 2, 3, 4], 64, context=cpu)
    record("overhead", "Batch(4 x 64 bits) + Batch, CPU context", best_time(lambda: small + small, args.min_time),
           note="a whole small batch operation")


def huge(args, ctx):
    rng = random.Random(35)
    sync = ctx.synchronize if ctx.is_cuda else None
    section = f"huge/{ctx}"
    for log_bits in range(args.min_log_bits, args.max_log_bits + 1, args.log_step):
        bits = 1 << log_bits
        x = rng.getrandbits(bits) | (1 << (bits - 1))
        y = rng.getrandbits(bits) | (1 << (bits - 1))
        X, Y = mpgpu.Integer(x, context=ctx), mpgpu.Integer(y, context=ctx)
        with_python = log_bits <= args.max_python_log_bits
        gx, gy = (gmpy2.mpz(x), gmpy2.mpz(y)) if gmpy2 else (None, None)

        # product
        prod = [None]
        t = best_time(lambda: prod.__setitem__(0, X * Y), args.min_time, sync=sync)
        ref = x * y if with_python else None
        p = best_time(lambda: x * y, args.min_time) if with_python else None
        g = best_time(lambda: gx * gy, args.min_time) if gmpy2 else None
        ok = (int(prod[0]) == ref) if ref is not None else (gmpy2 is None or int(prod[0]) == int(gx * gy))
        record(section, f"product 2^{log_bits} x 2^{log_bits} bits", t, p, g, ok)

        # division: a 2n-bit number by an n-bit one
        z = x * y + (y >> 1)
        Z = mpgpu.Integer(z, context=ctx)
        q = [None]
        t = best_time(lambda: q.__setitem__(0, Z // Y), args.min_time, sync=sync)
        p = best_time(lambda: z // y, args.min_time) if with_python else None
        g = best_time(lambda: gmpy2.mpz(z) // gy, args.min_time) if gmpy2 else None
        record(section, f"division 2^{log_bits + 1} / 2^{log_bits} bits", t, p, g, int(q[0]) == x)

        # conversions of the 2n-bit dividend
        conversions(section, z, f"2^{log_bits + 1}", ctx, args, sync)


def conversions(section, z, size, ctx, args, sync):
    """int -> Integer against int.to_bytes, Integer -> int against int.from_bytes, for the int z
    (the issue's target: each within 2x of the bytes routine, i.e. a speedup of at least 0.5x)."""
    nbytes = (z.bit_length() + 7) // 8
    raw = z.to_bytes(nbytes, "little")
    Z = mpgpu.Integer(z, context=ctx)
    t = best_time(lambda: mpgpu.Integer(z, context=ctx), args.min_time, sync=sync)
    record(section, f"int -> Integer, {size} bits", t, best_time(lambda: z.to_bytes(nbytes, "little"), args.min_time),
           best_time(lambda: gmpy2.mpz(z), args.min_time) if gmpy2 else None, int(Z) == z,
           "Python: int.to_bytes; gmpy2: mpz(int)")
    t = best_time(lambda: int(Z), args.min_time)
    record(section, f"Integer -> int, {size} bits", t, best_time(lambda: int.from_bytes(raw, "little"), args.min_time),
           best_time(lambda: int(gmpy2.mpz(z)), args.min_time) if gmpy2 else None, int(Z) == z,
           "Python: int.from_bytes; gmpy2: int(mpz) (includes mpz(int))")


def large_conversions(args, ctx):
    """Conversions alone at the sizes of --convert-log-bits (2^30 bits: no product or division
    of that size, which take minutes on the CPU context)."""
    sync = ctx.synchronize if ctx.is_cuda else None
    for log_bits in args.convert_log_bits:
        bits = 1 << log_bits
        z = random.Random(log_bits).getrandbits(bits) | (1 << (bits - 1))
        conversions(f"huge/{ctx}", z, f"2^{log_bits}", ctx, args, sync)


def batches(args, ctx):
    if np is None:
        print("(batches skipped: NumPy is not installed)")
        return
    sync = ctx.synchronize if ctx.is_cuda else None
    section = f"batch/{ctx}"
    cupy = import_cupy(ctx)
    rng = random.Random(36)
    for bits, count in ((1024, args.batch_count), (256, args.batch_count * 4)):
        n = bits // 64
        limbs = np.frombuffer(rng.randbytes(count * n * 8), dtype=np.uint64).reshape(count, n)
        base_vals = [int.from_bytes(row.tobytes(), "little") for row in limbs]
        m_vals = [rng.getrandbits(bits) | (1 << (bits - 1)) | 1 for _ in range(count)]
        e_vals = [rng.getrandbits(bits) for _ in range(count)]

        made = [None]
        t = best_time(lambda: made.__setitem__(0, mpgpu.Batch(limbs, context=ctx)), args.min_time, sync=sync)
        record(section, f"Batch from NumPy, {count} x {bits} bits", t, ok=made[0].to_list() == base_vals,
               note=f"{limbs.nbytes / t / 1e9:.3g} GB/s")
        A = made[0]
        t = best_time(lambda: A.to_numpy(), args.min_time)
        record(section, f"Batch.to_numpy, {count} x {bits} bits", t, ok=np.array_equal(A.to_numpy(), limbs),
               note=f"{limbs.nbytes / t / 1e9:.3g} GB/s")
        t = best_time(lambda: mpgpu.Batch(base_vals, bits, context=ctx), args.min_time, sync=sync)
        record(section, f"Batch from a list of ints, {count} x {bits} bits", t)

        M, E = mpgpu.Batch(m_vals, bits, context=ctx), mpgpu.Batch(e_vals, bits, context=ctx)
        loop_count = min(count, args.loop_count)  # the loops run on a slice, scaled to the whole count
        scale = count / loop_count
        r = [None]
        t = best_time(lambda: r.__setitem__(0, pow(A, E, M)), args.min_time, repeats=2, sync=sync)
        got = r[0].to_list()
        ok = all(got[i] == pow(base_vals[i], e_vals[i], m_vals[i]) for i in range(0, count, max(1, count // 64)))
        p = best_time(lambda: [pow(base_vals[i], e_vals[i], m_vals[i]) for i in range(loop_count)],
                      args.min_time, repeats=1) * scale
        g = None
        if gmpy2:
            gb, ge, gm = ([gmpy2.mpz(v) for v in vals[:loop_count]] for vals in (base_vals, e_vals, m_vals))
            g = best_time(lambda: [gmpy2.powmod(gb[i], ge[i], gm[i]) for i in range(loop_count)],
                          args.min_time, repeats=1) * scale
        record(section, f"powm {count} x {bits} bits (exp and m {bits} bits)", t, p, g, ok,
               f"loops timed on {loop_count} and scaled" if loop_count < count else "")
        if cupy is not None:
            from_cupy(section, ctx, cupy, limbs, base_vals, e_vals, m_vals, bits, args, sync, p, g, loop_count)

        t = best_time(lambda: r.__setitem__(0, mpgpu.batch.mul_wide(A, M)), args.min_time, sync=sync)
        got = r[0].to_list()
        ok = all(got[i] == base_vals[i] * m_vals[i] for i in range(0, count, max(1, count // 64)))
        p = best_time(lambda: [base_vals[i] * m_vals[i] for i in range(loop_count)], args.min_time) * scale
        g = None
        if gmpy2:
            g = best_time(lambda: [gb[i] * gm[i] for i in range(loop_count)], args.min_time) * scale
        record(section, f"mul_wide {count} x {bits} bits", t, p, g, ok)


def limbs_of(vals, bits):
    """The values as a (count, bits / 64) uint64 NumPy array, least significant limb first."""
    n = bits // 64
    return np.frombuffer(b"".join(v.to_bytes(8 * n, "little") for v in vals), dtype=np.uint64).reshape(len(vals), n)


def from_cupy(section, ctx, cupy, limbs, base_vals, e_vals, m_vals, bits, args, sync, p, g, loop_count):
    """The batch rows with CuPy arrays on the context's GPU as inputs: the import alone
    (zero-copy when the rows are the batch's layout, as bits / 64 limbs are at 256 and 1024
    bits), and powm with the imports of its three inputs timed, against the NumPy row's loops
    (p, g: Python and gmpy2, the same instances)."""
    count = len(base_vals)
    with cupy.cuda.Device(ctx.device):
        cA, cE, cM = (cupy.asarray(a) for a in (limbs, limbs_of(e_vals, bits), limbs_of(m_vals, bits)))
        cupy.cuda.get_current_stream().synchronize()
    made = [None]
    t = best_time(lambda: made.__setitem__(0, mpgpu.Batch(cA, context=ctx)), args.min_time, sync=sync)
    adopted = cupy.from_dlpack(made[0]).data.ptr == cA.data.ptr
    record(section, f"Batch from CuPy, {count} x {bits} bits", t, ok=made[0].to_list() == base_vals,
           note="zero-copy (the array's memory adopted)" if adopted else f"repacked, {cA.nbytes / t / 1e9:.3g} GB/s")
    r = [None]

    def powm():
        A, E, M = (mpgpu.Batch(c, context=ctx) for c in (cA, cE, cM))
        r[0] = pow(A, E, M)

    t = best_time(powm, args.min_time, repeats=2, sync=sync)
    got = r[0].to_list()
    ok = all(got[i] == pow(base_vals[i], e_vals[i], m_vals[i]) for i in range(0, count, max(1, count // 64)))
    record(section, f"powm from CuPy {count} x {bits} bits", t, p, g, ok,
           "the three imports included; loops: the NumPy row's" + (f", timed on {loop_count} and scaled"
                                                                   if loop_count < count else ""))


#: The sections of the table, in order (--sections picks some).
SECTIONS = {
    "overhead": lambda args, ctx: call_overhead(args),
    "huge": lambda args, ctx: huge(args, ctx),
    "convert": lambda args, ctx: large_conversions(args, ctx),
    "batch": lambda args, ctx: batches(args, ctx),
}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--context", default="auto", help="context of sections 2 and 3: cpu, cuda:N, auto")
    ap.add_argument("--quick", action="store_true", help="short: 2^16..2^20 bits, 1024 instances")
    ap.add_argument("--min-log-bits", type=int, default=16)
    ap.add_argument("--max-log-bits", type=int, default=24)
    ap.add_argument("--log-step", type=int, default=2)
    ap.add_argument("--max-python-log-bits", type=int, default=22,
                    help="largest size timed with Python ints (quadratic-ish: slow beyond)")
    ap.add_argument("--batch-count", type=int, default=1 << 16, help="instances of the 1024-bit batch")
    ap.add_argument("--loop-count", type=int, default=2048, help="instances the Python/gmpy2 loops time")
    ap.add_argument("--min-time", type=float, default=0.2, help="seconds per timing round")
    ap.add_argument("--convert-log-bits", type=lambda text: [int(v) for v in text.split(",") if v], default=[],
                    help="comma-separated log2 sizes at which to time only the int <-> Integer conversions, "
                         "e.g. 30 (2^30 bits; none by default)")
    ap.add_argument("--sections", type=lambda text: [v for v in text.split(",") if v], default=list(SECTIONS),
                    help="comma-separated sections to run, of " + ", ".join(SECTIONS) + " (default: all); "
                         "'convert' is the rows of --convert-log-bits")
    ap.add_argument("--csv", help="also write the table to this CSV file")
    args = ap.parse_args()
    unknown = sorted(set(args.sections) - set(SECTIONS))
    if unknown:
        ap.error(f"unknown section(s) {', '.join(unknown)}: choose among {', '.join(SECTIONS)}")
    if "convert" in args.sections and args.sections == ["convert"] and not args.convert_log_bits:
        ap.error("--sections convert needs --convert-log-bits (e.g. 30)")
    if args.quick:
        args.max_log_bits, args.batch_count, args.min_time = min(args.max_log_bits, 20), 1024, 0.05
        args.loop_count = min(args.loop_count, 256)

    ctx = mpgpu.Context(args.context)
    info = ctx.info()
    print(f"mpgpu {mpgpu.__version__} | context {ctx} ({info['name']}) | built with CUDA: {mpgpu.built_with_cuda()} | "
          f"Python {platform.python_version()} | gmpy2 {gmpy2.version() if gmpy2 else 'not installed'} | "
          f"NumPy {np.__version__ if np else 'not installed'} | GMP {info['gmp_version']} | {platform.node()}")
    print()
    header()
    for name, run in SECTIONS.items():
        if name in args.sections:
            run(args, ctx)

    if args.csv:
        with open(args.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(ROWS[0].keys()) + ["context", "mpgpu_version"])
            w.writeheader()
            for row in ROWS:
                w.writerow(dict(row, context=str(ctx), mpgpu_version=mpgpu.__version__))
        print(f"\nwritten: {args.csv}")
    if MISMATCHES:
        print(f"\nMISMATCH in: {', '.join(MISMATCHES)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
