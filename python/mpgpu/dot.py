"""Dot and matrix products mod p on NumPy, CuPy and PyTorch arrays (include/mpgpu/dot.hpp), exact.

``dot`` (1-D, any positive strides), ``dot_batched`` (row by row), ``matmul`` and ``matvec``
take uint64 (or uint32 for dots) residues or float64 arrays of integral residues, and a method
by name from ``METHODS`` ('automatic' picks the fastest the bounds allow; docs/dot.md).
Results are Python ints or new arrays: NumPy arrays for NumPy inputs (on a CUDA context the work
runs on the device), arrays of the inputs' framework for CUDA arrays, computed where they are.
See docs/python.md.
"""

from ._mpgpu import _dot as _impl

__all__ = sorted(name for name in dir(_impl) if not name.startswith("_"))

globals().update({name: getattr(_impl, name) for name in __all__})

del _impl
