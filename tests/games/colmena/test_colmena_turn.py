"""The turn (C-T1..C-T5, C-Z2..C-Z4), talking (C-H1..C-H3, C-Z6), the end (C-E1..C-E3,
C-Z7), undo and redo (C-Z8) and solo play (C-O2, C-O3), from positions set by hand."""
from __future__ import annotations

import pytest

from colmena_play import GM, new_table, position
from facilitator.games.colmena.deck import DEFAULT
from facilitator.games.protocol import Refusal, Role

ANA, BEA, CARLA = Role.of_seat(1), Role.of_seat(2), Role.of_seat(3)
#: T11 (pencil, mortarboard, brain) alone in the centre; Ana to act.
CENTRE = {(0, 0): "T11"}
HANDS = [["FAC01", "STU01", "MAN01", "T22"], ["FAC02"], ["STU02"]]


def refusal(match, action: dict, by: Role = GM) -> str:
    """The rule refusing ``action``; the refusal changes nothing (C-R4)."""
    before, seq = match.state.to_dict(), match.seq
    with pytest.raises(Refusal) as caught:
        match.play(action, by)
    assert match.state.to_dict() == before and match.seq == seq
    return caught.value.rule


def cards_everywhere(match) -> list[str]:
    state = match.state
    return sorted(state.deck + state.discard + list(state.board.values()) + state.pending()
                  + [c for hand in state.hands for c in hand])


# ------------------------------------------------------------------ C-T1: draw two, keep one

def test_c_t1_keep_one_of_the_two_and_discard_the_other_face_up():
    match = position(HANDS, board=CENTRE, step="keep", drawn=["FAC03", "T24"])
    assert refusal(match, {"do": "keep", "card": "FAC04"}) == "C-T5"    # not one drawn
    match.play({"do": "keep", "card": "T24"}, ANA)
    state = match.state
    assert state.hand(1)[-1] == "T24" and state.discard[-1] == "FAC03"
    assert state.step == "action" and state.drawn == []


def test_c_t1_c_z3_one_card_left_goes_to_the_hand_by_itself():
    match = position(HANDS, board=CENTRE, deck=["ARD01"])
    match.play({"do": "end_turn"}, ANA)
    state = match.state
    assert (state.seat, state.step, state.deck) == (2, "action", [])
    assert state.hand(2) == ["FAC02", "ARD01"] and not state.drawn
    assert match.view(GM)["last_turn"] is True


# ------------------------------------------------------------------ C-T2: one action

def test_c_t2_manage_resources_cards_one_at_a_time_then_end_turn():
    match = position([["FAC01", "T24", "MAN01"], ["FAC02"], ["STU02"]], board=CENTRE)
    match.play({"do": "play", "card": "FAC01", "at": [1, 0]}, ANA)
    assert match.state.step == "manage"
    # A card just played counts for the next: T24 (pencil, briefcase) beside FAC01.
    match.play({"do": "play", "card": "T24", "at": [2, 0]}, ANA)
    match.play({"do": "play", "card": "MAN01", "at": [3, 0]}, ANA)
    match.play({"do": "end_turn"}, ANA)
    assert match.state.seat == 2 and match.state.step == "keep"


def test_c_t2_zero_cards_is_allowed():
    match = position(HANDS, board=CENTRE)
    match.play({"do": "end_turn"}, ANA)
    assert match.state.seat == 2 and match.state.hand(1) == HANDS[0]


def test_c_t2_communicate_discards_one_card_asks_and_ends_the_turn():
    match = position(HANDS, board=CENTRE)
    match.play({"do": "communicate", "card": "MAN01", "ask": {"task": "mortarboard"}}, ANA)
    state = match.state
    assert state.discard[-1] == "MAN01" and "MAN01" not in state.hand(1)
    assert state.question == {"seat": 1, "turn": 1, "ask": {"task": "mortarboard"}}
    assert state.seat == 2
    text = match.view(Role.table())["question"]["text"]
    assert text == {"es": "¿Tienen alguna tarea que necesite de Alumnado?",
                    "es-ES": "¿Tenéis alguna tarea que necesite de Alumnado?",
                    "en": "Any task that requires Students?"}
    match = position(HANDS, board=CENTRE)
    assert refusal(match, {"do": "communicate", "card": "MAN01", "ask": {"team": "owl"}}) \
        == "format"
    assert refusal(match, {"do": "communicate", "card": "MAN01", "ask": "x" * 201}) == "format"


def test_c_t2_extra_first_card_to_hand_second_played_at_once():
    match = position(HANDS, board=CENTRE, deck_top=["MAN02", "ARD01"])
    match.play({"do": "extra"}, ANA)
    state = match.state
    assert state.hand(1)[-1] == "MAN02"
    assert (state.step, state.forced, state.seat) == ("place", "ARD01", 1)
    assert match.view(Role.watcher())["forced"]["id"] == "ARD01"
    match.play({"do": "place", "at": [0, 1]}, ANA)
    assert match.state.board[(0, 1)] == "ARD01" and match.state.seat == 2


def test_c_t2_c_t3_extra_second_card_that_cannot_be_played_is_discarded():
    match = position(HANDS, board=CENTRE, deck_top=["ARD01", "MAN02", "FAC03", "FAC04"])
    match.play({"do": "extra"}, ANA)
    state = match.state
    assert state.hand(1)[-1] == "ARD01" and state.discard[-1] == "MAN02"
    assert (state.seat, state.step, state.drawn) == (2, "keep", ["FAC03", "FAC04"])


def test_c_t2_extra_with_one_card_left_and_with_none():
    match = position(HANDS, board=CENTRE, deck=["ARD01"])
    match.play({"do": "extra"}, ANA)
    assert match.state.hand(1)[-1] == "ARD01" and match.over        # C-E1: the deck ran out
    match = position(HANDS, board=CENTRE, deck=[])
    assert refusal(match, {"do": "extra"}) == "C-T2"
    assert "extra" not in [e.do for e in match.legal()]


# ------------------------------------------------------------------ C-T3, C-Z4: the forced card

def test_c_t3_c_z4_a_forced_card_on_an_illegal_cell_stays_pending():
    match = position(HANDS, board=CENTRE, deck_top=["MAN02", "ARD01"])
    match.play({"do": "extra"}, ANA)
    assert refusal(match, {"do": "place", "at": [0, 0]}) == "C-P1"
    assert refusal(match, {"do": "place", "at": [1, 1]}) == "C-P4"
    assert match.state.forced == "ARD01"
    assert refusal(match, {"do": "end_turn"}) == "C-T5"                # no dodging it
    legal = {e.do: e.options for e in match.legal(ANA)}
    assert legal["place"] == {"card": "ARD01", "cells": [[0, -1], [-1, 0], [1, 0], [0, 1]]}


# ------------------------------------------------------------------ C-T4, C-T5, C-Z2, C-Z3

def test_c_t4_the_turn_passes_to_the_left_and_from_the_last_seat_to_the_first():
    match = position(HANDS, board=CENTRE, seat=3)
    match.play({"do": "end_turn"}, CARLA)
    assert (match.state.seat, match.state.turn) == (1, 2)


def test_c_t5_c_z2_only_the_active_player_at_the_step_awaited():
    match = position(HANDS, board=CENTRE)
    play = {"do": "play", "card": "FAC01", "at": [1, 0]}
    assert refusal(match, play, BEA) == "C-T5"
    assert refusal(match, play, Role.table()) == "C-T5"
    assert refusal(match, play, Role.watcher()) == "C-T5"
    assert refusal(match, {**play, "player": 2}) == "C-T5"
    assert refusal(match, {"do": "play", "card": "FAC02", "at": [1, 0]}) == "C-T5"  # Bea's
    assert refusal(match, {"do": "play", "card": "ARD04", "at": [1, 0]}) == "C-T5"  # nobody's
    assert refusal(match, {"do": "play", "card": "ZZZ", "at": [1, 0]}) == "C-T5"
    match.play({**play, "player": 1}, ANA)
    match.play({"do": "play", "card": "STU01", "at": [-1, 0]}, GM)     # the teacher, for Ana


def test_c_z3_a_second_action_or_a_step_not_awaited():
    match = position(HANDS, board=CENTRE)
    assert refusal(match, {"do": "keep", "card": "FAC01"}) == "C-T5"
    assert refusal(match, {"do": "place", "at": [1, 0]}) == "C-T5"
    match.play({"do": "play", "card": "FAC01", "at": [1, 0]})
    assert refusal(match, {"do": "communicate", "card": "MAN01"}) == "C-T5"
    assert refusal(match, {"do": "extra"}) == "C-T5"
    assert [e.do for e in match.legal(ANA)] == ["play", "end_turn"]


# ------------------------------------------------------------------ talking (C-H)

def test_c_h1_c_h3_no_action_shows_a_hand_or_chats():
    match = position(HANDS, board=CENTRE)
    for do in ("reveal", "show", "chat", "say", "give"):
        assert refusal(match, {"do": do}) == "format"


def test_c_h2_penalty_the_whole_hand_face_up_and_as_many_drawn():
    match = position(HANDS, board=CENTRE, deck_top=["ARD01", "ARD02", "ARD03", "ARD04", "LIB01"])
    match.play({"do": "penalty", "player": 1}, Role.table())
    state = match.state
    assert state.discard[-4:] == HANDS[0]
    assert state.hand(1) == ["ARD01", "ARD02", "ARD03", "ARD04"]
    assert (state.seat, state.step) == (1, "action")       # C-Z6: not the turn's action
    match.play({"do": "penalty", "player": 3}, GM)
    assert match.state.hand(3) == ["LIB01"] and match.state.discard[-1] == "STU02"


def test_c_h2_who_may_send_it_and_when():
    match = position(HANDS, board=CENTRE, step="keep", drawn=["FAC03", "T24"])
    assert refusal(match, {"do": "penalty", "player": 1}, Role.table()) == "C-H2"
    assert refusal(match, {"do": "penalty", "player": 2}, BEA) == "C-T5"
    assert refusal(match, {"do": "penalty", "player": 2}, Role.watcher()) == "C-T5"
    assert refusal(match, {"do": "penalty", "player": 5}, Role.table()) == "C-T5"
    assert refusal(match, {"do": "penalty"}, Role.table()) == "format"
    match.play({"do": "penalty", "player": 2}, Role.table())
    legal = {e.do: e for e in match.legal(Role.table())}
    assert legal["penalty"].options == {"players": [2, 3]}
    fresh = new_table(3)
    assert refusal(fresh, {"do": "penalty", "player": 1}, Role.table()) == "C-T5"


def test_c_h2_no_penalty_for_an_empty_hand():
    """A player with no card in hand has no hand to discard: the penalty is neither offered
    (the table's screen follows legal) nor accepted."""
    match = position([["FAC01", "STU01"], [], ["STU02"]], board=CENTRE)
    legal = {e.do: e for e in match.legal(Role.table())}
    assert legal["penalty"].options == {"players": [1, 3]}
    assert refusal(match, {"do": "penalty", "player": 2}, Role.table()) == "C-H2"
    assert refusal(match, {"do": "penalty", "player": 2}, GM) == "C-H2"


def test_c_h2_c_z6_fewer_cards_when_the_deck_runs_out_and_that_turn_is_the_last():
    match = position(HANDS, board=CENTRE, deck=["ARD01", "ARD02"])
    match.play({"do": "penalty", "player": 1}, Role.table())
    assert match.state.hand(1) == ["ARD01", "ARD02"] and match.state.deck == []
    assert not match.over
    match.play({"do": "end_turn"}, ANA)
    assert match.over and not match.state.ended_early                   # C-E1


# ------------------------------------------------------------------ the end (C-E)

def test_c_e1_the_game_ends_when_the_turn_that_drew_the_last_card_ends():
    match = position(HANDS, board=CENTRE, seat=3, deck=["FAC03", "FAC04"])
    match.play({"do": "end_turn"}, CARLA)
    assert match.state.drawn == ["FAC03", "FAC04"] and not match.over    # Ana plays her turn
    match.play({"do": "keep", "card": "FAC04"}, ANA)
    match.play({"do": "play", "card": "FAC04", "at": [1, 0]}, ANA)
    match.play({"do": "end_turn"}, ANA)
    assert match.over and match.view(Role.watcher())["result"]["tier"] == "do_better"


def test_c_e2_one_card_left_at_the_draw_is_kept_and_that_turn_is_the_last():
    match = position(HANDS, board=CENTRE, deck=["FAC03"])
    match.play({"do": "end_turn"}, ANA)
    assert match.state.hand(2) == ["FAC02", "FAC03"] and match.state.step == "action"
    match.play({"do": "communicate", "card": "FAC02"}, BEA)
    assert match.over


def test_c_e3_the_teacher_ends_the_game_early_and_then_only_undo_and_redo():
    match = position(HANDS, board=CENTRE)
    assert refusal(match, {"do": "end_game"}, ANA) == "C-T5"
    assert refusal(match, {"do": "end_game"}, Role.table()) == "C-T5"
    match.play({"do": "end_game"})
    assert match.over and match.state.ended_early
    for action in ({"do": "end_turn"}, {"do": "end_game"}, {"do": "penalty", "player": 1},
                   {"do": "play", "card": "FAC01", "at": [1, 0]}):
        assert refusal(match, action) == "C-E3"
    assert refusal(match, {"do": "end_turn"}, ANA) == "C-E3"           # C-R4: before C-T5
    assert [e.do for e in match.legal()] == ["undo"]
    match.play({"do": "undo"})
    assert not match.over


@pytest.mark.parametrize("setup", [
    {"step": "keep", "drawn": ["FAC03", "T24"]},
    {"step": "place", "forced": "ARD01", "forced_from": "extra"},
])
def test_c_z7_cards_pending_at_the_end_go_to_the_discard_pile(setup):
    match = position(HANDS, board=CENTRE, **setup)
    pending = match.state.pending()
    match.play({"do": "end_game"})
    assert match.state.discard[-len(pending):] == pending and match.state.pending() == []
    assert cards_everywhere(match) == sorted(DEFAULT.ids)


# ------------------------------------------------------------------ undo and redo (C-Z8)

def test_c_z8_undo_and_redo_one_action_at_a_time_back_to_the_deal():
    match = new_table(3)
    states = [match.state.to_dict()]
    for action in ({"do": "first_task", "player": 1, "card": "T11"},
                   {"do": "keep", "card": "T22"},
                   {"do": "play", "card": "ARD04", "at": [1, 0]}, {"do": "end_turn"}):
        match.play(action)
        states.append(match.state.to_dict())
    for back in range(4):
        match.play({"do": "undo"})
        assert match.state.to_dict() == states[-2 - back]
    assert refusal(match, {"do": "undo"}) == "C-R3"                    # the deal stays
    for forward in range(1, 5):
        match.play({"do": "redo"})
        assert match.state.to_dict() == states[forward]
    assert refusal(match, {"do": "redo"}) == "C-R3"
    match.play({"do": "undo"})
    match.play({"do": "end_turn"})                                    # a new action...
    assert not match.can_redo and refusal(match, {"do": "redo"}) == "C-R3"   # ...drops the redo
    assert refusal(match, {"do": "undo"}, ANA) == "C-T5"
    assert refusal(match, {"do": "undo"}, Role.table()) == "C-T5"
    assert match.seq == 14 and match.log[4] == {"do": "undo"}


# ------------------------------------------------------------------ solo (C-O2, C-O3)

def test_c_o2_solo_the_top_card_is_played_at_once_after_the_action():
    match = position([["FAC01", "MAN01"]], board=CENTRE, deck_top=["ARD01", "T24", "FAC03"])
    match.play({"do": "end_turn"})
    assert (match.state.step, match.state.forced) == ("place", "ARD01")
    match.play({"do": "place", "at": [1, 0]}, ANA)
    state = match.state
    assert (state.turn, state.seat, state.step, state.drawn) == (2, 1, "keep", ["T24", "FAC03"])


def test_c_o2_solo_a_top_card_that_cannot_be_played_is_discarded():
    match = position([["FAC01"]], board=CENTRE, deck_top=["MAN02", "T24", "FAC03"])
    match.play({"do": "end_turn"})
    assert match.state.discard[-1] == "MAN02" and match.state.drawn == ["T24", "FAC03"]


def test_c_o2_solo_after_extra_its_forced_card_then_the_last_draw():
    match = position([["FAC01"]], board=CENTRE, deck_top=["MAN02", "ARD01", "STU03", "T24",
                                                         "FAC03"])
    match.play({"do": "extra"})
    match.play({"do": "place", "at": [1, 0]})                         # ARD01
    assert (match.state.step, match.state.forced) == ("place", "STU03")
    match.play({"do": "place", "at": [-1, 0]})
    assert match.state.drawn == ["T24", "FAC03"]


def test_c_o2_solo_has_no_communicate():
    match = position([["FAC01"]], board=CENTRE)
    assert refusal(match, {"do": "communicate", "card": "FAC01"}) == "C-O2"
    assert "communicate" not in [e.do for e in match.legal()]
    assert "communicate" not in match.view(GM)["awaiting"]["do"]


def test_c_o3_solo_a_step_with_nothing_to_draw_is_skipped_and_the_game_ends():
    match = position([["FAC01"]], board=CENTRE, deck=[])
    match.play({"do": "end_turn"})
    assert match.over and match.state.forced is None
