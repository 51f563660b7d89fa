"""Another Hive engine as the computer player (H-G9): any program speaking the Universal
Hive Protocol, named by the command that starts it.

The server's operator names the command (``FACILITATOR_HIVE_ENGINE``, e.g.
``nokamute uhp`` or ``facilitator hive uhp``); the app hands it to ``configure`` at
start, and a game whose computer plays at the level ``engine`` asks it for each move.
A move is one short session: the engine is started, given the game
(``newgame <GameString>``), asked ``bestmove time <the level's seconds>`` and told
``exit``; a session that runs past the time and a grace for starting, or answers
anything but a valid move, is ended and answered ``None``, and the caller plays its own
move instead, so a broken or slow engine never holds a game.

>>> engine_command() is None or isinstance(engine_command(), tuple)
True
"""
from __future__ import annotations

import os
import select
import shlex
import signal
import sys
import time

from .board import Board
from .notation import game_string
from .rules import IllegalMove, check

#: Seconds an engine may take to start and to answer, beyond the move's own time.
GRACE = 5.0

_COMMAND: tuple[str, ...] | None = None


def configure(command: str | None) -> None:
    """Name the external engine's command line (None or blank: no engine)."""
    global _COMMAND
    words = shlex.split(command) if command and command.strip() else []
    _COMMAND = tuple(words) or None


def engine_command() -> tuple[str, ...] | None:
    """The external engine's command, as split into words; None when none is named."""
    return _COMMAND


def hms(seconds: float) -> str:
    """A time as UHP writes it, ``hh:mm:ss`` (whole seconds, at least 1)."""
    whole = max(1, int(seconds))
    return f"{whole // 3600:02d}:{whole % 3600 // 60:02d}:{whole % 60:02d}"


def answers(text: str) -> list[list[str]]:
    """An engine's output cut into its answers, each the lines before an ``ok``."""
    out, current = [], []
    for line in text.splitlines():
        if line.strip() == "ok":
            out.append(current)
            current = []
        else:
            current.append(line.strip())
    return out


def engine_move(board: Board, seconds: float, command: tuple[str, ...] | None = None,
                grace: float = GRACE) -> tuple[int, int] | None:
    """The move the external engine (``command``, else the configured one) chooses on
    ``board`` within ``seconds`` (and ``grace`` more to start and answer), checked by the
    rules; None when there is no engine, it fails, it is late, or its move is not valid
    here."""
    command = command or _COMMAND
    if not command or board.over:
        return None
    script = f"newgame {game_string(board)}\nbestmove time {hms(seconds)}\nexit\n"
    output = run(command, script, seconds + grace)
    if output is None:
        return None
    said = answers(output)
    # info, newgame, bestmove: the third answer is the move.
    if len(said) < 3 or len(said[2]) != 1:
        return None
    try:
        return check(board, said[2][0])
    except IllegalMove:
        return None


def run(command: tuple[str, ...], script: str, timeout: float) -> str | None:
    """What ``command`` writes given ``script`` on its input, if it ends within
    ``timeout`` seconds (else it is killed: None; None too when it cannot start).

    The live layer asks for the computer's move in a worker thread, where gevent's own
    ``subprocess`` and ``os`` cannot watch a child (only its main loop can): the process
    is spawned, read and waited for with the operating system's calls as they were before
    gevent patched them, which in a worker thread hold no one else's game."""
    spawn, waitpid, wait_readable = _originals()
    feed_r, feed_w = os.pipe()
    out_r, out_w = os.pipe()
    try:
        pid = spawn(command[0], list(command), dict(os.environ), file_actions=[
            (os.POSIX_SPAWN_DUP2, feed_r, 0), (os.POSIX_SPAWN_DUP2, out_w, 1),
            (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0)])
    except OSError:
        for fd in (feed_r, feed_w, out_r, out_w):
            os.close(fd)
        return None
    os.close(feed_r)
    os.close(out_w)
    deadline = time.monotonic() + timeout
    chunks: list[bytes] = []
    try:
        try:
            # A game's GameString fits a pipe's buffer many times over: this write never
            # waits for the engine to read.
            os.write(feed_w, script.encode("utf-8"))
        except OSError:
            pass        # it stopped reading: what it wrote is still read below
        os.close(feed_w)
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not wait_readable([out_r], [], [], left)[0]:
                os.kill(pid, signal.SIGKILL)
                return None
            chunk = os.read(out_r, 65536)
            if not chunk:
                return b"".join(chunks).decode("utf-8", "replace")
            chunks.append(chunk)
    finally:
        os.close(out_r)
        waitpid(pid, 0)


def _originals():
    # gevent's monkey module, if the server patched the standard library with it (read
    # from sys.modules: this package imports no server library).
    monkey = sys.modules.get("gevent.monkey")
    if monkey is None or not monkey.is_module_patched("os"):
        return os.posix_spawnp, os.waitpid, select.select
    return (monkey.get_original("os", "posix_spawnp"), monkey.get_original("os", "waitpid"),
            monkey.get_original("select", "select"))
