"""Every docstring example of the engine and the lab is a test, and so are README.md's and docs/'s."""

import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

import coinche
import coinche_lab

MODULES = sorted(
    name for package in (coinche, coinche_lab)
    for _, name, _ in pkgutil.walk_packages(package.__path__, prefix=package.__name__ + ".")
    if not name.endswith("__main__")
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    failures, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failures == 0


ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = ["README.md", *sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "docs").glob("*.md"))]


@pytest.mark.parametrize("name", DOCUMENTS)
def test_document_examples(name):
    """README.md's example (it must have one) and any in docs/ run as written."""
    failures, attempted = doctest.testfile(str(ROOT / name), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert failures == 0
    if name == "README.md":
        assert attempted > 0
