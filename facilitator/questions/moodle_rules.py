"""How a Moodle question (from GIFT or Moodle XML) becomes a game question.

Both Moodle formats share the same model, so they share these rules:

- true/false → ``vf``; the answer is "Verdadero" or "Falso", followed by the
  feedback meant for the right choice when there is one (it usually says why);
- short answer → ``quien`` when it asks who said or wrote something, or when
  an accepted answer names an author of the bank; else ``abierta``, with the
  accepted answers as the expected answer (:func:`resolve_short_answers`;
  ``short_answer="quien"`` or ``"abierta"`` forces one of them). Accepted
  answers are listed " / " between them, partial-credit ones marked "(50%)";
- essay → ``abierta``; the answer is the expected answer the teacher wrote
  (general feedback, or "information for graders" in Moodle XML). An essay
  without one is kept with an empty answer: the GM judges it;
- any other kind is unusable and reported, never silently dropped.

Moodle questions have no author field. The author is the last part of the
current category path: ``$course$/top/Filosofía/Kant`` → ``Kant``. Teachers
already sort Moodle questions into categories, so this costs them nothing.
A question with no category, or in one of Moodle's default categories
("Default for C1", "Por defecto en Filosofía"), takes the author given at
import (``ReadOptions.author``); without one it is unusable.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from .messages import DEFAULT_LANGUAGE, message
from .text import clean, fold, slugify

#: The message key naming each kind of Moodle question the game does not use,
#: by GIFT / Moodle XML type name (:mod:`.messages`: "Opción múltiple"...).
UNUSED_KINDS: dict[str, str] = {
    "multichoice": "kind.multichoice",
    "numerical": "kind.numerical",
    "match": "kind.match",
    "matching": "kind.match",
    "multianswer": "kind.multianswer",
    "cloze": "kind.multianswer",
    "calculated": "kind.calculated",
    "calculatedsimple": "kind.calculated",
    "calculatedmulti": "kind.calculatedmulti",
    "randomsamatch": "kind.randomsamatch",
    "random": "kind.random",
    "ddwtos": "kind.dragdrop",
    "ddimageortext": "kind.dragdrop",
    "ddmarker": "kind.dragdrop",
    "gapselect": "kind.gapselect",
}

NO_AUTHOR = message("en", "no_author.gift")
NO_AUTHOR_XML = message("en", "no_author.xml")

#: How short-answer questions are typed: decided per question, or all one type.
SHORT_ANSWER_MODES: tuple[str, ...] = ("auto", "quien", "abierta")

# Category path parts that are Moodle's own containers, not authors.
_NOT_AUTHORS = {"$course$", "$system$", "$module$", "$cat$", "$coursecategory$", "top", ""}
# The default category Moodle makes for every context, in the languages of
# its language packs ("Default for C1", "Por defecto en Filosofía"...),
# compared with fold() (no accents, no case).
_DEFAULT_CATEGORY = re.compile(
    r"^(default for|por defecto en|por defecto para|defaut pour|standard fur|"
    r"predefinito per|padrao para|per defecte a|standaard voor)\b")

# A question that asks who said or wrote something, compared with fold().
_ASKS_WHO = re.compile(
    r"\bquien(es)?\s+(lo\s+|la\s+|las\s+|los\s+|le\s+)?(dijo|dice|decia|habria dicho|"
    r"escribio|escribe|afirmo|afirma|afirmaba|sostuvo|sostiene|sostenia|defendio|defiende|"
    r"penso|pensaba|declaro|proclamo|formulo|acuno|pronuncio|firmo|publico|"
    r"es (el|la) autor|fue (el|la) autor|es autor|fue autor)"
    r"|\bde quien (es|son|era|fue|eran|fueron)\b"
    r"|\ba quien (pertenece|se atribuye|se debe|corresponde)"
    r"|\b(que|cual|que otro) (autor|autora|filosofo|filosofa|pensador|pensadora|escritor|"
    r"escritora)\b"
    r"|\bwho (said|says|wrote|writes|claimed|claims|argued|argues|stated|states|asserted|"
    r"asserts|held|holds|declared|coined|proposed|is the author|was the author|defended)\b"
    r"|\bwhose (words|quote|quotation|phrase|line|sentence|saying|claim|thesis)\b"
    r"|\b(which|what) (author|philosopher|thinker|writer)\b")


@dataclass(frozen=True)
class ReadOptions:
    """How a Moodle file is read: the author of questions with no category,
    how short answers are typed (``auto``, ``quien`` or ``abierta``) and the
    language of the messages (``"es"`` or ``"en"``)."""

    author: str | None = None
    short_answer: str = "auto"
    lang: str = DEFAULT_LANGUAGE
    #: The teacher's corrections in the import preview, by the line where the
    #: question starts: its author, its type (vf, quien, abierta).
    authors: dict = field(default_factory=dict, compare=False)
    types: dict = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        if self.short_answer not in SHORT_ANSWER_MODES:
            raise ValueError(f"short_answer is one of {', '.join(SHORT_ANSWER_MODES)}")
        object.__setattr__(self, "author", clean(self.author or "") or None)


def unused_kind_message(kind: str, lang: str = DEFAULT_LANGUAGE) -> str:
    """Why a question of Moodle type ``kind`` is not used by the game, in ``lang``."""
    if kind == "description":
        return message(lang, "unused.description")
    if kind not in UNUSED_KINDS:
        return message(lang, "unused.other", kind=kind)
    return message(lang, "unused.kind", label=message(lang, UNUSED_KINDS[kind]))


def is_default_category(name: str) -> bool:
    """Whether a category name is one Moodle made itself ("Default for C1").

    >>> is_default_category("Por defecto en Filosofía"), is_default_category("Kant")
    (True, False)
    """
    return bool(_DEFAULT_CATEGORY.match(fold(name)))


def author_from_category(path: str | None) -> str | None:
    """The author a category path names: its last part (NFC), or None.

    Moodle writes a "/" inside a category name as "//". Moodle's own
    containers and default categories name no author.

    >>> author_from_category("$course$/top/Filosofía/Kant")
    'Kant'
    >>> author_from_category("$course$/top") is None
    True
    >>> author_from_category("$course$/top/Default for C1") is None
    True
    """
    if not path:
        return None
    parts = path.replace("//", "\0").split("/")
    last = clean(parts[-1].replace("\0", "/"))
    if last.casefold() in _NOT_AUTHORS or is_default_category(last):
        return None
    return last


def true_false_answer(correct: bool, right_feedback: str = "") -> str:
    """``Verdadero`` / ``Falso``, then the feedback shown to whoever chose it.

    Only that feedback: the one for the wrong choice ("Falso: sí salió...")
    would tell the GM the opposite of the answer.
    """
    label = "Verdadero" if correct else "Falso"
    return f"{label} — {right_feedback}" if right_feedback else label


def true_false_answer_html(correct: bool, right_feedback_html: str = "") -> str:
    """The formatted form of :func:`true_false_answer`; empty when the feedback has
    no formatting (the plain answer says it all)."""
    if not right_feedback_html:
        return ""
    return f"<p>{'Verdadero' if correct else 'Falso'} —</p>{right_feedback_html}"


def short_answer(answers: list[tuple[str, float]]) -> str:
    """The accepted answers of a short-answer question, best first.

    ``answers`` are ``(text, percent)`` pairs; answers worth nothing (or a
    penalty) are not answers the GM should accept, so they are left out.
    """
    accepted = [(text, percent) for text, percent in answers if percent > 0 and text]
    accepted.sort(key=lambda pair: -pair[1])  # stable: file order among equals
    return " / ".join(text if percent >= 100 else f"{text} ({percent:g}%)"
                      for text, percent in accepted)


def accepted_texts(answers: list[tuple[str, float]]) -> tuple[str, ...]:
    """The texts of the answers worth some credit."""
    return tuple(text for text, percent in answers if percent > 0 and text)


def asks_who(text: str) -> bool:
    """Whether a question asks who said or wrote something (accents and case ignored).

    >>> asks_who("¿Quién escribió la Crítica?"), asks_who("Whose words are these?")
    (True, True)
    >>> asks_who("¿Qué es el imperativo categórico?")
    False
    """
    return bool(_ASKS_WHO.search(fold(text)))


def _words(value: str) -> str:
    return " " + " ".join(re.findall(r"\w+", fold(value))) + " "


def names_author(answers: tuple[str, ...], authors: set[str]) -> bool:
    """Whether an accepted answer names one of ``authors`` ("Immanuel Kant" names
    "Kant"; "Kant" names "Immanuel Kant"), whole words, accents and case ignored."""
    for answer in answers:
        said = _words(answer)
        for author in authors:
            named = _words(author)
            shorter = min(said, named, key=len)
            if len(shorter.strip()) >= 3 and (named in said or said in named):
                return True
    return False


@dataclass
class Draft:
    """A question read from a Moodle file, before its id is chosen.

    ``author`` is None when the question has no category (or a default one);
    ``type`` is ``"shortanswer"`` until :func:`resolve_short_answers` decides,
    from ``accepted`` (the texts of the accepted answers).
    """

    line: int
    title: str
    author: str | None
    type: str
    text: str
    answer: str
    notes: str = ""
    accepted: tuple[str, ...] = field(default_factory=tuple)
    #: The formatted (sanitised HTML) text and answer, empty when plain (:mod:`.formatting`).
    text_html: str = ""
    answer_html: str = ""
    #: The file's images the text shows, and the images it names that are not in the file.
    images: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()


def choose_ids(drafts: list[Draft], stem: str) -> list[str]:
    """Ids for the drafts: the slugged title when present and unique, else ``stem-line``.

    A title shared by two questions names neither, so both fall back to
    their line number: an id must not depend on which one came first.
    """
    slugs = [slugify(draft.title) for draft in drafts]
    counts = Counter(slug for slug in slugs if slug)
    return [slug if slug and counts[slug] == 1 else f"{stem}-{draft.line}"
            for slug, draft in zip(slugs, drafts)]


def resolve_short_answers(drafts: list[Draft], options: ReadOptions) -> list[str]:
    """Give every short-answer draft its game type; the notes that say how many went where.

    ``quien`` when the question asks who said or wrote something, or when an
    accepted answer names an author of the bank (the authors of the file's
    questions, the given ``author`` included); else ``abierta``, its expected
    answer "Respuestas aceptadas: A / B".
    """
    short = [draft for draft in drafts if draft.type == "shortanswer"]
    if not short:
        return []
    authors = {draft.author for draft in drafts if draft.author}
    asks = names = 0
    for draft in short:
        chosen = options.types.get(draft.line)
        if chosen in ("quien", "abierta", "vf"):
            draft.type = chosen   # the teacher's choice in the preview
        elif options.short_answer == "auto":
            if asks_who(draft.text):
                draft.type, asks = "quien", asks + 1
            elif names_author(draft.accepted, authors):
                draft.type, names = "quien", names + 1
            else:
                draft.type = "abierta"
        else:
            draft.type = options.short_answer
        if draft.type == "abierta":
            draft.answer = message(options.lang, "accepted_answers", answers=draft.answer)
    if options.short_answer != "auto":
        return [message(options.lang, "note.short.forced", n=len(short),
                        type=options.short_answer)]
    quien = asks + names
    return [message(options.lang, "note.short.auto", abierta=len(short) - quien, quien=quien,
                    asks=asks, names=names)]


def add_drafts(report, drafts: list[Draft], file_name: str,
               options: ReadOptions | None = None) -> None:
    """Give the drafts their author, type and id (title, else FILE-LINE) and add them
    to ``report``; a draft with no author (none in the file, none given) is unusable."""
    from pathlib import Path

    from .model import Question
    options = options or ReadOptions()
    kept, given = [], 0
    for draft in drafts:
        if options.authors.get(draft.line):
            draft.author = clean(options.authors[draft.line])   # corrected in the preview
        if draft.author is None and options.author:
            draft.author, given = options.author, given + 1
        if draft.missing:
            report.cannot_use(draft.line, message(options.lang, "image.missing",
                                                  names=", ".join(draft.missing)),
                              reason="image_missing", text=draft.text)
            continue
        if draft.author is None:
            key = "no_author.xml" if report.format == "moodle-xml" else "no_author.gift"
            report.cannot_use(draft.line, message(options.lang, key), reason="no_author",
                              text=draft.text)
            continue
        if draft.type != "shortanswer" and options.types.get(draft.line) in (
                "vf", "quien", "abierta"):
            draft.type = options.types[draft.line]
        kept.append(draft)
    if given:
        report.notes.append(message(options.lang, "note.author_given", n=given,
                                    author=options.author))
    report.notes.extend(resolve_short_answers(kept, options))
    stem = slugify(Path(file_name).stem) or "q"
    for draft, question_id in zip(kept, choose_ids(kept, stem)):
        report.add(Question(question_id, draft.author, draft.type, draft.text,
                            draft.answer, draft.notes, draft.text_html, draft.answer_html),
                   draft.line)
