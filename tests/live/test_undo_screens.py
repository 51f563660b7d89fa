"""R-G1 in the live game: an undo puts every screen back, the timer included.

After any undo the GM, every team and the projector show what they showed
just before the undone action (its time left, running if it ran); a redo
shows again what they showed just before that undo. A written answer the
room has seen is never reopened by undoing its verdict: the live game
records the lock as its own ``time_up`` first.
"""
from __future__ import annotations

import random

import pytest

from campaigns import KILL_SETTINGS, as_json, build_script, fetch_record
from engine_play import concrete_actions, random_action
from facilitator.games.partida import replay
from facilitator.games.partida.views import gm_view, public_view, team_view
from table import Table

CHALLENGE = {"teams": [{"name": f"Equipo {n}", "members": 4} for n in range(1, 5)],
             "round_modes": [["simple"], ["risky"]], "deliberation_seconds": 60}


@pytest.fixture(scope="module")
def server(clocked_server):
    """The module's server: its clock runs on when a test says so, not in real time."""
    return clocked_server


def act(do, **fields):
    return {"do": do, **fields}


def screen(message: dict) -> dict:
    """What a screen shows, less what an undo may rightly change: the redo button,
    the clock's last millisecond and the sequence number."""
    timer = message["timer"]
    return {"view": message["view"], "exchange_requests": message["exchange_requests"],
            "legal": [entry for entry in message["legal"] if entry["do"] not in ("undo", "redo")],
            "can_undo": message["can_undo"], "results": message.get("results"),
            "timer": {"state": timer["state"], "seconds": timer["seconds"],
                      "left": round(timer["remaining_ms"] / 1000)
                      if timer["state"] in ("idle", "paused") else None}}


def screens(table: Table, seq: int) -> list[str]:
    """Every screen of the table once it shows ``seq``."""
    return [as_json(screen(client.wait_seq(seq))) for client in table.everyone]


def test_undo_after_every_kind_of_action_puts_every_screen_back(server):
    table = Table(server, KILL_SETTINGS)
    try:
        script = build_script(fetch_record(server, table.http, table.game_id))
        seq, kinds = 0, set()
        for action, sender in script:
            before = screens(table, seq)
            client = table.gm if sender == "gm" else table.teams[sender]
            ack = client.act(action)
            assert ack["ok"], (action, ack)
            seq = ack["seq"]
            if action["do"] in ("undo", "redo"):
                continue
            after = screens(table, seq)
            seq = table.gm_act(act("undo"))
            assert screens(table, seq) == before, f"undo of {action} did not put the screens back"
            seq = table.gm_act(act("redo"))
            assert screens(table, seq) == after, f"redo of {action} did not show it again"
            kinds.add(action["do"])
        assert {"declare", "desvio", "elijo", "seguro", "choose", "question", "write", "time_up",
                "more_time", "verdict", "pick", "written", "argument", "end_turn",
                "spokesperson", "representative", "exchange", "adjust"} <= kinds
    finally:
        table.close()


def running_left(client, seq: int) -> float:
    """Seconds left on a running clock, as ``client`` shows it at ``seq``."""
    timer = client.wait_for(lambda s: s["seq"] >= seq and s["timer"]["state"] == "running")["timer"]
    return timer["remaining_ms"] / 1000


def test_undo_of_a_verdict_brings_the_clock_back_running_and_keeps_the_answer_locked(server):
    """The classroom finding: the clock at 0:54 and running, a verdict by mistake, undone."""
    table = Table(server, CHALLENGE)
    try:
        table.gm_act(act("declare", mode="simple", target=2),
                     act("choose", author="Kant", type="vf"))
        seq = table.gm_act(act("question", id=table.gm.last["candidates"][0]["id"]))
        assert table.gm.call("timer", {"op": "start"})["ok"]
        assert table.teams[2].act(act("write", team=2, text="V"))["ok"]
        server.advance(1.2)
        left_at_verdict = 60 - 1.2
        seq = table.gm_act(act("verdict", result="full"))
        record = fetch_record(server, table.http, table.game_id)["actions"]
        assert [a["do"] for a in record[-2:]] == ["time_up", "verdict"]
        assert table.projector.wait_seq(seq)["view"]["turn"]["written"] == "V"   # revealed

        seq = table.gm_act(act("undo"))
        for client in table.everyone:
            left = running_left(client, seq)
            assert left_at_verdict - 2 < left <= left_at_verdict + 0.5, left
        assert table.teams[2].last["view"]["turn"]["locked"]
        refused = table.teams[2].act(act("write", team=2, text="F"))
        assert refused["error"] == "R-U5", refused           # seen by the room: stays locked
        assert table.projector.last["view"]["turn"]["written"] is None   # sealed again

        seq = table.gm_act(act("undo"))                  # the deliberate second undo
        assert not table.teams[2].wait_seq(seq)["view"]["turn"]["locked"]
        assert running_left(table.gm, seq) > left_at_verdict - 2
        assert table.teams[2].act(act("write", team=2, text="F"))["ok"]

        seq = table.gm_act(act("verdict", result="half"))   # a new verdict: locked again
        assert table.projector.wait_seq(seq)["view"]["turn"]["written"] == "F"
    finally:
        table.close()


def test_undo_of_a_pause_state_and_of_a_time_up(server):
    table = Table(server, CHALLENGE)
    try:
        table.gm_act(act("declare", mode="simple", target=3),
                     act("choose", author="Marx", type="quien"))
        table.gm_act(act("question", id=table.gm.last["candidates"][0]["id"]))
        assert table.gm.call("timer", {"op": "start"})["ok"]
        server.advance(0.5)
        assert table.gm.call("timer", {"op": "pause"})["ok"]
        paused = table.gm.wait_for(lambda s: s["timer"]["state"] == "paused")["timer"]
        seq = table.gm_act(act("spokesperson", team=1, name="Ana"))
        seq = table.gm_act(act("undo"))
        for client in table.everyone:                    # still paused, same time left
            timer = client.wait_seq(seq)["timer"]
            assert timer["state"] == "paused"
            assert abs(timer["remaining_ms"] - paused["remaining_ms"]) < 50
        # A time-up undone with no time left: the clock stays at 0:00, paused; the
        # writing opens and nothing locks it again behind the GM's back.
        seq = table.gm_act(act("time_up"))
        seq = table.gm_act(act("undo"))
        timer = table.gm.last["timer"]
        assert timer["state"] == "paused" and timer["deadline"] is None, timer   # cannot act
        assert not table.teams[3].last["view"]["turn"]["locked"]
        written = table.teams[3].act(act("write", team=3, text="Marx"))
        assert written["ok"] and written["seq"] == seq + 1, "nothing was played meanwhile"
    finally:
        table.close()


def test_random_live_games_with_undo_and_redo_show_each_audience_the_replayed_record(server):
    """Property: whatever was played, undone and redone, each audience's view is the view
    of the record's replay (random games, bounded: 3 games of at most 70 actions)."""
    for seed in range(3):
        rng = random.Random(seed)
        table = Table(server, KILL_SETTINGS)
        try:
            mirror = replay(fetch_record(server, table.http, table.game_id))
            for _ in range(70):
                action = random_action(rng, mirror, undo_rate=0.2,
                                       actions=concrete_actions(mirror, max_gives=1))
                if action is None:
                    break
                ack = table.gm.act(action)
                assert ack["ok"], (action, ack)
                record = fetch_record(server, table.http, table.game_id)
                mirror = replay(record)
                state = mirror.state
                assert as_json(table.gm.wait_seq(ack["seq"])["view"]) == as_json(gm_view(state))
                assert as_json(table.projector.wait_seq(ack["seq"])["view"]) == \
                    as_json(public_view(state))
                for team, client in table.teams.items():
                    assert as_json(client.wait_seq(ack["seq"])["view"]) == \
                        as_json(team_view(state, team))
        finally:
            table.close()
