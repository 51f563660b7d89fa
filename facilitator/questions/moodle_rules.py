"""How a Moodle question (from GIFT or Moodle XML) becomes a game question.

Both Moodle formats share the same model, so they share these rules:

- true/false → ``vf``; the answer is "Verdadero" or "Falso", followed by the
  answer feedback when there is one (it usually says why);
- short answer → ``quien``; the answer lists the accepted answers, " / "
  between them, partial-credit ones marked "(50%)";
- essay → ``abierta``; the answer is the expected answer the teacher wrote
  (general feedback, or "information for graders" in Moodle XML). An essay
  without one is unusable: the GM would have nothing to judge against;
- any other kind is unusable and reported, never silently dropped.

Moodle questions have no author field. The author is the last part of the
current category path: ``$course$/top/Filosofía/Kant`` → ``Kant``. Teachers
already sort Moodle questions into categories, so this costs them nothing.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from .text import slugify

#: Why each kind of Moodle question is not used, by GIFT / Moodle XML type name.
UNUSED_KINDS: dict[str, str] = {
    "multichoice": "multiple-choice",
    "numerical": "numerical",
    "match": "matching",
    "matching": "matching",
    "multianswer": "cloze (embedded answers)",
    "cloze": "cloze (embedded answers)",
    "calculated": "calculated",
    "calculatedsimple": "calculated",
    "calculatedmulti": "calculated multiple-choice",
    "randomsamatch": "random short-answer matching",
    "random": "random",
    "ddwtos": "drag-and-drop",
    "ddimageortext": "drag-and-drop",
    "ddmarker": "drag-and-drop",
    "gapselect": "select-missing-words",
}

NO_AUTHOR = "no author: put the question under a $CATEGORY whose last part names the author"
NO_AUTHOR_XML = "no author: put the question in a category whose last part names the author"
ESSAY_WITHOUT_ANSWER = ("essay question has no expected answer "
                        "(add it as general feedback after ####)")

# Category path parts that are Moodle's own containers, not authors.
_NOT_AUTHORS = {"$course$", "$system$", "$module$", "$cat$", "$coursecategory$", "top", ""}


def unused_kind_message(kind: str) -> str:
    """Why a question of Moodle type ``kind`` is not used by the game."""
    if kind == "description":
        return "a description (text without an answer) is not a question the game can use"
    label = UNUSED_KINDS.get(kind, f'"{kind}"')
    return f"{label} questions are not used by the game"


def author_from_category(path: str | None) -> str | None:
    """The author a category path names: its last part, or None.

    Moodle writes a "/" inside a category name as "//".

    >>> author_from_category("$course$/top/Filosofía/Kant")
    'Kant'
    >>> author_from_category("$course$/top") is None
    True
    """
    if not path:
        return None
    parts = path.replace("//", "\0").split("/")
    last = parts[-1].replace("\0", "/").strip()
    return None if last.casefold() in _NOT_AUTHORS else last


def true_false_answer(correct: bool, *feedback: str) -> str:
    """``Verdadero`` / ``Falso``, then the distinct non-empty feedback texts."""
    label = "Verdadero" if correct else "Falso"
    extra = list(dict.fromkeys(text for text in feedback if text))
    return f"{label} — {' / '.join(extra)}" if extra else label


def short_answer(answers: list[tuple[str, float]]) -> str:
    """The accepted answers of a short-answer question, best first.

    ``answers`` are ``(text, percent)`` pairs; answers worth nothing (or a
    penalty) are not answers the GM should accept, so they are left out.
    """
    accepted = [(text, percent) for text, percent in answers if percent > 0 and text]
    accepted.sort(key=lambda pair: -pair[1])  # stable: file order among equals
    return " / ".join(text if percent >= 100 else f"{text} ({percent:g}%)"
                      for text, percent in accepted)


@dataclass
class Draft:
    """A question read from a Moodle file, before its id is chosen."""

    line: int
    title: str
    author: str
    type: str
    text: str
    answer: str
    notes: str = ""


def choose_ids(drafts: list[Draft], stem: str) -> list[str]:
    """Ids for the drafts: the slugged title when present and unique, else ``stem-line``.

    A title shared by two questions names neither, so both fall back to
    their line number: an id must not depend on which one came first.
    """
    slugs = [slugify(draft.title) for draft in drafts]
    counts = Counter(slug for slug in slugs if slug)
    return [slug if slug and counts[slug] == 1 else f"{stem}-{draft.line}"
            for slug, draft in zip(slugs, drafts)]


def add_drafts(report, drafts: list[Draft], file_name: str) -> None:
    """Give the drafts their ids (title, else FILE-LINE) and add them to ``report``."""
    from pathlib import Path

    from facilitator.engine.questions import Question
    stem = slugify(Path(file_name).stem) or "q"
    for draft, question_id in zip(drafts, choose_ids(drafts, stem)):
        report.add(Question(question_id, draft.author, draft.type, draft.text,
                            draft.answer, draft.notes), draft.line)
