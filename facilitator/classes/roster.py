"""A class's list of students, read from pasted text (the set-up game's ``teams`` deals
them into teams).

A teacher pastes the list from a spreadsheet or Moodle's participants page: one
student per line, the name first, then optionally an e-mail address and an ID
number, separated by tabs, semicolons or commas (an e-mail is recognised by its
``@``, so the order of the two is free).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..games import is_unicode
from ..safe_text import check_text

#: Students a class may list (a large lecture, with room for those who left).
MAX_STUDENTS = 400
#: Most characters of a student's name (a game of teams takes names as long).
MAX_NAME = 100
MAX_EMAIL = 200
MAX_ID_NUMBER = 100


@dataclass(frozen=True)
class StudentEntry:
    """One student as typed: a name, and an e-mail and ID number when given ("" if not)."""

    name: str
    email: str = ""
    id_number: str = ""
    #: The pasted line it came from (0: typed one by one).
    line: int = field(default=0, compare=False)


def check_student(name: object, email: object = "", id_number: object = "") -> StudentEntry:
    """One student's fields checked: a name of 1 to 100 characters, an e-mail with an
    ``@`` (or none), an ID number of at most 100 characters, none holding a control
    character (a NUL byte...). Raises ValueError saying which."""
    if not isinstance(name, str) or not is_unicode(name) or not name.strip():
        raise ValueError("a student needs a name")
    check_text(name, "the name")
    name = " ".join(name.split())
    if len(name) > MAX_NAME:
        raise ValueError(f"a name has at most {MAX_NAME} characters")
    email = email if isinstance(email, str) else ""
    id_number = id_number if isinstance(id_number, str) else ""
    email, id_number = email.strip(), id_number.strip()
    if not is_unicode(email) or not is_unicode(id_number):
        raise ValueError("the e-mail or ID number is not valid text")
    check_text(email, "the e-mail")
    check_text(id_number, "the ID number")
    if email and ("@" not in email or len(email) > MAX_EMAIL or " " in email):
        raise ValueError(f"{email[:60]!r} is not an e-mail address")
    if len(id_number) > MAX_ID_NUMBER:
        raise ValueError(f"an ID number has at most {MAX_ID_NUMBER} characters")
    return StudentEntry(name, email, id_number)


def _split(line: str) -> list[str]:
    for separator in ("\t", ";", ","):
        if separator in line:
            return [part.strip() for part in line.split(separator)]
    return [line.strip()]


def parse_class_list(text: str) -> tuple[list[StudentEntry], list[str]]:
    """The students of a pasted list, and one message per line that could not be read
    ("line 40: ..."): the good lines are kept, nothing is silently dropped.

    A first line that looks like a header (``nombre``, ``name``, ``apellido``...) is
    skipped; blank lines are ignored.

    >>> parse_class_list("Ana Gómez; ana@x.edu; 123\\nBruno\\n")[0][0].email
    'ana@x.edu'
    """
    students, errors = [], []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        parts = _split(line)
        if number == 1 and parts[0].casefold() in {"nombre", "name", "apellido", "apellidos",
                                                    "alumno", "alumna", "estudiante", "student",
                                                    "nombre y apellido", "first name", "surname"}:
            continue
        name, rest = parts[0], [p for p in parts[1:] if p]
        email = next((p for p in rest if "@" in p), "")
        others = [p for p in rest if p != email]
        if len(others) > 1:
            errors.append(f"line {number}: more than a name, an e-mail and an ID number")
            continue
        try:
            students.append(replace(check_student(name, email, others[0] if others else ""),
                                    line=number))
        except ValueError as error:
            errors.append(f"line {number}: {error}")
    return students, errors


def name_key(name: str) -> str:
    """What makes two students' names the same name: case and spacing do not count."""
    return " ".join(name.split()).casefold()


def duplicate_names(entries: list[StudentEntry], existing: list[str] = ()) -> list[dict]:
    """The names ``entries`` repeat, among themselves or with the class's ``existing``
    names: ``[{"name", "lines": [pasted lines], "existing": n}]``, in the order first
    met. Two students called alike are both kept, but a spokesperson's name would not say
    which one spoke: the class page asks to tell them apart (a second surname, an
    initial), and until then each game's roster calls the second one "Name (2)"."""
    known: dict[str, int] = {}
    for name in existing:
        known[name_key(name)] = known.get(name_key(name), 0) + 1
    found: dict[str, dict] = {}
    counts: dict[str, int] = {}
    for entry in entries:
        key = name_key(entry.name)
        counts[key] = counts.get(key, 0) + 1
        found.setdefault(key, {"name": entry.name, "lines": [], "existing": known.get(key, 0)})
        if entry.line:
            found[key]["lines"].append(entry.line)
    return [item for key, item in found.items() if counts[key] + item["existing"] > 1]


def roster_names(names: list[str]) -> list[str]:
    """Names that tell students apart in a game: a name two students share gets " (2)",
    " (3)"... in the order given, so a spokesperson's name points to one student."""
    seen: dict[str, int] = {}
    out = []
    for name in names:
        key = name_key(name)
        seen[key] = seen.get(key, 0) + 1
        out.append(name if seen[key] == 1 else f"{name} ({seen[key]})"[:MAX_NAME])
    return out
