"""The cards of la colmena: the card and team values, and the shipped deck ``default``.

A deck is 72 cards in file order (C-R2 shuffles that order): 32 task cards
(cartas de tarea), each showing the icons of the teams that can help complete
it, and 40 team cards (cartas de equipo), each showing its team's one icon
and how many cards that team has (C-C1..C-C3). The shipped deck holds only
the teams the manual names, one icon each (C-D1); a printed deck with other
tasks or teams is read from CSV by ``deck_file`` (C-D2, C-D3).

>>> DEFAULT.card("T09").icons
('pencil', 'mortarboard', 'book')
>>> DEFAULT.team("book").count, DEFAULT.team("book").name_es
(5, 'Personal de biblioteca')
"""
from __future__ import annotations

from dataclasses import dataclass

TASK, TEAM = "task", "team"
KINDS = (TASK, TEAM)
TASKS_IN_A_DECK, TEAMS_IN_A_DECK = 32, 40

#: The icons the manual names (C-C4, C-D1), with their names in both languages.
ICON_NAMES = {
    "pencil": {"es": "lápiz", "en": "pencil"},
    "mortarboard": {"es": "birrete", "en": "mortarboard"},
    "briefcase": {"es": "maletín", "en": "briefcase"},
    "book": {"es": "libro", "en": "book"},
    "brain": {"es": "cerebro", "en": "brain"},
}


def icon_name(icon: str) -> dict:
    """The icon's name in Spanish and English; a printed deck's own icon keeps its word.

    >>> icon_name("briefcase")
    {'es': 'maletín', 'en': 'briefcase'}
    >>> icon_name("owl")
    {'es': 'owl', 'en': 'owl'}
    """
    return dict(ICON_NAMES.get(icon, {"es": icon, "en": icon}))


@dataclass(frozen=True, slots=True)
class Card:
    """One card: a task with the icons it shows, or a team card with its one icon and count."""

    id: str
    kind: str
    name: str                 # as the deck file gives it (English in the shipped deck)
    name_es: str              # the Spanish name (the file's ``name_es``, else ``name``)
    icons: tuple[str, ...]
    count: int | None = None  # the printed xN, team cards only

    @property
    def is_task(self) -> bool:
        """Whether this is a task card."""
        return self.kind == TASK

    @property
    def icon(self) -> str:
        """A team card's one icon (a task's first)."""
        return self.icons[0]

    def to_record(self) -> dict:
        """The card as one object of a record's own deck (C-R2)."""
        data = {"id": self.id, "kind": self.kind, "name": self.name,
                "icons": list(self.icons), "count": self.count}
        if self.name_es != self.name:
            data["name_es"] = self.name_es
        return data


@dataclass(frozen=True, slots=True)
class Team:
    """A team of people: its icon (its key in scores and views), names and cards."""

    icon: str
    name: str
    name_es: str
    count: int
    ids: tuple[str, ...]

    def names(self) -> dict:
        """The team's name in both languages."""
        return {"es": self.name_es, "en": self.name}


class Deck:
    """The 72 cards of a game in file order, with their teams (one per icon)."""

    __slots__ = ("cards", "name", "_by_id", "_teams")

    def __init__(self, cards, name: str | None = None):
        self.cards: tuple[Card, ...] = tuple(cards)
        self.name = name                 # "default" for the shipped deck, else None
        self._by_id = {card.id: card for card in self.cards}
        grouped: dict[str, list[Card]] = {}
        for card in self.cards:
            if not card.is_task:
                grouped.setdefault(card.icon, []).append(card)
        self._teams = {icon: Team(icon, cards[0].name, cards[0].name_es, cards[0].count or 0,
                                  tuple(c.id for c in cards))
                       for icon, cards in grouped.items()}

    def __contains__(self, card_id: object) -> bool:
        return card_id in self._by_id

    def card(self, card_id: str) -> Card:
        """The card called ``card_id``; KeyError if the deck has none."""
        return self._by_id[card_id]

    @property
    def ids(self) -> list[str]:
        """Every card id in file order: what the seeded shuffle starts from (C-R2)."""
        return [card.id for card in self.cards]

    @property
    def teams(self) -> list[Team]:
        """The teams in the order their first card comes in the file."""
        return list(self._teams.values())

    def team(self, icon: str) -> Team:
        """The team whose icon is ``icon``; KeyError if no team shows it."""
        return self._teams[icon]

    @property
    def icons(self) -> frozenset[str]:
        """Every team icon of the deck."""
        return frozenset(self._teams)

    def to_record(self):
        """The deck as a record holds it: ``"default"`` or its card list (C-R1, C-R2)."""
        if self.name == "default":
            return "default"
        return [card.to_record() for card in self.cards]


P, M, K, B, R = "pencil", "mortarboard", "briefcase", "book", "brain"

#: The shipped deck, card by card in file order (C-D1, C-R2): id, English name, Spanish
#: name, icons, the printed count of a team card.
DEFAULT_ROWS = (
    ("T01", "Inclusive welcome week", "Semana de bienvenida inclusiva", (P, M, K, B), None),
    ("T02", "Accessible campus guide", "Guía accesible del campus", (P, M, K, B), None),
    ("T03", "Mentoring women researchers", "Mentoría para investigadoras", (P, M, K, R), None),
    ("T04", "Gender-aware information literacy",
     "Alfabetización informacional con perspectiva de género", (P, M, B, R), None),
    ("T05", "Research data training", "Formación en datos de investigación", (P, K, B, R), None),
    ("T06", "Gender studies repository", "Repositorio de estudios de género", (M, K, B, R), None),
    ("T07", "Anti-harassment protocol", "Protocolo contra el acoso", (P, M, K), None),
    ("T08", "Diverse student representation", "Representación estudiantil diversa",
     (P, M, K), None),
    ("T09", "Gender-balanced reading list", "Lista de lecturas con equilibrio de género",
     (P, M, B), None),
    ("T10", "Inclusive language guide", "Guía de lenguaje inclusivo", (P, M, B), None),
    ("T11", "Student research on gender gaps",
     "Investigación del alumnado sobre las brechas de género", (P, M, R), None),
    ("T12", "Participatory action research", "Investigación-acción participativa",
     (P, M, R), None),
    ("T13", "Accessible course materials", "Materiales docentes accesibles", (P, K, B), None),
    ("T14", "Open course materials", "Materiales docentes abiertos", (P, K, B), None),
    ("T15", "Gender impact assessment", "Evaluación del impacto de género", (P, K, R), None),
    ("T16", "Bibliography bias review", "Revisión de sesgos en la bibliografía", (P, B, R), None),
    ("T17", "Study of women authors", "Estudio sobre autoras", (P, B, R), None),
    ("T18", "Quiet study spaces", "Espacios de estudio silenciosos", (M, K, B), None),
    ("T19", "Extended library hours", "Horario ampliado de la biblioteca", (M, K, B), None),
    ("T20", "Student wellbeing survey", "Encuesta de bienestar del alumnado", (M, K, R), None),
    ("T21", "Edit-a-thon on women scientists", "Editatón sobre científicas", (M, B, R), None),
    ("T22", "Institutional gender statistics", "Estadísticas institucionales de género",
     (K, B, R), None),
    ("T23", "Peer tutoring", "Tutoría entre iguales", (P, M), None),
    ("T24", "Timetables for carers", "Horarios para personas cuidadoras", (P, K), None),
    ("T25", "Course reading packs", "Dosieres de lecturas de las asignaturas", (P, B), None),
    ("T26", "Research seminar series", "Ciclo de seminarios de investigación", (P, R), None),
    ("T27", "Student equality committee", "Comisión de igualdad del alumnado", (M, K), None),
    ("T28", "Reading club", "Club de lectura", (M, B), None),
    ("T29", "Research internships", "Prácticas de investigación", (M, R), None),
    ("T30", "Gender-aware collection budget",
     "Presupuesto de la colección con perspectiva de género", (K, B), None),
    ("T31", "Gender-aware funding call", "Convocatoria de financiación con perspectiva de género",
     (K, R), None),
    ("T32", "Research support desk", "Servicio de apoyo a la investigación", (B, R), None),
    ("FAC01", "Faculty", "Profesorado", (P,), 11),
    ("FAC02", "Faculty", "Profesorado", (P,), 11),
    ("FAC03", "Faculty", "Profesorado", (P,), 11),
    ("FAC04", "Faculty", "Profesorado", (P,), 11),
    ("FAC05", "Faculty", "Profesorado", (P,), 11),
    ("FAC06", "Faculty", "Profesorado", (P,), 11),
    ("FAC07", "Faculty", "Profesorado", (P,), 11),
    ("FAC08", "Faculty", "Profesorado", (P,), 11),
    ("FAC09", "Faculty", "Profesorado", (P,), 11),
    ("FAC10", "Faculty", "Profesorado", (P,), 11),
    ("FAC11", "Faculty", "Profesorado", (P,), 11),
    ("STU01", "Students", "Alumnado", (M,), 12),
    ("STU02", "Students", "Alumnado", (M,), 12),
    ("STU03", "Students", "Alumnado", (M,), 12),
    ("STU04", "Students", "Alumnado", (M,), 12),
    ("STU05", "Students", "Alumnado", (M,), 12),
    ("STU06", "Students", "Alumnado", (M,), 12),
    ("STU07", "Students", "Alumnado", (M,), 12),
    ("STU08", "Students", "Alumnado", (M,), 12),
    ("STU09", "Students", "Alumnado", (M,), 12),
    ("STU10", "Students", "Alumnado", (M,), 12),
    ("STU11", "Students", "Alumnado", (M,), 12),
    ("STU12", "Students", "Alumnado", (M,), 12),
    ("MAN01", "Academic Management", "Gestión académica", (K,), 8),
    ("MAN02", "Academic Management", "Gestión académica", (K,), 8),
    ("MAN03", "Academic Management", "Gestión académica", (K,), 8),
    ("MAN04", "Academic Management", "Gestión académica", (K,), 8),
    ("MAN05", "Academic Management", "Gestión académica", (K,), 8),
    ("MAN06", "Academic Management", "Gestión académica", (K,), 8),
    ("MAN07", "Academic Management", "Gestión académica", (K,), 8),
    ("MAN08", "Academic Management", "Gestión académica", (K,), 8),
    ("LIB01", "Library Staff", "Personal de biblioteca", (B,), 5),
    ("LIB02", "Library Staff", "Personal de biblioteca", (B,), 5),
    ("LIB03", "Library Staff", "Personal de biblioteca", (B,), 5),
    ("LIB04", "Library Staff", "Personal de biblioteca", (B,), 5),
    ("LIB05", "Library Staff", "Personal de biblioteca", (B,), 5),
    ("ARD01", "Academic Research and Development", "I+D académica", (R,), 4),
    ("ARD02", "Academic Research and Development", "I+D académica", (R,), 4),
    ("ARD03", "Academic Research and Development", "I+D académica", (R,), 4),
    ("ARD04", "Academic Research and Development", "I+D académica", (R,), 4),
)

#: The shipped deck ``default`` (C-D1).
DEFAULT = Deck((Card(card_id, TEAM if count else TASK, name, name_es, icons, count)
                for card_id, name, name_es, icons, count in DEFAULT_ROWS), name="default")
