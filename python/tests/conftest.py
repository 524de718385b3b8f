# Shared fixtures of the Python tests: the context each test runs in, and the
# values the tests try (Python ints are the oracle; gmpy2 too where installed).
#
# Every test that takes `ctx` runs twice: on the CPU context and on CUDA
# device 0 (marker `cuda`; skipped without a usable GPU). CTest runs the two
# halves apart: `-m "not cuda"` (label cpu) and `-m cuda` (label gpu).
import random
import sys

import pytest

import mpgpu


# The oracle prints huge ints too (Python limits int <-> str to 4300 digits by default).
if hasattr(sys, "set_int_max_str_digits"):
    sys.set_int_max_str_digits(0)


def pytest_configure(config):
    config.addinivalue_line("markers", "cuda: runs on a CUDA context (skips without a GPU)")


@pytest.fixture(params=["cpu", pytest.param("cuda:0", marks=pytest.mark.cuda)])
def ctx(request):
    if request.param != "cpu" and mpgpu.cuda_device_count() == 0:
        pytest.skip("no usable CUDA device" + ("" if mpgpu.built_with_cuda() else " (built without CUDA)"))
    with mpgpu.context(request.param) as c:
        yield c


# CUDA device 0 as the current context, CuPy and PyTorch on it: the tests of
# CUDA arrays (Batch, ntt, dot) skip without them.
@pytest.fixture
def gpu():
    if mpgpu.cuda_device_count() == 0:
        pytest.skip("no usable CUDA device" + ("" if mpgpu.built_with_cuda() else " (built without CUDA)"))
    with mpgpu.context("cuda:0") as c:
        yield c


@pytest.fixture
def cupy(gpu):
    return pytest.importorskip("cupy")


@pytest.fixture
def torch(gpu):
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("PyTorch without CUDA")
    if not hasattr(torch, "uint64"):
        pytest.skip("PyTorch without torch.uint64")
    return torch


def adversarial_values():
    """0, +-1, powers of two and their neighbours at limb boundaries, all-ones
    limbs (the longest carry chains), sparse bits, alternating patterns."""
    vals = {0, 1, -1, 2, -2, 3}
    for k in (7, 8, 31, 32, 33, 62, 63, 64, 65, 127, 128, 129, 191, 192, 255, 256, 1000, 4096, 4097):
        for v in (2**k - 1, 2**k, 2**k + 1):
            vals.update((v, -v))
    for limbs in (1, 2, 3, 17):
        ones = 2 ** (64 * limbs) - 1
        vals.update((ones, -ones, ones << 64, (ones << 64) + 1))
    vals.update((2**200 + 2**64 + 1, -(2**300 + 1), int("a5" * 40, 16), -int("5a" * 33, 16)))
    return sorted(vals, key=lambda v: (abs(v), v))


def random_values(count, max_bits, seed):
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        bits = rng.randrange(1, max_bits + 1)
        v = rng.getrandbits(bits)
        if rng.random() < 0.3:  # long runs of 0s and 1s
            run = rng.randrange(1, bits + 1)
            v |= (2**run - 1) << rng.randrange(0, bits)
        out.append(-v if rng.random() < 0.5 else v)
    return out


ADVERSARIAL = adversarial_values()
SMALL = [v for v in ADVERSARIAL if abs(v) < 2**300]
RANDOM = random_values(60, 3000, seed=35)
# About 10^5 decimal digits.
HUGE = [10**100000 - 1, -(2**332193 + 12345), random.Random(7).getrandbits(340000)]
