"""A term of one class in the browser (issue 15's acceptance test): three short games,
then the league, participation, the questions and the exports checked against values
computed here from the three games' records.

The teacher (GM console at 1366×768) creates a class and pastes 13 students with
e-mails and ID numbers. Game 1: everyone present, fresh teams, one round (4 teams, four
normal turns). Game 2: one student absent, fresh teams. Game 3: everyone present, the last
game's teams kept (the absent student joins a team, game 2's teams stay together). Each
game is played to its end on the console's buttons: declare normal, choose, read the
question, verdicts full / half (a card picked) / wrong, and Seguro + wrong, so teams
rank apart or tie; spokespersons are named through the console's fields (typed, corrected
in the same turn, typed in other case and spacing, taken from the console's suggestion)
and one representative (round 1 of 1 is individual by default).

From each game's record (GET /console/<id>/record.json with the GM's session): the
standings by replaying it (facilitator.games.partida.replay), the members by its
settings.roster, the spokespersons, representatives and questions by its actions. Then:
no question read twice across the term (and no game was offered one read before); the
league table (rank_points: N − rank + 1 per game) shows every student's points and
games, in league order; the kept-teams table; participation (games present, times
spokesperson and representative, "never spoke"); league.csv, participation.csv,
class.xlsx and moodle.csv hold the same figures. Screenshots of the league and
participation sections: test-artifacts/class_term-*.png.
"""
from __future__ import annotations

import csv
import io
import json
import re
from collections import Counter

try:
    from playwright.sync_api import expect
except ImportError:         # the browser fixture skips, or fails under CI, and says why
    expect = None

from facilitator.classes.exports import MEASURES, WORDS
from facilitator.games.partida import replay

LAPTOP = {"width": 1366, "height": 768}
NAMES = ["Ana García", "Bruno Díaz", "Carla Núñez", "Diego Fernández", "Elena Sosa", "Facundo Ruiz",
         "Gabriela Paz", "Hernán López", "Inés Romero", "Julián Castro", "Karina Benítez",
         "Lucas Medina", "Martina Acosta"]
W = WORDS["es"]

#: Per game, the verdict of each of its four turns: "seguro" is Seguro played, then wrong
#: (no pifie). Full 2, half 1 (+ a card), Seguro 0, wrong −0.5: game 1 ranks all four
#: teams apart, game 2 has two teams tied first (4 points each, the next earns 2).
PLANS = [["full", "half", "wrong", "seguro"],
         ["wrong", "full", "full", "half"],
         ["half", "wrong", "seguro", "full"]]

#: Per game, per turn, who is named: (kind, team, member index in the team, how).
#: how: "exact" types the roster's name; "loose" types it in lower case with doubled
#: spaces (the league matches names without case or spacing); "suggest" takes the
#: console's suggestion (the member who has spoken least this term); "wrong-then-fix"
#: names member 0 and then, in the same turn, the member given (only the last counts).
SPEAK = [
    {1: [("spokesperson", 1, 0, "exact")],
     2: [("spokesperson", 2, 1, "exact"), ("spokesperson", 3, 0, "exact")],
     3: [("spokesperson", 1, 0, "exact")],
     4: [("spokesperson", 4, 1, "wrong-then-fix")]},
    {1: [("spokesperson", 2, 0, "suggest")],
     3: [("spokesperson", 3, 2, "loose")]},
    {1: [("representative", 2, 1, "exact")],
     2: [("spokesperson", 1, 0, "exact")],
     4: [("spokesperson", 4, 2, "exact")]},
]


def class_list() -> str:
    lines = [f"{name}\t{name.split()[0].lower()}.{i}@escuela.edu.ar\t{40100200 + i}" for i, name in enumerate(NAMES)]
    return "\n".join(["Nombre\tCorreo\tDNI", *lines])


def lineup(page) -> list[list[int]]:
    """The dealt teams as the class page shows them: student ids per team."""
    teams = []
    for box in page.locator("[data-testid^=team-]").filter(has=page.locator("ul.members")).all():
        teams.append([int(s.get_attribute("data-testid").rsplit("-", 1)[1])
                      for s in box.locator("[data-testid^=move-]").all()])
    return teams


def norm(name: str) -> str:
    return " ".join(name.split()).casefold()


# ---- the game on the console's buttons ------------------------------------------------

def name_someone(gm, kind: str, team: int, name: str) -> str:
    """Choose ``name`` in the console's field of ``kind`` for ``team`` (issue 34: a class
    game's field is a choice of the team's roster) and save it."""
    field = gm.get_by_test_id(f"{kind}-{team}")
    field.select_option(name)
    gm.get_by_test_id(f"{kind}-{team}-send").click()
    expect(field.locator("xpath=ancestor::td[1]").locator(".current")).to_have_text(name)
    return name


def speak(gm, roster: list[list[str]], plan: list[tuple]) -> None:
    for kind, team, member, how in plan:
        target = roster[team - 1][member]
        if how in ("exact", "loose"):
            # A typed name could be loose ("  ana  garcía "); a choice is always exact.
            name_someone(gm, kind, team, target)
        elif how == "wrong-then-fix":
            name_someone(gm, kind, team, roster[team - 1][0])
            name_someone(gm, kind, team, target)
        elif how == "suggest":
            suggestion = gm.get_by_test_id(f"suggest-{kind}-{team}")
            expect(suggestion).to_be_visible()
            suggestion.click()
            chosen = gm.get_by_test_id(f"{kind}-{team}").input_value()
            assert chosen in roster[team - 1], (chosen, roster[team - 1])
            gm.get_by_test_id(f"{kind}-{team}-send").click()
            expect(gm.get_by_test_id(f"{kind}-{team}").locator("xpath=ancestor::td[1]")
                   .locator(".current")).to_have_text(chosen)
        else:
            raise AssertionError(how)


def play_on_console(gm, roster: list[list[str]], verdicts: list[str], speakers: dict) -> None:
    """Four normal turns on the console's buttons, to the game's end."""
    for number, verdict in enumerate(verdicts, start=1):
        gm.get_by_test_id("declare-normal").click()
        expect(gm.get_by_test_id("choose-send")).to_be_visible()
        if verdict == "seguro":
            gm.get_by_test_id("seguro").click()
            expect(gm.get_by_test_id("seguro")).to_have_count(0)
        speak(gm, roster, speakers.get(number, []))
        gm.get_by_test_id("choose-send").click()
        expect(gm.get_by_test_id("question-offer-text")).not_to_be_empty()
        gm.get_by_test_id("question-read").click()
        expect(gm.get_by_test_id("question-text")).not_to_be_empty()
        gm.get_by_test_id("verdict-" + ("wrong" if verdict == "seguro" else verdict)).click()
        if verdict == "half":
            gm.get_by_test_id("pick-author").click()
        gm.get_by_test_id("end-turn").click()
        expect(gm.get_by_test_id(f"history-turn-{number}")).to_be_visible()
    expect(gm.get_by_test_id("see-results")).to_be_visible()


# ---- what the records say ----------------------------------------------------------------

def from_record(record: dict, ids: dict[str, int]) -> dict:
    """One game as the league and participation should read it, from its record alone."""
    roster = record["settings"]["roster"]
    teams = len(record["settings"]["teams"])
    assert [a["do"] for a in record["actions"] if a["do"] in ("undo", "redo")] == []
    game = replay(record)
    assert game.state.over
    standings = {r["team"]: r for r in game.standings()}
    members = {n: [ids[name] for name in roster[n - 1]] for n in range(1, teams + 1)}
    points = {sid: teams - standings[n]["rank"] + 1 for n, sids in members.items() for sid in sids}
    ranks = {sid: standings[n]["rank"] for n, sids in members.items() for sid in sids}
    by_name = {(n, norm(name)): ids[name] for n in members for name in roster[n - 1]}
    counted = {"spokesperson": Counter(), "representative": Counter()}
    turn: dict[str, dict] = {"spokesperson": {}, "representative": {}}
    for action in record["actions"]:
        if action["do"] in turn:
            turn[action["do"]][action["team"]] = action["name"]     # the last name of a turn counts
        elif action["do"] == "end_turn":
            for kind, named in turn.items():
                for team, name in named.items():
                    sid = by_name.get((team, norm(name)))
                    assert sid is not None, (team, name)
                    counted[kind][sid] += 1
                named.clear()
    return {"teams": teams, "members": members, "points": points, "ranks": ranks,
            "team_points": {n: teams - standings[n]["rank"] + 1 for n in members},
            "spokesperson": counted["spokesperson"], "representative": counted["representative"],
            "questions": [a["id"] for a in record["actions"] if a["do"] == "question"],
            "offered": {q["id"] for q in record["questions"]}}


def shared_ranks(values: list) -> list[int]:
    """R-P4's ranks of ``values`` (sorted best first): equals share, the next skips."""
    out, previous, rank = [], object(), 0
    for place, value in enumerate(values, start=1):
        if value != previous:
            rank, previous = place, value
        out.append(rank)
    return out


def read_csv(response) -> list[list[str]]:
    assert response.ok, (response.status, response.text()[:300])
    return list(csv.reader(io.StringIO(response.text())))


# ---- the test ------------------------------------------------------------------------------

def test_a_term_of_three_games_league_participation_and_exports(room, screens, server):
    gm = room.gm
    gm.set_viewport_size(LAPTOP)
    get = gm.context.request.get

    # ---- the class and its 13 students ------------------------------------------------
    gm.goto(server.url + "/console/classes?lang=es")
    gm.get_by_test_id("class-new-name").fill("Ética 4.º A")
    gm.get_by_test_id("class-create").click()
    gm.wait_for_url(re.compile(r"/console/classes/\d+$"))
    class_url = gm.url
    gm.get_by_test_id("paste-text").fill(class_list())
    gm.get_by_test_id("paste-send").click()
    expect(gm.get_by_test_id("paste-result")).to_have_text("Se agregaron 13 estudiantes.")
    expect(gm.locator("[data-testid^=student-row-]")).to_have_count(13)
    ids: dict[str, int] = {}
    for row in gm.locator("[data-testid^=student-row-]").all():
        ids[row.locator(".sname").inner_text().strip()] = int(row.get_attribute("data-testid").rsplit("-", 1)[1])
    assert sorted(ids) == sorted(NAMES)
    names = {sid: name for name, sid in ids.items()}
    emails = {ids[name]: f"{name.split()[0].lower()}.{i}@escuela.edu.ar" for i, name in enumerate(NAMES)}

    games: list[dict] = []
    records: list[dict] = []

    def new_game(number: int, absent: int | None = None, keep: bool = False) -> list[list[int]]:
        gm.goto(class_url)
        expect(gm.get_by_test_id("attend-count")).to_have_text("13 presentes")
        if absent is not None:
            gm.get_by_test_id(f"attend-{absent}").uncheck()
            expect(gm.get_by_test_id("attend-count")).to_have_text("12 presentes")
        if keep:
            gm.get_by_test_id("deal-mode-keep").check()
        gm.get_by_test_id("deal").click()
        expect(gm.get_by_test_id("lineup")).to_be_visible()
        if keep:
            expect(gm.get_by_test_id("deal-note")).to_contain_text("Se mantuvieron los equipos")
        dealt = lineup(gm)
        expect(gm.get_by_test_id("lineup-warning")).to_be_hidden()
        gm.get_by_test_id("rounds").fill("1")
        gm.get_by_test_id("game-name").fill(f"Ética · partida {number}")
        expect(gm.get_by_test_id("questions-summary")).to_contain_text("4 turnos (1 ronda × 4 equipos)")
        expect(gm.get_by_test_id("runs-short")).to_have_count(0)
        gm.get_by_test_id("create-game").click()
        gm.wait_for_url(re.compile(r"/console/\d+$"))
        expect(gm.get_by_test_id("waiting")).to_be_visible()
        return dealt

    def play(number: int, dealt: list[list[int]]) -> dict:
        game_id = int(gm.url.rsplit("/", 1)[1])
        roster = [[names[sid] for sid in team] for team in dealt]
        play_on_console(gm, roster, PLANS[number - 1], SPEAK[number - 1])
        response = get(f"{server.url}/console/{game_id}/record.json")
        assert response.ok, response.status
        record = json.loads(response.text())
        assert record["settings"]["roster"] == roster
        assert record["settings"]["rounds"] == 1 and len(record["settings"]["teams"]) == 4
        assert record["settings"].get("round_modes", [["normal"]]) == [["normal"]]
        assert [t["members"] for t in record["settings"]["teams"]] == [len(t) for t in dealt]
        records.append(record)
        game = from_record(record, ids)
        game["id"] = game_id
        games.append(game)
        return game

    # ---- game 1: everyone, fresh teams -------------------------------------------------
    dealt1 = new_game(1)
    assert sorted(map(len, dealt1)) == [3, 3, 3, 4] and sorted(sum(dealt1, [])) == sorted(ids.values())
    play(1, dealt1)

    # ---- game 2: one student absent (game 1's first spokesperson), fresh teams ----------
    absent = dealt1[0][0]
    dealt2 = new_game(2, absent=absent)
    assert sorted(map(len, dealt2)) == [3, 3, 3, 3] and absent not in sum(dealt2, [])
    play(2, dealt2)

    # ---- game 3: everyone, game 2's teams kept ------------------------------------------
    dealt3 = new_game(3, keep=True)
    assert absent in sum(dealt3, []), "the student absent in game 2 is placed"
    assert sorted(sum(dealt3, [])) == sorted(ids.values())
    for number, team in enumerate(dealt2):
        assert set(team) <= set(dealt3[number]), (number + 1, team, dealt3)
    play(3, dealt3)

    # ---- the questions: none read twice, none offered again -----------------------------
    read = [q for game in games for q in game["questions"]]
    assert len(read) == 12 and len(set(read)) == 12, read
    for later in (1, 2):
        earlier = {q for game in games[:later] for q in game["questions"]}
        assert not earlier & games[later]["offered"], f"game {later + 1} was offered a question read before"

    # ---- what the term should show, from the records ------------------------------------
    everyone = list(ids.values())
    points = {sid: sum(g["points"].get(sid, 0) for g in games) for sid in everyone}
    played = {sid: sum(sid in g["points"] for g in games) for sid in everyone}
    spokesperson = {sid: sum(g["spokesperson"][sid] for g in games) for sid in everyone}
    representative = {sid: sum(g["representative"][sid] for g in games) for sid in everyone}
    spoke = {sid: spokesperson[sid] + representative[sid] for sid in everyone}
    never = {sid for sid in everyone if spoke[sid] == 0}
    assert played[absent] == 2 and all(played[s] == 3 for s in everyone if s != absent)
    assert never and len(never) < len(everyone) and max(spokesperson.values()) >= 2
    assert sum(representative.values()) == 1
    assert len(set(points.values())) > 1, "the term should rank students apart"
    order = sorted(everyone, key=lambda s: (-points[s], names[s].casefold(), s))
    league_rank = dict(zip(order, shared_ranks([points[s] for s in order])))
    mean_rank = {sid: round(sum(g["ranks"][sid] for g in games if sid in g["ranks"]) / played[sid], 2)
                 for sid in everyone}
    # The kept teams: game 3's teams over games 2 and 3 (team numbers kept their place).
    kept = {n: [games[1]["team_points"][n], games[2]["team_points"][n]] for n in range(1, 5)}

    # ---- the class page -----------------------------------------------------------------
    gm.goto(class_url)
    expect(gm.get_by_test_id("class-games").locator("li")).to_have_count(3)
    expect(gm.get_by_test_id("league-note")).to_have_text("Sobre 3 partidas terminadas.")
    table = gm.get_by_test_id("league-table")
    expect(table.locator("tbody tr")).to_have_count(13)
    rows = [int(r.get_attribute("data-testid").rsplit("-", 1)[1]) for r in table.locator("tbody tr").all()]
    assert rows == order, "the league's order"
    for sid in everyone:
        row = gm.get_by_test_id(f"league-row-{sid}")
        expect(row.locator("th")).to_have_text(names[sid])
        expect(row.locator("td").nth(1)).to_have_text(str(points[sid]))
        expect(row.locator("td").nth(2)).to_have_text(str(played[sid]))

    teams_table = gm.get_by_test_id("teams-table")
    expect(teams_table).to_be_visible()
    expect(teams_table.locator("tbody tr")).to_have_count(4)
    for row in teams_table.locator("tbody tr").all():
        label = row.locator("th").inner_text()
        number = next(n for n in range(1, 5) if f"Equipo {n}" in label)
        expect(row.locator("td").nth(1)).to_have_text(", ".join(names[s] for s in dealt3[number - 1]))
        expect(row.locator("td").nth(2)).to_have_text(str(sum(kept[number])))

    part = gm.get_by_test_id("participation-table")
    expect(part.locator("tbody tr")).to_have_count(13)
    for sid in everyone:
        row = gm.get_by_test_id(f"participation-row-{sid}")
        cells = row.locator("td")
        expect(cells.nth(0)).to_have_text(f"{played[sid]} de 3")
        expect(cells.nth(1)).to_have_text(str(spokesperson[sid]))
        expect(cells.nth(2)).to_have_text(str(representative[sid]))
        expect(gm.get_by_test_id(f"never-spoke-{sid}")).to_have_count(1 if sid in never else 0)
    expect(gm.get_by_test_id(f"participation-row-{absent}").locator("td").nth(3)).to_contain_text("ausente")

    gm.locator("#league").screenshot(path=str(screens.artifacts / "class_term-league.png"), animations="disabled")
    gm.locator("#participation").screenshot(path=str(screens.artifacts / "class_term-participation.png"),
                                            animations="disabled")
    screens.shot(gm, "page")

    # ---- the exports, downloaded with the GM's session -----------------------------------
    base = class_url + "/export/"
    league = read_csv(get(server.url + gm.get_by_test_id("export-league").get_attribute("href")))
    header, *body = league
    assert header[:6] == [W["rank"], W["name"], W["email"], W["id_number"], W["points"], W["games"]], header
    assert len(header) == 9 and len(body) == 13
    assert [ids[r[1]] for r in body] == order
    for r in body:
        sid = ids[r[1]]
        assert r[2] == emails[sid] and r[3] == str(40100200 + NAMES.index(names[sid]))
        assert (int(r[0]), int(r[4]), int(r[5])) == (league_rank[sid], points[sid], played[sid]), r
        assert r[6:] == [str(g["points"][sid]) if sid in g["points"] else "" for g in games], r

    header, *body = read_csv(get(base + "participation.csv"))
    assert header[:11] == [W[k] for k in ("name", "email", "id_number", "left", "games_present", "games_total",
                                          "spokesperson", "representative", "spoke", "never_spoke", "mean_rank")]
    assert len(body) == 13
    for r in body:
        sid = ids[r[0]]
        assert r[1] == emails[sid] and r[3] == W["no"]
        assert [int(x) for x in r[4:9]] == [played[sid], 3, spokesperson[sid], representative[sid], spoke[sid]], r
        assert r[9] == (W["yes"] if sid in never else W["no"]), r
        assert float(r[10]) == mean_rank[sid], r
        assert r[11:] == [str(g["ranks"][sid]) if sid in g["ranks"] else "" for g in games], r

    moodle_link = gm.get_by_test_id("export-moodle")
    gm.get_by_test_id("moodle-measure-spoke").check()
    expect(moodle_link).to_have_attribute("href", re.compile(r"identifier=email&measures=league_points,spoke&"))
    header, *body = read_csv(get(server.url + moodle_link.get_attribute("href")))
    assert header == ["Email address", MEASURES["league_points"][0], MEASURES["spoke"][0]], header
    by_email = {emails[sid]: sid for sid in everyone}
    assert [by_email[r[0]] for r in body] == [ids[name] for name in NAMES], "class-list order"
    for r in body:
        sid = by_email[r[0]]
        assert r[1:] == [str(points[sid]), str(spoke[sid])], r

    response = get(base + "class.xlsx")
    assert response.ok, response.status
    from openpyxl import load_workbook
    book = load_workbook(io.BytesIO(response.body()))
    assert book.sheetnames == [W["league"], W["participation"], W["teams"]], book.sheetnames
    sheet = [list(r) for r in book[W["league"]].iter_rows(values_only=True)]
    assert [ids[r[1]] for r in sheet[1:]] == order
    for r in sheet[1:]:
        sid = ids[r[1]]
        assert (r[0], r[4], r[5]) == (league_rank[sid], points[sid], played[sid]), r
        assert list(r[6:]) == [g["points"].get(sid) for g in games], r
    sheet = [list(r) for r in book[W["participation"]].iter_rows(values_only=True)]
    assert len(sheet) == 14
    for r in sheet[1:]:
        sid = ids[r[0]]
        assert r[4:9] == [played[sid], 3, spokesperson[sid], representative[sid], spoke[sid]], r
        assert r[9] == (W["yes"] if sid in never else W["no"]) and r[10] == mean_rank[sid], r
    sheet = [list(r) for r in book[W["teams"]].iter_rows(values_only=True)]
    assert len(sheet) == 5
    for r in sheet[1:]:
        number = r[1]
        assert r[3] == ", ".join(names[s] for s in dealt3[number - 1]), r
        assert (r[4], list(r[5:])) == (sum(kept[number]), kept[number]), r
