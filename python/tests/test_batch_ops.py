# Every operation of mpgpu.batch and every operator of mpgpu.Batch against
# Python ints, per width (limb and width-class boundaries), on adversarial and
# random values; and the errors of bad operands.
import math
import operator

import pytest

import mpgpu
from batch_values import WIDTHS, nonzero, signed, values_for

np = pytest.importorskip("numpy")
Batch = mpgpu.Batch
B = mpgpu.batch
N = 24  # instances per batch


def pair(bits, seed):
    a = values_for(bits, N, seed)
    b = values_for(bits, N, seed + 100)
    b[:4] = [a[0], 0, 2**bits - 1, 1]  # equal operands, zero, all ones, one
    return a, b


def check(result, expect):
    assert isinstance(result, Batch)
    got = result.to_list()
    bad = [i for i, (g, e) in enumerate(zip(got, expect)) if g != e]
    assert len(got) == len(expect) and not bad, f"first mismatch at {bad[:1]}: {got[bad[0]] if bad else ''}"


RING = {
    "add": lambda a, b, m: (a + b) % m,
    "sub": lambda a, b, m: (a - b) % m,
    "mul": lambda a, b, m: a * b % m,
    "and_": lambda a, b, m: a & b,
    "ior": lambda a, b, m: a | b,
    "xor_": lambda a, b, m: a ^ b,
    "gcd": lambda a, b, m: math.gcd(a, b),
}


@pytest.mark.parametrize("bits", WIDTHS)
def test_element_wise(ctx, bits):
    m = 2**bits
    a, b = pair(bits, 1)
    A, Bb = Batch(a, bits), Batch(b, bits)
    for name, f in RING.items():
        check(getattr(B, name)(A, Bb), [f(x, y, m) for x, y in zip(a, b)])
    check(B.mul_high(A, Bb), [x * y >> bits for x, y in zip(a, b)])
    wide = B.mul_wide(A, Bb)
    assert wide.bits == 2 * bits
    check(wide, [x * y for x, y in zip(a, b)])
    check(B.sqr(A), [x * x % m for x in a])
    check(B.com(A), [m - 1 - x for x in a])
    s, carry = B.add(A, Bb, carry=True)
    check(s, [(x + y) % m for x, y in zip(a, b)])
    assert carry.bits == 1 and carry.to_list() == [(x + y) >> bits for x, y in zip(a, b)]
    d, borrow = B.sub(A, Bb, borrow=True)
    check(d, [(x - y) % m for x, y in zip(a, b)])
    assert borrow.to_list() == [int(x < y) for x, y in zip(a, b)]
    for v in (0, 1, 3, 2**63, 2**64 - 1):
        check(B.add_ui(A, v), [(x + v) % m for x in a])
        check(B.sub_ui(A, v), [(x - v) % m for x in a])
        check(B.mul_ui(A, v), [x * v % m for x in a])


@pytest.mark.parametrize("bits", WIDTHS)
def test_shifts_and_rotations(ctx, bits):
    m = 2**bits
    a = values_for(bits, N, 2)
    A = Batch(a, bits)
    for c in sorted({0, 1, 5, 63, 64, 65, bits - 1, bits, bits + 1, 3 * bits + 2}):
        check(B.shift_left(A, c), [(x << c) % m for x in a])
        check(B.shift_right(A, c), [x >> c for x in a])
        k = c % bits
        rot = [((x << k) | (x >> (bits - k))) % m for x in a]
        check(B.rotate_left(A, c), rot)
        check(B.rotate_right(A, c), [((x >> k) | (x << (bits - k))) % m for x in a])
        check(B.shift_right_arithmetic(A, c), [(signed(x, bits) >> c) % m for x in a])
        check(A << c, [(x << c) % m for x in a])
        check(A >> c, [x >> c for x in a])
    check(A << 2**70, [0] * N)
    check(A >> 2**64, [0] * N)


@pytest.mark.parametrize("bits", WIDTHS)
def test_division(ctx, bits):
    a, b = pair(bits, 3)
    b = nonzero(b, bits)
    A, Bb = Batch(a, bits), Batch(b, bits)
    q, r = B.div_qr(A, Bb)
    check(q, [x // y for x, y in zip(a, b)])
    check(r, [x % y for x, y in zip(a, b)])
    check(B.div(A, Bb), [x // y for x, y in zip(a, b)])
    check(B.rem(A, Bb), [x % y for x, y in zip(a, b)])
    for d in (1, 2, 3, 10**19, 2**63 + 1, 2**64 - 1):
        check(B.div_ui(A, d), [x // d for x in a])
        check(B.rem_ui(A, d), [x % d for x in a])
    w = [x * y + (z % y) for x, y, z in zip(a, b, reversed(a))]  # double-width dividends
    W = Batch(w, 2 * bits)
    q, r = B.div_qr_wide(W, Bb)
    assert q.bits == 2 * bits and r.bits == bits
    check(q, [x // y for x, y in zip(w, b)])
    check(r, [x % y for x, y in zip(w, b)])
    full = values_for(2 * bits, N, 4)  # any value of the double width, high half included
    check(B.div_wide(Batch(full, 2 * bits), Bb), [x // y for x, y in zip(full, b)])
    check(B.rem_wide(Batch(full, 2 * bits), Bb), [x % y for x, y in zip(full, b)])


@pytest.mark.parametrize("bits", [8, 64, 129, 1000])
def test_division_by_zero(ctx, bits):
    A = Batch([5] * 4, bits)
    Z = Batch([1, 1, 0, 1], bits)
    for f in (B.div, B.rem, B.div_qr, operator.floordiv, operator.mod, divmod):
        with pytest.raises(ZeroDivisionError, match="instance 2"):
            f(A, Z)
    for f in (B.div_ui, B.rem_ui, operator.floordiv, operator.mod, divmod):
        with pytest.raises(ZeroDivisionError):
            f(A, 0)
    with pytest.raises(ZeroDivisionError):
        B.div_qr_wide(Batch([5] * 4, 2 * bits), Z)
    with pytest.raises(ZeroDivisionError):
        B.invert(A, Z)


@pytest.mark.parametrize("bits", WIDTHS)
def test_signed_and_per_instance(ctx, bits):
    m = 2**bits
    a, b = pair(bits, 5)
    A, Bb = Batch(a, bits), Batch(b, bits)
    sgn = lambda v: (v > 0) - (v < 0)  # noqa: E731
    cmp = B.compare(A, Bb)
    assert cmp.dtype == np.int8 and cmp.tolist() == [sgn(x - y) for x, y in zip(a, b)]
    assert B.compare_signed(A, Bb).tolist() == [sgn(signed(x, bits) - signed(y, bits)) for x, y in zip(a, b)]
    eq = B.equals(A, Bb)
    assert eq.dtype == np.bool_ and eq.tolist() == [x == y for x, y in zip(a, b)]
    check(B.mul_high_signed(A, Bb), [(signed(x, bits) * signed(y, bits) >> bits) % m for x, y in zip(a, b)])
    pc = B.popcount(A)
    assert pc.dtype == np.uint32 and pc.tolist() == [bin(x).count("1") for x in a]
    assert B.count_leading_zeros(A).tolist() == [bits - x.bit_length() for x in a]
    assert B.count_trailing_zeros(A).tolist() == [(x & -x).bit_length() - 1 if x else bits for x in a]


def odd_moduli(bits, seed):
    ms = [v | 1 for v in values_for(bits, N, seed)]
    return [v if v > 1 else (2**bits - 1 if bits > 1 else 3) for v in ms]


@pytest.mark.parametrize("bits", [v for v in WIDTHS if v > 1])
def test_montgomery(ctx, bits):
    ms = odd_moduli(bits, 6)
    M = Batch(ms, bits)
    R = 2 ** (64 * M.stride_limbs)
    a = values_for(bits, N, 7)
    b = [x % mm for x, mm in zip(values_for(bits, N, 8), ms)]
    ar = [x % mm for x, mm in zip(a, ms)]
    A, Ar, Bb = Batch(a, bits), Batch(ar, bits), Batch(b, bits)
    check(B.to_montgomery(A, M), [x * R % mm for x, mm in zip(a, ms)])
    check(B.from_montgomery(A, M), [x * pow(R, -1, mm) % mm for x, mm in zip(a, ms)])
    check(B.montgomery_mul(Ar, Bb, M), [x * y * pow(R, -1, mm) % mm for x, y, mm in zip(ar, b, ms)])
    check(B.montgomery_sqr(Ar, M), [x * x * pow(R, -1, mm) % mm for x, mm in zip(ar, ms)])
    w = values_for(2 * bits, N, 9)
    check(B.montgomery_reduce(Batch(w, 2 * bits), M), [x * pow(R, -1, mm) % mm for x, mm in zip(w, ms)])
    with pytest.raises(ValueError):
        B.to_montgomery(A, Batch([2] * N, bits))  # even moduli have no Montgomery form


@pytest.mark.parametrize("bits", [v for v in WIDTHS if v > 1 and v <= 1000])
def test_powm(ctx, bits):
    ms = odd_moduli(bits, 10)
    base = values_for(bits, N, 11)
    exps = values_for(bits, N, 12)
    expect = [pow(x, e, mm) for x, e, mm in zip(base, exps, ms)]
    A, E, M = Batch(base, bits), Batch(exps, bits), Batch(ms, bits)
    for window in (None, "fixed", "sliding"):
        check(B.powm(A, E, M, window), expect)
    check(pow(A, E, M), expect)
    small = Batch([e % 1000 for e in exps], 10)  # a narrower exponent
    check(B.powm(A, small, M), [pow(x, e % 1000, mm) for x, e, mm in zip(base, exps, ms)])
    check(pow(A, 65537, M), [pow(x, 65537, mm) for x, mm in zip(base, ms)])
    with pytest.raises(ValueError, match="window"):
        B.powm(A, E, M, "wide")
    with pytest.raises(TypeError, match="modulus"):
        A**E


@pytest.mark.parametrize("bits", [5, 64, 65, 256])
def test_gcd_and_invert(ctx, bits):
    a = values_for(bits, N, 13)
    ms = nonzero(values_for(bits, N, 14), bits)
    ms[:3] = [1, 2, 2**bits - 1]
    ok = [x if math.gcd(x, mm) == 1 else 1 for x, mm in zip(a, ms)]  # invertible instances
    check(B.invert(Batch(ok, bits), Batch(ms, bits)), [pow(x, -1, mm) if mm > 1 else 0 for x, mm in zip(ok, ms)])
    check(B.gcd(Batch(a, bits), Batch(ms, bits)), [math.gcd(x, y) for x, y in zip(a, ms)])
    with pytest.raises(ValueError, match="no inverse"):
        B.invert(Batch([2, 3], bits), Batch([4, 5], bits))


@pytest.mark.parametrize("bits", [1, 64, 65, 200])
def test_operators(ctx, bits):
    m = 2**bits
    a, b = pair(bits, 15)
    bnz = nonzero(b, bits)
    A, Bb, Bnz = Batch(a, bits), Batch(b, bits), Batch(bnz, bits)
    check(A + Bb, [(x + y) % m for x, y in zip(a, b)])
    check(A - Bb, [(x - y) % m for x, y in zip(a, b)])
    check(A * Bb, [x * y % m for x, y in zip(a, b)])
    check(A & Bb, [x & y for x, y in zip(a, b)])
    check(A | Bb, [x | y for x, y in zip(a, b)])
    check(A ^ Bb, [x ^ y for x, y in zip(a, b)])
    check(A // Bnz, [x // y for x, y in zip(a, bnz)])
    check(A % Bnz, [x % y for x, y in zip(a, bnz)])
    q, r = divmod(A, Bnz)
    check(q, [x // y for x, y in zip(a, bnz)])
    check(r, [x % y for x, y in zip(a, bnz)])
    check(-A, [-x % m for x in a])
    check(~A, [m - 1 - x for x in a])
    assert +A is A
    # ints on either side: reduced mod 2**bits for + - * & | ^ (negatives as two's complement)
    for v in (0, 1, 7, -1, -(2**70) - 3, 2**64 - 1, 2**64, 2**200 + 12345, mpgpu.Integer(2**65 + 1), np.uint64(9)):
        iv = int(v)
        check(A + v, [(x + iv) % m for x in a])
        check(v + A, [(x + iv) % m for x in a])
        check(A - v, [(x - iv) % m for x in a])
        check(v - A, [(iv - x) % m for x in a])
        check(A * v, [x * iv % m for x in a])
        check(v * A, [x * iv % m for x in a])
        check(A & v, [x & (iv % m) for x in a])
        check(v | A, [x | (iv % m) for x in a])
        check(A ^ v, [x ^ (iv % m) for x in a])
    # divisors: positive ints, also wider than the batch (q = 0, r = a)
    for d in (1, 3, 2**64 - 1, 2**64 + 1, 2**bits - 1, 2**bits, 2**(bits + 70)):
        check(A // d, [x // d for x in a])
        check(A % d, [x % d for x in a])
        q, r = divmod(A, d)
        check(q, [x // d for x in a])
        check(r, [x % d for x in a])
    for v in (0, 1, 2**bits - 1):  # dividends: values of the width
        check(v // Bnz, [v // y for y in bnz])
        check(v % Bnz, [v % y for y in bnz])
    x = A
    x += 1
    check(x, [(v + 1) % m for v in a])
    check(A, a)  # immutable: += rebinds the name


def test_operator_errors(ctx):
    A = Batch([1, 2, 3], 64)
    with pytest.raises(ValueError, match="negative divisor"):
        A // -3
    with pytest.raises(ValueError, match="dividend"):
        (-1) // A
    with pytest.raises(ValueError, match="dividend"):
        2**64 % A
    with pytest.raises(ValueError, match="negative shift"):
        A << -1
    with pytest.raises(ValueError, match="modulus"):
        pow(A, 3, 2**64 + 1)
    with pytest.raises(ValueError, match="negative exponent"):
        pow(A, -1, 7)
    for bad in (1.5, "2", [1, 2, 3], None):
        with pytest.raises(TypeError):
            A + bad
    with pytest.raises(TypeError):
        A << A
    with pytest.raises(TypeError):
        np.arange(3, dtype=np.uint64) + A  # NumPy does not loop over a Batch
    with pytest.raises(ValueError):  # mismatched widths, counts
        A + Batch([1, 2, 3], 65)
    with pytest.raises(ValueError):
        A + Batch([1, 2], 64)
    with pytest.raises(ValueError):
        B.mul_wide(A, Batch([1, 2, 3], 128))
    with pytest.raises(ValueError):
        B.div_qr_wide(A, A)  # not twice as wide
    with pytest.raises(OverflowError):
        B.add_ui(A, 2**64)
    with pytest.raises(OverflowError):
        B.shift_left(A, -1)


def test_empty_batches(ctx):
    E = Batch([], 100)
    for r in (E + E, E * 3, B.mul_wide(E, E), B.powm(E, E, E), -E, E // 7):
        assert r.count == 0
    assert B.compare(E, E).tolist() == [] and B.popcount(E).shape == (0,)
