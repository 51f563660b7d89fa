"""After the game: exports, charts' data, participation, loading a record, history (issue 7)."""
import csv
import io
import json
import pathlib

import pytest
from click.testing import CliRunner

from facilitator import create_app
from facilitator.cli import main as cli
from facilitator.games.partida import load_record, replay, write_record
from facilitator.games.partida.exports import participation, summary_json, timeline

from rulebook import act, new_game, normal_turn, play

SCENARIOS = pathlib.Path(__file__).resolve().parent / "scenarios"      # tests/scenarios
PLAYABLE = sorted(p for p in SCENARIOS.glob("*.record.json")
                  if "standings" in json.loads(p.with_name(p.name.replace(".record", ".expected"))
                                               .read_text(encoding="utf-8")))
REFUSED = sorted(set(SCENARIOS.glob("*.record.json")) - set(PLAYABLE))
#: A whole normal round (4 turns) and a whole two-round game (8 turns).
ONE_ROUND = SCENARIOS / "r01-normal-round.record.json"
TWO_ROUNDS = SCENARIOS / "o03-serpentine-order.record.json"
#: The records bring their questions.
pytestmark = pytest.mark.app_config(SAMPLE_BANK=None)


def upload(gm, record: dict | bytes, then="review"):
    data = record if isinstance(record, bytes) else json.dumps(record).encode()
    return gm.post("/console/records", data={"record": (io.BytesIO(data), "partida.json"),
                                             "then": then},
                   content_type="multipart/form-data")


def expected(path):
    return json.loads(path.with_name(path.name.replace(".record", ".expected")).read_text())


@pytest.mark.parametrize("path", PLAYABLE, ids=lambda p: p.name)
def test_exports_match_the_engine_standings_for_every_scenario(gm, path):
    record = load_record(path.read_text(encoding="utf-8"))
    response = upload(gm, record)
    assert response.status_code == 302
    game_id = int(response.headers["Location"].split("/")[2])
    rows = list(csv.DictReader(io.StringIO(
        gm.get(f"/console/{game_id}/standings.csv").get_data(as_text=True).lstrip("\ufeff"))))
    want = expected(path)["standings"]
    assert [(int(r["team"]), int(r["rank"]), float(r["score"])) for r in rows] == [
        (w["team"], w["rank"], w["score"]) for w in want]
    turns = list(csv.DictReader(io.StringIO(
        gm.get(f"/console/{game_id}/turns.csv").get_data(as_text=True).lstrip("\ufeff"))))
    game = replay(record)
    assert len(turns) == len(game.state.history)
    per_team = {w["team"]: 0.0 for w in want}
    for turn in turns:
        for team in per_team:
            per_team[team] += float(turn[f"points_team_{team}"])
    # Adjustments (R-P3) and the cards given in exchanges (R-K6) are not a turn's points.
    for row in game.standings():
        per_team[row["team"]] += float(row["adjustments"])
    for action in game.effective_actions():
        if action.do == "exchange":
            per_team[action.team] -= float(len(action.give) * game.settings.points.card)
    assert per_team == {w["team"]: w["score"] for w in want}
    summary = gm.get(f"/console/{game_id}/results.json").get_json()
    assert [(s["team"], s["rank"], s["score"]) for s in summary["standings"]] == [
        (w["team"], w["rank"], w["score"]) for w in want]
    assert gm.get(f"/console/{game_id}/record.json").get_json()["actions"] == record["actions"]
    page = gm.get(f"/console/{game_id}/results").get_data(as_text=True)
    assert 'data-testid="podium"' in page and 'data-testid="chart-scores"' in page


@pytest.mark.parametrize("path", PLAYABLE, ids=lambda p: p.name)
def test_cli_export_csv_json_and_record_of_a_record_file(path, tmp_path):
    runner = CliRunner()
    out = runner.invoke(cli, ["export", str(path), "--format", "csv", "--table", "standings"])
    assert out.exit_code == 0, out.output
    rows = list(csv.DictReader(io.StringIO(out.output)))
    assert [(int(r["team"]), int(r["rank"]), float(r["score"])) for r in rows] == [
        (w["team"], w["rank"], w["score"]) for w in expected(path)["standings"]]
    out = runner.invoke(cli, ["export", str(path), "--format", "json"])
    assert json.loads(out.output)["standings"][0]["team"] == expected(path)["standings"][0]["team"]
    target = tmp_path / "again.json"
    out = runner.invoke(cli, ["export", str(path), "--format", "record", "-o", str(target)])
    assert out.exit_code == 0
    again = replay(json.loads(target.read_text(encoding="utf-8")))
    assert again.state.to_dict() == replay(load_record(path.read_text())).state.to_dict()


@pytest.mark.parametrize("path", REFUSED, ids=lambda p: p.name)
def test_cli_export_of_a_refused_record_names_the_rule(path):
    out = CliRunner().invoke(cli, ["export", str(path)])
    assert out.exit_code != 0 and expected(path)["error"] in out.output


def test_cli_export_of_a_stored_game_by_id(database_url, tmp_path, monkeypatch):
    monkeypatch.setenv("FACILITATOR_DATABASE_URL", database_url)
    monkeypatch.setenv("FACILITATOR_INSTANCE", str(tmp_path))
    app = create_app({"ASYNC_MODE": "threading", "SAMPLE_BANK": str(tmp_path / "none.csv")})
    from facilitator.extensions import store
    record = load_record(ONE_ROUND.read_text(encoding="utf-8"))
    with app.app_context():
        game_id = store.import_record(record, "Filosofía 1ºA")
    out = CliRunner().invoke(cli, ["export", str(game_id), "--format", "json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["name"] == "Filosofía 1ºA"
    assert CliRunner().invoke(cli, ["export", "999"]).exit_code != 0


def test_timeline_ends_at_the_standings_and_marks_rounds():
    record = load_record(TWO_ROUNDS.read_text(encoding="utf-8"))
    game = replay(record)
    line = timeline(game)
    finals = {t["team"]: t["scores"][-1] for t in line["teams"]}
    assert finals == {r["team"]: r["score"] for r in game.standings()}
    assert len(line["turns"]) == len(game.state.history) + 1
    assert [r["round"] for r in line["rounds"]] == sorted({h["round"] for h in game.state.history})


def test_timeline_skips_undone_actions_and_counts_adjustments():
    game = new_game()
    play(game, *normal_turn("Kant", "vf", "full"), act("end_turn"),
         act("adjust", team=2, points=3, reason="participación"),
         *normal_turn("Marx", "vf", "wrong"), act("undo"), act("verdict", result="full"),
         act("end_turn"))
    line = timeline(game)
    team2 = next(t for t in line["teams"] if t["team"] == 2)
    assert team2["scores"] == [0, 0, 5]           # the adjustment came after turn 1 ended
    assert next(t for t in line["teams"] if t["team"] == 1)["scores"] == [0, 2, 2]


def test_participation_shows_who_never_spoke():
    game = new_game(roster=[["Ana", "Luis", "Eva", "Sol"], ["Iker", "Noa", "Leo", "Mar"],
                            ["A", "B", "C", "D"], ["E", "F", "G", "H"]])
    play(game, act("spokesperson", team=1, name="Ana"), *normal_turn(), act("end_turn"),
         act("spokesperson", team=2, name="Noa"), *normal_turn("Marx"), act("end_turn"))
    rows = {(r["team"], r["student"]): r["spoke"] for r in participation(game)}
    assert rows[(1, "Ana")] == 1 and rows[(2, "Noa")] == 1
    assert rows[(1, "Luis")] == 0 and rows[(2, "Iker")] == 0
    assert len(rows) == 16


def test_a_record_loads_to_continue_live_or_is_refused_with_its_rule(gm):
    record = load_record(ONE_ROUND.read_text(encoding="utf-8"))
    record["actions"] = record["actions"][:7]
    response = upload(gm, record, then="continue")
    assert response.status_code == 302 and response.headers["Location"].endswith(
        response.headers["Location"].split("/")[-1])
    assert "/results" not in response.headers["Location"]
    broken = dict(record, actions=record["actions"] + [{"do": "end_turn"}, {"do": "end_turn"}])
    response = upload(gm, broken)
    assert response.status_code == 400
    assert "R-U10" in response.get_data(as_text=True)
    assert upload(gm, b"\xff\xfe not json").status_code == 400


def test_history_lists_past_games_with_winner_and_they_can_be_deleted(gm):
    record = load_record(ONE_ROUND.read_text(encoding="utf-8"))
    game_id = int(upload(gm, record).headers["Location"].split("/")[2])
    page = gm.get("/console").get_data(as_text=True)
    assert "Equipo 1" in page
    assert gm.post(f"/console/{game_id}/delete").status_code == 302
    assert gm.get(f"/console/{game_id}/results").status_code == 404


def test_results_pages_need_the_gm(app):
    anonymous = app.test_client()
    assert anonymous.get("/console/1/results").status_code == 302
    assert anonymous.get("/console/1/standings.csv").status_code == 302


def test_summary_json_is_complete():
    game = replay(load_record(TWO_ROUNDS.read_text(encoding="utf-8")))
    data = summary_json(game, "x")
    assert {"standings", "turns", "timeline", "cards", "participation", "adjustments"} <= set(data)
    assert data["cards"]["types"] == ["vf", "quien", "abierta"]
    record = write_record(game)
    assert replay(record).standings() == game.standings()


@pytest.mark.parametrize("lang, header", [("es", "Puesto"), ("en", "Rank")])
def test_the_xlsx_export_has_headers_in_the_pages_language_and_numbers_as_numbers(gm, lang, header):
    """Issue 13: a spreadsheet a teacher opens (openpyxl); the CSV stays the machine format."""
    import openpyxl
    record = load_record(TWO_ROUNDS.read_text(encoding="utf-8"))
    response = upload(gm, record)
    game_id = int(response.headers["Location"].split("/")[2])
    got = gm.get(f"/console/{game_id}/results.xlsx?lang={lang}")
    assert got.status_code == 200
    assert got.mimetype == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    book = openpyxl.load_workbook(io.BytesIO(got.data))
    standings, turns = book.worksheets
    rows = list(standings.iter_rows(values_only=True))
    assert rows[0][0] == header
    want = [(r["rank"], r["team"], r["score"]) for r in replay(record).standings()]
    assert [(r[0], r[1], r[3]) for r in rows[1:]] == want
    for row in rows[1:]:
        assert isinstance(row[0], int) and isinstance(row[3], (int, float))
    turn_rows = list(turns.iter_rows(values_only=True))
    assert len(turn_rows) == 1 + len(replay(record).state.history)
    assert all(isinstance(v, (int, float)) for v in turn_rows[1][-4:])
    page = gm.get(f"/console/{game_id}/results?lang={lang}").get_data(as_text=True)
    assert 'data-testid="download-xlsx"' in page


@pytest.mark.parametrize("lang, words", [
    ("es", {"mode": "Desafío simple", "type": "Verdadero o Falso", "verdict": "Completa",
            "written_correct": "Correcta", "consolations": "Premios consuelo",
            "adjustments": "Correcciones de puntaje"}),
    ("es-ES", {"mode": "Desafío simple", "type": "Verdadero o Falso", "verdict": "Completa",
               "written_correct": "Correcta", "consolations": "Premios de consolación",
               "adjustments": "Correcciones de puntuación"}),
    ("en", {"mode": "Simple challenge", "type": "True or False", "verdict": "Full",
            "written_correct": "Correct", "consolations": "Consolation prizes",
            "adjustments": "Score corrections"}),
])
def test_the_xlsx_writes_modes_types_and_verdicts_in_words_and_the_csv_keeps_codes(gm, lang,
                                                                                   words):
    """Issue 34: a teacher's workbook says «Verdadero o Falso», «Completa»; the CSV files
    stay the stable machine format (vf, full)."""
    import openpyxl
    record = load_record((SCENARIOS / "r04-consolation.record.json").read_text(encoding="utf-8"))
    game_id = int(upload(gm, record).headers["Location"].split("/")[2])
    book = openpyxl.load_workbook(io.BytesIO(gm.get(f"/console/{game_id}/results.xlsx?lang={lang}").data))
    standings, turns = book.worksheets
    header = [c.value for c in standings[1]]
    assert words["consolations"] in header and words["adjustments"] in header
    rows = list(turns.iter_rows(values_only=True))
    first = dict(zip(rows[0], rows[1]))
    tr = {k: rows[0][i] for i, k in enumerate(["turn", "round", "host", "mode", "challenged",
                                                "author", "type", "question_text", "verdict",
                                                "written", "written_correct"])}
    assert first[tr["mode"]] == words["mode"] and first[tr["type"]] == words["type"]
    assert first[tr["verdict"]] == words["verdict"]
    assert first[tr["written_correct"]] == words["written_correct"]
    assert {r[6] for r in rows[1:]} <= {"Verdadero o Falso", "Quién lo dijo", "Pregunta abierta",
                                        "True or False", "Who said it", "Open question"}
    turns_csv = list(csv.DictReader(io.StringIO(
        gm.get(f"/console/{game_id}/turns.csv?lang={lang}").get_data(as_text=True).lstrip("\ufeff"))))
    assert [(r["mode"], r["type"], r["verdict"]) for r in turns_csv] == [
        ("simple", "vf", "full"), ("risky", "quien", "full"), ("simple", "abierta", "full")]
    assert turns_csv[0]["written_correct"] == "True"


def test_participation_lists_names_as_the_language_sorts_them():
    """Issue 34: «María» before «Martina» (accents fold), «Ñandú» after «Nuño» in Spanish;
    English folds ñ to n."""
    from rulebook import bank
    from facilitator.games.partida import Game, parse_settings
    names = ["Martina", "Ñandú", "maría", "Nuño", "Álvaro"]
    settings = parse_settings({"teams": [{"name": f"E{n}", "members": 5 if n == 1 else 4}
                                         for n in range(1, 5)],
                               "roster": [names, ["a", "b", "c", "d"], ["e", "f", "g", "h"],
                                          ["i", "j", "k", "l"]]})
    game = Game(settings, bank())
    team_one = lambda lang: [r["student"] for r in participation(game, lang) if r["team"] == 1]  # noqa: E731
    assert team_one("es") == ["Álvaro", "maría", "Martina", "Nuño", "Ñandú"]
    assert team_one("en") == ["Álvaro", "maría", "Martina", "Ñandú", "Nuño"]
    assert [r["student"] for r in summary_json(game, "x", "es")["participation"]][:5] == \
        team_one("es")


def test_the_results_page_names_the_team_of_each_correction(app, gm):
    """Issue 47: a correction reads «Rojo: +0,5 — motivo», not «3 +0,5»: the team by its
    name, the points with their sign, in the page's language."""
    from facilitator.extensions import store
    from facilitator.games.protocol import Role
    settings = {"teams": [{"name": name, "members": 3} for name in ("Rojo", "Azul", "Verde", "Gris")]}
    with app.app_context():
        game_id = store.create_game("partida", "Correcciones", settings)
        store.transact(game_id, "gm", lambda c: c.act(
            {"do": "adjust", "team": 3, "points": 0.5, "reason": "buena pregunta"}, Role.gm(), 0.0))
    page = gm.get(f"/console/{game_id}/results?lang=es").get_data(as_text=True)
    listed = page.split('data-testid="adjustments"')[1].split("</ul>")[0]
    assert "Verde: +0,5 — buena pregunta" in listed
    english = gm.get(f"/console/{game_id}/results?lang=en").get_data(as_text=True)
    assert "Verde: +0.5 — buena pregunta" in english
