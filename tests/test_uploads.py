"""Record uploads of any shape get a 400 naming the problem, never a 500 (issue 12, item 5)."""
import io
import json
import pathlib

import pytest

from facilitator import create_app

SCENARIOS = pathlib.Path(__file__).resolve().parent / "scenarios"
ONE_ROUND = SCENARIOS / "r01-normal-round.record.json"
#: The records uploaded bring their questions.
pytestmark = pytest.mark.app_config(SAMPLE_BANK=None)


def good():
    return json.loads(ONE_ROUND.read_text(encoding="utf-8"))


def upload(gm, data: bytes, filename="partida.json"):
    return gm.post("/console/records", data={"record": (io.BytesIO(data), filename),
                                             "then": "review"},
                   content_type="multipart/form-data")


def encoded(record) -> bytes:
    return json.dumps(record).encode()


def deep(depth: int) -> str:
    return "[" * depth + "]" * depth


BAD = {
    "nested lists": (deep(10_000)).encode(),
    "nested objects": ('{"a":' * 10_000 + "1" + "}" * 10_000).encode(),
    "nested inside settings": encoded(good())[:-1] + b"}",  # replaced below
    "not an object": b"[1, 2, 3]",
    "a string": b'"partida/1"',
    "null": b"null",
    "a number name": encoded({**good(), "name": 5}),
    "a list name": encoded({**good(), "name": ["a", "b"]}),
    "an object name": encoded({**good(), "name": {"x": 1}}),
    "a surrogate name": encoded({**good(), "name": "Clase \ud800"}),
    "a long name": encoded({**good(), "name": "n" * 5000}),
    "settings not an object": encoded({**good(), "settings": [1]}),
    "actions not a list": encoded({**good(), "actions": {"do": "declare"}}),
    "an action not an object": encoded({**good(), "actions": [7]}),
    "questions not a list": encoded({**good(), "questions": "q"}),
    "a question not an object": encoded({**good(), "questions": [None]}),
    "a huge integer": ('{"format": "partida/1", "settings": {"rounds": ' + "9" * 5000
                       + "}}").encode(),
    "huge rounds": encoded({**good(), "settings": {**good()["settings"], "rounds": 10 ** 30}}),
    "infinite points": encoded(good()).replace(b'"actions": [', b'"actions": [{"do": "adjust", '
                                               b'"team": 1, "points": 1e999, "reason": "x"}, ', 1),
    "a surrogate in an action": encoded({**good(), "actions": [
        {"do": "adjust", "team": 1, "points": 1, "reason": "x\ud800"}]}),
    "a surrogate in an extra setting": encoded({**good(), "settings": {
        **good()["settings"], "x_note": "\udfff"}}),
    "a surrogate in a question": encoded({**good(), "questions": [
        {**good()["questions"][0], "notes": "\ud800"}] + good()["questions"][1:]}),
    "not json": b"{partida",
    "not utf-8": b"\xff\xfe\x00",
    "empty": b"",
    "a bank name that is not text": encoded({**{k: v for k, v in good().items()
                                               if k != "questions"}, "bank": ["x"]}),
}
BAD["nested inside settings"] = encoded({**good(), "settings": {
    **good()["settings"], "x_note": json.loads(deep(900))}})


@pytest.mark.parametrize("name", sorted(BAD))
def test_any_malformed_upload_is_a_400_naming_the_problem(gm, name):
    response = upload(gm, BAD[name])
    assert response.status_code == 400, (name, response.get_data(as_text=True)[:500])
    page = response.get_data(as_text=True)
    assert 'data-testid="upload-error"' in page


def test_a_deep_record_says_it_is_too_deep(gm):
    page = upload(gm, deep(10_000).encode()).get_data(as_text=True)
    assert "format" in page and "deep" in page


def test_a_non_text_name_says_so(gm):
    page = upload(gm, encoded({**good(), "name": 5})).get_data(as_text=True)
    assert "format" in page and "name" in page


def test_a_good_record_still_loads(gm):
    response = upload(gm, encoded({**good(), "name": "Filosofía 1ºA"}))
    assert response.status_code == 302
    assert "/results" in response.headers["Location"]


@pytest.mark.parametrize("body", [
    deep(10_000), '{"settings": ' * 5000 + "1" + "}" * 5000,
    json.dumps({"settings": {"teams": [{"name": "E", "members": 4}] * 4, "rounds": 10 ** 9}}),
    json.dumps({"settings": {"teams": [{"name": "E", "members": 4}] * 4,
                             "x": json.loads(deep(900))}}),
    json.dumps({"name": ["x"], "settings": {"teams": [{"name": "E", "members": 4}] * 4}}),
    json.dumps({"settings": {"teams": [{"name": "E", "members": 4}] * 4,
                             "x": "\ud800"}}),
])
def test_the_api_answers_any_game_body_with_a_json_4xx(gm, body):
    response = gm.post("/api/v1/games", data=body, content_type="application/json")
    assert 400 <= response.status_code < 500, response.get_data(as_text=True)[:300]
    assert response.get_json()["error"]


# -- files readable by their owner only ------------------------------------------------

def test_a_fresh_instance_folder_and_database_are_private(tmp_path, monkeypatch):
    import os
    import stat
    monkeypatch.setenv("FACILITATOR_INSTANCE", str(tmp_path / "fresh" / "instance"))
    monkeypatch.delenv("FACILITATOR_DATABASE_URL", raising=False)
    monkeypatch.delenv("FACILITATOR_SECRET_KEY", raising=False)
    old = os.umask(0o022)
    try:
        app = create_app({"ASYNC_MODE": "threading", "GM_PASSWORD": "k",
                          "SAMPLE_BANK": str(tmp_path / "none.csv")})
        client = app.test_client()
        assert client.post("/console/login", data={"secret": "k"}).status_code == 302
    finally:
        os.umask(old)
    folder = tmp_path / "fresh" / "instance"

    def mode(path):
        return stat.S_IMODE(os.stat(path).st_mode)
    assert mode(folder) == 0o700
    assert mode(folder / "secret_key") == 0o600
    database = folder / "facilitator.db"
    assert mode(database) == 0o600
    for extra in ("facilitator.db-wal", "facilitator.db-shm"):
        if (folder / extra).exists():
            assert mode(folder / extra) == 0o600, extra
    assert app.config["DATABASE_URL"].endswith(str(database))


def test_an_existing_world_readable_database_is_made_private(tmp_path):
    import os
    import sqlite3
    import stat
    path = tmp_path / "old.db"
    sqlite3.connect(path).close()
    os.chmod(path, 0o644)
    create_app({"DATABASE_URL": f"sqlite:///{path}", "ASYNC_MODE": "threading",
                "SAMPLE_BANK": str(tmp_path / "none.csv")})
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600


# -- bank imports are bounded ----------------------------------------------------------

def _rows(count: int) -> bytes:
    return ("id,author,type,text,answer\n"
            + "".join(f"q{i},A,vf,T{i},R\n" for i in range(count))).encode()


def test_a_csv_bank_over_the_row_limit_is_refused_whole():
    from facilitator.questions import read_csv
    from facilitator.questions.csv_bank import MAX_ROWS
    report = read_csv(_rows(MAX_ROWS + 1), "grande.csv")
    assert not report.questions and len(report.errors) == 1
    assert f"{MAX_ROWS:,}" in str(report.errors[0]) and "split" in str(report.errors[0])
    assert len(read_csv(_rows(MAX_ROWS), "justo.csv").questions) == MAX_ROWS


def test_the_console_refuses_a_bank_over_the_row_limit_with_a_clear_message(gm, monkeypatch):
    # A smaller limit: werkzeug's test client spools a large upload to a file it leaks.
    from facilitator.questions import csv_bank
    monkeypatch.setattr(csv_bank, "MAX_ROWS", 1000)
    MAX_ROWS = csv_bank.MAX_ROWS
    response = gm.post("/console/banks/import",
                       data={"file": (io.BytesIO(_rows(MAX_ROWS + 1)), "grande.csv"),
                             "target": "new", "name": "grande", "skip_errors": "1"},
                       content_type="multipart/form-data",
                       headers={"Origin": "http://localhost"})
    assert response.status_code == 400
    assert f"{MAX_ROWS:,}" in response.get_data(as_text=True)


def test_formatted_text_in_an_uploaded_record_is_sanitised_again(gm):
    """A record is a file anyone may have edited: its questions' HTML goes through the
    allow-list again (no script, no handler, no remote image) before any screen gets it."""
    from facilitator.extensions import store
    record = good()
    record["questions"][0]["text_html"] = ('<p onclick="x()">¿Quién <script>alert(1)</script>'
                                           '<img src="http://evil.example/x.png"><em>dijo</em>?</p>')
    before = {row.id for row in store.list_games()}
    response = upload(gm, encoded(record))
    assert response.status_code in (200, 302), response.get_data(as_text=True)[:300]
    (game_id,) = {row.id for row in store.list_games()} - before
    html = store.row(game_id).content[0]["text_html"]
    assert html == "<p>¿Quién <em>dijo</em>?</p>", html
