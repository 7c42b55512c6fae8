"""Every docstring example of the engine is a test."""

import doctest
import importlib
import pkgutil

import pytest

import coinche

MODULES = sorted(
    name for _, name, _ in pkgutil.walk_packages(coinche.__path__, prefix="coinche.")
    if not name.endswith("__main__")
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    failures, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failures == 0
