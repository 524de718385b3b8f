"""The big prime field FFT over Z/pZ, p = r**k + 1, on NumPy, CuPy and PyTorch arrays
(include/mpgpu/gfp.hpp, seed 003; docs/gfp.md).

``forward`` and ``inverse`` transform N = (2k)**e elements of Z/pZ for the table primes
``PRIMES`` ('p3': 505 bits, k = 8; 'p4': 993 bits, k = 16; 'p5': 1985 bits, k = 32). An
element is k base-r digits (r < 2**64), and an array of them is the library's digit-major
layout: uint64 of shape (..., k, N), ``a[..., d, i]`` digit d of element i; ``to_digits`` and
``from_digits`` convert between Python ints and that layout. Every call returns a new array
and leaves its input alone: a NumPy array for NumPy inputs (on a CUDA context the work runs on
the device, the data copied there and back), an array of the same framework on the same
device for CUDA arrays (CuPy, PyTorch, any DLPack or ``__cuda_array_interface__`` producer;
the last as CuPy arrays), computed where they are. See docs/python.md.
"""

from ._mpgpu import _gfp as _impl

__all__ = ["PRIMES", "digits", "forward", "from_digits", "inverse", "modulus", "pointwise_mul", "radix", "to_digits"]

forward = _impl.forward
inverse = _impl.inverse
pointwise_mul = _impl.pointwise_mul

_TABLE = {name: (r, k) for name, r, k in _impl._TABLE}

#: The table primes by name: p = r**k + 1.
PRIMES = {name: r**k + 1 for name, (r, k) in _TABLE.items()}


def _entry(prime):
    if isinstance(prime, str):
        if prime in _TABLE:
            return _TABLE[prime]
        raise ValueError(f"mpgpu.gfp: prime must be 'p3', 'p4', 'p5' or one of those primes, not {prime!r}")
    value = prime.__index__() if hasattr(prime, "__index__") else None
    if value is None:
        raise TypeError(f"mpgpu.gfp: prime must be 'p3', 'p4', 'p5' or the int p = r**k + 1, "
                        f"not '{type(prime).__name__}'")
    for name, p in PRIMES.items():
        if p == value:
            return _TABLE[name]
    raise ValueError("mpgpu.gfp: the FFT is built for the table primes p3, p4 and p5 (mpgpu.gfp.PRIMES)")


def radix(prime):
    """r of the prime p = r**k + 1 ('p3', 'p4', 'p5' or the prime)."""
    return _entry(prime)[0]


def digits(prime):
    """k of the prime p = r**k + 1: base-r digits per element."""
    return _entry(prime)[1]


def modulus(prime):
    """p = r**k + 1 as an int."""
    r, k = _entry(prime)
    return r**k + 1


def _element_digits(x, r, k, p):
    x = x.__index__()
    if not 0 <= x < p:
        raise ValueError(f"mpgpu.gfp.to_digits: {x} is not in [0, p)")
    if x == p - 1:  # r**k: the one element with a digit equal to r
        return [0] * (k - 1) + [r]
    out = []
    for _ in range(k):
        x, d = divmod(x, r)
        out.append(d)
    return out


def to_digits(values, prime):
    """
    Elements of Z/pZ (ints in [0, p)) as a new NumPy uint64 array in the digit-major layout the
    transforms take: a sequence of N ints gives shape (k, N); a sequence of rows of N ints each,
    shape (rows, k, N). Each element is canonical: k base-r digits below r, except p - 1 = r**k
    (digit k-1 = r, the others 0).
    """
    import numpy

    r, k = _entry(prime)
    p = r**k + 1
    values = list(values)
    if values and not hasattr(values[0], "__index__"):
        rows = [to_digits(row, prime) for row in values]
        if len({row.shape for row in rows}) > 1:
            raise ValueError("mpgpu.gfp.to_digits: the rows have different lengths")
        return numpy.stack(rows)
    columns = [_element_digits(x, r, k, p) for x in values]
    out = numpy.empty((k, len(columns)), dtype=numpy.uint64)
    for i, column in enumerate(columns):
        out[:, i] = column
    return out


def from_digits(a, prime):
    """
    The elements of a digit-major array (shape (k, N), or (..., k, N) for nested lists) as ints:
    sum of a[d, i] * r**d. A NumPy array or anything numpy.asarray reads (copy a CUDA array to
    the host first: cupy.asnumpy(a), a.cpu()).
    """
    import numpy

    r, k = _entry(prime)
    a = numpy.asarray(a)
    if a.ndim < 2 or a.shape[-2] != k:
        raise ValueError(f"mpgpu.gfp.from_digits: a must have shape (..., {k}, N), not {a.shape}")
    if a.ndim > 2:
        return [from_digits(row, prime) for row in a]
    columns = a.T.tolist()
    out = []
    for column in columns:
        x = 0
        for d in reversed(column):
            x = x * r + d
        out.append(x)
    return out
