"""Refusals: how the engine says no, naming the rule that was broken."""
from __future__ import annotations


class Refusal(Exception):
    """An action (or a record) that breaks a rule of RULES.md.

    ``rule`` is the rule id (``"R-U2"``, or ``"format"`` for a malformed record
    or action), ``message`` a sentence a teacher understands, and ``action`` the
    0-based index of the refused action in a record, or ``None`` when the record
    is refused before any action. A refused action changes nothing.
    """

    def __init__(self, rule: str, message: str, action: int | None = None):
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message
        self.action = action

    def at(self, index: int | None) -> "Refusal":
        """The same refusal, located at action ``index`` of a record."""
        return Refusal(self.rule, self.message, index)

    def to_dict(self) -> dict:
        """The refusal as ``facilitator replay`` prints it (RULES.md section 11)."""
        return {"error": self.rule, "action": self.action, "message": self.message}


def refuse(rule: str, message: str) -> Refusal:
    """Build a refusal to ``raise``; reads well at the call site: ``raise refuse(...)``."""
    return Refusal(rule, message)
