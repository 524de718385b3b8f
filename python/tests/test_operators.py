# Every operator with Integers and ints on either side, against Python ints:
# floor division and modulo signs, pow with a modulus, shifts, comparisons.
import operator
import random

import pytest

import mpgpu
from conftest import HUGE, RANDOM, SMALL

BINARY = [operator.add, operator.sub, operator.mul, operator.floordiv, operator.mod, operator.and_,
          operator.or_, operator.xor, divmod]
PAIRS = [(a, b) for a in SMALL[::3] for b in SMALL[::4]] + list(zip(RANDOM, RANDOM[1:] + RANDOM[:1]))


def same(x, v):
    if isinstance(v, tuple):
        return len(x) == len(v) and all(same(a, b) for a, b in zip(x, v))
    return isinstance(x, mpgpu.Integer) and int(x) == v


@pytest.mark.parametrize("op", BINARY, ids=lambda f: f.__name__)
def test_binary(ctx, op):
    for a, b in PAIRS:
        if op in (operator.floordiv, operator.mod, divmod) and b == 0:
            for x, y in ((mpgpu.Integer(a), b), (a, mpgpu.Integer(b)), (mpgpu.Integer(a), mpgpu.Integer(b))):
                with pytest.raises(ZeroDivisionError):
                    op(x, y)
            continue
        expect = op(a, b)
        assert same(op(mpgpu.Integer(a), mpgpu.Integer(b)), expect), (op, a, b)
        assert same(op(mpgpu.Integer(a), b), expect), (op, a, b)
        assert same(op(a, mpgpu.Integer(b)), expect), (op, a, b)


def test_huge_operands(ctx):
    a, b, c = HUGE
    for x, y in ((a, b), (b, c), (c, 12345678901234567891), (a, -(2**64 + 1))):
        X, Y = mpgpu.Integer(x), mpgpu.Integer(y)
        assert X + Y == x + y and X - Y == x - y and X * Y == x * y
        assert X // Y == x // y and X % Y == x % y
        assert (X & Y) == (x & y) and (X | Y) == (x | y) and (X ^ Y) == (x ^ y)


@pytest.mark.parametrize("op", [operator.iadd, operator.isub, operator.imul, operator.ifloordiv, operator.imod,
                                operator.iand, operator.ior, operator.ixor], ids=lambda f: f.__name__)
def test_in_place_forms(ctx, op):
    a, b = -(10**40) - 3, 2**70 + 11
    x = mpgpu.Integer(a)
    alias = x
    x = op(x, b)
    assert same(x, op(a, b))
    assert alias == a  # Integers are immutable, as ints
    y = b
    y = op(y, mpgpu.Integer(a))
    assert same(y, op(b, a))


def test_shifts(ctx):
    for v in SMALL[::2]:
        for n in (0, 1, 63, 64, 65, 200):
            assert same(mpgpu.Integer(v) << n, v << n) and same(mpgpu.Integer(v) >> n, v >> n)
            assert same(v << mpgpu.Integer(n), v << n) and same(v >> mpgpu.Integer(n), v >> n)
    with pytest.raises(ValueError):
        mpgpu.Integer(1) << -1
    with pytest.raises(ValueError):
        mpgpu.Integer(1) >> -1
    assert mpgpu.Integer(-5) >> 2**70 == -1 and mpgpu.Integer(5) >> 2**70 == 0
    assert mpgpu.Integer(0) << 2**70 == 0
    with pytest.raises(OverflowError):
        mpgpu.Integer(1) << 2**70


def test_unary(ctx):
    for v in SMALL + RANDOM:
        x = mpgpu.Integer(v)
        assert same(-x, -v) and same(+x, v) and same(abs(x), abs(v)) and same(~x, ~v)
        assert bool(x) == bool(v)
        assert same(round(x), v) and same(round(x, 3), v)
        for nd in (-1, -2, -5, -30):
            assert same(round(x, nd), round(v, nd)), (v, nd)
        assert x.bit_length() == v.bit_length() and x.bit_count() == v.bit_count()


def test_comparisons(ctx):
    vals = SMALL[::5] + RANDOM[:10]
    for a in vals:
        for b in vals:
            for op in (operator.lt, operator.le, operator.eq, operator.ne, operator.gt, operator.ge):
                expect = op(a, b)
                assert op(mpgpu.Integer(a), mpgpu.Integer(b)) is expect
                assert op(mpgpu.Integer(a), b) is expect and op(a, mpgpu.Integer(b)) is expect
    assert mpgpu.Integer(3) == 3.0 and mpgpu.Integer(3) < 3.5 and 2.5 < mpgpu.Integer(3)
    assert mpgpu.Integer(2**53 + 1) != float(2**53 + 1)
    assert mpgpu.Integer(1) != "1" and mpgpu.Integer(1) != None  # noqa: E711
    with pytest.raises(TypeError):
        mpgpu.Integer(1) < "1"


def test_pow(ctx):
    for b in SMALL[::4]:
        for e in (0, 1, 2, 3, 7, 64):
            assert same(mpgpu.Integer(b) ** e, b**e)
            assert same(b ** mpgpu.Integer(e), b**e)
    assert mpgpu.Integer(2) ** -1 == 0.5 and isinstance(mpgpu.Integer(2) ** -2, float)
    assert mpgpu.Integer(1) ** (2**70) == 1 and mpgpu.Integer(-1) ** (2**70 + 1) == -1
    assert mpgpu.Integer(0) ** (2**70) == 0
    with pytest.raises(OverflowError):
        mpgpu.Integer(2) ** (2**70)


def test_pow_mod(ctx):
    rng = random.Random(3)
    mods = [1, -1, 2, 7, -7, 2**64 - 59, -(2**127 - 1), 10**40 + 9, 2**521 - 1]
    for m in mods:
        for _ in range(6):
            b = rng.randrange(-(2**600), 2**600)
            e = rng.randrange(0, 2**200)
            assert same(pow(mpgpu.Integer(b), e, m), pow(b, e, m))
            assert same(pow(mpgpu.Integer(b), mpgpu.Integer(e), mpgpu.Integer(m)), pow(b, e, m))
            try:
                expect = pow(b, -e, m)
            except ValueError:
                with pytest.raises(ValueError):
                    pow(mpgpu.Integer(b), -e, m)
            else:
                assert same(pow(mpgpu.Integer(b), -e, m), expect)
    assert same(pow(mpgpu.Integer(3), -1, 7), 5)
    with pytest.raises(ValueError):
        pow(mpgpu.Integer(3), 2, 0)
    with pytest.raises(ValueError):
        pow(mpgpu.Integer(2), -1, 4)


def test_true_division_and_floats(ctx):
    assert mpgpu.Integer(7) / 2 == 3.5 and 7 / mpgpu.Integer(2) == 3.5
    assert mpgpu.Integer(10**400) / 10**399 == 10.0
    assert mpgpu.Integer(3) + 0.5 == 3.5 and 0.5 + mpgpu.Integer(3) == 3.5
    assert mpgpu.Integer(3) * 1j == 3j and mpgpu.Integer(7) // 2.0 == 3.0 and mpgpu.Integer(7) % 2.5 == 2.0
    with pytest.raises(ZeroDivisionError):
        mpgpu.Integer(1) / 0
    with pytest.raises(TypeError):
        mpgpu.Integer(1) + "a"


def test_fractions_interop(ctx):
    from fractions import Fraction
    assert Fraction(1, 3) + mpgpu.Integer(1) == Fraction(4, 3)
    assert mpgpu.Integer(1) + Fraction(1, 3) == Fraction(4, 3)


def test_threads_share_operands(ctx):
    # Large operations run without the GIL; several threads may read one operand.
    import threading
    a, b = 3**40000, -(7**30000)
    x, y = mpgpu.Integer(a), mpgpu.Integer(b)
    errors = []

    def work(k):
        try:
            for _ in range(3):
                assert x * y + k == a * b + k and x // (y + k) == a // (b + k)
        except Exception as e:  # reported below, in the main thread
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
