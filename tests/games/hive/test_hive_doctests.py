"""The examples in the Hive modules' docstrings run (the package is outside pytest's
doctest paths, so they are run here, with the Hive tests)."""
from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import facilitator.games.hive as hive

MODULES = sorted(m.name for m in pkgutil.iter_modules(hive.__path__, hive.__name__ + "."))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    failed, _tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failed == 0
