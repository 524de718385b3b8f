# Type stubs of mpgpu.batch (the functions of mpgpu._mpgpu._batch), first made
# by nanobind.stubgen, then given the argument types the bindings accept.
"""The batch operations (mpgpu.batch): each returns new batches."""

from typing import Literal, overload

import numpy

from . import Batch as Batch, _IntLike

__all__: list[str]


@overload
def add(a: Batch, b: Batch, *, carry: Literal[False] = False) -> Batch:
    """
    a + b mod 2**bits; with carry=True, (sum, carry) where carry is a 1-bit batch of the carries out.
    """
@overload
def add(a: Batch, b: Batch, *, carry: Literal[True]) -> tuple[Batch, Batch]: ...

@overload
def sub(a: Batch, b: Batch, *, borrow: Literal[False] = False) -> Batch:
    """
    a - b mod 2**bits; with borrow=True, (difference, borrow) where borrow is 1 where a < b.
    """
@overload
def sub(a: Batch, b: Batch, *, borrow: Literal[True]) -> tuple[Batch, Batch]: ...

def add_ui(a: Batch, v: _IntLike) -> Batch:
    """a + v mod 2**bits for 0 <= v < 2**64."""

def sub_ui(a: Batch, v: _IntLike) -> Batch:
    """a - v mod 2**bits for 0 <= v < 2**64."""

def mul_ui(a: Batch, v: _IntLike) -> Batch:
    """a * v mod 2**bits for 0 <= v < 2**64."""

def mul(a: Batch, b: Batch) -> Batch:
    """The low half: a * b mod 2**bits."""

def mul_high(a: Batch, b: Batch) -> Batch:
    """The high half: a * b // 2**bits."""

def mul_wide(a: Batch, b: Batch) -> Batch:
    """The whole product, 2 * bits wide."""

def sqr(a: Batch) -> Batch:
    """a * a mod 2**bits."""

def and_(a: Batch, b: Batch) -> Batch:
    """a & b."""

def ior(a: Batch, b: Batch) -> Batch:
    """a | b."""

def xor_(a: Batch, b: Batch) -> Batch:
    """a ^ b."""

def com(a: Batch) -> Batch:
    """~a within bits: 2**bits - 1 - a."""

def shift_left(a: Batch, count: _IntLike) -> Batch:
    """a << count mod 2**bits (0 for count >= bits)."""

def shift_right(a: Batch, count: _IntLike) -> Batch:
    """a >> count (0 for count >= bits)."""

def rotate_left(a: Batch, count: _IntLike) -> Batch:
    """Rotation within bits, by count mod bits."""

def rotate_right(a: Batch, count: _IntLike) -> Batch:
    """Rotation within bits, by count mod bits."""

def div_ui(a: Batch, d: _IntLike) -> Batch:
    """a // d for 0 < d < 2**64."""

def rem_ui(a: Batch, d: _IntLike) -> Batch:
    """a % d for 0 < d < 2**64 (as wide as a)."""

def div_qr(a: Batch, b: Batch) -> tuple[Batch, Batch]:
    """(a // b, a % b); ZeroDivisionError for a zero b."""

def div(a: Batch, b: Batch) -> Batch:
    """a // b."""

def rem(a: Batch, b: Batch) -> Batch:
    """a % b."""

def div_qr_wide(a: Batch, b: Batch) -> tuple[Batch, Batch]:
    """a twice as wide as b: (a // b with a's width, a % b with b's)."""

def div_wide(a: Batch, b: Batch) -> Batch:
    """a // b, a twice as wide as b."""

def rem_wide(a: Batch, b: Batch) -> Batch:
    """a % b, a twice as wide as b."""

def gcd(a: Batch, b: Batch) -> Batch:
    """gcd(a, b); gcd(a, 0) = a."""

def invert(a: Batch, m: Batch) -> Batch:
    """
    a**-1 mod m (any m > 0, also even); ValueError if some a has no inverse.
    """

def compare_signed(a: Batch, b: Batch) -> numpy.ndarray:
    """Sign of a - b, as two's complement numbers (NumPy int8 array)."""

def shift_right_arithmetic(a: Batch, count: _IntLike) -> Batch:
    """a >> count as a two's complement number (the sign shifted in)."""

def mul_high_signed(a: Batch, b: Batch) -> Batch:
    """The high half of the two's complement product."""

def compare(a: Batch, b: Batch) -> numpy.ndarray:
    """Sign of a - b per instance (NumPy int8 array of -1, 0, 1)."""

def equals(a: Batch, b: Batch) -> numpy.ndarray:
    """a == b per instance (NumPy bool array)."""

def popcount(a: Batch) -> numpy.ndarray:
    """Set bits per instance (NumPy uint32 array)."""

def count_leading_zeros(a: Batch) -> numpy.ndarray:
    """
    Leading zeros within bits per instance (bits for 0; NumPy uint32 array).
    """

def count_trailing_zeros(a: Batch) -> numpy.ndarray:
    """Trailing zeros per instance (bits for 0; NumPy uint32 array)."""

def to_montgomery(a: Batch, m: Batch) -> Batch:
    """a * R mod m, R = 2**(64 * m.stride_limbs); m odd and > 1."""

def from_montgomery(a: Batch, m: Batch) -> Batch:
    """a / R mod m."""

def montgomery_mul(a: Batch, b: Batch, m: Batch) -> Batch:
    """a * b / R mod m for a, b < m."""

def montgomery_sqr(a: Batch, m: Batch) -> Batch:
    """a * a / R mod m for a < m."""

def montgomery_reduce(a: Batch, m: Batch) -> Batch:
    """a / R mod m for a twice as wide as m (any value of that width)."""

def powm(base: Batch, exp: Batch, m: Batch, window: Literal["fixed", "sliding"] | None = None) -> Batch:
    """
    base**exp mod m per instance (m odd and > 1; exp's width class at most m's);
    window None (the library's choice), 'fixed' or 'sliding'.
    """
