# mpgpu.dot against plain Python: sums of products and matrix products mod p
# with Python ints, for every dtype and every method the bounds admit, random
# and adversarial values (0, p-1), strided views, empty operands; then the
# rejected arguments.
import random

import pytest

np = pytest.importorskip("numpy")

import mpgpu  # noqa: E402
from mpgpu import dot  # noqa: E402

# Small, at fp_naive's bound, near 2^31 and 2^32, a 52-bit prime, near 2^62, 2^63 and 2^64.
PRIMES = [7, 65537, 94906249, 2**31 - 1, 4294967291, 2**52 - 47, 2**61 - 1, 2**63 - 25, 2**64 - 59]
METHODS = [m for m in dot.METHODS if m != "automatic"]
DTYPES = {"uint32": np.uint32, "uint64": np.uint64, "float64": np.float64}


def residues(rng, p, n, kind):
    if kind == "top":
        return [p - 1] * n
    if kind == "mixed":
        return [rng.choice((0, 1, p - 1, p - 2, rng.randrange(p))) for _ in range(n)]
    return [rng.randrange(p) for _ in range(n)]


def fits(dtype, p):
    return {"uint32": p <= 2**32, "uint64": True, "float64": p - 1 < 2**52}[dtype]


def naive_matmul(A, B, p):
    return [[sum(int(A[i][l]) * int(B[l][j]) for l in range(len(B))) % p for j in range(len(B[0]) if B else 0)]
            for i in range(len(A))]


@pytest.mark.parametrize("p", PRIMES)
@pytest.mark.parametrize("dtype", list(DTYPES))
def test_dot_every_admissible_method(ctx, p, dtype):
    if not fits(dtype, p):
        pytest.skip("values of this p do not fit the dtype")
    rng = random.Random(p)
    for n in (0, 1, 2, 3, 17, 1000):
        for kind in ("random", "top", "mixed"):
            x, y = residues(rng, p, n, kind), residues(rng, p, n, "mixed")
            a, b = np.array(x, dtype=DTYPES[dtype]), np.array(y, dtype=DTYPES[dtype])
            want = sum(u * v for u, v in zip(x, y)) % p
            ran = 0
            for method in METHODS + ["automatic"]:
                if method != "automatic" and not dot.is_admissible(method, p, n, dtype):
                    with pytest.raises(ValueError):
                        dot.dot(a, b, p, method=method)
                    continue
                if method == "automatic":
                    try:
                        dot.choose_method(p, n, dtype)
                    except ValueError:
                        continue
                got = dot.dot(a, b, p, method=method)
                assert isinstance(got, int) and got == want, (method, n, kind)
                ran += 1
            assert ran  # every p has a method for uint64 (p < 2^64) and the dtypes p fits


def test_dot_strided_views(ctx):
    p = 2**61 - 1
    rng = np.random.default_rng(1)
    base = rng.integers(0, p, size=300, dtype=np.uint64)
    other = rng.integers(0, p, size=600, dtype=np.uint64)
    a, b = base[::3], other[::6]  # 100 each
    want = sum(int(u) * int(v) for u, v in zip(a, b)) % p
    assert dot.dot(a, b, p) == want
    assert dot.dot(a, np.ascontiguousarray(b), p) == want
    col = base[:100 * 3].reshape(100, 3)[:, 1]  # a column of a matrix
    assert dot.dot(col, col, p) == sum(int(u) ** 2 for u in col) % p
    d = base[::5].astype(np.float64) % 65537
    assert dot.dot(d, d, 65537, method="fp_abcd") == sum(int(u) ** 2 for u in d) % 65537


def test_dot_batched(ctx):
    rng = random.Random(2)
    for p, dtype in ((65537, "uint32"), (2**62 - 57, "uint64"), (94906249, "float64")):
        for count, n in ((0, 5), (1, 1), (4, 33), (3, 0)):
            x = [residues(rng, p, n, "mixed") for _ in range(count)]
            y = [residues(rng, p, n, "random") for _ in range(count)]
            a = np.array(x, dtype=DTYPES[dtype]).reshape(count, n)
            b = np.array(y, dtype=DTYPES[dtype]).reshape(count, n)
            got = dot.dot_batched(a, b, p)
            assert got.dtype == np.uint64 and got.shape == (count,)
            assert got.tolist() == [sum(u * v for u, v in zip(r, s)) % p for r, s in zip(x, y)]


@pytest.mark.parametrize("p", [7, 94906249, 2**31 - 1, 2**52 - 47, 2**62 - 57, 2**64 - 59])
@pytest.mark.parametrize("dtype", ["uint64", "float64"])
def test_matmul_and_matvec(ctx, p, dtype):
    if not fits(dtype, p):
        pytest.skip("values of this p do not fit the dtype")
    rng = random.Random(p + len(dtype))
    for m, k, n in ((1, 1, 1), (2, 3, 4), (5, 1, 2), (3, 0, 2), (0, 3, 2), (17, 33, 9), (40, 70, 3)):
        A = [residues(rng, p, k, "mixed") for _ in range(m)]
        B = [residues(rng, p, n, "top" if i % 2 else "random") for i in range(k)]
        a = np.array(A, dtype=DTYPES[dtype]).reshape(m, k)
        b = np.array(B, dtype=DTYPES[dtype]).reshape(k, n)
        want = [[sum(A[i][l] * B[l][j] for l in range(k)) % p for j in range(n)] for i in range(m)]
        for method in ("automatic", "integer_delayed", "fp_naive"):
            if method == "fp_naive" and p > 94906249:
                with pytest.raises(ValueError):
                    dot.matmul(a, b, p, method=method)
                continue
            c = dot.matmul(a, b, p, method=method)
            assert c.dtype == DTYPES[dtype] and c.shape == (m, n)
            assert c.astype(object).tolist() == want if dtype == "uint64" else [[int(v) for v in r] for r in c] == want
            x = b[:, 0].copy() if n else np.zeros(k, dtype=DTYPES[dtype])
            y = dot.matvec(a, x, p, method=method)
            assert y.shape == (m,)
            assert [int(v) for v in y] == [sum(A[i][l] * int(x[l]) for l in range(k)) % p for i in range(m)]


def test_matmul_strided_rows(ctx):
    p = 2**61 - 1
    rng = np.random.default_rng(4)
    wide = rng.integers(0, p, size=(6, 10), dtype=np.uint64)
    A = wide[:, 2:7]  # row stride 10, 5 columns
    B = wide[1:6, :4]
    want = naive_matmul(A.tolist(), B.tolist(), p)
    assert dot.matmul(A, B, p).tolist() == want
    assert dot.matvec(A, np.ascontiguousarray(B[:, 0]), p).tolist() == [r[0] for r in want]


# ---- rejected arguments ------------------------------------------------------------------------


def test_dot_rejections():
    a = np.arange(8, dtype=np.uint64)
    with pytest.raises(TypeError, match="same dtype"):
        dot.dot(a, a.astype(np.uint32), 11)
    with pytest.raises(TypeError, match="must hold uint64, uint32 or float64"):
        dot.dot(a.astype(np.int32), a.astype(np.int32), 11)
    with pytest.raises(TypeError, match="NumPy array"):
        dot.dot([1, 2], [3, 4], 11)
    with pytest.raises(ValueError, match="different lengths 8 and 7"):
        dot.dot(a, a[:7], 11)
    with pytest.raises(ValueError, match="must be 1-D"):
        dot.dot(a.reshape(2, 4), a.reshape(2, 4), 11)
    with pytest.raises(ValueError, match="positive strides"):
        dot.dot(a[::-1], a, 11)
    with pytest.raises(ValueError, match=r"a\[7\]"):
        dot.dot(a, a, 7)
    with pytest.raises(ValueError, match=r"b\[3\]"):
        dot.dot(np.zeros(4), np.array([0, 1, 2, 2.5]), 7)
    with pytest.raises(ValueError, match=r"b\[0\]"):
        dot.dot(np.zeros(1), np.array([-1.0]), 7)
    with pytest.raises(ValueError, match=r"b\[1\]"):
        dot.dot(np.zeros(2), np.array([0, np.nan]), 7)
    with pytest.raises(ValueError, match="method must be"):
        dot.dot(a, a, 11, method="fast")
    with pytest.raises(ValueError, match="not prime"):
        dot.dot(a, a, 12)
    with pytest.raises(ValueError, match="below 2\\*\\*64"):
        dot.dot(a, a, 2**64 + 1)
    with pytest.raises(ValueError, match="uint32"):  # uint32 residues need p <= 2^30 + 1 ... or the stated bound
        dot.dot(a.astype(np.uint32), a.astype(np.uint32), 2**61 - 1)


def test_dot_batched_rejections():
    a = np.arange(12, dtype=np.uint64).reshape(3, 4)
    with pytest.raises(ValueError, match="2-D of one shape"):
        dot.dot_batched(a, a[:2], 13)
    with pytest.raises(ValueError, match="2-D of one shape"):
        dot.dot_batched(a.ravel(), a.ravel(), 13)
    with pytest.raises(ValueError, match="not C-contiguous"):
        dot.dot_batched(a.T, a.T, 13)
    with pytest.raises(ValueError, match=r"dot 2"):
        dot.dot_batched(a, a, 11)


def test_matmul_rejections():
    A = np.arange(6, dtype=np.uint64).reshape(2, 3)
    with pytest.raises(ValueError, match="do not match"):
        dot.matmul(A, A, 7)
    with pytest.raises(ValueError, match="must be 2-D"):
        dot.matmul(A, A[0], 7)
    with pytest.raises(TypeError, match="uint64 or float64"):
        dot.matmul(A.astype(np.uint32), A.T.astype(np.uint32), 7)
    with pytest.raises(TypeError, match="same dtype"):
        dot.matmul(A, A.T.astype(np.float64), 7)
    with pytest.raises(ValueError, match="rows of B are not contiguous"):
        dot.matmul(A, A.T, 7)  # A.T has column stride 3
    with pytest.raises(ValueError, match=r"A\[1\]\[2\]"):
        dot.matmul(A, np.ascontiguousarray(A.T), 5)
    with pytest.raises(ValueError, match="fp_lambda"):
        dot.matmul(A.astype(np.float64), np.ascontiguousarray(A.T).astype(np.float64), 7, method="fp_lambda")
    with pytest.raises(ValueError, match="do not match"):
        dot.matvec(A, np.zeros(2, dtype=np.uint64), 7)
    with pytest.raises(ValueError, match="not C-contiguous"):
        dot.matvec(A, np.zeros(6, dtype=np.uint64)[::2], 7)


def test_methods_and_limits():
    assert dot.METHODS == ("integer_delayed", "fp_naive", "fp_lambda", "fp_abcd", "automatic")
    assert dot.MAX_LENGTH == 2**31 and dot.ABCD_MAX_LENGTH == 2**25
    assert dot.is_admissible("fp_abcd", 65537, 2**25, "float64")
    assert not dot.is_admissible("fp_abcd", 65537, 2**25 + 1, "float64")
    assert not dot.is_admissible("integer_delayed", 65537, 2**31 + 1, "uint64")
    assert dot.is_admissible("fp_naive", 94906249, 10, "float64")
    assert not dot.is_admissible("fp_naive", 94906297, 10, "float64")
    assert not dot.is_admissible("fp_naive", 65537, 10, "uint64")
    assert dot.choose_method(2**61 - 1, 100) == "integer_delayed"
    assert dot.choose_method(65537, 100, np.float64) in METHODS
    with pytest.raises(ValueError, match="name a method"):
        dot.is_admissible("automatic", 7, 1)
    with pytest.raises(TypeError, match="dtype must be"):
        dot.choose_method(7, 1, "int8")
