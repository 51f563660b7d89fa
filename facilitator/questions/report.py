"""What reading a question bank produced: the questions, and what went wrong.

Every reader (CSV, GIFT, Moodle XML) returns a :class:`BankReport`, so the
``check`` command, the database import and the web upload all show problems
the same way: ``file:line: what is wrong``, in words a teacher understands.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .model import Question

#: ``ImportIssue.kind`` for a malformed entry: the file must be fixed.
ERROR = "error"
#: ``ImportIssue.kind`` for a well-formed question the game cannot use
#: (a multiple-choice question, a question with no author...).
UNUSABLE = "unusable"
#: ``ImportIssue.kind`` for a question that is kept but has no expected answer
#: (an essay whose teacher wrote none): the GM judges it.
NO_ANSWER = "no_answer"


@dataclass(frozen=True)
class ImportIssue:
    """One problem found in a bank: a malformed entry or an unusable question.

    ``line`` is the physical line of the file where the entry starts (1-based),
    or ``None`` when the problem concerns the whole file.
    """

    file: str
    line: int | None
    message: str
    kind: str = ERROR
    #: Why, as a word a program can test: ``"no_author"``; empty for most issues.
    reason: str = field(default="", compare=False)
    #: The question's text, for an unusable question (the import preview shows it).
    text: str = field(default="", compare=False)

    def __str__(self) -> str:
        """``banco.csv:40: type "vff" is not one of vf, quien, abierta``."""
        if self.line is None:
            return f"{self.file}: {self.message}"
        return f"{self.file}:{self.line}: {self.message}"


@dataclass
class BankReport:
    """The result of reading one bank file.

    ``questions`` holds the usable questions, in file order. When the file has
    errors it is empty, unless the bank was read with ``skip_errors=True``:
    a half-read bank is never used by accident. ``unusable`` questions never
    block a bank; they are reported so that nothing is dropped silently.
    ``notes`` are facts worth telling the teacher that are not problems (the
    file was read as Windows-1252, a column was ignored...). ``lines`` maps
    each question id to the line where the question starts.
    """

    file: str
    format: str
    questions: list[Question] = field(default_factory=list)
    errors: list[ImportIssue] = field(default_factory=list)
    unusable: list[ImportIssue] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    lines: dict[str, int] = field(default_factory=dict)
    encoding: str = "utf-8"
    #: The kept questions that have no expected answer (``abierta`` only),
    #: each marked "sin respuesta esperada": the GM judges them.
    no_answer: list[ImportIssue] = field(default_factory=list)
    #: The language of the messages this package adds ("es" or "en").
    lang: str = "en"
    #: The images the file holds (Moodle XML), by name: ``{name: (mime, bytes)}``;
    #: the questions show them as ``<img src="image:NAME">``.
    images: dict = field(default_factory=dict)
    #: What the file is when it is no bank at all (format ``"not-a-bank"``): ``"docx"``,
    #: ``"pdf"``, ``"image"``... (:mod:`facilitator.questions.documents`); else "".
    document: str = ""
    # The line of each entry of ``questions``, in step with it: ``lines`` can
    # not tell apart two questions that share an id.
    _question_lines: list[int | None] = field(default_factory=list, repr=False, compare=False)

    @property
    def ok(self) -> bool:
        """True when the file has no errors (unusable questions are not errors)."""
        return not self.errors

    def add(self, question: Question, line: int | None) -> None:
        """Record a question read at ``line``."""
        self.questions.append(question)
        self._question_lines.append(line)
        if line is not None:
            self.lines.setdefault(question.id, line)

    def located(self) -> list[tuple[Question, int | None]]:
        """Each question with the line where it starts."""
        return list(zip(self.questions, self._question_lines))

    def keep(self, located: list[tuple[Question, int | None]]) -> None:
        """Replace the questions by ``located`` (question, line) pairs."""
        self.questions = [question for question, _ in located]
        self._question_lines = [line for _, line in located]
        self.lines = {}
        for question, line in located:
            if line is not None:
                self.lines.setdefault(question.id, line)

    def error(self, line: int | None, message: str) -> None:
        """Record a malformed entry at ``line``."""
        self.errors.append(ImportIssue(self.file, line, message, ERROR))

    def cannot_use(self, line: int | None, message: str, reason: str = "",
                   text: str = "") -> None:
        """Record a well-formed question at ``line`` that the game cannot use."""
        self.unusable.append(ImportIssue(self.file, line, message, UNUSABLE, reason, text))

    @property
    def without_author(self) -> int:
        """How many questions could not be used for want of an author (a category,
        or an author given at import)."""
        return sum(1 for issue in self.unusable if issue.reason == "no_author")
