"""A toy second game that proves the seams (issue 35): two players take turns adding 1
or 2 to a counter; whoever reaches the target wins. It knows nothing of Flask,
Socket.IO or SQLAlchemy, and the facilitator knows it only through the protocol:
plugged in with ``FACILITATOR_GAMES=counter=counter_game``, it runs through the real
live layer, store and a browser page (tests/live/test_toy_game.py).

Rules: C1 only the player whose turn it is adds; C2 adds 1 or 2; C3 over at the target.
"""
from __future__ import annotations

from pathlib import Path

from facilitator.games.protocol import (GM, SEAT, HallDefaults, History, KindDefaults, Legal,
                                        MatchDefaults, Played, Refusal, Role)

FORMAT = "counter/1"


class CounterMatch(MatchDefaults):
    """One game of the counter."""

    kind = "counter"
    personal_seats = True

    def __init__(self, target: int = 10, names=("Jugador 1", "Jugador 2")):
        self.target = target
        self.names = tuple(names)
        # The protocol's event log with undo and redo (an add's event is the number added).
        self.history = History()

    # the state: the fold of the events of the actions not undone
    @property
    def count(self) -> int:
        return sum(self.history.events())

    @property
    def turn(self) -> int:
        return 1 + len(self.history.done) % 2

    log = property(lambda self: self.history.log)
    seq = property(lambda self: self.history.seq)
    over = property(lambda self: self.count >= self.target)
    can_undo = property(lambda self: self.history.can_undo)
    can_redo = property(lambda self: self.history.can_redo)
    live: dict = {}

    def act(self, action, by: Role, now: float, before_of=None) -> Played:
        """Take ``action`` from ``by``: add (C1-C3), or the GM's undo and redo."""
        if not isinstance(action, dict):
            raise Refusal("format", "an action is an object")
        do = action.get("do")
        if do in ("undo", "redo"):
            if by.kind != GM:
                raise Refusal("C1", "only the teacher undoes")
            if not (self.can_undo if do == "undo" else self.can_redo):
                raise Refusal("C1", f"nothing to {do}")
            (self.history.undo if do == "undo" else self.history.redo)({"do": do})
            return Played([{"do": do}], [None])
        if do != "add":
            raise Refusal("format", f"unknown action {do!r}")
        if self.over:
            raise Refusal("C3", "the game is over")
        if by.kind == SEAT and by.seat != self.turn:
            raise Refusal("C1", f"it is player {self.turn}'s turn")
        if by.kind not in (GM, SEAT):
            raise Refusal("C1", "only the players add")
        n = action.get("n")
        if n not in (1, 2):
            raise Refusal("C2", "add 1 or 2")
        data = {"do": "add", "n": n}
        self.history.apply(data, [n])
        return Played([data], [None])

    def follow(self, actions, live=None) -> None:
        """Play actions another writer stored."""
        for action in actions:
            self.act(action, Role.gm(), 0.0)

    def legal(self, by=None) -> list[Legal]:
        found = [] if self.over else [Legal("add", (self.turn,), {"n": [1, 2]})]
        if by is None or by.kind == GM:
            return found + ([Legal("undo")] if self.can_undo else [])
        return [e for e in found if e.allows(by)]

    def play(self, action, by: Role) -> list:
        """The action's events (the record's actions it appended), or a Refusal."""
        return self.act(action, by, 0.0).actions

    def view(self, audience: Role) -> dict:
        """The count, the target and whose turn: the same for everyone (no secret)."""
        return dict(self.screen(audience, 0.0)["view"])

    def audiences(self) -> list[Role]:
        return [Role.gm(), Role.of_seat(1), Role.of_seat(2), Role.table(), Role.watcher()]

    def seats(self) -> list[dict]:
        """The two players' seats, as a table's chooser lists them."""
        return [{"seat": n, "name": name, "as": None} for n, name in enumerate(self.names, 1)]

    def screens(self, now: float, names: bool = True):
        view = {"count": self.count, "target": self.target, "turn": self.turn, "over": self.over,
                "winner": self.winner()}
        return [(role, {"seq": self.seq, "view": {**view, "me": role.seat},
                        "legal": [e.to_dict() for e in self.legal(role)],
                        "can_undo": self.can_undo if role.kind == GM else None})
                for role in self.audiences()]

    def screen(self, audience: Role, now: float, names: bool = True) -> dict:
        return dict(self.screens(now, names))[audience]

    def timely(self, now: float) -> dict:
        return {}

    def deadline(self):
        return None

    def due(self, now):
        return None

    def winner(self):
        return f"Jugador {2 - len(self.history.done) % 2}" if self.over else None

    def record(self) -> dict:
        return {"format": FORMAT, "settings": {"target": self.target}, "actions": list(self.log)}

    def summary(self) -> dict:
        return {"count": self.count, "over": self.over, "winner": self.winner()}


class CounterKind(KindDefaults):
    """The counter for the registry: everything it does not declare is KindDefaults'."""

    name = "counter"
    record_format = FORMAT
    content_key = None
    events: dict = {}
    seat_rule = "K1"
    #: The folder its screens' scripts are served from (``/games/counter/<file>``).
    screens_folder = Path(__file__).resolve().parent / "counter_screens"
    #: Its one download: the count, as a table (what any game's downloads prove).
    downloads = {"standings.csv": "text/csv"}

    def settings_bounds(self) -> dict:
        return {"target": {"default": 10, "min": 3, "max": 50}}

    def download(self, match, file, lang):
        if file != "standings.csv":
            return super().download(match, file, lang)
        return "marcador", f"count,target,winner\r\n{match.count},{match.target}," \
                           f"{match.winner() or ''}\r\n"

    def new(self, settings: dict, *_content, **_more) -> CounterMatch:
        target = settings.get("target", 10) if isinstance(settings, dict) else None
        if not isinstance(target, int) or not 3 <= target <= 50:
            raise Refusal("C3", "the target is a whole number from 3 to 50")
        names = settings.get("names") or ("Jugador 1", "Jugador 2")
        return CounterMatch(target, names)

    def stored(self, match: CounterMatch):
        named = {} if match.names == ("Jugador 1", "Jugador 2") else {"names": list(match.names)}
        return {"target": match.target, **named}, []

    def load(self, settings, content, actions, live) -> CounterMatch:
        match = self.new(settings)
        match.follow(actions)
        return match

    def replay(self, record: dict, read_beside=None) -> CounterMatch:
        match = self.new(record.get("settings") or {})
        for index, action in enumerate(record.get("actions") or []):
            try:
                match.act(action, Role.gm(), 0.0)
            except Refusal as refusal:
                raise refusal.at(index) from None
        return match

    def record(self, settings, content, actions, name: str = "") -> dict:
        return {"format": FORMAT, "name": name, "settings": settings, "actions": actions}


class CounterHall(HallDefaults):
    """The counter for a whole class at once: pairs, two rounds (H1: a round follows
    when every game of the last one is over; H2: two rounds at most)."""

    place_words = "hall.table"
    rounds_named = True

    def bounds(self) -> dict:
        return {"target": {"default": 5, "min": 3, "max": 50}}

    def plan(self, players, settings, seed):
        if len(players) < 2:
            raise Refusal("H1", "two players at least")
        return {"players": list(players), "target": settings.get("target", 5), "rounds": 1}

    def _pairs(self, plan):
        order = list(range(len(plan["players"])))
        if plan["rounds"] == 2:
            order = order[1:] + order[:1]
        return [order[i:i + 2] for i in range(0, len(order) - 1, 2)]

    def round_games(self, plan):
        r = plan["rounds"]
        return [{"key": f"{r}.{n}", "place": n, "round": r, "name": f"Ronda {r}, mesa {n}",
                 "players": pair,
                 "seats": {str(player): seat for seat, player in enumerate(pair, start=1)},
                 "settings": {"target": plan["target"],
                              "names": [plan["players"][i] for i in pair]}, "content": None}
                for n, pair in enumerate(self._pairs(plan), start=1)]

    def next_round(self, plan, summaries):
        if plan["rounds"] >= 2:
            raise Refusal("H2", "two rounds at most")
        if not all(s["over"] for s in summaries.values()):
            raise Refusal("H1", "a game of the round is still on")
        return {**plan, "rounds": plan["rounds"] + 1}

    def summary(self, match):
        return {"count": match.count, "turn": match.turn, "over": match.over,
                "winner": match.winner(),
                "winner_seat": 2 - len(match.history.done) % 2 if match.over else None}

    def view(self, plan, summaries, audience, shown, names=True):
        return {"round": plan["rounds"], "games": summaries, "shown": list(shown),
                "teacher": audience.kind == GM}

    def standings(self, plan, summaries):
        points = dict.fromkeys(range(len(plan["players"])), 0)
        for r in range(1, plan["rounds"] + 1):
            for game in self.round_games({**plan, "rounds": r}):
                summary = summaries.get(game["key"]) or {}
                if summary.get("winner_seat"):
                    points[game["players"][summary["winner_seat"] - 1]] += 1
        order = sorted(points, key=lambda p: -points[p])
        return [{"player": p, "points": points[p],
                 "rank": 1 + sum(points[q] > points[p] for q in points)} for p in order]

    def bell(self, summary):
        return None if summary["over"] else {"do": "add", "n": 1}


KIND = CounterKind()
KIND.hall = CounterHall()
