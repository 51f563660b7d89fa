"""Fixtures for the question-bank tests: real files in a temporary folder."""
from __future__ import annotations

from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[1] / "data" / "banks"


@pytest.fixture(autouse=True)
def english_reports(monkeypatch):
    """The commands' reports in English, whatever the LANG of the machine running
    the tests (they follow LANG); tests of Spanish reports pass --lang es."""
    monkeypatch.setenv("LANG", "C.UTF-8")


@pytest.fixture
def write(tmp_path):
    """Write a bank file and return its path: ``write("banco.csv", text_or_bytes)``.

    Text is encoded as ``encoding`` (UTF-8 by default); bytes are written as
    they are, for tests about BOMs and encodings.
    """
    def _write(name: str, content: str | bytes, encoding: str = "utf-8") -> Path:
        path = tmp_path / name
        path.write_bytes(content if isinstance(content, bytes) else content.encode(encoding))
        return path
    return _write


@pytest.fixture
def data_dir() -> Path:
    """The folder of sample bank files kept with the tests."""
    return DATA
