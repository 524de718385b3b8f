# Contexts: specs, the default, `with mpgpu.context(...)`, moving values,
# mixing contexts; errors as Python exceptions.
import threading

import pytest

import mpgpu


def test_cpu_context():
    c = mpgpu.Context("cpu")
    assert c.backend == "cpu" and c.device == -1 and not c.is_cuda
    assert c == mpgpu.Context("cpu") and hash(c) == hash(mpgpu.Context("cpu"))
    assert repr(c) == "mpgpu.Context('cpu')" and str(c) == "cpu"
    assert c.info()["backend"] == "cpu" and "gmp_version" in c.info()
    c.synchronize()


def test_auto_and_default():
    auto = mpgpu.Context("auto")
    assert auto.backend == ("cuda" if mpgpu.cuda_device_count() > 0 else "cpu")
    assert isinstance(mpgpu.get_default_context(), mpgpu.Context)


def test_with_block_nests_and_restores():
    before = mpgpu.get_context()
    with mpgpu.context("cpu") as c:
        assert mpgpu.get_context() == c and mpgpu.Integer(5).context == c
        with mpgpu.context(mpgpu.Context("cpu")):
            assert mpgpu.get_context() == c
        assert mpgpu.fac(10).context == c
    assert mpgpu.get_context() == before


def test_with_block_is_per_thread():
    seen = []
    with mpgpu.context("cpu"):
        t = threading.Thread(target=lambda: seen.append(mpgpu.get_context()))
        t.start()
        t.join()
    assert seen == [mpgpu.get_default_context()]


def test_set_default_context():
    old = mpgpu.get_default_context()
    try:
        mpgpu.set_default_context("cpu")
        assert mpgpu.get_context() == mpgpu.Context("cpu")
        mpgpu.set_default_context(None)
    finally:
        mpgpu.set_default_context(old)


def test_explicit_context_argument():
    x = mpgpu.Integer(7, context="cpu")
    assert x.context == mpgpu.Context("cpu")
    assert x.to_context("cpu") == 7 and x.to_context(mpgpu.Context("cpu")).context == x.context
    with pytest.raises(TypeError):
        mpgpu.Integer(1, context=5)


def test_bad_specs():
    with pytest.raises(ValueError):
        mpgpu.Context("gpu")
    with pytest.raises(mpgpu.BackendUnavailable) as info:
        mpgpu.Context("cuda:99")
    assert isinstance(info.value, RuntimeError)


def test_exception_classes():
    assert issubclass(mpgpu.ParseError, ValueError)
    assert issubclass(mpgpu.OutOfMemoryError, MemoryError)
    assert issubclass(mpgpu.CudaError, RuntimeError)
    assert issubclass(mpgpu.BackendUnavailable, RuntimeError)


@pytest.mark.cuda
def test_cuda_and_cpu_values():
    if mpgpu.cuda_device_count() == 0:
        pytest.skip("no usable CUDA device")
    gpu, cpu = mpgpu.Context("cuda:0"), mpgpu.Context("cpu")
    assert gpu.backend == "cuda" and gpu.device == 0 and gpu == mpgpu.Context("cuda")
    x = mpgpu.Integer(3**5000, context=gpu)
    y = x.to_context(cpu)
    assert y.context == cpu and y == 3**5000 and x == y  # comparing moves across contexts
    with pytest.raises(ValueError):
        x + y  # arithmetic needs one context
    big = mpgpu.Integer(7, context=gpu) ** 300000
    assert int(big) == 7**300000 and int(big * big % (10**40 + 9)) == pow(7, 600000, 10**40 + 9)
