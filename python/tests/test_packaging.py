# The package's version is the CMake project's, for the module built here and
# for the wheel (pyproject.toml's scikit-build-core regex provider).
import os
import re
from pathlib import Path

import pytest

import mpgpu

ROOT = Path(__file__).resolve().parents[2]


def cmake_version():
    text = (ROOT / "CMakeLists.txt").read_text()
    return re.search(r"project\(mpgpu\s+VERSION\s+([0-9.]+)", text).group(1)


def test_module_version_is_the_cmake_projects():
    assert mpgpu.__version__ == cmake_version()


def test_wheel_version_is_the_cmake_projects():
    tomllib = pytest.importorskip("tomllib")
    regex = pytest.importorskip("scikit_build_core.metadata.regex")
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["scikit-build"]["metadata"]["version"]
    assert settings["provider"] == "scikit_build_core.metadata.regex"
    cwd = os.getcwd()
    os.chdir(ROOT)  # the provider reads `input` relative to the project
    try:
        version = regex.dynamic_metadata("version", {k: v for k, v in settings.items() if k != "provider"})
    finally:
        os.chdir(cwd)
    assert version == cmake_version()


def test_a_virtual_environment_imports_the_installed_package():
    # scripts/test's runs (CTest python.cpu / python.gpu in the build's virtual
    # environment) test the package as installed there (python.install), not
    # the build's copy: no PYTHONPATH points at it.
    import sys
    import sysconfig

    if sys.prefix == sys.base_prefix or os.environ.get("PYTHONPATH"):
        pytest.skip("not a virtual environment without PYTHONPATH")
    installed = Path(sysconfig.get_paths()["platlib"]).resolve()
    assert installed in Path(mpgpu.__file__).resolve().parents
