"""Shared helpers that build and play games of the partida, for tests and benchmarks.

- ``make_questions``: a synthetic question bank, every author x question type.
- ``concrete_actions``: every ``LegalAction`` of ``game.legal_actions()`` expanded
  into concrete action dicts, in the record form of RULES.md section 11.
- ``legal_allows``: whether a concrete action dict is covered by the legal list
  (the semantic check, exchanges and free text included).
- ``play_random_game``: a random legal game, bounded in number of actions.
- ``play_full_default_game``: a realistic full game with the default settings
  (6 teams, 6 rounds, ~700 actions), deterministic for a given seed.

Nothing here decides a rule: every action played comes from the engine's own
legal list, so the helpers test ``legal.py`` against ``rules.py`` as they go.
"""
from __future__ import annotations

import random
from collections import Counter
from typing import Callable, Iterable

from facilitator.games.partida import (QUESTION_TYPES, Game, LegalAction, Question, Refusal,
                                parse_settings)

DEFAULT_AUTHORS: tuple[str, ...] = ("Kant", "Marx", "Arendt", "Hume")

TEAM_NAMES: tuple[str, ...] = ("Rojo", "Azul", "Verde", "Oro", "Plata", "Violeta")

FIRST_NAMES: tuple[str, ...] = (
    "Ana", "Luis", "Marta", "Pablo", "Lucía", "Jorge", "Sara", "Diego", "Elena", "Hugo",
    "Irene", "Mario", "Nora", "Óscar", "Paula", "Raúl", "Sofía", "Tomás", "Vera", "Álex",
    "Carla", "Dani", "Eva", "Fran", "Gala", "Iker", "Julia", "Leo", "Mía", "Nico",
    "Olga", "Pedro", "Rosa", "Samu", "Teo", "Uxue",
)

#: Actions that move a turn (or the game) on; a game with none of them left is stuck.
PROGRESS = frozenset({"declare", "desvio", "elijo", "seguro", "choose", "question",
                      "verdict", "pick", "written", "argument", "end_turn", "end_game"})

#: Default weights of ``play_random_game``, by kind of action.
DEFAULT_WEIGHTS: dict[str, float] = {
    # the turn's own flow
    "declare": 10, "choose": 10, "question": 10, "verdict": 10, "pick": 10,
    "written": 10, "argument": 10, "end_turn": 10,
    # deliberation
    "write": 14, "time_up": 1.5, "more_time": 0.7,
    # special cards (R-K3..R-K5)
    "desvio": 3, "seguro": 2, "elijo": 1.5,
    # between turns and informational
    "exchange": 2, "adjust": 0.4, "spokesperson": 1.2, "representative": 0.8,
    "end_game": 0,
}


# --------------------------------------------------------------------------- setup

def make_questions(authors: Iterable[str] = DEFAULT_AUTHORS, per_pair: int = 3) -> list[Question]:
    """``per_pair`` questions for every author x type of ``QUESTION_TYPES``.

    Ids are ``kant-vf-1``; texts and answers are short but plausible per type.
    """
    questions = []
    for author in authors:
        slug = author.lower().replace(" ", "-")
        for qtype in QUESTION_TYPES:
            for n in range(1, per_pair + 1):
                if qtype == "vf":
                    text = f"¿Verdadero o falso? Tesis {n} de {author}."
                    answer = "V" if n % 2 else "F"
                elif qtype == "quien":
                    text, answer = f"¿Quién lo dijo? Cita {n}.", author
                else:
                    text, answer = f"Explica el argumento {n} de {author}.", f"Argumento {n}."
                questions.append(Question(f"{slug}-{qtype}-{n}", author, qtype, text, answer))
    return questions


def team_settings(sizes: Iterable[int]) -> list[dict]:
    """The ``teams`` setting for teams of ``sizes`` members (R-T1..R-T3 are the caller's)."""
    return [{"name": TEAM_NAMES[i], "members": m} for i, m in enumerate(sizes)]


def member_names(team: int, members: int) -> list[str]:
    """Distinct student names for team ``team`` (1-based)."""
    start = (team - 1) * 6
    return [FIRST_NAMES[(start + k) % len(FIRST_NAMES)] for k in range(members)]


def new_game(settings: dict, questions: Iterable[Question]) -> Game:
    """A fresh game from a settings dict (as in a record) and a question list."""
    return Game(parse_settings(settings), list(questions))


# --------------------------------------------------------------- concrete actions

def _member(game: Game, team: int) -> str:
    names = member_names(team, game.state.team(team).members)
    return names[game.state.turn.number % len(names)]


def _write_texts(game: Game) -> list[str]:
    turn = game.state.turn
    authors = sorted({q.author for q in game.questions.values()}) or ["Kant"]
    if turn.type == "vf":
        good = ["V", "F"]
    elif turn.type == "quien":
        good = [turn.author or authors[0], authors[-1]]
    else:
        good = [f"El argumento de {turn.author}: premisas y conclusión."]
    return good + ["  "]              # a blank write is no anticipation (R-U5)


def _gives(cards: list[str], cost: int, limit: int) -> list[list[str]]:
    """Up to ``limit`` distinct multisets of ``cost`` cards among ``cards`` (R-K6)."""
    kinds = sorted(Counter(cards).items())
    room = [0] * (len(kinds) + 1)              # room[i]: cards held of kinds i and after
    for i in range(len(kinds) - 1, -1, -1):
        room[i] = room[i + 1] + kinds[i][1]
    found: list[list[str]] = []

    def fill(i: int, left: int, chosen: list[str]) -> None:
        if len(found) >= limit:
            return
        if left == 0:
            found.append(list(chosen))
            return
        if i == len(kinds) or room[i] < left:
            return
        card, count = kinds[i]
        for take in range(min(count, left), -1, -1):
            fill(i + 1, left - take, chosen + [card] * take)

    fill(0, cost, [])
    return found


def expand(game: Game, legal: LegalAction, *, max_gives: int = 4) -> list[dict]:
    """The concrete action dicts one ``LegalAction`` stands for."""
    do, teams, opts = legal.do, legal.teams, legal.options
    if do == "declare":
        out = []
        for mode, targets in opts["modes"].items():
            if mode == "normal":
                out.append({"do": "declare", "mode": "normal"})
            else:
                out.extend({"do": "declare", "mode": mode, "target": t} for t in targets)
        return out
    if do == "desvio":
        return [{"do": "desvio", "team": team, "target": t}
                for team in teams for t in opts["targets"]]
    if do in ("elijo", "seguro"):
        return [{"do": do, "team": team} for team in teams]
    if do == "choose":
        return [{"do": "choose", "author": c["author"], "type": c["type"]}
                for c in opts["choices"]]
    if do == "question":
        return [{"do": "question", "id": qid} for qid in opts["ids"]]
    if do == "write":
        return [{"do": "write", "team": team, "text": text}
                for team in teams for text in _write_texts(game)]
    if do == "more_time":
        return [{"do": "more_time", "seconds": 30}]
    if do in ("verdict", "argument"):
        return [{"do": do, "result": res} for res in opts["results"]]
    if do == "pick":
        return [{"do": "pick", "team": team, "card": card}
                for team in teams for card in opts["cards"]]
    if do == "written":
        return [{"do": "written", "correct": c} for c in opts["correct"]]
    if do in ("spokesperson", "representative"):
        return [{"do": do, "team": team, "name": _member(game, team)} for team in teams]
    if do == "exchange":
        out = []
        for team in teams:
            for give in _gives(opts["cards"][str(team)], opts["cost"], max_gives):
                out.extend({"do": "exchange", "team": team, "give": give, "take": take}
                           for take in opts["take"])
        return out
    if do == "adjust":
        return [{"do": "adjust", "team": t.number, "points": p, "reason": reason}
                for t in game.state.teams
                for p, reason in ((1, "participación ejemplar"), (-0.5, "ruido en el aula"),
                                  (0.1, "una décima por la letra"))]
    # time_up, end_turn, end_game, undo, redo: no fields
    return [{"do": do}]


def concrete_actions(game: Game, *, max_gives: int = 4) -> list[dict]:
    """Every ``LegalAction`` of ``game.legal_actions()`` as concrete action dicts.

    Exchanges are capped at ``max_gives`` different sets of cards per team.
    """
    out: list[dict] = []
    for legal in game.legal_actions():
        out.extend(expand(game, legal, max_gives=max_gives))
    return out


def legal_allows(game: Game, legal: list[LegalAction], action: dict) -> bool:
    """Whether ``action`` (a well-formed action dict) is covered by ``legal``.

    Free fields (a name, a written text, more seconds, points and reason) are
    not restricted by the legal list; team numbers and every choice are.
    """
    do = action["do"]
    entries = [entry for entry in legal if entry.do == do]
    if not entries:
        return False
    entry = entries[0]
    opts = entry.options
    team = action.get("team")
    if do == "declare":
        targets = opts["modes"].get(action["mode"])
        if targets is None:
            return False
        return action.get("target") is None if action["mode"] == "normal" \
            else action["target"] in targets
    if do == "desvio":
        return team in entry.teams and action["target"] in opts["targets"]
    if do in ("elijo", "seguro", "write", "spokesperson", "representative"):
        return team in entry.teams
    if do == "choose":
        return any(c["author"] == action["author"] and c["type"] == action["type"]
                   for c in opts["choices"])
    if do == "question":
        return action["id"] in opts["ids"]
    if do in ("verdict", "argument"):
        return action["result"] in opts["results"]
    if do == "pick":
        return team in entry.teams and action["card"] in opts["cards"]
    if do == "written":
        return action["correct"] in opts["correct"]
    if do == "exchange":
        if team not in entry.teams or action["take"] not in opts["take"]:
            return False
        give = list(action["give"])
        return (len(give) == opts["cost"]
                and not Counter(give) - Counter(opts["cards"][str(team)]))
    if do == "adjust":
        return game.state.is_team(team) and bool(str(action.get("reason") or "").strip())
    return True


# ------------------------------------------------------------------- random games

def random_action(rng: random.Random, game: Game, *, undo_rate: float = 0.03,
                  weights: dict[str, float] | None = None,
                  actions: list[dict] | None = None) -> dict | None:
    """One concrete legal action chosen at random (kinds weighted), or None if stuck.

    With probability ``undo_rate`` the GM undoes; after an undo a redo is as
    likely as not. ``None`` when no action that moves the game on is left.
    """
    weights = DEFAULT_WEIGHTS if weights is None else {**DEFAULT_WEIGHTS, **weights}
    actions = concrete_actions(game) if actions is None else actions
    by_kind: dict[str, list[dict]] = {}
    for act in actions:
        by_kind.setdefault(act["do"], []).append(act)
    if "undo" in by_kind and rng.random() < undo_rate:
        return {"do": "undo"}
    if "redo" in by_kind and rng.random() < 0.5:
        return {"do": "redo"}
    if not PROGRESS & by_kind.keys():
        return None
    kinds = [k for k in by_kind if k not in ("undo", "redo") and weights.get(k, 0) > 0]
    if not kinds:
        return None
    kind = rng.choices(kinds, weights=[weights[k] for k in kinds])[0]
    return rng.choice(by_kind[kind])


def play_random_game(rng: random.Random, settings: dict, questions: Iterable[Question], *,
                     undo_rate: float = 0.03, finish: bool = True, max_actions: int = 3000,
                     weights: dict[str, float] | None = None,
                     after: Callable[[Game, dict], None] | None = None,
                     before: Callable[[Game, list[dict]], None] | None = None) -> Game:
    """Play a random legal game and return it.

    Every action is drawn from ``concrete_actions(game)``; one the game refuses
    is an engine bug (legal.py and rules.py disagree) and raises AssertionError.
    ``finish``: play until the game is over (or stuck, or ``max_actions``);
    otherwise stop at a random point. ``before(game, actions)`` is called with
    the concrete legal actions before each choice, ``after(game, action)`` after
    each accepted action.
    """
    game = new_game(settings, questions)
    turns = game.settings.rounds * game.settings.team_count
    limit = max_actions if finish else rng.randint(0, min(max_actions, 14 * turns))
    while game.seq < limit and not (finish and game.state.over):
        actions = concrete_actions(game)
        if before is not None:
            before(game, actions)
        action = random_action(rng, game, undo_rate=undo_rate, weights=weights,
                               actions=actions)
        if action is None:
            break
        try:
            game.play(action)
        except Refusal as refusal:
            raise AssertionError(f"legal action {action} refused after {game.seq} actions: "
                                 f"{refusal}") from refusal
        if after is not None:
            after(game, action)
    return game


# -------------------------------------------------------------- a realistic game

DEFAULT_TEAM_SIZES = (5, 5, 5, 5, 4, 4)     # 28 students: R-T1..R-T3


def play_full_default_game(seed: int = 0) -> Game:
    """A full game with the default settings, as a GM would run it; ~700 actions.

    6 teams (5, 5, 5, 5, 4, 4 members), 6 rounds: round 1 normal, rounds 2-6
    simple or risky, round 6 individual (representatives recorded). Each turn
    every team names its spokesperson; challenges get a draft and a final
    written answer (a draft and revisions); verdicts, picks, written judgements and arguments follow
    section 5; special cards are played and exchanged now and then; the GM
    adjusts a score and corrects a verdict (undo, then a new verdict) a few
    times. Ends with the game over.
    """
    rng = random.Random(seed)
    game = new_game({"teams": team_settings(DEFAULT_TEAM_SIZES)}, make_questions(per_pair=4))

    def options(do: str) -> list[dict]:
        return [a for a in concrete_actions(game, max_gives=8) if a["do"] == do]

    def play(action: dict) -> None:
        game.play(action)

    while not game.state.over:
        state, turn = game.state, game.state.turn
        # Between turns: a few exchanges (R-K6), sometimes an adjustment (R-P3).
        for act in options("exchange"):
            if rng.random() < 0.02:
                play(act)
                break
        if rng.random() < 0.2:
            team = rng.randint(1, len(state.teams))
            play({"do": "adjust", "team": team, "points": rng.choice([1, -1, 0.5]),
                  "reason": "actitud durante el turno"})
        # Every team names who speaks for it this turn (R-U7), and in an
        # individual round who represents it (R-U9).
        if game.settings.is_individual(turn.round):
            for team in state.teams:
                play({"do": "representative", "team": team.number,
                      "name": _member(game, team.number)})
        for team in state.teams:
            play({"do": "spokesperson", "team": team.number, "name": _member(game, team.number)})
        # 1. Declare.
        declares = options("declare")
        challenges = [a for a in declares if a["mode"] != "normal"]
        play(rng.choice(challenges or declares))
        # 2-3. Respond and prepare.
        for card, chance in (("desvio", 0.3), ("elijo", 0.15), ("seguro", 0.3)):
            acts = options(card)
            if acts and rng.random() < chance:
                play(rng.choice(acts))
        # 4-5. Choose, then the GM reads a question.
        play(rng.choice(options("choose")))
        play(rng.choice(options("question")))
        # 6. Deliberate: a draft, maybe a final version; time up, maybe more time.
        if turn.is_challenge:
            writes = [a for a in options("write") if a["text"].strip()]
            for _ in range(rng.randint(2, 4)):
                play(rng.choice(writes))
        play({"do": "time_up"})
        if rng.random() < 0.3:
            play({"do": "more_time", "seconds": 30})
            if turn.is_challenge:
                play(rng.choice([a for a in options("write") if a["text"].strip()]))
            play({"do": "time_up"})
        # 7. The verdict; now and then the GM takes it back and judges again (R-G1).
        verdict = rng.choices(["full", "half", "wrong"], weights=[4, 3.5, 2.5])[0]
        play({"do": "verdict", "result": verdict})
        if rng.random() < 0.08:
            play({"do": "undo"})
            if rng.random() < 0.5:
                play({"do": "redo"})
            else:
                play({"do": "verdict", "result": rng.choice(["full", "half", "wrong"])})
        # 8. Resolve, in section 5's order, then end the turn.
        while True:
            kinds = {a["do"]: a for a in concrete_actions(game)}
            if "pick" in kinds:
                play(rng.choice(options("pick")))
            elif "argument" in kinds:
                # The secondary team's speaker argues aloud (R-U7 records who).
                secondary = game.state.turn.secondary
                names = member_names(secondary, game.state.team(secondary).members)
                play({"do": "spokesperson", "team": secondary, "name": rng.choice(names)})
                play({"do": "argument", "result": rng.choice(["good", "poor"])})
            elif "written" in kinds and "end_turn" not in kinds:
                play({"do": "written", "correct": rng.random() < 0.6})
            else:
                if "written" in kinds and rng.random() < 0.5:
                    play({"do": "written", "correct": False})
                play({"do": "end_turn"})
                break
    return game
