"""A game's devices belong to that game only (``LiveGames``' third job): a device the
teacher removed is cut off on every process, a deleted game's connections closed, the
teacher's consoles of a session ended. A mixin of ``LiveGames`` (live/service.py)."""
from __future__ import annotations

import logging

from ..games.protocol import SEAT
from . import rooms

log = logging.getLogger("facilitator.live.service")


class GameDevices:
    """Cutting a game's devices and consoles off (see the module)."""

    def delete_game(self, game_id: int) -> bool:
        """Delete a game: every connection of its rooms (GM, seats, projectors) is
        closed, in every process, and nothing of it stays cached. False if there was no
        such game."""
        from ..store.games import BROKEN_ERRORS
        try:
            loaded = self._loaded(game_id)
        except BROKEN_ERRORS:           # stored broken: its seats counted from its codes
            loaded = None
        seats = _seat_count(loaded[0]) if loaded is not None else self.store.team_count(game_id)
        deleted = self.store.delete_game(game_id)
        self.presence.kick(game_id, None, seats)        # the other processes
        self.close_here(game_id, None, seats)
        return deleted

    def remove_device(self, game_id: int, device: str) -> bool:
        """The GM removes a device: its token is refused from now on, and its connections
        (in every process) are closed. False if there is no such game."""
        if not self.store.remove_device(game_id, device):
            return False
        self.presence.kick(game_id, device)
        self.close_here(game_id, device)
        # The teacher's screens see the seat freed and the device gone now, as after any
        # change of hands (LiveSeats): without this they went on listing the removed
        # device as the seat's holder, and the devices' count could stay as it was when a
        # claim's broadcast had already recorded the count the removal comes back to.
        self.broadcast(game_id)
        return True

    def listen_for_kicks(self) -> None:
        """Close this process's connections when another process deletes a game, removes
        a device or ends console sessions (once per process; nothing to do without
        several processes)."""
        self.presence.listen_for_kicks(self.close_here, self.socketio.start_background_task,
                                       self.close_consoles_here)

    def end_consoles(self, key: str) -> None:
        """Console sessions ended (``key``: one session's, or ``"*"`` for every one): close
        their teacher connections, game consoles and hall views, in every process, at
        once, rather than let them receive every hand until they next send something."""
        self.presence.kick_consoles(key)
        self.close_consoles_here(key)

    def close_consoles_here(self, key: str) -> None:
        """Close this process's teacher connections of the session ``key`` (or of every
        session, ``"*"``), and stop trusting it here without waiting for the database."""
        from ..store.sessions import forget_remembered
        forget_remembered(key)
        for sid in self.consoles.sids(key):
            try:
                self.socketio.server.disconnect(sid, namespace="/", ignore_queue=True)
            except Exception:    # one connection that will not close must not keep the others
                log.exception("could not close console connection %s", sid)

    def close_here(self, game_id: int, device: str | None = None, teams: int = 0) -> None:
        """Close this process's connections of one device of ``game_id``, or, with no
        ``device``, of the whole (deleted) game: whoever is in its rooms, authenticated
        or about to be, and forget everything cached of it."""
        self.heard_change(game_id)      # a removed device: its token is checked afresh
        server = self.socketio.server
        sids = set(self.presence.sids(game_id, device))
        if device is None:
            names = [rooms.gm_room(game_id), rooms.public_room(game_id),
                     rooms.table_room(game_id),
                     *(rooms.team_room(game_id, n) for n in range(1, teams + 1))]
            for room in names:
                sids.update(sid for sid, _ in server.manager.get_participants("/", room))
        for sid in sids:
            try:
                # Only this process's connections: the others close their own (kick).
                server.disconnect(sid, namespace="/", ignore_queue=True)
            except Exception:    # one connection that will not close must not keep the others
                log.exception("could not close connection %s of game %s", sid, game_id)
        if device is None:
            self.forget_game(game_id)

    def forget_game(self, game_id: int) -> None:
        """Drop every cache of a deleted game in this process: snapshots, the devices the
        GMs were sent, presence entries, drafts, what the store holds."""
        self._snapshots.forget(game_id)
        self._read_after.forget(game_id)
        for key in [k for k in self._drafts if k[0] == game_id]:
            self._drafts.pop(key, None)
        with self._reading_guard:
            self._reading.pop(game_id, None)
        self.classes.forget(game_id)
        self._devices_sent.pop(game_id, None)
        self.halls.forget(game_id=game_id)
        with self._devices_lock:
            self._devices_due.pop(game_id, None)
        self.presence.forget_game(game_id)
        self.store.forget_game(game_id)


def _seat_count(match) -> int:
    return sum(1 for role in match.audiences() if role.kind == SEAT)
