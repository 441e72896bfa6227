"""The bus over Redis pub/sub, for several server processes sharing tables.

Redis is a convenience here, not a dependency of play: every process holds the tables it
serves in memory and writes every change to the database first, and the room's sweep compares
every table's version with the database every few seconds. So a process starts even when Redis
does not answer, goes on serving its own tables while Redis is away, and joins the bus again by
itself when Redis comes back; the notices lost meanwhile are made up for by the sweep.

While Redis is away:

- publishing never blocks and never raises: notices wait in a bounded backlog and are sent,
  in order, when Redis answers again. The backlog keeps the notices of the last
  :data:`STALE_AFTER` seconds (at most :data:`BACKLOG` of them); older ones are dropped and
  counted, because by then the sweep has told the other processes what they said (and a newer
  presence heartbeat supersedes an old one). So a blip (a connection reset, Redis restarted in
  a second) costs other processes a little delay rather than a sweep's wait, a long outage does
  not end in a flood of stale notices, and memory stays bounded however long it lasts. (A
  restarted Redis forgets every subscription: what is sent before the other processes have
  subscribed again is lost too, and the sweep makes up for it as well);
- the subscriber tries again with jittered exponential back-off (up to :data:`RETRY_CAP`
  seconds) and subscribes to every channel again when it gets through;
- the log says one warning when the bus is lost and one info line when it is back, never one
  line per failed attempt or per notice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections import defaultdict, deque
from collections.abc import Awaitable, Callable
from typing import Any, NamedTuple
from urllib.parse import urlsplit, urlunsplit

import msgspec
import redis.asyncio as redis

from cardroom.bus.memory import Handler, RawHandler, Unheard
from cardroom.bus.resp import Publisher, RespError, Subscription, Target

log = logging.getLogger(__name__)

PREFIX = "cardroom:"
"""Every channel's name in Redis starts with this (other users of the same Redis stay apart),
then the room's key (:meth:`RedisBus.connect`): two rooms on one Redis stay apart too."""
BACKLOG = 10_000
"""Notices kept at most, however quickly they come; beyond this the oldest are dropped (the
sweep recovers them). A notice is well under a kilobyte as a rule: a few megabytes at worst."""
STALE_AFTER = 10.0
"""Seconds after which a notice not yet sent is dropped: the sweep (every 5 s) has caught the
other processes up on it by then."""
BATCH = 500
"""Notices sent in one pipelined round trip."""
RETRY_BASE = 0.1
"""Seconds: the first wait before trying Redis again is a random part of this."""
RETRY_CAP = 2.0
"""Seconds: no wait between two tries is longer. Once Redis is back, every process hears the
others again within this (a refused connection costs next to nothing meanwhile): at 5 s,
four processes through seven outages took 7.9 s at the p99 from Redis coming back to each
table's next change, at 2 s 5.8 s (``bench/RESULTS.md``)."""
CONNECT_TIMEOUT = 2.0
"""Seconds to open a connection to Redis (a host that drops packets must not hang us)."""
COMMAND_TIMEOUT = 5.0
"""Seconds for Redis to answer a command (subscribing, publishing)."""
READ_WAIT = 1.0
"""Seconds the subscriber waits for a message before looking at its own state again."""
PING_AFTER = 5.0
"""Seconds of silence on the subscription after which the subscriber pings Redis …"""
SILENT_FOR = 15.0
"""… and seconds of silence (ping unanswered) after which it takes the connection for dead:
a Redis behind a broken network sends no end of connection."""


def retry_delay(attempt: int, base: float = RETRY_BASE, cap: float = RETRY_CAP) -> float:
    """Seconds to wait before try number ``attempt`` (0 first): "full jitter", a random part of
    an exponentially growing, capped delay, so processes that lost Redis together do not all
    come back at the same moment."""
    return random.uniform(0.0, min(cap, base * 2.0 ** min(attempt, 32)))


def redacted(url: str) -> str:
    """The URL without its password, for the log."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    if parts.port is not None:
        host = f"{host}:{parts.port}"
    user = f"{parts.username}:***@" if parts.username else ":***@"
    return urlunsplit(parts._replace(netloc=user + host))


class Queued(NamedTuple):
    """A notice waiting to be sent."""

    at: float
    """When it was published (monotonic seconds)."""
    channel: str
    """Its Redis channel."""
    text: bytes
    """Its JSON."""
    tried: bool = False
    """Sent once already, in a batch that failed: it may have been delivered then, so it
    is never reported as unheard."""


class RedisBus:
    """Publishes notices to Redis channels; a reader task hands them to local handlers.

    Redis being away is a state of the bus, not an error of its callers (module docstring).
    """

    def __init__(self, target: Target, where: str = "Redis", room: str = "") -> None:
        """The bus on the Redis at ``target``, on two lean connections of its own
        (:mod:`cardroom.bus.resp`): one subscribed, one publishing, which never sends a
        command twice by itself, so that a notice Redis answers as delivered to nobody was
        never sent before (:meth:`on_unheard`). ``where`` names Redis in the log (its
        address without a password); ``room``: the room's key, in every channel's name."""
        self.prefix = f"{PREFIX}{room}:" if room else PREFIX
        """What every channel's name in Redis starts with."""
        self.target = target
        self.publisher = Publisher(target, CONNECT_TIMEOUT, COMMAND_TIMEOUT)
        self.where = where
        self._handlers: dict[str, list[Handler]] = defaultdict(list)
        self._raw_handlers: dict[str, list[RawHandler]] = defaultdict(list)
        self._channels: set[str] = set()
        """Every channel subscribed to (only ever added)."""
        self._unheard: list[Unheard] = []
        self._reader: asyncio.Task[None] | None = None
        self._writer: asyncio.Task[None] | None = None
        self._backlog: deque[Queued] = deque()
        """Notices not sent yet, oldest first."""
        self._queued = asyncio.Event()
        """Set when a notice joins the backlog: wakes the writer."""
        self._subscribed_again = asyncio.Event()
        """Set when the subscriber gets through: a writer waiting to try again tries now."""
        self._sending = False
        self._subscribed = False
        """The subscriber holds a live subscription to every channel."""
        self._publish_failing = False
        """The last attempt to send the backlog failed (it is retried)."""
        self._joined: bool | None = None
        """On the bus (subscribed, publishing works); ``None`` until first known."""
        self.dropped = 0
        """Notices dropped because the backlog was full (since the start)."""
        self._joins = 0
        self._dropped_when_lost = 0

    @classmethod
    async def connect(cls, url: str, room: str = "") -> RedisBus:
        """A bus on the Redis at ``url`` (``redis://host:port/db``), whether or not it answers
        now: if it does not, one warning says so and the bus joins when Redis comes back.
        ``room``: the room's key (:meth:`cardroom.store.db.Store.room_key`), so that only
        the processes of one room hear each other. A URL that cannot be used at all (a
        ``rediss://`` one whose certificate file is missing, say) fails here, at the start:
        that is a mistake in the configuration, not Redis being away."""
        bus = cls(Target.of(redis.from_url(url)), redacted(url), room=room)
        try:
            await bus.publisher.ping()
        except Exception as error:  # any failure means "not now"
            bus._changed(error)
        return bus

    # -- state ----------------------------------------------------------------------------------

    @property
    def joined(self) -> bool:
        """True while this process is on the bus (subscribed, and publishing works)."""
        return bool(self._joined)

    @property
    def joins(self) -> int:
        """How many times this process has joined the bus (see :class:`Bus`)."""
        return self._joins

    def state(self) -> dict[str, Any]:
        """What a health check wants to know about the bus."""
        return {"bus": "joined" if self._joined else "away" if self._joined is False
                else "joining", "bus_backlog": len(self._backlog),
                "bus_dropped": self.dropped}

    def _changed(self, error: BaseException | None = None) -> None:
        """Log the bus being lost or found again: once per change, not once per attempt."""
        joined = self._subscribed and not self._publish_failing
        if joined == self._joined:
            return
        if joined:
            self._joins += 1
        if not joined:
            log.warning("Redis at %s does not answer (%s): serving this process's tables "
                        "alone; notices to other processes wait (for %g s) until it is back",
                        self.where, _reason(error), STALE_AFTER)
            self._dropped_when_lost = self.dropped
        elif self._joined is False:
            log.info("Redis at %s answers again: back on the bus (%d notices dropped "
                     "meanwhile)", self.where, self.dropped - self._dropped_when_lost)
        self._joined = joined

    # -- publishing -------------------------------------------------------------------------------

    async def publish(self, channel: str, notice: dict[str, Any]) -> None:
        """Send a notice to every process subscribed to ``channel``; returns at once.

        Notices queue here and one writer sends them, in order, pipelined: two changes of a
        table leave this process in the order they were made, and a burst (a thousand players
        arriving) does not open a thousand connections. While Redis is away the queue keeps
        the notices of the last :data:`STALE_AFTER` seconds (at most :data:`BACKLOG`).
        """
        self.post(channel, notice)

    def post(self, channel: str, notice: dict[str, Any]) -> None:
        """Queue a notice for the writer (:meth:`publish`), from code that does not wait."""
        if len(self._backlog) >= BACKLOG:
            self._backlog.popleft()
            self.dropped += 1
        self._backlog.append(Queued(time.monotonic(), self.prefix + channel,
                                    msgspec.json.encode(notice)))
        self._queued.set()
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(self._write())

    async def _write(self) -> None:
        """Send the backlog whenever there is one; on failure put it back and wait (back-off,
        or until the subscriber gets through again)."""
        attempt = 0
        again_at_once = True
        while True:
            await self._queued.wait()
            self._queued.clear()
            while self._forget_stale():
                batch = [self._backlog.popleft() for _ in range(min(BATCH, len(self._backlog)))]
                self._sending = True
                try:
                    receivers = await self.publisher.publish(
                        [(queued.channel, queued.text) for queued in batch])
                except asyncio.CancelledError:
                    raise
                except Exception as error:  # Redis away, in whatever form
                    self._requeue(batch)
                    if again_at_once:  # a pooled connection may have died with a restarted
                        again_at_once = False  # Redis: once more, on a fresh one, at once
                        continue
                    self._publish_failing = True
                    self._changed(error)
                    self._subscribed_again.clear()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._subscribed_again.wait(),
                                               retry_delay(attempt))
                    attempt += 1
                else:
                    attempt, again_at_once = 0, True
                    if self._publish_failing:
                        self._publish_failing = False
                        self._changed()
                    self._tell_unheard(batch, receivers)
                finally:
                    self._sending = False

    def on_unheard(self, handler: Unheard) -> None:
        """Call ``handler`` with each notice Redis delivered to nobody, its channel and JSON
        (Redis answers a PUBLISH with the number of subscribers that got it)."""
        self._unheard.append(handler)

    def _tell_unheard(self, batch: list[Queued], receivers: list[Any]) -> None:
        """The notices of a batch sent in full that nobody received (not those sent before
        in a failed batch: Redis may have delivered them then); a failing handler is
        logged, and the writer goes on."""
        for queued, count in zip(batch, receivers, strict=True):
            if count != 0 or queued.tried:
                continue
            for unheard in self._unheard:
                try:
                    unheard(queued.channel.removeprefix(self.prefix), queued.text)
                except Exception:
                    log.exception("a handler of an unheard notice failed")

    def _forget_stale(self) -> bool:
        """Drop the notices older than :data:`STALE_AFTER`; whether any are left to send."""
        too_old = time.monotonic() - STALE_AFTER
        while self._backlog and self._backlog[0].at < too_old:
            self._backlog.popleft()
            self.dropped += 1
        return bool(self._backlog)

    def _requeue(self, batch: list[Queued]) -> None:
        """Put a batch that was not sent back in front, keeping the newest within the bound
        (a batch sent in part is sent again in full: each notice's handler takes a repeat,
        and a process's calls are answered once: :mod:`cardroom.tables.relay`)."""
        self._backlog.extendleft(reversed([q._replace(tried=True) for q in batch]))
        while len(self._backlog) > BACKLOG:
            self._backlog.popleft()
            self.dropped += 1

    # -- subscribing ------------------------------------------------------------------------------

    def subscribe(self, channel: str, handler: Handler) -> None:
        """Call ``handler`` for every notice on ``channel`` from any process (the subscriber
        adds a new channel to its subscription within :data:`READ_WAIT` seconds)."""
        self._handlers[channel].append(handler)
        self._listen_to(channel)

    def subscribe_raw(self, channel: str, handler: RawHandler) -> None:
        """Call ``handler`` with every notice on ``channel`` as its JSON, undecoded."""
        self._raw_handlers[channel].append(handler)
        self._listen_to(channel)

    def _listen_to(self, channel: str) -> None:
        self._channels.add(channel)
        if self._reader is None:
            self._reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        """Subscribe, hand every notice to its handlers, and when Redis goes away (or never
        answered) try again with back-off, forever."""
        attempt = 0
        while True:
            subscription: Subscription | None = None
            try:
                channels = set(self._channels)
                subscription = await Subscription.open(
                    self.target, [self.prefix + c for c in channels], CONNECT_TIMEOUT,
                    COMMAND_TIMEOUT)
                self._subscribed = True
                self._subscribed_again.set()
                self._changed()
                attempt = 0
                await self._listen(subscription, channels)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # Redis away, in whatever form
                self._subscribed = False
                self._changed(error)
            finally:
                self._subscribed = False
                if subscription is not None:
                    subscription.close()
            await asyncio.sleep(retry_delay(attempt))
            attempt += 1

    async def _listen(self, subscription: Subscription, channels: set[str]) -> None:
        """Read the subscription until it fails; ping when it is quiet, so a Redis that
        vanished without closing the connection is noticed too."""
        loop = asyncio.get_running_loop()
        heard = loop.time()  # Redis's last sign of life, or the end of handling what it sent
        pinged = False
        while True:
            if len(self._channels) > len(channels):  # channels are only ever added
                new = self._channels - channels
                subscription.subscribe([self.prefix + c for c in new])
                channels |= new
            messages = await subscription.receive(READ_WAIT)
            for channel, data in messages:
                await self._dispatch(channel, data)
            now = loop.time()
            if messages:  # time spent in the handlers is not Redis's silence
                heard, pinged = now, False
            elif subscription.heard > heard:  # a pong, or a confirmation
                heard, pinged = subscription.heard, False
            elif now - heard > SILENT_FOR:
                raise RespError(f"no answer from Redis for {SILENT_FOR:g} s")
            elif now - heard > PING_AFTER and not pinged:
                subscription.ping()
                pinged = True

    async def _dispatch(self, raw_channel: bytes, data: bytes) -> None:
        channel = raw_channel.decode().removeprefix(self.prefix)
        for raw_handler in list(self._raw_handlers.get(channel, ())):
            await self._call(channel, raw_handler, data)
        handlers = list(self._handlers.get(channel, ()))
        if not handlers:
            return
        try:
            notice = msgspec.json.decode(data)
        except ValueError:
            log.warning("ignored a notice on %s that is not JSON", channel)
            return
        for handler in handlers:
            await self._call(channel, handler, notice)

    @staticmethod
    async def _call(channel: str, handler: Callable[[Any], Awaitable[None]],
                    notice: Any) -> None:
        try:
            await handler(notice)
        except Exception:
            log.exception("bus handler for %s failed", channel)

    # -- the end ----------------------------------------------------------------------------------

    async def close(self, flush: float = 1.0) -> None:
        """Send what is queued (for up to ``flush`` seconds, if Redis is there), then stop
        reading and disconnect."""
        if self._joined and self._writer is not None and not self._writer.done():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._drained(), flush)
        for task in (self._writer, self._reader):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self._writer = self._reader = None
        self.publisher.close()

    async def _drained(self) -> None:
        while (self._backlog or self._sending) and not self._publish_failing:
            await asyncio.sleep(0.01)


def _reason(error: BaseException | None) -> str:
    """A failure in a few words for the log (no traceback: the cause is Redis being away)."""
    if error is None:
        return "unknown"
    return str(error) or type(error).__name__
