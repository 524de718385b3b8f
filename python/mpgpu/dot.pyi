# Type stubs of mpgpu.dot (the functions of mpgpu._mpgpu._dot), written from
# the bindings (python/src/dot_binding.cpp); python/tests/test_stubs.py checks
# that they name exactly the module's public names and the bindings' parameters.
"""Dot and matrix products mod p on NumPy, CuPy and PyTorch arrays (mpgpu.dot), exact.

Array results have two signatures: NumPy arrays in, a NumPy array out (on either context); an
array in CUDA memory in (CuPy, PyTorch, any DLPack or __cuda_array_interface__ producer; a CUDA
context), an array of its framework on its device out. dot() gives an int either way.
"""

from typing import Any, Literal, SupportsIndex, TypeVar, Union, overload

import numpy

from . import Context, Integer
from ._arrays import CudaArray, CudaArrayT

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

def dot(a: _Residues | CudaArray, b: _Residues | CudaArray, p: _Modulus, *, method: _Method = "automatic",
        context: _ContextLike | None = None) -> int:
    """
    sum(a[i] * b[i]) mod p as an int, exactly: 1-D arrays of one length (any positive strides) and one
    dtype, uint32, uint64 or float64 (integral values), every value in [0, p). method: 'automatic' (the
    fastest admissible), 'integer_delayed', 'fp_naive', 'fp_lambda' or 'fp_abcd' (docs/dot.md gives
    their bounds on p and n; a method that does not take them is a ValueError). n <= 2**31.
    """

@overload
def dot_batched(a: _Residues, b: _Residues, p: _Modulus, *, method: _Method = "automatic",
                context: _ContextLike | None = None) -> numpy.ndarray[tuple[int], numpy.dtype[numpy.uint64]]: ...
@overload
def dot_batched(a: CudaArrayT, b: CudaArrayT, p: _Modulus, *, method: _Method = "automatic",
                context: _ContextLike | None = None) -> CudaArrayT:
    """
    The dot product of each row: out[i] = dot(a[i], b[i]) mod p, for C-contiguous 2-D arrays of one
    shape (count, n) and dtype; a uint64 array of count values.
    """

@overload
def matmul(A: _Matrix, B: _Matrix, p: _Modulus, *, method: _Method = "automatic",
           context: _ContextLike | None = None) -> _Matrix: ...
@overload
def matmul(A: CudaArrayT, B: CudaArrayT, p: _Modulus, *, method: _Method = "automatic",
           context: _ContextLike | None = None) -> CudaArrayT:
    """
    C = A @ B mod p, exactly: A (m, k) and B (k, n) of one dtype, uint64 (p < 2**64) or float64
    (integral, p - 1 < 2**52), rows contiguous (a row stride of at least the columns is fine); C a
    new (m, n) array of that dtype. method: 'automatic', 'integer_delayed' or 'fp_naive'
    (p <= 94906249).
    """

@overload
def matvec(A: _Matrix, x: _Matrix, p: _Modulus, *, method: _Method = "automatic",
           context: _ContextLike | None = None) -> _Matrix: ...
@overload
def matvec(A: CudaArrayT, x: CudaArrayT, p: _Modulus, *, method: _Method = "automatic",
           context: _ContextLike | None = None) -> CudaArrayT:
    """y = A @ x mod p for A (m, k) and a contiguous x of length k (as matmul)."""

def choose_method(p: _Modulus, n: int, dtype: _DType = "uint64", *, context: _ContextLike | None = None) -> str:
    """
    The method dot(method='automatic') runs for vectors of n elements of `dtype` mod p on the
    context (the CPU's and the GPU's choices differ); ValueError when no method takes p.
    """

def is_admissible(method: _Method, p: _Modulus, n: int, dtype: _DType = "uint64") -> bool:
    """Whether dot takes `method` for n elements of `dtype` mod p (its bounds on p and n)."""
