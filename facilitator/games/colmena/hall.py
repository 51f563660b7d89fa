"""La colmena for a whole class at once: a table of 2 to 4 per group, all playing one round
in the same room (the rules of section "A class at once (C-A)" of docs/colmena.md).

``ColmenaHall`` is the game's ``HallRules``: pure, as the game is. Its plan seats the
players at tables (C-A2: the fewest tables of at most 4, sizes differing by at most one;
C-A3: one player alone when the teacher asks for a solo seat), drawn with the hall's
seed so that a plan is made again the same (C-A4); each table is an ordinary game of la
colmena. The hall's screens read each table's ``summary``; every player of a table gets
the table's score (C-A7, the game is cooperative).

>>> hall = ColmenaHall()
>>> plan = hall.plan(["Ana", "Bea", "Carla", "Dani", "Eli"], {}, seed=7)
>>> [len(table) for table in plan["tables"]]
[3, 2]
>>> [game["name"] for game in hall.round_games(plan)]
['Mesa 1', 'Mesa 2']
"""
from __future__ import annotations

import random

from ..protocol import GM, HallDefaults, Refusal, Role
from .deal import MAX_PLAYERS
from .events import HandDiscarded
from .record import MAX_NAME
from .scoring import message_of
from .state import OVER

#: The hall's only round (C-A5).
ROUND = 1
#: Players in one hall at most (the store's bound, restated for the form).
MAX_HALL_PLAYERS = 200


def table_sizes(players: int) -> list[int]:
    """The sizes of the tables for ``players`` seated in groups (C-A2): the fewest tables
    of at most 4, sizes differing by at most one, the larger ones first.

    >>> table_sizes(11), table_sizes(5), table_sizes(2)
    ([4, 4, 3], [3, 2], [2])
    """
    if players < 2:
        return []
    tables = -(-players // MAX_PLAYERS)
    small, larger = divmod(players, tables)
    return [small + 1] * larger + [small] * (tables - larger)


def seat_name(name: str) -> str:
    """A player's name as a table shows it: a name longer than a table's seat takes is
    shortened with an ellipsis (C-A1); the hall keeps it whole."""
    name = name.strip()
    return name if len(name) <= MAX_NAME else name[:MAX_NAME - 1] + "…"


def _solo_setting(settings: dict) -> bool:
    unknown = sorted(set(settings) - {"solo"})
    if unknown:
        raise Refusal("format", f"unknown setting {unknown[0]!r} for a hall of la colmena"[:120])
    solo = settings.get("solo", False)
    if not isinstance(solo, bool):
        raise Refusal("C-A3", "the solo seat is asked for or not (true or false)")
    return solo


class ColmenaHall(HallDefaults):
    """How a class plays la colmena at once (the protocol's HallRules)."""

    place_words = "colmenahall.table"
    rounds_named = False
    #: The game is cooperative: the results rank tables, each with its talking penalties.
    ranks = "group"
    columns = ("penalties",)

    def bounds(self) -> dict:
        """The hall's settings: whether one player plays alone (C-A3)."""
        return {"solo": {"default": False,
                         "note": "the last player of the list plays alone (C-A3); the others "
                                 f"sit at tables of 2 to {MAX_PLAYERS} (C-A2), "
                                 f"{MAX_HALL_PLAYERS} players at most (C-A1)"}}

    def plan(self, players: list[str], settings: dict, seed: int) -> dict:
        """The tables for ``players`` (C-A1..C-A4); a Refusal naming the rule when these
        players and settings make none."""
        if not isinstance(settings, dict):
            raise Refusal("format", "a hall's settings are an object")
        solo = _solo_setting(settings)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise Refusal("format", "the hall's seed is a whole number")
        count = len(players)
        if count > MAX_HALL_PLAYERS:
            raise Refusal("C-A1", f"at most {MAX_HALL_PLAYERS} players in one hall; "
                                  f"this list has {count}")
        if solo and count == 2:
            raise Refusal("C-A3", "with a solo seat the others sit at tables of 2 to 4: "
                                  "1 player, or 3 or more")
        if count < (1 if solo else 2):
            raise Refusal("C-A1", "la colmena needs 2 players at least at each table "
                                  f"(or a solo seat); this list has {count}")
        rng = random.Random(seed)
        grouped = list(range(count - 1 if solo else count))
        rng.shuffle(grouped)
        tables, start = [], 0
        for size in table_sizes(len(grouped)):
            tables.append(grouped[start:start + size])
            start += size
        if solo:
            tables.append([count - 1])
        return {"players": [str(p) for p in players], "solo": solo, "seed": seed,
                "tables": tables, "seeds": [rng.randrange(2 ** 31) for _ in tables],
                "deck": "default"}

    def round_games(self, plan: dict) -> list[dict]:
        """One game of la colmena per table, its players by seat and its own seed."""
        names = plan["players"]
        return [{"key": f"{ROUND}.{place}", "place": place, "round": ROUND,
                 "name": f"Mesa {place}", "players": list(table),
                 "seats": {str(player): seat for seat, player in enumerate(table, start=1)},
                 "settings": {"players": [seat_name(names[i]) for i in table]},
                 "content": {"deck": plan["deck"], "seed": seed}}
                for place, (table, seed) in enumerate(zip(plan["tables"], plan["seeds"]),
                                                      start=1)]

    def next_round(self, plan: dict, summaries: dict[str, dict]) -> dict:
        """Refused: a hall of la colmena plays one round (C-A5)."""
        raise Refusal("C-A5", "a hall of la colmena plays one round: every table plays "
                              "its game to the end of the deck or the bell")

    def summary(self, match) -> dict:
        """One table as the hall's screens show it (C-A8): its step and who must act, the
        score so far, the deck, the board, the talking penalties; the result once over."""
        state, deck = match.state, match.deck
        scored = match.score()
        over = state.over
        seat = None if over else state.seat if state.step != "first_task" else state.starter
        completed = [{"card": row["card"], "name": {"es": deck.card(row["card"]).name_es,
                                                    "en": deck.card(row["card"]).name},
                      "points": row["points"]} for row in scored["completed"]]
        # A table plays once its first task is on the board (C-S6); one rung off before
        # that was never played: it has no score and no place (C-A6, C-A7).
        played = bool(state.board)
        done = {tuple(row["at"]) for row in scored["completed"]}
        return {
            "players": list(state.players), "solo": state.solo, "started": match.seq > 0,
            "played": played,
            "step": OVER if over else state.step, "turn": state.turn,
            "seat": seat, "seat_name": state.players[seat - 1] if seat else None,
            "total": scored["total"], "deck": len(state.deck), "board": len(state.board),
            "cells": [_cell(deck, at, card, at in done) for at, card in state.board.items()],
            "open": len(scored["open"]), "completed": completed,
            "hands": [len(hand) for hand in state.hands],
            "penalties": sum(isinstance(event, HandDiscarded) for event in state.history),
            "penalized": [state.players[event.seat - 1] for event in state.history
                          if isinstance(event, HandDiscarded)],
            "over": over, "ended_early": state.ended_early,
            "tier": scored["tier"] if over and played else None,
            "message": message_of(scored["tier"]) if over and played else None,
            "breakdown": scored if over else None,
        }

    def _tables(self, plan: dict, summaries: dict[str, dict]):
        for game in self.round_games(plan):
            summary = summaries.get(game["key"])
            if summary is not None:
                yield game, summary

    def view(self, plan: dict, summaries: dict[str, dict], audience: Role,
             shown: list[str], names: bool = True) -> dict:
        """The teacher's hall view (every table: step, whose turn, score, deck, board,
        penalties, its players) or the projector's (each table's score so far, its board
        drawn small and, once over, its tier; before a table starts, who sits at it, when
        ``names`` allows it: C-Q3): never a hand (C-A8)."""
        teacher = audience.kind == GM
        tables = []
        for game, summary in self._tables(plan, summaries):
            row = {"key": game["key"], "place": game["place"], "name": game["name"],
                   "solo": summary["solo"], "total": summary["total"],
                   "deck": summary["deck"], "board": summary["board"],
                   "over": summary["over"], "ended_early": summary["ended_early"],
                   "tier": summary["tier"], "message": summary["message"],
                   "started": summary.get("started", True),
                   "played": summary.get("played", True)}
            if not teacher:                 # the projector draws each table's board small
                row["cells"] = summary.get("cells", [])
            if teacher:
                row.update({key: summary[key] for key in (
                    "players", "step", "turn", "seat", "seat_name", "open", "hands",
                    "penalties")})
                row["completed"] = len(summary["completed"])
            elif names and not row["started"]:      # who sits where, before play (C-Q3)
                row["players"] = [plan["players"][p] for p in game["players"]]
            tables.append(row)
        return {"teacher": teacher, "round": ROUND, "tables": tables,
                "over": bool(tables) and all(row["over"] for row in tables),
                "players": len(plan["players"]), "shown": list(shown)}

    def standings(self, plan: dict, summaries: dict[str, dict]) -> list[dict]:
        """Every player with their table's score so far, best first, ties sharing a rank
        (C-A7); a table that never started is not ranked."""
        rows = []
        for game, summary in self._tables(plan, summaries):
            if not summary.get("played", True):
                continue
            rows += [{"player": player, "points": summary["total"], "table": game["place"],
                      "over": summary["over"]} for player in game["players"]]
        rows.sort(key=lambda row: (-row["points"], row["table"], row["player"]))
        for row in rows:
            row["rank"] = 1 + sum(other["points"] > row["points"] for other in rows)
        return rows

    def groups(self, plan: dict, summaries: dict[str, dict], lang: str) -> list[dict]:
        """Every table, best first, with the students who sat at it and its talking
        penalties (C-A7: one score per table); a table that did not play is listed last,
        with no score and no place."""
        words = DEBRIEF_WORDS["en" if lang == "en" else "es"]
        rows = []
        for game, summary in self._tables(plan, summaries):
            played = summary.get("played", True)
            rows.append({"place": game["place"], "name": words["table"].format(place=game["place"]),
                         "members": [plan["players"][p] for p in game["players"]],
                         "points": summary["total"] if played else None, "played": played,
                         "over": summary["over"], "penalties": summary.get("penalties", 0)})
        rows.sort(key=lambda row: (not row["played"], -(row["points"] or 0), row["place"]))
        for row in rows:
            row["rank"] = 1 + sum(other["played"] and other["points"] > row["points"]
                                  for other in rows) if row["played"] else None
        return rows

    def bell(self, summary: dict) -> dict | None:
        """The teacher's action that ends a table still on at the bell (C-A6: C-E3's
        ``end_game``, scored as it stands, or, for a table whose first task was never
        laid, ended unplayed: no score, no place); None for a table already over."""
        return None if summary["over"] else {"do": "end_game"}

    def debrief(self, plan: dict, summaries: dict[str, dict], lang: str) -> list[dict]:
        """Per table, the tasks it completed, by name in the page's language, with the
        points each scored, and its talking penalties with who took them: a list the
        teacher can discuss with the class (C-A9)."""
        names = "en" if lang == "en" else "es"
        words = DEBRIEF_WORDS["en" if lang == "en" else "es"]
        parts = []
        for game, summary in self._tables(plan, summaries):
            if not summary.get("played", True):
                # Never played (C-A6): no score, no task, nothing to discuss but that.
                parts.append({"key": game["key"], "title": words["unplayed"].format(
                    place=game["place"]), "items": [], "notes": [], "penalties": 0,
                    "tasks": [], "total": None, "tier": None, "breakdown": []})
                continue
            items = [f"{task['name'][names]} ({_signed(task['points'])})"
                     for task in summary["completed"]] or [words["none"]]
            title = words["title"].format(place=game["place"], total=_signed(summary["total"]))
            penalized = summary.get("penalized", [])
            notes = [words["penalties"].format(
                n=len(penalized), who=", ".join(_counted(penalized)))
                if penalized else words["no_penalty"]]
            parts.append({"key": game["key"], "title": title, "items": items, "notes": notes,
                          "penalties": len(penalized),
                          "tasks": [task["card"] for task in summary["completed"]],
                          "total": summary["total"], "tier": summary["tier"],
                          "breakdown": _breakdown(summary.get("breakdown"))})
        return parts


def _cell(deck, at: tuple[int, int], card_id: str, done: bool) -> list:
    """A card on a table's board as the hall's projector draws it small: ``[x, y, what]``,
    ``what`` a team card's icon, ``"task"`` or ``"done"`` (a task completed); public, as
    the board is (C-V2)."""
    card = deck.card(card_id)
    what = ("done" if done else "task") if card.is_task else card.icons[0]
    return [at[0], at[1], what]


def _breakdown(scored: dict | None) -> list[dict]:
    """A finished table's score line by line (C-X), as the table's tablet writes it: each
    line's catalog key, its count and its points (the page writes them in its words)."""
    if not scored:
        return []
    lines = [("colmena.score.completed", len(scored["completed"]), scored["completed_points"]),
             ("colmena.score.bonuses_n", len(scored["bonuses"]), scored["bonus_points"]),
             ("colmena.score.open", len(scored["open"]), scored["open_points"]),
             ("colmena.score.wrongly", scored["completed_wrongly"],
              scored["completed_wrongly_points"]),
             ("colmena.score.hands", sum(hand["cards"] for hand in scored["hands"]),
              scored["hand_points"])]
    return [{"key": key, "n": count, "points": f"+{points}" if points > 0 else _signed(points)}
            for key, count, points in lines]


#: The debrief's words (C-A9): ``es`` serves both Spanish pages (nothing is addressed).
DEBRIEF_WORDS = {
    "es": {"title": "Mesa {place}: {total} puntos; tareas completadas",
           "none": "Ninguna tarea completada", "table": "Mesa {place}",
           "penalties": "Penalizaciones por hablar: {n} ({who})",
           "no_penalty": "Penalizaciones por hablar: ninguna",
           "unplayed": "Mesa {place}: no se jugó"},
    "en": {"title": "Table {place}: {total} points; tasks completed",
           "none": "No task completed", "table": "Table {place}",
           "penalties": "Talking penalties: {n} ({who})",
           "no_penalty": "Talking penalties: none",
           "unplayed": "Table {place}: not played"},
}


def _counted(names: list[str]) -> list[str]:
    """Each name once, in the order first penalised, with «×n» when more than once."""
    seen: dict[str, int] = {}
    for name in names:
        seen[name] = seen.get(name, 0) + 1
    return [name if n == 1 else f"{name} ×{n}" for name, n in seen.items()]


def _signed(points: int) -> str:
    # The typographic minus, as every page writes a negative number.
    return str(points) if points >= 0 else f"\u2212{-points}"
