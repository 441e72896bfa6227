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

    @classmethod
    async def connect(cls, url: str) -> RedisBus:
        """Connect to Redis (``redis://host:port/db``) and check it answers."""
        client = redis.from_url(url)
        await client.ping()
        return cls(client)

    async def publish(self, channel: str, notice: dict[str, Any]) -> None:
        """Send a notice to every process subscribed to ``channel``."""
        await self.client.publish(f"cardroom:{channel}", json.dumps(notice))

    def subscribe(self, channel: str, handler: Handler) -> None:
        """Call ``handler`` for every notice on ``channel`` from any process."""
        self._handlers[channel].append(handler)
        self._reader = self._reader or asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        await self.pubsub.subscribe(*(f"cardroom:{c}" for c in self._handlers))
        async for message in self.pubsub.listen():
            if message.get("type") != "message":
                continue
            channel = message["channel"].decode().removeprefix("cardroom:")
            notice = json.loads(message["data"])
            for handler in list(self._handlers.get(channel, ())):
                try:
                    await handler(notice)
                except Exception:
                    log.exception("bus handler for %s failed", channel)

    async def close(self) -> None:
        """Stop reading and disconnect."""
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
        await self.pubsub.aclose()
        await self.client.aclose()
