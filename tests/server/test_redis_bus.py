"""With --redis-url, table notices travel over Redis pub/sub and play goes on the same."""

from __future__ import annotations

import asyncio

import pytest
import redis

from tests.conftest import SHARED_REDIS, SHARED_REDIS_URL
from tests.server.helpers import close_all, hand_scored, play_seat, register_clients

pytestmark = SHARED_REDIS


@pytest.fixture
def redis_server() -> str:
    """The machine's Redis (CI runs one too); its absence is a failure, not a skip."""
    redis.Redis.from_url(SHARED_REDIS_URL).ping()
    return SHARED_REDIS_URL


async def test_a_hand_is_played_with_events_carried_by_redis(server_factory,
                                                              redis_server) -> None:
    server = server_factory(**{"redis-url": redis_server})
    watcher = redis.Redis.from_url(redis_server).pubsub()
    watcher.subscribe("cardroom:tables")
    clients, _ = await register_clients(server.url, ["N", "E", "S", "W"])
    try:
        table = await clients[0].create_table(seat=0)
        for seat, client in enumerate(clients[1:], start=1):
            await client.join(table, seat)
        await asyncio.gather(*(play_seat(c, table, hand_scored, seed=n)
                               for n, c in enumerate(clients)))
        notices = []
        while (message := watcher.get_message(timeout=0.5)) is not None:
            if message["type"] == "message":
                notices.append(message["data"])
        assert any(table.encode() in notice for notice in notices)
    finally:
        watcher.close()
        await close_all(clients)
