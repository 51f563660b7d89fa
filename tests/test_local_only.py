"""Issue 45, item 4: reachable as started. Listening on this computer's loopback only
(``facilitator serve``'s default), every page that shows join codes or QR codes says no
phone can open them and how to restart; listening on the network, the codes point at the
address phones reach, and no page says so."""
from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest

from facilitator.serve import local_only

SETTINGS = {"teams": [{"name": f"Equipo {n}", "members": 4} for n in range(1, 5)]}
NINE = "Ana\nBruno\nCamila\nDiego\nElena\nFacundo\nGabriela\nHoracio\nInés\n"
NOTICE = "Solo esta computadora puede abrir estos códigos"
LOOPBACK = {"LISTENS_LOCAL_ONLY": True, "PUBLIC_URL": "http://127.0.0.1:5000",
            "START_COMMAND": "./scripts/run"}
NETWORK = {"LISTENS_LOCAL_ONLY": False, "PUBLIC_URL": "http://192.168.1.23:5000",
           "START_COMMAND": "./scripts/run"}


def pages_with_codes(gm) -> dict[str, str]:
    """Every page that shows join codes: la partida's console and projector, a hall of la
    colmena's view and projector, and one of its tables' console."""
    game_id = gm.post("/console/games", json={"name": "Partida", "settings": SETTINGS}
                      ).get_json()["game_id"]
    made = gm.post("/console/halls", json={"kind": "colmena", "name": "Jueves",
                                           "players": NINE, "seed": 7}).get_json()
    assert made["ok"], made
    pages = {"partida console": gm.get(f"/console/{game_id}").get_data(as_text=True),
             "hall": gm.get(f"/console/halls/{made['hall_id']}").get_data(as_text=True)}
    pages["partida projector"] = gm.get(link(pages["partida console"], "projector-link")
                                        ).get_data(as_text=True)
    pages["hall projector"] = gm.get(link(pages["hall"], "hall-projector-link")
                                     ).get_data(as_text=True)
    table = re.search(r'href="(/console/\d+)" class="button small" data-testid="hall-open-1.1"',
                      pages["hall"]).group(1)
    pages["colmena console"] = gm.get(table).get_data(as_text=True)
    return pages


def link(page: str, testid: str) -> str:
    """The path of the link ``testid`` of ``page`` (it may be absolute)."""
    found = re.search(rf'href="([^"]+)"[^>]*data-testid="{testid}"', page)
    assert found, testid
    return urlsplit(found.group(1)).path


def join_hosts(page: str) -> set[str]:
    """The hosts of every join link a page shows."""
    return {urlsplit(url).netloc for url in re.findall(r'href="(https?://[^"]+/j/[^"]+)"', page)}


@pytest.mark.app_config(**LOOPBACK)
def test_listening_on_loopback_every_page_with_codes_says_so_and_how_to_restart(gm):
    pages = pages_with_codes(gm)
    for name, page in pages.items():
        assert 'data-testid="local-only"' in page, name
        assert NOTICE in page and "./scripts/run --host 0.0.0.0" in page, name
    assert join_hosts(pages["partida console"]) == {"127.0.0.1:5000"}
    assert join_hosts(pages["hall"]) == {"127.0.0.1:5000"}
    english = gm.get(link(pages["partida console"], "projector-link") + "?lang=en")
    assert "Only this computer can open these codes" in english.get_data(as_text=True)
    # Pages without codes say nothing of it.
    assert 'data-testid="local-only"' not in gm.get("/console").get_data(as_text=True)


@pytest.mark.app_config(**NETWORK)
def test_listening_on_the_network_the_codes_use_its_address_and_nothing_warns(gm):
    pages = pages_with_codes(gm)
    for name, page in pages.items():
        assert 'data-testid="local-only"' not in page and NOTICE not in page, name
    assert join_hosts(pages["partida console"]) == {"192.168.1.23:5000"}
    assert join_hosts(pages["hall"]) == {"192.168.1.23:5000"}


def test_which_hosts_let_only_this_computer_connect():
    assert local_only("127.0.0.1") and local_only("localhost") and local_only("::1")
    assert local_only("127.0.1.1")
    assert not local_only("0.0.0.0") and not local_only("::")
    assert not local_only("192.168.1.23") and not local_only("aula.local")
