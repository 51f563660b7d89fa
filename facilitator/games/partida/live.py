"""La partida as the live layer serves it: the game, its clock and what the screens show.

A ``PartidaMatch`` holds the engine's ``Game`` and the screens' state between actions
(``live``): the deliberation clock (R-U5, R-U8, R-G2), the teams' exchange requests
waiting for the GM (R-K6) and the turn whose expected answer the GM shows on the
projector (R-V1). Every screen action goes through ``act``: who may send it (R-G4),
the rules of the live game (a verdict while the writing is open locks it first, R-G1
and R-U5; an undo puts back the clock the screens showed, R-G1; the same name again
changes nothing), and what each audience sees (``screens``).
"""
from __future__ import annotations

from typing import ClassVar

from ..protocol import (CLOCK, GM, SEAT, TABLE, WATCHER, History, Legal, MatchDefaults,
                        Played, Refusal, Role)
from . import actions as a
from . import clock as clocks
from .analysis import cards_by_author_and_type, timeline
from .errors import refuse
from .game import Game
from .resolution import QUESTION, next_step
from .scoring import standings
from .views import gm_view, public_view, question_ref, team_view

#: Actions a team's device may send for itself; the rest are the GM's (R-G4).
TEAM_ACTIONS = frozenset(name for name, cls in a.ACTION_TYPES.items() if not cls.gm_only)

#: The screen actions that change what the screens show and are not in the record: the
#: client events of the same name (docs/protocol.md), the fields each takes, and their
#: flood limits per sender (bucket size, refill a second: docs/deploy.md).
SCREEN_EVENTS = {
    # "+30 s" clicked several times in a row.
    "timer": {"fields": ("op", "seconds"), "limits": {"gm": (30, 5), "device": (10, 1)}},
    # One request per exchange, sent again at most a few times.
    "request_exchange": {"fields": ("id", "give", "take"),
                         "limits": {"gm": (10, 1), "device": (10, 1)}},
    # A GM clearing several requests.
    "dismiss_exchange": {"fields": ("team",), "limits": {"gm": (30, 5), "device": (10, 1)}},
    "show_answer": {"fields": ("show",), "limits": {"gm": (20, 2), "device": (20, 2)}},
}

#: Who speaks or represents a team: the names a class may keep off the public screens.
PEOPLE = ("spokespersons", "representatives")

_GM = Role.gm()


class PartidaMatch(MatchDefaults):
    """One live partida: the engine's game and the screens' state (see the module)."""

    kind: ClassVar[str] = "partida"

    def __init__(self, game: Game, live: dict | None = None):
        self.game = game
        self.timer: dict = {}
        self.requests: list[dict] = []
        self.shown_answer_turn: int | None = None
        self._restore(live or {})

    # -- what the game is now ----------------------------------------------------------

    @property
    def seq(self) -> int:
        """How many record actions were accepted (undo and redo included)."""
        return self.game.seq

    @property
    def over(self) -> bool:
        """Whether the game is over (R-O5, R-G3)."""
        return self.game.state.over

    @property
    def can_undo(self) -> bool:
        """Whether an undo would be accepted (R-G1)."""
        return self.game.can_undo

    @property
    def can_redo(self) -> bool:
        """Whether a redo would be accepted (R-G1)."""
        return self.game.can_redo

    @property
    def live(self) -> dict:
        """The screens' state kept with the game between actions (not in its record)."""
        return {"timer": dict(self.timer), "exchange_requests": list(self.requests),
                "shown_answer_turn": self.shown_answer_turn}

    def deadline(self) -> float | None:
        """When the running clock runs out (epoch seconds), or None."""
        return clocks.deadline_of(self.timer)

    def due(self, now: float) -> dict | None:
        """The clock's action once its deadline has passed: lock the writing (R-U5)."""
        deadline = self.deadline()
        return {"do": "clock"} if deadline is not None and deadline <= now else None

    def winner(self) -> str | None:
        """The team (or tied teams) ranked first, once the game is over."""
        if not self.over:
            return None
        return ", ".join(r["name"] for r in self.game.standings() if r["rank"] == 1)

    def legal(self, by: Role | None = None) -> list[Legal]:
        """What ``by`` may send now (None: every entry, as the GM sees them). A team's
        device asks for an exchange (``request_exchange``), the GM confirms it (R-K6)."""
        found = [Legal(e.do, e.teams, e.options) for e in self.game.legal_actions()]
        if by is None or by.kind == GM:
            return found
        if by.kind != SEAT:
            return []
        return [Legal("request_exchange", e.seats, e.options) if e.do == "exchange" else e
                for e in found if by.seat in e.seats]

    # -- acting --------------------------------------------------------------------------

    def play(self, action: dict, by: Role = _GM) -> list:
        """Accept a record action from ``by`` (the protocol's pure form): its events."""
        self._authorise(a.parse_action(action), by)
        return self.game.play(action)

    def act(self, action: object, by: Role, now: float, before_of=None) -> Played:
        """Accept a screen action from ``by`` at ``now`` (see the module's docstring)."""
        if not isinstance(action, dict):
            raise refuse("format", 'an action is an object: {"do": ...}')
        do = action.get("do")
        if isinstance(do, str) and do in SCREEN_EVENTS:
            return getattr(self, "_" + do)(action, by, now)
        if do == "clock":
            return self._clock(by, now)
        parsed = a.parse_action(action)
        self._authorise(parsed, by)
        played = Played()
        seen = clocks.as_seen(self.timer, self.game, now)
        if self._names_again(parsed):
            self.game.check(parsed)    # refused as it would be (R-T4, R-U9, R-O5), else:
            return Played(changed=False)     # nothing to store, nothing to show anew
        # R-G1: an undo puts the screens back as they were just before the action it
        # takes back; a redo, as they were just before that undo.
        back_to = (self.game.undo_target() if parsed.do == "undo"
                   else self.game.redo_target() if parsed.do == "redo" else None)
        if parsed.do == "verdict" and self.writing_open():
            # The room is about to see the written answer: lock it as its own action
            # first, so undoing the verdict leaves it locked (R-G1, R-U5).
            self._record(a.parse_action({"do": "time_up"}), seen, played)
        self._record(parsed, seen, played)
        kept = before_of(back_to) if back_to is not None and before_of is not None else None
        self.timer = clocks.current(clocks.put_back(kept, now) if kept else self.timer, self.game)
        if isinstance(parsed, a.Exchange):
            self.requests = [r for r in self.requests if r.get("team") != parsed.team]
        return played

    def follow(self, actions: list[dict], live: dict | None = None) -> None:
        """Play record actions another writer stored (accepted already: nobody to ask),
        and take the screens' state stored with them."""
        for action in actions:
            self.game.play(a.parse_action(action))
        if live is not None:
            self._restore(live)

    def _restore(self, live: dict) -> None:
        self.timer = dict(live.get("timer") or {})
        self.requests = list(live.get("exchange_requests") or [])
        self.shown_answer_turn = live.get("shown_answer_turn")

    def _record(self, parsed: a.Action, seen: dict, played: Played) -> None:
        self.game.play(parsed)
        played.actions.append(parsed.to_dict())
        played.befores.append(seen)

    def _authorise(self, parsed: a.Action, by: Role) -> None:
        """R-G4: the GM may do anything; a team's device only its own team's part."""
        if by.kind in (GM, CLOCK):
            return
        if by.kind != SEAT:
            raise Refusal("R-G4", "the projector only watches")
        own = by.seat
        if parsed.do not in TEAM_ACTIONS:
            raise Refusal("R-G4", f"only the GM can do '{parsed.do}'")
        team_field = getattr(parsed, "team", None)
        if team_field is not None and team_field != own:
            raise Refusal("R-G4", f"this device belongs to team {own}: it cannot act for "
                                  f"team {team_field}")
        turn = self.game.state.turn
        if parsed.do == "declare" and turn.host != own:
            raise Refusal("R-G4", f"only the host, team {turn.host}, declares this turn")
        if parsed.do == "choose" and turn.chooser != own:
            raise Refusal("R-G4", f"team {turn.chooser} chooses the author and type this turn")

    def _names_again(self, parsed: a.Action) -> bool:
        """Whether ``parsed`` names the spokesperson or representative already named for
        that team in this turn (it would change nothing)."""
        turn = self.game.state.turn
        if isinstance(parsed, a.Spokesperson):
            return turn.spokespersons.get(parsed.team) == parsed.name
        if isinstance(parsed, a.Representative):
            return turn.representatives.get(parsed.team) == parsed.name
        return False

    def writing_open(self) -> bool:
        """Whether a challenge's secondary team may still write (R-U4, R-U5)."""
        turn = self.game.state.turn
        return clocks.deliberating(self.game) and turn.is_challenge and not turn.locked

    def _timer(self, action: dict, by: Role, now: float) -> Played:
        """A GM timer operation (R-G2); it may reopen the writing (R-U5: ``more_time``)."""
        if by.kind != GM:
            raise Refusal("R-G4", "only the GM controls the timer")
        op, seconds = action.get("op"), action.get("seconds", 30)
        if op not in clocks.OPS:
            raise refuse("format", f"send {{\"op\": one of {', '.join(clocks.OPS)}}}")
        if isinstance(seconds, bool) or not isinstance(seconds, int) or not 0 < seconds <= 3600:
            raise refuse("format", "seconds must be a whole number from 1 to 3600")
        if not clocks.deliberating(self.game):
            raise Refusal("R-U10", "the timer runs only while the teams deliberate")
        played = Played()
        seen = clocks.as_seen(self.timer, self.game, now)
        timer, reopen = clocks.operate(self.timer, self.game, op, now, seconds)
        if reopen:
            given = seconds if op == "extend" else timer["seconds"]
            self._record(a.parse_action({"do": "more_time", "seconds": max(1, int(given))}),
                         seen, played)
        self.timer = timer
        return played

    def _clock(self, by: Role, now: float) -> Played:
        """The deadline passed: lock the written answer (R-U5) and stop the clock."""
        if by.kind not in (CLOCK, GM):
            raise Refusal("R-G4", "only the clock ends the time")
        deadline = self.deadline()
        if deadline is None or deadline > now:
            return Played(changed=False)
        played = Played()
        if clocks.deliberating(self.game) and not self.game.state.turn.locked:
            self._record(a.parse_action({"do": "time_up"}),
                         clocks.as_seen(self.timer, self.game, now), played)
        self.timer = {**self.timer, "state": clocks.IDLE, "deadline": None}
        return played

    def _request_exchange(self, action: dict, by: Role, _now: float) -> Played:
        """A team asks the GM for an exchange (R-K6): checked now, confirmed by the GM."""
        if by.kind != SEAT:
            raise Refusal("R-G4", "exchange requests come from a team's device")
        give, take = action.get("give"), action.get("take")
        exchange = {"do": "exchange", "team": by.seat, "give": give, "take": take}
        self.game.check(exchange)
        self.requests = [r for r in self.requests if r.get("team") != by.seat]
        self.requests.append({"team": by.seat, "give": list(give), "take": take})
        return Played()

    def _dismiss_exchange(self, action: dict, by: Role, _now: float) -> Played:
        """The GM drops a team's exchange request."""
        if by.kind != GM:
            raise Refusal("R-G4", "only the GM dismisses exchange requests")
        team = action.get("team")
        if not isinstance(team, int) or isinstance(team, bool):
            raise refuse("format", 'send {"team": N}')
        self.requests = [r for r in self.requests if r.get("team") != team]
        return Played()

    def _show_answer(self, action: dict, by: Role, _now: float) -> Played:
        """The GM shows (or hides) the turn's expected answer on the projector (R-V1): a
        display choice, not an action of the record; shown only once the verdict is
        given, and no longer once the turn ends (``shown_answer``)."""
        if by.kind != GM:
            raise Refusal("R-G4", "only the GM shows the expected answer")
        show = action.get("show")
        if not isinstance(show, bool):
            raise refuse("format", 'send {"show": true} or {"show": false}')
        turn = self.game.state.turn
        if show and (turn.question is None or turn.verdict is None):
            raise Refusal("R-V1", "the expected answer is shown after the verdict")
        self.shown_answer_turn = turn.number if show else None
        return Played()

    # -- what the screens show -----------------------------------------------------------

    def audiences(self) -> list[Role]:
        """The GM, each team's devices, and the projector (and anyone watching)."""
        return [_GM, *(Role.of_seat(n) for n in range(1, self.game.settings.team_count + 1)),
                Role.watcher()]

    def screens(self, now: float, names: bool = True) -> list[tuple[Role, dict]]:
        """Every audience's view, built together: one public view, one list of legal
        actions, one clock and one set of finale data, shared."""
        game, state = self.game, self.game.state
        legal = [entry.to_dict() for entry in game.legal_actions()]
        ranked = standings(state)
        public = public_view(state, ranked)
        common = {"seq": game.seq, "timer": clocks.public(self.timer, game, now)}
        if state.over:
            # The finale's charts (issue 7): drawn by every screen from this data.
            common["results"] = {"timeline": timeline(game),
                                 "cards": cards_by_author_and_type(game)}
        out = [(_GM, {**common, "view": gm_view(state, public, ranked), "legal": legal,
                      "exchange_requests": list(self.requests), "can_undo": game.can_undo,
                      "can_redo": game.can_redo, "candidates": self._candidates(),
                      "answer_shown": self.shown_answer_turn == state.turn.number})]
        for team in range(1, game.settings.team_count + 1):
            view = team_view(state, team, public)
            out.append((Role.of_seat(team), {
                **common, "view": view if names else _without_names(view, team),
                "legal": team_legal(legal, team),
                "exchange_requests": [r for r in self.requests if r.get("team") == team],
                "can_undo": None, "can_redo": None}))
        watcher = {**common, "view": public if names else _without_names(public, None),
                   "legal": [], "exchange_requests": [], "can_undo": None, "can_redo": None}
        if (shown := self.shown_answer()) is not None:
            watcher["shown_answer"] = shown          # issue 13: the projector only (R-V1)
        out.append((Role.watcher(), watcher))
        return out

    @property
    def history(self) -> History:
        """The game's event log with undo and redo (R-G1)."""
        return self.game.history

    def view(self, audience: Role) -> dict:
        """What ``audience``'s screen shows of the game (R-V1: a team sees its own hand,
        the projector no secret), without the clock (``screen`` adds it at a time)."""
        state = self.game.state
        ranked = standings(state)
        public = public_view(state, ranked)
        if audience.kind == GM:
            return gm_view(state, public, ranked)
        if audience.kind == SEAT:
            return team_view(state, audience.seat, public)
        return public

    def timely(self, now: float) -> dict:
        """What changes in every view with the time alone: the clock as screens show it."""
        return {"timer": clocks.public(self.timer, self.game, now)}

    def screen(self, audience: Role, now: float, names: bool = True) -> dict:
        """One audience's view (a table's shared screen sees what the projector sees)."""
        for role, body in self.screens(now, names):
            if role == audience or (audience.kind == TABLE and role.kind == WATCHER):
                return body
        raise refuse("format", f"this game has no screen for {audience.sent_by}")

    def question_for(self, ref: int, gm: bool):
        """Question ``ref`` (its 1-based place in the game's questions, as the views name
        it) for a screen: any for the GM, else only once it has been read; or None."""
        state = self.game.state
        questions = list(state.questions.values())
        if not 1 <= ref <= len(questions):
            return None
        question = questions[ref - 1]
        if not gm and question.id not in state.used and state.turn.question != question.id:
            return None
        return question if question_ref(state, question.id) == ref else None

    def _candidates(self) -> list[dict]:
        """For the GM at step 5: the unused questions of the chosen author and type."""
        state = self.game.state
        turn = state.turn
        if state.over or next_step(turn).name != QUESTION:
            return []
        return [{"id": q.id, "text": q.text, "answer": q.answer, "notes": q.notes}
                for q in self.game.questions.values()
                if q.author == turn.author and q.type == turn.type and q.id not in state.used]

    def shown_answer(self) -> dict | None:
        """The expected answer the GM shows on the projector, or None: only for the turn
        it was shown in, and only once that turn's verdicts are given (R-V1): the oral
        verdict, and the written one when there is an anticipation. Never for teams."""
        state = self.game.state
        turn = state.turn
        if (self.shown_answer_turn != turn.number or state.over or turn.question is None
                or turn.verdict is None or (turn.has_anticipation and turn.written_correct is None)):
            return None
        q = state.questions[turn.question]
        return {"turn": turn.number, "text": q.answer,
                **({"html": q.answer_html} if q.answer_html else {})}

    # -- the record ----------------------------------------------------------------------

    def record(self, name: str = "") -> dict:
        """The game's ``partida/1`` record."""
        from .record import write_record
        return write_record(self.game, {"name": name} if name else None)

    def summary(self) -> dict:
        """What ``facilitator replay`` prints: the standings and where the game stands."""
        state = self.game.state
        return {"standings": self.game.standings(), "over": state.over,
                "round": state.turn.round, "turn": state.turn.number}

    # -- what a class's term reads of it -------------------------------------------------

    def team_results(self) -> dict:
        """Each team's rank and score (R-P4) with its class list, and who spoke for a team:
        a spokesperson (R-U7) or a representative (R-U9), once per turn so far."""
        game, state = self.game, self.game.state
        ranked = {r["team"]: r for r in game.standings()}
        roster = game.settings.extra.get("roster") or []
        turns = list(state.history)
        if state.turn is not None and not state.over:
            turns.append({"spokespersons": state.turn.spokespersons,
                          "representatives": state.turn.representatives})
        voices = {"spokesperson": [], "representative": []}
        for entry in turns:
            for key, said in (("spokespersons", "spokesperson"),
                              ("representatives", "representative")):
                for team, name in (entry.get(key) or {}).items():
                    voices[said].append((int(team), name))
        return {"over": state.over, "voices": voices, "teams": [
            {"team": t.number, "name": t.name, "rank": ranked[t.number]["rank"],
             "score": float(ranked[t.number]["score"]),
             "roster": list(roster[t.number - 1]) if len(roster) >= t.number
             and isinstance(roster[t.number - 1], list) else []}
            for t in state.teams]}

    def content_used(self) -> set[str]:
        """The ids of the questions read so far (R-Q1: used)."""
        return set(self.game.state.used)


def team_legal(legal: list[dict], team: int) -> list[dict]:
    """The ``legal`` list of team ``team``'s devices: the entries it may send itself, with
    ``exchange`` (the GM's, R-K6) offered as ``request_exchange``, same options."""
    return [{**entry, "do": "request_exchange"} if entry["do"] == "exchange" else entry
            for entry in legal if team in entry["seats"]]


def _without_names(view: dict, keep: int | None) -> dict:
    """``view`` with the spokespersons and representatives of its turn and history left
    out, but for team ``keep``'s own (None: every one left out). ``view`` is not changed."""
    own = None if keep is None else str(keep)

    def kept(entry: dict) -> dict:
        out = dict(entry)
        for field in PEOPLE:
            names = entry.get(field) or {}
            out[field] = {k: v for k, v in names.items() if str(k) == own}
        return out
    return {**view, "turn": kept(view["turn"]), "history": [kept(h) for h in view["history"]]}
