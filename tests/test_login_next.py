"""Issue 34, item 2: the login returns to the page that was asked for.

A console page opened while logged out sends the browser to the login with that page
(path and query) as ``next``; the login form carries it and, once the password is right,
goes there. Anything but a path on this server (an absolute address, ``//host``, a
backslash or a control character that browsers read as ``//``, the login or logout pages
themselves) is refused: the login then goes to /console/.
"""
from __future__ import annotations

import itertools
from urllib.parse import parse_qs, quote, urlsplit

import pytest

from facilitator.web.console import safe_next

PASSWORD = "contraseña-de-prueba"
pytestmark = pytest.mark.app_config(GM_PASSWORD=PASSWORD)
# Console logins are rate-limited per address: every test client gets its own.
ADDRESSES = (f"10.34.{n // 250}.{n % 250 + 1}" for n in itertools.count())


@pytest.fixture
def client(app):
    """A browser not logged in, from an address of its own."""
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = next(ADDRESSES)
    return client


def login(client, next_: str | None, in_form: bool = True):
    """POST the password as the login form does; ``next_`` in the form (or the address)."""
    data = {"secret": PASSWORD}
    url = "/console/login"
    if next_ is not None and in_form:
        data["next"] = next_
    elif next_ is not None:
        url += "?next=" + quote(next_, safe="/")
    return client.post(url, data=data)


def location(response) -> str:
    assert response.status_code == 302, response.status_code
    return response.headers["Location"]


def test_a_console_page_opened_logged_out_comes_back_after_the_login(client):
    response = client.get("/console/banks/1?q=Kant&type=vf")
    target = location(response)
    assert urlsplit(target).path == "/console/login"
    asked = parse_qs(urlsplit(target).query)["next"][0]
    assert asked == "/console/banks/1?q=Kant&type=vf"
    page = client.get(target)
    assert page.status_code == 200
    assert b'name="next" value="/console/banks/1?q=Kant&amp;type=vf"' in page.data
    assert location(login(client, asked)) == "/console/banks/1?q=Kant&type=vf"


def test_the_next_of_the_address_counts_too(client):
    assert location(login(client, "/console/7", in_form=False)) == "/console/7"


@pytest.mark.parametrize("target", [
    "https://evil.example/console", "//evil.example/console", "///evil.example", "/\\evil.example",
    "\\\\evil.example", "/\t/evil.example", "/%0a/x\n", "javascript:alert(1)", "console/1", "",
    "/console/login", "/console/login/", "/console/logout", "/console/logout-all",
    "http:/console/1", "/" + "a" * 3000,
])
def test_an_open_redirect_is_refused_and_lands_on_the_console(client, target):
    assert location(login(client, target)) == "/console/"


def test_the_login_page_drops_a_next_it_would_refuse(client):
    page = client.get("/console/login?next=//evil.example/")
    assert page.status_code == 200
    assert b'name="next"' not in page.data


def test_safe_next_keeps_local_paths(app):
    with app.test_request_context():
        assert safe_next("/console/3/results") == "/console/3/results"
        assert safe_next("/console/banks/1?q=%C3%91and%C3%BA") == "/console/banks/1?q=%C3%91and%C3%BA"
        assert safe_next("/console/") == "/console/"
        assert safe_next(None) is None and safe_next(["/console/1"]) is None
