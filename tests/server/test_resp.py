"""The bus's lean Redis connection: replies matched to their commands, failures that close it,
and the same address as redis-py reads from the bus's URL."""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import hiredis
import pytest
import redis.asyncio as aioredis
import uvloop

from cardroom.bus import redis as bus_module
from cardroom.bus.redis import RedisBus
from cardroom.bus.resp import (
    MAX_UNREAD,
    Publisher,
    RespConnection,
    RespError,
    Subscription,
    Target,
)
from tests.conftest import SHARED_REDIS_URL

Serve = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


async def fake_redis(serve: Serve) -> tuple[asyncio.Server, Target]:
    """A server on a free port that answers as ``serve`` says (each connection closed when
    ``serve`` returns or is cancelled)."""
    async def serve_and_close(reader: asyncio.StreamReader,
                              writer: asyncio.StreamWriter) -> None:
        try:
            await serve(reader, writer)
        finally:
            writer.transport.abort()

    server = await asyncio.start_server(serve_and_close, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    return server, Target(host="127.0.0.1", port=port)


@pytest.fixture
async def shared_redis() -> AsyncIterator[Target]:
    client = aioredis.Redis.from_url(SHARED_REDIS_URL)
    try:
        await client.ping()  # the machine's Redis (CI runs one too): absent is a failure
        yield Target.of(client)
    finally:
        await client.aclose()


async def test_a_batch_gets_its_replies_in_order(shared_redis: Target) -> None:
    listener = aioredis.Redis.from_url(SHARED_REDIS_URL).pubsub()
    await listener.subscribe("resp-test:a")
    connection = await RespConnection.open(shared_redis, 2.0)
    try:
        replies = await connection.execute(
            [("PUBLISH", "resp-test:a", b"one"), ("PUBLISH", "resp-test:nobody", b"two"),
             ("PUBLISH", "resp-test:a", b"three")], 2.0)
        assert replies == [1, 0, 1]
        heard: list[bytes] = []
        while len(heard) < 2:
            message = await listener.get_message(timeout=2.0)
            if message and message["type"] == "message":
                heard.append(message["data"])
        assert heard == [b"one", b"three"]
        assert await connection.execute([("PING",)], 2.0) == [b"PONG"]
    finally:
        connection.close()
        await listener.aclose()


async def test_an_error_reply_fails_its_batch_and_the_next_batch_still_matches(
        shared_redis: Target) -> None:
    connection = await RespConnection.open(shared_redis, 2.0)
    try:
        with pytest.raises(RespError, match="unknown command"):
            await connection.execute([("PING",), ("NO-SUCH-COMMAND",), ("PING",)], 2.0)
        assert await connection.execute([("ECHO", "after")], 2.0) == [b"after"]
    finally:
        connection.close()


async def test_a_silent_redis_times_out_and_the_connection_closes() -> None:
    async def silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read(1000)
        await asyncio.sleep(0.5)

    server, target = await fake_redis(silent)
    async with server:
        connection = await RespConnection.open(target, 2.0)
        with pytest.raises(RespError, match="did not answer"):
            await connection.execute([("PUBLISH", "c", b"x")], 0.2)
        assert connection.closed  # a late reply could not be matched to its command
        with pytest.raises(RespError, match="closed"):
            await connection.execute([("PING",)], 0.2)


async def test_a_connection_lost_mid_batch_fails_it() -> None:
    async def hang_up(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read(1000)
        writer.write(b":1\r\n")  # one reply of the two
        await writer.drain()
        writer.close()

    server, target = await fake_redis(hang_up)
    async with server:
        connection = await RespConnection.open(target, 2.0)
        with pytest.raises(RespError, match="lost"):
            await connection.execute([("PUBLISH", "c", b"x"), ("PUBLISH", "c", b"y")], 2.0)
        assert connection.closed


async def answering(sent: bytes) -> tuple[asyncio.Server, Target]:
    """A fake Redis that answers the first command it reads with ``sent``."""
    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read(1000)
        writer.write(sent)
        await writer.drain()
        await asyncio.sleep(0.3)

    return await fake_redis(answer)


async def test_what_is_not_resp_fails_the_batch_and_closes_the_connection() -> None:
    server, target = await answering(b"not resp at all\r\n")
    async with server:
        connection = await RespConnection.open(target, 2.0)
        with pytest.raises(RespError, match="not RESP"):
            await connection.execute([("PUBLISH", "c", b"x")], 2.0)
        assert connection.closed


async def test_a_reply_to_no_command_closes_the_connection() -> None:
    server, target = await answering(b":1\r\n:2\r\n")
    async with server:
        connection = await RespConnection.open(target, 2.0)
        assert await connection.execute([("PUBLISH", "c", b"x")], 2.0) == [1]
        await asyncio.sleep(0.05)
        assert connection.closed  # the next reply could belong to no command of ours


async def what_opening_sends(url: str, replies: bytes) -> tuple[Target, bytes]:
    """Open a connection by ``url`` (its ``{port}`` a fake Redis's, which answers
    ``replies``): the target read from the URL, and what the opening sent."""
    received = bytearray()

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        received.extend(await reader.read(1000))
        writer.write(replies)
        await writer.drain()
        await asyncio.sleep(0.3)

    server, target = await fake_redis(answer)
    async with server:
        made = Target.of(aioredis.Redis.from_url(url.format(port=target.port)))
        (await RespConnection.open(made, 2.0)).close()
    return made, bytes(received)


async def test_it_logs_in_and_selects_the_urls_database() -> None:
    made, sent = await what_opening_sends("redis://someone:secret@127.0.0.1:{port}/3",
                                          b"+OK\r\n+OK\r\n")
    assert (made.username, made.password, made.db) == ("someone", "secret", 3)
    assert sent == (b"*3\r\n$4\r\nAUTH\r\n$7\r\nsomeone\r\n$6\r\nsecret\r\n"
                    b"*2\r\n$6\r\nSELECT\r\n$1\r\n3\r\n")


async def test_a_user_without_a_password_logs_in_as_that_user() -> None:
    """As redis-py does from ``redis://bob@host`` (an ACL user with ``nopass``)."""
    _, sent = await what_opening_sends("redis://bob@127.0.0.1:{port}", b"+OK\r\n")
    assert sent == b"*3\r\n$4\r\nAUTH\r\n$3\r\nbob\r\n$0\r\n\r\n"


async def test_a_refused_login_fails_the_opening_and_closes_the_connection() -> None:
    closed = asyncio.Event()

    async def refuse(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read(1000)
        writer.write(b"-WRONGPASS invalid username-password pair\r\n")
        await writer.drain()
        if await reader.read(1000) == b"":
            closed.set()

    server, target = await fake_redis(refuse)
    async with server:
        with pytest.raises(RespError, match="WRONGPASS"):
            await RespConnection.open(target._replace(password="wrong"), 2.0)
        await asyncio.wait_for(closed.wait(), 2.0)


def test_the_address_is_the_one_redis_py_reads_from_the_url() -> None:
    assert Target.of(aioredis.Redis.from_url("unix:///run/redis.sock?db=2")) == Target(
        path="/run/redis.sock", db=2)
    secure = Target.of(aioredis.Redis.from_url("rediss://h.example:6380/1"))
    assert (secure.host, secure.port, secure.db) == ("h.example", 6380, 1)
    assert secure.tls is not None and secure.tls.check_hostname


def test_the_publisher_works_on_uvloop_as_the_server_runs_it() -> None:
    """uvloop's transports are not :class:`asyncio.Transport` subclasses."""
    async def publish_twice() -> list[int]:
        target = Target.of(aioredis.Redis.from_url(SHARED_REDIS_URL))
        publisher = Publisher(target, 2.0, 2.0)
        try:
            first = await publisher.publish([("resp-test:nobody", b"x")])
            return first + await publisher.publish([("resp-test:nobody", b"y")])
        finally:
            publisher.close()

    assert uvloop.run(publish_twice()) == [0, 0]


async def test_a_subscription_hears_its_channels_in_order_and_more_added_later(
        shared_redis: Target) -> None:
    subscription = await Subscription.open(shared_redis, ["resp-test:s1"], 2.0, 2.0)
    publisher = Publisher(shared_redis, 2.0, 2.0)
    try:
        assert await publisher.publish([("resp-test:s1", b"1"), ("resp-test:s2", b"x"),
                                        ("resp-test:s1", b"2")]) == [1, 0, 1]
        heard: list[tuple[bytes, bytes]] = []
        while len(heard) < 2:
            heard += await subscription.receive(2.0)
        assert heard == [(b"resp-test:s1", b"1"), (b"resp-test:s1", b"2")]
        subscription.subscribe(["resp-test:s2"])
        for _ in range(50):  # confirmed once Redis has read it
            if await publisher.publish([("resp-test:s2", b"3")]) == [1]:
                break
            await asyncio.sleep(0.02)
        later: list[tuple[bytes, bytes]] = []
        for _ in range(3):  # the subscribe's own confirmation may come first, as no message
            later += await subscription.receive(2.0)
            if later:
                break
        assert later == [(b"resp-test:s2", b"3")]
        assert await subscription.receive(0.05) == []  # nothing more: empty, not an error
    finally:
        subscription.close()
        publisher.close()


async def test_a_pong_counts_as_heard(shared_redis: Target) -> None:
    subscription = await Subscription.open(shared_redis, ["resp-test:p"], 2.0, 2.0)
    try:
        before = subscription.heard
        await asyncio.sleep(0.01)
        subscription.ping()
        assert await subscription.receive(2.0) == []  # a pong is no message …
        assert subscription.heard > before  # … but a sign of life
    finally:
        subscription.close()


async def test_a_lost_subscription_says_so() -> None:
    async def confirm_then_hang_up(reader: asyncio.StreamReader,
                                   writer: asyncio.StreamWriter) -> None:
        await reader.read(1000)
        writer.write(b"*3\r\n$9\r\nsubscribe\r\n$1\r\nc\r\n:1\r\n"
                     b"*3\r\n$7\r\nmessage\r\n$1\r\nc\r\n$4\r\nlast\r\n")
        await writer.drain()

    server, target = await fake_redis(confirm_then_hang_up)
    async with server:
        subscription = await Subscription.open(target, ["c"], 2.0, 2.0)
        await asyncio.sleep(0.1)
        assert await subscription.receive(2.0) == [(b"c", b"last")]  # what came first
        with pytest.raises(RespError, match="lost"):
            await subscription.receive(2.0)


async def test_a_subscription_redis_does_not_confirm_fails_to_open_and_is_closed() -> None:
    closed = asyncio.Event()

    async def silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read(1000)
        if await reader.read(1000) == b"":
            closed.set()

    server, target = await fake_redis(silent)
    async with server:
        with pytest.raises(TimeoutError):
            await Subscription.open(target, ["c"], 2.0, 0.2)
        await asyncio.wait_for(closed.wait(), 2.0)


async def fall_behind_and_catch_up(target: Target) -> tuple[int, int]:
    """Publish four times :data:`MAX_UNREAD` notices to a subscription that takes none: how
    many it held, then how many it took once it read again."""
    channel = f"resp-test:flood:{uuid.uuid4()}"  # (tests running at once share the Redis)
    subscription = await Subscription.open(target, [channel], 2.0, 2.0)
    publisher = Publisher(target, 2.0, 2.0)
    try:
        sent = 4 * MAX_UNREAD  # 4 MB: many reads of the socket
        await publisher.publish([(channel, b"x" * 1000)] * sent)
        await asyncio.sleep(0.3)
        held = len(subscription._messages)
        taken = await subscription.receive(1.0)
        while len(taken) < sent:  # reading again once taken
            taken += await subscription.receive(1.0)
        return held, len(taken)
    finally:
        subscription.close()
        publisher.close()


async def test_a_subscriber_that_falls_behind_stops_reading(shared_redis: Target) -> None:
    """What it has not taken stays with Redis (whose own limit cuts a subscriber that falls
    too far behind), not in this process's memory."""
    held, taken = await fall_behind_and_catch_up(shared_redis)
    assert MAX_UNREAD <= held < 2 * MAX_UNREAD  # paused at the limit (after that read)
    assert taken == 4 * MAX_UNREAD


def test_a_subscriber_falls_behind_and_catches_up_on_uvloop_too() -> None:
    target = Target.of(aioredis.Redis.from_url(SHARED_REDIS_URL))
    held, taken = uvloop.run(fall_behind_and_catch_up(target))
    assert MAX_UNREAD <= held < 2 * MAX_UNREAD and taken == 4 * MAX_UNREAD


async def test_a_refused_subscription_says_why() -> None:
    """A Redis user without the right to the channels (Redis 7's default for a new user):
    the reason reaches the bus's warning."""
    server, target = await answering(b"-NOPERM User has no permissions to access the "
                                     b"'c' channel\r\n")
    async with server:
        with pytest.raises(RespError, match="NOPERM"):
            await Subscription.open(target, ["c"], 2.0, 2.0)


# -- the bus on this connection: Redis's silence told from a busy process -------------------


@pytest.fixture
def quick_silence(monkeypatch: pytest.MonkeyPatch) -> None:
    """The subscriber looks every 0.1 s, pings after 0.5 s of silence, gives up after 1.2 s."""
    monkeypatch.setattr(bus_module, "READ_WAIT", 0.1)
    monkeypatch.setattr(bus_module, "PING_AFTER", 0.5)
    monkeypatch.setattr(bus_module, "SILENT_FOR", 1.2)


async def test_time_spent_handling_notices_is_not_taken_for_redis_silence(
        quick_silence: None) -> None:
    bus = await RedisBus.connect(SHARED_REDIS_URL, room="resp-test-busy")
    handled: list[dict[str, Any]] = []

    async def slow(notice: dict[str, Any]) -> None:
        await asyncio.sleep(0.3)  # a busy database, say
        handled.append(notice)

    try:
        bus.subscribe("busy", slow)
        await wait_until(lambda: bus.joined)
        for n in range(8):  # 2.4 s of handling, twice SILENT_FOR
            await bus.publish("busy", {"n": n})
        await wait_until(lambda: len(handled) == 8, timeout=10.0)
        await asyncio.sleep(0.3)
        assert bus.joins == 1 and bus.joined
    finally:
        await bus.close()


async def fake_subscribed_redis(answers_pings: bool) -> tuple[asyncio.Server, str, list[bytes]]:
    """A Redis that answers PING and confirms SUBSCRIBE, and once subscribed answers pings
    only if ``answers_pings``; the commands it got, by name."""
    commands: list[bytes] = []

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        parser = hiredis.Reader()
        subscribed = False
        while data := await reader.read(4096):
            parser.feed(data)
            while (command := parser.gets()) is not False:
                name = command[0].upper()
                commands.append(name)
                if name == b"SUBSCRIBE":
                    subscribed = True
                    for n, channel in enumerate(command[1:], start=1):
                        writer.write(b"*3\r\n$9\r\nsubscribe\r\n$%d\r\n%s\r\n:%d\r\n"
                                     % (len(channel), channel, n))
                elif name == b"PING" and not subscribed:
                    writer.write(b"+PONG\r\n")
                elif name == b"PING" and answers_pings:
                    writer.write(b"*2\r\n$4\r\npong\r\n$0\r\n\r\n")
            await writer.drain()

    server, target = await fake_redis(serve)
    return server, f"redis://127.0.0.1:{target.port}/0", commands


@contextlib.asynccontextmanager
async def bus_on_fake_redis(answers_pings: bool) -> AsyncIterator[tuple[RedisBus, list[bytes]]]:
    """A bus joined to :func:`fake_subscribed_redis`, and the commands that Redis got."""
    server, url, commands = await fake_subscribed_redis(answers_pings)
    async with server:
        bus = await RedisBus.connect(url)
        try:
            bus.subscribe("quiet", lambda notice: asyncio.sleep(0))
            await wait_until(lambda: bus.joined)
            yield bus, commands
        finally:
            await bus.close()


async def test_a_quiet_redis_that_answers_pings_keeps_the_bus(quick_silence: None) -> None:
    async with bus_on_fake_redis(answers_pings=True) as (bus, commands):
        await asyncio.sleep(3.0)  # 2.5 times SILENT_FOR without a message
        assert bus.joins == 1 and bus.joined
        assert commands.count(b"PING") >= 3  # the first, then one per silence


async def test_a_redis_that_answers_nothing_is_left_and_joined_again(
        quick_silence: None, caplog: pytest.LogCaptureFixture) -> None:
    async with bus_on_fake_redis(answers_pings=False) as (_, commands):
        await wait_until(lambda: commands.count(b"SUBSCRIBE") >= 2, timeout=5.0)
        assert b"PING" in commands[commands.index(b"SUBSCRIBE"):]  # pinged before leaving
        assert "does not answer" in caplog.text and "no answer from Redis" in caplog.text


async def wait_until(condition: Callable[[], bool], timeout: float = 5.0) -> None:
    """Wait for ``condition`` to hold, or fail the test after ``timeout`` seconds."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        if asyncio.get_running_loop().time() > deadline:
            pytest.fail(f"not within {timeout:g} s")
        await asyncio.sleep(0.02)
