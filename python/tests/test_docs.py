# docs/python.md's examples (its `>>>` lines) run as doctests, so they never lie.
import doctest
from pathlib import Path

import pytest

import mpgpu

DOC = Path(__file__).resolve().parents[2] / "docs" / "python.md"


def test_docs_python_md_examples():
    pytest.importorskip("numpy")  # the Batch examples
    old = mpgpu.get_default_context()
    try:
        result = doctest.testfile(str(DOC), module_relative=False, optionflags=doctest.ELLIPSIS,
                                  raise_on_error=False, verbose=False)
    finally:
        mpgpu.set_default_context(old)
    assert result.attempted > 10
    assert result.failed == 0
