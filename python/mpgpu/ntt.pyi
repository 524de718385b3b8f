# Type stubs of mpgpu.ntt (the functions of mpgpu._mpgpu._ntt), written from
# the bindings (python/src/ntt_binding.cpp); python/tests/test_stubs.py checks
# that they name exactly the module's public names and the bindings' parameters.
"""The number-theoretic transform and products mod p on NumPy, CuPy and PyTorch arrays (mpgpu.ntt).

Each function has two signatures: NumPy arrays in, a NumPy array out (on either context); an
array in CUDA memory in (CuPy, PyTorch, any DLPack or __cuda_array_interface__ producer; a CUDA
context), an array of its framework on its device out.
"""

from typing import Literal, SupportsIndex, TypeVar, Union, overload

import numpy

from . import Context, Integer
from ._arrays import CudaArrayT, U32Array, U64Array

__all__: list[str]

_Words = TypeVar("_Words", numpy.ndarray[tuple[int, ...], numpy.dtype[numpy.uint64]],
                 numpy.ndarray[tuple[int, ...], numpy.dtype[numpy.uint32]])
_Modulus = Union[int, Integer, SupportsIndex]
_ContextLike = Union[Context, str]
_Order = Literal["natural", "bit_reversed"]

#: The longest transform: 2**28 points.
MAX_LOG_N: int
#: The library's NTT primes: below 2**31, between 2**31 and 2**32, between 2**61 and 2**62.
PRIMES31: tuple[int, ...]
PRIMES32: tuple[int, ...]
PRIMES62: tuple[int, ...]
#: 2**64 - 2**32 + 1.
GOLDILOCKS: int

@overload
def forward(a: _Words, p: _Modulus, *, order: _Order = "natural", context: _ContextLike | None = None) -> _Words: ...
@overload
def forward(a: CudaArrayT, p: _Modulus, *, order: _Order = "natural",
            context: _ContextLike | None = None) -> CudaArrayT:
    """
    The NTT mod p along the last axis of a (uint64, or uint32 with p < 2**32), as a new array:
    X[k] = sum_j a[j] * w**(j*k) mod p, w = g**((p-1)/n) for the primitive root g of the library's
    table (the smallest one for other primes). The last axis has n = 2**log_n points, 1 <= n <= 2**28,
    n dividing p - 1; the others are a batch of transforms. Values must be in [0, p).
    order='bit_reversed' leaves the output in bit-reversed index order (no permutation pass).
    """

@overload
def inverse(a: _Words, p: _Modulus, *, order: _Order = "natural", context: _ContextLike | None = None) -> _Words: ...
@overload
def inverse(a: CudaArrayT, p: _Modulus, *, order: _Order = "natural",
            context: _ContextLike | None = None) -> CudaArrayT:
    """
    The inverse of forward(): a[j] = n**-1 * sum_k X[k] * w**(-j*k) mod p, as a new array.
    order='bit_reversed' takes the input in bit-reversed index order (forward's with that order).
    """

@overload
def pointwise_mul(a: U64Array, b: U64Array, p: _Modulus, *, context: _ContextLike | None = None) -> U64Array: ...
@overload
def pointwise_mul(a: CudaArrayT, b: CudaArrayT, p: _Modulus, *, context: _ContextLike | None = None) -> CudaArrayT:
    """a * b mod p element by element (uint64 arrays of one shape, values in [0, p); p prime)."""

@overload
def poly_mul(a: U64Array, b: U64Array, p: _Modulus, *, context: _ContextLike | None = None) -> U64Array: ...
@overload
def poly_mul(a: CudaArrayT, b: CudaArrayT, p: _Modulus, *, context: _ContextLike | None = None) -> CudaArrayT:
    """
    The polynomial product a * b mod p (coefficient i of x**i along the last axis, uint64):
    len(a) + len(b) - 1 coefficients (none when a or b has none). Arrays of more axes hold one
    product per row (the same leading axes). The padded length 2**n >= len(a) + len(b) - 1 must
    divide p - 1 and be at most 2**28.
    """

def max_log_n(p: _Modulus) -> int:
    """
    The largest log_n with transforms of 2**log_n points mod the prime p: min(28, the 2-adic
    valuation of p - 1).
    """
