"""The private attributes facilitator/patches.py replaces are still where it expects them.

Each patch changes python-socketio's or python-engineio's private behaviour (the module
says why). A release that moves or reshapes one of these attributes must fail here,
loudly, before a server runs with a patch that silently no longer applies. The versions
the tests ran on are pinned as ranges in pyproject.toml.
"""
from __future__ import annotations

import inspect

import engineio
import pytest
import socketio
from socketio import packet, pubsub_manager

from facilitator import create_app, patches


def params(function) -> list[str]:
    return list(inspect.signature(function).parameters)


def test_the_packet_class_still_searches_payloads_for_bytes_where_it_is_replaced():
    assert isinstance(inspect.getattr_static(packet.Packet, "data_is_binary"), classmethod)
    assert pubsub_manager.Packet is not None          # the pub/sub manager's own import
    fast = patches.binary_free_packets()
    assert issubclass(fast, packet.Packet) and fast.data_is_binary({"a": [b"x"]}) is False
    assert pubsub_manager.Packet is fast


def test_the_server_s_event_path_is_still_the_one_the_gates_wrap():
    assert params(socketio.Server._handle_eio_message) == ["self", "eio_sid", "data"]
    assert params(socketio.Server._handle_event) == ["self", "eio_sid", "namespace", "id", "data"]
    assert params(socketio.Server._handle_event_internal) == [
        "self", "server", "sid", "eio_sid", "data", "namespace", "id"]
    assert params(engineio.Server._trigger_event)[:2] == ["self", "event"]


def test_the_pub_sub_manager_still_hands_each_message_to_handle_emit():
    assert params(pubsub_manager.PubSubManager._handle_emit) == ["self", "message"]
    assert "manager_initialized" in inspect.getsource(socketio.base_server.BaseServer.__init__)
    assert "self.pubsub" in inspect.getsource(socketio.RedisManager)


def test_simple_websocket_still_reads_its_socket_with_a_thread_of_the_server_s_class():
    import simple_websocket.ws as ws
    assert "thread_class" in params(ws.Base.__init__) and "sock" in params(ws.Base.__init__)
    from engineio.async_drivers import gevent as gevent_driver
    assert hasattr(gevent_driver, "SimpleWebSocketWSGI")


def test_an_app_is_patched_once_and_every_patch_is_in_place(tmp_path):
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path}/p.db", "TESTING": True,
                      "ASYNC_MODE": "threading"})
    from facilitator.extensions import socketio as extension
    server = extension.server
    assert server._facilitator_patched is True
    # The gates and the quiet drop of malformed packets wrap the server's own methods.
    assert server._handle_event.__name__ == "on_event"
    assert server._handle_event_internal.__name__ == "handled"
    assert server.eio._trigger_event.__name__ == "gated"
    before = server._handle_event
    patches.apply(app, extension, app.extensions["facilitator_live"],
                  app.extensions["facilitator_flood"], 1.0)
    assert server._handle_event is before               # applied once


@pytest.mark.parametrize("name", ["python-socketio", "python-engineio"])
def test_the_libraries_patched_are_declared_with_the_versions_the_tests_ran_on(name):
    from importlib.metadata import version
    from pathlib import Path
    import re
    text = (Path(__file__).resolve().parents[1] / "pyproject.toml").read_text(encoding="utf-8")
    found = re.search(rf'"{name}>=([\d.]+),<([\d.]+)"', text)
    assert found, f"{name} is not declared with a range in pyproject.toml"
    low, high = (tuple(int(n) for n in v.split(".")) for v in found.groups())
    installed = tuple(int(n) for n in version(name).split(".")[:len(low)])
    assert low <= installed < high + (0,) * (len(installed) - len(high))
