"""Bad input: 5,000 random and hostile payloads change nothing, and no user text becomes HTML."""
import re
import time
from pathlib import Path

import pytest
import requests

from campaigns import (LiveClient, as_json, cookie_header, fetch_record, fuzz_campaign,
                       join_token, quick_close, start_server)
from server import ROOT, Server

HOSTILE_NAMES = ("<script>alert(1)</script>", "<img src=x onerror=alert(1)>")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    # The fuzz sends 5,000 payloads back to back from three connections: its flood limits
    # are raised (tests/live/test_flood.py checks the limits themselves).
    srv = start_server(Server(tmp_path_factory.mktemp("instance"),
                              env={"FACILITATOR_SOCKET_RATE_SCALE": "1000"}))
    yield srv
    srv.stop()


def server_log(server: Server) -> str:
    return (Path(server.instance) / f"server-{server.port}.log").read_text(errors="replace")


def test_5000_hostile_payloads_are_refused_clearly_and_change_nothing(server):
    lines = []
    result = fuzz_campaign(server, payloads=5000, seed=1, log=lines.append)
    report = "\n".join(lines + result["examples"])
    assert result["payloads"] >= 5000
    assert result["server_errors"] == 0, report          # no "server" ack, no traceback
    assert result["accepted"] == 0 and result["unclear"] == 0, report
    assert not result["changed"], "the game's seq, record or GM view changed"
    assert result["alive"] and result["observers_ok"], report
    # The payloads reached every layer: the handlers' format checks, R-G4, the engine.
    assert {"format", "R-G4", "R-U10", "R-T4"} <= set(result["by_error"]), result["by_error"]
    assert result["silent"] > 100 and result["dropped"] >= 1, result


def test_user_text_is_never_rendered_as_html(server):
    http = server.gm_session()
    settings = {"teams": [{"name": HOSTILE_NAMES[0], "members": 4},
                          {"name": HOSTILE_NAMES[1], "members": 4},
                          {"name": "Equipo \"3\" & 'cía'", "members": 4},
                          {"name": "</title><script>alert(4)</script>", "members": 4}],
                "round_modes": [["normal"]]}
    game_id = server.create_game(http, settings, name="<script>alert('partida')</script>")
    codes = http.get(f"{server.url}/api/games/{game_id}/codes", timeout=10).json()
    device = requests.Session()
    device.get(f"{server.url}/j/{codes['teams'][0]['code']}", allow_redirects=False, timeout=10)
    pages = {
        "console list": http.get(f"{server.url}/console", timeout=10),
        "console game": http.get(f"{server.url}/console/{game_id}", timeout=10),
        "projector": requests.get(f"{server.url}/projector/{codes['watch']}", timeout=10),
        "team": device.get(f"{server.url}/team", timeout=10),
    }
    for where, page in pages.items():
        assert page.status_code == 200, where
        html = page.text
        for raw in (*HOSTILE_NAMES, "<script>alert(4)</script>", "<script>alert('partida')"):
            assert raw not in html, f"{where} renders {raw!r} as HTML"
        assert re.findall(r"&lt;script&gt;|\\u003cscript\\u003e", html), \
            f"{where} does not show the (escaped) team name at all"
    # The live state carries the text as data; the pages' scripts put it in as text.
    gm = LiveClient(server.url, {"role": "gm", "game": game_id},
                    cookies=cookie_header(http)).connect()
    try:
        assert gm.last["view"]["teams"][0]["name"] == HOSTILE_NAMES[0]
        assert gm.act({"do": "spokesperson", "team": 1, "name": HOSTILE_NAMES[1]})["ok"]
    finally:
        quick_close(gm)
    record = fetch_record(server, http, game_id)
    assert record["actions"][0]["name"] == HOSTILE_NAMES[1]
    device.close()
    http.close()


def test_text_that_is_not_unicode_is_refused_and_the_record_stays_downloadable(server):
    """A lone surrogate is valid JSON ("\\ud800") but cannot be written as UTF-8."""
    http = server.gm_session()
    game_id = server.create_game(http, {"teams": [{"name": f"E{n}", "members": 4}
                                                  for n in range(1, 5)]}, name="Unicode")
    codes = http.get(f"{server.url}/api/games/{game_id}/codes", timeout=10).json()
    team = LiveClient(server.url, {"role": "team",
                                   "token": join_token(server.url, codes["teams"][0]["code"])})
    gm = LiveClient(server.url, {"role": "gm", "game": game_id}, cookies=cookie_header(http))
    try:
        team.connect()
        gm.connect()
        for client, action in [(team, {"do": "spokesperson", "team": 1, "name": "Ana\ud800"}),
                               (gm, {"do": "adjust", "team": 2, "points": 1,
                                     "reason": "\udfff"})]:
            ack = client.act(action)
            assert (ack["ok"], ack["error"]) == (False, "format"), ack
        assert team.act({"do": "spokesperson", "team": 1, "name": "Ana 🎲 \u202e"})["ok"]
        response = http.get(f"{server.url}/console/{game_id}/record.json", timeout=10)
        assert response.status_code == 200
        assert [a["do"] for a in response.json()["actions"]] == ["spokesperson"]
    finally:
        quick_close(team, gm)
        http.close()


def test_no_page_script_writes_html():
    """A static check: text from the server reaches the DOM as text, never parsed as HTML."""
    sinks = re.compile(r"\b(innerHTML|outerHTML|insertAdjacentHTML|document\.write(?:ln)?)\b")
    scripts = sorted((ROOT / "static" / "js").glob("**/*.js"))
    assert scripts, "static/js holds the pages' scripts"
    found = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
             for path in scripts
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
             if sinks.search(line)]
    assert not found, "HTML sinks in the pages' scripts:\n" + "\n".join(found)
    templates = sorted((ROOT / "templates").glob("**/*.html"))
    unsafe = [f"{path.relative_to(ROOT)}:{n}"
              for path in templates
              for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
              if re.search(r"\|\s*safe\b|autoescape\s+false", line)]
    assert not unsafe, "templates turning autoescape off: " + ", ".join(unsafe)


#: Socket.IO packets no client library sends: broken JSON, unknown packet types,
#: event names that are not text, nesting deeper than the JSON decoder's recursion.
GARBAGE = ['2["act",{', "9", "2", "2null", "2{}", '2"x"', "2[]", "2[1]", '2[{"a":1}]',
           '2[["act"]]', "3", '3["x"]', '21["act"]', '2999999999999999999999["act",{}]',
           '4"x"', '51-["act",{"_placeholder":true,"num":0}]', "0/admin,",
           '2/admin,["act",{}]', "2[" + "[" * 5000 + "]" * 5000 + "]",
           '2["act",' + '{"a":' * 3000 + "1" + "}" * 3000 + "]"]


def garbage_round(server: Server) -> int:
    """Send every garbage packet on a connection of its own; the tracebacks logged meanwhile."""
    http = server.gm_session()
    game_id = server.create_game(http, {"teams": [{"name": f"E{n}", "members": 4}
                                                  for n in range(1, 5)]}, name="Basura")
    codes = http.get(f"{server.url}/api/games/{game_id}/codes", timeout=10).json()
    token = join_token(server.url, codes["teams"][1]["code"])
    gm = LiveClient(server.url, {"role": "gm", "game": game_id},
                    cookies=cookie_header(http)).connect()
    watcher = LiveClient(server.url, {"role": "team", "token": token}).connect()
    before = as_json(gm.last["view"])
    offset = len(server_log(server))
    try:
        for packet in GARBAGE:
            sender = LiveClient(server.url, {"role": "projector", "watch": codes["watch"]})
            sender.connect()
            sender.sio.eio.send(packet)
            time.sleep(0.02)
            quick_close(sender)
        assert server.process.poll() is None, "the server died"
        assert gm.call("sync", {"seq": -1})["seq"] == 0
        assert as_json(gm.last["view"]) == before
        ack = gm.act({"do": "spokesperson", "team": 2, "name": "Ana"})
        watcher.wait_seq(ack["seq"])                       # the others are still served
    finally:
        quick_close(gm, watcher)
        http.close()
    return server_log(server)[offset:].count("Traceback")


@pytest.fixture(scope="module")
def garbage_tracebacks(server):
    return garbage_round(server)


def test_garbage_socketio_packets_leave_the_server_standing(garbage_tracebacks):
    assert garbage_tracebacks >= 0          # garbage_round checked the server, game and clients


def test_garbage_socketio_packets_leave_no_traceback_in_the_log(garbage_tracebacks):
    assert garbage_tracebacks == 0
