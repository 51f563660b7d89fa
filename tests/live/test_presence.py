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


def test_without_redis_the_count_is_this_process_s_and_no_broadcast_waits(caplog):
    """Redis unreachable (nothing listens on port 1): the GM count falls back to this
    process's devices at once, and Redis is not asked again for a while."""
    import time

    from facilitator.live.shared_presence import SharedPresence
    shared = SharedPresence("redis://127.0.0.1:1/0", "test")
    shared.add("a", Audience(TEAM, 7, 2))
    began = time.monotonic()
    assert shared.devices(7) == {"2": 1}
    shared.publish(7)
    for _ in range(50):
        assert shared.devices(7) == {"2": 1}
    assert time.monotonic() - began < 1.5
    assert sum("Redis does not answer" in r.getMessage() for r in caplog.records) == 1


def test_the_projector_lobby_sees_each_teams_devices_come_and_go(server):
    """Issue 13: the lobby shows each team's devices joining, live."""
    from table import Table
    table = Table(server)
    try:
        first = table.projector.wait_for(lambda s: len(s.get("devices", {})) == 4)
        assert first["devices"] == {"1": 1, "2": 1, "3": 1, "4": 1}
        assert "device_ids" not in first            # ids are the GM's business only
        table.teams[3].close()
        after = table.projector.wait_for(lambda s: "3" not in s.get("devices", {}), timeout=10)
        assert after["devices"] == {"1": 1, "2": 1, "4": 1}
        assert all("devices" not in s for s in table.teams[1].states)   # never to a team
    finally:
        table.close()
