"""Question banks in the database: import, list, read, search, change, export."""
from __future__ import annotations

from collections import Counter

from sqlalchemy import delete, func, insert, select

from ..questions import QUESTION_TYPES, Question
from ..questions import load_bank, question_type, write_csv
from ..questions.text import clean, fold, slugify
from ..safe_text import control_character
from .database import INTEGRITY_ERRORS, Database
from .models import BankImage, BankQuestionRow, BankRow, GameRow

SAMPLE_BANK_NAME = "Filosofía (muestra)"


def _store_images(session, bank_id: int, images: dict | None) -> None:
    """Keep ``images`` (``{name: (mime, bytes)}``, as a report's) with the bank; an image
    the bank already has (same name: same content) is kept once. Old images stay,
    so that games made from the bank before a replace still show theirs."""
    if not images:
        return
    have = set(session.scalars(select(BankImage.name).where(BankImage.bank_id == bank_id)))
    for name, (mime, data) in images.items():
        if name not in have:
            session.add(BankImage(bank_id=bank_id, name=name, mime=mime, data=data,
                                  size=len(data)))


def save_bank(database: Database, name: str, questions: list[Question],
              replace: bool = False, images: dict | None = None) -> int:
    """Store ``questions`` as bank ``name``; with ``replace`` an existing bank is emptied first.
    ``images``: the file's images (``report.images``) the questions show."""
    with database.session() as session:
        bank = session.scalars(select(BankRow).where(BankRow.name == name)).first()
        if bank is not None and not replace:
            raise ValueError(f"a bank named {name!r} already exists")
        if bank is None:
            bank = BankRow(name=name)
            session.add(bank)
            session.flush()
        else:
            session.execute(delete(BankQuestionRow).where(BankQuestionRow.bank_id == bank.id))
        _insert_questions(session, bank.id, questions)
        _store_images(session, bank.id, images)
        return bank.id


def _insert_questions(session, bank_id: int, questions: list[Question]) -> None:
    # One bulk INSERT, not one ORM object per question: 40,000 rows take ~0.4 s instead
    # of several seconds holding the server's loop while every game waits.
    if questions:
        session.execute(insert(BankQuestionRow), [
            {"bank_id": bank_id, "qid": q.id, "author": q.author, "type": q.type,
             "text": q.text, "answer": q.answer, "notes": q.notes,
             "text_html": q.text_html, "answer_html": q.answer_html} for q in questions])


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
        return bank.name, [_question(q) for q in bank.questions]


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
    report = load_bank(path)
    if report.ok and report.questions:
        try:
            save_bank(database, SAMPLE_BANK_NAME, report.questions)
        except (ValueError, *INTEGRITY_ERRORS):
            # Another process starting at the same time stored it first (the bank's
            # unique name): the sample bank is there, which is all that is asked.
            pass


# -- one bank's questions: read, search, change --------------------------------------

#: The fields of a question, in the order of the CSV bank format.
QUESTION_FIELDS: tuple[str, ...] = ("id", "author", "type", "text", "answer", "notes")
#: Fields that may not be left empty (``id`` is made up when left empty; ``answer``
#: may be left empty in an ``abierta`` question: then the GM judges it).
REQUIRED_FIELDS: tuple[str, ...] = ("author", "type", "text", "answer")
#: Longest value of each field (``id`` and ``author`` are columns of 200 characters).
MAX_LENGTHS: dict[str, int] = {"id": 200, "author": 200, "type": 10,
                               "text": 10000, "answer": 10000, "notes": 10000}
#: Fewer questions than this for an author and type and a game soon runs out of them.
FEW_QUESTIONS = 2


class BankNotFound(LookupError):
    """There is no bank with that id."""


class QuestionIdTaken(ValueError):
    """Another question of the bank already has that id (ids are unique in a bank)."""

    def __init__(self, qid: str):
        super().__init__(f"id {qid!r} is already used in this bank")
        self.qid = qid


def _question(row: BankQuestionRow) -> Question:
    return Question(row.qid, row.author, row.type, row.text, row.answer, row.notes or "",
                    row.text_html or "", row.answer_html or "")


def _bank(session, bank_id: int) -> BankRow:
    bank = session.get(BankRow, bank_id)
    if bank is None:
        raise BankNotFound(f"there is no bank {bank_id}")
    return bank


def _question_row(session, bank_id: int, qid: str) -> BankQuestionRow | None:
    return session.scalars(select(BankQuestionRow).where(
        BankQuestionRow.bank_id == bank_id, BankQuestionRow.qid == qid)).first()


def clean_question_fields(values: dict) -> dict[str, str]:
    """The six fields of a question as typed in a form: strings, trimmed, NFC,
    one kind of line break; the type as its canonical name when it is one
    the game knows (``"V/F"`` → ``"vf"``), else as typed."""
    fields = {name: clean(str(values.get(name) or "")) for name in QUESTION_FIELDS}
    if fields["type"]:
        fields["type"] = question_type(fields["type"]) or fields["type"]
    return fields


def question_problems(fields: dict[str, str], taken_ids=frozenset()) -> dict[str, str]:
    """What is wrong with a question's fields, by field: ``{"author": "empty"}``.

    The problems are ``"empty"`` (a required field; an ``abierta`` question's
    answer may be empty), ``"type"`` (not one of
    vf, quien, abierta), ``"too_long"``, ``"control"`` (a NUL byte or another
    control character, which the database cannot keep) and ``"taken"`` (the id is in
    ``taken_ids``, the ids of the bank's other questions). ``fields`` are
    those of :func:`clean_question_fields`.
    """
    problems: dict[str, str] = {}
    for name in QUESTION_FIELDS:
        value = fields.get(name, "")
        if name in REQUIRED_FIELDS and not value and not (
                name == "answer" and fields.get("type") == "abierta"):
            problems[name] = "empty"
        elif len(value) > MAX_LENGTHS[name]:
            problems[name] = "too_long"
        elif control_character(value) is not None:
            problems[name] = "control"
    if "type" not in problems and fields.get("type") not in QUESTION_TYPES:
        problems["type"] = "type"
    if "id" not in problems and fields.get("id") and fields["id"] in taken_ids:
        problems["id"] = "taken"
    return problems


def new_question_id(author: str, qtype: str, taken) -> str:
    """An id not in ``taken`` for a new question: ``kant-vf-3``."""
    stem = f"{slugify(author) or 'q'}-{qtype}"[:180]
    number = 1
    while f"{stem}-{number}" in taken:
        number += 1
    return f"{stem}-{number}"


def bank_info(database: Database, bank_id: int) -> dict | None:
    """``{"id", "name", "count"}`` of a bank, or None."""
    with database.session() as session:
        bank = session.get(BankRow, bank_id)
        if bank is None:
            return None
        count = session.scalar(select(func.count(BankQuestionRow.id))
                               .where(BankQuestionRow.bank_id == bank_id))
        return {"id": bank.id, "name": bank.name, "count": count}


def find_bank(database: Database, name_or_id: str) -> dict | None:
    """The bank named ``name_or_id`` or, failing that, with that id: ``{"id", "name", "count"}``."""
    with database.session() as session:
        bank_id = session.scalars(select(BankRow.id).where(BankRow.name == name_or_id)).first()
    if bank_id is None and str(name_or_id).strip().isdigit():
        bank_id = int(str(name_or_id).strip())
    return bank_info(database, bank_id) if bank_id is not None else None


def bank_tables(database: Database) -> dict[int, dict[str, dict[str, int]]]:
    """The number of questions per author and type of every bank:
    ``{bank_id: {author: {type: n}}}``, every type present (0 included),
    authors in the order they first appear in the bank, as :func:`coverage`."""
    with database.session() as session:
        rows = session.execute(
            select(BankQuestionRow.bank_id, BankQuestionRow.author, BankQuestionRow.type,
                   func.count(BankQuestionRow.id), func.min(BankQuestionRow.id))
            .group_by(BankQuestionRow.bank_id, BankQuestionRow.author, BankQuestionRow.type)
            .order_by(func.min(BankQuestionRow.id)))
        tables: dict[int, dict[str, dict[str, int]]] = {}
        for bank_id, author, qtype, count, _first in rows:
            row = tables.setdefault(bank_id, {}).setdefault(
                author, {kind: 0 for kind in QUESTION_TYPES})
            row[qtype] = row.get(qtype, 0) + count
        return tables


def few_questions(table: dict[str, dict[str, int]], minimum: int = FEW_QUESTIONS) -> list[tuple]:
    """``(author, type, n)`` for every pair of ``table`` (see :func:`coverage`)
    with fewer than ``minimum`` questions: choosing it in a game soon finds none left."""
    return [(author, kind, counts.get(kind, 0)) for author, counts in table.items()
            for kind in QUESTION_TYPES if counts.get(kind, 0) < minimum]


def search_questions(database: Database, bank_id: int, text: str = "", author: str = "",
                     qtype: str = "") -> list[Question] | None:
    """The questions of a bank that match, in bank order; None when there is no bank.

    ``text`` is looked for in the id, author, text, answer and notes, ignoring case,
    accents and spacing; ``author`` (compared the same way) and ``qtype``
    (exact) narrow the list when not empty.
    """
    found = bank_questions(database, bank_id)
    if found is None:
        return None
    needle, who = fold(text), fold(author)
    result = []
    for q in found[1]:
        if qtype and q.type != qtype:
            continue
        if who and fold(q.author) != who:
            continue
        if needle and not any(needle in fold(value)
                              for value in (q.id, q.author, q.text, q.answer, q.notes)):
            continue
        result.append(q)
    return result


def get_question(database: Database, bank_id: int, qid: str) -> Question | None:
    """Question ``qid`` of a bank, or None."""
    with database.session() as session:
        row = _question_row(session, bank_id, qid)
        return _question(row) if row is not None else None


def question_ids(database: Database, bank_id: int) -> set[str]:
    """The ids of a bank's questions."""
    with database.session() as session:
        return set(session.scalars(select(BankQuestionRow.qid)
                                   .where(BankQuestionRow.bank_id == bank_id)))


def add_question(database: Database, bank_id: int, question: Question) -> None:
    """Add a question at the end of a bank.

    Raises :class:`BankNotFound` or :class:`QuestionIdTaken`.
    """
    add_questions(database, bank_id, [question])


def add_questions(database: Database, bank_id: int, questions: list[Question],
                  images: dict | None = None) -> int:
    """Add questions at the end of a bank, all or none; returns how many.

    Raises :class:`BankNotFound`, or :class:`QuestionIdTaken` for the first id
    already in the bank (or repeated in ``questions``).
    """
    with database.session() as session:
        bank = _bank(session, bank_id)
        taken = set(session.scalars(select(BankQuestionRow.qid)
                                    .where(BankQuestionRow.bank_id == bank_id)))
        for q in questions:
            if q.id in taken:
                raise QuestionIdTaken(q.id)
            taken.add(q.id)
        _insert_questions(session, bank.id, questions)
        _store_images(session, bank.id, images)
        return len(questions)


def update_question(database: Database, bank_id: int, qid: str, question: Question) -> bool:
    """Replace question ``qid`` of a bank by ``question`` (whose id may differ).

    Returns False when the bank has no question ``qid``; raises
    :class:`QuestionIdTaken` when the new id is another question's. Games
    already created keep the copy of the question they were created with.
    """
    with database.session() as session:
        row = _question_row(session, bank_id, qid)
        if row is None:
            return False
        if question.id != qid and _question_row(session, bank_id, question.id) is not None:
            raise QuestionIdTaken(question.id)
        row.qid, row.author, row.type = question.id, question.author, question.type
        if question.text != row.text:
            row.text_html = question.text_html   # edited as plain text: the old form goes
        if question.answer != row.answer:
            row.answer_html = question.answer_html
        row.text, row.answer, row.notes = question.text, question.answer, question.notes
        return True


def delete_question(database: Database, bank_id: int, qid: str) -> bool:
    """Delete question ``qid`` of a bank; False when there is none."""
    with database.session() as session:
        deleted = session.execute(delete(BankQuestionRow).where(
            BankQuestionRow.bank_id == bank_id, BankQuestionRow.qid == qid)).rowcount
        return bool(deleted)


def delete_bank(database: Database, bank_id: int) -> bool:
    """Delete a bank and its questions; False when there is none.

    Games keep their own copy of the questions they were created with, so
    deleting a bank changes no game.
    """
    with database.session() as session:
        session.execute(delete(BankQuestionRow).where(BankQuestionRow.bank_id == bank_id))
        deleted = session.execute(delete(BankRow).where(BankRow.id == bank_id)).rowcount
        return bool(deleted)


def bank_image(database: Database, image_id: int) -> BankImage | None:
    """An image of a bank, by id (its ``bank_id``, ``name``, ``mime``, ``data``), or None."""
    with database.session() as session:
        image = session.get(BankImage, image_id)
        if image is not None:
            session.expunge(image)
        return image


def game_image(database: Database, public_id: str, image_id: int) -> BankImage | None:
    """Image ``image_id`` of a bank when a question of the game ``public_id`` shows it
    (its address ``/g/<public_id>/img/<id>`` is in the game's questions), else None."""
    with database.session() as session:
        questions = session.scalar(select(GameRow.content).where(
            GameRow.public_id == public_id))
    marker = f'/g/{public_id}/img/{image_id}"'
    if not isinstance(questions, list) or not any(
            marker in (q.get("text_html", "") + q.get("answer_html", ""))
            for q in questions if isinstance(q, dict)):
        return None
    return bank_image(database, image_id)


def image_ids(database: Database, bank_name: str | None, names) -> dict[str, int]:
    """``{name: id}`` of the images ``names`` of the bank named ``bank_name``."""
    names = set(names)
    if not names or not bank_name:
        return {}
    with database.session() as session:
        rows = session.execute(select(BankImage.name, BankImage.id).join(
            BankRow, BankRow.id == BankImage.bank_id).where(
            BankRow.name == bank_name, BankImage.name.in_(names)))
        return {name: image_id for name, image_id in rows}


def has_images(database: Database, bank_id: int) -> bool:
    """Whether a bank keeps any image (then it is not deleted while a game made from
    it is in progress: the game shows them)."""
    with database.session() as session:
        return session.scalars(select(BankImage.id).where(
            BankImage.bank_id == bank_id).limit(1)).first() is not None


def export_bank(database: Database, bank_id: int, path_or_file) -> int | None:
    """Write a bank as a CSV bank file (see :func:`facilitator.questions.write_csv`)
    that imports back unchanged; returns how many questions, or None when
    there is no bank."""
    found = bank_questions(database, bank_id)
    if found is None:
        return None
    write_csv(found[1], path_or_file)
    return len(found[1])


def games_using(database: Database, bank_name: str, in_progress: bool = True) -> list[dict]:
    """Games created from the bank named ``bank_name``, newest first:
    ``{"id", "name", "over"}``; only those in progress unless ``in_progress`` is false."""
    query = select(GameRow.id, GameRow.name, GameRow.over).where(GameRow.bank_name == bank_name)
    if in_progress:
        query = query.where(GameRow.over.is_(False))
    with database.session() as session:
        return [{"id": i, "name": n, "over": o}
                for i, n, o in session.execute(query.order_by(GameRow.id.desc()))]
