# Types shared by the package's stubs (a stub only: there is no module
# mpgpu._arrays at run time, and nothing here is public). What the functions
# on arrays take: NumPy arrays, and arrays in CUDA memory from any framework
# through DLPack or the CUDA Array Interface.
"""Array types for the stubs of mpgpu (stub only)."""

from typing import Any, Protocol, TypeVar, Union

import numpy

class DLPackArray(Protocol):
    """A DLPack producer: CuPy arrays, PyTorch tensors, JAX arrays (and NumPy arrays)."""

    def __dlpack__(self, *args: Any, **kwargs: Any) -> Any: ...
    def __dlpack_device__(self) -> Any: ...

class CudaArrayInterface(Protocol):
    """An object with the CUDA Array Interface (Numba device arrays, CuPy, PyTorch)."""

    @property
    def __cuda_array_interface__(self) -> dict[str, Any]: ...

#: An array in CUDA memory, read in place on a CUDA context (a ValueError on the CPU context).
CudaArray = Union[DLPackArray, CudaArrayInterface]

#: A CUDA array, and the result of a call on it: CuPy arrays give CuPy arrays and PyTorch tensors
#: give PyTorch tensors, on the same device. (Other producers are read through CuPy and give CuPy
#: arrays, which these stubs cannot name without CuPy's.)
CudaArrayT = TypeVar("CudaArrayT", bound=CudaArray)

U64Array = numpy.ndarray[Any, numpy.dtype[numpy.uint64]]
U32Array = numpy.ndarray[Any, numpy.dtype[numpy.uint32]]
F64Array = numpy.ndarray[Any, numpy.dtype[numpy.float64]]
