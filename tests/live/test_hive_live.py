"""Hive through the real seams (issue 38, items 3 and 7): a real server (live layer, store,
SQLite file) and real Socket.IO clients. One tablet shared by a pair plays a whole short
game (H-G1); two phones play each its colour, a move out of turn is refused with its rule,
undo and a draw by agreement (H-G2, H-G3); a phone reconnects mid-game; the teacher ends
a game by forfeit with a reason (H-G6); a phone plays White against the computer, which
answers by itself within a couple of seconds (H-G7)."""
from __future__ import annotations

import time

import requests

from server import Client, Server

#: A short game White wins (found by a search over the engine's moves; Black's queen is
#: surrounded on the ninth move: H-E1.1).
SHORT_WIN = ["wS1", "bG1 wS1\\", "wB1 -wS1", "bQ /bG1", "wS2 /wB1", "bQ wB1\\", "wQ /wS2",
             "bA1 bQ\\", "wQ wS2\\"]


def create_hive(server: Server, settings: dict | None = None):
    """A Hive game made from the console: its console session, id and join codes (seat 0:
    the shared tablet's, 1 White's, 2 Black's) and projector code."""
    http = server.gm_session()
    answer = http.post(server.url + "/console/games",
                       json={"kind": "hive", "name": "Colmena de prueba",
                             "settings": settings or {}}, timeout=10).json()
    assert answer["ok"], answer
    game_id = answer["game_id"]
    codes = http.get(f"{server.url}/api/games/{game_id}/codes", timeout=10).json()
    return http, game_id, {t["team"]: t["code"] for t in codes["teams"]}, codes["watch"]


def device(server: Server, code: str, seat: str | None = None) -> requests.Session:
    """A phone or tablet that joined with ``code`` (and took ``seat`` at a chooser)."""
    found = requests.Session()
    assert found.get(f"{server.url}/j/{code}", allow_redirects=False, timeout=10).status_code == 302
    if seat is not None:
        assert found.post(f"{server.url}/team/seat", data={"seat": seat}, allow_redirects=False,
                          timeout=10).status_code in (200, 302, 303)
    return found


def screen(server: Server, phone: requests.Session, role: str = "team") -> Client:
    return Client(server, {"role": role, "token": phone.cookies["team_token"]}).connect()


def teacher(server: Server, http: requests.Session, game_id: int) -> Client:
    cookie = "; ".join(f"{k}={v}" for k, v in http.cookies.items())
    return Client(server, {"role": "gm", "game": game_id}, cookies=cookie).connect()


def move(client: Client, text: str, n: int) -> dict:
    return client.act({"do": "pass"} if text == "pass" else {"do": "move", "move": text},
                      f"{client.auth.get('role')}-{n}")


def test_a_pair_plays_a_whole_game_on_one_shared_tablet(server):
    http, game_id, codes, watch = create_hive(server)
    tablet = screen(server, device(server, codes[-1]), role="table")
    projector = Client(server, {"role": "projector", "watch": watch}).connect()
    gm = teacher(server, http, game_id)
    try:
        first = tablet.last
        assert first["view"]["to_move"] == "white" and first["view"]["destinations"]
        assert [e["do"] for e in first["legal"]] == ["move", "offer_draw"]
        for n, text in enumerate(SHORT_WIN, start=1):
            answer = move(tablet, text, n)
            assert answer == {"ok": True, "seq": n}, (text, answer)
            # Turns change hands on the one tablet: it moves for both colours.
        over = projector.wait_seq(len(SHORT_WIN))["view"]
        assert over["over"] and over["result"] == {"result": "white", "reason": "queen surrounded",
                                                   "rule": "H-E1.1"}
        assert "destinations" not in over and over["moves"] == [
            t for t in SHORT_WIN] and over["state"] == "WhiteWins"
        refused = move(tablet, "bA2 -wQ", 99)
        assert refused["ok"] is False and refused["error"] == "H-E1.5"
        assert gm.wait_seq(len(SHORT_WIN))["view"]["over"]
        record = http.get(f"{server.url}/console/{game_id}/record.json", timeout=10).json()
        assert record["format"] == "hive/1" and record["game"].startswith("Base;WhiteWins;")
        assert record["game"].endswith(";".join(SHORT_WIN))
        assert record["players"] == {"white": "White", "black": "Black"}
        assert record["result"]["reason"] == "queen surrounded"
    finally:
        for client in (tablet, projector, gm):
            client.close()


def test_two_phones_each_its_colour_undo_and_draw_by_agreement(server):
    http, game_id, codes, _watch = create_hive(server)
    white = screen(server, device(server, codes[1]))
    black = screen(server, device(server, codes[2]))
    try:
        assert "destinations" in white.last["view"] and "destinations" not in black.last["view"]
        refused = move(black, "bG1", 1)                        # H-G1: not Black's turn
        assert refused == {"ok": False, "error": "H-G1", "message": "It's not that player's turn."}
        assert move(white, "wG1", 2)["ok"]
        refused = move(white, "wA1 wG1-", 3)
        assert refused["error"] == "H-G1"
        assert black.wait_seq(1)["view"]["moves"] == ["wG1"]
        assert move(black, "bG1 -wG1", 4)["ok"]
        # H-G2: Black asks to take the move back, White accepts.
        assert black.act({"do": "ask_undo"}, "u1")["ok"]
        asked = white.wait_seq(3)
        assert asked["view"]["pending"]["undo"] == 2
        assert {e["do"] for e in asked["legal"]} >= {"accept_undo", "decline_undo"}
        assert black.act({"do": "accept_undo"}, "u2")["error"] == "H-G2"   # not the asker's
        assert white.act({"do": "accept_undo"}, "u3")["ok"]
        assert black.wait_seq(4)["view"]["moves"] == ["wG1"]
        assert move(black, "bA1 -wG1", 5)["ok"]
        # H-G3: White offers a draw, Black declines; Black offers, White accepts.
        assert white.act({"do": "offer_draw"}, "d1")["ok"]
        assert black.wait_seq(6)["view"]["pending"]["draw"] == 1
        assert black.act({"do": "decline_draw"}, "d2")["ok"]
        assert black.act({"do": "offer_draw"}, "d3")["ok"]
        assert white.wait_seq(8)["view"]["pending"]["draw"] == 2
        assert white.act({"do": "accept_draw"}, "d4")["ok"]
        drawn = black.wait_seq(9)["view"]
        assert drawn["over"] and drawn["result"]["result"] == "draw" \
            and drawn["result"]["reason"] == "agreement"
    finally:
        white.close()
        black.close()


def test_a_phone_reconnects_mid_game_and_the_teacher_ends_it_by_forfeit(server):
    http, game_id, codes, watch = create_hive(server)
    white_phone, black_phone = device(server, codes[1]), device(server, codes[2])
    white, black = screen(server, white_phone), screen(server, black_phone)
    gm = teacher(server, http, game_id)
    try:
        assert move(white, "wS1", 1)["ok"] and move(black, "bS1 wS1-", 2)["ok"]
        white.close()                                          # the phone's connection drops
        assert move(black, "bS1 wS1-", 3)["error"] == "H-G1"
        white = screen(server, white_phone)                    # and comes back
        assert white.last["seq"] == 2 and white.last["view"]["moves"] == ["wS1", "bS1 wS1-"]
        assert white.last["view"]["to_move"] == "white" and white.last["view"]["destinations"]
        assert move(white, "wQ -wS1", 4)["ok"]
        # H-G6: only the teacher ends a game early, with a reason.
        assert black.act({"do": "end", "result": "white", "reason": "x"}, "e1")["error"] == "H-G6"
        assert gm.act({"do": "end", "result": "white"}, "e2")["error"] == "H-G6"
        assert gm.act({"do": "end", "result": "white",
                       "reason": "forfeit: Black left the room"}, "e3")["ok"]
        for client in (white, black):
            ended = client.wait_seq(4)["view"]
            assert ended["over"] and ended["result"] == {
                "result": "white", "reason": "forfeit: Black left the room", "rule": "H-G6"}
    finally:
        for client in (white, black, gm):
            client.close()


def test_a_phone_plays_white_against_the_computer(server):
    http, game_id, codes, watch = create_hive(server, {"bot": 2, "bot_level": "club"})
    phone = device(server, codes[1])
    white = screen(server, phone)
    projector = Client(server, {"role": "projector", "watch": watch}).connect()
    try:
        assert white.last["view"]["bot"] == 2
        for n in range(1, 4):
            legal = {e["do"]: e for e in white.wait_for(
                lambda s: s["view"]["to_move"] == "white")["legal"]}
            assert set(legal) == {"move"}                      # H-G7: nothing asked of it
            seq = white.last["seq"]
            sent = time.monotonic()
            assert move(white, legal["move"]["options"]["moves"][0], n)["ok"]
            answered = white.wait_for(lambda s: s["seq"] >= seq + 2, timeout=5)
            assert time.monotonic() - sent < 3, "the computer answers within seconds"
            assert len(answered["view"]["moves"]) == 2 * n and answered["view"]["to_move"] == "white"
            if n == 2:                                         # a reconnect mid-game
                white.close()
                white = screen(server, phone)
                assert len(white.last["view"]["moves"]) == 4
        # The computer's seat is never a person's: its code lets no phone in (H-G8).
        taken = requests.Session().get(f"{server.url}/j/{codes[2]}", allow_redirects=False,
                                       timeout=10)
        assert taken.status_code == 409 and "no existe" in taken.text
        assert len(projector.wait_seq(6)["view"]["moves"]) == 6
        record = http.get(f"{server.url}/console/{game_id}/record.json", timeout=10).json()
        assert record["settings"]["bot"] == 2 and len(record["game"].split(";")) == 3 + 6
    finally:
        white.close()
        projector.close()


def test_the_strongest_computer_player_holds_up_no_other_rooms_timer(server):
    """Issue 46, item 3: the computer thinks at its strongest level (H-G7) on one board
    while another room's partida runs a 5 s timer: the timer runs out within 1 s of its
    time, and each of the computer's moves comes within its level's thinking time."""
    import threading

    from facilitator.games.hive.bot import LEVELS
    from table import Table
    table = Table(server, {"teams": [{"name": f"Equipo {n}", "members": 4} for n in range(1, 5)],
                           "round_modes": [["simple"]], "deliberation_seconds": 5})
    http, game_id, codes, watch = create_hive(server, {"bot": 2, "bot_level": "strongest"})
    white = screen(server, device(server, codes[1]))
    stop, thinking = threading.Event(), []

    def play() -> None:
        for n in range(1, 9):                   # bounded: at most 8 moves each
            if stop.is_set():
                return
            state = white.wait_for(lambda s: s["view"]["to_move"] == "white", timeout=15)
            options = [e for e in state["legal"] if e["do"] == "move"][0]["options"]["moves"]
            sent = time.monotonic()
            assert move(white, options[-1], n)["ok"]
            white.wait_for(lambda s, seq=state["seq"]: s["seq"] >= seq + 2, timeout=15)
            thinking.append(time.monotonic() - sent)

    player = threading.Thread(target=play, daemon=True)
    try:
        table.gm_act({"do": "declare", "mode": "simple", "target": 2},
                     {"do": "choose", "author": "Kant", "type": "vf"})
        table.gm_act({"do": "question", "id": table.gm.last["candidates"][0]["id"]})
        player.start()
        time.sleep(0.3)                          # the computer is thinking
        assert table.gm.call("timer", {"op": "start"})["ok"]
        started = time.monotonic()
        table.projector.wait_for(lambda s: s["timer"]["state"] == "expired", timeout=6)
        assert time.monotonic() - started < 5 + 1, "the timer ran out late"
        stop.set()
        player.join(40)
        assert thinking, "the computer never answered"
        assert max(thinking) < LEVELS["strongest"].seconds + 2, thinking
    finally:
        stop.set()
        white.close()
        table.close()
