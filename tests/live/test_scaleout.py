"""Two server processes share games through PostgreSQL and a Redis message queue."""
import threading
import time

import pytest

from campaigns import cookie_header, join_token, quick_close
from facilitator.live.shared_presence import ALIVE_SECONDS
from table import SETTINGS
from server import Client


def act(do, **fields):
    return {"do": do, **fields}


def new_game(server, settings=SETTINGS):
    """A game created through ``server``: its id, the GM's cookie and the join codes."""
    http = server.gm_session()
    game_id = server.create_game(http, settings)
    codes = http.get(f"{server.url}/api/games/{game_id}/codes").json()
    return http, game_id, cookie_header(http), codes


def test_clients_of_one_game_on_two_processes_see_every_change_in_order(two_servers):
    a, b = two_servers
    http, game_id, cookie, codes = new_game(a)
    tokens = {team["team"]: join_token((b if team["team"] % 2 else a).url, team["code"])
              for team in codes["teams"]}
    gm = Client(a, {"role": "gm", "game": game_id}, cookies=cookie).connect()
    teams = {n: Client(b if n % 2 else a, {"role": "team", "token": tok}).connect()
             for n, tok in tokens.items()}
    projector = Client(b, {"role": "projector", "watch": codes["watch"]}).connect()
    everyone = [gm, projector, *teams.values()]
    try:
        last = 0
        for turn in range(4):
            assert teams[gm.last["view"]["turn"]["host"]].act(act("declare", mode="normal"))["ok"]
            gm.wait_for(lambda s: s["view"]["turn"]["mode"] == "normal")
            pair = next(d for d in gm.last["legal"] if d["do"] == "choose")["options"]["choices"][turn]
            assert gm.act(act("choose", author=pair["author"], type=pair["type"]))["ok"]
            qid = gm.wait_for(lambda s: s["candidates"])["candidates"][0]["id"]
            for action in (act("question", id=qid), act("verdict", result="full"), act("end_turn")):
                ack = gm.act(action)
                assert ack["ok"], ack
                last = ack["seq"]
        for client in everyone:
            client.wait_seq(last)
            seqs = [s["seq"] for s in client.states]
            assert seqs == sorted(seqs)
            assert client.last["view"]["round"] == 2
        # Process A dies; its clients come back through process B with nothing lost.
        a.kill()
        moved = [Client(b, {"role": "gm", "game": game_id}, cookies=cookie).connect(),
                 Client(b, {"role": "team", "token": tokens[2]}).connect()]
        everyone += moved
        for client in moved:
            assert client.last["seq"] == last
            assert client.last["view"]["teams"][0]["score"] == 2
        assert moved[0].act(act("adjust", team=3, points=1, reason="Buena pregunta"))["ok"]
        for client in [moved[1], projector, teams[1], teams[3]]:
            client.wait_seq(last + 1)
    finally:
        quick_close(*everyone)


def test_a_screen_joining_one_process_gets_the_changes_made_through_the_other(two_servers):
    """Process A holds the game for its screens; each change made through B reaches a
    screen that connects to A afterwards in its very first state (A heard of it)."""
    a, b = two_servers
    http, game_id, cookie, codes = new_game(a)
    watching = Client(a, {"role": "projector", "watch": codes["watch"]}).connect()
    gm = Client(b, {"role": "gm", "game": game_id}, cookies=cookie).connect()
    late = []
    try:
        for points in range(1, 4):
            ack = gm.act(act("adjust", team=1, points=1, reason="Participación"))
            assert ack["ok"], ack
            watching.wait_seq(ack["seq"])          # A has heard the change
            late.append(Client(a, {"role": "projector", "watch": codes["watch"]}).connect())
            first = late[-1].states[0]
            assert first["seq"] == ack["seq"]
            assert first["view"]["teams"][0]["score"] == points
    finally:
        quick_close(watching, gm, *late)
        http.close()


def test_a_process_listens_to_the_others_before_it_answers_anyone(two_servers):
    """A restarted process's first screens get every later change: it subscribed to the
    message queue before it served its first page, not at its first connection (where
    python-socketio subscribes, in a task that competes with a whole classroom coming
    back while the changes made meanwhile through the other process go unheard)."""
    import redis

    from services import redis_url
    a, b = two_servers
    channel = a.env["FACILITATOR_MESSAGE_QUEUE_CHANNEL"]
    queue = redis.Redis.from_url(redis_url())

    def listening(expected: int) -> int:
        """The processes subscribed to the channel, once it is ``expected`` (or after 2 s:
        Redis takes a moment to see a subscription or a closed connection)."""
        deadline = time.monotonic() + 2
        while True:
            count = dict(queue.pubsub_numsub(channel))[channel.encode()]
            if count == expected or time.monotonic() > deadline:
                return count
            time.sleep(0.02)
    try:
        # Both answered /join; no Socket.IO client ever connected.
        assert listening(2) == 2
        a.kill()
        assert listening(1) == 1
        a.start()
        assert listening(2) == 2
    finally:
        queue.close()


def test_a_screens_first_state_goes_to_it_alone_not_through_the_queue(two_servers):
    """A restarted process answers its whole classroom at once: each first state is sent
    to its connection only, not copied through Redis to every other process."""
    import json

    import redis

    from services import redis_url
    a, b = two_servers
    _http, game_id, cookie, codes = new_game(a)
    channel = a.env["FACILITATOR_MESSAGE_QUEUE_CHANNEL"]
    queue = redis.Redis.from_url(redis_url())
    listening = queue.pubsub(ignore_subscribe_messages=True)
    listening.subscribe(channel)
    screens = []
    try:
        screens = [Client(server, {"role": "projector", "watch": codes["watch"]}).connect()
                   for server in (a, b, a)]
        assert all(s.states[0]["role"] == "projector" for s in screens)
        heard, until = [], time.monotonic() + 1
        while time.monotonic() < until:
            message = listening.get_message(timeout=0.1)
            if message is not None:
                heard.append(json.loads(message["data"]))
        assert [m["room"] for m in heard if m.get("event") == "state"] == []
        # (The queue itself is heard: a change is broadcast through it to every process.)
        gm = Client(b, {"role": "gm", "game": game_id}, cookies=cookie).connect()
        screens.append(gm)
        assert gm.act(act("adjust", team=1, points=1, reason="Participación"))["ok"]
        message = listening.get_message(timeout=5)
        assert message is not None and json.loads(message["data"])["event"] == "state"
    finally:
        quick_close(*screens)
        listening.close()
        queue.close()


def test_the_gm_counts_the_devices_of_every_process(two_servers):
    """Team devices on both processes: the GM on either one sees all of them, and the
    same count whichever process sends the next state (no flapping)."""
    a, b = two_servers
    _http, game_id, cookie, codes = new_game(a)
    code = {t["team"]: t["code"] for t in codes["teams"]}

    def device(server, team):
        return Client(server, {"role": "team", "token": join_token(server.url, code[team])}).connect()
    gm_a = Client(a, {"role": "gm", "game": game_id}, cookies=cookie).connect()
    gm_b = Client(b, {"role": "gm", "game": game_id}, cookies=cookie).connect()
    devices = [device(a, 1), device(a, 1), device(b, 1), device(b, 2)]
    everyone = [gm_a, gm_b, *devices]
    try:
        both = {"1": 3, "2": 1}
        for gm in (gm_a, gm_b):
            gm.wait_for(lambda s: s["devices"] == both)
        # An action handled by A, then one by B: both broadcasts carry the whole count.
        seq = gm_a.act(act("spokesperson", team=1, name="Ana"))["seq"]
        assert gm_b.wait_seq(seq)["devices"] == both
        seq = gm_b.act(act("spokesperson", team=2, name="Luis"))["seq"]
        assert gm_a.wait_seq(seq)["devices"] == both
        # Team 2's only device (on B) leaves: both consoles see it.
        quick_close(devices[3])
        for gm in (gm_a, gm_b):
            gm.wait_for(lambda s: s["devices"] == {"1": 3})
        seq = gm_a.act(act("spokesperson", team=3, name="Eva"))["seq"]
        assert gm_b.wait_seq(seq)["devices"] == {"1": 3}
        # A is killed: once it has missed renewing its "alive" key, its two devices
        # no longer count (they would reconnect to B and be counted there).
        a.kill()
        time.sleep(ALIVE_SECONDS + 0.5)
        seq = gm_b.act(act("spokesperson", team=4, name="Sara"))["seq"]
        assert gm_b.wait_seq(seq)["devices"] == {"1": 1}
    finally:
        quick_close(*everyone)


def test_concurrent_actions_on_one_game_never_both_apply(two_servers):
    """Two processes, many devices at once: each action applies once, against the state it saw."""
    a, b = two_servers
    http, game_id, cookie, _codes = new_game(a)
    gms = [Client(srv, {"role": "gm", "game": game_id}, cookies=cookie).connect()
           for srv in (a, b, a, b)]
    results = []

    def declare(client):
        results.append(client.act(act("declare", mode="normal")))
    try:
        threads = [threading.Thread(target=declare, args=(c,)) for c in gms]
        for t in threads:
            t.start()
        for t in threads:
            t.join(20)
        accepted = [r for r in results if r["ok"]]
        assert len(accepted) == 1, results
        assert all(r["error"] == "R-U10" for r in results if not r["ok"])
        record = http.get(f"{a.url}/console/{game_id}/record.json").json()
        assert [x["do"] for x in record["actions"]] == ["declare"]
        # Many spokespersons at once: all apply, each once, numbered without gaps.
        results.clear()
        threads = [threading.Thread(target=lambda c=c, i=i: results.append(
            c.act(act("spokesperson", team=1 + i % 4, name=f"Alumno {i}"), f"sp-{i}")))
            for i, c in enumerate(gms * 5)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert all(r["ok"] for r in results) and len(results) == 20
        assert sorted(r["seq"] for r in results) == list(range(2, 22))
    finally:
        quick_close(*gms)


def test_a_timer_started_through_a_process_that_dies_still_runs_out(two_servers):
    """R-U5 across processes: the GM starts a 2 s timer through A, and A dies at once.
    B, which never loaded the game since, still locks the writing when time is up
    (its watcher asks the database every second even when it knows of no timer)."""
    a, b = two_servers
    short = {**SETTINGS, "round_modes": [["simple"]], "deliberation_seconds": 2}
    _http, game_id, cookie, codes = new_game(a, short)
    code = next(t["code"] for t in codes["teams"] if t["team"] == 2)
    tablet = Client(b, {"role": "team", "token": join_token(b.url, code)}).connect()
    gm = Client(a, {"role": "gm", "game": game_id}, cookies=cookie).connect()
    try:
        for action in (act("declare", mode="simple", target=2),
                       act("choose", author="Kant", type="vf")):
            assert gm.act(action)["ok"], action
        qid = gm.wait_for(lambda s: s["candidates"])["candidates"][0]["id"]
        assert gm.act(act("question", id=qid))["ok"]
        assert gm.call("timer", {"op": "start"})["ok"]
        a.kill()
        started = time.monotonic()
        tablet.wait_for(lambda s: s["view"]["turn"]["locked"], timeout=10)
        assert time.monotonic() - started < 2 + 1 + 3        # deadline + safety poll + slack
        assert tablet.act(act("write", team=2, text="V"))["error"] == "R-U5"
    finally:
        quick_close(tablet, gm)


def test_logging_out_through_one_process_closes_the_consoles_open_on_the_other(two_servers):
    """A logout served by one process closes that session's consoles open on the other
    (through the kick channel), not another session's; "log out every console" closes
    every one, wherever it is connected."""
    import redis

    from services import redis_url
    from test_console_sessions import Console, colmena_hall
    a, b = two_servers
    laptop, phone = a.gm_session(), a.gm_session()
    game_id = a.create_game(laptop, SETTINGS)
    hall_id = colmena_hall(a, laptop)
    on_b = {"laptop": Console(b, laptop, game_id, hall_id),
            "phone": Console(b, phone, game_id, hall_id)}
    kicks = a.env["FACILITATOR_MESSAGE_QUEUE_CHANNEL"] + ":kick"
    queue = redis.Redis.from_url(redis_url())
    try:
        deadline = time.monotonic() + 5          # b listens from its first console on
        while dict(queue.pubsub_numsub(kicks))[kicks.encode()] < 1:
            assert time.monotonic() < deadline, "b never listened to the kicks"
            time.sleep(0.02)
        assert laptop.post(a.url + "/console/logout", allow_redirects=False,
                           timeout=10).status_code == 302
        assert on_b["laptop"].closed_within(3)
        assert on_b["phone"].connected() == [True, True]
        assert on_b["phone"].game.act({"do": "declare", "mode": "normal"}, "a1")["ok"]
        assert phone.post(a.url + "/console/logout-all", allow_redirects=False,
                          timeout=10).status_code == 302
        assert on_b["phone"].closed_within(3)
    finally:
        queue.close()
        for console in on_b.values():
            console.close()
        laptop.close()
        phone.close()


def test_processes_started_together_on_a_new_database_all_come_up(tmp_path):
    """Issue 46, item 4: every process of a deployment may start at once (docs/deploy.md):
    on a new PostgreSQL database, two started together both serve, with one schema and one
    sample bank between them (three times over)."""
    import psycopg

    from server import Server
    from services import fresh_postgres_database, redis_url
    for attempt in range(3):
        database, drop = fresh_postgres_database()
        env = {"FACILITATOR_MESSAGE_QUEUE": redis_url(),
               "FACILITATOR_MESSAGE_QUEUE_CHANNEL": f"test-together-{attempt}",
               "FACILITATOR_SECRET_KEY": "shared-secret-of-the-deployment"}
        servers, errors = [], []
        try:
            for name in ("a", "b"):
                (tmp_path / f"{attempt}{name}").mkdir()
                servers.append(Server(tmp_path / f"{attempt}{name}", database, env=env))

            def start(server):
                try:
                    server.start(timeout=60)
                except Exception as error:         # noqa: BLE001 - reported below
                    errors.append(error)
            starting = [threading.Thread(target=start, args=(s,)) for s in servers]
            for thread in starting:
                thread.start()
            for thread in starting:
                thread.join(90)
            assert errors == [], errors
            for server in servers:
                assert server.process.poll() is None, server.log()
            with psycopg.connect(database) as connection:
                banks = connection.execute("SELECT count(*) FROM banks").fetchone()[0]
            assert banks == 1
        finally:
            for server in servers:
                server.stop()
            drop()


def test_a_change_committed_by_a_process_that_died_before_broadcasting_reaches_every_screen(
        two_servers, tmp_path):
    """Issue 46, item 4: a process that commits an action and dies before its broadcast
    (here: a third process of the deployment, with no message queue, whose broadcast
    reaches nobody) leaves no screen behind: the screens on both processes get the
    committed state within 10 s with nothing resent, and within 2 s of a resend; a change
    of the screens' state alone (a clock started) within 10 s too."""
    from facilitator import create_app
    from facilitator.extensions import database, store
    from facilitator.live.audience import Audience
    a, b = two_servers
    http, game_id, cookie, codes = new_game(a)
    gm_a = Client(a, {"role": "gm", "game": game_id}, cookies=cookie).connect()
    gm_b = Client(b, {"role": "gm", "game": game_id}, cookies=cookie).connect()
    projector = Client(b, {"role": "projector", "watch": codes["watch"]}).connect()
    lost = create_app({"DATABASE_URL": a.env["FACILITATOR_DATABASE_URL"], "TESTING": True,
                       "GM_PASSWORD": "x", "ASYNC_MODE": "threading",
                       "INSTANCE_PATH": str(tmp_path)})
    try:
        live = lost.extensions["facilitator_live"]
        with lost.app_context():
            seq = live.act(Audience("gm", game_id), act("adjust", team=1, points=1,
                                                           reason="sin difundir"), "lost-1")["seq"]
        started = time.monotonic()
        for client in (gm_a, gm_b, projector):
            client.wait_seq(seq, timeout=10)
        assert time.monotonic() - started < 10
        with lost.app_context():
            seq = live.act(Audience("gm", game_id), act("adjust", team=2, points=1,
                                                           reason="sin difundir"), "lost-2")["seq"]
        # The acting console sends it again (no answer came): answered as a duplicate,
        # and every screen is brought up to the committed state at once.
        resent = time.monotonic()
        ack = gm_b.act(act("adjust", team=2, points=1, reason="sin difundir"), "lost-2")
        assert ack == {"ok": True, "seq": seq, "duplicate": True}
        for client in (gm_a, gm_b, projector):
            client.wait_seq(seq, timeout=2)
        assert time.monotonic() - resent < 2
        # A change that is no action (the deliberation's clock started) and whose broadcast
        # is lost: the screens see the clock run within 10 s all the same.
        assert gm_a.act(act("declare", mode="normal"))["ok"]
        pair = gm_a.wait_for(lambda s: any(d["do"] == "choose" for d in s["legal"]))
        pair = next(d for d in pair["legal"] if d["do"] == "choose")["options"]["choices"][0]
        assert gm_a.act(act("choose", author=pair["author"], type=pair["type"]))["ok"]
        qid = gm_a.wait_for(lambda s: s["candidates"])["candidates"][0]["id"]
        seq = gm_a.act(act("question", id=qid))["seq"]
        for client in (gm_a, gm_b, projector):
            client.wait_seq(seq, timeout=5)
        with lost.app_context():
            assert live.act(Audience("gm", game_id), {"do": "timer", "op": "start"})["ok"]
        started = time.monotonic()
        for client in (gm_a, gm_b, projector):
            client.wait_for(lambda s: s["timer"]["state"] == "running", timeout=10)
        assert time.monotonic() - started < 10
    finally:
        for client in (gm_a, gm_b, projector):
            client.close()
        store.forget()
        database.engine.dispose()


def _hall_move(kind: str, legal: list[dict], rng) -> dict | None:
    """A table's next action as its teacher's console sends it (la colmena's, a Hive move)."""
    if kind == "colmena":
        from colmena_hall_play import next_action
        return next_action(legal, rng)
    moves = [e for e in legal if e["do"] == "move"]
    return {"do": "move", "move": rng.choice(moves[0]["options"]["moves"])} if moves else None


@pytest.mark.parametrize("kind", ["colmena", "hive"])
def test_a_hall_of_each_game_across_two_processes(two_servers, kind):
    """Issue 46, item 4: a hall of la colmena and a Hive tournament run the same way on
    two processes: the tables are played through one, a student's phone (in by the
    lecture's door) and the teacher's hall view and projector are on the other, and each
    follows every action, the hall's screens with each table's seq."""
    import random
    import re

    import requests
    from test_colmena_hall_live import Console
    from test_halls import hall_client, wait_hall
    a, b = two_servers
    http = a.gm_session()
    names = ["Ana", "Bea", "Carla", "Dani", "Eva", "Fede", "Gala", "Hugo"]
    made = http.post(a.url + "/console/halls", json={"kind": kind, "name": "Jueves",
                                                     "players": "\n".join(names), "seed": 7},
                     timeout=10).json()
    assert made["ok"], made
    hall_id = made["hall_id"]
    page = http.get(f"{b.url}/console/halls/{hall_id}", timeout=10).text
    watch = page.split("/halls/")[1].split('"')[0]
    door = re.search(r'data-testid="hall-door-code">([^<]+)<', page).group(1).replace("-", "")
    games = http.get(f"{a.url}/console/halls/{hall_id}.json", timeout=10).json()["games"]
    gm, gm_messages = hall_client(b, {"role": "hall_gm", "hall": hall_id}, http)
    room, room_messages = hall_client(b, {"role": "hall_watcher", "watch": watch})
    # A student of the first table comes in by the door on process B.
    student = requests.Session()
    assert student.get(f"{b.url}/h/{door}", allow_redirects=False, timeout=10).status_code == 302
    seated = student.post(f"{b.url}/door", data={"player": "0"}, allow_redirects=False,
                          timeout=10)
    assert seated.status_code == 302, seated.text[:300]
    seat_page = student.get(f"{b.url}/seat", timeout=10).text
    token = re.search(r'"token": "([^"]+)"', seat_page).group(1)
    game_id = int(re.search(r'"game": (\d+)', seat_page).group(1))
    first = next(g for g in games if g["game_id"] == game_id)      # the student's table
    phone = Client(b, {"role": "team", "token": token}).connect()
    console = Console(a, http, first["game_id"])
    rng = random.Random(7)
    try:
        state = console.state()
        for n in range(4):                    # bounded: four actions through process A
            action = _hall_move(kind, state["legal"], rng)
            if action is None:
                break
            ack = console.sio.call("act", {"id": f"two-{kind}-{n}", "action": action}, timeout=10)
            assert ack["ok"], (action, ack)
            state = console.state(ack["seq"])
            phone.wait_seq(ack["seq"], timeout=5)
            for messages in (gm_messages, room_messages):
                wait_hall(messages, lambda m, s=ack["seq"]: m["seqs"].get(first["key"], 0) >= s,
                          timeout=5)
        assert state["seq"] >= 2
    finally:
        phone.close()
        console.sio.disconnect()
        gm.disconnect()
        room.disconnect()


def test_two_phones_taking_one_seat_through_two_processes_get_one_winner(two_servers):
    """Issue 46, item 4: two phones choose the same seat of a Hive board at the same
    moment, one through each process: one takes it, the other is told it asks the
    teacher (the waiting page), never both «it is yours». Five times over."""
    import requests
    a, b = two_servers
    http = a.gm_session()
    for attempt in range(5):
        made = http.post(a.url + "/console/games", json={"kind": "hive", "name": f"Carrera {attempt}",
                                                        "settings": {}}, timeout=10).json()
        codes = {c["team"]: c["code"]
                 for c in http.get(f"{a.url}/api/games/{made['game_id']}/codes", timeout=10).json()["teams"]}
        phones = []
        for server in (a, b):
            device = requests.Session()
            device.get(f"{server.url}/j/{codes[0]}", allow_redirects=False, timeout=10)
            phones.append((server, device))
        answers, start = [], threading.Barrier(2)

        def take(server, device):
            start.wait(5)
            answers.append(device.post(f"{server.url}/team/seat", data={"seat": "1"},
                                       allow_redirects=True, timeout=10).text)
        takers = [threading.Thread(target=take, args=phone) for phone in phones]
        for taker in takers:
            taker.start()
        for taker in takers:
            taker.join(20)
        waiting = ['data-testid="waiting-text"' in text for text in answers]
        assert sorted(waiting) == [False, True], attempt
