"""Issue 45: the pages name the game at hand, the others the product, and the console's
home offers the games side by side.

A game's pages (its console, its screens, its hall, its results) carry the game's name,
from its catalog's ``<kind>.name``; the login, the home, the banks, the classes and the
join page carry the product's (``app.name``). The home has a card per game, each with its
ways to be played; the join page speaks of a code, not of a team's.
"""
from __future__ import annotations

import re

SETTINGS = {"teams": [{"name": f"Equipo {n}", "members": 4} for n in range(1, 5)]}


def brand(html: str) -> str:
    found = re.search(r'<span class="brand"[^>]*>([^<]*)</span>', html)
    return found.group(1) if found else ""


def title(html: str) -> str:
    return re.search(r"<title>([^<]*)</title>", html).group(1)


def page(client, url: str) -> str:
    answer = client.get(url)
    assert answer.status_code == 200, (url, answer.status_code)
    return answer.get_data(as_text=True)


def test_neutral_pages_name_the_product(app, gm):
    assert brand(page(app.test_client(), "/console/login")) == "El facilitador"
    assert brand(page(app.test_client(), "/console/login?lang=en")) == "The facilitator"
    for url in ("/console", "/console/banks", "/console/classes", "/console/tokens",
                "/console/halls/new"):
        assert brand(page(gm, url)) == "El facilitador", url


def test_the_join_page_speaks_of_a_code_not_of_a_team(app):
    html = page(app.test_client(), "/join")
    assert brand(html) == "El facilitador"
    assert "<h1>Unirse</h1>" in html and ">Código</label>" in html
    assert "el código que muestra el proyector" in html and "equipo" not in title(html)
    english = page(app.test_client(), "/join?lang=en")
    assert "<h1>Join</h1>" in english and "the code the projector shows" in english


def test_a_games_pages_name_that_game(app, gm):
    made = gm.post("/console/games", json={"name": "Ética", "settings": SETTINGS})
    game_id = made.get_json()["game_id"]
    assert brand(page(gm, f"/console/{game_id}")) == "La partida"
    assert brand(page(gm, f"/console/{game_id}/results")) == "La partida"
    assert brand(page(gm, "/console/new/partida")) == "La partida"
    assert brand(page(gm, "/reglas")) == "La partida"

    hive = gm.post("/console/games/form", data={"kind": "hive", "name": "Mesa 3", "white": "Ana",
                                                "black": "Bruno", "bot": "0", "turn_limit": "0",
                                                "pasted": ""})
    hive_id = int(hive.headers["Location"].rsplit("/", 1)[1])
    assert title(page(gm, f"/console/{hive_id}")) == "Mesa 3 · Hive"     # a screen: no header bar
    assert brand(page(gm, f"/console/{hive_id}/results")) == "Hive"
    assert brand(page(gm, "/console/new/hive")) == "Hive"

    hall = gm.post("/console/halls", json={"kind": "colmena", "name": "Martes",
                                           "players": "Ana\nBea\nCarla", "seed": 1}).get_json()
    assert brand(page(gm, f"/console/halls/{hall['hall_id']}")) == "La colmena"
    assert brand(page(gm, f"/console/halls/{hall['hall_id']}/results")) == "La colmena"


def test_the_home_offers_the_three_games_side_by_side(gm):
    html = page(gm, "/console")
    cards = re.findall(r'data-testid="game-card-(\w+)"', html)
    assert cards == ["partida", "colmena", "hive"]
    assert 'data-testid="setup-form"' not in html            # the quiz's form is a card's page
    links = dict(re.findall(r'href="([^"]+)" data-testid="((?:new|hall)-\w+-link)"', html))
    assert set(links.values()) == {"new-partida-link", "new-colmena-link", "hall-colmena-link",
                                   "new-hive-link", "hall-hive-link"}
    for href in links:
        assert gm.get(href.replace("&amp;", "&")).status_code == 200, href
    assert "Crear una partida" in html and "Un torneo de la clase" in html
    # The hall form opens on the card's game.
    chosen = page(gm, "/console/halls/new?kind=hive")
    assert re.search(r'value="hive" data-testid="hall-kind-hive" checked', chosen)
    assert not re.search(r'value="colmena" data-testid="hall-kind-colmena" checked', chosen)
    assert gm.get("/console/new/nothing").status_code == 404


def test_the_colmena_card_makes_a_single_table(gm):
    assert brand(page(gm, "/console/new/colmena")) == "La colmena"
    made = gm.post("/console/games/form", data={"kind": "colmena", "name": "Mesa del fondo",
                                                "seated": "Ana\r\nBea\r\n\r\nCarla\r\n"})
    assert made.status_code == 302, made.get_data(as_text=True)
    game_id = int(made.headers["Location"].rsplit("/", 1)[1])
    record = gm.get(f"/console/{game_id}/record.json").json
    assert record["settings"]["players"] == ["Ana", "Bea", "Carla"]
    assert title(page(gm, f"/console/{game_id}")) == "Mesa del fondo · La colmena"
    refused = gm.post("/console/games/form", data={"kind": "colmena", "name": "Mesa",
                                                   "seated": "A\nB\nC\nD\nE"})
    assert refused.status_code == 400
    html = refused.get_data(as_text=True)
    assert "No se puede crear la mesa: la colmena se juega de 2 a 4, o 1 solo." in html
    assert ">A\nB\nC\nD\nE</textarea>" in html                # what was typed, kept
