"""The bus interface and its in-process implementation.

The table layer publishes "table X changed" notices on a channel per table and on the lobby
channel; every server process subscribes and pushes fresh views to its own connections. In
one process the bus is a direct call; across processes a Redis implementation carries the same
notices (DESIGN.md, "Defaults and scale").
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import msgspec

log = logging.getLogger(__name__)

Handler = Callable[[dict[str, Any]], Awaitable[None]]
RawHandler = Callable[[bytes], Awaitable[None]]
"""A handler given a notice as its JSON, undecoded (it decodes only what it needs)."""
Unheard = Callable[[str, bytes], None]
"""Told of a notice (its channel and JSON) published while nobody listened to its channel."""


class Bus(Protocol):
    """Publish/subscribe of small JSON notices by channel name."""

    async def publish(self, channel: str, notice: dict[str, Any]) -> None:
        """Deliver ``notice`` to every subscriber of ``channel`` (in every process)."""
        ...

    def post(self, channel: str, notice: dict[str, Any]) -> None:
        """Publish ``notice`` without waiting for anything: a bus between processes queues
        it for its writer at once, saving the task a caller would spawn to publish."""
        ...

    def subscribe(self, channel: str, handler: Handler) -> None:
        """Call ``handler`` with every notice published on ``channel``."""
        ...

    def subscribe_raw(self, channel: str, handler: RawHandler) -> None:
        """Call ``handler`` with every notice published on ``channel`` as its JSON (a notice
        may carry JSON already encoded, :class:`msgspec.Raw`: it stays as it came)."""
        ...

    def on_unheard(self, handler: Unheard) -> None:
        """Call ``handler`` with each notice that reached no subscriber (its channel and
        JSON): a process's own channel nobody listens to any more is a process gone, and
        what was sent there was not received."""
        ...

    async def close(self) -> None:
        """Stop delivering."""
        ...

    @property
    def joined(self) -> bool:
        """This process is on the bus now (a bus between processes may be away a while)."""
        ...

    @property
    def joins(self) -> int:
        """How many times this process has joined the bus: when it grows, the process was
        off the bus meanwhile (however briefly) and lost what was sent then."""
        ...


class InProcessBus:
    """A bus for one server process: publishing awaits each subscriber in turn."""

    def __init__(self) -> None:
        self._handlers: dict[str, list[Handler]] = defaultdict(list)
        self._unheard: list[Unheard] = []
        self._posting: set[asyncio.Task[None]] = set()
        """Notices posted whose handlers are still running (held, so none is collected)."""

    @property
    def joined(self) -> bool:
        """Always: the bus is this process."""
        return True

    @property
    def joins(self) -> int:
        """Once, for good."""
        return 1

    async def publish(self, channel: str, notice: dict[str, Any]) -> None:
        """Call the channel's handlers now, in subscription order."""
        handlers = list(self._handlers.get(channel, ()))
        if not handlers:
            for unheard in self._unheard:
                unheard(channel, msgspec.json.encode(notice))
        for handler in handlers:
            await handler(notice)

    def post(self, channel: str, notice: dict[str, Any]) -> None:
        """Publish in a task of its own (its handlers may wait); a failure is logged."""
        task = asyncio.get_running_loop().create_task(self.publish(channel, notice))
        self._posting.add(task)
        task.add_done_callback(self._posted)

    def _posted(self, task: asyncio.Task[None]) -> None:
        self._posting.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("a handler of a posted notice failed", exc_info=task.exception())

    def subscribe(self, channel: str, handler: Handler) -> None:
        """Add a handler for a channel."""
        self._handlers[channel].append(handler)

    def subscribe_raw(self, channel: str, handler: RawHandler) -> None:
        """Add a handler for a channel, given each notice encoded."""

        async def encoded(notice: dict[str, Any]) -> None:
            await handler(msgspec.json.encode(notice))

        self._handlers[channel].append(encoded)

    def on_unheard(self, handler: Unheard) -> None:
        """Call ``handler`` with each channel published on that has no handler."""
        self._unheard.append(handler)

    async def close(self) -> None:
        """Forget every handler."""
        self._handlers.clear()
