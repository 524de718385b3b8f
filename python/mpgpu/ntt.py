"""The number-theoretic transform and products mod p on NumPy, CuPy and PyTorch arrays (mpgpu/ntt.hpp).

``forward`` and ``inverse`` transform uint64 (or uint32) words along the last axis, a batch of
transforms of ``2**log_n`` points each; ``pointwise_mul`` and ``poly_mul`` multiply uint64
residues mod a prime. Every function returns a new array and leaves its inputs alone: a NumPy
array for NumPy inputs (on a CUDA context the work runs on the device, the data copied there and
back), an array of the same framework on the same device for CUDA arrays (CuPy, PyTorch, any
DLPack or ``__cuda_array_interface__`` producer), computed where they are. ``PRIMES31``,
``PRIMES32``, ``PRIMES62`` and ``GOLDILOCKS`` are the library's NTT primes; any other odd prime
``p < 2**64`` with ``2**log_n`` dividing ``p - 1`` works too. See docs/python.md.
"""

from ._mpgpu import _ntt as _impl

__all__ = sorted(name for name in dir(_impl) if not name.startswith("_"))

globals().update({name: getattr(_impl, name) for name in __all__})

del _impl
