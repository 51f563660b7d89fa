"""A Hive game's record (issue 38, item 6; H-R1): its GameString with the players by colour
and the result with its reason. Through the console on a real SQLite file and PostgreSQL: a game string
pasted from MzingaViewer makes a game that goes on from there (a bad one is refused with
the move's number and Mzinga's sentence); the results page shows the players, the result,
the moves in notation and the record's download; the downloaded record, uploaded again,
is the same game; ``facilitator replay`` as a subprocess prints a Hive record's moves and
result, a bare game string's too."""
from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from facilitator.extensions import store
from facilitator.games import Role

# An action played through the store as the live layer plays it: the tournament's tests'.
from test_hive_hall_web import act

pytestmark = [pytest.mark.databases("sqlite", "postgres"),
              pytest.mark.app_config(SAMPLE_BANK=None)]

ROOT = Path(__file__).resolve().parents[1]
#: The issue's own example, as MzingaViewer copies a game string.
PASTED = "Base;InProgress;White[3];wS1;bG1 -wS1;wA1 wS1/"
#: A short game White wins: Black's queen is surrounded on the ninth move (H-E1.1).
SHORT_WIN = ["wS1", "bG1 wS1\\", "wB1 -wS1", "bQ /bG1", "wS2 /wB1", "bQ wB1\\", "wQ /wS2",
             "bA1 bQ\\", "wQ wS2\\"]
WON = ";".join(["Base;WhiteWins;Black[5]", *SHORT_WIN])
PLAYERS = {"white": "Ana Díaz", "black": "Bruno Gil"}


def paste(gm, text, **more):
    return gm.post("/console/games", json={"kind": "hive", "pasted": text, **more})


def pasted_game(gm, text, **more) -> int:
    answer = paste(gm, text, **more)
    assert answer.status_code == 200 and answer.json["ok"], answer.json
    return answer.json["game_id"]


def text_of(html: str, testid: str) -> str:
    """The words of the element with ``data-testid``, as a reader sees them."""
    found = re.search(rf'<(\w+)[^>]*data-testid="{testid}"[^>]*>', html)
    assert found, testid
    inner = html[found.end():html.index(f"</{found.group(1)}>", found.end())]
    return " ".join(re.sub(r"<[^>]+>", " ", inner).split())


def upload(gm, data: bytes, filename: str, then: str = "review"):
    return gm.post("/console/records", data={"record": (io.BytesIO(data), filename), "then": then},
                   content_type="multipart/form-data")


# ---- a game string pasted from MzingaViewer ----------------------------------------------

def test_a_pasted_game_string_makes_a_game_that_goes_on_from_there(app, gm):
    game_id = pasted_game(gm, PASTED, name="Ana contra Bruno", players=PLAYERS)
    with app.app_context():
        match, row = store.current(game_id)
        view = match.view(Role.watcher())
        assert row.name == "Ana contra Bruno"
        assert view["moves"] == ["wS1", "bG1 -wS1", "wA1 wS1/"]      # H-N1.5: replayed
        assert view["to_move"] == "black" and view["players"] == PLAYERS
        # The pair's tablet plays on: Black's move, then White's, as the live layer acts.
        black = match.legal(Role.table())[0].options["moves"][0]
        act(game_id, {"do": "move", "move": black}, Role.table())
        white = store.current(game_id)[0].legal(Role.table())[0].options["moves"][0]
        act(game_id, {"do": "move", "move": white}, Role.of_seat(1))
        view = store.current(game_id)[0].view(Role.watcher())
        assert view["moves"][3:] == [black, white] and view["to_move"] == "black"
    # Its screens: the teacher's console, and each colour's join code opens a device.
    console = gm.get(f"/console/{game_id}")
    assert console.status_code == 200 and "hive/gm.js" in console.get_data(as_text=True)
    codes = gm.get(f"/api/games/{game_id}/codes").json
    phone = app.test_client()
    assert phone.get(f"/j/{codes['teams'][1]['code']}").status_code == 302
    record = gm.get(f"/console/{game_id}/record.json").json
    assert record["game"].split(";")[3:] == ["wS1", "bG1 -wS1", "wA1 wS1/", black, white]


@pytest.mark.parametrize("text, rule, move, message", [
    ("Base;InProgress;Black[1];wS1;bQ wS1-", "H-P1.5", 2,
     "You can't play your Queen Bee on your first turn."),
    ("Base;InProgress;White[2];wS1;bS1 wS1-;wQ", "H-P1.4", 3,
     "You can't move there because a piece already exists at that position."),
    ("Base;InProgress;White[2];wS1;bS1 wS1-;wS9 -wS1", "H-N1.2", 3,
     'Unable to parse move "wS9 -wS1".'),
    (WON + ";bA2 bQ/", "H-E1.5", 10, "You can't play, the game is over."),
    ("Bse;NotStarted;White[1]", "H-N1.4", None, "Unable to parse 'Bse' in GameString."),
])
def test_a_bad_game_string_is_refused_saying_where_and_why(app, gm, text, rule, move, message):
    answer = paste(gm, text)
    assert answer.status_code == 400 and answer.json["ok"] is False
    assert answer.json["error"] == rule and answer.json["message"] == message   # Mzinga's words
    assert answer.json.get("move") == move                # counted as players count, from 1
    with app.app_context():
        assert store.listing() == []                      # nothing was stored


@pytest.mark.parametrize("body", [{"pasted": 7}, {"pasted": ""}, {"pasted": "x" * 30_000},
                                  {"pasted": PASTED, "players": {"red": "Ana"}},
                                  {"pasted": PASTED, "settings": {"bot": 5}},
                                  {"pasted": PASTED, "name": 3},
                                  {"pasted": PASTED, "players": {"white": "Ana\x00"}},
                                  {"players": {"black": "Bruno\x07"}}])
def test_a_malformed_paste_is_a_refusal_never_a_crash(gm, body):
    answer = gm.post("/console/games", json={"kind": "hive", **body})
    assert answer.status_code == 400 and answer.json["error"] == "format", answer.json


def test_a_game_without_a_text_of_its_own_refuses_a_paste(gm):
    answer = gm.post("/console/games", json={"kind": "colmena", "pasted": PASTED})
    assert answer.status_code == 400 and answer.json["error"] == "format"


def test_the_consoles_hive_form_makes_a_pair_s_game(app, gm):
    page = gm.get("/console/new/hive").get_data(as_text=True)
    assert 'data-testid="new-hive-form"' in page and 'name="pasted"' in page
    made = gm.post("/console/games/form", data={
        "kind": "hive", "name": "Mesa 3", "white": "Ana Díaz", "black": "", "bot": "2",
        "turn_limit": "40", "pasted": ""})
    assert made.status_code == 302
    game_id = int(made.headers["Location"].rsplit("/", 1)[1])
    with app.app_context():
        match = store.current(game_id)[0]
        assert match.players == {"white": "Ana Díaz", "black": "Black"}
        assert (match.bot, match.settings["turn_limit"]) == (2, 40)
    went_on = gm.post("/console/games/form", data={
        "kind": "hive", "name": "", "white": "Ana", "black": "Bruno", "bot": "0",
        "turn_limit": "0", "pasted": PASTED + "\r\n"})
    assert went_on.status_code == 302
    record = gm.get(went_on.headers["Location"] + "/record.json").json
    assert record["game"].endswith(";wS1;bG1 -wS1;wA1 wS1/")
    assert record["players"] == {"white": "Ana", "black": "Bruno"}


def test_the_consoles_hive_form_offers_every_game_type(gm):
    """H-S1.4: the form lists the eight game types in words; the one chosen is the game's,
    and a pasted GameString's own type decides over the form's."""
    page = gm.get("/console/new/hive").get_data(as_text=True)
    assert page.count('name="game_type"') == 1
    assert '<option value="Base+MLP">Con las tres: mosquito, mariquita y cochinilla</option>' in page
    made = gm.post("/console/games/form", data={
        "kind": "hive", "white": "Ana", "black": "Bruno", "bot": "0", "turn_limit": "0",
        "game_type": "Base+LP", "pasted": ""})
    assert made.status_code == 302
    record = gm.get(made.headers["Location"] + "/record.json").json
    assert record["game"] == "Base+LP;NotStarted;White[1]"
    assert record["settings"]["game_type"] == "Base+LP"
    pasted = gm.post("/console/games/form", data={
        "kind": "hive", "white": "Ana", "bot": "0", "turn_limit": "0", "game_type": "Base",
        "pasted": "Base+M;InProgress;Black[1];wM"})
    assert pasted.status_code == 302
    assert gm.get(pasted.headers["Location"] + "/record.json").json["game"].startswith("Base+M;")
    assert gm.post("/console/games/form", data={"kind": "hive", "game_type": "Base+X"}
                   ).status_code == 400


def test_the_consoles_hive_form_says_which_move_and_why_and_keeps_what_was_typed(gm):
    bad = "Base;InProgress;Black[1];wS1;bQ wS1-"
    answer = gm.post("/console/games/form", data={
        "kind": "hive", "name": "Mesa 4", "white": "Ana", "black": "Bruno", "bot": "0",
        "turn_limit": "0", "pasted": bad})
    assert answer.status_code == 400
    html = answer.get_data(as_text=True)
    assert text_of(html, "new-hive-error") == (
        "La jugada 2 del GameString no se puede jugar: la abeja reina no se coloca en el "
        "primer turno.")             # all in the page's language (issue 47)
    assert "H-P1.5 — You can&#39;t play your Queen Bee on your first turn." in html  # its tooltip
    assert f">{bad}</textarea>" in html and 'value="Bruno"' in html
    english = gm.post("/console/games/form?lang=en", data={
        "kind": "hive", "white": "Ana", "bot": "1", "turn_limit": "0",
        "pasted": "Bse;NotStarted;White[1]"}).get_data(as_text=True)
    assert text_of(english, "new-hive-error") == \
        "The game cannot be created: Unable to parse &#39;Bse&#39; in GameString."
    for tampered in ({"kind": "partida"}, {"kind": "hive", "bot": "9"},
                     {"kind": "hive", "turn_limit": "-1"}, {"kind": "hive", "white": "A\x00"}):
        assert gm.post("/console/games/form", data=tampered).status_code == 400, tampered
    with gm.application.app_context():
        assert store.listing() == []


# ---- the results page ------------------------------------------------------------------------

def test_the_results_page_of_a_won_game(gm):
    game_id = pasted_game(gm, WON, name="Final", players=PLAYERS)
    page = gm.get(f"/console/{game_id}/results")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "Partida terminada" in text_of(html, "results-state")
    assert text_of(html, "players") == "Color Nombre Blancas Ana Díaz Negras Bruno Gil"
    assert text_of(html, "result") == "Ganan las blancas (Ana Díaz) — reina rodeada"
    moves = text_of(html, "moves")
    assert moves.startswith("Turno Blancas Negras 1 wS1 bG1 wS1\\ 2 wB1 -wS1 bQ /bG1")
    assert moves.endswith("5 wQ wS2\\")
    assert text_of(html, "game-string") == WON
    assert f'href="/console/{game_id}/record.json"' in html
    english = gm.get(f"/console/{game_id}/results?lang=en").get_data(as_text=True)
    assert text_of(english, "result") == "White (Ana Díaz) wins — queen surrounded"
    assert text_of(english, "players") == "Colour Name White Ana Díaz Black Bruno Gil"


def test_the_results_page_of_a_game_on_and_of_one_the_teacher_ended(app, gm):
    game_id = pasted_game(gm, PASTED)
    html = gm.get(f"/console/{game_id}/results").get_data(as_text=True)
    assert "Partida en curso" in text_of(html, "results-state")
    assert text_of(html, "result") == "Turno 2: juegan las negras."
    assert text_of(html, "players") == "Color Nombre Blancas White Negras Black"
    with app.app_context():
        act(game_id, {"do": "end", "result": "black", "reason": "abandono"}, Role.gm())
    html = gm.get(f"/console/{game_id}/results").get_data(as_text=True)
    assert text_of(html, "result") == \
        "Ganan las negras (Black) — el docente terminó la partida: abandono"


def test_a_hive_game_has_no_partida_sheets_and_its_page_is_listed(gm):
    game_id = pasted_game(gm, PASTED)
    for what in ("standings.csv", "turns.csv", "results.xlsx"):
        assert gm.get(f"/console/{game_id}/{what}").status_code == 404
    # Its results as JSON: the summary its results page shows.
    summary = gm.get(f"/console/{game_id}/results.json")
    assert summary.status_code == 200 and summary.json["moves"] == ["wS1", "bG1 -wS1", "wA1 wS1/"]
    listing = gm.get("/console").get_data(as_text=True)
    assert f'href="/console/{game_id}/results"' in listing
    results = gm.get(f"/api/v1/games/{game_id}/results")      # the API's: the summary
    assert results.status_code == 200
    assert results.json["moves"] == ["wS1", "bG1 -wS1", "wA1 wS1/"] and results.json["result"] is None


def test_a_game_of_another_kind_has_a_plain_results_page(gm):
    made = gm.post("/console/games", json={"kind": "colmena", "name": "Mesa 1",
                                           "settings": {"players": ["Ana", "Bea", "Carla"]}}).json
    assert made["ok"], made
    page = gm.get(f"/console/{made['game_id']}/results")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "<h1>Mesa 1</h1>" in html and f'/console/{made["game_id"]}/record.json' in html
    assert text_of(html, "players") == "Ana Bea Carla"


# ---- the record: download, upload, replay ------------------------------------------------

def test_the_downloaded_record_uploads_as_the_same_game(app, gm):
    game_id = pasted_game(gm, WON, name="Final", players=PLAYERS)
    download = gm.get(f"/console/{game_id}/record.json")
    assert download.headers["Content-Disposition"] == (
        f"attachment; filename=\"hive-{game_id}.json\"; filename*=UTF-8''hive-{game_id}.json")
    record = download.json
    assert set(record) == {"format", "game", "players", "result", "settings", "name"}
    assert record["format"] == "hive/1" and record["players"] == PLAYERS
    assert record["result"] == {"result": "white", "reason": "queen surrounded", "rule": "H-E1.1"}
    answer = upload(gm, download.data, f"hive-{game_id}.json")
    assert answer.status_code == 302
    again = int(answer.headers["Location"].split("/")[2])
    assert again != game_id and answer.headers["Location"].endswith(f"/console/{again}/results")
    assert gm.get(f"/console/{again}/record.json").json == record
    html = gm.get(answer.headers["Location"]).get_data(as_text=True)
    assert text_of(html, "result") == "Ganan las blancas (Ana Díaz) — reina rodeada"


@pytest.mark.parametrize("ending", [
    [({"do": "offer_draw"}, Role.of_seat(2)), ({"do": "accept_draw"}, Role.of_seat(1))],
    [({"do": "end", "result": "black", "reason": "abandono"}, Role.gm())]])
def test_a_result_no_move_caused_comes_back_with_its_rule(app, gm, ending):
    """A draw by agreement stays one (not the teacher's end) through download and upload."""
    game_id = pasted_game(gm, PASTED, players=PLAYERS)
    with app.app_context():
        for action, by in ending:
            act(game_id, action, by)
    download = gm.get(f"/console/{game_id}/record.json")
    answer = upload(gm, download.data, "otra.json")
    again = int(answer.headers["Location"].split("/")[2])
    assert gm.get(f"/console/{again}/record.json").json["result"] == download.json["result"]
    with app.app_context():
        act(again, {"do": "undo"}, Role.gm())                 # the teacher may still undo it
        assert not store.current(again)[0].over


def test_a_game_string_file_uploads_and_continues_live(gm):
    answer = upload(gm, (PASTED + "\r\n").encode("utf-8-sig"), "mzinga.txt", then="continue")
    assert answer.status_code == 302
    game_id = int(answer.headers["Location"].split("/")[2])
    assert answer.headers["Location"].endswith(f"/console/{game_id}")     # on, so: live
    record = gm.get(f"/console/{game_id}/record.json").json
    assert record["game"] == "Base;InProgress;Black[2];wS1;bG1 -wS1;wA1 wS1/"
    assert record["name"] == "mzinga"


def test_a_bad_uploaded_record_says_which_move_and_why(gm):
    record = {"format": "hive/1", "game": "Base;InProgress;White[2];wS1;bS1 wS1-;wQ",
              "players": PLAYERS}
    answer = upload(gm, json.dumps(record).encode(), "roto.json")
    assert answer.status_code == 400
    html = answer.get_data(as_text=True)
    assert "H-P1.4 (action 2): You can&#39;t move there because a piece already exists" in html
    assert upload(gm, b"nothing of the kind", "x.txt").status_code == 400


def replay_cli(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "facilitator.cli", "replay", str(path)],
                          capture_output=True, text=True, cwd=ROOT, timeout=60,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})


def test_facilitator_replay_prints_a_hive_records_moves_and_result(gm, tmp_path):
    game_id = pasted_game(gm, WON, players=PLAYERS)
    path = tmp_path / "final.json"
    path.write_bytes(gm.get(f"/console/{game_id}/record.json").data)
    done = replay_cli(path)
    assert done.returncode == 0, done.stderr
    printed = json.loads(done.stdout)
    assert printed["moves"] == SHORT_WIN and printed["players"] == PLAYERS
    assert (printed["result"], printed["reason"], printed["state"]) == \
        ("white", "queen surrounded", "WhiteWins")
    bare = tmp_path / "mzinga.txt"
    bare.write_text(PASTED + "\n", encoding="utf-8")
    done = replay_cli(bare)
    assert done.returncode == 0, done.stderr
    printed = json.loads(done.stdout)
    assert printed["moves"] == ["wS1", "bG1 -wS1", "wA1 wS1/"] and printed["result"] is None
    assert printed["turn"] == "Black[2]"
    bad = tmp_path / "bad.txt"
    bad.write_text("Base;InProgress;Black[1];wS1;bQ wS1-", encoding="utf-8")
    done = replay_cli(bad)
    assert done.returncode == 1
    assert json.loads(done.stdout) == {"error": "H-P1.5", "action": 1,
                                       "message": "You can't play your Queen Bee on your first turn."}
    nothing = tmp_path / "nothing.txt"
    nothing.write_text("hello", encoding="utf-8")
    done = replay_cli(nothing)
    assert done.returncode == 1 and json.loads(done.stdout)["error"] == "format"
