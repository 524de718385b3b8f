# mpgpu.ntt against plain Python: a naive O(n^2) transform and schoolbook
# products computed with Python ints, random and adversarial values (0, p-1),
# lengths 1, 2, powers of two up to the prime's limit, batches; then every
# rejected argument (dtype, shape, contiguity, value range, modulus).
import random

import pytest

np = pytest.importorskip("numpy")

import mpgpu  # noqa: E402
from mpgpu import ntt  # noqa: E402

P31, P32, P62 = ntt.PRIMES31[0], ntt.PRIMES32[0], ntt.PRIMES62[0]
SMALL_PRIME = 7681  # 15 * 2^9 + 1: not in the table, transforms up to 2^9
PRIMES = [P31, ntt.PRIMES31[3], P32, P62, ntt.PRIMES62[-1], ntt.GOLDILOCKS, SMALL_PRIME]


def factors(x):
    out, d = set(), 2
    while d * d <= x:
        while x % d == 0:
            out.add(d)
            x //= d
        d += 1
    if x > 1:
        out.add(x)
    return out


def primitive_root(p):
    """The smallest primitive root (the library's tables hold exactly these)."""
    qs = factors(p - 1)
    g = 2
    while any(pow(g, (p - 1) // q, p) == 1 for q in qs):
        g += 1
    return g


ROOTS = {}


def root_of_unity(p, n, inverse=False):
    if p not in ROOTS:
        ROOTS[p] = primitive_root(p)
    w = pow(ROOTS[p], (p - 1) // n, p)
    return pow(w, -1, p) if inverse else w


def naive_forward(x, p):
    n = len(x)
    w = root_of_unity(p, n)
    return [sum(int(v) * pow(w, j * k, p) for j, v in enumerate(x)) % p for k in range(n)]


def naive_inverse(x, p):
    n = len(x)
    w = root_of_unity(p, n, inverse=True)
    ninv = pow(n, -1, p)
    return [ninv * sum(int(v) * pow(w, j * k, p) for j, v in enumerate(x)) % p for k in range(n)]


def naive_convolution(a, b, p):
    if not len(a) or not len(b):
        return []
    c = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            c[i + j] = (c[i + j] + int(x) * int(y)) % p
    return c


def residues(rng, p, n, kind="random"):
    if kind == "zeros":
        return [0] * n
    if kind == "top":
        return [p - 1] * n
    if kind == "mixed":
        return [rng.choice((0, 1, p - 1, p - 2, rng.randrange(p))) for _ in range(n)]
    return [rng.randrange(p) for _ in range(n)]


def bit_reverse(values):
    n = len(values)
    bits = n.bit_length() - 1
    return [values[int(format(i, f"0{bits}b")[::-1], 2) if bits else 0] for i in range(n)]


@pytest.mark.parametrize("p", PRIMES)
@pytest.mark.parametrize("log_n", [0, 1, 2, 3, 5, 6])
def test_forward_and_inverse_match_the_naive_transform(ctx, p, log_n):
    rng = random.Random(p * 64 + log_n)
    n = 1 << log_n
    for kind in ("random", "zeros", "top", "mixed"):
        x = residues(rng, p, n, kind)
        a = np.array(x, dtype=np.uint64)
        got = ntt.forward(a, p)
        assert got.dtype == np.uint64 and got.shape == (n,)
        assert got.tolist() == naive_forward(x, p)
        assert ntt.inverse(a, p).tolist() == naive_inverse(x, p)
        assert ntt.inverse(got, p).tolist() == x
        assert a.tolist() == x  # the input is never written
        if p < 2**32:
            a32 = a.astype(np.uint32)
            got32 = ntt.forward(a32, p)
            assert got32.dtype == np.uint32 and got32.tolist() == got.tolist()
            assert ntt.inverse(got32, p).tolist() == x


@pytest.mark.parametrize("p", [P31, P62, ntt.GOLDILOCKS])
def test_batches_along_the_last_axis(ctx, p):
    rng = np.random.default_rng(5)
    for shape in [(3, 8), (2, 3, 4), (1, 1), (5, 1), (0, 16), (4, 2)]:
        a = (rng.integers(0, 2**63, size=shape, dtype=np.uint64) % np.uint64(p)).astype(np.uint64)
        got = ntt.forward(a, p)
        assert got.shape == shape
        flat = a.reshape(-1, shape[-1]) if a.size else a.reshape(0, shape[-1])
        want = [naive_forward(row.tolist(), p) for row in flat]
        assert got.reshape(-1, shape[-1]).tolist() == want
        assert np.array_equal(ntt.inverse(got, p), a)


@pytest.mark.parametrize("log_n", [10, 13, 16])
def test_large_round_trips_and_convolution(ctx, log_n):
    p = P62
    n = 1 << log_n
    rng = np.random.default_rng(log_n)
    a = rng.integers(0, p, size=(2, n), dtype=np.uint64)
    a[0, : n // 4] = p - 1  # long runs of the largest residue
    a[1, n // 2 :] = 0
    assert np.array_equal(ntt.inverse(ntt.forward(a, p), p), a)
    # The convolution theorem: inverse(forward(x) * forward(y)) is the cyclic convolution.
    x = np.zeros(n, dtype=np.uint64)
    y = np.zeros(n, dtype=np.uint64)
    x[:3] = [1, 2, p - 1]
    y[:2] = [p - 1, 5]
    y[n - 1] = 7  # wraps around
    c = ntt.inverse(ntt.pointwise_mul(ntt.forward(x, p), ntt.forward(y, p), p), p)
    want = [0] * n
    for i, u in enumerate(x[:3].tolist()):  # the other coefficients are 0
        for j, v in [(0, p - 1), (1, 5), (n - 1, 7)]:
            want[(i + j) % n] = (want[(i + j) % n] + u * v) % p
    assert c.tolist() == want


@pytest.mark.parametrize("p", [P31, P62, SMALL_PRIME])
def test_bit_reversed_order(ctx, p):
    rng = random.Random(3)
    for log_n in (0, 1, 4, 7):
        x = residues(rng, p, 1 << log_n, "mixed")
        a = np.array(x, dtype=np.uint64)
        rev = ntt.forward(a, p, order="bit_reversed")
        assert rev.tolist() == bit_reverse(naive_forward(x, p))
        assert ntt.inverse(rev, p, order="bit_reversed").tolist() == x
        if p < 2**32:
            rev32 = ntt.forward(a.astype(np.uint32), p, order="bit_reversed")
            assert rev32.tolist() == rev.tolist()


def test_lengths_up_to_the_limit_of_the_prime(ctx):
    # 7681 - 1 = 15 * 2^9: 2^9 points work, 2^10 do not.
    p = SMALL_PRIME
    assert ntt.max_log_n(p) == 9
    x = np.arange(512, dtype=np.uint64)
    assert np.array_equal(ntt.inverse(ntt.forward(x, p), p), x)
    with pytest.raises(ValueError, match="2\\^10 does not divide p - 1"):
        ntt.forward(np.arange(1024, dtype=np.uint64), p)
    # 998244353 = 119 * 2^23 + 1; checked on an empty batch of the length.
    assert ntt.max_log_n(998244353) == 23
    assert ntt.forward(np.zeros((0, 2**23), dtype=np.uint64), 998244353).shape == (0, 2**23)
    with pytest.raises(ValueError, match="does not divide p - 1"):
        ntt.forward(np.zeros((0, 2**24), dtype=np.uint64), 998244353)
    # The library's limit, 2^28 points (P62 allows 2^57).
    assert ntt.MAX_LOG_N == 28 and ntt.max_log_n(P62) == 28
    assert ntt.forward(np.zeros((0, 2**28), dtype=np.uint64), P62).shape == (0, 2**28)
    with pytest.raises(ValueError, match="power of two from 1 to 2\\*\\*28"):
        ntt.forward(np.zeros((0, 2**29), dtype=np.uint64), P62)


def test_the_prime_tables():
    assert ntt.PRIMES31[0] == 15 * 2**27 + 1 and len(ntt.PRIMES31) == 8
    assert ntt.PRIMES32 == (3221225473, 2281701377, 3489660929)
    assert ntt.PRIMES62[0] == 29 * 2**57 + 1 and len(ntt.PRIMES62) == 9
    assert ntt.GOLDILOCKS == 2**64 - 2**32 + 1
    for p in ntt.PRIMES31 + ntt.PRIMES32 + ntt.PRIMES62 + (ntt.GOLDILOCKS,):
        v = ((p - 1) & -(p - 1)).bit_length() - 1
        assert ntt.max_log_n(p) == min(28, v)
    with pytest.raises(ValueError, match="not prime"):
        ntt.max_log_n(2**32 + 1)


@pytest.mark.parametrize("p", [P31, P62, ntt.GOLDILOCKS, 2**64 - 59])
def test_pointwise_mul(ctx, p):
    rng = random.Random(p % 1000)
    for n in (0, 1, 2, 7, 64, 1000):
        for kind in ("random", "top", "mixed"):
            x, y = residues(rng, p, n, kind), residues(rng, p, n, "mixed")
            got = ntt.pointwise_mul(np.array(x, dtype=np.uint64), np.array(y, dtype=np.uint64), p)
            assert got.dtype == np.uint64 and got.tolist() == [u * v % p for u, v in zip(x, y)]
    a = np.array([[1, 2], [p - 1, p - 2]], dtype=np.uint64)
    assert ntt.pointwise_mul(a, a, p).tolist() == [[1, 4], [1, 4]]


@pytest.mark.parametrize("p", [P31, P62, ntt.GOLDILOCKS, SMALL_PRIME])
def test_poly_mul_matches_the_schoolbook_product(ctx, p):
    rng = random.Random(p % 977)
    sizes = [(1, 1), (1, 2), (2, 2), (1, 9), (3, 7), (16, 16), (17, 16), (64, 64), (100, 300), (5, 250)]
    for la, lb in sizes:
        for kind in ("random", "top", "mixed"):
            x, y = residues(rng, p, la, kind), residues(rng, p, lb, "mixed")
            got = ntt.poly_mul(np.array(x, dtype=np.uint64), np.array(y, dtype=np.uint64), p)
            assert got.shape == (la + lb - 1,)
            assert got.tolist() == naive_convolution(x, y, p), (la, lb, kind)


def test_poly_mul_batches_and_empty_operands(ctx):
    p = P62
    rng = np.random.default_rng(11)
    a = rng.integers(0, p, size=(4, 33), dtype=np.uint64)
    b = rng.integers(0, p, size=(4, 40), dtype=np.uint64)
    got = ntt.poly_mul(a, b, p)
    assert got.shape == (4, 72)
    assert got.tolist() == [naive_convolution(x.tolist(), y.tolist(), p) for x, y in zip(a, b)]
    three = ntt.poly_mul(a.reshape(2, 2, 33), b.reshape(2, 2, 40), p)
    assert np.array_equal(three.reshape(4, 72), got)
    empty = np.zeros(0, dtype=np.uint64)
    assert ntt.poly_mul(empty, b[0], p).shape == (0,)
    assert ntt.poly_mul(a[:, :0], b, p).shape == (4, 0)
    assert ntt.poly_mul(a[:0], b[:0], p).shape == (0, 72)


def test_poly_mul_length_limit_of_the_prime(ctx):
    # 7681: padded products of at most 2^9 = 512 coefficients.
    p = SMALL_PRIME
    x = np.full(300, p - 1, dtype=np.uint64)
    y = np.full(213, p - 1, dtype=np.uint64)
    assert ntt.poly_mul(x, y, p).tolist() == naive_convolution(x.tolist(), y.tolist(), p)
    with pytest.raises(ValueError, match="allows at most 2\\^9"):
        ntt.poly_mul(x, np.ones(214, dtype=np.uint64), p)


# ---- rejected arguments: clear errors, never a crash ------------------------------------------


def test_wrong_dtypes_are_type_errors():
    a = np.arange(4, dtype=np.uint64)
    for bad in ([1, 2, 3, 4], (1, 2), "abcd", b"abcd", 5, None, a.astype(np.int64), a.astype(np.float64),
                a.astype(np.uint16), a.astype(">u8"), a.astype(object)):
        with pytest.raises(TypeError, match="mpgpu.ntt.forward: a must"):
            ntt.forward(bad, P31)
    with pytest.raises(TypeError, match="uint64"):
        ntt.pointwise_mul(a.astype(np.uint32), a.astype(np.uint32), P31)
    with pytest.raises(TypeError, match="b must hold uint64"):
        ntt.poly_mul(a, a.astype(np.float64), P31)
    with pytest.raises(TypeError, match="p must be an int"):
        ntt.forward(a, float(P31))


def test_wrong_lengths_and_shapes_are_value_errors():
    for n in (0, 3, 5, 6, 12, 100):
        with pytest.raises(ValueError, match=f"length {n}, not a power of two"):
            ntt.forward(np.zeros(n, dtype=np.uint64), P62)
        with pytest.raises(ValueError, match=f"length {n}, not a power of two"):
            ntt.inverse(np.zeros((2, n), dtype=np.uint32), P31)
    with pytest.raises(ValueError, match="at least one axis"):
        ntt.forward(np.array(3, dtype=np.uint64), P62)
    with pytest.raises(ValueError, match="different shapes"):
        ntt.pointwise_mul(np.zeros(4, dtype=np.uint64), np.zeros(5, dtype=np.uint64), P62)
    with pytest.raises(ValueError, match="same leading axes"):
        ntt.poly_mul(np.zeros((2, 4), dtype=np.uint64), np.zeros((3, 4), dtype=np.uint64), P62)
    with pytest.raises(ValueError, match="same leading axes"):
        ntt.poly_mul(np.zeros((2, 4), dtype=np.uint64), np.zeros(4, dtype=np.uint64), P62)
    with pytest.raises(ValueError, match="order must be"):
        ntt.forward(np.zeros(4, dtype=np.uint64), P62, order="reversed")


def test_non_contiguous_arrays_are_refused():
    a = np.arange(16, dtype=np.uint64)
    for bad in (a[::2], a.reshape(4, 4).T, a[::-1][:8]):
        with pytest.raises(ValueError, match="not C-contiguous.*ascontiguousarray"):
            ntt.forward(bad, P62)
    with pytest.raises(ValueError, match="not C-contiguous"):
        ntt.pointwise_mul(a[::2], a[:8], P62)
    with pytest.raises(ValueError, match="not C-contiguous"):
        ntt.poly_mul(a, a[::2], P62)
    # A read-only, contiguous array is fine.
    ro = a[:8].copy()
    ro.setflags(write=False)
    assert np.array_equal(ntt.inverse(ntt.forward(ro, P62), P62), ro)


def test_values_out_of_range_are_named():
    p = SMALL_PRIME
    a = np.zeros((2, 8), dtype=np.uint64)
    a[1, 3] = p
    with pytest.raises(ValueError, match=r"a\[1\]\[3\] = 7681 is not a residue mod p = 7681"):
        ntt.forward(a, p)
    a[1, 3] = 2**64 - 1
    with pytest.raises(ValueError, match=r"a\[1\]\[3\] = 18446744073709551615"):
        ntt.inverse(a, p)
    b = np.zeros(8, dtype=np.uint32)
    b[7] = 2**32 - 1
    with pytest.raises(ValueError, match=r"a\[7\] = 4294967295"):
        ntt.forward(b, P31)
    with pytest.raises(ValueError, match=r"b\[2\] = 7681"):
        ntt.pointwise_mul(np.zeros(3, dtype=np.uint64), np.array([0, 1, p], dtype=np.uint64), p)
    with pytest.raises(ValueError, match=r"a\[1\]\[0\] = 7681"):
        ntt.poly_mul(np.array([[1], [p]], dtype=np.uint64), np.ones((2, 2), dtype=np.uint64), p)


def test_bad_moduli():
    a = np.zeros(4, dtype=np.uint64)
    for p in (-7, 0, 1, 2**64, 2**64 + 13, 2**100):
        with pytest.raises(ValueError, match="not a prime modulus below 2\\*\\*64"):
            ntt.forward(a, p)
    for p in (4, 15, 2**64 - 1, 3 * 2**30 + 3):
        with pytest.raises(ValueError, match="is not prime"):
            ntt.forward(a, p)
    with pytest.raises(ValueError, match="not an odd prime"):
        ntt.forward(a[:1], 2)
    with pytest.raises(ValueError, match="below 2\\*\\*32"):
        ntt.forward(a.astype(np.uint32), P62)
    # A prime with too few powers of two: 2^2 does not divide 4294967291 - 1.
    with pytest.raises(ValueError, match="does not divide p - 1"):
        ntt.forward(a.astype(np.uint32), 4294967291)
    with pytest.raises(ValueError, match="not prime"):
        ntt.pointwise_mul(a, a, 9)


def test_numpy_integer_moduli_and_context_argument():
    a = np.arange(4, dtype=np.uint64)
    want = ntt.forward(a, P62)
    assert np.array_equal(ntt.forward(a, np.uint64(P62), context="cpu"), want)
    assert np.array_equal(ntt.forward(a, mpgpu.Integer(P62), context=mpgpu.Context("cpu")), want)
