"""Timers kept by the server (R-U5, R-U8, R-G2) and a restart that loses nothing."""
import time

from table import Table
from server import Client, Server

SHORT = {"teams": [{"name": f"Equipo {n}", "members": 4} for n in range(1, 5)],
         "round_modes": [["simple"]], "deliberation_seconds": 2}


def act(do, **fields):
    return {"do": do, **fields}


def to_deliberation(table):
    table.gm_act(act("declare", mode="simple", target=2), act("choose", author="Kant", type="vf"))
    return table.gm_act(act("question", id=table.gm.last["candidates"][0]["id"]))


def test_every_screen_gets_the_same_deadline_and_zero_locks_the_writing(server):
    table = Table(server, SHORT)
    try:
        to_deliberation(table)
        assert table.gm.last["timer"]["state"] == "idle"
        assert table.gm.call("timer", {"op": "start"})["ok"]
        deadlines = {c.wait_for(lambda s: s["timer"]["state"] == "running")["timer"]["deadline"]
                     for c in table.everyone}
        assert len(deadlines) == 1, "every screen shows the same time left"
        assert table.teams[2].act(act("write", team=2, text="V"))["ok"]
        table.teams[2].wait_for(lambda s: s["view"]["turn"]["locked"], timeout=8)
        refusal = table.teams[2].act(act("write", team=2, text="F"))
        assert refusal["error"] == "R-U5"
        table.projector.wait_for(lambda s: s["timer"]["state"] == "expired")
        assert table.gm.call("timer", {"op": "extend", "seconds": 30})["ok"]
        table.teams[2].wait_for(lambda s: not s["view"]["turn"]["locked"])
        assert table.teams[2].act(act("write", team=2, text="F"))["ok"]
        assert table.gm.call("timer", {"op": "pause"})["ok"]
        paused = table.gm.wait_for(lambda s: s["timer"]["state"] == "paused")["timer"]
        assert 25_000 < paused["remaining_ms"] <= 30_000
        assert table.teams[1].call("timer", {"op": "start"})["error"] == "R-G4"
        assert table.gm.call("timer", {"op": "warp"})["error"] == "format"
    finally:
        table.close()


def test_a_restart_mid_turn_brings_every_screen_back_timer_included(tmp_path):
    server = Server(tmp_path).start()
    try:
        table = Table(server, {**SHORT, "deliberation_seconds": 120}, reconnection=True)
    except BaseException:
        server.stop()
        raise
    try:
        seq = to_deliberation(table)
        assert table.teams[2].act(act("write", team=2, text="Kant, seguro"))["ok"]
        assert table.gm.call("timer", {"op": "start"})["ok"]
        before = table.gm.wait_for(lambda s: s["timer"]["state"] == "running")
        server.kill()
        server.start()
        after = table.gm.wait_for(lambda s: s["now"] > before["now"] + 500
                                  and s["seq"] == before["seq"], timeout=20)
        assert after["view"] == before["view"]
        assert after["timer"]["deadline"] == before["timer"]["deadline"]
        for client in table.teams.values():
            client.wait_for(lambda s: s["now"] > before["now"], timeout=20)
        assert table.teams[2].last["view"]["turn"]["written"] == "Kant, seguro"
        assert table.teams[3].last["view"]["turn"]["written"] is None
        assert table.gm.act(act("verdict", result="full"))["ok"]
        table.projector.wait_for(lambda s: s["view"]["turn"]["written"] == "Kant, seguro",
                                 timeout=20)
        assert seq < table.projector.last["seq"]
    finally:
        table.close()
        server.stop()
