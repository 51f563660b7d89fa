"""La colmena for a whole class at once (section C-A of docs/colmena.md): the plan's tables
for every class size with and without a solo seat, the games it makes, each table's line
in the hall's screens, the standings, the bell and the debrief."""
from __future__ import annotations

import json

import pytest

from colmena_play import play_random_game
from facilitator.games.colmena import KIND
from facilitator.games.colmena.hall import ColmenaHall, seat_name
from facilitator.games.protocol import Refusal, Role

HALL = ColmenaHall()
NAMES = [f"Estudiante {n}" for n in range(1, 61)]


def tables_of(count: int, solo: bool, seed: int = 3) -> list[list[int]]:
    return HALL.plan(NAMES[:count], {"solo": solo}, seed)["tables"]


@pytest.mark.parametrize("solo", [False, True])
@pytest.mark.parametrize("count", range(1, 61))
def test_c_a2_c_a3_every_class_size_seats_everyone_once_at_balanced_tables(count, solo):
    """C-A2, C-A3: sizes, balance, every player once, the solo seat."""
    if count == 1 and not solo or count == 2 and solo:
        with pytest.raises(Refusal) as caught:
            tables_of(count, solo)
        assert caught.value.rule == ("C-A1" if not solo else "C-A3")
        return
    tables = tables_of(count, solo)
    seated = [player for table in tables for player in table]
    assert sorted(seated) == list(range(count))                 # every player once
    grouped = tables[:-1] if solo else tables
    if solo:
        assert tables[-1] == [count - 1]                        # the last of the list, alone
    sizes = [len(table) for table in grouped]
    assert all(2 <= size <= 4 for size in sizes)
    assert max(sizes, default=0) - min(sizes, default=0) <= 1   # balanced
    assert sizes == sorted(sizes, reverse=True)                 # the larger tables first
    assert len(grouped) == -(-(count - solo) // 4)              # the fewest tables (4 preferred)


def test_c_a4_a_plan_is_drawn_from_its_seed_and_made_again_the_same():
    """C-A4: the seed draws the seats and each table's seed."""
    first = HALL.plan(NAMES[:23], {}, 48151)
    assert HALL.plan(NAMES[:23], {}, 48151) == first
    assert json.loads(json.dumps(first)) == first                # plain JSON data
    other = HALL.plan(NAMES[:23], {}, 48152)
    assert other["tables"] != first["tables"] and other["seeds"] != first["seeds"]
    games = HALL.round_games(first)
    assert [g["key"] for g in games] == [f"1.{n}" for n in range(1, 7)]
    # Each game is what KIND.new takes: its players by seat, the default deck, its seed.
    for game, table, seed in zip(games, first["tables"], first["seeds"]):
        assert game["settings"] == {"players": [NAMES[i] for i in table]}
        assert game["content"] == {"deck": "default", "seed": seed}
        match = KIND.new(game["settings"], game["content"])
        again = KIND.new(game["settings"], game["content"])
        assert match.state.to_dict() == again.state.to_dict()


@pytest.mark.parametrize("players, settings, rule", [
    ([], {}, "C-A1"),
    (["Ana"], {}, "C-A1"),
    ([], {"solo": True}, "C-A1"),
    (["Ana", "Bea"], {"solo": True}, "C-A3"),
    (["Ana", "Bea"], {"solo": "sí"}, "C-A3"),
    (["Ana", "Bea"], {"size": 3}, "format"),
    ([f"P{n}" for n in range(201)], {}, "C-A1"),
])
def test_c_a1_c_a3_a_hall_that_makes_no_tables_is_refused_with_its_rule(players, settings, rule):
    with pytest.raises(Refusal) as caught:
        HALL.plan(players, settings, 1)
    assert caught.value.rule == rule and caught.value.message


def test_c_a1_a_long_name_is_shortened_at_its_table_only():
    long = "María del Carmen Fernández-Villaverde Rodríguez"
    plan = HALL.plan([long, "Bea"], {}, 1)
    assert plan["players"][0] == long
    seated = HALL.round_games(plan)[0]["settings"]["players"]
    short = seat_name(long)
    assert short in seated and len(short) == 40 and short.endswith("…")
    KIND.new(HALL.round_games(plan)[0]["settings"], seed=1)      # the table takes it


def test_c_a3_the_solo_table_plays_by_the_solo_rules():
    plan = HALL.plan(["Ana", "Bea", "Carla", "Dani"], {"solo": True}, 5)
    solo = HALL.round_games(plan)[-1]
    assert solo["settings"] == {"players": ["Dani"]}
    match = KIND.new(solo["settings"], solo["content"])
    assert match.state.solo and len(match.state.hand(1)) == 6    # C-O1
    assert HALL.summary(match)["solo"] is True


def test_c_a5_one_round_only():
    plan = HALL.plan(NAMES[:6], {}, 1)
    with pytest.raises(Refusal) as caught:
        HALL.next_round(plan, {})
    assert caught.value.rule == "C-A5"


def _hall_of_three(seed: int = 11):
    """A hall of 9 players (three tables of 3), each table its own game."""
    plan = HALL.plan(NAMES[:9], {}, seed)
    games = HALL.round_games(plan)
    matches = {g["key"]: KIND.new(g["settings"], g["content"]) for g in games}
    return plan, games, matches


def _start(match) -> None:
    """The table's first action: a player with a task in hand lays it (C-S)."""
    holder = next(s for s in range(1, len(match.players) + 1)
                  if any(match.deck.card(c).is_task for c in match.state.hand(s)))
    task = next(c for c in match.state.hand(holder) if match.deck.card(c).is_task)
    match.play({"do": "first_task", "player": holder, "card": task}, Role.gm())


def test_c_a8_a_summary_says_the_step_whose_turn_and_the_score_so_far():
    """C-A8: a table's line in the hall's screens."""
    plan, games, matches = _hall_of_three()
    match = matches["1.1"]
    summary = HALL.summary(match)
    assert summary["step"] == "first_task" and summary["seat"] is None and not summary["over"]
    assert summary["deck"] == 72 - 12 and summary["board"] == 0 and summary["penalties"] == 0
    assert summary["tier"] is None and summary["breakdown"] is None
    holder = next(s for s in range(1, 4)
                  if any(match.deck.card(c).is_task for c in match.state.hand(s)))
    task = next(c for c in match.state.hand(holder) if match.deck.card(c).is_task)
    match.play({"do": "first_task", "player": holder, "card": task}, Role.gm())
    summary = HALL.summary(match)
    assert summary["step"] == "keep" and summary["seat"] == holder
    assert summary["seat_name"] == games[0]["settings"]["players"][holder - 1]
    assert summary["board"] == 1 and summary["total"] == match.score()["total"]
    match.play({"do": "keep", "card": match.state.drawn[0]}, Role.gm())
    other = holder % 3 + 1
    match.play({"do": "penalty", "player": other}, Role.gm())         # C-H2
    assert HALL.summary(match)["penalties"] == 1
    match.play({"do": "undo"}, Role.gm())
    assert HALL.summary(match)["penalties"] == 0                       # undone: not counted
    json.dumps(HALL.summary(match))                                     # plain JSON data


def test_c_a6_the_bell_ends_each_table_still_on_as_it_stands():
    """C-A6: end_game at the bell, for the tables still on; a table whose first task was
    never laid ends unplayed: no tier, no message."""
    plan, games, matches = _hall_of_three()
    unplayed = matches.pop("1.3")
    unplayed.play(HALL.bell(HALL.summary(unplayed)), Role.gm())
    summary = HALL.summary(unplayed)
    assert summary["over"] and not summary["played"] and summary["tier"] is None
    assert summary["message"] is None and unplayed.winner() is None
    for key, match in matches.items():
        _start(match)
        action = HALL.bell(HALL.summary(match))
        assert action == {"do": "end_game"}                            # C-E3
        match.play(action, Role.gm())
        summary = HALL.summary(match)
        assert summary["over"] and summary["ended_early"] and summary["step"] == "over"
        assert summary["tier"] == match.score()["tier"]
        assert summary["message"]["es-ES"] and summary["breakdown"]["total"] == summary["total"]
        assert HALL.bell(summary) is None                              # over: nothing to end


def test_c_a7_every_player_gets_the_tables_score_ranked_with_shared_ranks():
    """C-A7: the table's total for each of its players; a table that never started is
    neither scored nor ranked."""
    plan, games, matches = _hall_of_three()
    finished = play_random_game(3, games[1]["content"]["seed"], rng_seed=4)
    _start(matches["1.1"])
    summaries = {key: HALL.summary(match) for key, match in matches.items()}
    summaries["1.2"] = HALL.summary(finished)
    standings = HALL.standings(plan, summaries)
    assert sorted(row["player"] for row in standings) == sorted(games[0]["players"]
                                                                + games[1]["players"])
    for game in games[:2]:
        total = summaries[game["key"]]["total"]
        assert {row["points"] for row in standings if row["player"] in game["players"]} == {total}
    points = [row["points"] for row in standings]
    assert points == sorted(points, reverse=True)
    for row in standings:
        assert row["rank"] == 1 + sum(p > row["points"] for p in points)
    assert standings[-1]["rank"] >= 1 and len({r["rank"] for r in standings}) <= 3


def test_c_a8_the_hall_views_show_no_hand_and_the_projector_no_name():
    """C-A8: no hand in either view, no name on the projector but who sits at a table not
    started yet (C-Q3), and none at all when the class keeps names off it."""
    plan, games, matches = _hall_of_three()
    _start(matches["1.3"])
    matches["1.3"].play({"do": "end_game"}, Role.gm())
    summaries = {key: HALL.summary(match) for key, match in matches.items()}
    teacher = HALL.view(plan, summaries, Role.gm(), [])
    room = HALL.view(plan, summaries, Role.watcher(), [])
    assert teacher["teacher"] and not room["teacher"]
    assert [t["key"] for t in teacher["tables"]] == ["1.1", "1.2", "1.3"]
    assert teacher["tables"][0]["players"] == games[0]["settings"]["players"]
    assert teacher["tables"][2]["tier"] == summaries["1.3"]["tier"] and not teacher["over"]
    assert room["tables"][2]["message"]["es"].startswith("¡")
    hands = {card for match in matches.values() for hand in match.state.hands for card in hand}
    for view in (teacher, room):
        text = json.dumps(view, ensure_ascii=False)
        assert not [card for card in hands if f'"{card}"' in text]      # never a hand card
    seated = {name for table in room["tables"] for name in table.get("players", ())}
    assert all("players" not in table for table in room["tables"] if table["started"])
    assert seated == {name for game in games[:2] for name in game["settings"]["players"]}
    unseated = {**room, "tables": [{k: v for k, v in table.items() if k != "players"}
                                   for table in room["tables"]]}
    room_text = json.dumps(unseated, ensure_ascii=False)
    assert not [name for name in NAMES[:9] if name in room_text]        # no other name
    private = json.dumps(HALL.view(plan, summaries, Role.watcher(), [], names=False),
                         ensure_ascii=False)
    assert not [name for name in NAMES[:9] if name in private]          # C-Q3: names off


def test_c_a9_the_debrief_lists_each_tables_completed_tasks_by_name():
    """C-A9: the completed tasks by name, per table."""
    plan, games, matches = _hall_of_three()
    finished = None
    for seed in range(60):                    # a seeded game that completes tasks
        finished = play_random_game(3, seed, rng_seed=seed)
        if finished.score()["completed"]:
            break
    summaries = {key: HALL.summary(match) for key, match in matches.items()}
    summaries["1.2"] = HALL.summary(finished)
    done = finished.score()["completed"]
    spanish = HALL.debrief(plan, summaries, "es-ES")
    english = HALL.debrief(plan, summaries, "en")
    assert [part["key"] for part in spanish] == ["1.1", "1.2", "1.3"]
    # Table 1 never laid its first task: not played, nothing but that to say (C-A6).
    assert spanish[0]["title"] == "Mesa 1: no se jugó" and spanish[0]["items"] == []
    assert spanish[0]["total"] is None and spanish[0]["breakdown"] == []
    _start(matches["1.1"])
    started = HALL.debrief(plan, {**summaries, "1.1": HALL.summary(matches["1.1"])}, "es-ES")
    assert started[0]["items"] == ["Ninguna tarea completada"]
    assert spanish[1]["tasks"] == [row["card"] for row in done]
    first = finished.deck.card(done[0]["card"])
    assert spanish[1]["items"][0] == f"{first.name_es} ({done[0]['points']})"
    assert english[1]["items"][0] == f"{first.name} ({done[0]['points']})"
    assert english[1]["title"].startswith("Table 2: ") and spanish[1]["title"].startswith("Mesa 2: ")


def test_c_a7_c_a9_the_results_rank_tables_and_say_their_talking_penalties():
    """The results rank each table (the game is cooperative), its students under it and
    its talking penalties beside it; the debrief names who took them; a table not played
    has neither place nor score."""
    plan, games, matches = _hall_of_three()
    for key in ("1.1", "1.2"):
        _start(matches[key])
    match = matches["1.2"]
    if match.state.step == "keep":
        match.play({"do": "keep", "card": match.state.drawn[0]}, Role.gm())
    seat = next(entry for entry in match.legal(Role.table())
                if entry.do == "penalty").options["players"][0]
    for _ in range(2):
        match.play({"do": "penalty", "player": seat}, Role.table())
    summaries = {key: HALL.summary(m) for key, m in matches.items()}
    assert HALL.ranks == "group" and HALL.columns == ("penalties",)
    rows = HALL.groups(plan, summaries, "es")
    assert [row["place"] for row in rows[:2]] == sorted(
        (1, 2), key=lambda place: (-summaries[f"1.{place}"]["total"], place))
    assert rows[2]["place"] == 3 and rows[2]["rank"] is None and rows[2]["points"] is None
    by_place = {row["place"]: row for row in rows}
    assert by_place[2]["penalties"] == 2 and by_place[1]["penalties"] == 0
    assert by_place[2]["members"] == [plan["players"][p] for p in games[1]["players"]]
    assert by_place[2]["name"] == "Mesa 2" and HALL.groups(plan, summaries, "en")[0]["name"].startswith("Table ")
    name = match.state.players[seat - 1]
    notes = {part["key"]: part["notes"] for part in HALL.debrief(plan, summaries, "es")}
    assert notes["1.2"] == [f"Penalizaciones por hablar: 2 ({name} ×2)"]
    assert notes["1.1"] == ["Penalizaciones por hablar: ninguna"]
    assert HALL.debrief(plan, summaries, "en")[1]["notes"] == [f"Talking penalties: 2 ({name} ×2)"]


def test_the_kind_plays_so():
    assert KIND.hall.bounds()["solo"]["default"] is False
    assert KIND.screens_folder.name == "colmena" and KIND.pages == {}
