"""A view per audience (section 10), like boardgame.io's ``playerView``.

``public_view`` is what the table screen and the projector show (C-V2): the
board, the discard pile, the deck count, whose turn and what is awaited, hand
sizes, the score so far and, at the end, the result; never a card in a hand,
nor the two a player is choosing from. ``seat_view`` adds a player's own hand,
the two drawn while choosing, and every card that player may play now with
its legal cells, so a phone lights them with no rule of its own (C-V1).
``gm_view`` adds everything: every hand, the deck in order, each event in
full (C-V3); the others have the events of this turn and the one before, a
card going into a hand counted, not named. The forced card is drawn to be
played at once, in front of everyone: every view shows it.

Every view names the step awaited in words-neutral keys (``"awaiting":
{"step": "keep", "seat": 2, "do": ["keep"]}``) and carries each card's data
(``card_data``), so screens translate and draw without knowing a rule. Views
are plain JSON data, built afresh for each call but for the card data, which
they share: a caller reads them and never changes them.
"""
from __future__ import annotations

from functools import lru_cache

from ..protocol import GM, SEAT, TABLE, Legal, Role
from .deck import Deck, icon_name
from .events import TurnBegan
from .legal import legal_for, task_holders
from .rules import awaited
from .scoring import message_of, score
from .state import ACTION, FIRST_TASK, KEEP, MANAGE, OVER, State


@lru_cache(maxsize=1024)
def card_data(deck: Deck, card_id: str) -> dict:
    """What a screen shows of a card: id, kind, names, icons with their names, and a team
    card's printed count (×N). Shared by every view that shows the card: read, never change.

    >>> from .deck import DEFAULT
    >>> card_data(DEFAULT, "ARD01")["count"], card_data(DEFAULT, "ARD01")["name"]["es"]
    (4, 'I+D académica')
    """
    card = deck.card(card_id)
    data = {"id": card.id, "kind": card.kind, "name": {"es": card.name_es, "en": card.name},
            "icons": [{"key": icon, "name": icon_name(icon)} for icon in card.icons]}
    if not card.is_task:
        data["count"] = card.count
        data["times"] = f"×{card.count}"
    return data


def _ask_text(deck: Deck, ask) -> dict | None:
    """A question of ``communicate`` in the screens' languages (C-T2.2)."""
    if ask is None:
        return None
    if isinstance(ask, str):
        return {"es": ask, "es-ES": ask, "en": ask}
    (kind, icon), = ask.items()
    team = deck.team(icon)
    if kind == "team":
        return {"es": f"¿Tienen {team.name_es}?", "es-ES": f"¿Tenéis {team.name_es}?",
                "en": f"Do you have {team.name}?"}
    return {"es": f"¿Tienen alguna tarea que necesite de {team.name_es}?",
            "es-ES": f"¿Tenéis alguna tarea que necesite de {team.name_es}?",
            "en": f"Any task that requires {team.name}?"}


def awaiting(state: State, deck: Deck, entries: list[Legal]) -> dict:
    """The step the table awaits, who must act, and the actions that would be accepted."""
    if state.over:
        return {"step": OVER, "seat": None, "do": []}
    if state.step == FIRST_TASK:
        return {"step": FIRST_TASK, "seat": state.starter, "do": ["first_task"],
                "players": list(task_holders(state, deck))}
    names = awaited(state)
    return {"step": state.step, "seat": state.seat,
            "do": [entry.do for entry in entries if entry.do in names]}


def _playable(state: State, entries: list[Legal], seat: int) -> dict[str, list]:
    """The cards ``seat`` may play now with their legal cells, read off the legal list:
    hand cards while managing resources, the forced card, tasks for the first one."""
    for entry in entries:
        if seat not in entry.seats:
            continue
        if entry.do == "first_task":
            return {card: [[0, 0]] for card in entry.options["cards"].get(str(seat), [])}
        if entry.do == "play":
            return entry.options["cards"]
        if entry.do == "place":
            return {entry.options["card"]: entry.options["cells"]}
    return {}


def _blocked(state: State, deck: Deck, seat: int | None, playable: dict) -> list[dict]:
    """The hand cards that can go nowhere now, with why as words-neutral data (only while
    cards may be played): the rule, a reason key the screens write in their language
    (``task_no_team``: no free cell touches only team cards this task shows;
    ``team_no_task``: no task showing this team's icon has a free side for it) and the
    icons it names with their names: a task's ``icons``, a team card's ``icon``."""
    if state.over or seat is None or seat != state.seat or state.step not in (ACTION, MANAGE):
        return []
    found = []
    for card_id in state.hand(seat):
        if card_id in playable:
            continue
        card = deck.card(card_id)
        if card.is_task:
            found.append({"card": card_id, "rule": "C-T3", "reason": "task_no_team",
                          "icons": [{"key": icon, "name": icon_name(icon)} for icon in card.icons]})
        else:
            found.append({"card": card_id, "rule": "C-T3", "reason": "team_no_task",
                          "icon": {"key": card.icon, "name": icon_name(card.icon)}})
    return found


def recent(state: State) -> list[dict]:
    """The public events of this turn and the one before: what a screen shows happened."""
    begun = 0
    for index in range(len(state.history) - 1, -1, -1):
        if isinstance(state.history[index], TurnBegan):
            begun += 1
            if begun == 2:
                return [event.public() for event in state.history[index:]]
    return [event.public() for event in state.history]


def public_view(state: State, deck: Deck, *, seq: int, entries: list[Legal]) -> dict:
    """What every screen may see (C-V2). ``entries``: the table's legal list (the GM's)."""
    scored = score(state, deck)
    question = None
    # The question shows while the group answers it, the next turn, and then goes (C-V2).
    if state.question is not None and state.turn <= state.question["turn"] + 1:
        question = {**state.question, "text": _ask_text(deck, state.question["ask"])}
    result = None
    if state.over:
        result = {"total": scored["total"], "tier": scored["tier"],
                  "message": message_of(scored["tier"])}
    return {
        "game": "colmena", "seq": seq, "solo": state.solo,
        "players": [{"seat": seat, "name": name, "hand": len(state.hand(seat))}
                    for seat, name in enumerate(state.players, start=1)],
        "turn": state.turn, "seat": state.seat,
        "awaiting": awaiting(state, deck, entries),
        "board": [{"at": [x, y], "card": card_data(deck, card_id)}
                  for (x, y), card_id in state.board.items()],
        "discard": [card_data(deck, card_id) for card_id in state.discard],
        "deck": len(state.deck),
        "drawn": len(state.drawn),
        "forced": card_data(deck, state.forced) if state.forced else None,
        "last_turn": not state.deck and not state.over and state.step != FIRST_TASK,
        "question": question,
        "recent": recent(state),
        "score": scored,
        "over": state.over, "ended_early": state.ended_early,
        "result": result,
    }


def _entries(entries: list[Legal], by: Role) -> list[dict]:
    return [entry.to_dict() for entry in legal_for(entries, by)]


def table_view(state: State, deck: Deck, *, seq: int, entries: list[Legal],
               audience: Role, public: dict | None = None) -> dict:
    """The table screen's or the projector's view: the public view with what it may send.
    ``public``: the public view at this seq, if made already (every view starts from it)."""
    view = dict(public) if public is not None else public_view(state, deck, seq=seq,
                                                               entries=entries)
    view["legal"] = _entries(entries, audience) if audience.kind == TABLE else []
    return view


def seat_view(state: State, deck: Deck, seat: int, *, seq: int, entries: list[Legal],
              public: dict | None = None) -> dict:
    """Player ``seat``'s phone (C-V1): the public view, its own hand and choices, and each
    card it may play now with its legal cells."""
    view = dict(public) if public is not None else public_view(state, deck, seq=seq,
                                                               entries=entries)
    cards = _playable(state, entries, seat)
    choosing = state.drawn if seat == state.seat and state.step == KEEP else []
    view.update({
        "me": seat,
        "hand": [card_data(deck, card_id) for card_id in state.hand(seat)],
        "choosing": [card_data(deck, card_id) for card_id in choosing],
        "playable": [{"card": card_id, "cells": cells} for card_id, cells in cards.items()],
        "blocked": _blocked(state, deck, seat, cards),
        "legal": _entries(entries, Role.of_seat(seat)),
    })
    return view


def gm_view(state: State, deck: Deck, *, seq: int, entries: list[Legal], seed: int,
            public: dict | None = None) -> dict:
    """Everything, for the teacher's console (C-V3): every hand, the deck in order, the two
    being chosen from, every event in full, and what each seat may play."""
    view = dict(public) if public is not None else public_view(state, deck, seq=seq,
                                                               entries=entries)
    seats = range(1, len(state.players) + 1)
    view.update({
        "hands": {str(seat): [card_data(deck, c) for c in state.hand(seat)] for seat in seats},
        "deck_order": list(state.deck),
        "choosing": [card_data(deck, card_id) for card_id in state.drawn],
        "playable": {str(seat): [{"card": card_id, "cells": cells}
                                 for card_id, cells in _playable(state, entries, seat).items()]
                     for seat in seats},
        "blocked": _blocked(state, deck, state.seat, _playable(state, entries, state.seat)),
        "history": [event.to_dict() for event in state.history],
        "seed": seed, "deals": state.deals,
        "legal": _entries(entries, Role.gm()),
    })
    return view


def view_for(state: State, deck: Deck, audience: Role, *, seq: int, entries: list[Legal],
             seed: int, public: dict | None = None) -> dict:
    """The view of ``audience``: a seat's phone, the teacher, the table screen or a watcher.
    ``public``: the public view at this seq, if made already (the views of one seq share
    it: its values are read, never changed)."""
    if audience.kind == GM:
        return gm_view(state, deck, seq=seq, entries=entries, seed=seed, public=public)
    if audience.kind == SEAT:
        if not state.is_seat(audience.seat):
            raise ValueError(f"no seat {audience.seat} at this table")
        return seat_view(state, deck, audience.seat, seq=seq, entries=entries, public=public)
    return table_view(state, deck, seq=seq, entries=entries, audience=audience, public=public)
