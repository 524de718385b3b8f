# The gmpy2-named functions against Python's own (math, pow) and, where it
# is installed, gmpy2 itself: values, signs and exception types.
import math
import random

import pytest

import mpgpu
from conftest import HUGE, RANDOM, SMALL

try:
    import gmpy2
except ImportError:  # optional
    gmpy2 = None

NONNEG = [v for v in SMALL if v >= 0] + [abs(v) for v in RANDOM[:20]] + [abs(HUGE[0])]
PAIRS = [(a, b) for a in SMALL[::5] for b in SMALL[::6]] + list(zip(RANDOM[:30], RANDOM[30:]))


def iroot_ref(x, n):
    r = 1 << ((x.bit_length() + n - 1) // n)  # >= the root; Newton down
    while True:
        s = ((n - 1) * r + x // r ** (n - 1)) // n
        if s >= r:
            return r
        r = s


def test_roots(ctx):
    for x in NONNEG:
        s = mpgpu.isqrt(x)
        assert isinstance(s, mpgpu.Integer) and s == math.isqrt(x)
        s, r = mpgpu.isqrt_rem(x)
        assert s == math.isqrt(x) and r == x - math.isqrt(x) ** 2
        assert mpgpu.is_square(x) is (math.isqrt(x) ** 2 == x)
        for n in (1, 2, 3, 5, 64):
            root, exact = mpgpu.iroot(x, n)
            expect = iroot_ref(x, n) if x > 0 else 0
            assert root == expect and exact is (expect**n == x)
            root, rem = mpgpu.iroot_rem(x, n)
            assert root == expect and rem == x - expect**n
    assert mpgpu.is_square(-4) is False
    for f in (mpgpu.isqrt, mpgpu.isqrt_rem):
        with pytest.raises(ValueError):
            f(-1)
    with pytest.raises(ValueError):
        mpgpu.iroot(-27, 3)
    with pytest.raises(ValueError):
        mpgpu.iroot(8, 0)


def test_gcd_lcm_gcdext_invert(ctx):
    for a, b in PAIRS:
        assert mpgpu.gcd(a, b) == math.gcd(a, b) and mpgpu.lcm(a, b) == math.lcm(a, b)
        g, s, t = mpgpu.gcdext(a, b)
        assert g == math.gcd(a, b) and a * s + b * t == g
        if gmpy2 is not None:
            assert (g, s, t) == gmpy2.gcdext(a, b)
        if b == 0:
            with pytest.raises(ZeroDivisionError):
                mpgpu.invert(a, b)
            continue
        try:
            expect = pow(a, -1, abs(b))
        except ValueError:
            with pytest.raises(ZeroDivisionError):
                mpgpu.invert(a, b)
        else:
            assert mpgpu.invert(a, b) == expect
    assert mpgpu.gcd() == 0 and mpgpu.lcm() == 1 and mpgpu.gcd(12, 18, 8) == 2 and mpgpu.lcm(4, 6, 10) == 60
    with pytest.raises(TypeError):
        mpgpu.gcd(1.5, 2)


def test_powmod(ctx):
    rng = random.Random(9)
    for m in (1, 7, -7, 2**89 - 1, -(10**30 + 7)):
        for _ in range(8):
            x, y = rng.randrange(-(2**300), 2**300), rng.randrange(-50, 2**100)
            try:
                expect = pow(x, y, m)
            except ValueError:
                with pytest.raises(ValueError):
                    mpgpu.powmod(x, y, m)
                continue
            assert mpgpu.powmod(x, y, m) == expect
            if gmpy2 is not None:
                assert gmpy2.powmod(x, y, m) == expect
    with pytest.raises(ValueError):
        mpgpu.powmod(2, 3, 0)


def test_sequences(ctx):
    fib = [0, 1]
    for _ in range(400):
        fib.append(fib[-1] + fib[-2])
    lucas = [2, 1]
    for _ in range(400):
        lucas.append(lucas[-1] + lucas[-2])
    for n in (0, 1, 2, 10, 93, 94, 200, 400):
        assert mpgpu.fib(n) == fib[n] and mpgpu.lucas(n) == lucas[n]
        assert mpgpu.fac(n) == math.factorial(n)
    assert mpgpu.fac(5000) == math.factorial(5000)
    assert mpgpu.fib(mpgpu.Integer(100)) == fib[100]
    for n in (0, 1, 5, 64, 300, -1, -5, -300, 2**70):
        for k in (0, 1, 2, 7, 30):
            expect = math.comb(n, k) if n >= 0 else (-1) ** k * math.comb(k - n - 1, k)
            assert mpgpu.comb(n, k) == expect, (n, k)
    for f in (mpgpu.fac, mpgpu.fib, mpgpu.lucas):
        with pytest.raises(OverflowError):
            f(-1)
    with pytest.raises(OverflowError):
        mpgpu.comb(5, -1)


def _t_divmod(a, b):
    q = abs(a) // abs(b)
    q = q if (a >= 0) == (b >= 0) else -q
    return q, a - q * b


def _c_divmod(a, b):
    q = -((-a) // b)
    return q, a - q * b


def test_divisions(ctx):
    for a, b in PAIRS:
        if b == 0:
            for f in (mpgpu.t_div, mpgpu.f_mod, mpgpu.c_divmod, mpgpu.divexact):
                with pytest.raises(ZeroDivisionError):
                    f(a, b)
            continue
        forms = {"t": _t_divmod(a, b), "f": divmod(a, b), "c": _c_divmod(a, b)}
        for p, (q, r) in forms.items():
            assert getattr(mpgpu, p + "_div")(a, b) == q and getattr(mpgpu, p + "_mod")(a, b) == r
            assert getattr(mpgpu, p + "_divmod")(a, b) == (q, r)
            if gmpy2 is not None:
                assert getattr(gmpy2, p + "_divmod")(a, b) == (q, r)
        assert mpgpu.divexact(a * b, b) == a
        assert mpgpu.is_divisible(a, b) is (a % b == 0)
        assert mpgpu.is_congruent(a, a + 5 * b, b) is True


def test_divisions_2exp(ctx):
    for a in SMALL[::3] + RANDOM[:10]:
        for n in (0, 1, 2, 63, 64, 65, 130):
            d = 2**n
            forms = {"t": _t_divmod(a, d), "f": divmod(a, d), "c": _c_divmod(a, d)}
            for p, (q, r) in forms.items():
                assert getattr(mpgpu, p + "_div_2exp")(a, n) == q, (p, a, n)
                assert getattr(mpgpu, p + "_mod_2exp")(a, n) == r, (p, a, n)
                assert getattr(mpgpu, p + "_divmod_2exp")(a, n) == (q, r)
                if gmpy2 is not None:
                    assert getattr(gmpy2, p + "_divmod_2exp")(a, n) == (q, r)


def test_bits_and_digits(ctx):
    for v in SMALL + RANDOM[:20]:
        assert mpgpu.popcount(v) == (v.bit_count() if v >= 0 else -1)
        assert mpgpu.bit_length(v) == v.bit_length()
        for base in (2, 3, 10, 16, 36, 62):
            nd = mpgpu.num_digits(v, base)
            a, digits = abs(v), 1
            while a >= base:
                a //= base
                digits += 1
            assert nd == digits, (v, base)
        assert mpgpu.digits(v, 16) == format(v, "x") and mpgpu.digits(v) == str(v)
        for n in (0, 1, 63, 64, 65, 300):
            assert mpgpu.bit_test(v, n) is bool((v >> n) & 1)
            assert mpgpu.bit_set(v, n) == v | (1 << n) and mpgpu.bit_clear(v, n) == v & ~(1 << n)
            assert mpgpu.bit_flip(v, n) == v ^ (1 << n)
        assert mpgpu.is_even(v) is (v % 2 == 0) and mpgpu.is_odd(v) is (v % 2 == 1)
        assert mpgpu.sign(v) == (v > 0) - (v < 0)
    with pytest.raises(ValueError):
        mpgpu.num_digits(5, 1)


def test_results_stay_in_the_operands_context(ctx):
    x = mpgpu.Integer(10**30)
    for r in (mpgpu.isqrt(x), mpgpu.gcd(x, 12), mpgpu.fac(30), mpgpu.t_div(x, 7), x + 1, 1 + x, x**2):
        assert r.context == ctx


def test_mpz_alias():
    assert mpgpu.mpz is mpgpu.Integer
