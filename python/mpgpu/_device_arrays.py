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
