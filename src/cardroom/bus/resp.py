"""Lean Redis connections for the bus, one publishing and one subscribed: commands written at
once, replies parsed by hiredis.

redis-py's pipeline costs about 120 µs of this process's CPU for a batch of one PUBLISH (a
pipeline object, a pooled connection taken and given back, the command packed and each reply
read through its stream reader: ``bench/RESULTS.md``), and at a human pace most batches are
of one notice, several an action. Here a batch is packed by hiredis, written in one call to
the transport, and its replies are parsed as they arrive by hiredis's reader in the
protocol's ``data_received``: about a fifth of that.

Where to connect (host and port or a Unix socket, TLS, user and password, database) is read
from a redis-py client built from the bus's URL, so the address, the login and the TLS
options mean what they mean to redis-py (its ``client_name`` and ``protocol`` options are not
used: these connections speak RESP2). Two differences: the TLS context is made once, at the
start (a renewed certificate file is read at the next start), and a login with a user is not
tried again without it (a Redis older than 6 has no users). Nothing is retried here: a
batch that fails or times out raises, and unless Redis merely answered it with an error the
connection is closed (its replies could no longer be matched to their commands); the bus
puts the batch back and tries again on a fresh connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import ssl
from collections import deque
from collections.abc import Callable, Collection, Sequence
from typing import Any, NamedTuple, cast

import hiredis
import redis.asyncio as redis
from redis.asyncio.connection import SSLConnection, UnixDomainSocketConnection

_INCOMPLETE = object()
"""What the reader gives while a reply has not all arrived (RESP3's false is ``False``)."""
MAX_UNREAD = 1_000
"""Messages a subscription holds unread before it stops reading its socket: Redis then
keeps the rest, and cuts the connection at its own limit for a subscriber that falls behind
(``client-output-buffer-limit pubsub``) rather than this process's memory growing."""


class RespError(ConnectionError):
    """Redis answered a command with an error, or the connection failed or closed."""


class Target(NamedTuple):
    """Where a connection goes and how it introduces itself."""

    host: str = "localhost"
    port: int = 6379
    path: str | None = None
    """A Unix socket's path (then host and port are not used)."""
    tls: ssl.SSLContext | None = None
    username: str | None = None
    password: str | None = None
    db: int = 0

    @classmethod
    def of(cls, client: redis.Redis) -> Target:
        """Where ``client`` connects, as its URL said."""
        pool = client.connection_pool
        kwargs = pool.connection_kwargs
        tls = None
        if issubclass(pool.connection_class, SSLConnection):
            # redis-py builds the TLS context from the URL's ssl_* options: use the same.
            made = pool.connection_class(**kwargs)
            tls = made.ssl_context.get()
        path = kwargs.get("path") if issubclass(pool.connection_class,
                                                UnixDomainSocketConnection) else None
        return cls(host=kwargs.get("host", "localhost"), port=int(kwargs.get("port", 6379)),
                   path=path, tls=tls, username=kwargs.get("username"),
                   password=kwargs.get("password"), db=int(kwargs.get("db") or 0))


class _Waiting(NamedTuple):
    """A batch's replies still to come."""

    needed: int
    replies: list[Any]
    future: asyncio.Future[list[Any]]


class RespConnection(asyncio.Protocol):
    """One connection to Redis (RESP2): batches of commands in, their replies out, in order."""

    def __init__(self) -> None:
        self._reader = hiredis.Reader(notEnoughData=_INCOMPLETE)
        self._transport: asyncio.Transport | None = None
        self._waiting: deque[_Waiting] = deque()
        self._pushed: Callable[[Any], None] | None = None
        """Once subscribed: told of every reply (Redis then sends messages unasked)."""
        self._lost: Callable[[], None] | None = None
        """Once subscribed: told when the connection closes."""
        self.closed = False
        self.error: RespError | None = None
        """Why the connection closed (the first reason)."""

    @classmethod
    async def open(cls, target: Target, timeout: float) -> RespConnection:
        """Connect, authenticate and select the database, within ``timeout`` seconds."""
        loop = asyncio.get_running_loop()
        async with asyncio.timeout(timeout):
            if target.path is not None:
                _, connection = await loop.create_unix_connection(cls, target.path)
            else:
                _, connection = await loop.create_connection(
                    cls, target.host, target.port, ssl=target.tls,
                    server_hostname=target.host if target.tls is not None else None)
            setup: list[tuple[str, ...]] = []
            if target.username or target.password:  # as redis-py logs in from a URL
                user = (target.username,) if target.username else ()
                setup.append(("AUTH", *user, target.password or ""))
            if target.db:
                setup.append(("SELECT", str(target.db)))
            try:
                if setup:
                    await connection.execute(setup, timeout)
            except BaseException:
                connection.close()
                raise
        return connection

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = cast(asyncio.Transport, transport)  # (uvloop's is not a subclass)
        sock = transport.get_extra_info("socket")
        if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)

    def data_received(self, data: bytes) -> None:
        self._reader.feed(data)
        try:
            while (reply := self._reader.gets()) is not _INCOMPLETE:
                self._take(reply)
        except hiredis.ProtocolError as error:
            self._fail(RespError(f"Redis sent what is not RESP: {error}"))

    def _take(self, reply: Any) -> None:
        if self._pushed is not None:
            self._pushed(reply)
            return
        if not self._waiting:
            self._fail(RespError("Redis sent a reply to no command"))
            return
        waiting = self._waiting[0]
        waiting.replies.append(reply)
        if len(waiting.replies) < waiting.needed:
            return
        self._waiting.popleft()
        if waiting.future.done():  # its caller gave up (timed out): the connection closes
            return
        errors = [r for r in waiting.replies if isinstance(r, hiredis.ReplyError)]
        if errors:
            waiting.future.set_exception(RespError(str(errors[0])))
        else:
            waiting.future.set_result(waiting.replies)

    def connection_lost(self, exc: Exception | None) -> None:
        self._fail(RespError(f"the connection to Redis was lost ({exc or 'closed'})"))

    def _fail(self, error: RespError) -> None:
        """Close, and fail every batch still waiting for its replies."""
        if self.error is None:
            self.error = error
        if not self.closed and self._lost is not None:
            self._lost()
        self.closed = True
        if self._transport is not None:
            self._transport.abort()
        while self._waiting:
            future = self._waiting.popleft().future
            if not future.done():
                future.set_exception(error)

    async def execute(self, commands: Sequence[tuple[str | bytes, ...]],
                      timeout: float) -> list[Any]:
        """Send ``commands`` in one write and return their replies, in order; on an error
        reply, a failure or ``timeout`` seconds without every reply, :class:`RespError`
        (after a timeout or a failure the connection is closed)."""
        if self.closed or self._transport is None or self._transport.is_closing():
            raise RespError("the connection to Redis is closed")
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        self._waiting.append(_Waiting(len(commands), [], future))
        self._transport.write(b"".join(hiredis.pack_command(cast(Any, c)) for c in commands))
        deadline = loop.call_later(timeout, self._time_out, future, timeout)
        try:
            return await future
        finally:
            deadline.cancel()

    def _time_out(self, future: asyncio.Future[list[Any]], timeout: float) -> None:
        """A batch went ``timeout`` seconds without every reply: the connection closes (no
        late reply is ever matched to another batch) and every batch on it fails; one whose
        replies came in the same turn of the loop stands."""
        if not future.done():
            self._fail(RespError(f"Redis did not answer within {timeout:g} s"))

    def close(self) -> None:
        """Close the connection; batches still waiting fail."""
        self._fail(RespError("the connection to Redis was closed here"))

    def pause_reading(self) -> None:
        """Read nothing more from the socket until :meth:`resume_reading`."""
        if self._transport is not None and not self.closed and self._transport.is_reading():
            self._transport.pause_reading()

    def resume_reading(self) -> None:
        if self._transport is not None and not self.closed and not self._transport.is_reading():
            self._transport.resume_reading()

    def listen(self, pushed: Callable[[Any], None], lost: Callable[[], None]) -> None:
        """From now on hand every reply to ``pushed`` (a subscribed connection: Redis sends
        its messages, and answers SUBSCRIBE and PING, as replies of their own), and tell
        ``lost`` when the connection closes."""
        self._pushed, self._lost = pushed, lost

    def send(self, *command: str | bytes) -> None:
        """Write one command without waiting for its reply (a subscribed connection's)."""
        if self._transport is not None and not self.closed:
            self._transport.write(hiredis.pack_command(cast(Any, command)))


class Publisher:
    """Sends batches of notices (PUBLISH) on a connection of its own, opened when needed."""

    def __init__(self, target: Target, connect_timeout: float,
                 command_timeout: float) -> None:
        self.target = target
        self.connect_timeout, self.command_timeout = connect_timeout, command_timeout
        self._connection: RespConnection | None = None

    async def _execute(self, commands: Sequence[tuple[str | bytes, ...]]) -> list[Any]:
        """Send ``commands`` on the connection, opened first if it is not."""
        connection = self._connection
        if connection is None or connection.closed:
            connection = self._connection = await RespConnection.open(self.target,
                                                                      self.connect_timeout)
        return await connection.execute(commands, self.command_timeout)

    async def ping(self) -> None:
        """Ask Redis whether it answers (the connection stays open for what is published)."""
        await self._execute([("PING",)])

    async def publish(self, batch: Sequence[tuple[str, bytes]]) -> list[int]:
        """Publish each ``(channel, data)`` in order, in one write; how many subscribers
        got each. Raises on any failure (nothing is sent again here)."""
        replies = await self._execute([("PUBLISH", channel, data) for channel, data in batch])
        return [int(r) for r in replies]

    def close(self) -> None:
        """Close the connection, if open."""
        if self._connection is not None:
            self._connection.close()
            self._connection = None


class Subscription:
    """A connection subscribed to channels: their messages, in order, as they come."""

    def __init__(self, connection: RespConnection) -> None:
        self._connection = connection
        self._messages: deque[tuple[bytes, bytes]] = deque()
        self._arrived = asyncio.Event()
        self._confirmed = 0
        self.heard = asyncio.get_running_loop().time()
        """When Redis last sent anything (a message, a confirmation, a pong)."""
        connection.listen(self._pushed, self._arrived.set)

    @classmethod
    async def open(cls, target: Target, channels: Collection[str], connect_timeout: float,
                   command_timeout: float) -> Subscription:
        """Connect and subscribe to ``channels``, confirmed by Redis within the timeouts."""
        subscription = cls(await RespConnection.open(target, connect_timeout))
        try:
            subscription.subscribe(channels)
            async with asyncio.timeout(command_timeout):
                while subscription._confirmed < len(channels):
                    await subscription._wait()
        except BaseException:
            subscription.close()
            raise
        return subscription

    def _pushed(self, reply: Any) -> None:
        self.heard = asyncio.get_running_loop().time()
        if isinstance(reply, list) and len(reply) == 3 and reply[0] == b"message":
            self._messages.append((reply[1], reply[2]))
            if len(self._messages) == MAX_UNREAD:
                self._connection.pause_reading()
        elif isinstance(reply, list) and reply and reply[0] == b"subscribe":
            self._confirmed += 1
        elif isinstance(reply, hiredis.ReplyError):
            self._connection._fail(RespError(f"Redis refused: {reply}"))
        self._arrived.set()

    def _lost_error(self) -> RespError:
        """Why the subscription ended, as its connection says."""
        return self._connection.error or RespError("the subscription to Redis was lost")

    async def _wait(self) -> None:
        if self._connection.closed:
            raise self._lost_error()
        await self._arrived.wait()
        self._arrived.clear()

    def subscribe(self, channels: Collection[str]) -> None:
        """Add channels (Redis confirms each; what is sent there from then on comes)."""
        if channels:
            self._connection.send("SUBSCRIBE", *channels)

    def ping(self) -> None:
        """Ask Redis for a sign of life (its pong counts as heard)."""
        self._connection.send("PING")

    async def receive(self, timeout: float) -> list[tuple[bytes, bytes]]:
        """The messages ``(channel, data)`` that came, waiting up to ``timeout`` seconds for
        one (none: an empty list); :class:`RespError` once the connection is lost."""
        if not self._messages:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(timeout):
                    await self._wait()
        if self._connection.closed and not self._messages:
            raise self._lost_error()
        self._connection.resume_reading()
        messages = list(self._messages)
        self._messages.clear()
        self._arrived.clear()  # (what woke us is taken: the next call waits)
        return messages

    def close(self) -> None:
        self._connection.close()
