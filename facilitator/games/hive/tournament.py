"""Pairings of a class tournament of Hive (rule book: docs/hive.md, "The class tournament").

Pure and seeded: the same players, results and seed give the same rounds. Players are
numbers (their index in the hall's list); a board is ``{"white": i, "black": j}`` where
the bot's side is ``None`` (H-T3). Two systems (H-T1):

- ``round_robin_schedule(count, seed)``: everyone meets everyone once, by the circle
  method (one player fixed, the others turning round it), an odd count completed with a
  *phantom* (the bye or the bot);
- ``swiss_round(count, history, points, seed)``: one round of Swiss pairing, the players
  sorted by points and paired top down within what the earlier rounds allow.

Both keep the rules of H-T2: no pair meets twice, and after every round each player's
whites minus blacks is -1, 0 or 1 (a player who is +1 takes Black next, -1 White).
"""
from __future__ import annotations

import random

#: The phantom of an odd count in a round robin: the bye or the bot.
PHANTOM = -1
#: The most players a round robin is scheduled for: its colours are found by a search
#: that grows as 2 ** (count / 2) a round (H-T1 plays one up to 12).
MAX_ROUND_ROBIN = 16
#: How many pairings a Swiss round tries before it gives up (H-T2: none left).
SEARCH_BUDGET = 200_000


class NoPairing(ValueError):
    """No round can be paired within H-T2 (every allowed opponent already met)."""


def colour_balance(rounds: list[list[dict]], count: int) -> list[int]:
    """Each player's whites minus blacks over ``rounds`` (the bot's side not counted)."""
    diff = [0] * count
    for boards in rounds:
        for board in boards:
            if board["white"] is not None:
                diff[board["white"]] += 1
            if board["black"] is not None:
                diff[board["black"]] -= 1
    return diff


def _circle(count: int) -> list[list[tuple[int, int]]]:
    # Positions 0..n-2 turn round position n-1, which stays put: in round r the fixed
    # position meets r, and r+i meets r-i; every pair meets once in n-1 rounds.
    n = count + count % 2
    m = n - 1
    return [[(r, m)] + [((r + i) % m, (r - i) % m) for i in range(1, n // 2)]
            for r in range(m)]


def _oriented(rounds: list[list[tuple[int, int]]], free: int | None,
              size: int) -> list[list[tuple[int, int]]] | None:
    """Each round's pairs with White first, so that every player but ``free`` (the bot:
    its colours do not count; a bye's pair is dropped) stays within one (H-T2); found
    by a search over the rounds (a round of k free pairs has 2**k orientations)."""
    out: list[list[tuple[int, int]]] = []
    diff = [0] * size

    def place(r: int) -> bool:
        if r == len(rounds):
            return True
        pairs = rounds[r]
        options: list[list[tuple[int, int]]] = [[]]
        for a, b in pairs:
            grown = []
            for white, black in ((a, b), (b, a)):
                if (white != free and diff[white] > 0) or (black != free and diff[black] < 0):
                    continue
                grown.extend(chosen + [(white, black)] for chosen in options)
            options = grown
            if not options:
                return False
        for chosen in options:
            for white, black in chosen:
                diff[white] += 1
                diff[black] -= 1
            out.append(chosen)
            if place(r + 1):
                return True
            out.pop()
            for white, black in chosen:
                diff[white] -= 1
                diff[black] += 1
        return False

    return out if place(0) else None


def round_robin_schedule(count: int, seed: int, odd: str = "bye") -> list[list[dict]]:
    """Every round of a round robin of ``count`` players (``count - 1`` rounds, or
    ``count`` for an odd count): boards ``{"white", "black"}`` in board order and, for
    an odd count, ``{"bye": player}`` (``odd`` "bye") or a board against the bot
    (``odd`` "bot": the bot's side None). The players take the circle's positions in an
    order drawn from ``seed``."""
    if not 2 <= count <= MAX_ROUND_ROBIN:
        raise NoPairing(f"a round robin is for 2 to {MAX_ROUND_ROBIN} players")
    n = count + count % 2
    phantom = n - 1 if count % 2 else None
    rounds = _circle(count)
    if phantom is not None and odd == "bye":
        playing = [[p for p in pairs if phantom not in p] for pairs in rounds]
        oriented = _oriented(playing, None, n)
    else:
        oriented = _oriented(rounds, phantom, n)
    if oriented is None:     # pragma: no cover - the search finds one for every count tested
        raise NoPairing("no colour order keeps every player within one")
    order = list(range(count))
    random.Random(seed).shuffle(order)
    schedule = []
    for r, pairs in enumerate(oriented):
        boards = []
        for white, black in pairs:
            boards.append({"white": None if white == phantom else order[white],
                           "black": None if black == phantom else order[black]})
        # A board against the bot last, so the boards of two students come first.
        boards.sort(key=lambda b: b["white"] is None or b["black"] is None)
        if phantom is not None and odd == "bye":
            boards.append({"bye": order[rounds[r][0][0]]})
        schedule.append(boards)
    return schedule


def _met(history: list[list[dict]]) -> set[frozenset]:
    met = set()
    for boards in history:
        for board in boards:
            if "bye" not in board:
                met.add(frozenset((board["white"], board["black"])))
    return met


def _last_colour(history: list[list[dict]], count: int) -> list[int]:
    last = [0] * count      # +1 White last, -1 Black last, 0 never played
    for boards in history:
        for board in boards:
            if board.get("white") is not None:
                last[board["white"]] = 1
            if board.get("black") is not None:
                last[board["black"]] = -1
    return last


def _colours(a: int, b: int, diff: list[int], last: list[int]) -> tuple[int, int]:
    """(white, black) of a pair: the one further behind in whites takes White; level,
    the one who had Black last; still level, the higher placed (``a``)."""
    if diff[a] != diff[b]:
        return (a, b) if diff[a] < diff[b] else (b, a)
    if last[a] != last[b]:
        return (a, b) if last[a] < last[b] else (b, a)
    return a, b


def _balanced(players: list[int], diff: list[int]) -> bool:
    """Whether ``players`` could be paired colour-wise: a player one White ahead meets one
    a White behind or one level, so the level ones must make up the difference."""
    ahead = sum(1 for p in players if diff[p] > 0)
    behind = sum(1 for p in players if diff[p] < 0)
    return abs(ahead - behind) <= len(players) - ahead - behind


def swiss_round(count: int, history: list[list[dict]], points: list[float], seed: int,
                odd: str = "bye") -> list[dict]:
    """The next round of a Swiss tournament: boards best placed first, then the bye
    (``{"bye": player}``) or the board against the bot. ``points``: each player's points
    so far; ``history``: the rounds played (as this module writes them). NoPairing when
    no pairing keeps H-T2."""
    met = _met(history)
    diff = colour_balance([[b for b in boards if "bye" not in b] for boards in history], count)
    last = _last_colour(history, count)
    byes = {b["bye"] for boards in history for b in boards if "bye" in b}
    bot_met = {b["white"] if b["black"] is None else b["black"]
               for boards in history for b in boards
               if "bye" not in b and None in (b["white"], b["black"])}
    draw = random.Random(f"{seed}:{len(history)}")
    lots = [draw.random() for _ in range(count)]
    ranked = sorted(range(count), key=lambda p: (-points[p], lots[p]))
    budget = [SEARCH_BUDGET]

    def pair(rest: list[int]) -> list[tuple[int, int]] | None:
        if not rest:
            return []
        budget[0] -= 1
        if budget[0] < 0 or not _balanced(rest, diff):
            return None
        first, others = rest[0], rest[1:]
        for n, other in enumerate(others):
            if frozenset((first, other)) in met or (diff[first] == diff[other] != 0):
                continue
            found = pair(others[:n] + others[n + 1:])
            if found is not None:
                return [(first, other)] + found
        return None

    # An odd count: the lowest placed who has not yet had the bye (or played the bot)
    # sits out against it, if the others can still be paired.
    candidates = list(reversed(ranked)) if count % 2 else [None]
    for out in candidates:
        if out is not None and out in (byes if odd == "bye" else bot_met):
            continue
        found = pair([p for p in ranked if p != out])
        if found is None:
            continue
        boards = [dict(zip(("white", "black"), _colours(a, b, diff, last))) for a, b in found]
        if out is not None:
            if odd == "bye":
                boards.append({"bye": out})
            else:
                white = diff[out] < 0 or (diff[out] == 0 and last[out] <= 0)
                boards.append({"white": out, "black": None} if white
                              else {"white": None, "black": out})
        return boards
    raise NoPairing("every pairing left would repeat a pair or a colour")
