"""The set-up: the seeded shuffle and the deal, redealt until a hand holds a task.

The deck in file order is shuffled with ``random.Random(seed).shuffle``, its
first element on top (C-R2). Each seat in turn draws its whole hand from the
top, seat 1 first (C-S3; solo: 6 cards, C-O1). If no hand holds a task, the
hands go back under the deck in seat order, each in the order drawn, and the
same generator shuffles the 72 again, until one does (C-S4, C-O1). Nothing
after the deal is random: every later draw takes the top card.

>>> from .deck import DEFAULT
>>> state = deal(DEFAULT, ("Ana", "Bea", "Carla"), 48151)
>>> [len(hand) for hand in state.hands], len(state.deck)
([4, 4, 4], 60)
"""
from __future__ import annotations

import random

from .deck import Deck
from .state import State

#: Cards in each starting hand by the number of players (C-S3, C-O1).
HAND_SIZES = {1: 6, 2: 6, 3: 4, 4: 3}
MIN_PLAYERS, MAX_PLAYERS = 1, 4


def hand_size(players: int) -> int:
    """How many cards each player draws at the start (C-S3; solo C-O1)."""
    return HAND_SIZES[players]


def deal(deck: Deck, players: tuple[str, ...], seed: int) -> State:
    """The state before any action: shuffled, dealt and, if need be, redealt."""
    rng = random.Random(seed)
    order = deck.ids
    rng.shuffle(order)
    size = hand_size(len(players))
    deals = 1
    while True:
        hands = []
        for _ in players:
            hands.append(order[:size])
            del order[:size]
        if any(deck.card(card).is_task for hand in hands for card in hand):
            return State(players=tuple(players), deck=order, hands=hands, deals=deals)
        for hand in hands:
            order.extend(hand)
        rng.shuffle(order)
        deals += 1
