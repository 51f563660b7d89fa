"""Who holds a colour (docs/hive.md H-G8): the computer's seat is never offered, and a
pair's tablet moves, offers or accepts nothing for a colour a phone holds."""
from __future__ import annotations

import pytest

from facilitator.games import Refusal
from facilitator.games.hive.match import KIND
from facilitator.live.seats import refuse_table_for_held
from facilitator.store.seats import seat_list


def test_h_g8_the_computer_seat_is_never_offered():
    match = KIND.new({"bot": 2}, players={"white": "Ana", "black": "Bot"})
    assert [s["seat"] for s in seat_list(match)] == [1]


@pytest.mark.parametrize("do", ["move", "offer_draw"])
def test_h_g8_the_tablet_acts_for_no_colour_a_phone_holds(do):
    match = KIND.new({}, players={"white": "Ana", "black": "Ben"})
    action = {"do": do, "move": "wG1"}
    refuse_table_for_held(match, action, {}, KIND)          # one tablet, no phone
    refuse_table_for_held(match, {"do": "move", "move": "wG1"}, {"2": "phone"}, KIND)
    with pytest.raises(Refusal) as refused:
        refuse_table_for_held(match, action, {"1": "phone"}, KIND)
    assert refused.value.rule == "H-G8"
