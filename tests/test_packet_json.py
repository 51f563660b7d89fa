"""The JSON of Socket.IO packets (facilitator/live/packets.py, ``PacketJson``): what a
screen parses is what the standard module would have written, whatever the text."""
import json

import pytest

from facilitator.live.packets import PacketJson

STATE = ["state", {"game": 7, "name": "Ñandú y «Pingüino» 🐧", "seq": 12, "now": 1796185586123,
                   "view": {"teams": [{"team": 1, "name": "Los de atrás", "score": 2.5,
                                       "special": {}, "cards": ["author:Sócrates"]}],
                            "turn": {"question": None, "answer": "Sí\n\t\"así\" \\ fin"}},
                   "devices": {1: 2, "2": 1}, "legal": [], "ok": True, "minus": -0.5}]


def test_a_state_reads_back_as_the_standard_module_writes_it():
    assert json.loads(PacketJson.dumps(STATE)) == json.loads(json.dumps(STATE))


def test_accented_text_is_written_as_itself_not_escaped():
    assert "Ñandú" in PacketJson.dumps(STATE) and "\\u00d1" not in PacketJson.dumps(STATE)


def test_text_orjson_refuses_is_still_written():
    # No page sends a lone surrogate (the handlers refuse it), but a state must never
    # fail to go out because of one.
    value = ["state", {"name": "a\ud800b", "seq": 1}]
    assert json.loads(PacketJson.dumps(value)) == value


def test_reading_refuses_a_number_of_hundreds_of_digits():
    with pytest.raises(ValueError):
        PacketJson.loads("[" + "9" * 500 + "]")
    assert PacketJson.loads('["sync", {"seq": 3}]') == ["sync", {"seq": 3}]


def test_an_event_s_lone_surrogates_are_found_wherever_orjson_can_write_or_not():
    # The handlers' check writes the payload with orjson first (valid UTF-8 or an
    # error) and walks it only when that fails: both must say the same.
    from facilitator.live.handlers import _lone_surrogate
    deep = ["x"]
    for _ in range(300):                          # deeper than orjson writes
        deep = [deep]
    for payload, has in [([{"id": "a", "action": {"do": "declare"}}], False),
                         ([{"name": "Ana\ud800"}], True), ([{"a\udfff": 1}], True),
                         ([{"seq": 10 ** 30, "name": "Ñandú 🐧"}], False),   # huge: walked
                         ([{"seq": 10 ** 30, "name": "\ud800"}], True),
                         ([{1: "a"}], False), ([deep], False), (["\ud800", deep], True)]:
        assert _lone_surrogate(payload) is has, payload
