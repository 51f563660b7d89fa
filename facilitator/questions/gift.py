"""Moodle GIFT import (https://docs.moodle.org/en/GIFT_format).

The reading follows Moodle's own parser (``question/format/gift``): questions
are separated by blank lines, ``//`` lines are comments, ``$CATEGORY:``
sets the category of the questions that follow, ``::title::`` names a
question, and the first ``{...}`` block holds the answers. The kind of
question is decided from that block in Moodle's order: none → description,
empty → essay, ``#...`` → numerical, any ``~`` → multiple choice, ``=`` and
``->`` → matching, ``T``/``TRUE``/``F``/``FALSE`` → true/false, anything
else → short answer. See :mod:`.moodle_rules` for how each kind maps to the
game, and for the author rule (last part of the ``$CATEGORY`` path).

Where we differ from Moodle, we are more forgiving: ``{true}`` is read as
true/false whatever its case, and a ``$CATEGORY`` line directly followed by
a question (no blank line between) sets the category and reads the question.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from . import moodle_rules as rules
from .report import BankReport
from .text import LINE_BREAK, bad_line_message, decode, html_to_text, plain_text

# GIFT escapes: "\~" etc. stand for the character itself, "\n" for a line
# break. Escaped characters are swapped for private-use placeholders while
# the structure ({, }, =, ~, #, ::) is parsed, then swapped back.
_ESCAPABLE = "\\~=#{}:"
_PLACEHOLDER = {char: chr(0xE000 + n) for n, char in enumerate(_ESCAPABLE)}
_RESTORE = str.maketrans({ph: char for char, ph in _PLACEHOLDER.items()})
_ESCAPE = re.compile(r"\\(.)", re.DOTALL)

_FORMAT = re.compile(r"^\[(html|moodle|plain|markdown)\]\s*", re.IGNORECASE)
_WEIGHT = re.compile(r"^%(-?\d+(?:\.\d+)?)%")
_TRUE, _FALSE = {"T", "TRUE"}, {"F", "FALSE"}
BLANK = "_____"


def _protect(text: str) -> str:
    def swap(match: re.Match) -> str:
        char = match.group(1)
        if char == "n":
            return "\n"
        return _PLACEHOLDER.get(char, match.group(0))  # unknown escapes stay as typed
    return _ESCAPE.sub(swap, text)


def _restore(text: str) -> str:
    return text.translate(_RESTORE)


def _rich_text(raw: str, default_format: str = "moodle") -> tuple[str, str]:
    """Text with its optional ``[format]`` prefix applied, and that format.

    Only ``[html]`` text is turned into plain text (tags dropped, entities
    unescaped): in the other formats "<" is just a character.
    """
    raw = raw.strip()
    match = _FORMAT.match(raw)
    text_format = match.group(1).lower() if match else default_format
    if match:
        raw = raw[match.end():]
    raw = _restore(raw)
    return (html_to_text(raw) if text_format == "html" else plain_text(raw)), text_format


@dataclass
class _Block:
    """The non-comment lines of one blank-line-separated block, with line numbers."""

    lines: list[tuple[int, str]]

    @property
    def start(self) -> int:
        """The line where the block's first non-comment line is."""
        return self.lines[0][0]

    @property
    def text(self) -> str:
        """The block's lines joined; Moodle trims every line before joining them."""
        # Moodle trims every line before joining them.
        return "\n".join(line.strip() for _, line in self.lines).strip()


def _blocks(text: str) -> list[_Block]:
    """Split a GIFT file into blocks; comment-only blocks are dropped."""
    blocks, current = [], []
    for number, line in enumerate(LINE_BREAK.split(text), start=1):
        stripped = line.strip()
        if not stripped:
            if current:
                blocks.append(_Block(current))
            current = []
        elif not stripped.startswith("//"):
            current.append((number, line))
    if current:
        blocks.append(_Block(current))
    return blocks


def read_gift(data: bytes, name: str) -> BankReport:
    """Read a GIFT file from its bytes; ``name`` is the file name shown in messages.

    This is the raw reading: duplicate checks and the "no questions from a
    file with errors" rule are applied by :func:`facilitator.questions.parse_bank`.
    """
    report = BankReport(file=name, format="gift")
    decoded = decode(data)
    report.encoding = decoded.encoding
    if decoded.encoding == "cp1252" and not decoded.bad_lines:
        report.notes.append("the file is not UTF-8; it was read as Windows-1252")
    bad_lines = set(decoded.bad_lines)
    category: str | None = None
    drafts: list[rules.Draft] = []
    for block in _blocks(decoded.text):
        bad = [n for n, _ in block.lines if n in bad_lines]
        if bad:
            report.error(block.start, bad_line_message(decoded, bad[0]))
            continue
        first = block.lines[0][1].strip()
        if first[:10].upper() == "$CATEGORY:":
            category = _restore(_protect(first[10:])).strip()
            if len(block.lines) == 1:
                continue
            block = _Block(block.lines[1:])
        draft = _read_question(block, category, report)
        if draft is not None:
            drafts.append(draft)
    rules.add_drafts(report, drafts, name)
    return report


def _read_question(block: _Block, category: str | None,
                   report: BankReport) -> rules.Draft | None:
    """One question block → a draft, or an error / unusable entry in ``report``."""
    line = block.start
    text = _protect(block.text)

    title = ""
    if text.startswith("::"):
        end = text.find("::", 2)
        if end < 0:
            report.error(line, 'the title opened with "::" is not closed with "::"')
            return None
        title = plain_text(_restore(text[2:end]))
        text = text[end + 2:].strip()

    start, finish = text.find("{"), text.find("}")
    if start < 0 and finish < 0:
        report.cannot_use(line, rules.unused_kind_message("description"))
        return None
    if finish < 0:
        report.error(line, 'the answers opened with "{" are not closed with "}"')
        return None
    if start < 0 or finish < start:
        report.error(line, 'a "}" without the "{" that opens the answers '
                           '(write \\} for a brace in the text)')
        return None
    if "{" in text[finish + 1:] or "}" in text[finish + 1:]:
        report.error(line, 'more than one answer block {...}; a question has only one '
                           '(write \\{ and \\} for braces in the text)')
        return None

    answers = text[start + 1:finish].strip()
    before, after = text[:start].rstrip(), text[finish + 1:].strip()
    # Answers in the middle of the text make a fill-in-the-blank question.
    question_raw = f"{before} {BLANK} {after}".strip() if after else before

    general_feedback = ""
    separator = answers.rfind("####")
    if separator >= 0:
        general_feedback = answers[separator + 4:]
        answers = answers[:separator].strip()
    question_text, text_format = _rich_text(question_raw)
    general_feedback, _ = _rich_text(general_feedback, text_format)

    kind = _kind(answers)
    if kind not in ("essay", "truefalse", "shortanswer"):
        report.cannot_use(line, rules.unused_kind_message(kind))
        return None
    if not question_text or question_text == BLANK:
        report.error(line, "the question has no text before its answers")
        return None

    notes = ""
    if kind == "essay":
        if not general_feedback:
            report.cannot_use(line, rules.ESSAY_WITHOUT_ANSWER)
            return None
        game_type, answer = "abierta", general_feedback
    elif kind == "truefalse":
        game_type, notes = "vf", general_feedback
        answer = _true_false(answers, text_format)
    else:
        game_type, notes = "quien", general_feedback
        answer = _short_answer(answers, text_format, line, report)
        if answer is None:
            return None

    author = rules.author_from_category(category)
    if author is None:
        report.cannot_use(line, rules.NO_AUTHOR)
        return None
    return rules.Draft(line, title, author, game_type, question_text, answer, notes)


def _kind(answers: str) -> str:
    """The Moodle question type of an answer block, decided in Moodle's order."""
    if not answers:
        return "essay"
    if answers.startswith("#"):
        return "numerical"
    if "~" in answers:
        return "multichoice"
    if "=" in answers and "->" in answers:
        return "match"
    if answers.split("#", 1)[0].strip().upper() in _TRUE | _FALSE:
        return "truefalse"
    return "shortanswer"


def _true_false(answers: str, text_format: str) -> str:
    """``{T#feedback if wrong#feedback if right}`` → "Verdadero — ..."."""
    parts = answers.split("#", 2)
    correct = parts[0].strip().upper() in _TRUE
    wrong = _rich_text(parts[1], text_format)[0] if len(parts) > 1 else ""
    right = _rich_text(parts[2], text_format)[0] if len(parts) > 2 else ""
    return rules.true_false_answer(correct, right, wrong)


def _short_answer(answers: str, text_format: str, line: int,
                  report: BankReport) -> str | None:
    """``{=Kant =%50%Immanuel Kant#feedback}`` → "Kant / Immanuel Kant (50%)"."""
    items = answers.split("=")
    if not items[0].strip():
        items = items[1:]  # the usual "=first =second": nothing before the first "="
    accepted = []
    for item in items:
        item = item.strip()
        percent = 100.0
        weight = _WEIGHT.match(item)
        if weight:
            percent = float(weight.group(1))
            item = item[weight.end():]
        answer_text = _rich_text(item.split("#", 1)[0], text_format)[0]
        if not answer_text:
            report.error(line, 'an empty answer: "=" must be followed by an accepted answer')
            return None
        accepted.append((answer_text, percent))
    answer = rules.short_answer(accepted)
    if not answer:
        report.cannot_use(line, "short-answer question has no answer worth any credit")
        return None
    return answer
