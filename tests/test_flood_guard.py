"""The flood guard's bookkeeping (facilitator/live/flood.py), on a clock of the test's own:
a device cut for flooding is barred from coming back at once."""
from __future__ import annotations

from facilitator import patches
from facilitator.live import flood
from facilitator.live.flood import FloodGuard


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


TEAM = {"role": "team", "token": "token-of-team-1"}
OTHER_TEAM = {"role": "team", "token": "token-of-team-2"}


def test_a_connection_cut_for_flooding_bars_its_credentials_and_only_them():
    clock = Clock()
    guard = FloodGuard(clock=clock)
    assert guard.allow_connect(TEAM, "10.0.0.5")
    guard.connected("sid-1", TEAM, "10.0.0.5")
    assert guard.bar("sid-1") == flood.BAR_SECONDS
    guard.forget("sid-1")                       # the cut closes the connection
    assert not guard.allow_connect(TEAM, "10.0.0.5")
    assert guard.allow_connect(OTHER_TEAM, "10.0.0.5")      # the same address, another device
    assert guard.barred() == 1
    clock.now += flood.BAR_SECONDS + 0.1
    assert guard.allow_connect(TEAM, "10.0.0.5")
    assert guard.barred() == 0


def test_each_further_cut_doubles_the_bar_up_to_its_maximum_and_is_forgotten_later():
    clock = Clock()
    guard = FloodGuard(clock=clock)
    bars = []
    for n in range(6):
        guard.connected(f"sid-{n}", TEAM, "10.0.0.5")
        bars.append(guard.bar(f"sid-{n}"))
        guard.forget(f"sid-{n}")
        clock.now += bars[-1] + 1
    assert bars == [10, 20, 40, 80, 120, 120]
    clock.now += flood.BAR_MEMORY + 1           # a quiet while: the first bar again
    guard.connected("sid-late", TEAM, "10.0.0.5")
    assert guard.bar("sid-late") == flood.BAR_SECONDS


def test_a_second_connection_cut_while_barred_does_not_lengthen_the_bar():
    clock = Clock()
    guard = FloodGuard(clock=clock)
    guard.connected("sid-a", TEAM, "10.0.0.5")
    guard.connected("sid-b", TEAM, "10.0.0.5")
    assert guard.bar("sid-a") == 10
    clock.now += 4
    assert guard.bar("sid-b") == 6


def test_an_unknown_connection_or_no_limits_bars_nothing():
    guard = FloodGuard(clock=Clock())
    assert guard.bar(None) == 0 and guard.bar("never-connected") == 0
    unlimited = FloodGuard(scale=0, clock=Clock())
    unlimited.connected("sid-1", TEAM, "10.0.0.5")
    assert unlimited.bar("sid-1") == 0 and unlimited.allow_connect(TEAM, "10.0.0.5")


def test_a_closed_connection_leaves_nothing_behind():
    guard = FloodGuard(clock=Clock())
    guard.connected("sid-1", TEAM, "10.0.0.5")
    lock = guard.turn("sid-1").lock
    assert guard.turn("sid-1").lock is lock     # one lock per connection
    with guard.turn("sid-1"):
        pass
    guard.forget("sid-1")
    assert guard._credentials == {} and guard._turns == {} and guard._last_event == {}
    assert guard._owners == {}
    assert guard.turn("sid-1").lock is not lock


def test_barred_credentials_are_bounded():
    clock = Clock()
    guard = FloodGuard(clock=clock, max_keys=5)
    for n in range(20):
        credentials = {"role": "team", "token": f"token-{n}"}
        guard.connected(f"sid-{n}", credentials, "10.0.0.5")
        guard.bar(f"sid-{n}")
        guard.forget(f"sid-{n}")
        clock.now += 0.01
    assert len(guard._barred) <= 6


def test_a_logged_in_console_s_messages_are_not_dropped_by_the_message_gate():
    class Engine:
        def __init__(self):
            self.seen = []

        def _trigger_event(self, event, *args, **kwargs):
            self.seen.append((event, args[0]))
    eio = Engine()
    cut = []
    patches.gate_messages(eio, on_cut=cut.append, is_console=lambda eio_sid: eio_sid == "console")
    for _ in range(1000):
        eio._trigger_event("message", "console", "42[\"act\"]")
    assert len(eio.seen) == 1000 and not cut
    passed = 0
    try:
        for _ in range(1000):
            eio._trigger_event("message", "tablet", "42[\"act\"]")
            passed += 1
    except Exception as closed:             # engineio's SocketIsClosedError: the cut
        assert type(closed).__name__ == "SocketIsClosedError"
    assert cut == ["tablet"]
    # A new connection's first burst is weighed: FIRST_MESSAGES handled, not the 60 a
    # connection may send once it has lived a while (issue 39).
    assert flood.FIRST_MESSAGES <= len(eio.seen) - 1000 <= flood.FIRST_MESSAGES + 5
    assert passed == len(eio.seen) - 1000 + flood.MESSAGE_STRIKES - 1


def test_a_logged_in_console_is_known_by_its_engine_io_connection_until_it_closes():
    guard = FloodGuard(clock=Clock())
    guard.connected("sid-gm", {"role": "gm", "game": 3}, "127.0.0.1", "eio-gm", gm=True)
    guard.connected("sid-team", TEAM, "10.0.0.5", "eio-team", gm=False)
    assert guard.is_console("eio-gm") and not guard.is_console("eio-team")
    guard.forget("sid-gm")
    assert not guard.is_console("eio-gm")


def test_the_limits_table_of_the_deploy_guide_is_the_code():
    """docs/deploy.md, "Flood limits": every bucket the table lists is the code's."""
    import re
    from pathlib import Path
    text = (Path(__file__).resolve().parents[1] / "docs" / "deploy.md").read_text(encoding="utf-8")
    rows = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 5 and re.fullmatch(r"[\d.]+( KB)?", cells[3] or "x"):
            rows[cells[0], cells[1]] = cells[2], cells[3]
    events = {"gm": "GM", "device": "team device"}
    for (event, who), (size, refill) in flood.LIMITS.items():
        row = next((value for (name, audience), value in rows.items()
                    if name == f"`{event}`" and (audience == "anyone"
                                                 or audience.startswith(events[who]))), None)
        if row is not None:
            assert row == (f"{size:g}", f"{refill:g}"), (event, who, row)
    assert rows["connections", "per credentials"] == tuple(f"{n:g}" for n in flood.CONNECT_LIMIT)
    message = rows["any message, read by Engine.IO", "connection"]
    assert message == tuple(f"{n:g}" for n in flood.MESSAGE_LIMIT)
    assert rows["bytes read from a WebSocket", "connection"] == \
        (f"{flood.READ_LIMIT[0] // 1024} KB", f"{flood.READ_LIMIT[1] // 1024} KB")
    assert len([key for key in rows if key[0].startswith("`")]) >= 6


class _Socket:
    """A socket that holds ``waiting`` bytes and gives what a read asks, up to them."""

    def __init__(self, waiting: int):
        self.waiting = waiting

    def recv(self, size, *_flags):
        given = min(size, self.waiting)
        self.waiting -= given
        return b"x" * given


def test_a_websocket_read_gives_the_loop_back_only_when_more_may_be_waiting():
    # A full chunk (more may be there) switches at once; a short read emptied the socket
    # (the next read waits, and switches then); past its byte budget a connection waits.
    sleeps: list[float] = []
    paced = flood._PacedSocket(_Socket(flood.READ_CHUNK + 100), sleeps.append)
    assert len(paced.recv(65536)) == flood.READ_CHUNK and sleeps == [0]
    assert len(paced.recv(65536)) == 100 and sleeps == [0]
    flooded = flood._PacedSocket(_Socket(10 * flood.READ_LIMIT[0]), sleeps.append)
    while flooded._tokens >= 0:
        flooded.recv(65536)
    assert sleeps[-1] > 0


class _Audience:
    def __init__(self, device="device-1", role="team", team=1, game_id=7):
        self.device, self.role, self.team, self.game_id = device, role, team, game_id


def test_a_device_back_from_a_bar_has_nothing_to_spend_and_earns_it_back_at_the_bucket_s_rate():
    """Issue 39: what a flooding device can cost after its bar ends is bounded by design,
    not by the machine: its buckets come back empty."""
    clock = Clock()
    guard = FloodGuard(clock=clock)
    tablet = _Audience()
    guard.connected("sid-1", TEAM, "10.0.0.5", "eio-1", audience=tablet)
    assert guard.allow("act", tablet, "sid-1")
    seconds = guard.bar("sid-1")
    guard.forget("sid-1")
    clock.now += seconds + 0.01                 # the bar is over: it may connect again
    assert guard.allow_connect(TEAM, "10.0.0.5")
    assert guard.connected("sid-2", TEAM, "10.0.0.5", "eio-2", audience=tablet) is True
    assert not guard.allow("act", tablet, "sid-2")          # empty, not the full 10
    capacity, rate = flood.LIMITS["act", "device"]
    clock.now += 1 / rate + 0.01
    assert guard.allow("act", tablet, "sid-2")              # one a second, as the bucket says
    assert not guard.allow("act", tablet, "sid-2")
    # A second connection of the same credentials later is no longer "returning".
    assert guard.connected("sid-3", TEAM, "10.0.0.5", "eio-3", audience=tablet) is False
    # Another device of the team is untouched.
    assert guard.allow("act", _Audience(device="device-2"), "sid-9")


def test_a_device_s_events_are_handled_apart_and_a_console_s_are_not():
    sleeps: list[float] = []
    clock = Clock()
    guard = FloodGuard(clock=clock)
    original = flood.time.sleep
    flood.time.sleep = lambda s: (sleeps.append(s), setattr(clock, "now", clock.now + s))
    try:
        for _ in range(3):
            with guard.turn("tablet"):
                pass
        for _ in range(3):
            with guard.turn("console", console=True):
                pass
    finally:
        flood.time.sleep = original
    assert len(sleeps) == 2 and all(abs(s - flood.EVENT_GAP) < 1e-9 for s in sleeps), sleeps


def test_a_connection_back_from_a_bar_is_cut_after_a_few_messages():
    class Engine:
        def __init__(self):
            self.seen = []

        def _trigger_event(self, event, *args, **kwargs):
            self.seen.append((event, args[0]))
    eio = Engine()
    cut = []
    on_probation = patches.gate_messages(eio, on_cut=cut.append)
    on_probation("returning")
    passed = 0
    try:
        for _ in range(1000):
            eio._trigger_event("message", "returning", "42[\"act\"]")
            passed += 1
    except Exception as closed:
        assert type(closed).__name__ == "SocketIsClosedError"
    assert cut == ["returning"]
    assert len(eio.seen) <= flood.PROBATION_MESSAGES + 2
    assert passed < flood.PROBATION_MESSAGES + flood.PROBATION_STRIKES + 3
