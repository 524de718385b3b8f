"""Arrays in CUDA memory for mpgpu.ntt and mpgpu.dot (called by the extension).

The results of a call on CUDA arrays are made by the framework of its inputs,
so that they are arrays of that kind, on that device, in that framework's
memory pool, freed by it when it is done with them (mpgpu never owns memory
that another library's stream may still be reading). CuPy arrays and PyTorch
tensors are taken as they are; any other CUDA array (a DLPack producer, or an
object with only ``__cuda_array_interface__``, e.g. Numba's) is wrapped as a
CuPy array without a copy, so its results are CuPy arrays.

The extension reads and writes these arrays on the context's stream, after
asking each for its DLPack capsule with that stream (so that the framework's
pending work on them comes first), and synchronizes the stream before it
returns them.
"""


def _framework(a):
    top = type(a).__module__.split(".", 1)[0]
    return top if top in ("cupy", "torch") else None


def adopt(a, fn):
    """``a`` if it is a CuPy array or a PyTorch tensor, else a CuPy view of it."""
    if _framework(a):
        return a
    try:
        import cupy
    except ImportError:
        raise TypeError(
            f"{fn}: a CUDA array of type '{type(a).__name__}' is computed on through CuPy, which is not "
            f"installed; pass a CuPy array or a PyTorch tensor, or a NumPy copy of it"
        ) from None
    if hasattr(a, "__dlpack__") and hasattr(a, "__dlpack_device__"):
        return cupy.from_dlpack(a)
    return cupy.asarray(a)


def empty(like, shape, dtype):
    """A new C-contiguous array of ``shape`` and ``dtype`` (a NumPy dtype name), of
    the framework of ``like`` and on its device."""
    if _framework(like) == "torch":
        import torch

        return torch.empty(tuple(shape), dtype=getattr(torch, dtype), device=like.device)
    import cupy

    with cupy.cuda.Device(like.device.id):
        return cupy.empty(tuple(shape), dtype=dtype)


def copy(a):
    """A C-contiguous copy of ``a`` on its device (the transforms run in place on it)."""
    if _framework(a) == "torch":
        import torch

        return a.clone(memory_format=torch.contiguous_format)
    import cupy

    with cupy.cuda.Device(a.device.id):
        return a.copy(order="C")


def gfp_first_noncanonical(a, r):
    """The flat index (row * N + i) of the first element of ``a`` (uint64 digits of shape
    (..., k, N), C-contiguous: a CuPy array or a PyTorch tensor; the CuPy path also takes
    NumPy arrays, which is how CI tests it) that is not canonical for the radix ``r``, or
    None (mpgpu.gfp; include/mpgpu/gfp/field.cuh's is_canonical): every digit below r, or
    p - 1 = r**k, which is digit k-1 equal to r and the others 0. Computed by the array's
    framework on its device; only the answer comes to the host."""
    torch = _framework(a) == "torch"
    if torch:
        import torch as lib

        signed = a.view(lib.int64)
    else:
        signed = a.view("int64")
    # Unsigned order through int64 (PyTorch has few uint64 kernels): flip the sign bit.
    flipped = signed ^ -(2**63)
    r_flipped = r - 2**63
    above = flipped > r_flipped  # a digit above r: never canonical
    at_r = flipped == r_flipped
    low_nonzero = signed[..., :-1, :] != 0
    bad = above.any(-2) | at_r[..., :-1, :].any(-2) | (at_r[..., -1, :] & low_nonzero.any(-2))
    flat = bad.reshape(-1).to(lib.int32) if torch else bad.reshape(-1).astype("int32")
    if (flat.numel() if torch else flat.size) == 0:
        return None
    first = int(flat.argmax())
    return first if int(flat[first]) else None
