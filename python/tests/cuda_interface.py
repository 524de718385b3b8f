# Objects that offer only __cuda_array_interface__ (as Numba's and older
# libraries' arrays do), for the tests of CUDA arrays (Batch, ntt, dot).


class InterfaceOnly:
    """An array that offers only __cuda_array_interface__, over device memory
    that `keep` owns."""

    def __init__(self, keep, **interface):
        self.keep = keep
        self.__cuda_array_interface__ = interface


def interface_of(c, **changes):
    """A CUDA Array Interface (version 3) for the CuPy array c, with changes."""
    d = {
        "shape": tuple(c.shape),
        "typestr": c.dtype.str,
        "data": (c.data.ptr, False),
        "strides": tuple(c.strides),
        "version": 3,
        "stream": 1,  # the legacy default stream: c was written on CuPy's null stream
    }
    d.update(changes)
    return InterfaceOnly(c, **d)


def torch_u64(torch, host):
    """A CUDA tensor of torch.uint64 from the NumPy uint64 array host, through
    int64 (PyTorch has few uint64 kernels, among them no copy from NumPy)."""
    return torch.from_numpy(host.view("int64")).cuda().view(torch.uint64)


def numpy_u64(torch, t):
    """The NumPy uint64 array of the CUDA uint64 tensor t (through int64)."""
    return t.view(torch.int64).cpu().numpy().view("uint64")
