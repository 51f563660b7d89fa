"""A question of a bank, as every reader writes it and a game deals it."""
from __future__ import annotations

from dataclasses import dataclass

#: The question types of the game, in the order the interface lists them.
QUESTION_TYPES: tuple[str, ...] = ("vf", "quien", "abierta")


@dataclass(frozen=True, slots=True, weakref_slot=True)   # shared by games: store.games
class Question:
    """One question of a bank: author (or thematic unit), type, text, expected answer.

    Only the teacher ever sees ``answer`` and ``notes``.
    """

    id: str
    author: str
    type: str
    text: str
    answer: str
    notes: str = ""
    #: The formatted forms of ``text`` and ``answer`` (sanitised HTML, images as
    #: ``image:NAME`` in a bank, as a URL of the facilitator in a game), or empty:
    #: ``text`` and ``answer`` are always the plain text every other use reads.
    text_html: str = ""
    answer_html: str = ""

    def to_dict(self) -> dict:
        """The question as it is written in a ``partida/1`` record."""
        data = {"id": self.id, "author": self.author, "type": self.type,
                "text": self.text, "answer": self.answer}
        if self.notes:
            data["notes"] = self.notes
        if self.text_html:
            data["text_html"] = self.text_html
        if self.answer_html:
            data["answer_html"] = self.answer_html
        return data
