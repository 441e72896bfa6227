"""A connection writes each message at once when nothing waits before it, and otherwise
queues it behind what waits: the client receives every message in the order it was sent,
whichever way each one went."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from cardroom.tables.model import Relayed
from cardroom.web.socket import SEND_NOW, Connection


class Socket:
    """A socket whose client reads or not (``reads``); its protocol's direct write refuses
    while the client does not read, and the ASGI send waits until it does."""

    def __init__(self) -> None:
        self.received: list[str] = []
        self.reads = True
        self.readable = asyncio.Event()
        self.readable.set()
        self.client = SimpleNamespace(host="127.0.0.1")
        self.headers: dict[str, str] = {}
        self.query_params: dict[str, str] = {}
        self.scope: dict[str, Any] = {"extensions": {SEND_NOW: self.send_now}}
        self.sent_now = 0

    def send_now(self, text: str) -> bool:
        if not self.reads:
            return False
        self.sent_now += 1
        self.received.append(text)
        return True

    async def send_text(self, text: str) -> None:
        await self.readable.wait()
        self.received.append(text)

    def stop_reading(self) -> None:
        self.reads = False
        self.readable.clear()

    def read_again(self) -> None:
        self.reads = True
        self.readable.set()


async def test_messages_reach_the_client_in_order_written_now_or_queued() -> None:
    socket = Socket()
    connection = Connection(socket, room=None, rate=10, burst=10)  # type: ignore[arg-type]
    connection._writer = asyncio.create_task(connection._write())
    try:
        connection.deliver(Relayed('"a"'))
        assert socket.received == ['"a"'] and connection.outbox.empty()  # written at once
        socket.stop_reading()
        connection.deliver(Relayed('"b"'))  # the client reads nothing: queued
        for _ in range(5):
            await asyncio.sleep(0)  # the writer takes it and waits for the client
        socket.reads = True  # a direct write would go through now, yet "b" waits first
        connection.deliver(Relayed('"c"'))
        connection.deliver(Relayed('"d"'))
        assert socket.received == ['"a"']
        socket.read_again()
        for _ in range(20):
            await asyncio.sleep(0)
        assert socket.received == ['"a"', '"b"', '"c"', '"d"']
        connection.deliver(Relayed('"e"'))  # nothing waits any more: written at once
        assert socket.received[-1] == '"e"' and socket.sent_now == 2
    finally:
        connection._writer.cancel()


async def test_a_connection_without_direct_writes_queues_everything() -> None:
    socket = Socket()
    socket.scope = {"extensions": {}}  # a server whose protocol offers none (tests' ASGI)
    connection = Connection(socket, room=None, rate=10, burst=10)  # type: ignore[arg-type]
    connection._writer = asyncio.create_task(connection._write())
    try:
        for text in ('"a"', '"b"'):
            connection.deliver(Relayed(text))
        for _ in range(10):
            await asyncio.sleep(0)
        assert socket.received == ['"a"', '"b"'] and socket.sent_now == 0
    finally:
        connection._writer.cancel()
