"""The Redis message queue's connections wait their turn (facilitator/live/message_queue.py).

redis-py fails a command when its client already has 100 connections in use; a
restarted process answering hundreds of screens at once hit that, and python-socketio
then replaced the subscription its listening task was reading: a second of changes
from the other processes never reached that process's screens.
"""
import secrets
import threading

from services import redis_url

from facilitator.live.message_queue import QUEUE_CONNECTIONS, client_manager


def test_more_commands_at_once_than_connections_wait_instead_of_failing():
    manager = client_manager(redis_url(), "test-" + secrets.token_hex(4))
    manager._redis_connect()
    key = "test-queue-" + secrets.token_hex(4)
    failures, done = [], []

    def hold_a_connection():
        # BLPOP keeps its connection 0.3 s: 150 at once need three times the pool
        # (and half again redis-py's own limit of 100).
        try:
            manager.redis.blpop(key, timeout=0.3)
            done.append(1)
        except Exception as error:          # noqa: BLE001 - what a publish met
            failures.append(repr(error))
    threads = [threading.Thread(target=hold_a_connection) for _ in range(150)]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        assert failures == []
        assert len(done) == 150
        assert manager.redis.connection_pool.max_connections == QUEUE_CONNECTIONS
    finally:
        manager.redis.close()


def test_the_subscription_and_the_broadcasts_share_the_waiting_client():
    channel = "test-" + secrets.token_hex(4)
    manager = client_manager(redis_url(), channel)
    manager._redis_connect()
    try:
        manager.pubsub.subscribe(channel)
        assert manager.redis.publish(channel, "hola") == 1      # the subscription heard it
    finally:
        manager.pubsub.close()
        manager.redis.close()


def test_other_queues_are_left_to_flask_socketio():
    assert client_manager(None, "x") is None
    assert client_manager("amqp://guest@127.0.0.1//", "x") is None
    assert client_manager("redis+sentinel://127.0.0.1:26379/0", "x") is None
