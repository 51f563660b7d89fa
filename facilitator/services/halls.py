"""Use cases of halls (a game played by a whole class at once): making one from a pasted
list of names or from a class's students present. The console and the API both call
these."""
from __future__ import annotations

from ..classes.roster import parse_class_list
from ..extensions import database, store
from ..games import Refusal
from ..store import classes as stored_classes
from ..store.halls import Halls


def halls() -> Halls:
    """The halls of this app's database."""
    return Halls(store)


def create_hall(data: object) -> int:
    """A new hall from the console's form: ``{"kind", "name", "settings", and either
    "players": the pasted list's text (a name per line, as a class list is pasted) or
    "class_id" with "absent": the ids of the class's students not here}``. A Refusal
    says what is wrong (a line of the list, a hall rule)."""
    if not isinstance(data, dict):
        raise Refusal("format", "send the hall's form as an object")
    kind_name, name = data.get("kind"), data.get("name") or ""
    if not isinstance(kind_name, str) or not isinstance(name, str):
        raise Refusal("format", "kind and name are text")
    settings = data.get("settings", {})
    if not isinstance(settings, dict):
        raise Refusal("format", "settings is an object")
    seed = data.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise Refusal("format", "seed is a whole number")
    class_id = data.get("class_id")
    if class_id is not None:
        # An id past what the database keeps is no class either (never an overflow).
        klass = stored_classes.get_class(database, class_id) \
            if isinstance(class_id, int) and not isinstance(class_id, bool) \
            and 0 < class_id < 2 ** 31 else None
        if klass is None:
            raise Refusal("format", "there is no such class")
        absent = data.get("absent") or []
        if not isinstance(absent, list) or not all(
                isinstance(n, int) and not isinstance(n, bool) for n in absent):
            raise Refusal("format", "absent is a list of student ids")
        absent = set(absent)
        present = [s for s in klass["students"] if not s["left"] and s["id"] not in absent]
        return halls().create(kind_name, name or klass["name"], [s["name"] for s in present],
                              settings, seed, class_id=class_id,
                              lineup=[s["id"] for s in present])
    text = data.get("players")
    if not isinstance(text, str):
        raise Refusal("format", "paste the players' names, one per line, or choose a class")
    entries, errors = parse_class_list(text)
    if errors:
        raise Refusal("format", errors[0])
    return halls().create(kind_name, name, [e.name for e in entries], settings, seed)
