"""Refusals: how the engine says no, naming the rule that was broken.

The partida's refusal is the one every game of the facilitator raises
(``facilitator.games.protocol.Refusal``).
"""
from __future__ import annotations

from ..protocol import Refusal

__all__ = ["Refusal", "refuse"]


def refuse(rule: str, message: str) -> Refusal:
    """Build a refusal to ``raise``; reads well at the call site: ``raise refuse(...)``."""
    return Refusal(rule, message)
