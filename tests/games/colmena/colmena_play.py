"""Helpers for the colmena tests: tables from a seed, concrete actions from the legal list,
random games played from it, and the cards a view may not show."""
from __future__ import annotations

import json
import random

from facilitator.games.colmena import KIND
from facilitator.games.protocol import Role

GM = Role.gm()


def new_table(players: int = 3, seed: int = 48151, deck=None):
    """A fresh table of ``players`` named seats."""
    names = ["Ana", "Bea", "Carla", "Dani"][:players]
    return KIND.new({"players": names}, seed=seed, deck=deck)


def concrete_actions(entry) -> list[dict]:
    """Every concrete action one legal entry offers (its options expanded)."""
    do, options = entry.do, entry.options
    if do == "first_task":
        found = [{"do": do, "player": p} for p in options["players"]]
        for seat, cards in options.get("cards", {}).items():
            if options.get("starter") in (None, int(seat)):
                found += [{"do": do, "player": int(seat), "card": c} for c in cards]
        return found
    if do == "keep":
        return [{"do": do, "card": c} for c in options["cards"]]
    if do == "play":
        return [{"do": do, "card": c, "at": cell}
                for c, cells in options["cards"].items() for cell in cells]
    if do == "communicate":
        found = [{"do": do, "card": c} for c in options["cards"]]
        icons = options["ask"]["team"]
        found += [{"do": do, "card": options["cards"][0], "ask": {"team": icons[0]}},
                  {"do": do, "card": options["cards"][-1], "ask": {"task": icons[-1]}},
                  {"do": do, "card": options["cards"][0], "ask": "¿Alguien tiene Alumnado?"}]
        return found
    if do == "place":
        return [{"do": do, "at": cell} for cell in options["cells"]]
    if do == "penalty":
        return [{"do": do, "player": p} for p in options["players"]]
    return [{"do": do}]


def sender(entry, rng: random.Random) -> Role:
    """Someone allowed to send ``entry``: its seat, the table screen or the teacher."""
    choices = [GM] + [Role.of_seat(s) for s in entry.seats]
    if entry.table:
        choices.append(Role.table())
    return rng.choice(choices)


WEIGHTS = {"undo": 0.3, "redo": 0.3, "end_game": 0.05, "penalty": 0.3, "communicate": 0.7,
           "extra": 1.0, "end_turn": 1.0, "play": 4.0}


def random_step(match, rng: random.Random, *, history: bool = True):
    """Play one random legal action; return (action, role)."""
    entries = [e for e in match.legal(None)
               if history or e.do not in ("undo", "redo", "end_game")]
    weights = [WEIGHTS.get(e.do, 1.0) for e in entries]
    entry = rng.choices(entries, weights)[0]
    action = rng.choice(concrete_actions(entry))
    by = sender(entry, rng)
    if entry.do == "first_task" and by.kind == "seat":
        if "card" not in action or action["player"] != by.seat:
            by = GM if "card" in action else Role.table()
    match.play(action, by)
    return action, by


def play_random_game(players: int, seed: int, rng_seed: int = 0, limit: int = 400):
    """A whole random game (no undo), played from the legal list."""
    match = new_table(players, seed)
    rng = random.Random(rng_seed)
    for _ in range(limit):
        if match.over:
            break
        random_step(match, rng, history=False)
    return match


def hidden_from(match, audience: Role) -> list[str]:
    """Card ids ``audience`` may not see: other seats' hands and the two being chosen from."""
    state = match.state
    hidden = []
    for seat, hand in enumerate(state.hands, start=1):
        if audience.kind != "seat" or audience.seat != seat:
            hidden += hand
    if state.drawn and not (audience.kind == "seat" and audience.seat == state.seat):
        hidden += state.drawn
    return hidden


def leaks(match, audience: Role) -> list[str]:
    """The hidden card ids that ``audience``'s view shows anyway (serialised as JSON)."""
    text = json.dumps(match.view(audience), ensure_ascii=False)
    return [card for card in hidden_from(match, audience) if f'"{card}"' in text]


def position(hands, *, board=None, deck=None, deck_top=(), discard=(), seat=1,
             step="action", drawn=(), forced=None, forced_from=None, turn=1):
    """A table in the middle of a game, set by hand: a unit test's starting position.

    ``board`` maps cells to card ids in the order placed. The central deck is ``deck``
    if given (the cards left over then go to the discard pile), else ``deck_top`` and
    then every card left over in file order. Its record does not replay (the deal is
    not a seed's): for the rules, not for records.
    """
    from facilitator.games.colmena.deck import DEFAULT
    from facilitator.games.colmena.state import State
    match = new_table(len(hands))
    board = dict(board or {})
    placed = [c for hand in hands for c in hand] + list(board.values()) + list(drawn) \
        + ([forced] if forced else []) + list(discard)
    if deck is None:
        deck = list(deck_top) + [c for c in DEFAULT.ids if c not in placed and c not in deck_top]
        discard = list(discard)
    else:
        discard = list(discard) + [c for c in DEFAULT.ids if c not in placed and c not in deck]
    state = State(players=match.players, deck=list(deck), hands=[list(h) for h in hands],
                  discard=discard, board=board, step=step, seat=seat, turn=turn,
                  starter=seat, drawn=list(drawn), forced=forced, forced_from=forced_from)
    assert sorted(state.deck + state.discard + list(state.board.values()) + state.pending()
                  + [c for h in state.hands for c in h]) == sorted(DEFAULT.ids)
    match._initial = state
    match.state = state.clone()
    return match
