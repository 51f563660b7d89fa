"""The examples in the question-bank docstrings are true."""
from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["text", "csv_bank", "moodle_rules", "summary", "loader", "gift", "moodle_xml", "report",
           "messages"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(f"facilitator.questions.{name}")
    result = doctest.testmod(module)
    assert result.failed == 0
