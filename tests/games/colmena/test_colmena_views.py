"""Who sees what (C-V1..C-V3) and who may send what (the legal list by role, C-T5)."""
from __future__ import annotations

import json

from colmena_play import GM, leaks, new_table, position
from facilitator.games.colmena import KIND
from facilitator.games.protocol import Match, Role

ANA, BEA = Role.of_seat(1), Role.of_seat(2)
CENTRE = {(0, 0): "T11"}
HANDS = [["FAC01", "STU01", "MAN01", "T22"], ["FAC02"], ["STU02"]]


def text_of(view: dict) -> str:
    return json.dumps(view, ensure_ascii=False)


def test_the_match_speaks_the_protocol():
    match = new_table(2)
    assert isinstance(match, Match) and match.kind == "colmena"
    assert match.deadline() is None and match.due(1e9) is None
    bounds = KIND.settings_bounds()
    assert (bounds["players"]["min"], bounds["players"]["max"]) == (1, 4)
    assert bounds["deck"]["default"] == "default"


def test_c_v1_a_players_phone():
    """Own hand, the two drawn while choosing, board, discard pile, deck count, whose turn
    and what is awaited, hand sizes, the score so far."""
    match = position(HANDS, board=CENTRE, step="keep", drawn=["FAC03", "T24"],
                     discard=["LIB05"])
    view = match.view(ANA)
    assert view["me"] == 1 and [c["id"] for c in view["hand"]] == HANDS[0]
    assert [c["id"] for c in view["choosing"]] == ["FAC03", "T24"]
    assert view["board"][0] == {"at": [0, 0], "card": view["board"][0]["card"]}
    assert view["board"][0]["card"]["id"] == "T11"
    assert [c["id"] for c in view["discard"]] == ["LIB05"]
    assert view["deck"] == len(match.state.deck)
    assert view["awaiting"] == {"step": "keep", "seat": 1, "do": ["keep"]}
    assert [p["hand"] for p in view["players"]] == [4, 1, 1]
    assert view["score"]["total"] == -2 - 6
    assert view["legal"] == [{"do": "keep", "seats": [1], "options": {"cards": ["FAC03", "T24"]}}]
    assert "FAC03" not in text_of(match.view(BEA)) and match.view(BEA)["choosing"] == []


def test_c_v1_each_card_it_may_play_with_its_legal_cells():
    match = position(HANDS, board=CENTRE)
    view = match.view(ANA)
    assert view["playable"] == [{"card": "FAC01", "cells": [[0, -1], [-1, 0], [1, 0], [0, 1]]},
                                {"card": "STU01", "cells": [[0, -1], [-1, 0], [1, 0], [0, 1]]}]
    assert [(b["card"], b["rule"]) for b in view["blocked"]] == [("MAN01", "C-T3"),
                                                                 ("T22", "C-T3")]
    # Why, as data a screen writes in its language: no English sentence in the view.
    manager, task = view["blocked"]
    assert manager["reason"] == "team_no_task"
    assert manager["icon"] == {"key": "briefcase", "name": {"es": "maletín", "en": "briefcase"}}
    assert task["reason"] == "task_no_team"
    assert [i["key"] for i in task["icons"]] == ["briefcase", "book", "brain"]
    assert all("message" not in b for b in view["blocked"])
    assert match.view(BEA)["playable"] == [] and match.view(BEA)["blocked"] == []
    assert view["awaiting"] == {"step": "action", "seat": 1,
                                "do": ["play", "end_turn", "communicate", "extra"]}


def test_c_v1_the_first_task_lights_the_centre():
    match = new_table(3)
    assert match.view(ANA)["playable"] == [{"card": "T11", "cells": [[0, 0]]}]
    assert match.view(Role.of_seat(3))["playable"] == [{"card": "T19", "cells": [[0, 0]]},
                                                       {"card": "T01", "cells": [[0, 0]]}]


def test_card_data_names_icons_and_counts():
    view = position(HANDS, board=CENTRE).view(ANA)
    fac = view["hand"][0]
    assert fac == {"id": "FAC01", "kind": "team", "name": {"es": "Profesorado", "en": "Faculty"},
                   "icons": [{"key": "pencil", "name": {"es": "lápiz", "en": "pencil"}}],
                   "count": 11, "times": "×11"}
    task = view["board"][0]["card"]
    assert task["kind"] == "task" and "count" not in task
    assert [i["name"]["es"] for i in task["icons"]] == ["lápiz", "birrete", "cerebro"]


def test_c_v2_the_table_screen_and_the_projector_never_show_a_hand():
    match = position(HANDS, board=CENTRE, step="keep", drawn=["FAC03", "T24"])
    for role in (Role.table(), Role.watcher()):
        view = match.view(role)
        assert leaks(match, role) == []
        assert "hand" not in view and "hands" not in view and view["drawn"] == 2
        assert [p["hand"] for p in view["players"]] == [4, 1, 1]
        assert view["score"]["hand_points"] == -6
    assert match.view(Role.watcher())["legal"] == []
    assert [e["do"] for e in match.view(Role.table())["legal"]] == ["penalty"]


def test_c_v2_the_table_screen_sees_who_holds_a_task_not_which():
    match = new_table(3)
    view = match.view(Role.table())
    assert view["awaiting"]["players"] == [1, 2, 3]
    assert view["legal"] == [{"do": "first_task", "seats": [1, 2, 3],
                              "options": {"players": [1, 2, 3], "starter": None}, "table": True}]
    assert leaks(match, Role.table()) == []


def test_c_v2_the_result_at_the_end():
    match = position(HANDS, board=CENTRE)
    assert match.view(Role.watcher())["result"] is None
    match.play({"do": "end_game"})
    result = match.view(Role.watcher())["result"]
    assert result["tier"] == "do_better" and result["total"] == -8
    assert result["message"]["es"].startswith("¡Pueden hacerlo mejor!")


def test_c_v3_the_teacher_sees_everything():
    match = position(HANDS, board=CENTRE, step="keep", drawn=["FAC03", "T24"])
    view = match.view(GM)
    assert {seat: [c["id"] for c in cards] for seat, cards in view["hands"].items()} == {
        "1": HANDS[0], "2": HANDS[1], "3": HANDS[2]}
    assert view["deck_order"] == match.state.deck
    assert [c["id"] for c in view["choosing"]] == ["FAC03", "T24"]
    assert view["seed"] == match.seed


def test_the_legal_list_by_role():
    """The GM may send every entry (with the seats who may send it); a seat only its own,
    with its own cards; the table screen first_task and penalty; the projector nothing."""
    match = position(HANDS, board=CENTRE)
    gm = {e.do: e for e in match.legal()}
    assert list(gm) == ["play", "end_turn", "communicate", "extra", "penalty", "end_game"]
    assert gm["play"].seats == (1,) and gm["penalty"].table and gm["end_game"].seats == ()
    assert [e.do for e in match.legal(ANA)] == ["play", "end_turn", "communicate", "extra"]
    assert match.legal(BEA) == []
    assert [e.do for e in match.legal(Role.table())] == ["penalty"]
    assert match.legal(Role.watcher()) == []
    fresh = new_table(3)
    mine = fresh.legal(Role.of_seat(3))[0]
    assert mine.options == {"players": [3], "starter": None, "cards": {"3": ["T19", "T01"]}}
