"""The bus over Redis pub/sub, for several server processes sharing tables."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import defaultdict
from typing import Any

import redis.asyncio as redis

from cardroom.bus.memory import Handler

log = logging.getLogger(__name__)


class RedisBus:
    """Publishes notices to Redis channels; a reader task hands them to local handlers."""

    def __init__(self, client: redis.Redis) -> None:
        self.client = client
        self.pubsub = client.pubsub()
        self._handlers: dict[str, list[Handler]] = defaultdict(list)
        self._reader: asyncio.Task[None] | None = None
        self._outbox: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self._writer: asyncio.Task[None] | None = None

    @classmethod
    async def connect(cls, url: str) -> RedisBus:
        """Connect to Redis (``redis://host:port/db``) and check it answers."""
        client = redis.from_url(url)
        await client.ping()
        return cls(client)

    async def publish(self, channel: str, notice: dict[str, Any]) -> None:
        """Send a notice to every process subscribed to ``channel``.

        Notices queue here and one writer sends them, in order, pipelined: two changes of a
        table leave this process in the order they were made, and a burst (a thousand players
        arriving) does not open a thousand connections.
        """
        self._outbox.put_nowait((f"cardroom:{channel}", json.dumps(notice)))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(self._write())

    async def _write(self) -> None:
        pause = 0.1
        while True:
            batch = [await self._outbox.get()]
            while not self._outbox.empty() and len(batch) < 500:
                batch.append(self._outbox.get_nowait())
            try:
                async with self.client.pipeline(transaction=False) as pipe:
                    for channel, text in batch:
                        pipe.publish(channel, text)
                    await pipe.execute()
                pause = 0.1
            except asyncio.CancelledError:
                raise
            except Exception:
                # Lost notices: other processes catch up from the database (the room's sweep).
                log.exception("publishing %d notices to Redis; retrying in %.1f s",
                              len(batch), pause)
                await asyncio.sleep(pause)
                pause = min(5.0, pause * 2)

    def subscribe(self, channel: str, handler: Handler) -> None:
        """Call ``handler`` for every notice on ``channel`` from any process."""
        new = channel not in self._handlers
        self._handlers[channel].append(handler)
        if self._reader is None:
            self._reader = asyncio.get_running_loop().create_task(self._read())
        elif new and self.pubsub.subscribed:
            asyncio.get_running_loop().create_task(
                self.pubsub.subscribe(f"cardroom:{channel}"))

    async def _read(self) -> None:
        """Hand every notice to its handlers; if Redis goes away, keep trying to come back
        (notices sent meanwhile are lost: the room's sweep catches up from the database)."""
        pause = 0.1
        while True:
            try:
                await self.pubsub.subscribe(*(f"cardroom:{c}" for c in self._handlers))
                pause = 0.1
                async for message in self.pubsub.listen():
                    if message.get("type") == "message":
                        await self._dispatch(message)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("reading from Redis; retrying in %.1f s", pause)
                await asyncio.sleep(pause)
                pause = min(5.0, pause * 2)
                with contextlib.suppress(Exception):
                    await self.pubsub.aclose()
                self.pubsub = self.client.pubsub()

    async def _dispatch(self, message: dict[str, Any]) -> None:
        channel = message["channel"].decode().removeprefix("cardroom:")
        notice = json.loads(message["data"])
        for handler in list(self._handlers.get(channel, ())):
            try:
                await handler(notice)
            except Exception:
                log.exception("bus handler for %s failed", channel)

    async def close(self) -> None:
        """Stop reading and disconnect."""
        if self._writer is not None:
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._writer
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
        await self.pubsub.aclose()
        await self.client.aclose()
