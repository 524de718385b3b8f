# mpgpu.ntt and mpgpu.dot on arrays in CUDA memory. On a CUDA context a CuPy
# array, a PyTorch tensor or any other DLPack / __cuda_array_interface__
# producer (wrapped by CuPy) is computed on where it is, and the result is an
# array of the same framework on the same device: no copy through the host.
# The oracles: Python ints (naive transforms, schoolbook products, sums of
# products) and, for large cases, the host path on NumPy copies (which
# test_ntt.py and test_dot.py check against Python ints). Bad input (dtype,
# shape, strides, residues, another device, host and device operands mixed, a
# CUDA array given to the CPU context) gets a ValueError or TypeError saying
# what was wrong, and leaves the inputs as they were. The first tests run on
# any machine (CI); the others need a GPU and CuPy or PyTorch (marker cuda).
import importlib.util
import random
import sys

import pytest

import mpgpu
from cuda_interface import InterfaceOnly, interface_of, numpy_u64, torch_u64
from wrapped_strides import WrappedStrides

np = pytest.importorskip("numpy")
from mpgpu import _device_arrays, dot, ntt  # noqa: E402
from test_ntt import naive_forward  # noqa: E402

P31, P62, GOLD = ntt.PRIMES31[0], ntt.PRIMES62[0], ntt.GOLDILOCKS


def residues(p, shape, dtype, seed):
    """Random residues with 0 and p - 1 among them, as a NumPy array."""
    rng = random.Random(seed)
    n = int(np.prod(shape))
    vals = [rng.randrange(p) for _ in range(n)]
    for i in range(0, n, 7):
        vals[i] = (0, p - 1)[i % 2]
    return np.array(vals, dtype=dtype).reshape(shape)


class OnCudaDevice:
    """Says (DLPack) that it is in CUDA memory; must never be read."""

    def __dlpack_device__(self):
        return (2, 0)

    def __dlpack__(self, **kwargs):
        raise AssertionError("a CUDA array given to the CPU context was read")


# ---- on any machine ------------------------------------------------------------------


@pytest.mark.parametrize("obj", [OnCudaDevice(), InterfaceOnly(None, shape=(8,), typestr="<u8", data=(8, False))])
def test_cuda_arrays_on_the_cpu_context_are_refused(obj):
    host = np.arange(8, dtype=np.uint64)
    calls = [
        lambda: ntt.forward(obj, P62, context="cpu"),
        lambda: ntt.inverse(obj, P62, context="cpu"),
        lambda: ntt.pointwise_mul(host, obj, P62, context="cpu"),
        lambda: ntt.poly_mul(obj, host, P62, context="cpu"),
        lambda: dot.dot(host, obj, 7, context="cpu"),
        lambda: dot.dot_batched(obj, obj, 7, context="cpu"),
        lambda: dot.matmul(obj, host, 7, context="cpu"),
        lambda: dot.matvec(host, obj, 7, context="cpu"),
    ]
    for call in calls:
        with pytest.raises(ValueError, match="is in CUDA memory and the context is the CPU; pass context='cuda'"):
            call()


def test_strides_wrapped_as_cupy_exports_them():
    """CuPy exports a negative stride as (2**64 + bytes) // itemsize (a huge
    positive stride; wrapped_strides.py): read as the negative stride it is,
    it is refused with the same message as NumPy's own, never followed."""
    v = np.arange(8, dtype=np.uint64)
    with pytest.raises(ValueError, match="a has stride -1 .*positive strides: pass numpy.ascontiguousarray\\(a\\)"):
        dot.dot(WrappedStrides(v[::-1]), v, P62, context="cpu")
    u = np.arange(8, dtype=np.uint32)
    with pytest.raises(ValueError, match="b has stride -1 "):
        dot.dot(u, WrappedStrides(u[::-1]), 65537, context="cpu")
    with pytest.raises(ValueError, match="not C-contiguous \\(strides \\(-1,\\)"):
        ntt.forward(WrappedStrides(v[::-1]), P62, context="cpu")
    m = np.zeros((4, 8), dtype=np.uint64)
    with pytest.raises(ValueError, match="A has row stride -8 elements"):
        dot.matmul(WrappedStrides(m[::-1]), m.reshape(8, 4), P62, context="cpu")
    with pytest.raises(ValueError, match="not C-contiguous \\(strides -2, 1 in limbs\\)"):
        mpgpu.Batch(WrappedStrides(np.zeros((3, 2), dtype=np.uint64)[::-1]), context="cpu")
    # A stride that is not a wrapped negative one but too long to address.
    with pytest.raises(ValueError, match="a has stride 2305843009213693952 elements: 8 elements that far apart"):
        dot.dot(WrappedStrides(v, strides=[2**61]), v, P62, context="cpu")
    # Positive strides come through as they are.
    assert dot.dot(WrappedStrides(v[::2]), v[:4], P62, context="cpu") == sum(2 * i * i for i in range(4))


def test_other_producers_need_cupy():
    if "cupy" in sys.modules or importlib.util.find_spec("cupy") is not None:
        pytest.skip("CuPy is installed")
    with pytest.raises(TypeError, match="mpgpu.ntt.forward: a CUDA array of type 'InterfaceOnly' .* CuPy, which is not"):
        _device_arrays.adopt(InterfaceOnly(None), "mpgpu.ntt.forward")


# ---- CuPy ----------------------------------------------------------------------------


@pytest.mark.cuda
@pytest.mark.parametrize("dtype,p", [(np.uint64, P62), (np.uint64, GOLD), (np.uint32, P31)])
@pytest.mark.parametrize("order", ["natural", "bit_reversed"])
def test_cupy_transforms(gpu, cupy, dtype, p, order):
    for k, shape in enumerate([(1,), (2,), (16,), (3, 32), (2, 2, 1024), (1 << 16,)]):
        host = residues(p, shape, dtype, seed=k)
        c = cupy.asarray(host)
        X = ntt.forward(c, p, order=order)
        assert isinstance(X, cupy.ndarray) and X.dtype == c.dtype and X.shape == shape and X.device.id == 0
        assert np.array_equal(cupy.asnumpy(X), ntt.forward(host, p, order=order, context="cpu")), shape
        back = ntt.inverse(X, p, order=order)
        assert isinstance(back, cupy.ndarray) and np.array_equal(cupy.asnumpy(back), host), shape
        assert np.array_equal(cupy.asnumpy(c), host)  # the input is not written
    x = residues(p, (16,), dtype, seed=99)
    got = cupy.asnumpy(ntt.forward(cupy.asarray(x), p))
    assert got.tolist() == naive_forward(x.tolist(), p)


@pytest.mark.cuda
def test_cupy_products(gpu, cupy):
    p = P62
    a, b = residues(p, (3, 100), np.uint64, 1), residues(p, (3, 100), np.uint64, 2)
    got = ntt.pointwise_mul(cupy.asarray(a), cupy.asarray(b), p)
    assert isinstance(got, cupy.ndarray) and got.shape == (3, 100)
    assert cupy.asnumpy(got).tolist() == [[int(x) * int(y) % p for x, y in zip(r, s)] for r, s in zip(a, b)]
    for la, lb in [(1, 1), (5, 300), (40, 41), (1000, 3000)]:
        x, y = residues(p, (la,), np.uint64, la), residues(p, (lb,), np.uint64, lb)
        c = ntt.poly_mul(cupy.asarray(x), cupy.asarray(y), p)
        assert isinstance(c, cupy.ndarray) and c.shape == (la + lb - 1,)
        if la * lb <= 2000:
            want = [0] * (la + lb - 1)
            for i, u in enumerate(x.tolist()):
                for j, v in enumerate(y.tolist()):
                    want[i + j] = (want[i + j] + u * v) % p
            assert cupy.asnumpy(c).tolist() == want
        assert np.array_equal(cupy.asnumpy(c), ntt.poly_mul(x, y, p, context="cpu"))
    x, y = residues(p, (4, 37), np.uint64, 3), residues(p, (4, 50), np.uint64, 4)
    c = ntt.poly_mul(cupy.asarray(x), cupy.asarray(y), p)
    assert c.shape == (4, 86) and np.array_equal(cupy.asnumpy(c), ntt.poly_mul(x, y, p, context="cpu"))
    empty = ntt.poly_mul(cupy.zeros(0, dtype=cupy.uint64), cupy.asarray(y[0]), p)
    assert isinstance(empty, cupy.ndarray) and empty.shape == (0,)


@pytest.mark.cuda
@pytest.mark.parametrize("dtype,p", [(np.uint32, 65537), (np.uint64, 2**61 - 1), (np.uint64, 2**64 - 59),
                                     (np.float64, 94906249)])
def test_cupy_dots(gpu, cupy, dtype, p):
    x, y = residues(p, (3000,), dtype, 5), residues(p, (3000,), dtype, 6)
    a, b = cupy.asarray(x), cupy.asarray(y)
    xs, ys = [int(v) for v in x], [int(v) for v in y]
    assert dot.dot(a, b, p) == sum(u * v for u, v in zip(xs, ys)) % p
    assert dot.dot(a[::3], b[1::3], p) == sum(u * v for u, v in zip(xs[::3], ys[1::3])) % p
    A, B = a.reshape(6, 500), b.reshape(6, 500)
    got = dot.dot_batched(A, B, p)
    assert isinstance(got, cupy.ndarray) and got.dtype == cupy.uint64
    assert cupy.asnumpy(got).tolist() == [sum(u * v for u, v in zip(xs[500 * i:500 * (i + 1)],
                                                                     ys[500 * i:500 * (i + 1)])) % p for i in range(6)]


@pytest.mark.cuda
@pytest.mark.parametrize("dtype,p,method", [(np.uint64, 2**64 - 59, "automatic"), (np.uint64, 65537, "fp_naive"),
                                            (np.float64, 94906249, "automatic"), (np.float64, 2**52 - 47, "integer_delayed")])
def test_cupy_matrix_products(gpu, cupy, dtype, p, method):
    big = residues(p, (7, 12), dtype, 7)
    A_host = big[:, 2:11]  # rows 12 apart: a leading dimension above the columns
    B_host = residues(p, (9, 4), dtype, 8)
    A, B = cupy.asarray(big)[:, 2:11], cupy.asarray(B_host)
    C = dot.matmul(A, B, p, method=method)
    assert isinstance(C, cupy.ndarray) and C.dtype == A.dtype and C.shape == (7, 4)
    want = [[sum(int(A_host[i][l]) * int(B_host[l][j]) for l in range(9)) % p for j in range(4)] for i in range(7)]
    assert [[int(v) for v in row] for row in cupy.asnumpy(C)] == want
    y = dot.matvec(A, B[:, 1].copy(), p, method=method)
    assert isinstance(y, cupy.ndarray) and [int(v) for v in cupy.asnumpy(y)] == [row[1] for row in want]


class BadInputs:
    """The arrays of one bad-input case, made fresh for it: c (4, 8) zeros,
    bad (4, 8) with bad[1][3] = p (flat index 11) and its host copy, bad32
    (8,) uint32 with bad32[7] = 2**32 - 1, v = arange(8)."""

    def __init__(self, cupy, p):
        self.c = cupy.zeros((4, 8), dtype=cupy.uint64)
        self.bad_host = np.zeros((4, 8), dtype=np.uint64)
        self.bad_host[1][3] = p
        self.bad = cupy.asarray(self.bad_host)
        self.bad32_host = np.zeros(8, dtype=np.uint32)
        self.bad32_host[7] = 2**32 - 1
        self.bad32 = cupy.asarray(self.bad32_host)
        self.v = cupy.arange(8, dtype=cupy.uint64)


# (id, exception, pattern, call(cupy, arrays, p)): one test each, so a failure names its case.
CUPY_BAD_INPUT = [
    ("int64-dtype", TypeError, "uint64 or uint32 .*not int64; convert with a.astype\\(cupy.uint64\\)",
     lambda cp, x, p: ntt.forward(cp.zeros(8, dtype=cp.int64), p)),
    ("length-6", ValueError, "last axis has length 6", lambda cp, x, p: ntt.forward(cp.zeros(6, dtype=cp.uint64), p)),
    ("ntt-not-contiguous", ValueError, "not C-contiguous .*cupy.ascontiguousarray\\(a\\)",
     lambda cp, x, p: ntt.forward(x.c[:, ::2], p)),
    ("forward-residue", ValueError, f"a\\[1\\]\\[3\\] = {P62} is not a residue", lambda cp, x, p: ntt.forward(x.bad, p)),
    ("inverse-residue", ValueError, f"a\\[1\\]\\[3\\] = {P62} is not a residue", lambda cp, x, p: ntt.inverse(x.bad, p)),
    ("forward32-residue", ValueError, "a\\[7\\] = 4294967295", lambda cp, x, p: ntt.forward(x.bad32, P31)),
    # The products' own check on the device names the flat index.
    ("pointwise-residue", ValueError, f"b\\[11\\] = {P62}", lambda cp, x, p: ntt.pointwise_mul(x.c, x.bad, p)),
    ("poly-residue", ValueError, f"a\\[11\\] = {P62}", lambda cp, x, p: ntt.poly_mul(x.bad, x.c, p)),
    ("pointwise-shapes", ValueError, "different shapes", lambda cp, x, p: ntt.pointwise_mul(x.c, x.v, p)),
    ("device-and-host", ValueError, "a is in CUDA memory and b in host memory",
     lambda cp, x, p: ntt.pointwise_mul(x.c, x.bad_host, p)),
    ("host-and-device", ValueError, "b is in CUDA memory and a in host memory",
     lambda cp, x, p: dot.dot(x.bad_host[0], x.v, p)),
    ("cpu-context", ValueError, "in CUDA memory and the context is the CPU",
     lambda cp, x, p: ntt.forward(x.c, p, context="cpu")),
    # CuPy exports this stride as 2**61 - 1 (wrapped_strides.py); the module reads it as -1.
    ("dot-reversed", ValueError, "stride -1 .*positive strides: pass cupy.ascontiguousarray\\(a\\)",
     lambda cp, x, p: dot.dot(x.v[::-1], x.v, p)),
    ("ntt-reversed", ValueError, "not C-contiguous \\(strides \\(-1,\\)", lambda cp, x, p: ntt.forward(x.v[::-1], p)),
    ("matmul-rows", ValueError, "rows of A are not contiguous", lambda cp, x, p: dot.matmul(x.c[:, ::2], x.c[:4, :4], p)),
    ("matmul-reversed-rows", ValueError, "A has row stride -8 elements",
     lambda cp, x, p: dot.matmul(x.c[::-1], x.c.reshape(8, 4), p)),
    ("dot-residue", ValueError, "a\\[11\\]", lambda cp, x, p: dot.dot(x.bad.reshape(32), x.c.reshape(32), p)),
    ("dot-dtypes", TypeError, "same dtype", lambda cp, x, p: dot.dot(x.v, x.v.astype(cp.uint32), p)),
]


@pytest.mark.cuda
@pytest.mark.parametrize("exc,pattern,call", [pytest.param(*case[1:], id=case[0]) for case in CUPY_BAD_INPUT])
def test_cupy_bad_input_leaves_the_inputs(gpu, cupy, exc, pattern, call):
    x = BadInputs(cupy, P62)
    with pytest.raises(exc, match=pattern):
        call(cupy, x, P62)
    assert not x.c.any() and np.array_equal(cupy.asnumpy(x.bad), x.bad_host)
    assert np.array_equal(cupy.asnumpy(x.bad32), x.bad32_host) and cupy.asnumpy(x.v).tolist() == list(range(8))


@pytest.mark.cuda
def test_cupy_work_on_another_stream_is_ordered(gpu, cupy):
    """Inputs written on a CuPy stream are read after those writes (the context's
    stream waits through DLPack), and results can be used on that stream at once."""
    n = 1 << 20
    with cupy.cuda.Stream(non_blocking=True) as s:
        c = cupy.arange(n, dtype=cupy.uint64)
        for _ in range(20):  # enough queued work that an unordered read would see old values
            c = (c * cupy.uint64(3) + cupy.uint64(1)) % cupy.uint64(P62)
        X = ntt.forward(c, P62)
        Y = ntt.inverse(X, P62)
        same = bool((Y == c).all())
        want = cupy.asnumpy(c)
    s.synchronize()
    assert same
    assert np.array_equal(cupy.asnumpy(X), ntt.forward(want, P62, context="cpu"))


@pytest.mark.cuda
def test_interface_only_and_other_dlpack_producers_give_cupy_arrays(gpu, cupy):
    host = residues(P62, (64,), np.uint64, 9)
    c = cupy.asarray(host)
    X = ntt.forward(interface_of(c), P62)
    assert isinstance(X, cupy.ndarray) and np.array_equal(cupy.asnumpy(X), ntt.forward(host, P62, context="cpu"))

    class Producer:  # DLPack only, not a CuPy type
        def __dlpack_device__(self):
            return c.__dlpack_device__()

        def __dlpack__(self, **kwargs):
            return c.__dlpack__(**kwargs)

    assert dot.dot(Producer(), interface_of(c), P62) == sum(int(v) ** 2 for v in host) % P62
    Y = ntt.inverse(Producer(), P62)
    assert isinstance(Y, cupy.ndarray)


@pytest.mark.cuda
def test_array_on_another_device(gpu, cupy):
    if cupy.cuda.runtime.getDeviceCount() < 2:
        pytest.skip("one GPU: no other device to put an array on")
    with cupy.cuda.Device(1):
        c = cupy.arange(8, dtype=cupy.uint64)
    with pytest.raises(ValueError, match="on CUDA device 1 and the context on device 0"):
        ntt.forward(c, P62)
    X = ntt.forward(c, P62, context="cuda:1")
    assert X.device.id == 1 and cupy.asnumpy(X).tolist() == naive_forward(list(range(8)), P62)


# ---- PyTorch -------------------------------------------------------------------------


@pytest.mark.cuda
def test_torch_tensors(gpu, torch):
    host = residues(P62, (4, 64), np.uint64, 10)
    t = torch_u64(torch, host)
    X = ntt.forward(t, P62)
    assert isinstance(X, torch.Tensor) and X.device.type == "cuda" and X.dtype == torch.uint64
    assert np.array_equal(numpy_u64(torch, X), ntt.forward(host, P62, context="cpu"))
    assert np.array_equal(numpy_u64(torch, ntt.inverse(X, P62)), host)
    assert np.array_equal(numpy_u64(torch, t), host)
    c = ntt.poly_mul(t, t, P62)
    assert isinstance(c, torch.Tensor) and np.array_equal(numpy_u64(torch, c), ntt.poly_mul(host, host, P62, context="cpu"))
    with pytest.raises(ValueError, match="not C-contiguous .*a.contiguous\\(\\)"):
        ntt.forward(t.t(), P62)
    with pytest.raises(TypeError, match="not torch.int64; convert with a.to\\(torch.uint64\\)"):
        ntt.forward(t.view(torch.int64), P62)
    A = torch.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=torch.float64, device="cuda")
    C = dot.matmul(A, A, 7)
    assert isinstance(C, torch.Tensor) and C.cpu().tolist() == [[0.0, 3.0], [1.0, 1.0]]
