# mpgpu.gfp (the big prime field FFT, p = r**k + 1) against plain Python:
# a naive O(N^2) DFT over Z/pZ with Python ints, at a root of unity found by
# seed 003's Algorithm 1 written here again (and checked from the transform
# itself: the FFT of x = [0, 1, 0, ...] is omega**m), a schoolbook cyclic
# convolution, random and adversarial elements (0, 1, r - 1, r**i, p - 2,
# p - 1 = the special form, (p +- 1)/2), batches along the leading axes; then
# every rejected argument. Both contexts (cuda:0 skips without a GPU); CUDA
# arrays (CuPy, PyTorch) at the end, skipped without a GPU.
import random

import pytest

np = pytest.importorskip("numpy")

import mpgpu  # noqa: E402
from cuda_interface import numpy_u64, torch_u64  # noqa: E402
from mpgpu import _device_arrays, gfp  # noqa: E402

PRIMES = ["p3", "p4", "p5"]


def algorithm1_root(p, r, k, n):
    """Seed 003's Algorithm 1: the primitive n-th root omega with omega**(n/2k) = r."""
    q, K = (p - 1) // n, 2 * k
    alpha = 2
    while True:
        g = pow(alpha, q, p)
        if pow(g, n // 2, p) != 1:
            break
        alpha += 1
    a1 = pow(g, n // K, p)
    j = next(j for j in range(1, K, 2) if pow(a1, j, p) == r)
    return pow(g, j, p)


def naive_dft(x, omega, p, outputs=None):
    n = len(x)
    powers = [1] * n
    for t in range(1, n):
        powers[t] = powers[t - 1] * omega % p
    ms = range(n) if outputs is None else outputs
    return [sum(v * powers[j * m % n] for j, v in enumerate(x) if v) % p for m in ms]


def elements(prime, n, seed, kind="random"):
    r, k, p = gfp.radix(prime), gfp.digits(prime), gfp.modulus(prime)
    rng = random.Random(seed)
    if kind == "zeros":
        return [0] * n
    if kind == "top":
        return [p - 1] * n
    edge = [0, 1, 2, r - 1, r, r + 1, p - 2, p - 1, (p - 1) // 2, (p + 1) // 2] + [r**i for i in range(k)]
    if kind == "mixed":
        return [rng.choice(edge) if rng.random() < 0.7 else rng.randrange(p) for _ in range(n)]
    return [rng.randrange(p) for _ in range(n)]


def transform(values, prime, inverse=False, context=None):
    a = gfp.to_digits(values, prime)
    out = (gfp.inverse if inverse else gfp.forward)(a, prime, context=context)
    assert isinstance(out, np.ndarray) and out.dtype == np.uint64 and out.shape == a.shape
    return gfp.from_digits(out, prime)


def check_canonical(a, prime):
    assert _device_arrays.gfp_first_noncanonical(a, gfp.radix(prime)) is None


# ---- the transforms against the naive DFT -----------------------------------------------


@pytest.mark.parametrize("prime,e", [("p3", 1), ("p3", 2), ("p4", 1), ("p5", 1)])
@pytest.mark.parametrize("kind", ["random", "mixed", "zeros", "top"])
def test_forward_and_inverse_match_the_naive_dft(ctx, prime, e, kind):
    r, k, p = gfp.radix(prime), gfp.digits(prime), gfp.modulus(prime)
    n = (2 * k) ** e
    omega = algorithm1_root(p, r, k, n)
    x = elements(prime, n, seed=n + k, kind=kind)
    a = gfp.to_digits(x, prime)
    X = gfp.forward(a, prime)
    check_canonical(X, prime)
    assert gfp.from_digits(X, prime) == naive_dft(x, omega, p)
    back = gfp.inverse(X, prime)
    assert np.array_equal(back, a)
    inv_n = pow(n, -1, p)
    assert gfp.from_digits(gfp.inverse(a, prime), prime) == [v * inv_n % p for v in naive_dft(x, pow(omega, -1, p), p)]


@pytest.mark.parametrize("prime,e", [("p3", 1), ("p3", 2), ("p4", 2), ("p5", 1)])
def test_the_root_of_unity(ctx, prime, e):
    """The FFT of the unit vector e_1 is omega**m: omega is a primitive N-th root with
    omega**(N/2k) = r, the one Algorithm 1 picks."""
    r, k, p = gfp.radix(prime), gfp.digits(prime), gfp.modulus(prime)
    n = (2 * k) ** e
    X = transform([0, 1] + [0] * (n - 2), prime)
    omega = X[1]
    assert pow(omega, n, p) == 1 and pow(omega, n // 2, p) == p - 1
    assert pow(omega, n // (2 * k), p) == r
    assert omega == algorithm1_root(p, r, k, n)
    assert X[: min(n, 64)] == [pow(omega, m, p) for m in range(min(n, 64))]


@pytest.mark.parametrize("prime,e,outputs", [("p3", 3, [0, 1, 2, 15, 16, 17, 255, 256, 2049, 4095]),
                                             ("p4", 2, [0, 1, 31, 32, 33, 511, 1000, 1023])])
def test_larger_sizes_on_sampled_outputs(ctx, prime, e, outputs):
    r, k, p = gfp.radix(prime), gfp.digits(prime), gfp.modulus(prime)
    n = (2 * k) ** e
    x = elements(prime, n, seed=e, kind="mixed")
    a = gfp.to_digits(x, prime)
    X = gfp.forward(a, prime)
    got = gfp.from_digits(X, prime)
    assert [got[m] for m in outputs] == naive_dft(x, algorithm1_root(p, r, k, n), p, outputs)
    assert np.array_equal(gfp.inverse(X, prime), a)


def test_batches_along_the_leading_axes(ctx):
    prime, k = "p3", 8
    rows = [elements(prime, 16, seed=s, kind="mixed") for s in range(6)]
    a = gfp.to_digits(rows, prime).reshape(2, 3, k, 16)
    X = gfp.forward(a, prime)
    assert X.shape == (2, 3, k, 16)
    for i in range(2):
        for j in range(3):
            assert np.array_equal(X[i, j], gfp.forward(a[i, j], prime))
    assert np.array_equal(gfp.inverse(X, prime), a)
    empty = gfp.forward(np.zeros((0, k, 16), dtype=np.uint64), prime)
    assert empty.shape == (0, k, 16)


@pytest.mark.parametrize("prime", PRIMES)
def test_cyclic_convolution_through_the_fft(ctx, prime):
    """inverse(forward(a) * forward(b)) is the cyclic convolution (the product taken in Python)."""
    k, p = gfp.digits(prime), gfp.modulus(prime)
    n = 2 * k
    x, y = elements(prime, n, 1, "mixed"), elements(prime, n, 2, "mixed")
    X, Y = transform(x, prime), transform(y, prime)
    got = transform([u * v % p for u, v in zip(X, Y)], prime, inverse=True)
    want = [0] * n
    for i, u in enumerate(x):
        for j, v in enumerate(y):
            want[(i + j) % n] = (want[(i + j) % n] + u * v) % p
    assert got == want


@pytest.mark.parametrize("prime", PRIMES)
def test_pointwise_mul(ctx, prime):
    """a * b mod p element by element against Python ints, any N, batches; the convolution
    through forward, pointwise_mul and inverse."""
    p, k = gfp.modulus(prime), gfp.digits(prime)
    for n, rows in ((1, 1), (5, 1), (300, 2)):
        x = [elements(prime, n, 10 + i, "mixed") for i in range(rows)]
        y = [elements(prime, n, 20 + i, "mixed") for i in range(rows)]
        a, b = gfp.to_digits(x, prime), gfp.to_digits(y, prime)
        keep = a.copy()
        c = gfp.pointwise_mul(a, b, prime)
        assert isinstance(c, np.ndarray) and c.dtype == np.uint64 and c.shape == (rows, k, n)
        assert np.array_equal(a, keep)
        check_canonical(c, prime)
        assert gfp.from_digits(c, prime) == [[u * v % p for u, v in zip(r, s)] for r, s in zip(x, y)]
    assert gfp.pointwise_mul(a[0], a[0], prime).shape == (k, 300)  # one row, squares
    n = 2 * k
    x, y = elements(prime, n, 3, "mixed"), elements(prime, n, 4, "mixed")
    X, Y = gfp.forward(gfp.to_digits(x, prime), prime), gfp.forward(gfp.to_digits(y, prime), prime)
    got = gfp.from_digits(gfp.inverse(gfp.pointwise_mul(X, Y, prime), prime), prime)
    want = [0] * n
    for i, u in enumerate(x):
        for j, v in enumerate(y):
            want[(i + j) % n] = (want[(i + j) % n] + u * v) % p
    assert got == want
    empty = gfp.pointwise_mul(np.zeros((0, k, 4), dtype=np.uint64), np.zeros((0, k, 4), dtype=np.uint64), prime)
    assert empty.shape == (0, k, 4)


def test_pointwise_mul_rejects():
    r = gfp.radix("p3")
    a = gfp.to_digits([1] * 4, "p3")
    bad = a.copy()
    bad[0, 2] = r
    with pytest.raises(ValueError, match="b\\[:, 2\\] is not a canonical element"):
        gfp.pointwise_mul(a, bad, "p3")
    with pytest.raises(ValueError, match="different shapes"):
        gfp.pointwise_mul(a, a[:, :2].copy(), "p3")
    with pytest.raises(ValueError, match="shape \\(..., 16, N\\) for p4"):
        gfp.pointwise_mul(a, a, "p4")
    with pytest.raises(ValueError, match="not C-contiguous"):
        gfp.pointwise_mul(a[:, ::2], a[:, ::2], "p3")
    with pytest.raises(TypeError, match="uint64"):
        gfp.pointwise_mul(a.astype(np.int64), a, "p3")


def test_inputs_are_not_written_and_the_contexts_agree(ctx):
    a = gfp.to_digits(elements("p4", 32, 5, "mixed"), "p4")
    keep = a.copy()
    cpu = gfp.forward(a, "p4", context="cpu")
    assert np.array_equal(a, keep)
    assert np.array_equal(gfp.forward(a, "p4", context=ctx), cpu)  # the fixture's context, given by argument
    assert np.array_equal(gfp.inverse(cpu, gfp.PRIMES["p4"], context=ctx), a)
    assert np.array_equal(a, keep)


# ---- the helpers ----------------------------------------------------------------------------


def test_the_prime_table():
    assert gfp.PRIMES == {"p3": (2**63 + 2**34) ** 8 + 1, "p4": (2**62 + 2**36) ** 16 + 1,
                          "p5": (2**62 + 2**56) ** 32 + 1}
    for name, p in gfp.PRIMES.items():
        assert gfp.modulus(name) == gfp.modulus(p) == p == gfp.radix(name) ** gfp.digits(name) + 1
        assert gfp.digits(mpgpu.Integer(p)) == {"p3": 8, "p4": 16, "p5": 32}[name]
    with pytest.raises(ValueError, match="'p3', 'p4', 'p5'"):
        gfp.radix("p6")
    with pytest.raises(ValueError, match="table primes"):
        gfp.modulus(7681)
    with pytest.raises(TypeError):
        gfp.digits(1.5)


@pytest.mark.parametrize("prime", PRIMES)
def test_digits_round_trip(prime):
    r, k, p = gfp.radix(prime), gfp.digits(prime), gfp.modulus(prime)
    x = elements(prime, 50, 3, "mixed") + [p - 1, 0, r**k - 1]
    a = gfp.to_digits(x, prime)
    assert a.shape == (k, len(x)) and a.dtype == np.uint64
    assert gfp.from_digits(a, prime) == x
    assert a[:, x.index(p - 1)].tolist() == [0] * (k - 1) + [r]  # the special form
    assert all(int(d) < r for d in a[:, x.index(r**k - 1)])
    check_canonical(a, prime)
    with pytest.raises(ValueError, match="not in \\[0, p\\)"):
        gfp.to_digits([p], prime)
    with pytest.raises(ValueError, match="not in \\[0, p\\)"):
        gfp.to_digits([-1], prime)
    with pytest.raises(ValueError, match="shape"):
        gfp.from_digits(np.zeros((k + 1, 4), dtype=np.uint64), prime)


def test_the_canonical_check_of_cuda_arrays_on_numpy():
    """_device_arrays.gfp_first_noncanonical (run by CuPy on CUDA arrays) agrees with the rule."""
    r, k = gfp.radix("p3"), 8
    rng = random.Random(1)
    for _ in range(50):
        a = gfp.to_digits([elements("p3", 16, rng.randrange(99), "mixed") for _ in range(3)], "p3")
        assert _device_arrays.gfp_first_noncanonical(a, r) is None
        row, i, d = rng.randrange(3), rng.randrange(16), rng.randrange(k)
        case = rng.randrange(3)
        if case == 0:
            a[row, d, i] = rng.choice([r + 1, 2**64 - 1, r + rng.randrange(2**60)])
        elif case == 1:
            a[row, :, i] = 0
            a[row, rng.randrange(k - 1), i] = r
        else:
            a[row, :, i] = 0
            a[row, k - 1, i] = r
            a[row, rng.randrange(k - 1), i] = 1
        assert _device_arrays.gfp_first_noncanonical(a, r) == row * 16 + i


# ---- rejected arguments -----------------------------------------------------------------------


def test_wrong_dtypes_and_types_are_type_errors():
    a = gfp.to_digits([1] * 16, "p3")
    with pytest.raises(TypeError, match="uint64"):
        gfp.forward(a.astype(np.uint32), "p3")
    with pytest.raises(TypeError, match="uint64"):
        gfp.forward(a.astype(np.int64), "p3")
    with pytest.raises(TypeError, match="NumPy array"):
        gfp.forward([[1] * 16] * 8, "p3")
    with pytest.raises(TypeError, match="prime must be"):
        gfp.forward(a, 1.5)


def test_wrong_shapes_and_primes_are_value_errors():
    a = gfp.to_digits([1] * 16, "p3")
    with pytest.raises(ValueError, match="shape \\(\\.\\.\\., 16, N\\) for p4"):
        gfp.forward(a, "p4")
    with pytest.raises(ValueError, match="shape \\(\\.\\.\\., 8, N\\)"):
        gfp.forward(a[0], "p3")
    for n in (1, 8, 32, 48, 17):
        with pytest.raises(ValueError, match=f"length {n}, not a power \\(2k\\)\\*\\*e = 16\\*\\*e"):
            gfp.forward(np.zeros((8, n), dtype=np.uint64), "p3")
    with pytest.raises(ValueError, match="'p3', 'p4', 'p5'"):
        gfp.forward(a, "P3")
    with pytest.raises(ValueError, match="table primes"):
        gfp.inverse(a, 2**64 - 59)
    with pytest.raises(ValueError, match="not C-contiguous .*numpy.ascontiguousarray"):
        gfp.forward(np.zeros((2, 8, 32), dtype=np.uint64)[:, :, ::2], "p3")


def test_non_canonical_elements_are_named():
    r = gfp.radix("p3")
    a = gfp.to_digits([[1] * 16] * 3, "p3")
    for d, i, value, others in [(0, 5, r, 0), (7, 3, r + 1, 0), (3, 9, 2**64 - 1, 0), (7, 11, r, 1)]:
        bad = a.copy()
        bad[2, :, i] = others
        bad[2, d, i] = value
        keep = bad.copy()
        with pytest.raises(ValueError, match=f"a\\[2\\]\\[:, {i}\\] is not a canonical element"):
            gfp.forward(bad, "p3")
        with pytest.raises(ValueError, match=f"a\\[2\\]\\[:, {i}\\] is not a canonical element"):
            gfp.inverse(bad, "p3")
        assert np.array_equal(bad, keep)
    special = a.copy()
    special[1, :, 4] = 0
    special[1, 7, 4] = r  # p - 1: canonical
    gfp.forward(special, "p3")


def test_cuda_arrays_on_the_cpu_context_are_refused():
    class OnCudaDevice:
        def __dlpack_device__(self):
            return (2, 0)

        def __dlpack__(self, **kwargs):
            raise AssertionError("a CUDA array given to the CPU context was read")

    for fn in (gfp.forward, gfp.inverse):
        with pytest.raises(ValueError, match="is in CUDA memory and the context is the CPU"):
            fn(OnCudaDevice(), "p3", context="cpu")
    with pytest.raises(ValueError, match="is in CUDA memory and the context is the CPU"):
        gfp.pointwise_mul(OnCudaDevice(), OnCudaDevice(), "p3", context="cpu")


# ---- CUDA arrays (a GPU and CuPy or PyTorch) ------------------------------------------------


@pytest.mark.cuda
@pytest.mark.parametrize("prime,shape", [("p3", (8, 16)), ("p3", (2, 8, 256)), ("p4", (16, 1024)),
                                         ("p5", (3, 32, 64))])
def test_cupy_transforms(gpu, cupy, prime, shape):
    k, n = shape[-2], shape[-1]
    rows = int(np.prod(shape[:-2]))
    values = [elements(prime, n, s, "mixed") for s in range(rows)]
    host = gfp.to_digits(values, prime).reshape(shape)
    c = cupy.asarray(host)
    X = gfp.forward(c, prime)
    assert isinstance(X, cupy.ndarray) and X.dtype == cupy.uint64 and X.shape == shape and X.device.id == 0
    assert np.array_equal(cupy.asnumpy(X), gfp.forward(host, prime, context="cpu"))
    back = gfp.inverse(X, prime)
    assert isinstance(back, cupy.ndarray) and np.array_equal(cupy.asnumpy(back), host)
    assert np.array_equal(cupy.asnumpy(c), host)  # the input is not written
    if n <= 256:
        p = gfp.modulus(prime)
        omega = algorithm1_root(p, gfp.radix(prime), k, n)
        got = gfp.from_digits(cupy.asnumpy(X).reshape(rows, k, n)[0], prime)
        assert got == naive_dft(values[0], omega, p)
    Z = gfp.pointwise_mul(X, c, prime)
    assert isinstance(Z, cupy.ndarray) and Z.shape == shape
    assert np.array_equal(cupy.asnumpy(Z), gfp.pointwise_mul(cupy.asnumpy(X), host, prime, context="cpu"))


@pytest.mark.cuda
def test_cupy_bad_input(gpu, cupy):
    r = gfp.radix("p3")
    host = gfp.to_digits([[1] * 16] * 2, "p3")
    bad = host.copy()
    bad[1, 7, 3] = r
    bad[1, 2, 3] = 5
    c = cupy.asarray(bad)
    with pytest.raises(ValueError, match="a\\[1\\]\\[:, 3\\] is not a canonical element"):
        gfp.forward(c, "p3")
    with pytest.raises(ValueError, match="b\\[1\\]\\[:, 3\\] is not a canonical element"):
        gfp.pointwise_mul(cupy.asarray(host), c, "p3")
    assert np.array_equal(cupy.asnumpy(c), bad)
    with pytest.raises(ValueError, match="not C-contiguous .*cupy.ascontiguousarray"):
        gfp.forward(cupy.asarray(np.ascontiguousarray(host.swapaxes(0, 1))).swapaxes(0, 1), "p3")
    with pytest.raises(TypeError, match="uint64"):
        gfp.forward(cupy.asarray(host.astype(np.uint32)), "p3")


@pytest.mark.cuda
def test_torch_tensors(gpu, torch):
    host = gfp.to_digits([elements("p4", 32, s, "mixed") for s in range(2)], "p4")
    t = torch_u64(torch, host)
    X = gfp.forward(t, "p4")
    assert isinstance(X, torch.Tensor) and X.device.type == "cuda" and X.dtype == torch.uint64
    assert np.array_equal(numpy_u64(torch, X), gfp.forward(host, "p4", context="cpu"))
    assert np.array_equal(numpy_u64(torch, gfp.inverse(X, "p4")), host)
    assert np.array_equal(numpy_u64(torch, t), host)
    bad = host.copy()
    bad[0, 15, 7] = 2**64 - 1
    with pytest.raises(ValueError, match="a\\[0\\]\\[:, 7\\] is not a canonical element"):
        gfp.forward(torch_u64(torch, bad), "p4")
