"""A hall of la colmena over real sockets (issue 37, item 3): a real server (live layer,
store, SQLite file), the teacher's hall view and the hall's projector as real Socket.IO
clients, three tables played from their consoles. The hall's screens follow every
table's step and score, never show a card of a hand (the spy check), and the bell ends
every table still on, each scored as it stands."""
from __future__ import annotations

import json
import random
import time

import pytest

from colmena_hall_play import next_action
from server import Server, socketio_client
from test_halls import _cookie, hall_client, wait_hall

NINE = ["Ana", "Bea", "Carla", "Dani", "Eli", "Fran", "Gala", "Hugo", "Iris"]


@pytest.fixture
def server(tmp_path):
    server = Server(tmp_path, env={"FACILITATOR_SOCKET_RATE_SCALE": "50"}).start()
    yield server
    server.stop()


class Console:
    """A table's console screen (role gm): its latest state, its actions acknowledged."""

    def __init__(self, server: Server, http, game_id: int):
        self.states: list[dict] = []
        self.sio = socketio_client()
        self.sio.on("state", self.states.append)
        self.sio.connect(server.url, auth={"role": "gm", "game": game_id},
                         headers={"Cookie": _cookie(http)}, transports=["websocket"],
                         wait_timeout=10)

    def state(self, seq: int | None = None, timeout: float = 10.0) -> dict:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.states and (seq is None or self.states[-1]["seq"] >= seq):
                return self.states[-1]
            time.sleep(0.02)
        raise AssertionError(f"no state at seq {seq}")

    def play(self, steps: int, rng: random.Random) -> dict:
        """The teacher plays ``steps`` actions for the active players; the last state."""
        state = self.state()
        for n in range(steps):
            action = next_action(state["legal"], rng)
            if action is None:
                break
            ack = self.sio.call("act", {"id": f"{id(self)}-{n}", "action": action}, timeout=10)
            assert ack["ok"], (action, ack)
            state = self.state(state["seq"] + 1)
        return state


def hands_of(state: dict) -> set[str]:
    return {card["id"] for hand in state["view"]["hands"].values() for card in hand}


def test_three_tables_play_the_hall_screens_follow_and_the_bell_ends_them(server):
    http = server.gm_session()
    made = http.post(server.url + "/console/halls",
                     json={"kind": "colmena", "name": "Jueves", "players": "\n".join(NINE),
                           "seed": 7}, timeout=10).json()
    assert made["ok"], made
    hall_id = made["hall_id"]
    page = http.get(f"{server.url}/console/halls/{hall_id}", timeout=10).text
    watch = page.split("/halls/")[1].split('"')[0]
    gm, gm_messages = hall_client(server, {"role": "hall_gm", "hall": hall_id}, http)
    room, room_messages = hall_client(server, {"role": "hall_watcher", "watch": watch})
    consoles = []
    try:
        first = wait_hall(gm_messages, lambda m: True)
        assert [t["key"] for t in first["view"]["tables"]] == ["1.1", "1.2", "1.3"]
        assert [len(t["players"]) for t in first["view"]["tables"]] == [3, 3, 3]
        games = {g["key"]: g for g in first["games"]}
        assert all(g["acted_at"] is None for g in games.values())       # not begun
        consoles = {key: Console(server, http, games[key]["game_id"]) for key in games}
        rng = random.Random(3)
        played = {key: console.play(steps, rng)
                  for (key, console), steps in zip(consoles.items(), (14, 8, 3))}
        # Every table's step, whose turn and score reach the teacher's hall view.

        def agrees(message) -> bool:
            for table in message["view"]["tables"]:
                view = played[table["key"]]["view"]
                if (table["total"], table["step"], table["seat"], table["deck"]) != (
                        view["score"]["total"], view["awaiting"]["step"],
                        view["awaiting"]["seat"], view["deck"]):
                    return False
            return all(g["acted_at"] for g in message["games"])
        seen = wait_hall(gm_messages, agrees)
        turn_of = {t["key"]: t["seat_name"] for t in seen["view"]["tables"]}
        for key, state in played.items():
            seat = state["view"]["awaiting"]["seat"]
            assert turn_of[key] == (state["view"]["players"][seat - 1]["name"] if seat else None)
        wait_hall(room_messages, lambda m: [t["total"] for t in m["view"]["tables"]] ==
                  [played[k]["view"]["score"]["total"] for k in ("1.1", "1.2", "1.3")])
        # The spy check: no card of any hand in any hall message, no name on the projector.
        hands = set().union(*(hands_of(state) for state in played.values()))
        for message in gm_messages + room_messages:
            text = json.dumps(message, ensure_ascii=False)
            assert not [card for card in hands if f'"{card}"' in text]
        for message in room_messages:
            # Names only in who sits where (C-Q3): the players of a table not started.
            tables = message["view"]["tables"]
            assert all("players" not in table for table in tables if table["started"])
            shown = {**message, "view": {**message["view"], "tables": [
                {k: v for k, v in table.items() if k != "players"} for table in tables]}}
            text = json.dumps(shown, ensure_ascii=False)
            assert not [name for name in NINE if f'"{name}"' in text]
            assert "table_code" not in text
        # Only the teacher rings the bell; then every table still on ends as it stands.
        assert room.call("hall", {"do": "bell"}, timeout=10)["error"] == "auth"
        ack = gm.call("hall", {"do": "bell"}, timeout=20)
        assert ack == {"ok": True, "ended": 3}
        over = wait_hall(gm_messages, lambda m: m["view"]["over"])
        for table in over["view"]["tables"]:
            # The table's console, at the seq the hall's view shows of it.
            state = consoles[table["key"]].state(over["seqs"][table["key"]])
            assert state["view"]["over"] and state["view"]["ended_early"]
            assert table["tier"] == state["view"]["result"]["tier"]
            assert table["total"] == played[table["key"]]["view"]["score"]["total"]
        final = wait_hall(room_messages, lambda m: m["view"]["over"])
        assert all(t["message"]["es-ES"] and t["tier"] for t in final["view"]["tables"])
        # A second bell finds nothing to end; a next round is refused by the hall rules.
        assert gm.call("hall", {"do": "bell"}, timeout=10) == {"ok": True, "ended": 0}
        assert gm.call("hall", {"do": "next_round"}, timeout=10)["error"] == "C-A5"
    finally:
        for console in (consoles.values() if isinstance(consoles, dict) else []):
            console.sio.disconnect()
        gm.disconnect()
        room.disconnect()
