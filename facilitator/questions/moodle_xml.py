"""Moodle XML import (the format of Moodle's "Export questions → Moodle XML").

``<quiz>`` holds ``<question type="...">`` elements. A ``category`` pseudo
question sets the category of the questions after it, and so their author
(:mod:`.moodle_rules`). ``truefalse`` → ``vf``, ``shortanswer`` → ``quien``,
``essay`` → ``abierta`` with ``<graderinfo>`` (information for graders), or
else ``<generalfeedback>``, as the expected answer; everything else is
reported as unusable.

The file comes from outside, so it is parsed defensively: any DTD or entity
declaration is refused (no "billion laughs", no external entities). We use
expat directly, which also gives the line of every element.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from xml.parsers import expat

from . import moodle_rules as rules
from .report import BankReport
from .text import html_to_text, plain_text

_DECLARATIONS = re.compile(rb"<!\s*(DOCTYPE|ENTITY)", re.IGNORECASE)
_TRUE, _FALSE = {"true", "1", "t", "verdadero", "v"}, {"false", "0", "f", "falso"}


class _Refused(Exception):
    """A declaration we do not accept in a file that comes from outside."""


@dataclass
class _Node:
    """An XML element with the line where it starts."""

    tag: str
    attrs: dict[str, str]
    line: int
    children: list["_Node"] = field(default_factory=list)
    parts: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        """The character data directly inside this element."""
        return "".join(self.parts)

    def child(self, tag: str) -> "_Node | None":
        """The first child element named ``tag``, if any."""
        return next((node for node in self.children if node.tag == tag), None)

    def all(self, tag: str) -> list["_Node"]:
        """Every child element named ``tag``, in document order."""
        return [node for node in self.children if node.tag == tag]


def _refuse(*_args) -> None:
    raise _Refused()


def _parse(data: bytes) -> _Node:
    """Parse XML bytes into ``_Node``s, refusing DTDs and entity declarations."""
    parser = expat.ParserCreate()
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    parser.StartDoctypeDeclHandler = _refuse
    parser.EntityDeclHandler = _refuse
    parser.UnparsedEntityDeclHandler = _refuse
    parser.ExternalEntityRefHandler = _refuse
    stack: list[_Node] = []
    roots: list[_Node] = []

    def start(tag: str, attrs: dict[str, str]) -> None:
        node = _Node(tag, attrs, parser.CurrentLineNumber)
        (stack[-1].children if stack else roots).append(node)
        stack.append(node)

    def end(_tag: str) -> None:
        stack.pop()

    def characters(data: str) -> None:
        if stack:
            stack[-1].parts.append(data)

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = characters
    parser.Parse(data, True)
    return roots[0]


def _text_of(node: _Node | None) -> str:
    """The plain text of a Moodle text element (``<x format="html"><text>...``)."""
    if node is None:
        return ""
    inner = node.child("text")
    raw = inner.text if inner is not None else node.text
    if node.attrs.get("format", "").lower() == "html":
        return html_to_text(raw)
    return plain_text(raw)


def read_moodle_xml(data: bytes, name: str) -> BankReport:
    """Read a Moodle XML file from its bytes; ``name`` is shown in messages.

    This is the raw reading: duplicate checks and the "no questions from a
    file with errors" rule are applied by :func:`facilitator.questions.parse_bank`.
    """
    report = BankReport(file=name, format="moodle-xml")
    declaration = _DECLARATIONS.search(data)
    if declaration:
        line = data.count(b"\n", 0, declaration.start()) + 1
        report.error(line, "DOCTYPE and ENTITY declarations are not accepted in a "
                           "question file (they can be used to attack the server)")
        return report
    try:
        root = _parse(data)
    except _Refused:
        report.error(None, "DOCTYPE and ENTITY declarations are not accepted in a "
                           "question file (they can be used to attack the server)")
        return report
    except expat.ExpatError as exc:
        report.error(exc.lineno, f"the XML is not well formed: {expat.ErrorString(exc.code)}")
        return report
    if root.tag != "quiz":
        report.error(root.line, f"this is not a Moodle XML question file: it starts "
                                f"with <{root.tag}> instead of <quiz>")
        return report
    category: str | None = None
    drafts: list[rules.Draft] = []
    for node in root.all("question"):
        kind = node.attrs.get("type", "").strip().lower()
        if kind == "category":
            category = _text_of(node.child("category"))
            continue
        draft = _read_question(node, kind, category, report)
        if draft is not None:
            drafts.append(draft)
    rules.add_drafts(report, drafts, name)
    return report


def _fraction(node: _Node) -> float | None:
    try:
        return float(node.attrs.get("fraction", "0"))
    except ValueError:
        return None


def _read_question(node: _Node, kind: str, category: str | None,
                   report: BankReport) -> rules.Draft | None:
    """One ``<question>`` → a draft, or an error / unusable entry in ``report``."""
    line = node.line
    if not kind:
        report.error(line, '<question> without a type="..." attribute')
        return None
    if kind not in ("truefalse", "shortanswer", "essay"):
        report.cannot_use(line, rules.unused_kind_message(kind))
        return None
    title = _text_of(node.child("name"))
    text = _text_of(node.child("questiontext"))
    if not text:
        report.error(line, "the question has no text (<questiontext> is empty)")
        return None
    general_feedback = _text_of(node.child("generalfeedback"))
    answers = node.all("answer")
    fractions = [_fraction(answer) for answer in answers]
    if None in fractions:
        bad = answers[fractions.index(None)]
        report.error(bad.line, f'fraction="{bad.attrs.get("fraction")}" is not a number')
        return None

    notes = ""
    if kind == "essay":
        grader_info = _text_of(node.child("graderinfo"))
        answer = grader_info or general_feedback
        if grader_info and general_feedback and general_feedback != grader_info:
            notes = general_feedback
        if not answer:
            report.cannot_use(line, "essay question has no expected answer (add it as "
                                    "information for graders or general feedback)")
            return None
        game_type = "abierta"
    elif kind == "truefalse":
        if not answers:
            report.error(line, "true/false question without <answer> elements")
            return None
        best = max(range(len(answers)), key=lambda n: fractions[n])
        value = _text_of(answers[best]).strip().lower()
        if value not in _TRUE | _FALSE:
            report.error(answers[best].line,
                         f'true/false answer "{value}" is neither true nor false')
            return None
        right = _text_of(answers[best].child("feedback"))
        wrong = " ".join(_text_of(answer.child("feedback"))
                         for n, answer in enumerate(answers) if n != best).strip()
        game_type, notes = "vf", general_feedback
        answer = rules.true_false_answer(value in _TRUE, right, wrong)
    else:
        answer = rules.short_answer([(_text_of(a), f) for a, f in zip(answers, fractions)])
        if not answer:
            report.cannot_use(line, "short-answer question has no answer worth any credit")
            return None
        game_type, notes = "quien", general_feedback

    author = rules.author_from_category(category)
    if author is None:
        report.cannot_use(line, rules.NO_AUTHOR_XML)
        return None
    return rules.Draft(line, title, author, game_type, text, answer, notes)
