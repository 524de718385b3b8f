# mpgpu.Batch from arrays in CUDA device memory on a CUDA context: CuPy and
# PyTorch through DLPack (with the context's stream handed to the producer),
# objects with only __cuda_array_interface__ (v2 and v3, with its stream),
# read on the device without a copy through the host (arrays already in the
# batch's layout adopted without any copy: the batch's view has the array's
# pointer); back out through __dlpack__. Python ints are the oracle. Bad input (dtype, shape, strides,
# device, a malformed interface) gets a ValueError or TypeError saying what
# was wrong. Everything here but the first test needs a GPU and CuPy or
# PyTorch, and skips without them (marker `cuda`: CTest's python.gpu).
import sys

import pytest

import mpgpu
from batch_values import values_for
from cuda_interface import InterfaceOnly, interface_of

np = pytest.importorskip("numpy")
Batch = mpgpu.Batch

WIDTHS = [1, 63, 64, 65, 128, 192, 1000, 3072, 4097]


def limbs_array(vals, bits):
    """The values as a (count, limbs) uint64 NumPy array, least significant limb first."""
    n = (bits + 63) // 64
    return np.array([[(v >> (64 * j)) & (2**64 - 1) for j in range(n)] for v in vals], dtype=np.uint64).reshape(
        len(vals), n
    )


def ints_of(rows):
    return [sum(int(x) << (64 * j) for j, x in enumerate(row)) for row in rows]


# ---- on any machine ------------------------------------------------------------------


def _importable(name):
    import importlib.util

    return importlib.util.find_spec(name) is not None


def test_interface_only_on_cpu_without_cupy_says_what_works():
    if "cupy" in sys.modules or _importable("cupy"):
        pytest.skip("CuPy is installed: the CPU context reads such arrays through it")
    obj = InterfaceOnly(None, shape=(2, 1), typestr="<u8", data=(8, False), version=3)
    with mpgpu.context("cpu"):
        with pytest.raises(TypeError, match="only __cuda_array_interface__.*context=mpgpu.Context\\('cuda'\\)"):
            Batch(obj)


# ---- on a GPU ----------------------------------------------------------------------------


@pytest.mark.cuda
@pytest.mark.parametrize("bits", WIDTHS)
def test_cupy_round_trip(gpu, cupy, bits):
    vals = values_for(bits, 37, seed=11)
    c = cupy.asarray(limbs_array(vals, bits))
    b = Batch(c, bits)
    assert b.context == gpu and (b.count, b.bits) == (37, bits)
    assert b.to_list() == vals
    view = cupy.from_dlpack(b)  # the storage itself: rows stride_limbs apart
    assert view.shape == (37, (bits + 63) // 64)
    assert ints_of(cupy.asnumpy(view)) == vals
    # A batch's own view goes straight back in: rows further apart than their limbs are read on the device.
    again = Batch(view, bits)
    assert again.to_list() == vals and again.stride_limbs == b.stride_limbs
    assert Batch(cupy.asarray(b), bits).to_list() == vals  # through __cuda_array_interface__


@pytest.mark.cuda
def test_cupy_is_read_on_the_device_with_our_stream(gpu, cupy):
    """The producer is asked for its capsule with the context's stream (so that it
    orders its writes before it), and never for a host copy."""
    vals = values_for(130, 9, seed=12)
    c = cupy.asarray(limbs_array(vals, 130))
    calls = []

    class Recording:
        def __dlpack_device__(self):
            return c.__dlpack_device__()

        def __dlpack__(self, **kwargs):
            calls.append(kwargs)
            return c.__dlpack__(**kwargs)

    assert Batch(Recording(), 130).to_list() == vals
    assert len(calls) == 1
    stream = calls[0]["stream"]
    assert isinstance(stream, int) and stream not in (0, -1)
    assert calls[0].get("dl_device") is None and not calls[0].get("copy")


@pytest.mark.cuda
def test_cupy_writes_on_another_stream_are_seen(gpu, cupy):
    n = 1 << 20
    with cupy.cuda.Stream(non_blocking=True) as s:
        c = cupy.arange(n, dtype=cupy.uint64)
        for _ in range(20):  # enough queued work that an unordered read would see old values
            c = c * cupy.uint64(3) + cupy.uint64(1)
        b = Batch(c)  # DLPack: CuPy makes the context's stream wait for s
        d = cupy.arange(n, dtype=cupy.uint64)
        for _ in range(20):
            d = d * cupy.uint64(3) + cupy.uint64(1)
        e = Batch(interface_of(d, stream=s.ptr))  # the interface's stream: the read waits for s
    s.synchronize()
    want = cupy.asnumpy(c).tolist()
    assert b.to_list() == want and e.to_list() == want


@pytest.mark.cuda
def test_cupy_columns_empty_and_narrow_widths(gpu, cupy):
    vals = values_for(128, 20, seed=13)
    c = cupy.asarray(limbs_array(vals, 128))
    assert Batch(c[:, 0]).to_list() == [v & (2**64 - 1) for v in vals]  # a column: rows 2 limbs apart
    assert Batch(c[::3]).to_list() == vals[::3]  # every third row
    empty = Batch(cupy.zeros((0, 2), dtype=cupy.uint64))
    assert (empty.count, empty.bits) == (0, 128)
    small = [v & (2**100 - 1) for v in vals]
    assert Batch(cupy.asarray(limbs_array(small, 128)), 100).to_list() == small  # zero above bit 100: fine
    assert Batch(c, 300).to_list() == vals  # wider: zero-extended


@pytest.mark.cuda
def test_cupy_bad_input(gpu, cupy):
    good = cupy.zeros((3, 2), dtype=cupy.uint64)
    cases = [
        (TypeError, "uint64.*not int64", lambda: Batch(cupy.zeros((2, 2), dtype=cupy.int64))),
        (TypeError, "uint64.*not uint32", lambda: Batch(cupy.zeros(3, dtype=cupy.uint32))),
        (TypeError, "uint64.*not float64", lambda: Batch(cupy.zeros(3, dtype=cupy.float64), 64)),
        (ValueError, "shape \\(n, limbs\\).*not \\(2, 2, 2\\)", lambda: Batch(cupy.zeros((2, 2, 2), dtype=cupy.uint64))),
        (ValueError, "strides 4, 2 in limbs", lambda: Batch(cupy.zeros((3, 4), dtype=cupy.uint64)[:, ::2])),
        (ValueError, "strides 1, 3 in limbs", lambda: Batch(cupy.zeros((4, 3), dtype=cupy.uint64).T)),
        # CuPy exports the row stride -2 as 2**61 - 2 (wrapped_strides.py); read back as -2.
        (ValueError, "strides -2, 1 in limbs", lambda: Batch(good[::-1])),
        (ValueError, "row 1 of the array has bits at or above bit 65",
         lambda: Batch(cupy.asarray(np.array([[0, 1], [0, 2]], dtype=np.uint64)), 65)),
        (ValueError, "row 0 of the array has bits at or above bit 64",
         lambda: Batch(cupy.asarray(np.array([[0, 1]], dtype=np.uint64)), 64)),
        (ValueError, "bits must be", lambda: Batch(cupy.zeros((2, 0), dtype=cupy.uint64))),
        (ValueError, "signed=True", lambda: Batch(good, signed=True)),
    ]
    for exc, pattern, make in cases:
        with pytest.raises(exc, match=pattern):
            make()


@pytest.mark.cuda
def test_array_on_another_device(gpu, cupy):
    if cupy.cuda.runtime.getDeviceCount() < 2:
        pytest.skip("one GPU: no other device to put an array on")
    with cupy.cuda.Device(1):
        c = cupy.zeros((2, 2), dtype=cupy.uint64)
    with pytest.raises(ValueError, match="on CUDA device 1 and the context on device 0"):
        Batch(c)
    with pytest.raises(ValueError, match="memory of CUDA device 1, not of the context's device 0"):
        Batch(interface_of(c, stream=None))
    assert Batch(c, context="cuda:1").to_list() == [0, 0]


@pytest.mark.cuda
def test_interface_only(gpu, cupy):
    vals = values_for(200, 15, seed=14)
    c = cupy.asarray(limbs_array(vals, 200))
    assert Batch(interface_of(c)).to_list() == vals  # version 3, strides given, the legacy default stream
    assert Batch(interface_of(c, strides=None, version=2, stream=None)).to_list() == vals


@pytest.mark.cuda
def test_interface_only_more_shapes(gpu, cupy):
    vals = values_for(128, 10, seed=15)
    c = cupy.asarray(limbs_array(vals, 128))
    # Every other row, as strides say it.
    assert Batch(interface_of(c[::2])).to_list() == vals[::2]
    # One limb a row, 1-D.
    assert Batch(interface_of(c[:, 1])).to_list() == [v >> 64 for v in vals]
    stream = cupy.cuda.get_current_stream().ptr or 1
    assert Batch(interface_of(c, stream=stream)).to_list() == vals
    obj = interface_of(c)
    del c  # the object keeps the memory alive, as the interface requires
    assert Batch(obj).to_list() == vals
    # On the CPU context it goes through CuPy to the host.
    assert Batch(obj, context="cpu").to_list() == vals


@pytest.mark.cuda
def test_interface_only_bad_input(gpu, cupy):
    c = cupy.zeros((4, 2), dtype=cupy.uint64)
    host = np.zeros((4, 2), dtype=np.uint64)
    cases = [
        (TypeError, "uint64.*not int64", interface_of(c, typestr="<i8")),
        (TypeError, "other byte order", interface_of(c, typestr=">u8")),
        (ValueError, "typestr 'u8'", interface_of(c, typestr="u8")),
        (ValueError, "typestr '<O8'", interface_of(c, typestr="<O8")),
        (ValueError, "stride of 12 bytes", interface_of(c, strides=(16, 12))),
        (ValueError, "2 strides for 3 dimensions", interface_of(c, shape=(2, 2, 2))),
        (ValueError, "shape \\(n, limbs\\)", interface_of(c, shape=(2, 2, 2), strides=None)),
        (ValueError, "stream 0", interface_of(c, stream=0)),
        (ValueError, "a mask", interface_of(c, mask=object())),
        (ValueError, "no 'data'", InterfaceOnly(c, shape=(4, 2), typestr="<u8", version=3)),
        (ValueError, "not in device memory", InterfaceOnly(host, **{**interface_of(c).__cuda_array_interface__,
                                                                    "data": (host.ctypes.data, False)})),
    ]
    for exc, pattern, obj in cases:
        with pytest.raises(exc, match=pattern):
            Batch(obj)


@pytest.mark.cuda
def test_cuda_arrays_on_the_cpu_context(gpu, cupy):
    vals = values_for(100, 8, seed=16)
    c = cupy.asarray(limbs_array(vals, 100))
    b = Batch(c, 100, context="cpu")  # read through the host, as before
    assert b.context == mpgpu.Context("cpu") and b.to_list() == vals


@pytest.mark.cuda
def test_torch_round_trip(gpu, torch):
    vals = values_for(192, 21, seed=17)
    host = limbs_array(vals, 192)
    t = torch.from_numpy(host.view(np.int64)).view(torch.uint64).cuda()
    b = Batch(t, 192)
    assert b.context == gpu and b.to_list() == vals
    back = torch.from_dlpack(b)  # the storage, rows stride_limbs apart
    assert back.device.type == "cuda" and tuple(back.shape) == (21, 3)
    got = back.view(torch.int64).contiguous().cpu().numpy().view(np.uint64)  # int64 kernels: uint64 has few
    assert ints_of(got) == vals
    assert Batch(back, 192).to_list() == vals  # the view straight back in
    assert Batch(t[:, 0]).to_list() == [v & (2**64 - 1) for v in vals]
    with pytest.raises(TypeError, match="uint64"):
        Batch(t.view(torch.int64))
    with pytest.raises(ValueError, match="strides"):
        Batch(t.t())
    # Written on a side stream: PyTorch makes the context's stream wait for it.
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        u = torch.arange(1 << 20, device="cuda", dtype=torch.int64)
        for _ in range(20):
            u = u * 3 + 1
        w = Batch(u.view(torch.uint64))
    assert w.to_list() == [x & (2**64 - 1) for x in u.cpu().tolist()]


# ---- zero-copy import: rows already in the batch's layout --------------------------------


def stride_of(bits):
    """The width class of `bits` in limbs (Batch.stride_limbs)."""
    return Batch.zeros(0, bits, context="cpu").stride_limbs


def class_array(cupy, vals, bits):
    """The values as a CuPy array in the batch's layout: (count, stride_limbs), padding zero."""
    host = np.zeros((len(vals), stride_of(bits)), dtype=np.uint64)
    host[:, : (bits + 63) // 64] = limbs_array(vals, bits)
    return cupy.asarray(host)


def data_ptr(cupy, b):
    return cupy.from_dlpack(b).data.ptr


@pytest.mark.cuda
@pytest.mark.parametrize("bits", [128, 256, 1000, 1024, 3072, 4096])
def test_cupy_in_the_batch_layout_is_adopted(gpu, cupy, bits):
    vals = values_for(bits, 33, seed=21)
    c = class_array(cupy, vals, bits)
    b = Batch(c, bits)
    assert (b.count, b.bits, b.stride_limbs) == (33, bits, c.shape[1])
    assert data_ptr(cupy, b) == c.data.ptr  # the array's memory itself
    assert b.to_list() == vals and (b + 1).to_list() == [(v + 1) % 2**bits for v in vals]
    # Shared: a write through CuPy (ordered by its stream) is seen by the batch.
    c[3, 0] = cupy.uint64(12345)
    cupy.cuda.get_current_stream().synchronize()
    assert b[3] == (vals[3] >> 64 << 64) | 12345
    own = b.copy()  # storage of its own
    assert data_ptr(cupy, own) != c.data.ptr and own == b


@pytest.mark.cuda
def test_adopted_memory_lives_as_long_as_the_batch(gpu, cupy):
    import gc

    vals = values_for(1024, 64, seed=22)
    b = Batch(class_array(cupy, vals, 1024))  # the array itself is dropped at once
    e = Batch(interface_of(class_array(cupy, vals, 1024)))  # interface only: the object is kept
    gc.collect()
    scratch = [cupy.full((64, 16), 2**64 - 1, dtype=cupy.uint64) for _ in range(8)]  # would reuse freed blocks
    cupy.cuda.get_current_stream().synchronize()
    assert b.to_list() == vals and e.to_list() == vals
    r = b * b  # queued; dropping b must wait for it before CuPy gets the memory back
    del b, e, scratch
    gc.collect()
    assert r.to_list() == [v * v % 2**1024 for v in vals]


@pytest.mark.cuda
def test_other_layouts_are_repacked(gpu, cupy):
    vals = values_for(1000, 20, seed=23)
    c = class_array(cupy, vals, 1000)
    # Every other row (rows 32 limbs apart), fewer limbs than the class, a misaligned start, another width's class.
    assert data_ptr(cupy, Batch(c[::2], 1000)) != c.data.ptr and Batch(c[::2], 1000).to_list() == vals[::2]
    narrow = cupy.ascontiguousarray(c[:, :15])
    assert data_ptr(cupy, Batch(narrow, 1000)) != narrow.data.ptr
    assert Batch(narrow, 1000).to_list() == [v & (2**960 - 1) for v in vals]
    flat = cupy.zeros(20 * 16 + 1, dtype=cupy.uint64)
    flat[1:] = c.ravel()
    odd = flat[1:].reshape(20, 16)  # 8 bytes past a 16-byte boundary
    assert odd.data.ptr % 16 == 8
    b = Batch(odd, 1000)
    assert data_ptr(cupy, b) != odd.data.ptr and b.to_list() == vals
    wide = Batch(c, 2000)  # a wider class: zero-extended into new storage
    assert data_ptr(cupy, wide) != c.data.ptr and wide.to_list() == vals
    one = cupy.asarray(limbs_array(vals[:5], 64))  # one limb a row, class of 2
    assert Batch(one, 64).to_list() == [v & (2**64 - 1) for v in vals[:5]]
    # Values over the width are still refused (checked on the device, then named by the copy).
    big = class_array(cupy, [2**1000 - 1, 2**1010], 1024)
    with pytest.raises(ValueError, match="row 1 of the array has bits at or above bit 1000"):
        Batch(big, 1000)
    assert data_ptr(cupy, Batch(big[:1], 1000)) == big.data.ptr  # the first row alone fits


@pytest.mark.cuda
def test_adoption_through_the_interface(gpu, cupy):
    vals = values_for(128, 17, seed=24)
    c = class_array(cupy, vals, 128)
    e = Batch(interface_of(c))  # version 3, the legacy default stream
    assert data_ptr(cupy, e) == c.data.ptr and e.to_list() == vals
    assert data_ptr(cupy, Batch(interface_of(c, strides=None, version=2, stream=None))) == c.data.ptr


@pytest.mark.cuda
def test_adoption_of_a_pytorch_tensor(gpu, torch):
    from cuda_interface import torch_u64

    vals = values_for(256, 9, seed=25)
    t = torch_u64(torch, limbs_array(vals, 256))  # (9, 4): the class of 256 bits
    b = Batch(t)
    assert torch.from_dlpack(b).data_ptr() == t.data_ptr() and b.to_list() == vals
