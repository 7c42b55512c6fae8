"""Every docstring example of the engine and the lab is a test, and so are README.md's and docs/'s."""

import doctest
import importlib
import pkgutil

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


def test_readme_examples():
    from pathlib import Path

    readme = Path(__file__).resolve().parent.parent / "README.md"
    failures, attempted = doctest.testfile(str(readme), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert attempted > 0 and failures == 0
