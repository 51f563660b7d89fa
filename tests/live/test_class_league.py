"""A class game on the screens (issue 15), on a real server with real Socket.IO clients.

The class's league on the projector (before the first action, after the finale; the GM's
toggle ``POST /console/<id>/league``), students' names kept off the projector's and the
other teams' payloads unless the class allows them, and who could speak next
(``GET /console/<id>/speakers``). The class and its games are made through the console's
HTTP routes, as the class page does.
"""
from __future__ import annotations

import threading

import pytest

from server import Client
from table import tablet_session

#: Fourteen students whose first names appear nowhere else in a game's payloads.
STUDENTS = ["Zoraida Quintanilla", "Eustaquio Berenguer", "Filomena Arrieta", "Casimiro Landáburu",
            "Rosendo Villalpando", "Leocadia Zubizarreta", "Pancracio Echeverría", "Gumersinda Olazábal",
            "Anacleto Urquiza", "Brígida Montenegro", "Florentino Arizmendi", "Eulalia Goicoechea",
            "Segismundo Larrañaga", "Clotilde Ybarrola"]
FIRST_NAMES = [name.split()[0] for name in STUDENTS]
ONE_ROUND = {"rounds": 1, "round_modes": [["normal"]], "individual_rounds": []}


def ok(response, status=200) -> dict:
    assert response.status_code == status, (response.status_code, response.text[:300])
    data = response.json()
    assert data["ok"], data
    return data


class ClassGame:
    """A game made from a class through the console's routes, with its GM console, its
    four teams' devices and a projector connected."""

    def __init__(self, server, http, klass: dict, tablets: int):
        self.server, self.http = server, http
        self.names = klass["names"]
        class_id = klass["id"]
        present = [s["id"] for s in ok(http.get(f"{server.url}/console/classes/{class_id}.json"))
                   ["class"]["students"]]
        dealt = ok(http.post(f"{server.url}/console/classes/{class_id}/deal",
                             json={"present": present, "mode": "fresh", "teams": 4}))
        self.lineup = dealt["lineup"]
        self.game_id = ok(http.post(f"{server.url}/console/classes/{class_id}/games", json={
            "name": "Filosofía 1.º B", "settings": dict(ONE_ROUND), "lineup": self.lineup}))["game_id"]
        self.url = f"{server.url}/console/{self.game_id}"
        self.gm = self.projector = None
        self.teams: dict[int, Client] = {}
        try:
            cookie = "; ".join(f"{k}={v}" for k, v in http.cookies.items())
            self.gm = Client(server, {"role": "gm", "game": self.game_id}, cookies=cookie).connect()
            codes = http.get(f"{server.url}/api/games/{self.game_id}/codes", timeout=10).json()
            for link in codes["teams"]:
                device = tablet_session(tablets + link["team"])
                joined = device.get(f"{server.url}/j/{link['code']}", allow_redirects=False, timeout=10)
                assert joined.status_code == 302
                self.teams[link["team"]] = Client(
                    server, {"role": "team", "token": device.cookies["team_token"]}).connect()
            self.projector = Client(server, {"role": "projector", "watch": codes["watch"]}).connect()
        except BaseException:
            self.close()
            raise

    @property
    def everyone(self) -> list[Client]:
        return [self.gm, *self.teams.values(), self.projector]

    @property
    def roster(self) -> list[list[str]]:
        """The game's roster names per team (the class's names, team 1 first)."""
        return [[self.names[sid] for sid in team] for team in self.lineup]

    def act(self, do: str, **fields) -> int:
        ack = self.gm.act({"do": do, **fields})
        assert ack["ok"], (do, fields, ack)
        for client in self.everyone:
            client.wait_seq(ack["seq"])
        return ack["seq"]

    def show_league(self, shown, status=200) -> dict:
        answer = self.http.post(f"{self.url}/league", json={"shown": shown}, timeout=10)
        assert answer.status_code == status, (answer.status_code, answer.text[:300])
        return answer.json()

    def speakers(self) -> dict:
        return ok(self.http.get(f"{self.url}/speakers", timeout=10))["teams"]

    def play(self, speakers) -> None:
        """The 1-round game to its end: each turn declared normal, the first author and type
        chosen, the first question read, a full verdict; ``speakers(turn)`` {team: name}
        recorded as spokespersons once the turn is declared."""
        while not self.gm.last["view"]["over"]:
            turn = self.gm.last["view"]["turn"]["number"]
            self.act("declare", mode="normal")
            for team, name in speakers(turn).items():
                self.act("spokesperson", team=team, name=name)
            choice = next(e for e in self.gm.last["legal"] if e["do"] == "choose")
            pick = choice["options"]["choices"][0]
            self.act("choose", author=pick["author"], type=pick["type"])
            self.act("question", id=self.gm.last["candidates"][0]["id"])
            self.act("verdict", result="full")
            if any(e["do"] == "end_turn" for e in self.gm.last["legal"]):
                self.act("end_turn")

    def close(self) -> None:
        clients = [c for c in (self.gm, *self.teams.values(), self.projector) if c is not None]
        threads = [threading.Thread(target=c.close) for c in clients]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(15)


@pytest.fixture(scope="module")
def http(server):
    session = server.gm_session()
    yield session
    session.close()


@pytest.fixture(scope="module")
def klass(server, http):
    class_id = ok(http.post(f"{server.url}/console/classes", json={"name": "Filosofía 1.º B"}), 201)["id"]
    students = ok(http.post(f"{server.url}/console/classes/{class_id}/students",
                            json={"text": "\n".join(STUDENTS)}))["students"]
    assert [s["name"] for s in students] == STUDENTS
    return {"id": class_id, "names": {s["id"]: s["name"] for s in students}}


def names_in(raw: list[str], names) -> set[str]:
    return {name for name in names if any(name in message for message in raw)}


def test_the_league_goes_up_before_the_game_and_after_the_finale_without_names(server, http, klass):
    game = ClassGame(server, http, klass, tablets=40)
    try:
        gm, projector = game.gm, game.projector
        roster = game.roster
        assert sorted(len(t) for t in roster) == [3, 3, 4, 4]
        assert gm.last["league_shown"] is False and "league" not in projector.last

        # Who could speak next: nobody has spoken yet, each team's names in roster order.
        assert game.speakers() == {str(n): [{"name": name, "spoke": 0} for name in names]
                                   for n, names in enumerate(roster, start=1)}

        # The toggle's refusals: a malformed body, a game without a class, no such game.
        for body in ({"shown": "yes"}, {}, {"shown": True, "more": 1}, [True]):
            answer = http.post(f"{game.url}/league", json=body, timeout=10)
            assert answer.status_code == 400 and answer.json()["error"] == "format", body
        plain = server.create_game(http, {"teams": [{"name": f"E{n}", "members": 3} for n in (1, 2, 3, 4)]})
        refused = http.post(f"{server.url}/console/{plain}/league", json={"shown": True}, timeout=10)
        assert refused.status_code == 404 and refused.json()["error"] == "not_found"
        assert ok(http.get(f"{server.url}/console/{plain}/speakers", timeout=10))["teams"] == {}
        assert http.get(f"{server.url}/console/999999/speakers", timeout=10).status_code == 404
        assert http.post(f"{server.url}/console/999999/league", json={"shown": True},
                         timeout=10).status_code == 404

        # Before the first action: the league of today's teams (no finished game yet).
        seq = gm.last["seq"]
        assert game.show_league(True) == {"ok": True, "shown": True}
        shown = projector.wait_for(lambda s: "league" in s)
        assert shown["seq"] == seq == 0
        league = shown["league"]
        assert league["by"] == "teams" and league["games"] == 0 and league["more"] == 0
        assert league["scheme"] == "rank_points"
        assert [r["team"] for r in league["rows"]] == [1, 2, 3, 4]
        assert all(set(r) == {"rank", "team", "name", "points"} and r["rank"] == 1 and r["points"] == 0
                   for r in league["rows"])
        assert gm.wait_for(lambda s: s.get("league_shown") is True)["seq"] == 0
        for team in game.teams.values():
            team.wait_for(lambda s: True)
            assert all("league" not in s and "league_shown" not in s for s in team.states)

        # The first action takes it down for good: the finale comes first at the end.
        game.act("declare", mode="normal")
        projector.wait_for(lambda s: "league" not in s)
        assert gm.last["league_shown"] is False
        assert game.show_league(True, 400)["error"] == "not_now"
        assert game.show_league(False)["ok"]                  # hiding it: at any time
        game.act("undo")

        # The game, with spokespersons: team 1's first student every turn, team 2's second once.
        game.play(lambda turn: {1: roster[0][0], **({2: roster[1][1]} if turn == 1 else {})})
        final = projector.wait_for(lambda s: s["view"]["over"])
        assert "league" not in final and "results" in final
        assert gm.last["league_shown"] is False

        # After the finale: each team's members' points added up (rank points of one game).
        assert game.show_league(True)["ok"]
        league = projector.wait_for(lambda s: "league" in s and s["view"]["over"])["league"]
        ranks = {r["team"]: r["rank"] for r in gm.last["view"]["standings"]}
        expected = {n: len(game.lineup[n - 1]) * (4 - ranks[n] + 1) for n in (1, 2, 3, 4)}
        assert league["by"] == "teams" and league["games"] == 1
        assert {r["team"]: r["points"] for r in league["rows"]} == expected
        points = [r["points"] for r in league["rows"]]
        assert points == sorted(points, reverse=True)
        assert [r["name"] for r in league["rows"]] == [
            gm.last["view"]["teams"][r["team"] - 1]["name"] for r in league["rows"]]
        # A reload (a new projector connection) gets it too; hiding brings the finale back.
        late = Client(server, {"role": "projector", "watch": http.get(
            f"{server.url}/api/games/{game.game_id}/codes", timeout=10).json()["watch"]}).connect()
        try:
            assert late.last["league"] == league
            late_raw = list(late.raw)
        finally:
            late.close()
        assert game.show_league(False)["ok"]
        projector.wait_for(lambda s: "league" not in s)

        # PRIVACY: no student's name in any payload the projector received, and no other
        # team's student in a team's payloads (its own members are on its page already).
        assert names_in(projector.raw + late_raw, STUDENTS + FIRST_NAMES) == set()
        for number, team in game.teams.items():
            others = [name for n, names in enumerate(roster, start=1) if n != number for name in names]
            assert names_in(team.raw, others + [n.split()[0] for n in others]) == set(), number
        assert roster[0][0] in "".join(game.teams[1].raw)     # its own spokesperson, on its tablet
        # The GM's view keeps every name.
        assert {roster[0][0], roster[1][1]} <= names_in(gm.raw, STUDENTS)

        # Who could speak next: least first, ties in roster order.
        speakers = game.speakers()
        assert speakers["1"][-1] == {"name": roster[0][0], "spoke": 4}
        assert speakers["1"][0] == {"name": roster[0][1], "spoke": 0}
        assert speakers["2"][0] == {"name": roster[1][0], "spoke": 0}
        assert speakers["2"][-1] == {"name": roster[1][1], "spoke": 1}
        assert [m["name"] for m in speakers["3"]] == roster[2]
        from facilitator.classes.participation import least_spoken
        counts = {sid: next(m["spoke"] for m in speakers[str(n)] if m["name"] == klass["names"][sid])
                  for n, team in enumerate(game.lineup, start=1) for sid in team}
        for n, team in enumerate(game.lineup, start=1):
            assert klass["names"][least_spoken(team, counts)] == speakers[str(n)][0]["name"]
    finally:
        game.close()


def test_with_names_allowed_the_projector_shows_the_students_league(server, http, klass):
    changed = ok(http.post(f"{server.url}/console/classes/{klass['id']}",
                           json={"projector_names": True}))
    assert changed["class"]["projector_names"] is True
    game = ClassGame(server, http, klass, tablets=50)
    try:
        roster = game.roster
        assert game.show_league(True)["ok"]
        league = game.projector.wait_for(lambda s: "league" in s)["league"]
        assert league["by"] == "students" and league["games"] == 1
        assert len(league["rows"]) == 10 and league["more"] == len(STUDENTS) - 10
        for row in league["rows"]:
            assert set(row) == {"rank", "name", "points", "games", "team"}
            assert row["name"] in STUDENTS and row["games"] == 1
            # Today's team of each student listed.
            assert row["name"] in roster[row["team"] - 1]
        points = [r["points"] for r in league["rows"]]
        assert points == sorted(points, reverse=True) and points[0] == 4
        assert league["rows"][0]["rank"] == 1
        # Names reach the projector now: the league's, and the spokespersons'.
        game.act("spokesperson", team=2, name=roster[1][0])
        game.projector.wait_for(lambda s: s["view"]["turn"]["spokespersons"].get("2") == roster[1][0])
        assert "league" not in game.projector.last            # the game has begun
        assert game.teams[3].last["view"]["turn"]["spokespersons"] == {"2": roster[1][0]}
        # This term's counts include the earlier game's.
        spoke = {m["name"]: m["spoke"] for team in game.speakers().values() for m in team}
        assert sum(spoke.values()) == 4 + 1 + 1
    finally:
        game.close()
