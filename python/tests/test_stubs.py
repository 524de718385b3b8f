# The type stubs shipped in the package (mpgpu/__init__.pyi, batch.pyi, ntt.pyi,
# dot.pyi, gfp.pyi) name exactly the public names of the package, its classes
# and its submodules, and every function's parameters as the compiled module
# declares them (nanobind's __nb_signature__, as nanobind.stubgen reads it; for
# the Python functions, inspect.signature): names, order, positional-only and
# keyword-only markers and which have defaults. Every public function and class
# has a docstring at run time and in its stub. So the stubs cannot fall behind
# the bindings; with mypy installed, a sample program (NumPy arrays, and a
# stand-in for a CUDA array whose type the results must keep) type-checks.
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
    submodules = {"batch", "ntt", "dot", "gfp"}
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


@pytest.mark.parametrize("name", ["ntt", "dot", "gfp"])
def test_modp_stub_names_match_the_submodule(name):
    names, _ = stub_names(PACKAGE / f"{name}.pyi")
    module = getattr(mpgpu, name)
    assert names == set(module.__all__), (sorted(names - set(module.__all__)), sorted(set(module.__all__) - names))
    assert set(module.__all__) == runtime_public(module) - {"annotations"}

# ---- parameters and docstrings -------------------------------------------------------

STUBS = {"mpgpu": "__init__.pyi", "mpgpu.batch": "batch.pyi", "mpgpu.ntt": "ntt.pyi", "mpgpu.dot": "dot.pyi",
         "mpgpu.gfp": "gfp.pyi"}


def stub_functions(path):
    """{name or Class.name: [FunctionDef, ...]} of a stub (several for @overload), and its classes."""
    tree = ast.parse(path.read_text())
    out, classes = {}, {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            out.setdefault(node.name, []).append(node)
        elif isinstance(node, ast.ClassDef):
            classes[node.name] = node
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and not any(
                        isinstance(d, ast.Attribute) and d.attr in ("setter", "deleter") for d in item.decorator_list):
                    out.setdefault(f"{node.name}.{item.name}", []).append(item)
    return out, classes


def is_property(node):
    return any(isinstance(d, ast.Name) and d.id == "property" for d in node.decorator_list)


def stub_params(node):
    """[(name, kind, has_default)] of a stub's function, kind as inspect.Parameter's names."""
    a = node.args
    out = []
    positional = a.posonlyargs + a.args
    first_default = len(positional) - len(a.defaults)
    for i, arg in enumerate(positional):
        out.append((arg.arg, "POSITIONAL_ONLY" if i < len(a.posonlyargs) else "POSITIONAL_OR_KEYWORD",
                    i >= first_default))
    if a.vararg:
        out.append((a.vararg.arg, "VAR_POSITIONAL", False))
    for arg, default in zip(a.kwonlyargs, a.kw_defaults):
        out.append((arg.arg, "KEYWORD_ONLY", default is not None))
    if a.kwarg:
        out.append((a.kwarg.arg, "VAR_KEYWORD", False))
    return out


def split_top_level(text):
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    if text[start:].strip():
        parts.append(text[start:])
    return [p.strip() for p in parts]


def nb_params(signature):
    """[(name, kind, has_default)] of one of nanobind's signature texts
    ("def f(a: int, /, b: str = \\0, *, c: object | None = \\1) -> object"): only the
    parameter list is read, so C++ type names in annotations do not matter."""
    start = signature.index("(") + 1
    depth, end = 1, start
    while depth:
        depth += {"(": 1, "[": 1, ")": -1, "]": -1}.get(signature[end], 0)
        end += 1
    params = split_top_level(signature[start:end - 1])
    out, kind = [], "POSITIONAL_OR_KEYWORD"
    if "/" in params:
        for i in range(params.index("/")):
            params[i] = ("POSITIONAL_ONLY", params[i])
    for p in params:
        fixed_kind = None
        if isinstance(p, tuple):
            fixed_kind, p = p
        if p == "/":
            continue
        if p == "*":
            kind = "KEYWORD_ONLY"
            continue
        name = p.split(":")[0].split("=")[0].strip()
        if name.startswith("**"):
            out.append((name[2:], "VAR_KEYWORD", False))
        elif name.startswith("*"):
            out.append((name[1:], "VAR_POSITIONAL", False))
            kind = "KEYWORD_ONLY"
        else:
            out.append((name, fixed_kind or kind, "=" in p))
    return out


def runtime_signatures(obj):
    """The parameter lists of a runtime function: one per nanobind overload, or inspect's."""
    if hasattr(obj, "__nb_signature__") and not isinstance(obj.__nb_signature__, str):
        return [nb_params(sig[0]) for sig in obj.__nb_signature__ if sig[0]]
    sig = inspect.signature(obj)
    return [[(p.name, p.kind.name, p.default is not inspect.Parameter.empty) for p in sig.parameters.values()]]


def runtime_object(module, qualname):
    obj = module
    for part in qualname.split("."):
        obj = vars(obj)[part] if isinstance(obj, type) and part in vars(obj) else getattr(obj, part)
    return obj


def stub_cases():
    cases = []
    for module_name, stub in STUBS.items():
        functions, _ = stub_functions(PACKAGE / stub)
        for qualname, nodes in sorted(functions.items()):
            if qualname.startswith("_") and not qualname.startswith("__"):
                continue
            cases.append(pytest.param(module_name, qualname, id=f"{module_name}:{qualname}"))
    return cases


@pytest.mark.parametrize("module_name,qualname", stub_cases())
def test_stub_parameters_match_the_module(module_name, qualname):
    import importlib

    module = importlib.import_module(module_name)
    nodes = stub_functions(PACKAGE / STUBS[module_name])[0][qualname]
    if any(is_property(n) for n in nodes):
        return  # a property: no parameters to compare
    obj = runtime_object(module, qualname)
    if isinstance(obj, (staticmethod, classmethod)):
        obj = obj.__func__
    try:
        runtime = runtime_signatures(obj)
    except (TypeError, ValueError):  # a slot wrapper (__len__ and the like): C's own signature
        pytest.skip(f"{qualname}: no signature at run time")
    # Positional-only parameters have no names a caller can use ("self", "arg", "other").
    def callable_by(params):
        return [("" if kind == "POSITIONAL_ONLY" else name, kind, default) for name, kind, default in params]

    runtime = [callable_by(r) for r in runtime]
    stub = [callable_by(stub_params(n)) for n in nodes]
    if len(runtime) == 1:
        # The stub's overloads (NumPy or CUDA arrays; carry=True or not) take the same parameters;
        # one may require a parameter the function has a default for (carry: Literal[True]).
        for s in stub:
            assert [(n, k) for n, k, _ in s] == [(n, k) for n, k, _ in runtime[0]], (s, runtime[0])
            assert all(r or not d for (_, _, d), (_, _, r) in zip(s, runtime[0])), (s, runtime[0])
            if len(stub) == 1:
                assert s == runtime[0], (s, runtime[0])
    else:
        assert sorted(map(str, stub)) == sorted(map(str, runtime)), (stub, runtime)


def public_callables():
    out = []
    for module_name in STUBS:
        module = __import__(module_name, fromlist=["_"])
        names = getattr(module, "__all__", None) or [n for n in dir(module) if not n.startswith("_")]
        for name in names:
            obj = getattr(module, name)
            if inspect.ismodule(obj) or not callable(obj):
                continue
            out.append((f"{module_name}.{name}", obj))
            if isinstance(obj, type) and module_name == "mpgpu" and obj.__module__ == "mpgpu":
                for member, value in vars(obj).items():
                    if not member.startswith("_") and (callable(value) or isinstance(value, (property, staticmethod))):
                        out.append((f"{module_name}.{name}.{member}",
                                    value if isinstance(value, property) else getattr(obj, member)))
    return out


def own_doc(obj):
    """The docstring a binding was given: nanobind's __doc__ starts with the signature it
    makes up, and is only that when the binding has none (__nb_signature__'s second field)."""
    if isinstance(obj, property):
        obj = obj.fget
    sigs = getattr(obj, "__nb_signature__", None)
    if sigs is not None and not isinstance(sigs, str):
        return "\n".join(doc for _, doc, *_ in sigs if doc)
    return getattr(obj, "__doc__", None) or ""


def test_every_public_function_has_a_docstring():
    missing = [name for name, obj in public_callables() if not own_doc(obj).strip()]
    assert not missing, missing


def test_every_stub_function_has_a_docstring():
    missing = []
    for stub in STUBS.values():
        functions, classes = stub_functions(PACKAGE / stub)
        for qualname, nodes in functions.items():
            last = qualname.rsplit(".", 1)[-1]
            if last.startswith("_"):
                continue  # dunders (Python's own meaning) and private helpers
            if not any(ast.get_docstring(n) for n in nodes):
                missing.append(f"{stub}:{qualname}")
        for name, node in classes.items():
            if not name.startswith("_") and not ast.get_docstring(node):
                missing.append(f"{stub}:{name}")
    assert not missing, missing


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
u: numpy.ndarray[tuple[int, ...], numpy.dtype[numpy.uint64]] = ntt.inverse(spectrum, ntt.PRIMES62[0])
from mpgpu import gfp
digits = gfp.to_digits([1, 2] + [0] * 14, "p3")
fft = gfp.inverse(gfp.forward(digits, "p3"), gfp.PRIMES["p3"])
elements: list[int] = gfp.from_digits(fft, "p3")


class CudaArrayStandIn:  # CuPy, PyTorch: DLPack producers; results keep their type
    def __dlpack__(self, stream: object = None) -> object:
        return None

    def __dlpack_device__(self) -> tuple[int, int]:
        return (2, 0)


class InterfaceOnly:  # Numba: only the CUDA Array Interface
    @property
    def __cuda_array_interface__(self) -> dict[str, object]:
        return {}


dev = CudaArrayStandIn()
t1: CudaArrayStandIn = ntt.forward(dev, 998244353)
t2: CudaArrayStandIn = ntt.poly_mul(dev, dev, 998244353)
t3: CudaArrayStandIn = gfp.inverse(dev, "p4")
t4: CudaArrayStandIn = dot.matmul(dev, dev, 7, method="fp_naive")
t5: CudaArrayStandIn = dot.dot_batched(dev, dev, 7)
t6: int = dot.dot(dev, dev, 7)
t7: InterfaceOnly = ntt.pointwise_mul(InterfaceOnly(), InterfaceOnly(), 7681)
from_device = mpgpu.Batch(dev, 64)
from_interface = mpgpu.Batch.from_numpy(InterfaceOnly())
'''


def test_sample_program_type_checks(tmp_path):
    pytest.importorskip("mypy")
    program = tmp_path / "sample.py"
    program.write_text(SAMPLE)
    r = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", str(tmp_path / "c"),
                        str(program)], capture_output=True, text=True, cwd=tmp_path,
                       env={"MYPYPATH": str(PACKAGE.parent), "PATH": ""})
    assert r.returncode == 0, r.stdout + r.stderr
