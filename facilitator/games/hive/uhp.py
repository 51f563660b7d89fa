"""The Universal Hive Protocol engine (HIVE.md's UHP table), on any text streams.

``main(stdin, stdout)`` prints the ``info`` answer, then answers one command
per line until ``exit`` or the end of input. Every answer ends with ``ok``; a
refused move is ``invalidmove <Mzinga's reason>``, any other error
``err <message>`` (with Mzinga's messages for a finished game, no game,
a bad undo). Moves are read in any correct spelling and written canonically.
Every game type is played (H-S1.4): ``info`` lists the expansion pieces.
A position's third occurrence ends the game as a draw (H-E1.6) unless the
option ``Repetition`` is set to False.

>>> import io
>>> out = io.StringIO()
>>> main(io.StringIO("newgame\\nplay wS1\\nplay wQ\\nexit\\n"), out)
0
>>> print(out.getvalue())
id facilitator-hive v0.2.0
Mosquito;Ladybug;Pillbug
ok
Base;NotStarted;White[1]
ok
Base;InProgress;Black[1];wS1
ok
invalidmove It's not that player's turn.
ok
<BLANKLINE>
"""
from __future__ import annotations

import re
import time
from typing import IO

from . import bot
from .board import DRAW, Board, NotEnabled
from .notation import canonical, game_string
from .perft import perft
from .pieces import parse_game_type
from .rules import GameStringError, IllegalMove, check, load, play

NAME, VERSION = "facilitator-hive", "0.2.0"
#: The capabilities line of ``info``: the expansion pieces this engine plays.
CAPABILITIES = "Mosquito;Ladybug;Pillbug"

INVALID_COMMAND = "Invalid command. Try 'help' to see a list of valid commands."
NO_GAME = "No game in progress. Try 'newgame' to start a new game."
GAME_OVER = "The game is over. Try 'newgame' to start a new game."

COMMANDS = ("info", "help", "newgame", "play", "pass", "validmoves", "bestmove", "undo",
            "options", "perft", "exit")
#: The longest a ``bestmove`` without a time (``bestmove`` or ``bestmove depth N``) or a
#: ``perft`` thinks: a deep request answers within it, with what finished in time.
MAX_SECONDS = 10.0
#: The longest line a command is read from (a longer one is answered ``err``).
MAX_LINE = 10_000


class _Error(Exception):
    """An ``err`` answer."""


class Engine:
    """One UHP session: the current game (or None) and the options."""

    def __init__(self, max_seconds: float = MAX_SECONDS):
        """``max_seconds``: the longest a search or a count runs (MAX_SECONDS)."""
        self.max_seconds = max_seconds
        self.board: Board | None = None
        self.options = {"BotDepth": bot.DEFAULT_DEPTH, "Repetition": True}
        self.exit_requested = False

    def answer(self, line: str) -> list[str]:
        """The lines answering one command, ``ok`` included (none for ``exit``)."""
        if len(line) > MAX_LINE:
            return [f"err {INVALID_COMMAND}", "ok"]
        words = line.split()
        if not words:
            return []
        command, args = words[0].lower(), words[1:]
        if command == "exit":
            self.exit_requested = True
            return []
        try:
            handler = getattr(self, "_" + command) if command in COMMANDS else None
            if handler is None:
                raise _Error(INVALID_COMMAND)
            out = handler(args)
        except IllegalMove as refused:
            out = [f"invalidmove {refused.reason}"]
        except _Error as error:
            out = [f"err {error}"]
        return [*out, "ok"]

    # ---- commands ------------------------------------------------------------------

    def _info(self, args):
        return [f"id {NAME} v{VERSION}", CAPABILITIES]

    def _help(self, args):
        return ["Commands: " + "; ".join(COMMANDS)]

    def _newgame(self, args):
        if not args:
            self.board = Board()
        elif parse_game_type(args[0]) is not None and len(args) == 1:
            try:
                self.board = Board(parse_game_type(args[0]))
            except NotEnabled as error:
                raise _Error(str(error)) from None
        else:
            try:
                self.board = load(" ".join(args), after=self._repetition)
            except GameStringError as error:
                raise _Error(str(error)) from None
        return [game_string(self.board)]

    def _repetition(self, board: Board) -> None:
        # H-E1.6: the third occurrence of a position is a draw. The state is set on the
        # board, and ``pop`` puts back the state before the move, so ``undo`` reopens it.
        if self.options["Repetition"] and not board.over and repeated(board):
            board.state = DRAW

    def _game(self, *, playing: bool = True) -> Board:
        if self.board is None:
            raise _Error(NO_GAME)
        if playing and self.board.over:
            raise _Error(GAME_OVER)
        return self.board

    def _play(self, args):
        if not args:
            raise _Error(INVALID_COMMAND)
        board = self._game()
        play(board, " ".join(args))
        self._repetition(board)
        return [game_string(board)]

    def _pass(self, args):
        return self._play(["pass"])

    def _validmoves(self, args):
        board = self._game()
        return [";".join(canonical(board, m) for m in board.valid_moves())]

    def _bestmove(self, args):
        board = self._game()
        depth, limit = None, None
        if not args:
            depth = self.options["BotDepth"]
        elif len(args) == 2 and args[0].lower() == "depth":
            depth = _whole(args[1])
            if depth < 1:
                raise _Error(INVALID_COMMAND)
        elif len(args) == 2 and args[0].lower() == "time":
            limit = _seconds(args[1])
        else:
            raise _Error(INVALID_COMMAND)
        # Leave room to answer inside the time asked for; never longer than MAX_SECONDS.
        limit = self.max_seconds if limit is None else max(0.05, limit * 0.9 - 0.05)
        limit = min(limit, self.max_seconds)
        move = bot.best_move(board, depth=depth, time_limit=limit)
        check(board, move)
        return [move]

    def _undo(self, args):
        board = self._game(playing=False)
        if len(args) > 1:
            raise _Error(INVALID_COMMAND)
        n = _whole(args[0]) if args else 1
        if n < 1 or n > board.ply:
            raise _Error(f"Unable to undo {n} moves.")
        for _ in range(n):
            board.pop()
        return [game_string(board)]

    def _options(self, args):
        if not args:
            return [self._option_line(key) for key in self.options]
        sub = args[0].lower()
        if sub == "get" and len(args) == 2:
            return [self._option_line(args[1])]
        if sub == "set" and len(args) == 3:
            key = self._option_key(args[1])
            value = args[2]
            if key == "Repetition":
                if value.lower() not in ("true", "false"):
                    raise _Error(f'The value "{value[:40]}" is not valid for the option "{key}".')
                self.options[key] = value.lower() == "true"
                return [self._option_line(key)]
            if not _is_whole(value.removeprefix("-")):
                raise _Error(f'The value "{value[:40]}" is not valid for the option "{key}".')
            self.options[key] = max(bot.MIN_DEPTH, min(int(value), bot.MAX_DEPTH))
            return [self._option_line(key)]
        raise _Error(INVALID_COMMAND)

    def _option_key(self, key: str) -> str:
        if key not in self.options:
            raise _Error(f'The option "{key}" is not valid.')
        return key

    def _option_line(self, key: str) -> str:
        key = self._option_key(key)
        if key == "Repetition":
            return f"{key};bool;{self.options[key]};True"
        return (f"{key};int;{self.options[key]};{bot.DEFAULT_DEPTH};"
                f"{bot.MIN_DEPTH};{bot.MAX_DEPTH}")

    def _perft(self, args):
        board = self._game(playing=False)
        if len(args) != 1 or not _is_whole(args[0].removeprefix("-")):
            raise _Error(INVALID_COMMAND)
        top = int(args[0])
        if top < 0:
            raise _Error(f"Unable to calculate perft({top}).")
        out, deadline = [], time.perf_counter() + self.max_seconds
        for depth in range(top + 1):
            start = time.perf_counter()
            try:
                nodes = perft(depth, board, deadline)
            except TimeoutError:
                # The depths that finished are answered; the rest would take too long.
                out.append(f"err perft({depth}) takes longer than {self.max_seconds:g} s.")
                break
            ms = (time.perf_counter() - start) * 1000
            out.append(f"perft({depth}) = {nodes} in {ms:.0f} ms.")
        return out


def repeated(board: Board) -> bool:
    """Whether the position on ``board`` has now occurred for the third time (H-E1.6):
    the same stacks, side to move and, with the Pillbug, the same piece held (H-M1.12)."""
    key = board.key()
    other = board.copy()
    seen = 1
    while other.history:
        other.pop()
        if other.key() == key:
            seen += 1
            if seen >= 3:
                return True
    return False


def _is_whole(text: str) -> bool:
    """Whether ``text`` is a whole number UHP may send: ASCII digits (``²`` is a digit to
    Python, not to a count), at most 9 of them."""
    return 0 < len(text) <= 9 and text.isascii() and text.isdigit()


def _whole(text: str) -> int:
    """``text`` as a whole number, else the ``err`` of an invalid command."""
    if not _is_whole(text):
        raise _Error(INVALID_COMMAND)
    return int(text)


def _seconds(text: str) -> float:
    # hh:mm:ss, as UHP writes a time (fractions of a second allowed).
    found = re.fullmatch(r"([0-9]{1,4}):([0-5]?[0-9]):([0-5]?[0-9](?:\.[0-9]{1,6})?)", text)
    if not found:
        raise _Error(INVALID_COMMAND)
    hours, minutes, seconds = found.groups()
    return int(hours) * 3600 + int(minutes) * 60 + float(seconds)


def main(stdin: IO[str], stdout: IO[str]) -> int:
    """Run a UHP session on the given streams; 0 when it ends."""
    engine = Engine()

    def say(lines):
        for line in lines:
            stdout.write(line + "\n")
        stdout.flush()

    say(engine.answer("info"))
    for line in stdin:
        say(engine.answer(line))
        if engine.exit_requested:
            break
    return 0
