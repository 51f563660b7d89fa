"""A Hive game through the store and the live layer: its record is a GameString, not a
list of actions, and the store counts its size from the actions played (a move used to
fail there with a KeyError)."""
from __future__ import annotations

import pytest

from server import Server
from test_toy_game import gm_client, seat_client, wait_for


@pytest.fixture
def hive_server(tmp_path):
    server = Server(tmp_path).start()
    yield server
    server.stop()


def test_a_hive_game_s_moves_are_stored_and_reach_both_phones(hive_server):
    http = hive_server.gm_session()
    answer = http.post(hive_server.url + "/console/games",
                       json={"kind": "hive", "name": "Hive", "settings": {}}, timeout=10).json()
    assert answer["ok"], answer
    game_id = answer["game_id"]
    codes = {c["team"]: c["code"] for c in
             http.get(f"{hive_server.url}/api/games/{game_id}/codes", timeout=10).json()["teams"]}
    assert sorted(codes) == [0, 1, 2]          # the pair's shared screen, White, Black
    gm, _gm_states = gm_client(hive_server, http, game_id)
    white, white_states, _ = seat_client(hive_server, codes[1])
    black, black_states, _ = seat_client(hive_server, codes[2])
    try:
        assert "wA1" in wait_for(white_states, 0)["view"]["destinations"]
        refused = black.call("act", {"id": "b1", "action": {"do": "move", "move": "bA1"}}, timeout=10)
        assert refused["ok"] is False and refused["error"] == "H-G1"
        assert white.call("act", {"id": "w1", "action": {"do": "move", "move": "wA1"}},
                          timeout=10) == {"ok": True, "seq": 1}
        assert wait_for(black_states, 1)["view"]["moves"] == ["wA1"]
        assert black.call("act", {"id": "b2", "action": {"do": "move", "move": "bG1 wA1-"}},
                          timeout=10)["ok"]
        assert wait_for(white_states, 2)["view"]["last_move"]["move"] == "bG1 wA1-"
        record = http.get(f"{hive_server.url}/console/{game_id}/record.json", timeout=10).json()
        assert record["format"] == "hive/1" and record["game"].endswith(";wA1;bG1 wA1-")
    finally:
        for sio in (gm, white, black):
            sio.disconnect()
