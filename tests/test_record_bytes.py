"""The record's size, counted per action for the cap (docs/deploy.md, "Flood limits"),
is the size of the file the GM downloads, and counting it leaves nothing behind."""
import gc
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from facilitator.store.budget import action_bytes as _action_bytes, indented_size

#: What an action's or a record's JSON holds: text keys, any text, numbers, nesting.
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
    | st.text(st.characters(exclude_categories=("Cs",))),
    lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner)
    | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=30)


@settings(max_examples=400, deadline=None)
@given(JSON_VALUES)
def test_the_size_is_that_of_the_indented_file(value):
    text = json.dumps(value, ensure_ascii=False, indent=1)
    assert indented_size(value) == (len(text.encode("utf-8")), text.count("\n") + 1)


def test_an_action_with_accents_quotes_and_line_breaks():
    action = {"do": "answer", "team": 2, "text": 'Sí, "ñandú"\n\tel de 1.º', "extra": [],
              "nested": {"a": [1, {"b": None}], "c": {}}}
    text = json.dumps(action, ensure_ascii=False, indent=1)
    assert _action_bytes(action) == len(text.encode("utf-8")) + 2 * (text.count("\n") + 1) + 2


def test_counting_an_action_leaves_no_cycle_for_the_collector():
    # json's indented encoder builds a cycle of closures on every call: an action's
    # path runs this twice, and a busy server's young collections were full of them.
    action = {"do": "adjust", "team": 1, "points": 1, "reason": "Participación"}
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for _ in range(50):
            _action_bytes(action)
        gc.collect()
        kept = len(gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert kept == 0


def test_a_game_s_record_is_counted_as_the_file_the_gm_downloads():
    from rulebook import bank

    from facilitator.games.partida import KIND, Game, parse_settings
    from facilitator.games.partida.record import FORMAT
    from facilitator.store.budget import RecordBudget
    settings = parse_settings({"teams": [{"name": f"Equipo {n}", "members": 4}
                                         for n in range(1, 5)]})
    for questions in (bank(), bank()[:1], []):
        game = Game(settings, questions)
        actions = [{"do": "declare", "mode": "normal"},
                   {"do": "adjust", "team": 2, "points": 1, "reason": "Pregunta «buena»"}]
        for action in actions:
            game.play(action)
        content = [q.to_dict() for q in questions]
        budget = RecordBudget(KIND.record(settings.to_dict(), content, [], ""))
        budget.take(actions, gm=True)
        record = {"format": FORMAT, "name": "", "settings": settings.to_dict(),
                  "questions": content, "actions": [a.to_dict() for a in game.log]}
        text = json.dumps(record, ensure_ascii=False, indent=1)
        assert budget.bytes == len(text.encode("utf-8"))
