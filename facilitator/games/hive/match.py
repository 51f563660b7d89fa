"""A game of Hive in the classroom: the protocol's Match (facilitator/games/protocol.py).

Seat 1 plays White and seat 2 Black; a pair's shared tablet (a ``table``
role) may act for whichever side is to move; the teacher (GM) may act for
anyone and alone may undo, redo or end the game; a watcher only looks (H-G1).

As in la partida, an accepted action returns the events it caused and the
state is only ever their fold (``_rebuild``): undo and redo by the teacher
take back or put back a whole action, events and all. The events of one
action are small values with a ``kind``:

- ``moved`` (a move or a pass, in canonical notation),
- ``undo_asked`` / ``undo_declined`` / ``taken_back`` (H-G2),
- ``draw_offered`` / ``draw_declined`` (H-G3),
- ``ended`` (a result and its reason: a surrounded queen, agreement,
  repetition, the turn limit, or the teacher's end).

>>> m = KIND.new({}, players={"white": "Ana", "black": "Ben"})
>>> [e["kind"] for e in m.play({"do": "move", "move": "wG1"}, Role.of_seat(1))]
['moved']
>>> m.play({"do": "move", "move": "bG1 -wg1"}, Role.of_seat(1))
Traceback (most recent call last):
...
facilitator.games.protocol.Refusal: H-G1: It's not that player's turn.
>>> m.view(Role.watcher())["moves"]
['wG1']
"""
from __future__ import annotations

import os
import random
from collections import Counter
from typing import Any, ClassVar

from ...resources import data_path
from ..protocol import (CLOCK, GM, SEAT, TABLE, WATCHER, History, KindDefaults, Legal,
                        Refusal, Role)
from .board import BLACK_WINS, DRAW, OVER, PASS, WHITE_WINS, Board
from .bot import DEFAULT_LEVEL, LEVEL_OF_DEPTH, LEVELS, level_move, offered_levels
from . import external
from .external import engine_move
from .hexes import coords
from .notation import canonical, game_string, parse_move, resolve, split_game_string, turn_text
from .pieces import COLOUR, GAME_TYPES, KINDS, NAMES, PER_COLOUR, enabled, game_type_name, \
    parse_game_type
from .rules import IllegalMove, check, stuck

FORMAT = "hive/1"
COLOUR_NAMES = ("white", "black")
RESULTS = ("white", "black", "draw")
MAX_TURN_LIMIT = 500
MAX_REASON = 200
#: A GameString's length at most, pasted or in a record: room for a game played to the
#: longest turn limit, and short enough that replaying it (a request's work) stays brief.
MAX_GAME_STRING = 10_000
TOO_LONG = f"a GameString is a text of at most {MAX_GAME_STRING} characters"
SETTINGS_BOUNDS = {
    "turn_limit": {"default": 0, "min": 0, "max": MAX_TURN_LIMIT,
                   "meaning": "turns per player before a draw (H-G5); 0 = no limit"},
    "bot_level": {"default": DEFAULT_LEVEL, "values": list(LEVELS),
                  "meaning": "the computer player's strength, weakest first (H-G7): a "
                             "beginner's slips to the strongest the laptop allows within "
                             "a second a move"},
    "bot": {"default": 0, "min": 0, "max": 2,
            "meaning": "the seat the computer plays (H-G7): 1 White, 2 Black; 0 = none"},
    "game_type": {"default": "Base", "values": list(GAME_TYPES),
                  "meaning": "the pieces in play (H-S1.4): the base game, with the "
                             "Mosquito (M), the Ladybug (L), the Pillbug (P) or several"},
}
NOT_YOUR_TURN = "It's not that player's turn."


def parse_settings(data: Any) -> dict:
    """Settings with every default filled in; Refusal("format" or H-S1.4) when wrong."""
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise Refusal("format", "the settings are not an object")
    unknown = set(data) - set(SETTINGS_BOUNDS) - {"bot_depth"}
    if unknown:
        raise Refusal("format", f"unknown settings: {', '.join(sorted(unknown))}")
    out = {"bot_level": _bot_level(data)}
    for key in ("turn_limit", "bot"):
        bounds = SETTINGS_BOUNDS[key]
        value = data.get(key, bounds["default"])
        if value is None and key == "turn_limit":
            value = 0
        if isinstance(value, bool) or not isinstance(value, int) \
                or not bounds["min"] <= value <= bounds["max"]:
            raise Refusal("format", f"{key} must be a whole number from {bounds['min']} "
                                    f"to {bounds['max']}")
        out[key] = value
    game_type = data.get("game_type", "Base")
    expansions = parse_game_type(game_type) if isinstance(game_type, str) else None
    if expansions is None:
        raise Refusal("format", f"unknown game type {game_type!r}")
    out["game_type"] = game_type
    return out


def _bot_level(data: dict) -> str:
    """The computer's level: ``bot_level`` by name, or a record's older ``bot_depth``."""
    if "bot_depth" in data and "bot_level" not in data:
        depth = data["bot_depth"]
        if isinstance(depth, bool) or depth not in LEVEL_OF_DEPTH:
            raise Refusal("format", "bot_depth must be a whole number from 1 to 6")
        return LEVEL_OF_DEPTH[depth]
    level = data.get("bot_level", DEFAULT_LEVEL)
    if level not in LEVELS:
        raise Refusal("format", f"bot_level is one of {', '.join(LEVELS)}")
    return level


def _players(data: Any) -> dict:
    if data is None:
        data = {}
    if not isinstance(data, dict) or set(data) - set(COLOUR_NAMES):
        raise Refusal("format", 'players must be {"white": name, "black": name}')
    out = {}
    for colour in COLOUR_NAMES:
        value = data.get(colour, colour.capitalize())
        if not isinstance(value, str) or not value.strip() or len(value) > MAX_REASON:
            raise Refusal("format", f"the {colour} player's name must be a short text")
        out[colour] = value.strip()
    return out


class _State:
    """What the events fold to: the board, the open requests and the result."""

    def __init__(self, settings: dict):
        self.settings = settings
        self.board = Board(parse_game_type(settings.get("game_type", "Base")))
        self.undo_asked: int | None = None   # the seat asking
        self.draw_offered: int | None = None  # the seat offering
        self.result: dict | None = None
        self.seen: Counter = Counter([self.board.key()])

    def apply(self, event: dict) -> None:
        """Fold one event into the state."""
        kind = event["kind"]
        board = self.board
        if kind == "moved":
            written = parse_move(event["move"])
            mover = board.colour
            if written.piece < 0:
                board.push(PASS, "pass")
            else:
                piece, dest, _height = resolve(board, written)
                board.push((piece, dest), event["move"])
            self.seen[board.key()] += 1
            self.undo_asked = None
            if self.draw_offered is not None and self.draw_offered != mover + 1:
                self.draw_offered = None
        elif kind == "taken_back":
            self.seen[board.key()] -= 1
            board.pop()
            self.undo_asked = None
        elif kind == "undo_asked":
            self.undo_asked = event["seat"]
        elif kind == "undo_declined":
            self.undo_asked = None
        elif kind == "draw_offered":
            self.draw_offered = event["seat"]
        elif kind == "draw_declined":
            self.draw_offered = None
        elif kind == "ended":
            self.result = {k: event[k] for k in ("result", "reason", "rule")}
            self.undo_asked = self.draw_offered = None
        else:   # pragma: no cover - events are made here only
            raise ValueError(f"unknown event {kind!r}")

    @property
    def over(self) -> bool:
        """Whether the game has a result."""
        return self.result is not None


def _ended(result: str, reason: str, rule: str) -> dict:
    return {"kind": "ended", "result": result, "reason": reason, "rule": rule}


class HiveMatch:
    """One game of Hive between two seats (see the module's docstring)."""

    kind: ClassVar[str] = "hive"

    def __init__(self, settings: dict | None = None, players: dict | None = None,
                 seed: int | None = None):
        self.settings = parse_settings(settings)
        self.players = _players(players)
        self.seed = seed
        self.state = _State(self.settings)
        # Every accepted action (``log``), the applied ones with their events, the undone
        # ones waiting for the teacher's redo (H-G6): the protocol's History.
        self.history = History()

    @property
    def log(self) -> list[dict]:
        """Every accepted action, in order (undo and redo included)."""
        return self.history.log

    # ---- the protocol's properties --------------------------------------------------

    @property
    def board(self) -> Board:
        """The current position (read it, do not change it)."""
        return self.state.board

    @property
    def seq(self) -> int:
        """How many actions were accepted (undo and redo included)."""
        return len(self.log)

    @property
    def over(self) -> bool:
        """Whether the game has a result."""
        return self.state.over

    @property
    def result(self) -> dict | None:
        """The result: {"result": white|black|draw, "reason": ..., "rule": ...}, or None."""
        return self.state.result

    @property
    def can_undo(self) -> bool:
        """Whether the teacher's ``undo`` would be accepted (H-G6)."""
        return self.history.can_undo

    @property
    def can_redo(self) -> bool:
        """Whether the teacher's ``redo`` would be accepted (H-G6)."""
        return self.history.can_redo

    @property
    def bot(self) -> int | None:
        """The seat the computer plays (H-G7), or None."""
        return self.settings["bot"] or None

    def _bot_to_move(self) -> bool:
        return self.bot is not None and not self.over and self.board.colour + 1 == self.bot

    def deadline(self) -> float | None:
        """Now (0.0) when it is the computer's turn (H-G7); else nothing happens by itself."""
        return 0.0 if self._bot_to_move() else None

    def due(self, now: float) -> dict | None:
        """The computer's move at its level (H-G7: as deep as its level, within the level's
        thinking time; a beginner's slips drawn from the game's seed and the ply, so the
        same position at the same moment gets the same move) when it is its turn, else
        None."""
        if not self._bot_to_move():
            return None
        rng = random.Random(f"{self.seed}:{self.seq}")
        level = LEVELS[self.settings["bot_level"]]
        # H-G9: another engine's move, else (none named, failed, late) the strongest's.
        found = engine_move(self.board, level.seconds) if level.external else None
        move = canonical(self.board, found if found is not None
                         else level_move(self.board, level, rng))
        return {"do": "pass"} if move == "pass" else {"do": "move", "move": move}

    # ---- acting -----------------------------------------------------------------------

    def play(self, action: dict, by: Role) -> list[dict]:
        """Accept ``action`` from ``by`` and return its events, or raise Refusal (changing nothing)."""
        if not isinstance(action, dict) or not isinstance(action.get("do"), str):
            raise Refusal("format", 'an action is an object with a "do"')
        do = action["do"]
        if do == "undo":
            return self._teacher_undo(action, by)
        if do == "redo":
            return self._teacher_redo(action, by)
        events = self._decide(action, by)
        for event in events:
            self.state.apply(event)
        self.history.apply(dict(action), events)
        return events

    def _restore_result(self, result: dict) -> None:
        # A record's result that no move caused comes back as the actions that make it,
        # so that the teacher can still undo it and the store, playing the same actions
        # again, ends the game with the same rule: a draw by agreement as an offer and its
        # acceptance (H-G3), any other as the teacher's end with its reason (H-G6).
        teacher = Role.gm()
        if result["result"] == "draw" and result.get("rule") == "H-G3":
            self.play({"do": "offer_draw"}, teacher)
            self.play({"do": "accept_draw"}, teacher)
            return
        self.play({"do": "end", "result": result["result"], "reason": result["reason"]}, teacher)

    def _teacher_undo(self, action: dict, by: Role) -> list[dict]:
        _only_teacher(by, "undo")
        if not self.history.can_undo:
            raise Refusal("H-G6", "there is nothing to undo")
        done = self.history.undo(dict(action))
        self._rebuild()
        return done.events

    def _teacher_redo(self, action: dict, by: Role) -> list[dict]:
        _only_teacher(by, "redo")
        if not self.history.can_redo:
            raise Refusal("H-G6", "there is nothing to redo")
        redone = self.history.redo(dict(action))
        for event in redone.events:
            self.state.apply(event)
        return redone.events

    def _rebuild(self) -> None:
        # The state is only ever the fold of its events, so undo is exact.
        self.state = _State(self.settings)
        for event in self.history.events():
            self.state.apply(event)

    def _decide(self, action: dict, by: Role) -> list[dict]:
        # The events ``action`` would cause, or Refusal; nothing is changed here.
        do = action["do"]
        handler = {"move": self._move, "pass": self._move,
                   "ask_undo": self._ask_undo, "accept_undo": self._answer_undo,
                   "decline_undo": self._answer_undo, "offer_draw": self._offer_draw,
                   "accept_draw": self._answer_draw, "decline_draw": self._answer_draw,
                   "end": self._end}.get(do)
        if handler is None:
            raise Refusal("format", f"unknown action {do!r}")
        if by.kind == WATCHER:
            raise Refusal("H-G1", "a watcher only looks")
        self._check_bot(do, by)
        return handler(action, by)

    def _check_bot(self, do: str, by: Role) -> None:
        # H-G7: the computer's colour is the clock's alone (the teacher may still act for
        # it); no undo or draw is asked of the computer.
        bot = self.bot
        moving = do in ("move", "pass")
        if by.kind == CLOCK:
            if not (moving and self._bot_to_move()):
                raise Refusal("H-G7", "the clock plays only the computer's moves")
            return
        if bot is None or by.kind == GM:
            return
        if by.kind == SEAT and by.seat == bot:
            raise Refusal("H-G7", "the computer plays this colour")
        if moving and self._bot_to_move():
            raise Refusal("H-G7", "it is the computer's turn")
        if do in ("ask_undo", "accept_undo", "decline_undo", "offer_draw", "accept_draw",
                  "decline_draw"):
            raise Refusal("H-G7", "no undo or draw is agreed with the computer")

    def _move(self, action: dict, by: Role) -> list[dict]:
        state = self.state
        board = state.board
        if action["do"] == "pass":
            text = "pass"
        else:
            text = action.get("move")
            if not isinstance(text, str) or len(text) > 40:
                raise Refusal("format", 'a move is {"do": "move", "move": "<MoveString>"}')
        if state.over:
            raise Refusal("H-E1.5", "You can't pass, the game is over." if text == "pass"
                          else "You can't play, the game is over.")
        if by.kind == SEAT and by.seat != board.colour + 1:
            raise Refusal("H-G1", NOT_YOUR_TURN)
        try:
            found = check(board, text)
        except IllegalMove as refused:
            raise Refusal(refused.rule, refused.reason) from None
        if text != "pass" and found == PASS:   # pragma: no cover - check never does this
            raise Refusal("H-E1.3", "You can't pass when you have valid moves.")
        written = canonical(board, found)
        events = [{"kind": "moved", "move": written, "colour": COLOUR_NAMES[board.colour]}]
        events.extend(self._consequences(found, written))
        return events

    def _consequences(self, found, written: str) -> list[dict]:
        # What the move ends, judged on a scratch copy of the board.
        board = self.state.board.copy()
        board.push(found, written)
        if board.over:
            if board.state == "Draw":
                return [_ended("draw", "both queens surrounded", "H-E1.2")]
            winner = "white" if board.state == "WhiteWins" else "black"
            return [_ended(winner, "queen surrounded", "H-E1.1")]
        if self.state.seen[board.key()] + 1 >= 3:
            return [_ended("draw", "repetition", "H-G4")]
        limit = self.settings["turn_limit"]
        if limit and board.ply >= 2 * limit:
            return [_ended("draw", "turn limit", "H-G5")]
        return []

    def _last_mover_seat(self) -> int | None:
        board = self.state.board
        return None if board.ply == 0 else (board.ply - 1) % 2 + 1

    def _ask_undo(self, action: dict, by: Role) -> list[dict]:
        state = self.state
        seat = self._last_mover_seat()
        if state.over:
            raise Refusal("H-G2", "the game is over")
        if seat is None:
            raise Refusal("H-G2", "no move has been made yet")
        if state.undo_asked is not None:
            raise Refusal("H-G2", "an undo has already been asked for")
        if by.kind == SEAT and by.seat != seat:
            raise Refusal("H-G2", "only the player who just moved may ask to take it back")
        return [{"kind": "undo_asked", "seat": seat}]

    def _answer_undo(self, action: dict, by: Role) -> list[dict]:
        state = self.state
        if state.undo_asked is None:
            raise Refusal("H-G2", "no undo has been asked for")
        other = 3 - state.undo_asked
        if by.kind == SEAT and by.seat != other:
            raise Refusal("H-G2", "only the other player may answer an undo request")
        if action["do"] == "decline_undo":
            return [{"kind": "undo_declined", "seat": other}]
        last = state.board.texts[-1]
        return [{"kind": "taken_back", "move": last, "seat": other}]

    def _offer_draw(self, action: dict, by: Role) -> list[dict]:
        state = self.state
        if state.over:
            raise Refusal("H-G3", "the game is over")
        if state.draw_offered is not None:
            raise Refusal("H-G3", "a draw has already been offered")
        seat = by.seat if by.kind == SEAT else state.board.colour + 1
        return [{"kind": "draw_offered", "seat": seat}]

    def _answer_draw(self, action: dict, by: Role) -> list[dict]:
        state = self.state
        if state.draw_offered is None:
            raise Refusal("H-G3", "no draw has been offered")
        other = 3 - state.draw_offered
        if by.kind == SEAT and by.seat != other:
            raise Refusal("H-G3", "only the other player may answer a draw offer")
        if action["do"] == "decline_draw":
            return [{"kind": "draw_declined", "seat": other}]
        return [_ended("draw", "agreement", "H-G3")]

    def _end(self, action: dict, by: Role) -> list[dict]:
        _only_teacher(by, "end")
        if self.state.over:
            raise Refusal("H-G6", "the game is already over")
        result, reason = action.get("result"), action.get("reason")
        if result not in RESULTS:
            raise Refusal("H-G6", 'the result must be "white", "black" or "draw"')
        if not isinstance(reason, str) or not reason.strip() or len(reason) > MAX_REASON:
            raise Refusal("H-G6", "the teacher's end needs a reason (a short text)")
        return [_ended(result, reason.strip(), "H-G6")]

    # ---- what may be done and what is seen --------------------------------------------

    def legal(self, by: Role | None = None) -> list[Legal]:
        """What ``by`` may do now (None: every entry, as the teacher sees them)."""
        state = self.state
        board = state.board
        found: list[Legal] = []
        human = not self._bot_to_move()           # the computer's turn: the teacher's only
        to_move = (board.colour + 1,) if human else ()
        if not state.over:
            moves = board.valid_moves()
            if moves == [PASS]:
                found.append(Legal("pass", to_move, table=human))
            else:
                found.append(Legal("move", to_move, {"moves": [canonical(board, m) for m in moves]},
                                   table=human))
            if self.bot is None:                  # H-G7: nothing is agreed with the computer
                found.extend(self._agreements())
            found.append(Legal("end", options={"results": list(RESULTS)}))
        if self.can_undo:
            found.append(Legal("undo"))
        if self.can_redo:
            found.append(Legal("redo"))
        if by is None:
            return found
        return [entry for entry in found if entry.allows(by)]

    def _agreements(self) -> list[Legal]:
        # The open undo and draw requests between the two players (H-G2, H-G3).
        state = self.state
        found = []
        last = self._last_mover_seat()
        if last is not None and state.undo_asked is None:
            found.append(Legal("ask_undo", (last,), table=True))
        if state.undo_asked is not None:
            other = (3 - state.undo_asked,)
            found.append(Legal("accept_undo", other, table=True))
            found.append(Legal("decline_undo", other, table=True))
        if state.draw_offered is None:
            found.append(Legal("offer_draw", (1, 2), table=True))
        else:
            other = (3 - state.draw_offered,)
            found.append(Legal("accept_draw", other, table=True))
            found.append(Legal("decline_draw", other, table=True))
        return found

    def view(self, audience: Role) -> dict:
        """The board as everyone sees it (H-V1.1), and what ``audience`` may do with it."""
        state = self.state
        board = state.board
        pieces, stacks = [], []
        for cell, stack in board.stacks.items():
            q, r = coords(cell)
            stacks.append({"q": q, "r": r, "height": len(stack), "top": NAMES[stack[-1]]})
            for h, piece in enumerate(stack):
                pieces.append({"piece": NAMES[piece], "colour": COLOUR_NAMES[COLOUR[piece]],
                               "kind": NAMES[piece][1], "q": q, "r": r, "h": h,
                               "top": h == len(stack) - 1})
        pieces.sort(key=lambda p: (p["q"], p["r"], p["h"]))
        stacks.sort(key=lambda s: (s["q"], s["r"]))
        out = {
            "game": self.kind,
            "seq": self.seq,
            "players": dict(self.players),
            "game_type": board.game_type,
            "state": board.state,
            "over": state.over,
            "to_move": None if state.over else COLOUR_NAMES[board.colour],
            "turn": board.turn,
            "turn_text": turn_text(board),
            "pieces": pieces,
            "stacks": stacks,
            "hands": {COLOUR_NAMES[c]: self._hand(c) for c in (0, 1)},
            "last_move": self._last_move(),
            "moves": board.texts,
            "game_string": game_string(board),
            "result": dict(state.result) if state.result else None,
            "pending": {"undo": state.undo_asked, "draw": state.draw_offered},
            "settings": dict(self.settings),
            "bot": self.bot,
        }
        if not state.over and self._may_move(audience):
            moves = board.valid_moves()
            if moves == [PASS]:
                out["must_pass"] = True
                out["destinations"] = {}
            else:
                out["must_pass"] = False
                out["destinations"] = self._destinations(moves)
            out["stuck"] = self._stuck(out["destinations"])
        return out

    def _stuck(self, destinations: dict) -> dict[str, dict]:
        # Each piece the mover could pick (a top piece of theirs, the next of each kind in
        # hand) that has nowhere to go, with the rule that keeps it: a tap on it explains.
        board = self.state.board
        colour = board.colour
        pickable = [stack[-1] for stack in board.stacks.values() if COLOUR[stack[-1]] == colour]
        pickable += [p for p in board.hand(colour) if board.in_order(p)]
        out = {}
        for piece in sorted(pickable):
            if NAMES[piece] not in destinations:
                rule, message = stuck(board, piece)
                out[NAMES[piece]] = {"rule": rule, "message": message}
        return out

    def _may_move(self, audience: Role) -> bool:
        if audience.kind in (GM, TABLE):
            return True
        return audience.kind == SEAT and audience.seat == self.state.board.colour + 1

    def _hand(self, colour: int) -> list[dict]:
        board = self.state.board
        left = board.hand(colour)
        out = []
        for kind in KINDS:
            mine = [p for p in range(colour * PER_COLOUR, (colour + 1) * PER_COLOUR)
                    if NAMES[p][1] == kind.letter and enabled(p, board.expansions)]
            if not mine:
                continue
            waiting = [p for p in mine if p in left]
            out.append({"kind": kind.letter, "name": kind.title, "left": len(waiting),
                        "next": NAMES[waiting[0]] if waiting else None})
        return out

    def _last_move(self) -> dict | None:
        board = self.state.board
        last = board.last_move
        if last is None:
            return None
        piece, src, dest = last
        out = {"move": board.texts[-1], "piece": NAMES[piece] if piece >= 0 else None,
               "from": None, "to": None}
        if src is not None:
            out["from"] = dict(zip("qr", coords(src)))
        if dest is not None:
            q, r = coords(dest)
            out["to"] = {"q": q, "r": r, "h": board.height(piece)}
        return out

    def _destinations(self, moves) -> dict[str, list[dict]]:
        board = self.state.board
        out: dict[str, list[dict]] = {}
        for piece, dest in moves:
            q, r = coords(dest)
            stack = board.stacks.get(dest)
            out.setdefault(NAMES[piece], []).append(
                {"move": canonical(board, (piece, dest)), "q": q, "r": r,
                 "h": len(stack) if stack else 0})
        return out

    # ---- record -------------------------------------------------------------------------

    def game_string(self) -> str:
        """The game's GameString (H-N1.4). A game ended by no move (a draw agreed, the
        teacher's end, the turn limit) says so in its state field, as MzingaViewer shows
        a finished game: ``Draw``, ``WhiteWins`` or ``BlackWins``."""
        board, result = self.state.board, self.state.result
        text = game_string(board)
        if result is None or board.state in OVER:
            return text
        fields = text.split(";")
        fields[1] = {"draw": DRAW, "white": WHITE_WINS, "black": BLACK_WINS}[result["result"]]
        return ";".join(fields)

    def record(self) -> dict:
        """The record (H-R1): the GameString, the players, the result and the settings."""
        return {"format": FORMAT, "game": self.game_string(),
                "players": dict(self.players),
                "result": dict(self.state.result) if self.state.result else None,
                "settings": dict(self.settings)}

    def summary(self) -> dict:
        """What ``facilitator replay`` prints (and the results page shows): the game
        string, state, result and reason, turn (as UHP writes it, and its number with the
        side to move while the game is on), the moves and the players by colour."""
        board = self.state.board
        result = self.state.result
        text = self.game_string()
        return {"game": text, "state": text.split(";")[1], "over": self.over,
                "result": result["result"] if result else None,
                "reason": result["reason"] if result else None,
                "rule": result["rule"] if result else None,
                "turn": turn_text(board), "turn_number": board.turn,
                "to_move": None if self.over else COLOUR_NAMES[board.colour],
                "plies": board.ply, "moves": board.texts,
                "players": dict(self.players)}


def _only_teacher(by: Role, what: str) -> None:
    if by.kind != GM:
        raise Refusal("H-G6", f"only the teacher may {what}")


def _uhp(stdin, stdout) -> int:
    """Speak the Universal Hive Protocol on standard input and output."""
    from .uhp import main
    return main(stdin, stdout)


class HiveKind(KindDefaults):
    """The GameKind of Hive: settings, a new match, and a match from its record."""

    name = "hive"
    record_format = FORMAT
    #: Client events its screens send besides ``act`` and ``sync``: none.
    events: dict = {}
    #: The rule of who holds a seat (one device per seat; the table's screen acts only
    #: for a seat no device holds): the id refusals about seats name.
    seat_rule = "H-G8"
    #: What a pair's shared tablet sends for the side to move or the player asked: refused
    #: for a colour a device of its own holds (H-G8).
    table_for_seat = frozenset({"move", "pass", "ask_undo", "accept_undo", "decline_undo",
                                "offer_draw", "accept_draw", "decline_draw"})
    #: Its console tools (``facilitator hive uhp``): the UHP engine other Hive programs drive.
    tools = {"uhp": _uhp}
    #: Its screens (seat.js, table.js, gm.js, watcher.js, hall.js, hall_watcher.js and the
    #: board they share) draw its views; it has no page of its own.
    screens_folder = data_path("static") / "js" / "games" / "hive"
    pages: dict = {}

    def settings_bounds(self) -> dict:
        """Every setting with its default and bounds (for set-up forms); the level
        ``engine`` only when the server names another engine (H-G9)."""
        bounds = {key: dict(value) for key, value in SETTINGS_BOUNDS.items()}
        bounds["bot_level"]["values"] = offered_levels()
        return bounds

    #: The record's key holding the game's content (its players), as the store keeps it.
    content_key = "players"

    def new(self, settings: dict, stored: dict | None = None, **content: Any) -> HiveMatch:
        """A new game; content: ``players`` ({"white", "black"} names), ``seed`` (or both in
        ``stored``, as the store keeps them)."""
        if isinstance(stored, dict):
            content = {**stored, **content}
        unknown = set(content) - {"players", "seed"}
        if unknown:
            raise Refusal("format", f"unknown content: {', '.join(sorted(unknown))}")
        from .live import HiveLive           # the live game: what the facilitator serves
        return HiveLive(settings, content.get("players"), content.get("seed"))

    def stored(self, match: HiveMatch) -> tuple[dict, dict]:
        """What the store keeps of a game: its settings, and its players and seed."""
        return dict(match.settings), {"players": dict(match.players), "seed": match.seed}

    def load(self, settings: dict, content: dict, actions: list[dict], live: dict | None):
        """A stored game, its actions played again."""
        match = self.new(settings, content or {})
        match.follow(actions)
        return match

    def record(self, settings: dict, content: dict, actions: list[dict],
               name: str = "") -> dict:
        """The ``hive/1`` record of a stored game (H-R1): its GameString, players, result."""
        record = self.load(settings, content, actions, None).record()
        if name:
            record["name"] = name
        return record

    def configure(self, config) -> None:
        """Another engine as the computer player (H-G9): its command line is the server
        operator's, ``HIVE_ENGINE`` in the app's configuration or the environment's
        ``FACILITATOR_HIVE_ENGINE`` (never a web form: the server runs it)."""
        external.configure(config.get("HIVE_ENGINE") or os.environ.get("FACILITATOR_HIVE_ENGINE"))

    def record_of_text(self, text: object, players: dict | None = None,
                       settings: dict | None = None) -> dict:
        """The ``hive/1`` record of a bare GameString (H-N1.4), as MzingaViewer copies it or
        a ``.txt`` file holds it, with the players and settings given. Only its game type is
        read here (Refusal ``H-N1.4`` with Mzinga's sentence when it is none, ``format`` when
        it is no short text); its moves are checked when the record is replayed.

        >>> KIND.record_of_text("Base;InProgress;White[2];wS1;bS1 wS1-")["game"]
        'Base;InProgress;White[2];wS1;bS1 wS1-'
        """
        if not isinstance(text, str) or not text.strip() or len(text) > MAX_GAME_STRING:
            raise Refusal("format", TOO_LONG)
        text = text.strip()
        try:
            split_game_string(text)
        except ValueError as error:
            raise Refusal("H-N1.4", str(error)) from None
        record = {"format": FORMAT, "game": text}
        if players is not None:
            record["players"] = players
        if settings is not None:
            record["settings"] = settings
        return record

    def replay(self, record: dict, read_beside=None) -> HiveMatch:
        """The game a record describes: its GameString replayed move by move (a refused
        move names its 0-based index), then its result. A bare GameString pasted from
        MzingaViewer in ``game`` loads too."""
        if not isinstance(record, dict) or record.get("format") != FORMAT:
            raise Refusal("format", f'a Hive record has "format": "{FORMAT}"')
        text = record.get("game")
        if not isinstance(text, str):
            raise Refusal("format", 'a Hive record has its GameString in "game"')
        if len(text) > MAX_GAME_STRING:
            raise Refusal("format", TOO_LONG)
        try:
            expansions, moves = split_game_string(text)
        except ValueError as error:
            raise Refusal("H-N1.4", str(error)) from None
        settings = record.get("settings") or {}
        if isinstance(settings, dict):
            # The GameString's own game type decides the pieces (H-N1.4, H-S1.4).
            settings = {**settings, "game_type": game_type_name(expansions)}
        match = self.new(settings, players=record.get("players"))
        gm = Role.gm()
        for index, move in enumerate(moves):
            move = move.strip()
            action = {"do": "pass"} if move.lower() == "pass" else {"do": "move", "move": move}
            try:
                match.play(action, gm)
            except Refusal as refusal:
                raise refusal.at(index) from None
        result = record.get("result")
        if result is not None:
            if not isinstance(result, dict) or result.get("result") not in RESULTS \
                    or not isinstance(result.get("reason"), str):
                raise Refusal("format", 'a result is {"result": white|black|draw, "reason": ...}')
            if match.over:
                if match.result["result"] != result["result"]:
                    raise Refusal("format", "the recorded result differs from the game's")
            else:
                match._restore_result(result)
        return match


#: The Hive game, as the registry finds it.
KIND = HiveKind()
