"""The score of a table (C-X1..C-X3) with its breakdown, and the result's tier (C-X4).

Each completed task scores the number of different teams around it (C-X1);
a team with all its cards on the board scores as many points as it has cards
(C-X2); each task on the board not completed costs 2 and each card in a hand
1 (C-X3, C-Z9). Tasks completed wrongly cannot happen here (C-P8): their
count is shown, always 0. The tiers are whole tens, 30 itself the top one,
and a negative total is in the lowest (C-X4, C-Z9).

>>> tier_of(30), tier_of(29), tier_of(10), tier_of(-4)
('top', 'hopeful', 'good', 'do_better')
"""
from __future__ import annotations

from collections import Counter

from .board import tasks_on, teams_around
from .deck import Deck
from .state import State

OPEN_TASK_POINTS = -2
HAND_CARD_POINTS = -1

#: Each tier with the lowest total that reaches it, best first.
TIERS = (("top", 30), ("hopeful", 20), ("good", 10), ("do_better", None))

#: The result's message per tier: ``es`` speaks as the facilitator's other Spanish screens
#: (ustedes), ``es-ES`` is the manual's own text (vosotros), ``en`` ours.
MESSAGES = {
    "top": {
        "es": "¡Máxima puntuación! Son unas gestoras de proyectos inclusivos excelentes. "
              "Han creado una comunidad fuerte, accesible, participativa e inclusiva. "
              "¡Felicidades!",
        "es-ES": "¡Máxima puntuación! Sois unas gestoras de proyectos inclusivos excelentes. "
                 "Habéis creado una comunidad fuerte, accesible, participativa e inclusiva. "
                 "¡Felicidades!",
        "en": "Top score! You are excellent inclusive project managers: you built a strong, "
              "accessible, participatory, inclusive community. Congratulations!",
    },
    "hopeful": {
        "es": "¡Un futuro esperanzador! Sin duda alguna, están en el camino correcto para crear "
              "un proyecto inclusivo de referencia. Les falta un poco más de planificación y "
              "serán una referencia. ¡Adelante!",
        "es-ES": "¡Un futuro esperanzador! Sin duda alguna, estáis en el camino correcto para "
                 "crear un proyecto inclusivo de referencia. Os falta un poco más de "
                 "planificación y seréis una referencia. ¡Adelante!",
        "en": "A hopeful future! You are on the right path to a model inclusive project. "
              "A little more planning and you will be one. Go on!",
    },
    "good": {
        "es": "¡Buen trabajo! Pese a las dificultades, han creado una comunidad inclusiva y "
              "participativa compuesta por varios perfiles. Aún queda camino por recorrer, "
              "pero sin duda, tienen claro el objetivo. ¡No desfallezcan!",
        "es-ES": "¡Buen trabajo! Pese a las dificultades, habéis creado una comunidad inclusiva "
                 "y participativa compuesta por varios perfiles. Aún queda camino por recorrer, "
                 "pero sin duda, tenéis claro el objetivo. ¡No desfallezcáis!",
        "en": "Good work! Despite the difficulties you built an inclusive, participatory "
              "community of many profiles. There is a way to go, but you know the goal. "
              "Don't give up!",
    },
    "do_better": {
        "es": "¡Pueden hacerlo mejor! Crear una comunidad fuerte inclusiva es un camino duro y "
              "requiere planificación. ¡Nadie dijo que fuera fácil!",
        "es-ES": "¡Podéis hacerlo mejor! Crear una comunidad fuerte inclusiva es un camino duro "
                 "y requiere planificación. ¡Nadie dijo que fuera fácil!",
        "en": "You can do better! Building a strong inclusive community is hard and needs "
              "planning. Nobody said it would be easy!",
    },
}


def tier_of(total: int) -> str:
    """The tier of a total after penalties (C-X4)."""
    for name, lowest in TIERS:
        if lowest is None or total >= lowest:
            return name
    raise AssertionError("the last tier takes every total")  # pragma: no cover


def message_of(tier: str) -> dict:
    """The tier's message in ``es``, ``es-ES`` and ``en``."""
    return dict(MESSAGES[tier])


def score(state: State, deck: Deck) -> dict:
    """The score as it stands, with its breakdown: what it would be if the game ended now."""
    board = state.board
    completed, open_tasks = [], []
    for at, card_id in tasks_on(deck, board):
        around = teams_around(board, at)
        if len(around) == 4:
            teams = len({deck.card(team).icon for team in around})
            completed.append({"card": card_id, "at": list(at), "teams": teams, "points": teams})
        else:
            open_tasks.append({"card": card_id, "at": list(at), "sides": len(around),
                               "points": OPEN_TASK_POINTS})
    on_board = Counter(deck.card(c).icon for c in board.values() if not deck.card(c).is_task)
    teams = [{"team": team.icon, "name": team.names(), "cards": team.count,
              "on_board": on_board[team.icon],
              "points": team.count if on_board[team.icon] == team.count else 0}
             for team in deck.teams]
    bonuses = [row for row in teams if row["points"]]
    hands = [{"seat": seat, "cards": len(hand), "points": HAND_CARD_POINTS * len(hand)}
             for seat, hand in enumerate(state.hands, start=1)]
    parts = {
        "completed_points": sum(row["points"] for row in completed),
        "bonus_points": sum(row["points"] for row in bonuses),
        "open_points": sum(row["points"] for row in open_tasks),
        "completed_wrongly_points": 0,
        "hand_points": sum(row["points"] for row in hands),
    }
    total = sum(parts.values())
    return {"completed": completed, "completed_points": parts["completed_points"],
            "teams": teams, "bonuses": bonuses, "bonus_points": parts["bonus_points"],
            "open": open_tasks, "open_points": parts["open_points"],
            "completed_wrongly": 0, "completed_wrongly_points": 0,
            "hands": hands, "hand_points": parts["hand_points"],
            "total": total, "tier": tier_of(total)}
