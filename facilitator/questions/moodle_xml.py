"""Moodle XML import (the format of Moodle's "Export questions → Moodle XML").

``<quiz>`` holds ``<question type="...">`` elements. A ``category`` pseudo
question sets the category of the questions after it, and so their author
(:mod:`.moodle_rules`). ``truefalse`` → ``vf`` (the expected answer is the
right value and the ``<feedback>`` of its ``<answer fraction="100">``),
``shortanswer`` → ``quien`` or ``abierta`` (see
:func:`.moodle_rules.resolve_short_answers`), ``essay`` → ``abierta`` with
``<graderinfo>`` (information for graders), or else ``<generalfeedback>``, as
the expected answer (none: an empty one, the GM judges); everything else is
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
from .formatting import Rich, render
from .images import (MAX_BANK_IMAGE_BYTES, MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE, Refused,
                     decode_image, image_key)
from .messages import message
from .report import BankReport
from .text import plain_text

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
    return _rich_of(node).text


def _rich_of(node: _Node | None, report: BankReport | None = None) -> Rich:
    """A Moodle text element in both forms (:mod:`.formatting`).

    Its ``format`` attribute says how Moodle renders it; without one it is
    HTML, as Moodle takes it. Its ``<file name="..." encoding="base64">``
    children are the images its ``@@PLUGINFILE@@/name`` shows: with a
    ``report``, each valid one is kept in ``report.images`` (a refused one is
    as missing as an image the file only names).
    """
    if node is None:
        return Rich("")
    inner = node.child("text")
    raw = inner.text if inner is not None else node.text
    text_format = node.attrs.get("format", "").strip().lower() or "html"
    if not node.all("file") and "<" not in raw and "&" not in raw:
        return Rich(plain_text(raw))   # plain words: no parsing needed
    available: dict[str, str] = {}
    for file in node.all("file") if report is not None else ():
        name = file.attrs.get("name", "").strip()
        if not name or file.attrs.get("encoding", "base64").lower() != "base64":
            continue
        decoded = decode_image(file.text)
        if isinstance(decoded, Refused):
            report.notes.append(message(report.lang, f"image.refused.{decoded.reason}",
                                        name=name, line=file.line, width=decoded.width,
                                        height=decoded.height, side=MAX_IMAGE_SIDE,
                                        megapixels=MAX_IMAGE_PIXELS // 1_000_000))
            continue
        mime, data = decoded
        key = image_key(mime, data)
        if key not in report.images:
            total = sum(len(blob) for _mime, blob in report.images.values())
            if total + len(data) > MAX_BANK_IMAGE_BYTES:
                report.notes.append(message(report.lang, "image.refused.bank_size", name=name,
                                            line=file.line))
                continue
            report.images[key] = (mime, data)
        available[name] = key
    return render(raw, text_format, available=available)


def read_moodle_xml(data: bytes, name: str,
                    options: rules.ReadOptions | None = None) -> BankReport:
    """Read a Moodle XML file from its bytes; ``name`` is shown in messages;
    ``options`` as for :func:`facilitator.questions.gift.read_gift`.

    This is the raw reading: duplicate checks and the "no questions from a
    file with errors" rule are applied by :func:`facilitator.questions.parse_bank`.
    """
    lang = (options or rules.ReadOptions()).lang
    report = BankReport(file=name, format="moodle-xml", lang=lang)
    declaration = _DECLARATIONS.search(data)
    if declaration:
        line = data.count(b"\n", 0, declaration.start()) + 1
        report.error(line, message(lang, "xml.declarations"))
        return report
    try:
        root = _parse(data)
    except _Refused:
        report.error(None, message(lang, "xml.declarations"))
        return report
    except expat.ExpatError as exc:
        report.error(exc.lineno, message(lang, "xml.malformed",
                                         reason=expat.ErrorString(exc.code)))
        return report
    if root.tag != "quiz":
        report.error(root.line, message(lang, "xml.not_quiz", tag=root.tag))
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
    rules.add_drafts(report, drafts, name, options)
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
        report.error(line, message(report.lang, "xml.no_type"))
        return None
    if kind not in ("truefalse", "shortanswer", "essay"):
        report.cannot_use(line, rules.unused_kind_message(kind, report.lang), reason="kind")
        return None
    title = _text_of(node.child("name"))
    question_rich = _rich_of(node.child("questiontext"), report)
    text = question_rich.text
    if not text:
        report.error(line, message(report.lang, "xml.no_text"))
        return None
    feedback_rich = _rich_of(node.child("generalfeedback"), report)
    general_feedback = feedback_rich.text
    answers = node.all("answer")
    fractions = [_fraction(answer) for answer in answers]
    if None in fractions:
        bad = answers[fractions.index(None)]
        report.error(bad.line, message(report.lang, "xml.fraction",
                                       value=bad.attrs.get("fraction")))
        return None

    notes, accepted, answer_html = "", (), ""
    if kind == "essay":
        grader_rich = _rich_of(node.child("graderinfo"), report)
        grader_info = grader_rich.text
        answer = grader_info or general_feedback
        answer_html = grader_rich.html if grader_info else feedback_rich.html
        if grader_info and general_feedback and general_feedback != grader_info:
            notes = general_feedback
        game_type = "abierta"   # no expected answer: kept, the GM judges it
    elif kind == "truefalse":
        if not answers:
            report.error(line, message(report.lang, "xml.tf_no_answers"))
            return None
        best = max(range(len(answers)), key=lambda n: fractions[n])
        value = _text_of(answers[best]).strip().lower()
        if value not in _TRUE | _FALSE:
            report.error(answers[best].line, message(report.lang, "xml.tf_value", value=value))
            return None
        # Only the feedback of the right answer: the other one is what a
        # student who chose wrong reads ("No: ..."), not the expected answer.
        right = _rich_of(answers[best].child("feedback"), report)
        game_type, notes = "vf", general_feedback
        answer = rules.true_false_answer(value in _TRUE, right.text)
        answer_html = rules.true_false_answer_html(value in _TRUE, right.html)
    else:
        pairs = [(_text_of(a), f) for a, f in zip(answers, fractions)]
        answer = rules.short_answer(pairs)
        if not answer:
            report.cannot_use(line, message(report.lang, "unused.no_credit"), text=text)
            return None
        accepted = rules.accepted_texts(pairs)
        game_type, notes = "shortanswer", general_feedback   # quien or abierta: add_drafts

    # No category (or a Moodle default one): None, the author given at import if any.
    author = rules.author_from_category(category)
    return rules.Draft(line, title, author, game_type, text, answer, notes, accepted,
                       text_html=question_rich.html, answer_html=answer_html,
                       images=question_rich.images,
                       missing=question_rich.missing + question_rich.remote)
