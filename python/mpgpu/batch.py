"""Batch operations: functions over ``mpgpu.Batch`` (N unsigned integers of one width), each
returning new batches, with the names of the C++ API (include/mpgpu/batch.hpp).

Operands of one call share their count and context and, unless a function says otherwise,
their width; results are reduced mod ``2**bits``. The operators of ``Batch`` (``+ - * // %
& | ^ ~ << >>``, ``divmod``, ``pow(a, e, m)``) call these. Per-instance answers
(``compare``, ``equals``, ``popcount``, ...) are NumPy arrays. See docs/python.md.
"""

from ._mpgpu import Batch
from ._mpgpu import _batch as _impl

__all__ = ["Batch"] + sorted(name for name in dir(_impl) if not name.startswith("_"))

globals().update({name: getattr(_impl, name) for name in __all__ if name != "Batch"})

del _impl
