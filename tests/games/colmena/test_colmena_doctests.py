"""The examples in the colmena modules' docstrings run as tests (the package's own
testpaths do not reach facilitator/games)."""
from __future__ import annotations

import doctest
import importlib
import inspect
import pkgutil

import pytest

import facilitator.games.colmena as colmena

MODULES = ["facilitator.games.colmena"] + [
    f"facilitator.games.colmena.{info.name}" for info in pkgutil.iter_modules(colmena.__path__)]


@pytest.mark.parametrize("name", MODULES)
def test_the_docstring_examples_hold(name):
    failed, _ = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert failed == 0


def test_every_public_function_has_a_docstring():
    """The project's style: a docstring on every public function, class and method (an
    override inherits the one it overrides)."""
    missing = []
    for name in MODULES:
        module = importlib.import_module(name)
        assert module.__doc__, name
        for attr, value in vars(module).items():
            if attr.startswith("_") or getattr(value, "__module__", None) != name:
                continue
            if callable(value) and not value.__doc__:
                missing.append(f"{name}.{attr}")
            for method, member in vars(value).items() if isinstance(value, type) else ():
                if not method.startswith("_") and callable(member) \
                        and not inspect.getdoc(getattr(value, method)):
                    missing.append(f"{name}.{attr}.{method}")
    assert not missing, missing
