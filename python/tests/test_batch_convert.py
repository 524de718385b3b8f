# mpgpu.Batch in and out: lists of ints, NumPy arrays of limbs, bytes,
# DLPack and __cuda_array_interface__, pickling, contexts; and the errors
# bad input gets (dtype, shape, contiguity, negative or too large values).
import pickle

import pytest

import mpgpu
from batch_values import WIDTHS, signed, values_for

np = pytest.importorskip("numpy")
Batch = mpgpu.Batch


def limbs_of(v, n):
    return [(v >> (64 * j)) & (2**64 - 1) for j in range(n)]


@pytest.mark.parametrize("bits", WIDTHS)
def test_list_round_trip(ctx, bits):
    vals = values_for(bits, 40, seed=1)
    b = Batch(vals, bits)
    assert (b.count, b.bits, len(b), b.limbs) == (40, bits, 40, (bits + 63) // 64)
    assert b.stride_limbs >= b.limbs
    assert b.context == ctx
    assert b.to_list() == vals and list(b) == vals
    assert [b[i] for i in range(len(vals))] == vals and b[-1] == vals[-1]


@pytest.mark.parametrize("bits", WIDTHS)
def test_numpy_round_trip(ctx, bits):
    vals = values_for(bits, 33, seed=2)
    n = (bits + 63) // 64
    arr = np.array([limbs_of(v, n) for v in vals], dtype=np.uint64)
    b = Batch(arr, bits)
    assert b.to_list() == vals
    out = b.to_numpy()
    assert out.dtype == np.uint64 and out.shape == (33, n) and out.flags.c_contiguous
    assert np.array_equal(out, arr)
    assert Batch.from_numpy(arr, bits).to_list() == vals
    if bits % 64 == 0:  # the width by default: 64 bits per limb
        assert Batch(arr).bits == bits and Batch(arr).to_list() == vals


def test_numpy_shapes_and_widths(ctx):
    one = np.array([0, 1, 2**64 - 1, 2**63], dtype=np.uint64)
    assert Batch(one).to_list() == [0, 1, 2**64 - 1, 2**63] and Batch(one).bits == 64
    wide = Batch(one, 200)  # more bits than limbs: zero-extended
    assert wide.bits == 200 and wide.to_list() == [0, 1, 2**64 - 1, 2**63]
    assert Batch(np.array([[5, 0], [7, 0]], dtype=np.uint64), 3).to_list() == [5, 7]  # high limbs zero: fits
    empty = Batch(np.zeros((0, 3), dtype=np.uint64))
    assert empty.count == 0 and empty.bits == 192 and empty.to_numpy().shape == (0, 3) and empty.to_list() == []
    assert Batch([], 64).count == 0 and not Batch([], 64)
    assert Batch(range(5), 8).to_list() == [0, 1, 2, 3, 4]
    assert Batch((x for x in [3, 4]), 8).to_list() == [3, 4]
    assert Batch(np.array([1, 2**70], dtype=object), 71).to_list() == [1, 2**70]
    assert Batch(memoryview(np.array([9, 8], dtype=np.uint64))).to_list() == [9, 8]


def test_element_types(ctx):
    gmpy2 = None
    try:
        import gmpy2
    except ImportError:
        pass
    items = [np.uint64(2**64 - 1), np.int8(5), mpgpu.Integer(2**100), True, 7]
    expect = [2**64 - 1, 5, 2**100, 1, 7]
    if gmpy2:
        items.append(gmpy2.mpz(2**120 + 3))
        expect.append(2**120 + 3)
    assert Batch(items, 128).to_list() == expect


@pytest.mark.parametrize("bits", [1, 8, 63, 64, 65, 128, 130, 1000])
def test_signed_values(ctx, bits):
    lo, hi = -(2 ** (bits - 1)), 2 ** (bits - 1) - 1
    vals = sorted({lo, hi, 0, -1, 1 if hi >= 1 else 0, lo + 1, hi - 1 if hi else 0, -(2 ** (bits // 2))})
    vals = [v for v in vals if lo <= v <= hi]
    b = Batch(vals, bits, signed=True)
    assert b.to_list() == [v % 2**bits for v in vals]
    assert b.to_list(signed=True) == vals
    assert [signed(v, bits) for v in b.to_list()] == vals
    for bad in (lo - 1, hi + 1):
        with pytest.raises(ValueError, match="signed bits"):
            Batch([0, bad], bits, signed=True)


@pytest.mark.parametrize("bits", [1, 64, 65, 1000, 4096])
def test_to_integers(ctx, bits):
    vals = values_for(bits, 30, seed=5) + [0, 2**bits - 1, 2 ** (bits - 1)]
    b = Batch(vals, bits)
    got = b.to_integers()
    assert all(isinstance(x, mpgpu.Integer) and x.context == ctx for x in got)
    assert [int(x) for x in got] == vals
    assert [int(x) for x in b.to_integers(signed=True)] == [signed(v, bits) for v in vals]
    cpu = b.to_integers("cpu", signed=True)  # into another context
    assert all(x.context == mpgpu.Context("cpu") for x in cpu)
    assert [int(x) for x in cpu] == [signed(v, bits) for v in vals]
    assert Batch([], 8).to_integers() == []


@pytest.mark.parametrize("bits", [8, 64, 100])
def test_bytes_round_trip(ctx, bits):
    vals = values_for(bits, 20, seed=3)
    b = Batch(vals, bits)
    for order in ("little", "big"):
        each = (bits + 7) // 8
        data = b.to_bytes(byteorder=order)
        assert data == b"".join(v.to_bytes(each, order) for v in vals)
        assert Batch.from_bytes(data, each, bits, order).to_list() == vals
        longer = b.to_bytes(each + 3, order)
        assert longer == b"".join(v.to_bytes(each + 3, order) for v in vals)
        assert Batch.from_bytes(longer, each + 3, bits, order).to_list() == vals
    if max(vals) >= 256:
        with pytest.raises(OverflowError):
            b.to_bytes(1)
    with pytest.raises(ValueError, match="whole number"):
        Batch.from_bytes(b"\x00" * 5, 2)
    with pytest.raises(ValueError, match="at or above bit"):
        Batch.from_bytes(b"\xff\xff", 2, 9)
    with pytest.raises(ValueError, match="byteorder"):
        b.to_bytes(byteorder="middle")


def test_zeros_full_random(ctx):
    z = Batch.zeros(5, 300)
    assert z.to_list() == [0] * 5 and z.bits == 300
    assert Batch.full(3, -1, 70).to_list() == [2**70 - 1] * 3
    assert Batch.full(2, 2**80 + 5, 64).to_list() == [5, 5]
    r = Batch.random(50, 129, seed=9)
    vals = r.to_list()
    assert all(0 <= v < 2**129 for v in vals) and len(set(vals)) == 50
    assert Batch.random(50, 129, seed=9) == r and Batch.random(50, 129, seed=10) != r
    assert max(v.bit_length() for v in vals) == 129  # the top bit is drawn too (50 draws: P(miss) = 2**-50)


def test_equality_repr_copy_pickle(ctx):
    a = Batch([1, 2, 3], 64)
    assert a == Batch([1, 2, 3], 64) and not (a != Batch([1, 2, 3], 64))
    assert a != Batch([1, 2, 4], 64) and a != Batch([1, 2, 3], 65) and a != Batch([1, 2], 64)
    assert (a == [1, 2, 3]) is False
    with pytest.raises(TypeError):
        hash(a)
    assert repr(a) == "mpgpu.Batch([1, 2, 3], bits=64)"
    assert repr(Batch(list(range(10)), 8)) == "mpgpu.Batch([0, 1, 2, 3, 4, 5, ...], bits=8, count=10)"
    c = a.copy()
    assert c == a and c is not a
    p = pickle.loads(pickle.dumps(Batch([0, 2**300 - 1, 5], 301)))
    assert p.bits == 301 and p.to_list() == [0, 2**300 - 1, 5]
    assert a.to_context("cpu").to_list() == [1, 2, 3] and a.to_context("cpu").context == mpgpu.Context("cpu")
    assert Batch(a, context="cpu") == a.to_context("cpu")
    with pytest.raises(ValueError, match="bits="):
        Batch(a, 65)


def test_index_errors(ctx):
    a = Batch([1, 2], 8)
    for i in (2, -3, 10**20):
        with pytest.raises(IndexError):
            a[i]


def test_dlpack_cpu():
    with mpgpu.context("cpu"):
        vals = values_for(129, 17, seed=4)
        b = Batch(vals, 129)
        assert b.__dlpack_device__() == (1, 0)
        view = np.from_dlpack(b)
        assert view.shape == (17, 3) and view.dtype == np.uint64
        assert np.array_equal(view, b.to_numpy())
        assert view.strides == (8 * b.stride_limbs, 8)  # a view of the storage, padding between rows
        assert not view.flags.writeable  # a Batch is immutable
        del b  # the view keeps the storage alive
        assert [sum(int(x) << (64 * j) for j, x in enumerate(row)) for row in view] == vals
        with pytest.raises(AttributeError):
            Batch([1], 8).__cuda_array_interface__


def test_dlpack_strided_view_is_refused_not_misread():
    with mpgpu.context("cpu"):
        b = Batch([1, 2, 3], 64)  # 64-bit values live in 128-bit rows
        view = np.from_dlpack(b)
        assert b.stride_limbs > b.limbs
        with pytest.raises(ValueError, match="not C-contiguous"):
            Batch(view)
        assert Batch(np.ascontiguousarray(view)).to_list() == [1, 2, 3]


def test_bad_input(ctx):
    good = np.zeros((2, 2), dtype=np.uint64)
    cases = [
        (TypeError, "uint64", lambda: Batch(np.zeros((2, 2), dtype=np.int64))),
        (TypeError, "uint64", lambda: Batch(np.zeros(3, dtype=np.float64), 64)),
        (TypeError, "uint64", lambda: Batch(np.zeros(3, dtype=np.uint32))),
        (TypeError, "uint64", lambda: Batch(np.zeros((2, 2), dtype=">u8"))),
        (TypeError, "uint64", lambda: Batch(b"abcdefgh")),
        (ValueError, "shape", lambda: Batch(np.zeros((2, 2, 2), dtype=np.uint64))),
        (ValueError, "shape", lambda: Batch(np.zeros((), dtype=np.uint64))),
        (ValueError, "C-contiguous", lambda: Batch(np.zeros((3, 4), dtype=np.uint64)[:, ::2])),
        (ValueError, "C-contiguous", lambda: Batch(np.zeros((4, 3), dtype=np.uint64).T)),
        (ValueError, "C-contiguous", lambda: Batch(np.zeros(6, dtype=np.uint64)[::2])),
        (ValueError, "at or above bit 65", lambda: Batch(np.full((2, 2), 2, dtype=np.uint64), 65)),
        (ValueError, "at or above bit 64", lambda: Batch(np.array([[0, 0], [0, 1]], dtype=np.uint64), 64)),
        (ValueError, "signed=True", lambda: Batch(good, signed=True)),
        (ValueError, "is negative", lambda: Batch([1, -1], 64)),
        (ValueError, "does not fit in 8 bits", lambda: Batch([255, 256], 8)),
        (ValueError, "does not fit in 64 bits", lambda: Batch([2**64], 64)),
        (ValueError, "does not fit", lambda: Batch([2**5000], 4097)),
        (ValueError, "values\\[1\\]", lambda: Batch([0, 2**200], 100)),
        (TypeError, "not an integer", lambda: Batch([1, 2.0], 8)),
        (TypeError, "not an integer", lambda: Batch([1, "2"], 8)),
        (TypeError, "needs its width", lambda: Batch([1, 2])),
        (TypeError, "not 'str'", lambda: Batch("123", 8)),
        (TypeError, "not 'int'", lambda: Batch(5, 8)),
        (ValueError, "bits must be", lambda: Batch([1], 0)),
        (ValueError, "bits must be", lambda: Batch([1], 2**18 + 1)),
        (OverflowError, "negative", lambda: Batch([1], -8)),
        (ValueError, "bits must be", lambda: Batch(np.zeros((2, 0), dtype=np.uint64))),
        (TypeError, "iterable", lambda: Batch(object(), 8)),
        (TypeError, "must be an integer", lambda: Batch.full(2, 1.5, 8)),
        (ValueError, "bits must be", lambda: Batch.from_bytes(b"abc", 3, 0)),
    ]
    for exc, pattern, make in cases:
        with pytest.raises(exc, match=pattern):
            make()


@pytest.mark.cuda
def test_cuda_array_interface_and_dlpack_out():
    if mpgpu.cuda_device_count() == 0:
        pytest.skip("no usable CUDA device" + ("" if mpgpu.built_with_cuda() else " (built without CUDA)"))
    with mpgpu.context("cuda:0") as ctx:
        check_cuda_views(ctx)


def check_cuda_views(ctx):
    vals = values_for(192, 9, seed=5)
    b = Batch(vals, 192)
    assert b.__dlpack_device__() == (2, ctx.device)
    cai = b.__cuda_array_interface__
    assert cai["shape"] == (9, 3) and cai["typestr"] == "<u8" and cai["version"] == 3
    assert cai["strides"] == (8 * b.stride_limbs, 8) and cai["data"][0] != 0
    cupy = pytest.importorskip("cupy")
    view = cupy.from_dlpack(b)
    assert np.array_equal(cupy.asnumpy(view), b.to_numpy())
    assert np.array_equal(cupy.asnumpy(cupy.asarray(b)), b.to_numpy())  # through __cuda_array_interface__
    back = Batch(cupy.ascontiguousarray(view), 192)  # a CUDA array in
    assert back.to_list() == vals and back.context == ctx
