"""Redis is a convenience, not a dependency: a server starts without it, keeps serving its own
tables while it is away, and joins the bus when it comes back (src/cardroom/bus/redis.py).

Every Redis here is the test's own, on a free port (the machine's shared one is never stopped);
the servers share a fresh PostgreSQL schema, as in test_scale_out.py.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
import random
import urllib.request
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
import redis.asyncio as aioredis

from cardroom.bus import redis as bus_module
from cardroom.bus.redis import BACKLOG, PREFIX, RETRY_CAP, Queued, RedisBus, retry_delay
from cardroom.bus.resp import Target
from cardroom.tools.client import Client, reconnect_delay
from cardroom.tools.loadtest import http_base
from cardroom.tools.processes import ManagedRedis, ask_health, free_port
from tests.server.helpers import close_all, play_seat
from tests.server.pg import fresh_schema

WAIT = 60.0
"""Seconds to wait for anything that should happen within a few (the machine is shared)."""
LOST = "does not answer"
BACK = "answers again"
"""What the bus logs when Redis goes away and when it comes back."""


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[ManagedRedis]:
    """A Redis of this test's own on a free port, not started yet; stopped at the end."""
    server = ManagedRedis(free_port(), tmp_path / "redis.log")
    yield server
    server.stop()


@pytest.fixture
def shared_database() -> Iterator[str]:
    """A fresh PostgreSQL schema (the machine's server; its absence fails the test)."""
    with fresh_schema() as url:
        yield url


async def eventually(condition: Callable[[], object], what: str,
                     timeout: float = WAIT) -> None:
    """Wait until ``condition()`` (a value, or an awaitable one) holds; fail saying ``what``
    did not happen."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not await _value(condition()):
        if loop.time() > deadline:
            pytest.fail(f"{what}: not within {timeout:g} s")
        await asyncio.sleep(0.2)


async def _value(result: object) -> object:
    return await result if inspect.isawaitable(result) else result


async def start(process: ManagedRedis) -> None:
    """Start the private Redis (a blocking wait: off the event loop)."""
    await asyncio.to_thread(process.start)


async def subscribers(url: str) -> int:
    """How many connections subscribe to a table channel (of any room) of the Redis at
    ``url``."""
    client = aioredis.Redis.from_url(url)
    try:
        channels = [channel for channel in await client.pubsub_channels(f"{PREFIX}*")
                    if channel.decode().endswith(":tables")]
        counts = await client.pubsub_numsub(*channels) if channels else []
        return sum(int(count) for _, count in counts)
    finally:
        await client.aclose()


async def all_subscribed(url: str, servers: int) -> None:
    """Wait until every server subscribes to the Redis at ``url``: all are on the bus."""

    async def subscribed() -> bool:
        try:
            return await subscribers(url) == servers
        except OSError:
            return False

    await eventually(subscribed, f"{servers} servers subscribed to Redis")


async def health(server: Any) -> dict[str, Any]:
    """The server's /api/health (it must answer)."""
    answer = await asyncio.to_thread(ask_health, server.url, 10.0)
    assert answer is not None, "the server does not answer /api/health"
    return answer


def lobby_lists(server: Any, table_id: str) -> Callable[[], Awaitable[bool]]:
    """A condition: the server's /api/lobby lists the table (of a table another server owns:
    its row came over the bus)."""

    def ask() -> bool:
        with urllib.request.urlopen(f"{http_base(server.url)}/api/lobby", timeout=10) as got:
            return any(row["table_id"] == table_id for row in json.loads(got.read())["tables"])

    async def listed() -> bool:
        return await asyncio.to_thread(ask)

    return listed


def log_lines(server: Any, text: str) -> int:
    """Lines of the server's log that contain ``text``."""
    return sum(text in line for line in server.log.read_text().splitlines())


def logged(server: Any, text: str) -> Callable[[], bool]:
    """A condition: the server's log holds exactly one line with ``text``."""
    return lambda: log_lines(server, text) == 1


async def table_with_bots(url: str, name: str) -> tuple[Client, str]:
    """A registered player at a new table, bots in the other seats (the match starts)."""
    client = Client(url)
    await client.connect()
    await client.register(name)
    table = await client.create_table(seat=0)
    await client.start_with_bots(table)
    return client, table


async def spectator(url: str, name: str, table: str) -> Client:
    """A registered player following somebody else's table."""
    client = Client(url)
    await client.connect()
    await client.register(name)
    assert await client.open(table) is None
    return client


async def play_on(client: Client, table: str, changes: int, seed: int = 0) -> int:
    """Play our seat (bots hold the others) until the table made ``changes`` more changes;
    returns its version then."""
    update = await client.wait_for(table, lambda u: u["view"] is not None, timeout=WAIT)
    target = update["version"] + changes
    await play_seat(client, table, lambda u: u["version"] >= target, seed=seed, timeout=WAIT)
    return client.tables[table]["version"]


async def sees(client: Client, table: str, version: int) -> None:
    """Wait until the client holds the table at ``version`` or later."""
    await client.wait_for(table, lambda u: u["version"] >= version, timeout=WAIT)


# -- the bus alone, in this process ------------------------------------------------------------


def test_reconnection_waits_are_a_random_part_of_a_capped_exponential() -> None:
    rng = random.Random(7)
    for attempt in range(12):
        ceiling = min(5.0, 0.25 * 2 ** attempt)
        waits = [reconnect_delay(attempt, rng=rng) for _ in range(200)]
        assert all(0.0 <= w <= ceiling for w in waits)
        assert max(waits) > ceiling / 2  # spread over the range, not one fixed value
        bus_waits = [retry_delay(attempt) for _ in range(200)]
        assert all(0.0 <= w <= min(RETRY_CAP, 0.1 * 2 ** attempt) for w in bus_waits)
    assert reconnect_delay(10_000) <= 5.0


async def test_the_bus_starts_without_redis_and_joins_when_it_comes(
        private_redis: ManagedRedis, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="cardroom.bus.redis")

    def logged() -> list[tuple[int, str]]:
        return [(r.levelno, LOST if LOST in r.getMessage() else BACK if BACK in r.getMessage()
                 else r.getMessage()) for r in caplog.records if r.name == "cardroom.bus.redis"]

    bus = await RedisBus.connect(private_redis.url)  # nobody listens on that port yet
    other: RedisBus | None = None
    received: list[dict[str, Any]] = []

    async def handler(notice: dict[str, Any]) -> None:
        received.append(notice)

    try:
        bus.subscribe("tables", handler)
        assert not bus.joined
        # Publishing while Redis is away neither blocks nor raises, and keeps a bounded backlog.
        for number in range(3 * BACKLOG):
            await bus.publish("tables", {"n": number})
        assert bus.state()["bus_backlog"] == BACKLOG
        assert bus.dropped == 2 * BACKLOG
        await asyncio.sleep(1.0)  # the subscriber tries again meanwhile, without a word
        assert logged() == [(logging.WARNING, LOST)]

        await start(private_redis)

        async def joined() -> bool:
            return bus.joined and bus.state()["bus_backlog"] == 0

        await eventually(joined, "the bus joined and sent its backlog")
        other = await RedisBus.connect(private_redis.url)
        await other.publish("tables", {"from": "other"})
        await eventually(lambda: received and received[-1] == {"from": "other"},
                         "a notice from another bus")
        assert logged() == [(logging.WARNING, LOST), (logging.INFO, BACK)]

        # Redis goes away and comes back on the same port: one warning, one info, and the
        # subscription is made again.
        private_redis.kill()
        await eventually(lambda: not bus.joined, "the bus noticed Redis is gone")
        await bus.publish("tables", {"while": "away"})
        await start(private_redis)
        await eventually(lambda: bus.joined, "the bus joined again")
        await other.publish("tables", {"from": "other", "again": True})
        await eventually(lambda: received[-1] == {"from": "other", "again": True},
                         "a notice after Redis came back")
        assert logged() == [(logging.WARNING, LOST), (logging.INFO, BACK)] * 2
    finally:
        await bus.close()
        if other is not None:
            await other.close()


async def test_raw_subscribers_unheard_notices_and_joins(
        private_redis: ManagedRedis) -> None:
    """A view relayed from a table's owner travels as JSON inside the notice, not as an
    escaped string: the raw subscriber gets those bytes as sent, a decoding one the value;
    a notice nobody received is told to the sender's ``on_unheard``.
    Each time a bus joins Redis again its ``joins`` grows (its owner asks again for what it
    may have missed)."""
    await start(private_redis)
    bus = await RedisBus.connect(private_redis.url)
    other = await RedisBus.connect(private_redis.url)
    raw: list[bytes] = []
    decoded: list[dict[str, Any]] = []

    async def keep_raw(data: bytes) -> None:
        raw.append(data)

    async def keep_decoded(notice: dict[str, Any]) -> None:
        decoded.append(notice)

    try:
        bus.subscribe_raw("process:a", keep_raw)
        bus.subscribe("process:a", keep_decoded)
        await eventually(lambda: bus.joined, "the bus joined")
        assert bus.joins == 1
        view = b'{"type":"table","view":{"hand":["AS","Jo"]}}'
        await other.publish("process:a", {"items": [{"text": msgspec.Raw(view)}]})
        await eventually(lambda: raw and decoded, "the notice")
        assert raw == [b'{"items":[{"text":' + view + b'}]}']
        assert decoded == [{"items": [{"text": json.loads(view)}]}]
        # A notice to a channel nobody listens on (a process gone) is told as unheard.
        unheard: list[tuple[str, bytes]] = []
        other.on_unheard(lambda channel, data: unheard.append((channel, data)))
        await other.publish("process:gone", {"items": [{"kind": "call", "id": 7}]})
        await other.publish("process:a", {"items": []})
        await eventually(lambda: len(decoded) == 2, "the second notice")
        assert unheard == [("process:gone", b'{"items":[{"kind":"call","id":7}]}')]
        private_redis.kill()
        await eventually(lambda: not bus.joined, "the bus noticed Redis is gone")
        await start(private_redis)
        await eventually(lambda: bus.joined, "the bus joined again")
        assert bus.joins == 2
    finally:
        await bus.close()
        await other.close()


def test_a_notice_sent_before_in_a_failed_batch_is_never_told_unheard() -> None:
    """Redis may have delivered a notice of a batch that failed before answering: sent again
    to nobody (its receiver had not subscribed again yet), it is not reported unheard, or
    a call it carried would be sent on to another process and run twice."""
    bus = RedisBus(Target())
    told: list[str] = []
    bus.on_unheard(lambda channel, data: told.append(channel))
    bus._tell_unheard([Queued(0.0, PREFIX + "process:a", b"{}", tried=True),
                       Queued(0.0, PREFIX + "process:b", b"{}"),
                       Queued(0.0, PREFIX + "process:c", b"{}")], [0, 0, 1])
    assert told == ["process:b"]
    bus._requeue([Queued(0.0, PREFIX + "process:d", b"{}")])
    assert [q.tried for q in bus._backlog] == [True]


async def test_notices_older_than_the_sweep_are_not_sent_after_an_outage(
        private_redis: ManagedRedis, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bus_module, "STALE_AFTER", 2.0)
    bus = await RedisBus.connect(private_redis.url)
    listener: RedisBus | None = None
    received: list[dict[str, Any]] = []

    async def handler(notice: dict[str, Any]) -> None:
        received.append(notice)

    try:
        for number in range(5):
            await bus.publish("tables", {"old": number})
        await asyncio.sleep(3.0)  # older than STALE_AFTER now
        await start(private_redis)
        listener = await RedisBus.connect(private_redis.url)
        listener.subscribe("tables", handler)
        await all_subscribed(private_redis.url, 1)
        # The stale notices go at the writer's next try; the fresh one only after that, or it
        # could itself be stale (2 s here) by the time a backed-off try comes round.
        await eventually(lambda: bus.dropped == 5 and bus.state()["bus_backlog"] == 0,
                         "the stale notices dropped")
        await bus.publish("tables", {"fresh": True})
        await eventually(lambda: received, "the fresh notice")
        assert received == [{"fresh": True}]
        assert bus.dropped == 5
    finally:
        await bus.close()
        if listener is not None:
            await listener.close()


# -- whole servers ----------------------------------------------------------------------------


async def test_a_server_starts_without_redis_serves_alone_and_joins_the_bus_when_it_comes(
        shared_database: str, private_redis: ManagedRedis, server_factory: Any) -> None:
    options = {"redis-url": private_redis.url, "log-level": "info"}
    first = server_factory(shared_database, **options)  # Redis is not running: it starts
    alice, table = await table_with_bots(first.url, "Alice")
    clients = [alice]
    try:
        await play_on(alice, table, 10)  # bots seated, a hand progresses
        assert log_lines(first, LOST) == 1

        await start(private_redis)
        second = server_factory(shared_database, **options)
        await all_subscribed(private_redis.url, 2)  # the first one subscribed by itself
        await eventually(logged(first, BACK), "the first server said it is back on the bus")

        # The second server knows the first one's table (its row came over the bus), and a
        # change made on the first reaches a client of the second …
        await eventually(lobby_lists(second, table), "the second server lists the table")
        bob = await spectator(second.url, "Bob", table)
        clients.append(bob)
        await sees(bob, table, await play_on(alice, table, 10, seed=1))

        # … and one made on the second reaches a client of the first.
        carol, other_table = await table_with_bots(second.url, "Carol")
        clients.append(carol)
        await eventually(lobby_lists(first, other_table), "the first server lists the table")
        dave = await spectator(first.url, "Dave", other_table)
        clients.append(dave)
        await sees(dave, other_table, await play_on(carol, other_table, 10, seed=2))
        assert log_lines(first, LOST) == 1
    finally:
        await close_all(clients)


async def test_redis_going_away_leaves_servers_serving_and_they_rejoin_when_it_returns(
        shared_database: str, private_redis: ManagedRedis, server_factory: Any) -> None:
    await start(private_redis)
    options = {"redis-url": private_redis.url, "log-level": "info"}
    first, second = (server_factory(shared_database, **options) for _ in range(2))
    await all_subscribed(private_redis.url, 2)
    alice, table = await table_with_bots(first.url, "Alice")
    carol, other_table = await table_with_bots(second.url, "Carol")
    bob = await spectator(second.url, "Bob", table)
    dave = await spectator(first.url, "Dave", other_table)
    clients = [alice, bob, carol, dave]
    try:
        await play_on(alice, table, 4)

        private_redis.kill()
        for server in (first, second):
            await eventually(logged(server, LOST), "the server noticed Redis is gone")
        # Each server goes on serving its own tables to its own players, a hand progressing
        # on each (the followers on the other server see it once the bus is back) …
        await asyncio.gather(play_on(alice, table, 20, seed=1),
                             play_on(carol, other_table, 20, seed=2))
        for server in (first, second):
            assert (await health(server))["ok"]
            assert log_lines(server, LOST) == 1, "one warning per outage, not per attempt"
            assert log_lines(server, "Traceback") == 0

        await start(private_redis)  # the same port
        await all_subscribed(private_redis.url, 2)
        # … and once the bus is back, each server's followers of the other's tables see
        # their changes again.
        played, other_played = await asyncio.gather(play_on(alice, table, 10, seed=3),
                                                    play_on(carol, other_table, 10, seed=4))
        await sees(bob, table, played)
        await sees(dave, other_table, other_played)
        for server in (first, second):
            assert log_lines(server, LOST) == 1
            await eventually(logged(server, BACK), "the server said it is back on the bus")
    finally:
        await close_all(clients)
