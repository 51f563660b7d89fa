"""Fixtures of live tests: a real server on a real SQLite file, GM, teams and projector."""
from __future__ import annotations

import pytest

from server import Server
from table import Table


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One server process for the module, on a SQLite file of its own."""
    srv = Server(tmp_path_factory.mktemp("instance")).start()
    yield srv
    srv.stop()


@pytest.fixture
def table(server):
    """A fresh game at a fresh table."""
    t = Table(server)
    yield t
    t.close()
