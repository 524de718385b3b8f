# Type stubs of mpgpu.dot (the functions of mpgpu._mpgpu._dot), written from
# the bindings (python/src/dot_binding.cpp); python/tests/test_stubs.py checks
# that they name exactly the module's public names.
"""Dot and matrix products mod p on NumPy arrays (mpgpu.dot), exact.

CuPy arrays and PyTorch tensors in CUDA memory are taken too (on a CUDA context; results of
their kind): the signatures name the NumPy types only.
"""

from typing import Any, Literal, SupportsIndex, TypeVar, Union

import numpy

from . import Context, Integer

__all__: list[str]

_Residues = Union[numpy.ndarray[Any, numpy.dtype[numpy.uint32]], numpy.ndarray[Any, numpy.dtype[numpy.uint64]],
                  numpy.ndarray[Any, numpy.dtype[numpy.float64]]]
_Matrix = TypeVar("_Matrix", numpy.ndarray[Any, numpy.dtype[numpy.uint64]],
                  numpy.ndarray[Any, numpy.dtype[numpy.float64]])
_Modulus = Union[int, Integer, SupportsIndex]
_ContextLike = Union[Context, str]
_Method = Literal["automatic", "integer_delayed", "fp_naive", "fp_lambda", "fp_abcd"]
_DType = Union[str, type, numpy.dtype[Any]]

#: The method names, 'automatic' last.
METHODS: tuple[str, ...]
#: The longest vector any dot takes: 2**31 elements.
MAX_LENGTH: int
#: The longest vector fp_abcd takes: 2**25 elements.
ABCD_MAX_LENGTH: int

def dot(a: _Residues, b: _Residues, p: _Modulus, *, method: _Method = "automatic",
        context: _ContextLike | None = None) -> int:
    """
    sum(a[i] * b[i]) mod p as an int, exactly: 1-D arrays of one length (any positive strides) and one
    dtype, uint32, uint64 or float64 (integral values), every value in [0, p). method: 'automatic' (the
    fastest admissible), 'integer_delayed', 'fp_naive', 'fp_lambda' or 'fp_abcd' (docs/dot.md gives
    their bounds on p and n; a method that does not take them is a ValueError). n <= 2**31.
    """

def dot_batched(a: _Residues, b: _Residues, p: _Modulus, *, method: _Method = "automatic",
                context: _ContextLike | None = None) -> numpy.ndarray[tuple[int], numpy.dtype[numpy.uint64]]:
    """
    The dot product of each row: out[i] = dot(a[i], b[i]) mod p, for C-contiguous 2-D arrays of one
    shape (count, n) and dtype; a uint64 array of count values.
    """

def matmul(A: _Matrix, B: _Matrix, p: _Modulus, *, method: _Method = "automatic",
           context: _ContextLike | None = None) -> _Matrix:
    """
    C = A @ B mod p, exactly: A (m, k) and B (k, n) of one dtype, uint64 (p < 2**64) or float64
    (integral, p - 1 < 2**52), rows contiguous (a row stride of at least the columns is fine); C a
    new (m, n) array of that dtype. method: 'automatic', 'integer_delayed' or 'fp_naive'
    (p <= 94906249).
    """

def matvec(A: _Matrix, x: _Matrix, p: _Modulus, *, method: _Method = "automatic",
           context: _ContextLike | None = None) -> _Matrix:
    """y = A @ x mod p for A (m, k) and a contiguous x of length k (as matmul)."""

def choose_method(p: _Modulus, n: int, dtype: _DType = "uint64", *, context: _ContextLike | None = None) -> str:
    """
    The method dot(method='automatic') runs for vectors of n elements of `dtype` mod p on the
    context (the CPU's and the GPU's choices differ); ValueError when no method takes p.
    """

def is_admissible(method: _Method, p: _Modulus, n: int, dtype: _DType = "uint64") -> bool:
    """Whether dot takes `method` for n elements of `dtype` mod p (its bounds on p and n)."""
