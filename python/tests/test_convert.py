# Conversions: int, str (Python's literal syntax), bytes, format(), hashing,
# pickling, gmpy2.mpz; round trips against Python ints.
import pickle

import pytest

import mpgpu
from conftest import ADVERSARIAL, HUGE, RANDOM

try:
    import gmpy2
except ImportError:  # optional
    gmpy2 = None


def test_int_round_trip(ctx):
    for v in ADVERSARIAL + RANDOM + HUGE:
        x = mpgpu.Integer(v)
        assert x.context == ctx
        assert int(x) == v
        assert x.__index__() == v
        assert type(int(x)) is int
        # The value is normalized (no high zero limbs from the two's-complement bytes it came from).
        assert x.bit_length() == v.bit_length() and x == v and x.bit_count() == v.bit_count()


def test_str_and_repr(ctx):
    for v in ADVERSARIAL + RANDOM + HUGE[:1]:
        x = mpgpu.Integer(v)
        assert str(x) == str(v)
        assert repr(x) == f"mpgpu.Integer({v})"
    big = HUGE[0]
    assert mpgpu.Integer(big).digits(16) == format(big, "x")


@pytest.mark.parametrize("spec", ["", "d", "x", "X", "o", "b", "#x", "#X", "#o", "#b", "+d", " d", "+#x", "-b",
                                  "10d", "<30x", "^+#40b", ",d", "_x", "020d", "e", ".3f", "n"])
def test_format(ctx, spec):
    for v in ADVERSARIAL[:60] + RANDOM[:20]:
        if spec in ("e", ".3f") and abs(v) > 2**1000:
            continue
        assert format(mpgpu.Integer(v), spec) == format(v, spec)
    assert f"{mpgpu.Integer(255):#06x}" == "0x00ff"


def test_hex_bin_oct_builtins(ctx):
    for v in ADVERSARIAL[:50]:
        x = mpgpu.Integer(v)
        assert (hex(x), oct(x), bin(x)) == (hex(v), oct(v), bin(v))


VALID_LITERALS = [
    ("0", 10), ("-0", 10), ("+17", 10), ("  42\n", 10), ("1_000_000", 10), ("0x_ff", 0), ("0XFF", 0),
    ("0o_17", 0), ("0b1010", 0), ("0_0", 0), ("00", 0), ("-0x1", 16), ("ff", 16), ("0b1", 16), ("z", 36),
    ("ZzZ", 36), ("0b_1_0", 2), ("0o7", 8), ("777", 8), ("10", 2), (" -1_2 ", 10), ("9" * 5000, 10),
]
INVALID_LITERALS = [
    ("", 10), (" ", 10), ("-", 10), ("+-1", 10), ("1__0", 10), ("_1", 10), ("1_", 10), ("0x", 16),
    ("0x_", 0), ("012", 0), ("0b2", 0), ("12x4", 10), ("1 2", 10), ("ff", 10), ("0x1", 10), ("0o8", 0),
    ("0b", 2), ("1.5", 10), ("--1", 10), ("0x__1", 0), ("z", 35),
]


@pytest.mark.parametrize("text,base", VALID_LITERALS)
def test_parse_valid(ctx, text, base):
    assert int(mpgpu.Integer(text, base)) == int(text, base)
    assert int(mpgpu.Integer(text.encode(), base)) == int(text.encode(), base)


@pytest.mark.parametrize("text,base", INVALID_LITERALS)
def test_parse_invalid(ctx, text, base):
    with pytest.raises(ValueError):
        int(text, base)
    with pytest.raises(mpgpu.ParseError) as info:
        mpgpu.Integer(text, base)
    assert isinstance(info.value, ValueError)
    assert f"with base {base}:" in str(info.value)
    assert 0 <= info.value.position <= len(text)


def test_parse_details(ctx):
    with pytest.raises(mpgpu.ParseError) as info:
        mpgpu.Integer("12x4")
    assert info.value.position == 2 and "'x'" in str(info.value)
    # Beyond Python: bases up to 62 with GMP's digits (case matters above 36).
    assert mpgpu.Integer("zZ", 62) == 61 * 62 + 35
    assert mpgpu.Integer("\u0663\u0664") == 34  # Unicode digits, as int()
    with pytest.raises(ValueError):
        mpgpu.Integer("1", 1)
    with pytest.raises(ValueError):
        mpgpu.Integer("1", 63)
    with pytest.raises(TypeError):
        mpgpu.Integer(5, 10)


def test_huge_decimal_text_beyond_pythons_limit(ctx):
    text = "7" * 100001  # Python's int() refuses more than 4300 digits by default
    x = mpgpu.Integer(text)
    assert str(x) == text
    assert mpgpu.num_digits(x) == 100001


def test_construct_from_other_kinds(ctx):
    assert mpgpu.Integer() == 0
    assert mpgpu.Integer(True) == 1
    assert mpgpu.Integer(-3.9) == -3
    assert mpgpu.Integer(mpgpu.Integer(-7)) == -7
    import decimal
    import fractions
    assert mpgpu.Integer(decimal.Decimal("12345678901234567890.7")) == 12345678901234567890
    assert mpgpu.Integer(fractions.Fraction(-7, 2)) == -3
    with pytest.raises(OverflowError):
        mpgpu.Integer(float("inf"))
    with pytest.raises(ValueError):
        mpgpu.Integer(float("nan"))
    with pytest.raises(TypeError):
        mpgpu.Integer([1])


@pytest.mark.skipif(gmpy2 is None, reason="gmpy2 not installed")
def test_gmpy2_interop(ctx):
    for v in ADVERSARIAL + HUGE[:1]:
        z = gmpy2.mpz(v)
        x = mpgpu.Integer(z)
        assert x == v
        assert gmpy2.mpz(x) == z  # through __index__
        assert x + z == 2 * v and z + x == 2 * v


def test_to_bytes_from_bytes(ctx):
    for v in ADVERSARIAL + RANDOM:
        x = mpgpu.Integer(v)
        n = (abs(v).bit_length() + 8) // 8
        for order in ("big", "little"):
            if v >= 0:
                assert x.to_bytes(n, order) == v.to_bytes(n, order)
                assert mpgpu.Integer.from_bytes(v.to_bytes(n, order), order) == v
            assert x.to_bytes(n, order, signed=True) == v.to_bytes(n, order, signed=True)
            data = v.to_bytes(n, order, signed=True)
            assert mpgpu.Integer.from_bytes(data, order, signed=True) == v
            assert mpgpu.Integer.from_bytes(bytearray(data), order) == int.from_bytes(data, order)
    assert mpgpu.Integer(255).to_bytes() == (255).to_bytes()
    assert mpgpu.Integer(-1).to_bytes(0, signed=True) == (-1).to_bytes(0, signed=True)
    assert mpgpu.Integer.from_bytes([1, 0]) == 256
    assert mpgpu.Integer.from_bytes(b"") == 0


@pytest.mark.parametrize("v,length,signed", [(256, 1, False), (-1, 4, False), (128, 1, True), (-129, 1, True),
                                             (1, 0, False), (-2, 0, True), (2**64, 8, False)])
def test_to_bytes_overflow(ctx, v, length, signed):
    with pytest.raises(OverflowError):
        v.to_bytes(length, "big", signed=signed)
    with pytest.raises(OverflowError):
        mpgpu.Integer(v).to_bytes(length, "big", signed=signed)


def test_to_bytes_bad_byteorder(ctx):
    with pytest.raises(ValueError):
        mpgpu.Integer(1).to_bytes(1, "middle")


def test_hash_equals_int_hash(ctx):
    M = 2**61 - 1
    for v in ADVERSARIAL + RANDOM + [M, -M, M - 1, M + 1, 2 * M, -(2 * M), -2, -1]:
        assert hash(mpgpu.Integer(v)) == hash(v)
    d = {mpgpu.Integer(10**30): "a", 5: "b"}
    assert d[10**30] == "a" and d[mpgpu.Integer(5)] == "b"
    assert len({mpgpu.Integer(3), 3, 3.0}) == 1


def test_float(ctx):
    for v in ADVERSARIAL:
        if abs(v).bit_length() <= 1024:
            assert float(mpgpu.Integer(v)) == float(v)
        else:
            with pytest.raises(OverflowError):
                float(mpgpu.Integer(v))


def test_pickle_and_copy(ctx):
    import copy
    for v in (0, -1, 2**200 + 5, -(10**50)):
        x = mpgpu.Integer(v)
        assert pickle.loads(pickle.dumps(x)) == v
        assert copy.copy(x) is x and copy.deepcopy(x) is x


def test_numbers_protocol(ctx):
    import math
    import numbers
    x = mpgpu.Integer(-(10**20) - 7)
    assert isinstance(x, numbers.Integral)
    assert x.numerator == x and x.denominator == 1 and x.real == x and x.imag == 0
    assert x.as_integer_ratio() == (x, 1) and x.is_integer() and x.conjugate() == x
    assert math.trunc(x) == x and math.floor(x) == x and math.ceil(x) == x
    assert [10, 20, 30][mpgpu.Integer(1)] == 20 and list(range(mpgpu.Integer(3))) == [0, 1, 2]
    assert math.isqrt(mpgpu.Integer(10**40)) == 10**20
