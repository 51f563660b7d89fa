"""A class tournament of Hive: the protocol's HallRules (facilitator/games/protocol.py) for
Hive, its rules H-T1 to H-T7 in docs/hive.md ("The class tournament").

The hall's ``plan`` (JSON data only this module reads)::

    {"players": [name, ...], "system": "round_robin" | "swiss", "odd": "bye" | "bot",
     "rounds_total": k, "seed": s, "game": {"turn_limit", "bot_level", "game_type"},
     "rounds": [[board, ...], ...]}

each board ``{"white": player | None, "black": player | None}`` (None: the bot's side)
or ``{"bye": player}``; a round's games are its boards in order, ``"<round>.<place>"``.

What the screens draw (``view``; static/js/games/hive/hall.js and hall_watcher.js)::

    {"teacher": bool, "system", "odd", "round": r, "rounds_total": k,
     "pairings": [{"key", "place", "white": side, "black": side, "over", "result":
                   "white" | "black" | "draw" | None, "reason", "rule", "to_move":
                   "white" | "black" | None, "moves": plies, "last_move": text | None}],
     "bye": {"player", "name"} | None,
     "standings": [{"player", "name", "rank", "points", "wins", "draws", "losses",
                    "byes", "played", "buchholz", "sonneborn_berger"}],
     "shown": [key, ...],
     # the teacher only:
     "earlier": [[pairing, ...] per earlier round], "next_round": {"ok": True} or
                {"ok": False, "rule", "message"},
     # the watcher (projector) only:
     "boards": {key: the game's watcher view (HiveMatch.view(Role.watcher()))}}

where a side is ``{"player": index, "name": name}`` or ``{"bot": True, "name": "Bot"}``.
Points are whole or halves (``1.5``): the screens write them the page's language's way.
"""
from __future__ import annotations

from ..protocol import GM, HallDefaults, Refusal, Role
from .bot import DEFAULT_LEVEL, LEVELS, offered_levels
from .pieces import GAME_TYPES
from .tournament import NoPairing, round_robin_schedule, swiss_round

#: The bot's name in a game's players (data, as a student's name is; H-G7).
BOT_NAME = "Bot"
#: What a bye, a win, a draw and a loss are worth (H-T3, H-T5).
BYE_POINTS, WIN, DRAW, LOSS = 1.0, 1.0, 0.5, 0.0
#: The reason of a game ended at the bell (H-T6).
BELL_REASON = "bell"
#: At most this many boards live on the projector (H-T7).
MAX_SHOWN = 4

BOUNDS = {
    "round_robin_max": {"default": 6, "min": 2, "max": 12,
                        "meaning": "up to this many players play a round robin; more, "
                                   "Swiss rounds (H-T1)"},
    "swiss_rounds": {"default": 5, "min": 1, "max": 9,
                     "meaning": "the Swiss rounds, at most half the players (H-T1)"},
    "odd": {"default": "bye", "options": ["bye", "bot"],
            "meaning": "an odd count: a bye (a win's points) or a game against the bot (H-T3)"},
    "bot_level": {"default": DEFAULT_LEVEL, "options": list(LEVELS),
                  "meaning": "the computer player's strength, weakest first (H-G7)"},
    "turn_limit": {"default": 0, "min": 0, "max": 500,
                   "meaning": "turns per player before a draw (H-G5); 0 = no limit"},
    "game_type": {"default": "Base", "options": list(GAME_TYPES),
                  "meaning": "the pieces of every game (H-S1.4): the base game, with the "
                             "Mosquito, the Ladybug, the Pillbug or several"},
}


def _settings(data: object) -> dict:
    if not isinstance(data, dict):
        raise Refusal("format", "the tournament's settings are an object")
    unknown = sorted(set(data) - set(BOUNDS))
    if unknown:
        raise Refusal("format", f"unknown tournament setting: {unknown[0]}")
    out = {}
    for key, bound in BOUNDS.items():
        value = data.get(key, bound["default"])
        if "options" in bound:
            if value not in bound["options"]:
                raise Refusal("format", f"{key} is one of {', '.join(bound['options'])}")
        elif isinstance(value, bool) or not isinstance(value, int) \
                or not bound["min"] <= value <= bound["max"]:
            raise Refusal("format", f"{key} is a whole number from {bound['min']} to "
                                    f"{bound['max']}")
        out[key] = value
    return out


def _boards(round_boards: list[dict]) -> list[dict]:
    return [b for b in round_boards if "bye" not in b]


def _number(value: float) -> float | int:
    return int(value) if value == int(value) else value


def _side(plan: dict, player: int | None) -> dict:
    if player is None:
        return {"bot": True, "name": BOT_NAME}
    return {"player": player, "name": plan["players"][player]}


def _nameless_side(side: dict | None) -> dict | None:
    """A side (or a standings row) with its student's name replaced by their number in
    the tournament (the screen writes «Jugador n»); the bot's stays."""
    if side is None or "player" not in side:
        return side
    return {**side, "name": None, "number": side["player"] + 1}


def _nameless(view: dict) -> dict:
    """The projector's ``view`` with no student's name: pairings, bye, standings and the
    live boards' players (``view`` is not changed)."""
    return {**view,
            "pairings": [{**p, "white": _nameless_side(p["white"]),
                          "black": _nameless_side(p["black"])} for p in view["pairings"]],
            "bye": _nameless_side(view["bye"]),
            "standings": [_nameless_side(row) for row in view["standings"]],
            "boards": {key: {**board, "players": {}} for key, board in view["boards"].items()}}


class HiveHall(HallDefaults):
    """A Hive tournament of a whole class (see the module's docstring)."""

    place_words = "hivehall.board"
    rounds_named = True
    #: Won, drawn and lost, the byes, and the tie-breaks (H-T5) in the downloads.
    columns = ("wins", "draws", "losses", "byes", "buchholz", "sonneborn_berger")

    def bounds(self) -> dict:
        """The tournament's settings with their defaults and bounds (for the set-up form);
        the level ``engine`` only when the server names another engine (H-G9)."""
        bounds = {key: dict(value) for key, value in BOUNDS.items()}
        bounds["bot_level"]["options"] = offered_levels()
        return bounds

    def plan(self, players: list[str], settings: dict, seed: int) -> dict:
        """A tournament of ``players``, its first round paired (H-T1, H-T2, H-T3)."""
        chosen = _settings(settings)
        count = len(players)
        if count < 2:
            raise Refusal("H-T1", "a tournament needs two players at least")
        system = "round_robin" if count <= chosen["round_robin_max"] else "swiss"
        if system == "round_robin":
            total = count - 1 + count % 2
        else:
            total = min(chosen["swiss_rounds"], max(1, (count - 1) // 2))
        plan = {"players": list(players), "system": system, "odd": chosen["odd"],
                "rounds_total": total, "seed": seed,
                "game": {"turn_limit": chosen["turn_limit"], "bot_level": chosen["bot_level"],
                         "game_type": chosen["game_type"]},
                "rounds": []}
        return self._paired(plan, {})

    def _paired(self, plan: dict, summaries: dict) -> dict:
        count = len(plan["players"])
        played = len(plan["rounds"])
        try:
            if plan["system"] == "round_robin":
                boards = round_robin_schedule(count, plan["seed"], plan["odd"])[played]
            else:
                points = [row["points"] for row in
                          sorted(self._table(plan, summaries), key=lambda r: r["player"])]
                boards = swiss_round(count, plan["rounds"], points, plan["seed"], plan["odd"])
        except NoPairing as none:
            raise Refusal("H-T2", f"no round can be paired without a repeat: {none}") from None
        return {**plan, "rounds": plan["rounds"] + [boards]}

    def round_games(self, plan: dict) -> list[dict]:
        """The latest round's games: each board's players (White's, Black's: the bot's
        side is no player, written as ``bot`` in the game's settings, H-G7)."""
        r = len(plan["rounds"])
        games = []
        for place, board in enumerate(_boards(plan["rounds"][-1]), start=1):
            white, black = board["white"], board["black"]
            names = {colour: _side(plan, who)["name"]
                     for colour, who in (("white", white), ("black", black))}
            bot = 1 if white is None else 2 if black is None else 0
            games.append({"key": f"{r}.{place}", "place": place, "round": r,
                          "name": f"{r}.{place} {names['white']} – {names['black']}",
                          "players": [p for p in (white, black) if p is not None],
                          "seats": {str(p): seat for seat, p in ((1, white), (2, black))
                                    if p is not None},
                          "settings": {**plan["game"], "bot": bot},
                          "content": {"players": names}})
        return games

    def next_round(self, plan: dict, summaries: dict[str, dict]) -> dict:
        """The plan with the next round paired; refused while a game of the round is on
        (H-T4) or once the last round is played (H-T1)."""
        if len(plan["rounds"]) >= plan["rounds_total"]:
            raise Refusal("H-T1", f"the tournament's {plan['rounds_total']} rounds are played")
        waiting = [g["key"] for g in self.round_games(plan)
                   if not (summaries.get(g["key"]) or {}).get("over")]
        if waiting:
            raise Refusal("H-T4", f"game {waiting[0]} of this round is still on")
        return self._paired(plan, summaries)

    def summary(self, match) -> dict:
        """A game's line in the hall: whose turn, plies, the last move, the result and its
        reason, over, the bot's seat, and the watcher's view of its board (H-T7)."""
        result = match.result or {}
        board = match.view(Role.watcher())
        return {"over": match.over, "to_move": board["to_move"], "moves": len(board["moves"]),
                "last_move": board["moves"][-1] if board["moves"] else None,
                "result": result.get("result"), "reason": result.get("reason"),
                "rule": result.get("rule"), "bot": match.settings.get("bot") or None,
                "board": board}

    def _pairing(self, plan: dict, r: int, summaries: dict) -> list[dict]:
        out = []
        for place, board in enumerate(_boards(plan["rounds"][r - 1]), start=1):
            key = f"{r}.{place}"
            summary = summaries.get(key) or {}
            out.append({"key": key, "place": place,
                        "white": _side(plan, board["white"]), "black": _side(plan, board["black"]),
                        **{k: summary.get(k) for k in ("result", "reason", "rule", "to_move",
                                                       "last_move")},
                        "over": bool(summary.get("over")), "moves": summary.get("moves", 0)})
        return out

    def view(self, plan: dict, summaries: dict[str, dict], audience: Role,
             shown: list[str], names: bool = True) -> dict:
        """The teacher's hall view or the projector's (the module's docstring has its
        shape); Hive has no secret, and the boards are the games' watcher views.
        ``names`` False (a class that keeps names off the projector): the projector's
        pairings, bye, standings and boards name no student (``_nameless``)."""
        r = len(plan["rounds"])
        byes = [b["bye"] for b in plan["rounds"][-1] if "bye" in b]
        standings = self.standings(plan, summaries)
        # The projector shows the current round only: boards picked in an earlier round
        # are no longer shown once the next is paired (H-T7).
        shown = [key for key in shown if key.startswith(f"{r}.")]
        out = {"teacher": audience.kind == GM, "system": plan["system"], "odd": plan["odd"],
               "round": r, "rounds_total": plan["rounds_total"],
               "pairings": self._pairing(plan, r, summaries),
               "bye": _side(plan, byes[0]) if byes else None,
               "standings": [{**row, "name": plan["players"][row["player"]]} for row in standings],
               "shown": list(shown)}
        if audience.kind == GM:
            out["earlier"] = [self._pairing(plan, n, summaries) for n in range(1, r)]
            try:
                self.next_round(plan, summaries)
                out["next_round"] = {"ok": True}
            except Refusal as refused:
                out["next_round"] = {"ok": False, "rule": refused.rule,
                                     "message": refused.message}
        else:
            out["boards"] = {key: summaries[key]["board"] for key in shown if key in summaries}
            if not names:
                out = _nameless(out)
        return out

    def check_shown(self, plan: dict, keys: list[str]) -> None:
        """At most four live boards on the projector (H-T7)."""
        if len(set(keys)) > MAX_SHOWN:
            raise Refusal("H-T7", f"the projector shows {MAX_SHOWN} boards at most")

    def _table(self, plan: dict, summaries: dict) -> list[dict]:
        # Each player's games: (opponent or None for the bot, points scored), byes apart.
        count = len(plan["players"])
        rows = [{"player": p, "points": 0.0, "wins": 0, "draws": 0, "losses": 0, "byes": 0,
                 "played": 0, "games": []} for p in range(count)]
        for r, boards in enumerate(plan["rounds"], start=1):
            for b in boards:
                if "bye" in b:
                    rows[b["bye"]]["byes"] += 1
                    rows[b["bye"]]["points"] += BYE_POINTS
            for place, board in enumerate(_boards(boards), start=1):
                summary = summaries.get(f"{r}.{place}") or {}
                if not summary.get("over") or summary.get("result") is None:
                    continue
                for colour, other in (("white", "black"), ("black", "white")):
                    me = board[colour]
                    if me is None:
                        continue
                    got = DRAW if summary["result"] == "draw" else \
                        WIN if summary["result"] == colour else LOSS
                    row = rows[me]
                    row["points"] += got
                    row["played"] += 1
                    row["wins" if got == WIN else "draws" if got == DRAW else "losses"] += 1
                    row["games"].append((board[other], got))
        return rows

    def standings(self, plan: dict, summaries: dict[str, dict]) -> list[dict]:
        """Best first by points (H-T5), then Buchholz, then Sonneborn–Berger; players
        level on all three share a rank. Only finished games count."""
        rows = self._table(plan, summaries)
        points = [row["points"] for row in rows]
        for row in rows:
            # The bot and the bye add nothing to a tie-break (they are no student).
            row["buchholz"] = sum(points[o] for o, _got in row["games"] if o is not None)
            row["sonneborn_berger"] = sum(points[o] * got for o, got in row["games"]
                                          if o is not None)
            del row["games"]
        key = {row["player"]: (row["points"], row["buchholz"], row["sonneborn_berger"])
               for row in rows}
        rows.sort(key=lambda row: (tuple(-x for x in key[row["player"]]), row["player"]))
        for row in rows:
            for column in ("points", "buchholz", "sonneborn_berger"):
                # Whole points as whole numbers (a download's "2", not "2.0").
                row[column] = _number(row[column])
            row["rank"] = 1 + sum(1 for other in rows if key[other["player"]] > key[row["player"]])
        return rows

    def bell(self, summary: dict) -> dict | None:
        """At the bell a game still on ends as a draw (H-T6); a forfeit is the teacher's
        own end of one game, with its reason (H-G6)."""
        if summary.get("over"):
            return None
        return {"do": "end", "result": "draw", "reason": BELL_REASON}
