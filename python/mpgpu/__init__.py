"""mpgpu: exact multi-precision integers on NVIDIA GPUs, with a CPU fallback through GMP.

``mpgpu.Integer`` behaves like Python's ``int``; the module functions carry gmpy2's names
(``isqrt``, ``gcd``, ``powmod``, ``fac``, ...), so a gmpy2 script ports by changing its import.
Values live in a context: a CUDA device or the CPU. ``mpgpu.Batch`` holds N unsigned integers
of one width, made from lists or NumPy arrays of limbs; ``mpgpu.batch`` has its operations.
``mpgpu.ntt`` and ``mpgpu.dot`` compute transforms, polynomial, dot and matrix products mod a
word-size prime, ``mpgpu.gfp`` the FFT over the big prime fields p = r**k + 1, on NumPy arrays
and on CUDA arrays (CuPy, PyTorch, any DLPack or ``__cuda_array_interface__`` producer).
See docs/python.md.
"""

import contextlib as _contextlib
import numbers as _numbers

from ._mpgpu import *  # noqa: F401,F403  (Integer, Context, the functions, the exceptions)
from ._mpgpu import Batch, Context, Integer, __version__, _current_context
from . import batch  # noqa: F401  (the batch functions: mpgpu.batch.mul_high, ...)
from . import dot, gfp, ntt  # noqa: F401  (products mod p on arrays: mpgpu.ntt.forward, mpgpu.dot.matmul, ...)

#: gmpy2's name for an integer.
mpz = Integer


@_contextlib.contextmanager
def context(ctx="auto"):
    """Make ``ctx`` (a Context or a spec: "cpu", "cuda", "cuda:N", "auto") the current
    context inside a ``with`` block: new values (Integer(x), fac(n), ...) go there.
    Per thread and per asyncio task (a contextvars.ContextVar)."""
    if not isinstance(ctx, Context):
        ctx = Context(ctx)
    token = _current_context.set(ctx)
    try:
        yield ctx
    finally:
        _current_context.reset(token)


_numbers.Integral.register(Integer)

for _t in (Integer, Context, Batch):
    _t.__module__ = "mpgpu"
del _t
