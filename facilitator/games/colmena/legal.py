"""What is legal now: every action the table would accept next, and who may send it.

The teacher may send every entry (acting for the active seat, C-T5); ``seats``
are the players whose own devices may send it; ``table`` says whether the
table's shared screen may. The shared screen answers the library question
(``first_task`` naming the player, C-S5) and applies penalties (C-H2); it
plays no card, since it sees no hand (C-V2). Options are narrowed to what the
asker may see: a player's device sees its own cards only, the table screen
none. The property tests build random games from these lists, so every entry,
with every option it offers, is accepted.
"""
from __future__ import annotations

from ..protocol import GM, SEAT, TABLE, Legal, Role
from .board import legal_cells
from .deck import Deck
from .rules import awaited
from .state import ACTION, FIRST_TASK, KEEP, MANAGE, PLACE, State


def _cells(cells) -> list[list[int]]:
    return [list(cell) for cell in cells]


def playable(state: State, deck: Deck, seat: int) -> dict[str, list[list[int]]]:
    """The cards ``seat`` may play now, each with its legal cells (C-T3): hand cards while
    managing resources, the forced card while it awaits its cell."""
    if state.over or seat != state.seat:
        return {}
    if state.step in (ACTION, MANAGE):
        found = {card: _cells(legal_cells(deck, state.board, card)) for card in state.hand(seat)}
        return {card: cells for card, cells in found.items() if cells}
    if state.step == PLACE:
        return {state.forced: _cells(legal_cells(deck, state.board, state.forced))}
    return {}


def task_holders(state: State, deck: Deck) -> dict[int, list[str]]:
    """Each seat holding a task, with its tasks (C-S5)."""
    found = {}
    for seat, hand in enumerate(state.hands, start=1):
        tasks = [card for card in hand if deck.card(card).is_task]
        if tasks:
            found[seat] = tasks
    return found


def legal_entries(state: State, deck: Deck, *, can_undo: bool = False,
                  can_redo: bool = False) -> list[Legal]:
    """Every action the table accepts now, with everyone who may send it (the GM's list)."""
    found: list[Legal] = []
    if not state.over:
        if state.step == FIRST_TASK:
            holders = task_holders(state, deck)
            seats = (state.starter,) if state.starter is not None else tuple(holders)
            found.append(Legal("first_task", seats, {
                "players": list(holders), "starter": state.starter,
                "cards": {str(seat): tasks for seat, tasks in holders.items()}}, table=True))
        else:
            found.extend(_turn_entries(state, deck))
            pending = state.seat if state.step in (KEEP, PLACE) else None
            # An empty hand has nothing to discard: no penalty is offered for it (C-H2).
            players = [seat for seat in range(1, len(state.players) + 1)
                       if seat != pending and state.hand(seat)]
            if players:
                found.append(Legal("penalty", (), {"players": players}, table=True))
        found.append(Legal("end_game"))
    if can_undo:
        found.append(Legal("undo"))
    if can_redo:
        found.append(Legal("redo"))
    return found


def _turn_entries(state: State, deck: Deck) -> list[Legal]:
    seat, names, found = state.seat, awaited(state), []
    if "keep" in names:
        found.append(Legal("keep", (seat,), {"cards": list(state.drawn)}))
    if "play" in names:
        cards = playable(state, deck, seat)
        if cards:
            found.append(Legal("play", (seat,), {"cards": cards}))
    if "end_turn" in names:
        found.append(Legal("end_turn", (seat,)))
    if "communicate" in names and state.hand(seat):
        icons = sorted(deck.icons)
        found.append(Legal("communicate", (seat,), {
            "cards": list(state.hand(seat)), "ask": {"team": icons, "task": icons}}))
    if "extra" in names and state.deck:
        found.append(Legal("extra", (seat,)))
    if "place" in names:
        found.append(Legal("place", (seat,), {
            "card": state.forced, "cells": playable(state, deck, seat)[state.forced]}))
    return found


def legal_for(entries: list[Legal], by: Role | None) -> list[Legal]:
    """The entries ``by`` may send, their options narrowed to what ``by`` may see."""
    if by is None or by.kind == GM:
        return list(entries)
    found = []
    for entry in entries:
        if not entry.allows(by):
            continue
        if entry.do == "first_task":
            options = dict(entry.options)
            if by.kind == SEAT:
                options["players"] = [by.seat]
                options["cards"] = {str(by.seat): options["cards"].get(str(by.seat), [])}
            elif by.kind == TABLE:
                del options["cards"]
            entry = Legal(entry.do, entry.seats, options, entry.table)
        found.append(entry)
    return found
