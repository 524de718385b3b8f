# The type stubs shipped in the package (mpgpu/__init__.pyi, mpgpu/batch.pyi)
# name exactly the public names of the package, its classes and mpgpu.batch,
# so they cannot fall behind the bindings; with mypy installed, a sample
# program type-checks against them.
import ast
import inspect
import subprocess
import sys
from pathlib import Path

import pytest

import mpgpu

PACKAGE = Path(mpgpu.__file__).parent


def stub_names(path):
    """Public module-level names and, per class, public member names of a stub."""
    tree = ast.parse(path.read_text())
    names, classes = set(), {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.ImportFrom):
            names.update(a.asname for a in node.names if a.asname and a.asname == a.name)
        if isinstance(node, ast.ClassDef):
            members = set()
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    members.add(item.name)
                elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    members.add(item.target.id)
            classes[node.name] = members
    public = {n for n in names if not n.startswith("_") or n == "__version__"}
    return public, classes


def runtime_public(obj):
    return {n for n in dir(obj) if not n.startswith("_")}


def test_package_stub_names_match_the_module():
    names, classes = stub_names(PACKAGE / "__init__.pyi")
    submodules = {"batch", "ntt", "dot"}
    runtime = {n for n in runtime_public(mpgpu) if not inspect.ismodule(getattr(mpgpu, n)) or n in submodules}
    runtime.add("__version__")
    assert names == runtime, (sorted(names - runtime), sorted(runtime - names))


@pytest.mark.parametrize("cls", ["Integer", "Context", "Batch"])
def test_class_stubs_name_every_method(cls):
    _, classes = stub_names(PACKAGE / "__init__.pyi")
    runtime_type = getattr(mpgpu, cls)
    # The type's own attributes (nanobind's base class adds none that users call).
    own = set(vars(runtime_type)) - {"__doc__", "__module__", "__dict__", "__weakref__", "__new__",
                                     "__nb_signature__", "__annotations__"}
    own = {n for n in own if not n.startswith("_") or n.endswith("__")}
    assert classes[cls] == own, (sorted(classes[cls] - own), sorted(own - classes[cls]))


def test_batch_stub_names_match_mpgpu_batch():
    names, _ = stub_names(PACKAGE / "batch.pyi")
    names.discard("__version__")
    assert names == set(mpgpu.batch.__all__), (sorted(names - set(mpgpu.batch.__all__)),
                                               sorted(set(mpgpu.batch.__all__) - names))


@pytest.mark.parametrize("name", ["ntt", "dot"])
def test_modp_stub_names_match_the_submodule(name):
    names, _ = stub_names(PACKAGE / f"{name}.pyi")
    module = getattr(mpgpu, name)
    assert names == set(module.__all__), (sorted(names - set(module.__all__)), sorted(set(module.__all__) - names))
    assert set(module.__all__) == runtime_public(module) - {"annotations"}


def test_stubs_are_shipped_and_typed():
    assert (PACKAGE / "py.typed").exists()


SAMPLE = '''
import mpgpu
from mpgpu import batch
a = mpgpu.Batch([1, 2, 3], 64)
b: mpgpu.Batch = a + 1
s, c = batch.add(a, b, carry=True)
q, r = divmod(a, 3)
x: mpgpu.Integer = mpgpu.Integer(5) * 3 + mpgpu.isqrt(10)
n: int = a[0] + len(a)
with mpgpu.context("cpu") as ctx:
    y: mpgpu.Integer = mpgpu.fac(10)
assert isinstance(ctx, mpgpu.Context)
values: list[int] = a.to_list()
import numpy
from mpgpu import dot, ntt
w = numpy.arange(8, dtype=numpy.uint64)
spectrum = ntt.forward(w, ntt.PRIMES62[0], order="bit_reversed")
product = ntt.poly_mul(w, w, 998244353)
total: int = dot.dot(w, w, 2**61 - 1, method="integer_delayed")
m = dot.matmul(w.reshape(2, 4), w.reshape(4, 2), 7681)
'''


def test_sample_program_type_checks(tmp_path):
    pytest.importorskip("mypy")
    program = tmp_path / "sample.py"
    program.write_text(SAMPLE)
    r = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", str(tmp_path / "c"),
                        str(program)], capture_output=True, text=True, cwd=tmp_path,
                       env={"MYPYPATH": str(PACKAGE.parent), "PATH": ""})
    assert r.returncode == 0, r.stdout + r.stderr
