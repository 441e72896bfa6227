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
    watcher.psubscribe("cardroom:*:tables")  # (the room's key is in the channel's name)
    clients, _ = await register_clients(server.url, ["N", "E", "S", "W"])
    try:
        table = await clients[0].create_table(seat=0)
        for seat, client in enumerate(clients[1:], start=1):
            await client.join(table, seat)
        await asyncio.gather(*(play_seat(c, table, hand_scored, seed=n)
                               for n, c in enumerate(clients)))
        notices = []
        while (message := watcher.get_message(timeout=0.5)) is not None:
            if message["type"] == "pmessage":
                notices.append(message["data"])
        assert any(table.encode() in notice for notice in notices)
    finally:
        watcher.close()
        await close_all(clients)


async def test_two_rooms_on_one_redis_hear_only_their_own_notices(redis_server) -> None:
    """Each room's processes name their channels by the room's key: a process of one room
    never hears another's notices (nor takes them for its own peers' loads)."""
    from typing import Any

    from cardroom.bus.redis import RedisBus

    buses = {name: await RedisBus.connect(redis_server, room)
             for name, room in (("a1", "roomA"), ("a2", "roomA"), ("b", "roomB"))}
    heard: dict[str, list[dict[str, Any]]] = {name: [] for name in buses}
    try:
        for name, bus in buses.items():
            async def handler(notice: dict[str, Any], name: str = name) -> None:
                heard[name].append(notice)

            bus.subscribe("owners", handler)
        await asyncio.sleep(1.0)  # every subscription made
        await buses["a1"].publish("owners", {"from": "a1"})
        await buses["b"].publish("owners", {"from": "b"})
        for _ in range(50):
            if heard["a2"] and heard["b"]:
                break
            await asyncio.sleep(0.1)
        await asyncio.sleep(0.5)  # time for a stray notice to arrive, were there one
        assert [n["from"] for n in heard["a2"]] == ["a1"]
        assert [n["from"] for n in heard["a1"]] == ["a1"]
        assert [n["from"] for n in heard["b"]] == ["b"]
    finally:
        for bus in buses.values():
            await bus.close()
