# Type stubs of the package mpgpu (the compiled module mpgpu._mpgpu and
# python/mpgpu/__init__.py), first made by nanobind.stubgen from the module,
# then given the argument types the bindings accept (python/tests/test_stubs.py checks
# that every public name of the package is here, and nothing else).
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

import contextlib
from collections.abc import Iterable, Iterator
from typing import Any, ClassVar, Protocol, SupportsIndex, SupportsInt, Union

import numpy

from . import batch as batch
from . import dot as dot
from . import gfp as gfp
from . import ntt as ntt
from ._arrays import CudaArray as _CudaArray

__version__: str

#: An integer operand: an int, an Integer, or anything with __index__ (gmpy2.mpz, NumPy integers).
_IntLike = Union[int, "Integer", SupportsIndex]
#: A context or its spec: "cpu", "cuda", "cuda:N", "auto".
_ContextLike = Union["Context", str]

class _Buffer(Protocol):
    def __buffer__(self, flags: int, /) -> memoryview: ...

#: What Batch reads as limbs: a NumPy array, a buffer, a DLPack producer (CuPy, PyTorch), or
#: an object with __cuda_array_interface__ (on a CUDA context, read on the device).
_ArrayLike = Union[numpy.ndarray[Any, numpy.dtype[numpy.uint64]], _Buffer, _CudaArray]

class ParseError(ValueError):
    """A string is not an integer; .position is the offset of the bad character."""
    position: int

class OutOfMemoryError(MemoryError):
    """Device memory could not be had; .requested_bytes, .free_bytes."""
    requested_bytes: int
    free_bytes: int

class CudaError(RuntimeError):
    """A CUDA runtime call failed; .code is the cudaError_t."""
    code: int

class BackendUnavailable(RuntimeError):
    """No CUDA device, or this mpgpu was built without CUDA."""

class Context:
    """
    Where integers live and run: a CUDA device ('cuda:N') or the CPU through GMP ('cpu').
    Context('auto') is CUDA device 0 when usable, else the CPU. One context per device:
    equal specs give equal contexts, whose values mix.
    """

    def __init__(self, spec: _ContextLike = 'auto') -> None: ...

    @property
    def backend(self) -> str:
        """'cuda' or 'cpu'."""

    @property
    def device(self) -> int:
        """The CUDA device index, -1 for the CPU."""

    @property
    def is_cuda(self) -> bool:
        """Whether the context is a CUDA device."""

    def synchronize(self) -> None:
        """Waits until the work queued on the context's stream has finished."""

    def info(self) -> dict[str, Any]:
        """The device's properties (what `mpgpu info` prints), as a dict."""

    def describe(self) -> str:
        """The context in words: 'cpu' or 'cuda:N (the device's name)'."""

    def __repr__(self) -> str: ...

    def __str__(self) -> str: ...

    def __eq__(self, other: object, /) -> bool: ...

    def __hash__(self) -> int: ...

def get_default_context() -> Context:
    """The context used outside `with mpgpu.context(...)` blocks."""

def set_default_context(context: _ContextLike | None) -> None:
    """Sets the process-wide default context (a Context, a spec, or None)."""

def get_context() -> Context:
    """The context new values go to in this thread or task."""

def cuda_device_count() -> int:
    """Usable CUDA devices (0 without CUDA support)."""

def built_with_cuda() -> bool:
    """Whether this mpgpu has its CUDA backend."""

class Integer:
    """
    An integer of any size in an mpgpu context (GPU memory on a CUDA context), behaving
    like Python's int: Integer(x=0, base=None, *, context=None) takes an int, a str
    (int()'s syntax: base 0, 2..36, or 37..62 with GMP's digits), bytes as text, an
    Integer, a gmpy2.mpz or anything int() takes. Immutable and hashable.
    """

    def __init__(self, x: _IntLike | str | bytes | bytearray | SupportsInt = 0, base: int | None = None, *, context: _ContextLike | None = None) -> None: ...

    def __add__(self, other: _IntLike, /) -> Integer: ...

    def __radd__(self, other: _IntLike, /) -> Integer: ...

    def __sub__(self, other: _IntLike, /) -> Integer: ...

    def __rsub__(self, other: _IntLike, /) -> Integer: ...

    def __mul__(self, other: _IntLike, /) -> Integer: ...

    def __rmul__(self, other: _IntLike, /) -> Integer: ...

    def __floordiv__(self, other: _IntLike, /) -> Integer: ...

    def __rfloordiv__(self, other: _IntLike, /) -> Integer: ...

    def __mod__(self, other: _IntLike, /) -> Integer: ...

    def __rmod__(self, other: _IntLike, /) -> Integer: ...

    def __and__(self, other: _IntLike, /) -> Integer: ...

    def __rand__(self, other: _IntLike, /) -> Integer: ...

    def __or__(self, other: _IntLike, /) -> Integer: ...

    def __ror__(self, other: _IntLike, /) -> Integer: ...

    def __xor__(self, other: _IntLike, /) -> Integer: ...

    def __rxor__(self, other: _IntLike, /) -> Integer: ...

    def __divmod__(self, other: _IntLike, /) -> tuple[Integer, Integer]: ...

    def __rdivmod__(self, other: _IntLike, /) -> tuple[Integer, Integer]: ...

    def __truediv__(self, other: _IntLike | float, /) -> float: ...

    def __rtruediv__(self, other: _IntLike | float, /) -> float: ...

    def __pow__(self, exp: _IntLike, mod: _IntLike | None = None) -> Integer | float: ...

    def __rpow__(self, base: _IntLike, mod: _IntLike | None = None) -> Integer | float: ...

    def __lshift__(self, other: _IntLike, /) -> Integer: ...

    def __rlshift__(self, other: _IntLike, /) -> Integer: ...

    def __rshift__(self, other: _IntLike, /) -> Integer: ...

    def __rrshift__(self, other: _IntLike, /) -> Integer: ...

    def __neg__(self) -> Integer: ...

    def __pos__(self) -> Integer: ...

    def __abs__(self) -> Integer: ...

    def __invert__(self) -> Integer: ...

    def __bool__(self) -> bool: ...

    def __round__(self, ndigits: SupportsIndex | None = None) -> Integer: ...

    def __trunc__(self) -> Integer: ...

    def __floor__(self) -> Integer: ...

    def __ceil__(self) -> Integer: ...

    def __copy__(self) -> Integer: ...

    def conjugate(self) -> Integer:
        """x itself (as int.conjugate)."""

    def __deepcopy__(self, memo: object) -> Integer: ...

    def __eq__(self, other: object, /) -> bool: ...

    def __ne__(self, other: object, /) -> bool: ...

    def __lt__(self, other: object, /) -> bool: ...

    def __le__(self, other: object, /) -> bool: ...

    def __gt__(self, other: object, /) -> bool: ...

    def __ge__(self, other: object, /) -> bool: ...

    def __hash__(self) -> int: ...

    def __int__(self) -> int: ...

    def __index__(self) -> int: ...

    def __float__(self) -> float: ...

    def __str__(self) -> str: ...

    def __repr__(self) -> str: ...

    def __format__(self, format_spec: str) -> str: ...

    def to_bytes(self, length: int = 1, byteorder: str = 'big', *, signed: bool = False) -> bytes:
        """As int.to_bytes."""

    @staticmethod
    def from_bytes(bytes: _Buffer | Iterable[SupportsIndex], byteorder: str = 'big', *, signed: bool = False, context: _ContextLike | None = None) -> Integer:
        """As int.from_bytes, in the current context or `context`."""

    def digits(self, base: int = 10) -> str:
        """The digits in `base` (2..62), as gmpy2's mpz.digits (no prefix)."""

    def __getstate__(self) -> tuple[int, bytes]: ...

    def __setstate__(self, arg: tuple[int, bytes], /) -> None: ...

    def bit_length(self) -> int:
        """Bits of |x|, 0 for 0 (as int.bit_length)."""

    def bit_count(self) -> int:
        """Ones in the binary form of |x|, as int.bit_count."""

    def as_integer_ratio(self) -> tuple[Integer, Integer]:
        """(x, 1) (as int.as_integer_ratio)."""

    def is_integer(self) -> bool:
        """True (as int.is_integer)."""

    @property
    def numerator(self) -> Integer:
        """x itself (as int.numerator)."""

    @property
    def real(self) -> Integer:
        """x itself (as int.real)."""

    @property
    def denominator(self) -> Integer:
        """1 (as int.denominator)."""

    @property
    def imag(self) -> Integer:
        """0 (as int.imag)."""

    @property
    def context(self) -> Context:
        """The context the value lives in."""

    def to_context(self, context: _ContextLike) -> Integer:
        """
        A copy of the value in another context (a Context or a spec such as 'cpu').
        """

def isqrt(x: _IntLike) -> Integer:
    """The integer square root of x >= 0."""

def isqrt_rem(x: _IntLike) -> tuple[Integer, Integer]:
    """(s, x - s*s) with s = isqrt(x)."""

def iroot(x: _IntLike, n: _IntLike) -> tuple[Integer, bool]:
    """(the integer n-th root of x >= 0, whether it is exact)."""

def iroot_rem(x: _IntLike, n: _IntLike) -> tuple[Integer, Integer]:
    """(r, x - r**n) with r the integer n-th root of x >= 0."""

def is_square(x: _IntLike) -> bool:
    """Whether x is a perfect square (False for x < 0)."""

def gcd(*args: _IntLike) -> Integer:
    """The greatest common divisor of any number of integers (0 for none)."""

def lcm(*args: _IntLike) -> Integer:
    """The least common multiple of any number of integers (1 for none)."""

def gcdext(x: _IntLike, y: _IntLike) -> tuple[Integer, Integer, Integer]:
    """(g, s, t) with g = gcd(x, y) = x*s + y*t (GMP's s and t)."""

def invert(x: _IntLike, m: _IntLike) -> Integer:
    """
    y with x*y = 1 (mod m), in [0, |m|); ZeroDivisionError if there is none.
    """

def powmod(x: _IntLike, y: _IntLike, m: _IntLike) -> Integer:
    """pow(x, y, m), a negative y through the inverse."""

def divexact(x: _IntLike, y: _IntLike) -> Integer:
    """x / y when y divides x (faster; the result is unspecified otherwise)."""

def is_divisible(x: _IntLike, d: _IntLike) -> bool:
    """Whether d divides x (d = 0 divides only 0)."""

def is_congruent(x: _IntLike, y: _IntLike, m: _IntLike) -> bool:
    """Whether x = y (mod m) (m = 0: whether x == y)."""

def fac(n: _IntLike) -> Integer:
    """n!"""

def fib(n: _IntLike) -> Integer:
    """The n-th Fibonacci number (fib(0) = 0)."""

def lucas(n: _IntLike) -> Integer:
    """The n-th Lucas number (lucas(0) = 2)."""

def comb(n: _IntLike, k: _IntLike) -> Integer:
    """The binomial coefficient (n k), any n, k >= 0."""

def t_div(x: _IntLike, y: _IntLike) -> Integer:
    """x / y rounded toward zero (C's truncation)."""

def t_mod(x: _IntLike, y: _IntLike) -> Integer:
    """x - y * t_div(x, y): the remainder with the sign of x."""

def t_divmod(x: _IntLike, y: _IntLike) -> tuple[Integer, Integer]:
    """(t_div(x, y), t_mod(x, y))."""

def f_div(x: _IntLike, y: _IntLike) -> Integer:
    """x / y rounded toward minus infinity (Python's x // y)."""

def f_mod(x: _IntLike, y: _IntLike) -> Integer:
    """x - y * f_div(x, y): the remainder with the sign of y (Python's x % y)."""

def f_divmod(x: _IntLike, y: _IntLike) -> tuple[Integer, Integer]:
    """(f_div(x, y), f_mod(x, y)): Python's divmod(x, y)."""

def c_div(x: _IntLike, y: _IntLike) -> Integer:
    """x / y rounded toward plus infinity."""

def c_mod(x: _IntLike, y: _IntLike) -> Integer:
    """x - y * c_div(x, y): the remainder with the sign opposite to y's."""

def c_divmod(x: _IntLike, y: _IntLike) -> tuple[Integer, Integer]:
    """(c_div(x, y), c_mod(x, y))."""

def t_div_2exp(x: _IntLike, n: _IntLike) -> Integer:
    """x / 2**n rounded toward zero (n >= 0)."""

def t_mod_2exp(x: _IntLike, n: _IntLike) -> Integer:
    """x - 2**n * t_div_2exp(x, n): the low n bits of |x|, with the sign of x."""

def t_divmod_2exp(x: _IntLike, n: _IntLike) -> tuple[Integer, Integer]:
    """(t_div_2exp(x, n), t_mod_2exp(x, n))."""

def f_div_2exp(x: _IntLike, n: _IntLike) -> Integer:
    """x / 2**n rounded toward minus infinity: x >> n (n >= 0)."""

def f_mod_2exp(x: _IntLike, n: _IntLike) -> Integer:
    """x - 2**n * f_div_2exp(x, n): the low n bits of x's two's complement, x & (2**n - 1)."""

def f_divmod_2exp(x: _IntLike, n: _IntLike) -> tuple[Integer, Integer]:
    """(f_div_2exp(x, n), f_mod_2exp(x, n))."""

def c_div_2exp(x: _IntLike, n: _IntLike) -> Integer:
    """x / 2**n rounded toward plus infinity (n >= 0)."""

def c_mod_2exp(x: _IntLike, n: _IntLike) -> Integer:
    """x - 2**n * c_div_2exp(x, n): in (-2**n, 0] (0 when 2**n divides x)."""

def c_divmod_2exp(x: _IntLike, n: _IntLike) -> tuple[Integer, Integer]:
    """(c_div_2exp(x, n), c_mod_2exp(x, n))."""

def popcount(x: _IntLike) -> int:
    """Ones in x's binary form; -1 for x < 0 (infinitely many)."""

def bit_length(x: _IntLike) -> int:
    """Bits of |x| (0 for 0)."""

def num_digits(x: _IntLike, base: int = 10) -> int:
    """
    Digits of |x| in base (2..62): exact, unlike gmpy2's (which may be 1 more).
    """

def digits(x: _IntLike, base: int = 10) -> str:
    """x in base (2..62), no prefix."""

def bit_test(x: _IntLike, n: _IntLike) -> bool:
    """Bit n of x (two's complement for x < 0)."""

def bit_set(x: _IntLike, n: _IntLike) -> Integer:
    """x with bit n set (two's complement for x < 0)."""

def bit_clear(x: _IntLike, n: _IntLike) -> Integer:
    """x with bit n cleared (two's complement for x < 0)."""

def bit_flip(x: _IntLike, n: _IntLike) -> Integer:
    """x with bit n inverted (two's complement for x < 0)."""

def is_even(x: _IntLike) -> bool:
    """Whether x is even."""

def is_odd(x: _IntLike) -> bool:
    """Whether x is odd."""

def sign(x: _IntLike) -> int:
    """-1, 0 or 1."""

class Batch:
    """
    N unsigned integers of one width (1 to 2**18 bits), every operation mod 2**bits.

    Batch(values, bits=None, *, signed=False, context=None) takes a list (or any iterable)
    of ints with `bits` given (0 <= v < 2**bits; signed=True stores -2**(bits-1) <= v <
    2**(bits-1) as two's complement), or an array of uint64 limbs of shape (n, limbs) or
    (n,), GMP's order (least significant limb first), C-contiguous: a NumPy array or any
    buffer or DLPack producer; bits defaults to 64 * limbs. On a CUDA context a CUDA array
    (CuPy, PyTorch: DLPack, or only __cuda_array_interface__) is read on the device, after
    its producer's pending work, and its rows may be further apart than their limbs;
    rows already in the batch's layout (stride_limbs limbs each, adjacent) are adopted
    without a copy: the batch then shares the array's memory.
    Values are never truncated: one that does not fit raises ValueError. Immutable:
    operations give new batches.
    """

    def __init__(self, values: Iterable[_IntLike] | _ArrayLike | Batch, bits: int | None = None, *, signed: bool = False, context: _ContextLike | None = None) -> None: ...

    @staticmethod
    def zeros(count: int, bits: int, *, context: _ContextLike | None = None) -> Batch:
        """`count` zeros of `bits` bits."""

    @staticmethod
    def full(count: int, value: _IntLike, bits: int, *, context: _ContextLike | None = None) -> Batch:
        """`count` copies of value mod 2**bits."""

    @staticmethod
    def random(count: int, bits: int, seed: int = 0, *, context: _ContextLike | None = None) -> Batch:
        """
        Values drawn uniformly from [0, 2**bits), the same for a seed on every context.
        """

    @staticmethod
    def from_numpy(array: _ArrayLike, bits: int | None = None, *, context: _ContextLike | None = None) -> Batch:
        """
        From uint64 limbs of shape (n, limbs) or (n,) (NumPy, a buffer, a DLPack producer, or
        __cuda_array_interface__), as Batch(array, bits) reads them.
        """

    @staticmethod
    def from_bytes(data: _Buffer, bytes_per_instance: int, bits: int | None = None, byteorder: str = 'little', *, context: _ContextLike | None = None) -> Batch:
        """
        From consecutive instances of bytes_per_instance bytes each (bits defaults to 8 per byte).
        """

    @property
    def count(self) -> int:
        """The number of instances (also len(batch))."""

    @property
    def bits(self) -> int:
        """The width: every value is below 2**bits."""

    @property
    def limbs(self) -> int:
        """64-bit limbs per instance that carry data: ceil(bits / 64)."""

    @property
    def stride_limbs(self) -> int:
        """Limbs between consecutive instances in storage (the width class)."""

    @property
    def context(self) -> Context:
        """The context the batch lives in."""

    def __len__(self) -> int: ...

    def __getitem__(self, index: SupportsIndex) -> int:
        """Instance `index` as an int."""

    def __iter__(self) -> Iterator[int]: ...

    def __repr__(self) -> str: ...

    def to_list(self, *, signed: bool = False) -> list[int]:
        """
        The values as ints (signed=True: read as two's complement of `bits` bits).
        """

    def to_integers(self, context: _ContextLike | None = None, *, signed: bool = False) -> list[Integer]:
        """
        The values as mpgpu.Integer in `context` (default: the current one; signed=True: read as two's complement of `bits` bits). From a CUDA batch into a context of its GPU they never leave the device.
        """

    def to_numpy(self) -> numpy.ndarray:
        """The limbs as a new NumPy uint64 array of shape (count, limbs)."""

    def to_bytes(self, length: int | None = None, byteorder: str = 'little') -> bytes:
        """
        Each instance as `length` bytes (default ceil(bits / 8)), concatenated; OverflowError if one does not fit.
        """

    def to_context(self, context: _ContextLike) -> Batch:
        """A copy in another context (a Context or a spec such as 'cpu')."""

    def copy(self) -> Batch:
        """A copy with storage of its own."""

    def __copy__(self) -> Batch: ...

    def __deepcopy__(self, memo: object) -> Batch: ...

    def __getstate__(self) -> tuple[int, int, bytes]: ...

    def __setstate__(self, arg: tuple[int, int, bytes], /) -> None: ...

    def __dlpack__(self, **kwargs: Any) -> Any:
        """
        A DLPack capsule over the storage (shape (count, limbs), row stride stride_limbs), for
        numpy.from_dlpack, cupy.from_dlpack, torch.from_dlpack. On a CUDA context the work queued
        on the context's stream is finished first; the view keeps the storage alive.
        """

    def __dlpack_device__(self) -> tuple[int, int]: ...

    @property
    def __cuda_array_interface__(self) -> dict[str, Any]:
        """
        On a CUDA context: the storage as CUDA Array Interface v3 (AttributeError on the CPU).
        """

    def __add__(self, other: Batch | _IntLike, /) -> Batch: ...

    def __radd__(self, other: Batch | _IntLike, /) -> Batch: ...

    def __sub__(self, other: Batch | _IntLike, /) -> Batch: ...

    def __rsub__(self, other: Batch | _IntLike, /) -> Batch: ...

    def __mul__(self, other: Batch | _IntLike, /) -> Batch: ...

    def __rmul__(self, other: Batch | _IntLike, /) -> Batch: ...

    def __and__(self, other: Batch | _IntLike, /) -> Batch: ...

    def __rand__(self, other: Batch | _IntLike, /) -> Batch: ...

    def __or__(self, other: Batch | _IntLike, /) -> Batch: ...

    def __ror__(self, other: Batch | _IntLike, /) -> Batch: ...

    def __xor__(self, other: Batch | _IntLike, /) -> Batch: ...

    def __rxor__(self, other: Batch | _IntLike, /) -> Batch: ...

    def __floordiv__(self, other: Batch | _IntLike, /) -> Batch: ...

    def __mod__(self, other: Batch | _IntLike, /) -> Batch: ...

    def __divmod__(self, other: Batch | _IntLike, /) -> tuple[Batch, Batch]: ...

    def __rfloordiv__(self, other: Batch | _IntLike, /) -> Batch: ...

    def __rmod__(self, other: Batch | _IntLike, /) -> Batch: ...

    def __rdivmod__(self, other: Batch | _IntLike, /) -> tuple[Batch, Batch]: ...

    def __lshift__(self, other: Batch | _IntLike, /) -> Batch: ...

    def __rshift__(self, other: Batch | _IntLike, /) -> Batch: ...

    def __pow__(self, exp: Batch | _IntLike, mod: Batch | _IntLike | None = None) -> Batch: ...

    def __neg__(self) -> Batch: ...

    def __pos__(self) -> Batch: ...

    def __invert__(self) -> Batch: ...

    def __eq__(self, other: object, /) -> bool: ...

    def __ne__(self, other: object, /) -> bool: ...

    __hash__: ClassVar[None]  # type: ignore[assignment]

    __array_ufunc__: ClassVar[None]


#: gmpy2's name for an integer.
mpz = Integer

def context(ctx: _ContextLike = "auto") -> contextlib.AbstractContextManager[Context]:
    """Make ``ctx`` (a Context or a spec: "cpu", "cuda", "cuda:N", "auto") the current
    context inside a ``with`` block: new values (Integer(x), fac(n), ...) go there.
    Per thread and per asyncio task (a contextvars.ContextVar)."""
