"""The GM's "devices connected" count: kept as devices come and go, per game and team."""
from facilitator.live.audience import GM, PROJECTOR, TEAM, Audience
from facilitator.live.presence import Presence


def test_devices_are_counted_per_team_as_they_come_and_go():
    presence = Presence()
    presence.add("a", Audience(TEAM, 7, 2))
    presence.add("b", Audience(TEAM, 7, 2))
    presence.add("c", Audience(TEAM, 7, 1))
    presence.add("d", Audience(TEAM, 8, 1))          # another game
    presence.add("g", Audience(GM, 7))               # consoles and projectors are no devices
    presence.add("p", Audience(PROJECTOR, 7))
    assert presence.devices(7) == {"1": 1, "2": 2}
    assert presence.remove("b") == Audience(TEAM, 7, 2)
    assert presence.devices(7) == {"1": 1, "2": 1}
    presence.remove("a")
    presence.remove("c")
    assert presence.devices(7) == {}
    assert presence.devices(8) == {"1": 1}


def test_a_connection_forgotten_twice_or_added_twice_counts_once():
    presence = Presence()
    presence.add("a", Audience(TEAM, 7, 3))
    presence.add("a", Audience(TEAM, 7, 3))
    assert presence.devices(7) == {"3": 1}
    presence.remove("a")
    assert presence.remove("a") is None
    assert presence.devices(7) == {}
