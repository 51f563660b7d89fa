"""Moodle GIFT import (https://docs.moodle.org/en/GIFT_format).

The reading follows Moodle's own parser (``question/format/gift``): questions
are separated by blank lines, ``//`` lines are comments, ``$CATEGORY:``
sets the category of the questions that follow, ``::title::`` names a
question, and the first ``{...}`` block holds the answers. The kind of
question is decided from that block in Moodle's order: none → description,
empty → essay, ``#...`` → numerical, any ``~`` → multiple choice, ``=`` and
``->`` → matching, ``T``/``TRUE``/``F``/``FALSE`` → true/false, anything
else → short answer. See :mod:`.moodle_rules` for how each kind maps to the
game, and for the author rule (last part of the ``$CATEGORY`` path, NFC, like
the authors of the other formats: a file saved on macOS writes "Platón" with
a combining accent, and it must be the same author).

Where we differ from Moodle, we are more forgiving: ``{true}`` is read as
true/false whatever its case, and a ``$CATEGORY`` line directly followed by
a question (no blank line between) sets the category and reads the question.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from . import moodle_rules as rules
from .report import BankReport
from .formatting import Rich, render
from .messages import message
from .text import LINE_BREAK, bad_line_message, decode, plain_text

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


def _rich_text(raw: str, default_format: str = "moodle") -> tuple[Rich, str]:
    """Text with its optional ``[format]`` prefix applied, and that format.

    Moodle's rules (:mod:`.formatting`): without a prefix the text is
    ``moodle_auto_format`` (simple HTML tags and entities rendered), ``[html]``
    is HTML, ``[markdown]`` Markdown and ``[plain]`` plain text where "<" is
    just a character. A GIFT file holds no image: an ``<img>`` makes the
    question unusable (``Rich.missing`` / ``Rich.remote``).
    """
    raw = raw.strip()
    match = _FORMAT.match(raw)
    text_format = match.group(1).lower() if match else default_format
    if match:
        raw = raw[match.end():]
    raw = _restore(raw)
    return render(raw, text_format, available=()), text_format


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


def read_gift(data: bytes, name: str, options: rules.ReadOptions | None = None) -> BankReport:
    """Read a GIFT file from its bytes; ``name`` is the file name shown in messages;
    ``options``: the author of questions with no category, how short answers are
    typed, the language of the messages (:class:`.moodle_rules.ReadOptions`).

    This is the raw reading: duplicate checks and the "no questions from a
    file with errors" rule are applied by :func:`facilitator.questions.parse_bank`.
    """
    lang = (options or rules.ReadOptions()).lang
    report = BankReport(file=name, format="gift", lang=lang)
    decoded = decode(data)
    report.encoding = decoded.encoding
    if decoded.encoding == "cp1252" and not decoded.bad_lines:
        report.notes.append(message(lang, "gift.cp1252"))
    bad_lines = set(decoded.bad_lines)
    category: str | None = None
    drafts: list[rules.Draft] = []
    for block in _blocks(decoded.text):
        bad = [n for n, _ in block.lines if n in bad_lines]
        if bad:
            report.error(block.start, bad_line_message(decoded, bad[0], lang))
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
    rules.add_drafts(report, drafts, name, options)
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
            report.error(line, message(report.lang, "gift.title_open"))
            return None
        title = plain_text(_restore(text[2:end]))
        text = text[end + 2:].strip()

    start, finish = text.find("{"), text.find("}")
    if start < 0 and finish < 0:
        report.cannot_use(line, rules.unused_kind_message("description", report.lang),
                          reason="kind")
        return None
    if finish < 0:
        report.error(line, message(report.lang, "gift.answers_open"))
        return None
    if start < 0 or finish < start:
        report.error(line, message(report.lang, "gift.close_without_open"))
        return None
    if "{" in text[finish + 1:] or "}" in text[finish + 1:]:
        report.error(line, message(report.lang, "gift.two_blocks"))
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
    question_rich, text_format = _rich_text(question_raw)
    feedback_rich, _ = _rich_text(general_feedback, text_format)
    question_text, general_feedback = question_rich.text, feedback_rich.text

    kind = _kind(answers)
    if kind not in ("essay", "truefalse", "shortanswer"):
        report.cannot_use(line, rules.unused_kind_message(kind, report.lang), reason="kind",
                          text=question_text)
        return None
    if not question_text or question_text == BLANK:
        report.error(line, message(report.lang, "gift.no_text"))
        return None

    notes, accepted, answer_html = "", (), ""
    if kind == "essay":
        # No general feedback: kept with an empty expected answer; the GM judges it.
        game_type, answer, answer_html = "abierta", general_feedback, feedback_rich.html
    elif kind == "truefalse":
        game_type, notes = "vf", general_feedback
        answer, answer_html = _true_false(answers, text_format)
    else:
        game_type, notes = "shortanswer", general_feedback   # quien or abierta: see add_drafts
        read = _short_answer(answers, text_format, line, report)
        if read is None:
            return None
        answer, accepted = read

    # No category (or a Moodle default one): None, the author given at import if any.
    author = rules.author_from_category(category)
    return rules.Draft(line, title, author, game_type, question_text, answer, notes, accepted,
                       text_html=question_rich.html, answer_html=answer_html,
                       images=question_rich.images,
                       missing=question_rich.missing + question_rich.remote)


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


def _true_false(answers: str, text_format: str) -> tuple[str, str]:
    """``{T#feedback if wrong#feedback if right}`` → "Verdadero — feedback if right".

    Moodle's GIFT importer (moodle/moodle ``question/format/gift/format.php``,
    case ``'truefalse'``) does ``list($answer, $wrongfeedback, $rightfeedback)
    = split_truefalse_comment(...)``: in ``{T#A#B}`` the first feedback ``A`` is
    the one for a wrong response and ``B`` the one for a right response. With
    ``T`` correct, ``feedbacktrue`` (shown to whoever chose True) = B and
    ``feedbackfalse`` = A; with ``F`` correct, the other way round. Moodle's
    GIFT export writes them in that order too ("#wrong#right"). So
    ``{T#Falso: sí salió, aunque poco.#Correcto.}`` expects "Verdadero —
    Correcto.": the first feedback is what a student who chose the wrong value
    reads, and is left out.
    """
    parts = answers.split("#", 2)
    correct = parts[0].strip().upper() in _TRUE
    right = _rich_text(parts[2], text_format)[0] if len(parts) > 2 else Rich("")
    return (rules.true_false_answer(correct, right.text),
            rules.true_false_answer_html(correct, right.html))


def _short_answer(answers: str, text_format: str, line: int,
                  report: BankReport) -> tuple[str, tuple[str, ...]] | None:
    """``{=Kant =%50%Immanuel Kant#feedback}`` → "Kant / Immanuel Kant (50%)", and
    the accepted texts ("Kant", "Immanuel Kant")."""
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
        answer_text = _rich_text(item.split("#", 1)[0], text_format)[0].text
        if not answer_text:
            report.error(line, message(report.lang, "gift.empty_answer"))
            return None
        accepted.append((answer_text, percent))
    answer = rules.short_answer(accepted)
    if not answer:
        report.cannot_use(line, message(report.lang, "unused.no_credit"))
        return None
    return answer, rules.accepted_texts(accepted)
