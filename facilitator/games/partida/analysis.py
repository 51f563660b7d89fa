"""What a finished (or unfinished) game says: scores through time, cards, who spoke."""
from __future__ import annotations

from collections import Counter, defaultdict

from .game import Game
from .actions import EndTurn
from .numbers import plain
from .scoring import score
from ...i18n.collation import name_key


def timeline(game: Game) -> dict:
    """Each team's score after every turn, with the turns where a round begins.

    Replays the actions that made the final state (undone ones left out), so
    exchanges and adjustments count when they happened.
    """
    replay = Game(game.settings, game.questions.values())
    points = game.settings.points
    labels, scores = [0], {t.number: [0] for t in game.state.teams}
    for action in game.effective_actions():
        replay.play(action)
        if isinstance(action, EndTurn):
            labels.append(replay.state.history[-1]["turn"])
            for team in replay.state.teams:
                scores[team.number].append(plain(score(team, points)))
    boundaries, seen = [], set()
    for entry in replay.state.history:
        if entry["round"] not in seen:
            seen.add(entry["round"])
            boundaries.append({"round": entry["round"], "turn": entry["turn"]})
    # The last point also shows adjustments and exchanges made after the last turn.
    for team in game.state.teams:
        final = plain(score(team, points))
        if scores[team.number][-1] != final:
            labels.append(labels[-1])
            for t in game.state.teams:
                scores[t.number].append(plain(score(t, points)))
            break
    return {"turns": labels, "rounds": boundaries,
            "teams": [{"team": t.number, "name": t.name, "scores": scores[t.number]}
                      for t in game.state.teams]}


def cards_by_author_and_type(game: Game, lang: str = "es") -> dict:
    """The author and question-type cards each team holds, counted by author and by type;
    authors in ``lang``'s alphabetical order."""
    result = []
    for team in game.state.teams:
        authors, types = Counter(), Counter()
        for card in team.cards:
            kind, _, name = card.partition(":")
            (authors if kind == "author" else types)[name] += 1
        result.append({"team": team.number, "name": team.name,
                       "authors": dict(sorted(authors.items(), key=lambda a: name_key(a[0], lang))),
                       "types": dict(sorted(types.items()))})
    return {"teams": result,
            "authors": sorted({a for r in result for a in r["authors"]},
                              key=lambda name: name_key(name, lang)),
            "types": ["vf", "quien", "abierta"]}


def participation(game: Game, lang: str = "es") -> list[dict]:
    """How often each student spoke or represented the team (R-U7, R-U9), per team, each
    team's students in ``lang``'s alphabetical order (:mod:`facilitator.i18n.collation`).

    Students of the class list (settings ``roster``, when the GM pasted one)
    who never spoke are listed with zero, so a teacher sees who never did.
    """
    spoke: dict[int, Counter] = defaultdict(Counter)
    represented: dict[int, Counter] = defaultdict(Counter)
    for entry in game.state.history:
        for team, name in entry["spokespersons"].items():
            spoke[int(team)][name] += 1
        for team, name in entry["representatives"].items():
            represented[int(team)][name] += 1
    roster = game.settings.extra.get("roster")
    rows = []
    for team in game.state.teams:
        names = set(spoke[team.number]) | set(represented[team.number])
        if isinstance(roster, list) and len(roster) >= team.number and isinstance(
                roster[team.number - 1], list):
            names |= {n for n in roster[team.number - 1] if isinstance(n, str)}
        for name in sorted(names, key=lambda name: name_key(name, lang)):
            rows.append({"team": team.number, "team_name": team.name, "student": name,
                         "spoke": spoke[team.number][name],
                         "represented": represented[team.number][name]})
    return rows


def turn_rows(game: Game) -> list[dict]:
    """One row per ended turn: host, mode, challenged team, question, verdicts and points."""
    points = game.settings.points
    values = {"pifie": points.pifie, "consolation": points.consolation,
              "risky_bonus": points.risky_bonus}
    rows = []
    for entry in game.state.history:
        gained: Counter = Counter()
        for team, award in entry["awards"]:
            gained[team] += values.get(award, points.card)
        rows.append({
            "turn": entry["turn"], "round": entry["round"], "host": entry["host"],
            "mode": entry["mode"], "challenged": entry["challenged"],
            "desvio_by": entry["desvio_by"], "seguro_by": entry["seguro_by"],
            "elijo_by": entry["elijo_by"], "author": entry["author"], "type": entry["type"],
            "question": entry["question"], "question_text": entry["question_text"],
            "verdict": entry["verdict"], "written": entry["written"],
            "written_correct": entry["written_correct"], "argument": entry["argument"],
            "spokespersons": entry["spokespersons"],
            "points": {str(t): plain(p) for t, p in sorted(gained.items())},
            "awards": entry["awards"],
        })
    return rows
