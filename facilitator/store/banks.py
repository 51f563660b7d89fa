"""Question banks in the database: import, list, read, export."""
from __future__ import annotations

from collections import Counter

from sqlalchemy import func, select

from ..engine import Question
from .database import Database
from .models import BankQuestionRow, BankRow

SAMPLE_BANK_NAME = "Filosofía (muestra)"


def save_bank(database: Database, name: str, questions: list[Question],
              replace: bool = False) -> int:
    """Store ``questions`` as bank ``name``; with ``replace`` an existing bank is emptied first."""
    with database.session() as session:
        bank = session.scalars(select(BankRow).where(BankRow.name == name)).first()
        if bank is not None and not replace:
            raise ValueError(f"a bank named {name!r} already exists")
        if bank is None:
            bank = BankRow(name=name)
            session.add(bank)
        else:
            bank.questions.clear()
        session.flush()
        for q in questions:
            bank.questions.append(BankQuestionRow(qid=q.id, author=q.author, type=q.type,
                                                  text=q.text, answer=q.answer, notes=q.notes))
        return bank.id


def list_banks(database: Database) -> list[dict]:
    """Every bank with its number of questions."""
    with database.session() as session:
        rows = session.execute(select(BankRow.id, BankRow.name, func.count(BankQuestionRow.id))
                               .outerjoin(BankQuestionRow).group_by(BankRow.id, BankRow.name)
                               .order_by(BankRow.id))
        return [{"id": i, "name": n, "count": c} for i, n, c in rows]


def bank_questions(database: Database, bank_id: int) -> tuple[str, list[Question]] | None:
    """A bank's name and questions, or None."""
    with database.session() as session:
        bank = session.get(BankRow, bank_id)
        if bank is None:
            return None
        return bank.name, [Question(q.qid, q.author, q.type, q.text, q.answer, q.notes or "")
                           for q in bank.questions]


def coverage(questions: list[Question], used: set[str] = frozenset()) -> dict:
    """Unused questions left for each author and type: ``{author: {type: n}}``."""
    left = Counter((q.author, q.type) for q in questions if q.id not in used)
    table: dict[str, dict[str, int]] = {}
    for q in questions:
        table.setdefault(q.author, {"vf": 0, "quien": 0, "abierta": 0})
    for (author, qtype), n in left.items():
        table[author][qtype] = n
    return table


def ensure_sample_bank(database: Database, path: str) -> None:
    """Import the sample bank shipped in ``questions/`` the first time the server starts."""
    with database.session() as session:
        exists = session.scalars(select(BankRow.id).where(BankRow.name == SAMPLE_BANK_NAME)).first()
    if exists is not None:
        return
    from ..questions import load_bank
    report = load_bank(path)
    if report.ok and report.questions:
        save_bank(database, SAMPLE_BANK_NAME, report.questions)
