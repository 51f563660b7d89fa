"""docs/protocol.md is the truth: every documented event, field and answer, on a real server.

The fields of ``state`` (and of its ``view``, ``view.turn`` and ``view.teams``) are read
from the doc's tables, per audience, and compared with what each audience receives: the
doc and the code cannot drift apart. The events' fields are read from the doc's table of
client events and compared with the handlers' own list.
"""
from __future__ import annotations

import re
import time
import uuid
from pathlib import Path

import pytest
import requests

from server import GM_PASSWORD, Client, socketio_client, stop_client
from table import Table, tablet_session

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
AUDIENCES = ("gm", "team", "projector")

#: Four teams; normal and simple turns in each round; an exchange costs one card.
SETTINGS = {"teams": [{"name": f"Equipo {n}", "members": 4} for n in range(1, 5)],
            "round_modes": [["normal", "simple"], ["normal", "simple"]],
            "deliberation_seconds": 60, "exchange_cost": 1}


# -- the doc's tables --------------------------------------------------------------------

def doc_table(heading: str) -> list[dict]:
    """The rows of the first table after the line ``heading`` of docs/protocol.md."""
    lines = DOC.read_text(encoding="utf-8").splitlines()
    start = lines.index(heading)
    rows, header = [], None
    for line in lines[start + 1:]:
        if not line.startswith("|"):
            if header is not None:
                break
            continue
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip()[1:-1])]
        if header is None:
            header = cells
        elif not set("".join(cells)) <= set("- "):
            rows.append(dict(zip(header, cells)))
    assert rows, f"no table after {heading!r}"
    return rows


def documented(heading: str, audience: str, over: bool = False,
               marks: tuple[str, ...] = ("yes",)) -> set[str]:
    """The field names the doc's table ``heading`` gives ``audience`` always ("yes", and
    "over" once the game is over), or with ``marks`` those marked so ("some": at times)."""
    marks = {*marks, "over"} if over else set(marks)
    found = set()
    for row in doc_table(heading):
        assert row[audience] in ("yes", "no", "over", "some"), row
        if row[audience] in marks:
            found.add(row["field"].strip("`"))
    return found


STATE, VIEW = "#### Fields of `state`", "#### Fields of `view`"
TURN, TEAMS = "#### Fields of `view.turn`", "#### Fields of a team in `view.teams`"


def check_fields(message: dict, audience: str, over: bool = False) -> None:
    """Every key of a ``state`` message is documented for its audience, and every
    documented one is there."""
    for heading, fields in ((STATE, [message]), (VIEW, [message["view"]]),
                            (TURN, [message["view"]["turn"]]), (TEAMS, message["view"]["teams"])):
        always = documented(heading, audience, over)
        at_times = documented(heading, audience, over, marks=("some",))
        for found in fields:
            assert always <= set(found) <= always | at_times, (heading, audience,
                                                                set(found) ^ always)
    assert message["role"] == audience
    assert isinstance(message["seq"], int) and isinstance(message["now"], int)
    assert set(message["timer"]) == {"state", "seconds", "remaining_ms", "deadline"}
    for entry in message["legal"]:
        assert set(entry) == {"do", "seats", "options"}
    for request in message["exchange_requests"]:
        assert set(request) == {"team", "give", "take"}


def test_the_documented_events_and_their_fields_are_the_handlers():
    from facilitator.live import handlers
    rows = doc_table("## Client → server events")
    events = {row["event"].strip("`"): set(re.findall(r'"(\w+)":', row["payload"]))
              for row in rows}
    from facilitator.games import kind, names
    source = Path(handlers.__file__).read_text(encoding="utf-8")
    handled = set(re.findall(r'@socketio\.on\("(\w+)"\)', source)) - {"connect", "disconnect"}
    # The events a game's screens add, with their fields (GameKind.events).
    added = {event: spec["fields"] for name in names() for event, spec in kind(name).events.items()}
    assert set(events) == handled | set(added)
    for event, fields in {**handlers.FIELDS, **added}.items():
        assert events[event] == set(fields), event


def test_the_documented_state_fields_cover_every_audience():
    for audience in AUDIENCES:
        assert {"game", "seq", "view", "legal", "timer"} <= documented(STATE, audience)
    assert {"device_ids", "candidates"} <= (
        documented(STATE, "gm") - documented(STATE, "team") - documented(STATE, "projector"))
    # Counts of devices per team: the GM's and the projector's lobby, never a team's.
    assert "devices" in documented(STATE, "gm") & documented(STATE, "projector")
    assert "devices" not in documented(STATE, "team")
    assert documented(VIEW, "team") - documented(VIEW, "projector") == {"me"}
    assert "results" in documented(STATE, "projector", over=True)


# -- a game at a table ---------------------------------------------------------------------

@pytest.fixture
def table(server):
    t = Table(server, SETTINGS)
    yield t
    t.close()


def act(do, **fields):
    return {"do": do, **fields}


def to_question(table: Table, mode: str = "normal", target: int | None = None) -> int:
    """Play the current turn up to its deliberation (step 6); returns the seq."""
    declare = act("declare", mode=mode, **({"target": target} if target else {}))
    table.gm_act(declare)
    choice = next(d for d in table.gm.last["legal"] if d["do"] == "choose")
    pick = choice["options"]["choices"][0]
    table.gm_act(act("choose", author=pick["author"], type=pick["type"]))
    return table.gm_act(act("question", id=table.gm.last["candidates"][0]["id"]))


# -- HTTP: the login, the device token, the codes ----------------------------------------

def test_login_logout_the_codes_and_the_device_token(server):
    from facilitator.config import instance_secret_key
    from facilitator.live.audience import decode_device_token

    anonymous = requests.Session()
    assert anonymous.get(server.url + "/console/login", timeout=10).status_code == 200
    wrong = anonymous.post(server.url + "/console/login", data={"secret": "no"},
                           allow_redirects=False, timeout=10)
    assert wrong.status_code == 401 and "session" not in anonymous.cookies
    gm = requests.Session()
    right = gm.post(server.url + "/console/login?next=/console/tokens",
                    data={"secret": GM_PASSWORD}, allow_redirects=False, timeout=10)
    assert right.status_code == 302 and right.headers["Location"].endswith("/console/tokens")
    cookie = right.headers["Set-Cookie"]
    assert cookie.startswith("session=") and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    game_id = server.create_game(gm, SETTINGS)

    # Where the codes come from: /api/games/<id>/codes (and the v1 API's game summary).
    assert anonymous.get(f"{server.url}/api/games/{game_id}/codes",
                         timeout=10).status_code == 401
    assert gm.get(f"{server.url}/api/games/999999/codes", timeout=10).status_code == 404
    codes = gm.get(f"{server.url}/api/games/{game_id}/codes", timeout=10).json()
    assert set(codes) == {"teams", "watch", "door"}
    assert codes["door"]["join_url"].endswith("/j/" + codes["door"]["code"])
    assert [t["team"] for t in sorted(codes["teams"], key=lambda t: t["team"])] == [1, 2, 3, 4]
    for entry in codes["teams"]:
        assert set(entry) == {"team", "code", "join_url"}
        assert entry["join_url"].endswith("/j/" + entry["code"]) and len(entry["code"]) == 8
    summary = gm.get(f"{server.url}/api/v1/games/{game_id}", timeout=10).json()["game"]
    assert summary["watch_code"] == codes["watch"]
    assert {t["join_url"].rsplit("/", 1)[1] for t in summary["teams"]} == {
        t["code"] for t in codes["teams"]}
    assert gm.get(f"{server.url}/projector/{codes['watch']}", timeout=10).status_code == 200

    # The device token: /j/<code> and POST /join set the team_token cookie.
    key = instance_secret_key(server.instance)
    team1 = next(t for t in codes["teams"] if t["team"] == 1)
    device = tablet_session(31)
    joined = device.get(f"{server.url}/j/{team1['code']}", allow_redirects=False, timeout=10)
    assert joined.status_code == 302 and joined.headers["Location"].endswith("/team")
    set_cookie = joined.headers["Set-Cookie"]
    assert set_cookie.startswith("team_token=") and "HttpOnly" in set_cookie
    token = decode_device_token(key, device.cookies["team_token"])
    assert token.team == 1 and len(token.public_id) == 32 and token.device
    assert abs(token.issued - time.time()) < 60
    assert device.get(server.url + "/team", allow_redirects=False, timeout=10).status_code == 200
    typed = "-".join((team1["code"][:4].lower(), team1["code"][4:]))
    other = tablet_session(32)
    posted = other.post(server.url + "/join", data={"code": typed}, allow_redirects=False,
                        timeout=10)
    assert posted.status_code == 302 and "team_token" in other.cookies
    again = decode_device_token(key, other.cookies["team_token"])
    assert (again.public_id, again.team) == (token.public_id, 1) and again.device != token.device
    assert other.get(server.url + "/join", timeout=10).status_code == 200
    assert tablet_session(33).get(server.url + "/j/NOSUCHCD", allow_redirects=False,
                                  timeout=10).status_code == 404
    bare = tablet_session(34).get(server.url + "/team", allow_redirects=False, timeout=10)
    assert bare.status_code == 302 and bare.headers["Location"].endswith("/join")

    # Logging out ends the session on the server: a copy of the cookie opens nothing.
    copy = requests.Session()
    copy.cookies.update(gm.cookies)
    assert gm.post(server.url + "/console/logout", allow_redirects=False,
                   timeout=10).status_code == 302
    assert copy.get(f"{server.url}/api/games/{game_id}/codes", timeout=10).status_code == 401


# -- connecting --------------------------------------------------------------------------

def refused(server, auth, cookies: str | None = None) -> str:
    """The ``connect_error`` message of a connection with ``auth``."""
    sio = socketio_client()
    messages = []
    sio.on("connect_error", lambda data=None: messages.append(data))
    try:
        with pytest.raises(Exception):
            sio.connect(server.url, auth=auth, transports=["websocket"], wait_timeout=10,
                        headers={"Cookie": cookies} if cookies else {})
    finally:
        stop_client(sio)
    assert messages, "no connect_error"
    data = messages[-1]
    return data["message"] if isinstance(data, dict) else data


def test_each_role_connects_and_gets_its_documented_state(table):
    for audience, client in (("gm", table.gm), ("team", table.teams[2]),
                             ("projector", table.projector)):
        first = client.states[0]
        check_fields(first, audience)
        assert first["game"] == table.game_id and first["seq"] == 0
    assert table.teams[2].states[0]["team"] == 2 and table.teams[2].states[0]["view"]["me"] == 2
    assert table.gm.last["team"] is None and table.gm.last["can_undo"] is False
    assert table.projector.last["legal"] == [] and table.projector.last["can_undo"] is None
    assert table.gm.last["view"]["standings"] and table.projector.last["view"]["standings"] is None
    table.gm.wait_for(lambda s: s["devices"] == {str(n): 1 for n in range(1, 5)})
    assert all(len(ids) == 1 for ids in table.gm.last["device_ids"].values())
    # The device token may also come from the team_token cookie alone.
    cookie_only = Client(table.server, {"role": "team"},
                         cookies=f"team_token={table.tokens[3]}").connect()
    try:
        assert cookie_only.last["team"] == 3
    finally:
        cookie_only.close()


def test_connections_are_refused_as_documented(table):
    server = table.server
    gm_cookie = "; ".join(f"{k}={v}" for k, v in table.http.cookies.items())
    assert refused(server, {"role": "gm", "game": table.game_id}) == (
        "auth: log in to the GM console first")
    assert refused(server, {"role": "gm", "game": 999999}, gm_cookie) == "auth: no such game"
    assert refused(server, {"role": "team", "token": "forged"}) == (
        "auth: this device has no valid team token; join again with the team's code")
    assert refused(server, {"role": "projector", "watch": "NOPE"}) == (
        "auth: unknown projector code")
    assert refused(server, {"role": "referee"}) == (
        "auth: say who you are: role gm, team, table or projector")


# -- act ---------------------------------------------------------------------------------

def test_act_answers_as_documented(table):
    gm, team1, team2 = table.gm, table.teams[1], table.teams[2]
    action_id = str(uuid.uuid4())
    first = team1.call("act", {"id": action_id, "action": act("spokesperson", team=1,
                                                                 name="Ana")})
    assert first == {"ok": True, "seq": 1}
    assert team1.call("act", {"id": action_id, "action": act("spokesperson", team=1,
                                                                name="Ana")}) == {
        "ok": True, "seq": 1, "duplicate": True}
    assert gm.call("act", {"action": act("spokesperson", team=1, name="Ana")}) == {
        "ok": True, "seq": 1, "unchanged": True}
    for client in table.everyone:
        client.wait_seq(1)
        check_fields(client.last, client.last["role"])
    # Refusals: format (envelope, unknown fields, the action's form), R-G4, the rules.
    refusals = [
        (gm, {"action": act("declare", mode="normal", x=1)}, "format",
         "unknown field 'x' in 'declare'"),
        (gm, {"id": "a", "action": act("end_turn"), "extra": 1}, "format",
         "unknown field 'extra' in 'act'"),
        (gm, {"id": "", "action": act("end_turn")}, "format", None),
        (gm, {"action": "declare"}, "format", None),
        (gm, act("end_turn"), "format", None),
        (team2, {"action": act("declare", mode="normal")}, "R-G4", None),
        (team1, {"action": act("verdict", result="full")}, "R-G4", None),
        (team1, {"action": act("exchange", team=1, give=[], take="seguro")}, "R-G4", None),
        (table.projector, {"action": act("spokesperson", team=1, name="Eva")}, "R-G4", None),
        (gm, {"action": act("end_turn")}, "R-U10", None),
    ]
    for client, payload, error, message in refusals:
        ack = client.call("act", payload)
        assert ack["ok"] is False and ack["error"] == error and ack["message"], (payload, ack)
        assert set(ack) == {"ok", "error", "message"}
        if message:
            assert ack["message"] == message, ack
    assert gm.settled() and gm.last["seq"] == 1


def test_a_verdict_while_writing_is_recorded_after_its_time_up_and_undo_puts_the_timer_back(
        table):
    gm = table.gm
    seq = to_question(table, "simple", target=2)
    assert gm.call("timer", {"op": "start"}) == {"ok": True}
    running = gm.wait_for(lambda s: s["timer"]["state"] == "running")["timer"]
    verdict = gm.call("act", {"id": str(uuid.uuid4()), "action": act("verdict", result="full")})
    assert verdict == {"ok": True, "seq": seq + 2}          # time_up, then the verdict
    gm.wait_seq(seq + 2)
    assert gm.last["view"]["turn"]["locked"] and gm.last["can_undo"] is True
    undone = gm.call("act", {"action": act("undo")})
    assert undone == {"ok": True, "seq": seq + 3}
    back = gm.wait_seq(seq + 3)
    assert back["view"]["turn"]["verdict"] is None and back["view"]["turn"]["locked"]
    assert back["timer"]["state"] == "running"
    assert 0 < back["timer"]["remaining_ms"] <= running["remaining_ms"]
    assert back["can_redo"] is True


# -- timer -------------------------------------------------------------------------------

def test_every_timer_op_answers_as_documented(table):
    gm = table.gm
    assert gm.call("timer", {"op": "start"})["error"] == "R-U10"     # not deliberating
    seq = to_question(table)
    assert table.teams[1].call("timer", {"op": "start"})["error"] == "R-G4"
    assert table.projector.call("timer", {"op": "pause"})["error"] == "R-G4"
    for payload in ({"op": "warp"}, {"op": "extend", "seconds": 0},
                    {"op": "extend", "seconds": True}, {"op": "pause", "why": "x"}, "start"):
        ack = gm.call("timer", payload)
        assert ack["ok"] is False and ack["error"] == "format", (payload, ack)
    steps = [({"op": "start"}, "running", 60), ({"op": "pause"}, "paused", 60),
             ({"op": "resume"}, "running", 60), ({"op": "extend", "seconds": 20}, "running", 80),
             ({"op": "pause", "seconds": 5}, "paused", 80), ({"op": "restart"}, "running", 60)]
    for payload, state, seconds in steps:
        assert gm.call("timer", payload) == {"ok": True}
        for client in table.everyone:
            client.wait_for(lambda s: (s["timer"]["state"], s["timer"]["seconds"])
                            == (state, seconds))
        timer = table.projector.last["timer"]
        assert (timer["deadline"] is not None) == (state == "running")
    assert gm.last["seq"] == seq                  # the clock alone records no action
    # Time up, then a running clock again: the writing reopens with a recorded more_time.
    assert gm.call("timer", {"op": "pause"}) == {"ok": True}
    table.gm_act(act("time_up"))
    gm.wait_for(lambda s: s["timer"]["state"] == "expired")
    assert gm.call("timer", {"op": "extend"}) == {"ok": True}
    reopened = gm.wait_seq(seq + 2)
    assert reopened["timer"]["state"] == "running" and not reopened["view"]["turn"]["locked"]


# -- exchanges ---------------------------------------------------------------------------

def test_a_team_asks_for_an_exchange_and_the_gm_confirms_or_dismisses_it(table):
    gm, team1, team2 = table.gm, table.teams[1], table.teams[2]
    to_question(table)
    table.gm_act(act("verdict", result="full"), act("end_turn"))   # team 1 wins two cards
    team1.wait_for(lambda s: s["view"]["teams"][0]["cards"])
    gm_entry = next(d for d in gm.last["legal"] if d["do"] == "exchange")
    team_dos = {d["do"] for d in team1.last["legal"]}
    assert "exchange" not in team_dos and "request_exchange" in team_dos
    asked = next(d for d in team1.last["legal"] if d["do"] == "request_exchange")
    assert (asked["seats"], asked["options"]) == (gm_entry["seats"], gm_entry["options"])
    assert all(d["do"] != "request_exchange" for d in gm.last["legal"])
    assert all("exchange" not in d["do"] for d in team2.last["legal"])
    card = asked["options"]["cards"]["1"][0]
    request = {"id": str(uuid.uuid4()), "give": [card], "take": "seguro"}
    assert team1.call("request_exchange", request) == {"ok": True}
    wanted = [{"team": 1, "give": [card], "take": "seguro"}]
    gm.wait_for(lambda s: s["exchange_requests"] == wanted)
    team1.wait_for(lambda s: s["exchange_requests"] == wanted)
    assert team2.last["exchange_requests"] == [] and table.projector.last["exchange_requests"] == []
    check_fields(gm.last, "gm")
    for client, payload, error in [
            (team2, {"give": ["type:vf"], "take": "seguro"}, None),      # a rule: no such card
            (gm, {"give": [card], "take": "seguro"}, "R-G4"),
            (team1, {"give": [card], "take": "seguro", "why": 1}, "format"),
            (team1, [card], "format")]:
        ack = client.call("request_exchange", payload)
        assert ack["ok"] is False and (ack["error"] == error if error
                                       else re.fullmatch(r"R-[A-Z]+\d+", ack["error"])), ack
    # Dismissed by the GM; asked again; confirmed with the exchange action.
    assert team1.call("dismiss_exchange", {"team": 1})["error"] == "R-G4"
    for payload in ({"team": "1"}, {"team": True}, {"team": 1, "x": 0}, 1):
        assert gm.call("dismiss_exchange", payload)["error"] == "format"
    assert gm.call("dismiss_exchange", {"team": 1}) == {"ok": True}
    gm.wait_for(lambda s: s["exchange_requests"] == [])
    assert gm.call("dismiss_exchange", {"team": 3}) == {"ok": True}    # none: still ok
    assert team1.call("request_exchange", {"give": [card], "take": "seguro"}) == {"ok": True}
    gm.wait_for(lambda s: s["exchange_requests"] == wanted)
    done = gm.call("act", {"action": act("exchange", team=1, give=[card], take="seguro")})
    assert done["ok"]
    confirmed = team1.wait_seq(done["seq"])
    assert confirmed["exchange_requests"] == [] and confirmed["view"]["teams"][0]["special"][
        "seguro"] == 2


# -- sync --------------------------------------------------------------------------------

def test_sync_answers_a_state_whenever_the_seq_differs(table):
    seq = table.gm_act(act("spokesperson", team=1, name="Ana"))
    cases = [(table.gm, {"seq": seq}, False),            # equal: the ack alone
             (table.gm, {"seq": seq - 1}, True),          # behind
             (table.teams[1], {"seq": seq + 5}, True),    # ahead
             (table.teams[2], {}, True),                  # missing
             (table.projector, None, True)]               # no payload at all
    for client, payload, state_owed in cases:
        before = client.settled()
        assert client.call("sync", payload) == {"ok": True, "seq": seq}, payload
        if state_owed:
            client.wait_for(lambda s: len(client.states) > before)
            check_fields(client.last, client.last["role"])
            assert client.last["seq"] == seq
        else:
            assert client.settled() == before
    for payload in ({"seq": "1"}, {"seq": 1, "since": 0}, 7, {"seq": True}):
        ack = table.teams[3].call("sync", payload)
        assert ack["ok"] is False and ack["error"] == "format", (payload, ack)


# -- the game over, events nobody knows, rate --------------------------------------------

def test_once_the_game_is_over_every_audience_gets_the_results(table):
    seq = table.gm_act(act("end_game"))
    for client in table.everyone:
        message = client.wait_seq(seq)
        check_fields(message, message["role"], over=True)
        assert set(message["results"]) == {"timeline", "cards"}
        assert message["view"]["over"] and message["view"]["standings"]


def test_connect_and_disconnect_events_are_refused_and_others_unanswered(table):
    gm = table.gm
    assert gm.call("connect", {"role": "team", "token": "x"})["error"] == "format"
    assert gm.call("disconnect", None)["error"] == "format"
    assert gm.call("sync", {"text": "\ud800"})["error"] == "format"
    with pytest.raises(Exception):
        gm.sio.call("no_such_event", {}, timeout=1)
    assert gm.call("sync", {"seq": -1})["ok"]


def test_a_device_over_its_limit_is_answered_rate(table):
    team = table.teams[4]
    acks = [team.call("sync", {"seq": 0}) for _ in range(30)]
    assert any(a.get("error") == "rate" and a["message"] for a in acks)
    assert all(a.get("ok") or a.get("error") == "rate" for a in acks)


# -- show_answer (issue 13) --------------------------------------------------------------

def test_the_gm_shows_the_expected_answer_on_the_projector_only(table):
    gm = table.gm
    seq = to_question(table)
    assert gm.call("show_answer", {"show": True})["error"] == "R-V1"   # before the verdict
    assert table.teams[1].call("show_answer", {"show": True})["error"] == "R-G4"
    for payload in ({"show": 1}, {"show": True, "x": 1}, True):
        assert gm.call("show_answer", payload)["error"] == "format"
    seq = table.gm_act(act("verdict", result="full"))
    answer = gm.last["view"]["turn"]["question"]["answer"]
    assert gm.call("show_answer", {"show": True}) == {"ok": True}
    assert gm.wait_for(lambda s: s["answer_shown"])["seq"] == seq
    shown = table.projector.wait_for(lambda s: "shown_answer" in s)
    assert shown["seq"] == seq and shown["shown_answer"]["text"] == answer
    check_fields(shown, "projector")
    assert all("shown_answer" not in s and answer not in str(s) for s in table.teams[1].states)
    assert gm.call("show_answer", {"show": False}) == {"ok": True}
    table.projector.wait_for(lambda s: "shown_answer" not in s)


def test_a_projector_connecting_after_the_answer_is_shown_sees_it(table):
    # The process serves a connection from the game and row it holds (one process, no
    # queue): the answer shown is written to the row outside an action, and a projector
    # that connects afterwards must see it, and not once it is hidden again.
    to_question(table)
    seq = table.gm_act(act("verdict", result="full"))
    answer = table.gm.last["view"]["turn"]["question"]["answer"]
    watch = {"role": "projector", "watch": table.watch_code()}
    for show in (True, False, True):
        assert table.gm.call("show_answer", {"show": show}) == {"ok": True}
        late = Client(table.server, watch).connect()
        try:
            first = late.states[0]
            assert first["seq"] == seq
            assert first.get("shown_answer", {}).get("text") == (answer if show else None)
        finally:
            late.close()
