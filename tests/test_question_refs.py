"""Teams and the projector see an opaque question reference, never the bank's id (an id
slugged from a Moodle name can spell the answer); the GM keeps the id (issue 12, item 5)."""
import json
import time

from facilitator.games.partida import Game, Question, parse_settings
from facilitator.games.partida.live import PartidaMatch
from facilitator.games.protocol import GM, SEAT, WATCHER, Role

from rulebook import act, play

IDS = ["kant-sapere-aude", "kant-vf-1", "marx-opio-del-pueblo", "arendt-banalidad"]


def game() -> Game:
    settings = parse_settings({"teams": [{"name": f"Equipo {n}", "members": 4}
                                         for n in range(1, 5)],
                               "round_modes": [["simple"]]})
    questions = [Question(f"{qid}-{i}", author, "vf", f"¿Pregunta {n} {i}?", "Verdadero")
                 for n, (qid, author) in enumerate(zip(IDS, ["Kant", "Kant", "Marx", "Arendt"]))
                 for i in range(1, 4)]
    return Game(settings, questions)


def played() -> Game:
    g = game()
    play(g, act("declare", mode="simple", target=3), act("choose", author="Kant", type="vf"),
         act("question", id="kant-sapere-aude-2"), act("write", team=3, text="sí"),
         act("verdict", result="full"), act("written", correct=True), act("end_turn"),
         act("declare", mode="simple", target=1), act("choose", author="Kant", type="vf"),
         act("question", id="kant-vf-1-1"))
    return g


def messages(g: Game) -> dict:
    """Every audience's view: (role kind, seat) -> view."""
    return {(r.kind, r.seat): m for r, m in PartidaMatch(g).screens(time.time())}


def test_no_bank_id_reaches_a_team_or_the_projector():
    g = played()
    sent = messages(g)
    for (role, team), message in sent.items():
        text = json.dumps(message, ensure_ascii=False)
        if role == GM:
            assert "kant-vf-1-1" in text and "kant-sapere-aude-2" in text
            continue
        for qid in IDS:
            assert qid not in text, (role, team, qid)
    for audience in (Role.watcher(), Role.of_seat(1)):
        text = json.dumps(PartidaMatch(g).screen(audience, time.time()), ensure_ascii=False)
        assert not any(qid in text for qid in IDS)


def test_the_reference_is_the_position_and_the_gm_view_keeps_the_id():
    g = played()
    sent = messages(g)
    projector = sent[(WATCHER, None)]["view"]
    gm = sent[(GM, None)]["view"]
    positions = {qid: n for n, qid in enumerate(g.questions, start=1)}
    assert projector["turn"]["question"]["ref"] == positions["kant-vf-1-1"]
    assert "id" not in projector["turn"]["question"]
    assert projector["history"][0]["question_ref"] == positions["kant-sapere-aude-2"]
    assert "question" not in projector["history"][0]
    assert gm["turn"]["question"]["id"] == "kant-vf-1-1"
    assert gm["turn"]["question"]["ref"] == positions["kant-vf-1-1"]
    assert gm["history"][0]["question"] == "kant-sapere-aude-2"
    assert sent[(SEAT, 2)]["view"]["turn"]["question"]["ref"] == positions["kant-vf-1-1"]


def test_the_reference_is_the_same_after_undo_and_redo_and_in_a_replay():
    g = played()
    before = messages(g)
    play(g, act("undo"))
    play(g, act("redo"))
    after = messages(g)
    for key in before:
        assert before[key]["view"] == after[key]["view"]
    again = Game(g.settings, list(g.questions.values()))
    for action in g.log:
        again.play(action)
    assert messages(again)[(WATCHER, None)]["view"] == after[(WATCHER, None)]["view"]
