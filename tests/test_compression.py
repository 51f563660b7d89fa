"""Pages, scripts and styles travel gzip-compressed to browsers that accept it."""
import gzip
from pathlib import Path

import pytest

from facilitator import create_app

ROOT = Path(__file__).resolve().parents[1]
GZIP = {"Accept-Encoding": "gzip, deflate, br"}


class Browser:
    """A test client whose answers are read whole and closed, as a WSGI server does."""

    def __init__(self, client):
        self.client = client

    def get(self, path, headers=None):
        answer = self.client.get(path, headers=headers or {})
        answer.get_data()
        answer.close()
        return answer


@pytest.fixture
def client(tmp_path):
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path}/c.db", "GM_PASSWORD": "k",
                      "ASYNC_MODE": "threading", "TESTING": True})
    return Browser(app.test_client())


def test_a_script_is_compressed_and_comes_back_whole(client):
    plain = (ROOT / "static/js/games/partida/team.js").read_bytes()
    answer = client.get("/static/js/games/partida/team.js", headers=GZIP)
    assert answer.status_code == 200
    assert answer.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in answer.headers["Vary"]
    assert gzip.decompress(answer.data) == plain
    assert int(answer.headers["Content-Length"]) == len(answer.data) < len(plain) / 2
    # The browser revalidates with the (weak) ETag it got: nothing is sent again.
    etag = answer.headers["ETag"]
    assert etag.startswith('W/"')
    again = client.get("/static/js/games/partida/team.js", headers={**GZIP, "If-None-Match": etag})
    assert again.status_code == 304 and again.data == b""


def test_the_npm_library_and_a_page_are_compressed(client):
    library = client.get("/vendor/socket.io.min.js", headers=GZIP)
    assert library.headers["Content-Encoding"] == "gzip"
    assert len(library.data) < 20_000 < len(gzip.decompress(library.data))
    page = client.get("/join", headers=GZIP)
    assert page.status_code == 200 and page.headers["Content-Encoding"] == "gzip"
    assert b"<html" in gzip.decompress(page.data)


@pytest.mark.parametrize("accept", [None, "identity", "br", "gzip;q=0, br"])
def test_browsers_that_do_not_accept_gzip_get_the_plain_answer(client, accept):
    headers = {"Accept-Encoding": accept} if accept else {}
    answer = client.get("/static/js/games/partida/team.js", headers)
    assert "Content-Encoding" not in answer.headers
    assert answer.data == (ROOT / "static/js/games/partida/team.js").read_bytes()
    assert "Accept-Encoding" in answer.headers["Vary"]


def test_small_answers_and_errors_are_left_alone(client):
    missing = client.get("/static/js/none.js", headers=GZIP)
    assert missing.status_code == 404 and "Content-Encoding" not in missing.headers
    redirect = client.get("/", headers=GZIP)
    assert redirect.status_code == 302 and "Content-Encoding" not in redirect.headers
