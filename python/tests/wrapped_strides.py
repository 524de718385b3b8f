# A host array exported through DLPack with its negative strides written the
# way CuPy up to 14.2 writes them for its device arrays (cupy/cupy#10172): the
# signed byte stride divided by the unsigned item size,
# (2**64 + bytes) // itemsize, a huge positive stride. The module reads such
# strides back as the negative strides they are (python/src/cuda_arrays.hpp,
# signed_stride) on the host and device paths alike; this lets the CPU tests
# check it.
import ctypes

_get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_get_pointer.restype = ctypes.c_void_p
_get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]

# dlpack.h's DLTensor on a 64-bit host: data, device (2 x int32), ndim (int32),
# dtype (4 bytes), then the shape and strides pointers.
_NDIM_OFFSET, _STRIDES_OFFSET = 16, 32


class WrappedStrides:
    """DLPack (unversioned) export of the NumPy array `array`, in host memory,
    with every negative stride wrapped as CuPy wraps it; or, given `strides`
    (in elements), with those strides instead."""

    def __init__(self, array, strides=None):
        self.array = array
        self.strides = strides

    def __dlpack_device__(self):
        return (1, 0)  # kDLCPU

    def __dlpack__(self, **kwargs):
        capsule = self.array.__dlpack__()
        tensor = _get_pointer(capsule, b"dltensor")
        ndim = ctypes.c_int32.from_address(tensor + _NDIM_OFFSET).value
        strides = ctypes.c_void_p.from_address(tensor + _STRIDES_OFFSET).value
        item = self.array.dtype.itemsize
        for i in range(ndim):
            s = ctypes.c_int64.from_address(strides + 8 * i)
            if self.strides is not None:
                s.value = self.strides[i]
            elif s.value < 0:
                s.value = (s.value * item % 2**64) // item
        return capsule
