"""The OpenAPI 3.1 description of the JSON API (``/api/v1/openapi.json``).

Built here in Python, next to the routes of :mod:`facilitator.web.api_v1`;
``tests/test_api.py`` checks that it lists exactly the routes the app serves
under ``/api/v1``, so the two cannot drift apart. ``docs/api.md`` explains it.
"""
from __future__ import annotations

from copy import deepcopy

VERSION = "1.0.0"


def _ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: dict, description: str) -> dict:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _error(description: str) -> dict:
    return _json(_ref("Error"), description)


#: The errors every protected route may answer.
UNAUTHORIZED = {"401": {"$ref": "#/components/responses/Unauthorized"}}

SCHEMAS: dict = {
    "Error": {
        "type": "object", "required": ["error", "message"],
        "properties": {
            "error": {"type": "string",
                      "description": "`format` (malformed request), a rule id of RULES.md "
                                     "(a rule id of the game's rule book: well formed, refused by the rules), "
                                     "`not_found` or `unauthorized`",
                      "examples": ["format", "not_found", "unauthorized"]},
            "message": {"type": "string", "description": "What is wrong, in words a teacher "
                                                         "understands (the pages' own message)"},
            "where": {"type": "string", "description": "The field at fault, when one is",
                      "examples": ["settings", "bank_id", "name", "file", "class_list"]},
            "report": {"$ref": "#/components/schemas/ImportReport"},
        },
    },
    "CountsByAuthorAndType": {
        "type": "object", "description": "`{author: {vf: n, quien: n, abierta: n}}`",
        "additionalProperties": {"type": "object",
                                 "additionalProperties": {"type": "integer", "minimum": 0}},
    },
    "Few": {
        "type": "array", "description": "The author and type pairs with fewer questions than "
                                        "`minimum` (a game soon runs out of them)",
        "items": {"type": "object", "required": ["author", "type", "count"],
                  "properties": {"author": {"type": "string"},
                                 "type": {"enum": ["vf", "quien", "abierta"]},
                                 "count": {"type": "integer"}}},
    },
    "Question": {
        "type": "object", "required": ["author", "type", "text", "answer"],
        "properties": {
            "id": {"type": "string", "maxLength": 200,
                   "description": "Unique in the bank; made up when empty or missing"},
            "author": {"type": "string", "maxLength": 200},
            "type": {"type": "string", "description": "vf, quien or abierta (the CSV "
                                                      "format's aliases are accepted: V/F...)"},
            "text": {"type": "string", "maxLength": 10000},
            "answer": {"type": "string", "maxLength": 10000},
            "notes": {"type": "string", "maxLength": 10000},
        },
    },
    "BankSummary": {
        "type": "object", "required": ["id", "name", "count"],
        "properties": {
            "id": {"type": "integer"}, "name": {"type": "string"},
            "count": {"type": "integer", "description": "Number of questions"},
            "questions_by_author_type": _ref("CountsByAuthorAndType"),
            "few": _ref("Few"), "sample": {"type": "boolean"},
            "url": {"type": "string", "description": "This bank in the API"},
        },
    },
    "Bank": {
        "allOf": [_ref("BankSummary"), {
            "type": "object",
            "properties": {"questions": {"type": "array", "items": _ref("Question")}}}],
    },
    "ImportIssue": {
        "type": "object", "required": ["line", "text"],
        "properties": {
            "line": {"type": ["integer", "null"],
                     "description": "Line of the file where the entry starts"},
            "text": {"type": "string", "description": "`file:line: what is wrong`, as the "
                                                      "console's import page shows it"},
            "reason": {"type": "string", "description": "Why the game cannot use it (unusable)"},
        },
    },
    "ImportReport": {
        "type": "object",
        "properties": {
            "file": {"type": "string"},
            "format": {"type": "string", "examples": ["csv", "gift", "moodle-xml", "json"]},
            "usable": {"type": "integer"}, "imported": {"type": "integer"},
            "errors": {"type": "array", "items": _ref("ImportIssue")},
            "unusable": {"type": "array", "items": _ref("ImportIssue")},
            "notes": {"type": "array", "items": {"type": "string"}},
            "no_expected_answer": {
                "type": "array", "items": _ref("ImportIssue"),
                "description": "Imported open questions without an expected answer "
                               "(\"sin respuesta esperada\"): the GM judges them"},
            "without_author": {
                "type": "integer",
                "description": "Moodle questions not imported for want of an author: no "
                               "category (or Moodle's default one) and no `author` sent"},
            "author_hint": {"type": "string",
                            "description": "How to give them one (empty when none lack it)"},
            "questions_by_author_type": _ref("CountsByAuthorAndType"),
        },
    },
    "Imported": {
        "type": "object", "required": ["id", "name", "count", "usable", "report"],
        "properties": {
            "id": {"type": "integer"}, "name": {"type": "string"},
            "count": {"type": "integer", "description": "Questions now in the bank"},
            "usable": {"type": "integer", "description": "Usable questions read"},
            "imported": {"type": "integer"}, "report": _ref("ImportReport"),
            "url": {"type": "string"},
        },
    },
    "BankJson": {
        "type": "object", "required": ["name", "questions"],
        "properties": {
            "name": {"type": "string", "maxLength": 200},
            "questions": {"type": "array", "items": _ref("Question")},
            "skip_errors": {"type": "boolean", "default": False,
                            "description": "Import the good questions of a list with errors"},
            "replace": {"type": "boolean", "default": False,
                        "description": "Replace the questions of the bank of that name"},
        },
    },
    "BankUpload": {
        "type": "object", "required": ["file"],
        "properties": {
            "file": {"type": "string", "format": "binary",
                     "description": "A CSV, Moodle GIFT or Moodle XML bank file (2 MB at most)"},
            "name": {"type": "string", "description": "The bank's name (default: the file's)"},
            "skip_errors": {"type": "string", "enum": ["true", "false", "1", "0"]},
            "replace": {"type": "string", "enum": ["true", "false", "1", "0"]},
            "author": {"type": "string", "maxLength": 200,
                       "description": "Moodle files: the author of the questions with no "
                                      "category, or in Moodle's default category"},
            "short_answer": {"type": "string", "enum": ["auto", "quien", "abierta"],
                             "default": "auto",
                             "description": "Moodle short answers: quien when they ask who "
                                            "said or wrote something or their answer names "
                                            "an author of the bank (auto); or all quien, or "
                                            "all abierta (expected answer: the accepted ones)"},
        },
    },
    "Settings": {
        "type": "object", "required": ["teams"],
        "description": "The settings of a partida/1 record (RULES.md section 11); checked by "
                       "the game's rules (teams, rounds, modes). `teams` may be left out when "
                       "`class_list` gives the students.",
        "properties": {
            "teams": {"type": "array", "items": {
                "type": "object", "required": ["name", "members"],
                "properties": {"name": {"type": "string", "maxLength": 100},
                               "members": {"type": "integer"}}}},
            "rounds": {"type": "integer"}, "max_members": {"type": "integer"},
            "round_modes": {"type": "array", "items": {"type": "array", "items": {
                "enum": ["normal", "simple", "risky"]}}},
            "individual_rounds": {"type": "array", "items": {"type": "integer"}},
            "deliberation_seconds": {"oneOf": [{"type": "integer"},
                                               {"type": "array", "items": {"type": "integer"}}]},
            "special_cards": {"type": "object"}, "bank_special_cards": {"type": "object"},
            "exchange_cost": {"type": "integer"},
            "points": {"type": "object", "additionalProperties": {"type": "number"}},
        },
        "additionalProperties": True,
    },
    "NewGame": {
        "type": "object", "required": ["settings", "bank_id"],
        "properties": {
            "settings": _ref("Settings"),
            "bank_id": {"type": "integer"},
            "name": {"type": "string", "maxLength": 200},
            "class_list": {
                "description": "The students: names dealt at random into the teams, "
                               "names per team, or teams with their members",
                "oneOf": [
                    {"type": "array", "items": {"type": "string"}},
                    {"type": "array", "items": {"type": "array", "items": {"type": "string"}}},
                    {"type": "array", "items": {
                        "type": "object", "required": ["members"],
                        "properties": {"name": {"type": "string"},
                                       "members": {"type": "array",
                                                   "items": {"type": "string"}}}}},
                ]},
        },
    },
    "TeamLinks": {
        "type": "object",
        "properties": {"team": {"type": "integer"}, "name": {"type": "string"},
                       "join_code": {"type": "string", "examples": ["ABCD-EFGH"]},
                       "join_url": {"type": "string"}, "qr_url": {"type": "string"}},
    },
    "Game": {
        "type": "object", "required": ["id", "name", "teams", "watch_url", "console_url"],
        "properties": {
            "id": {"type": "integer"}, "name": {"type": "string"},
            "created_at": {"type": "string"}, "over": {"type": "boolean"},
            "winner": {"type": ["string", "null"]}, "bank_name": {"type": ["string", "null"]},
            "teams": {"type": "array", "items": _ref("TeamLinks")},
            "watch_code": {"type": "string"},
            "watch_url": {"type": "string", "description": "The projector's page"},
            "console_url": {"type": "string", "description": "The GM console of the game"},
            "results_url": {"type": "string"},
            "url": {"type": "string", "description": "This game in the API"},
            "class_list": {"type": "array", "items": {"type": "array",
                                                      "items": {"type": "string"}},
                           "description": "The students of each team (when given)"},
        },
    },
    "GameListed": {
        "type": "object",
        "properties": {"id": {"type": "integer"}, "name": {"type": "string"},
                       "created_at": {"type": "string"}, "over": {"type": "boolean"},
                       "winner": {"type": ["string", "null"]},
                       "teams": {"type": "array", "items": {"type": "string"}},
                       "broken": {"type": ["string", "null"],
                                  "description": "Why the game's stored row cannot be read "
                                                 "(delete it), or null"},
                       "console_url": {"type": "string"}, "url": {"type": "string"}},
    },
    "GameState": {
        "type": "object", "required": ["game", "state"],
        "properties": {
            "game": _ref("Game"),
            "state": {"type": "object", "description": "The `state` message the GM console "
                                                       "receives (docs/protocol.md)"},
        },
    },
    "Record": {"type": "object", "description": "A partida/1 record (docs/protocol.md)",
               "required": ["format", "settings", "questions", "actions"],
               "properties": {"format": {"const": "partida/1"}}},
    "Results": {"type": "object", "description": "As the results page's JSON export: "
                                                 "standings, turns, timeline, cards, "
                                                 "participation",
                "properties": {"standings": {"type": "array"}, "turns": {"type": "array"},
                               "over": {"type": "boolean"}}},
}

GAME_ID = {"name": "game_id", "in": "path", "required": True, "schema": {"type": "integer"}}
BANK_ID = {"name": "bank_id", "in": "path", "required": True, "schema": {"type": "integer"}}
NOT_FOUND = {"404": _error("No such bank or game (`not_found`)")}
BROKEN = {"409": _error("The game is stored broken: its row or actions cannot be read "
                        "(`broken`); delete it")}

PATHS: dict = {
    "/openapi.json": {"get": {
        "operationId": "openapi", "summary": "This document",
        "responses": {"200": _json({"type": "object"}, "The OpenAPI 3.1 document")}}},
    "/banks": {
        "get": {"operationId": "listBanks", "summary": "The banks, with questions per author "
                                                        "and type",
                "responses": {"200": _json({"type": "object", "properties": {
                    "banks": {"type": "array", "items": _ref("BankSummary")},
                    "minimum": {"type": "integer"}}}, "The banks")}},
        "post": {"operationId": "importBank",
                 "summary": "Import a bank: a file (CSV, GIFT, Moodle XML) or JSON questions",
                 "description": "From a file with errors nothing is imported (422, with every "
                                "error and its line) unless `skip_errors`. `replace` replaces "
                                "the questions of the bank of that name; without it a name "
                                "already taken gives 409.",
                 "requestBody": {"required": True, "content": {
                     "multipart/form-data": {"schema": _ref("BankUpload")},
                     "application/json": {"schema": _ref("BankJson")}}},
                 "responses": {"201": _json(_ref("Imported"), "Imported"),
                               "400": _error("Malformed request"),
                               "409": _error("A bank of that name exists"),
                               "413": _error("The file is larger than 2 MB"),
                               "415": _error("Neither a file nor JSON"),
                               "422": _error("Errors in the file or no usable question; "
                                             "`report` lists them")}}},
    "/banks/{bank_id}": {
        "get": {"operationId": "getBank", "summary": "One bank and its questions",
                "parameters": [BANK_ID],
                "responses": {"200": _json(_ref("Bank"), "The bank"), **NOT_FOUND}},
        "delete": {"operationId": "deleteBank",
                   "summary": "Delete a bank (games keep their own copy of its questions)",
                   "parameters": [BANK_ID],
                   "responses": {"200": _json({"type": "object", "properties": {
                       "deleted": {"type": "boolean"}, "id": {"type": "integer"},
                       "name": {"type": "string"}}}, "Deleted"), **NOT_FOUND}}},
    "/banks/{bank_id}/export": {
        "get": {"operationId": "exportBank", "summary": "The bank as a CSV bank file (UTF-8 "
                                                         "with BOM), as the console exports it",
                "parameters": [BANK_ID],
                "responses": {"200": {"description": "The CSV file",
                                      "content": {"text/csv": {"schema": {"type": "string"}}}},
                              **NOT_FOUND}}},
    "/games": {
        "get": {"operationId": "listGames", "summary": "The games, newest first",
                "responses": {"200": _json({"type": "object", "properties": {
                    "games": {"type": "array", "items": _ref("GameListed")}}}, "The games")}},
        "post": {"operationId": "createGame",
                 "summary": "Create a game from settings and a bank, with its class list",
                 "description": "Checked as the console's set-up form: by the engine's "
                                "settings check. Answers each team's join code and address, "
                                "the projector's and the console's addresses.",
                 "requestBody": {"required": True,
                                 "content": {"application/json": {"schema": _ref("NewGame")}}},
                 "responses": {"201": _json(_ref("Game"), "Created"),
                               "400": _error("Malformed request (`format`)"),
                               "404": _error("No such bank (`not_found`)"),
                               "422": _error("The rules refuse the settings or the class list "
                                             "(the rule broken: teams, their sizes, rounds, "
                                             "modes)")}}},
    "/games/{game_id}": {
        "get": {"operationId": "getGame",
                "summary": "A game's summary and the GM's live state (as the console receives "
                           "it)",
                "parameters": [GAME_ID],
                "responses": {"200": _json(_ref("GameState"), "The game"), **NOT_FOUND,
                              **BROKEN}},
        "delete": {"operationId": "deleteGame",
                   "summary": "Delete a game (one stored broken too); its devices are "
                              "disconnected and their tokens refused from then on",
                   "parameters": [GAME_ID],
                   "responses": {"200": _json({"type": "object", "properties": {
                       "deleted": {"type": "boolean"}, "id": {"type": "integer"}}},
                       "Deleted"), **NOT_FOUND}}},
    "/games/{game_id}/record": {
        "get": {"operationId": "getRecord", "summary": "The game's partida/1 record",
                "parameters": [GAME_ID],
                "responses": {"200": _json(_ref("Record"), "The record"), **NOT_FOUND,
                              **BROKEN}}},
    "/games/{game_id}/results": {
        "get": {"operationId": "getResults",
                "summary": "The results, as the results page exports them",
                "parameters": [GAME_ID],
                "responses": {"200": _json(_ref("Results"), "The results"), **NOT_FOUND,
                              **BROKEN}}},
}


def openapi_document(server_url: str = "/api/v1") -> dict:
    """The OpenAPI 3.1 document of the API served at ``server_url``."""
    paths = deepcopy(PATHS)
    for operations in paths.values():
        for operation in operations.values():
            operation["responses"].update(UNAUTHORIZED)
    return {
        "openapi": "3.1.0",
        "info": {"title": "La partida: facilitator API", "version": VERSION,
                 "description": "Question banks and games of the facilitator, for scripts and "
                                "other platforms. See docs/api.md."},
        "servers": [{"url": server_url}],
        "security": [{"bearerToken": []}, {"consoleSession": []}],
        "paths": paths,
        "components": {
            "schemas": deepcopy(SCHEMAS),
            "responses": {"Unauthorized": _error(
                "No GM session and no API token, or a revoked or unknown token "
                "(`unauthorized`)")},
            "securitySchemes": {
                "bearerToken": {"type": "http", "scheme": "bearer",
                                "description": "A personal API token issued at "
                                               "/console/tokens"},
                "consoleSession": {"type": "apiKey", "in": "cookie", "name": "session",
                                   "description": "The GM console's login session"},
            },
        },
    }
