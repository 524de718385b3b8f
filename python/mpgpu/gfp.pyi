# Type stubs of mpgpu.gfp (python/mpgpu/gfp.py over mpgpu._mpgpu._gfp, the
# bindings of python/src/gfp_binding.cpp); python/tests/test_stubs.py checks
# that they name exactly the module's public names and the bindings' parameters.
"""The big prime field FFT over Z/pZ, p = r**k + 1, on NumPy, CuPy and PyTorch arrays (mpgpu.gfp).

The transforms have two signatures: a NumPy array in, a NumPy array out (on either context); an
array in CUDA memory in (CuPy, PyTorch, any DLPack or __cuda_array_interface__ producer; a CUDA
context), an array of its framework on its device out.
"""

from collections.abc import Iterable, Sequence
from typing import Any, Literal, SupportsIndex, Union, overload

from . import Context
from ._arrays import CudaArrayT, U64Array

__all__: list[str]

_Prime = Union[Literal["p3", "p4", "p5"], int, SupportsIndex]
_ContextLike = Union[Context, str]

#: The table primes by name: p = r**k + 1 ('p3': k = 8, 'p4': k = 16, 'p5': k = 32).
PRIMES: dict[str, int]

@overload
def forward(a: U64Array, prime: _Prime, *, context: _ContextLike | None = None) -> U64Array: ...
@overload
def forward(a: CudaArrayT, prime: _Prime, *, context: _ContextLike | None = None) -> CudaArrayT:
    """
    The FFT over Z/pZ, p = r**k + 1, of the N elements of a, as a new array: X[m] = sum_n x[n] *
    omega**(n*m) with the library's primitive N-th root omega (omega**(N/(2k)) = r). prime: 'p3',
    'p4', 'p5' or that prime (mpgpu.gfp.PRIMES). a: uint64 digits, shape (..., k, N), digit-major:
    a[..., d, i] is base-r digit d of element i (mpgpu.gfp.to_digits); N = (2k)**e, e >= 1; the
    leading axes are a batch of transforms. Elements must be canonical (ValueError otherwise).
    """

@overload
def inverse(a: U64Array, prime: _Prime, *, context: _ContextLike | None = None) -> U64Array: ...
@overload
def inverse(a: CudaArrayT, prime: _Prime, *, context: _ContextLike | None = None) -> CudaArrayT:
    """
    The inverse of forward(): x[n] = N**-1 * sum_m X[m] * omega**(-n*m) mod p, as a new array of
    the same layout.
    """

@overload
def pointwise_mul(a: U64Array, b: U64Array, prime: _Prime, *, context: _ContextLike | None = None) -> U64Array: ...
@overload
def pointwise_mul(a: CudaArrayT, b: CudaArrayT, prime: _Prime, *, context: _ContextLike | None = None) -> CudaArrayT:
    """
    a * b mod p element by element, as a new array: a and b of one shape (..., k, N), digit-major
    as for forward() (any N), canonical elements (ValueError otherwise). The step between forward()
    and inverse() of a cyclic convolution.
    """

def radix(prime: _Prime) -> int:
    """r of the prime p = r**k + 1 ('p3', 'p4', 'p5' or the prime)."""

def digits(prime: _Prime) -> int:
    """k of the prime p = r**k + 1: base-r digits per element."""

def modulus(prime: _Prime) -> int:
    """p = r**k + 1 as an int."""

def to_digits(values: Iterable[SupportsIndex] | Iterable[Iterable[SupportsIndex]], prime: _Prime) -> U64Array:
    """
    Elements of Z/pZ (ints in [0, p)) as a new NumPy uint64 array in the digit-major layout the
    transforms take: a sequence of N ints gives shape (k, N); a sequence of rows of N ints each,
    shape (rows, k, N). Each element is canonical: k base-r digits below r, except p - 1 = r**k
    (digit k-1 = r, the others 0).
    """

def from_digits(a: U64Array | Sequence[Any], prime: _Prime) -> list[Any]:
    """
    The elements of a digit-major array (shape (k, N), or (..., k, N) for nested lists) as ints:
    sum of a[d, i] * r**d. A NumPy array or anything numpy.asarray reads (copy a CUDA array to
    the host first: cupy.asnumpy(a), a.cpu()).
    """
