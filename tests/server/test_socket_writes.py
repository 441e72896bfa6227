"""A connection writes each message at once when nothing waits before it, and otherwise
queues it behind what waits: the client receives every message in the order it was sent,
whichever way each one went. The server's WebSocket protocol writes at once only while the
connection is open and its client reads."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import os
from collections.abc import AsyncIterator
from types import SimpleNamespace
from typing import Any

import pytest
import uvicorn
from uvicorn.server import ServerState

from cardroom.tables.model import Relayed
from cardroom.web.server import DroppingWebSocketProtocol
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

    def send_now(self, data: bytes) -> bool:
        if not self.reads:
            return False
        self.sent_now += 1
        self.received.append(data.decode())
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


@contextlib.asynccontextmanager
async def writing(socket: Socket) -> AsyncIterator[Connection]:
    """A connection on ``socket`` with its writer task running."""
    connection = Connection(socket, room=None, rate=10, burst=10)  # type: ignore[arg-type]
    writer = connection._writer = asyncio.create_task(connection._write())
    try:
        yield connection
    finally:
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await writer


async def test_messages_reach_the_client_in_order_written_now_or_queued() -> None:
    socket = Socket()
    async with writing(socket) as connection:
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


async def test_a_message_queued_for_an_idle_writer_is_not_overtaken() -> None:
    """The client stops reading and reads again before the idle writer has taken the
    message queued meanwhile: the next message waits behind it."""
    socket = Socket()
    async with writing(socket) as connection:
        await asyncio.sleep(0)  # the writer waits on an empty outbox
        socket.stop_reading()
        connection.deliver(Relayed('"b"'))
        socket.read_again()
        connection.deliver(Relayed('"c"'))
        for _ in range(10):
            await asyncio.sleep(0)
        assert socket.received == ['"b"', '"c"']


async def test_a_message_that_does_not_encode_closes_its_connection_alone() -> None:
    """The room tells every listener of a change in turn: one connection's failure to
    encode must not reach the room and keep the others from their messages."""
    socket = Socket()
    async with writing(socket) as connection:
        connection.deliver({"type": "chat", "text": "\ud800"})  # type: ignore[typeddict-item]
        assert connection.closing and socket.received == []


async def test_a_connection_without_direct_writes_queues_everything() -> None:
    socket = Socket()
    socket.scope = {"extensions": {}}  # a server whose protocol offers none (tests' ASGI)
    async with writing(socket) as connection:
        for text in ('"a"', '"b"'):
            connection.deliver(Relayed(text))
        for _ in range(10):
            await asyncio.sleep(0)
        assert socket.received == ['"a"', '"b"'] and socket.sent_now == 0


class Transport:
    """The server's end of a client's TCP connection: keeps what is written."""

    def __init__(self) -> None:
        self.data = bytearray()
        self.closing = False

    def write(self, data: bytes) -> None:
        assert not self.closing, "written after the close"
        self.data += data

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        self.closing = True

    abort = close

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("127.0.0.1", 5555),
                "sockname": ("127.0.0.1", 80)}.get(name, default)


def client_frame(opcode: int, payload: bytes) -> bytes:
    """A short frame as a client sends it (masked)."""
    mask = os.urandom(4)
    return bytes([0x80 | opcode, 0x80 | len(payload)]) + mask + bytes(
        byte ^ mask[n % 4] for n, byte in enumerate(payload))


@pytest.fixture
async def opened() -> AsyncIterator[tuple[DroppingWebSocketProtocol, Transport, Any]]:
    """The server's protocol after a client's handshake, its app holding the connection
    open; the direct write it offered the app."""
    offered: dict[str, Any] = {}
    done = asyncio.Event()

    async def app(scope: Any, receive: Any, send: Any) -> None:
        offered["send_now"] = scope["extensions"].get(SEND_NOW)
        await receive()
        await send({"type": "websocket.accept"})
        await done.wait()

    config = uvicorn.Config(app, ws_ping_interval=None, lifespan="off")
    config.load()
    protocol = DroppingWebSocketProtocol(config, ServerState(), {},
                                         _loop=asyncio.get_running_loop())
    transport = Transport()
    protocol.connection_made(transport)  # type: ignore[arg-type]
    key = base64.b64encode(os.urandom(16)).decode()
    protocol.data_received((f"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
                            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                            "Sec-WebSocket-Version: 13\r\n\r\n").encode())
    for _ in range(10):
        await asyncio.sleep(0)
    assert offered["send_now"] is not None and protocol.handshake_complete
    yield protocol, transport, offered["send_now"]
    done.set()


async def test_the_server_writes_at_once_only_while_the_client_reads(opened) -> None:
    protocol, transport, send_now = opened
    start = len(transport.data)
    assert send_now(b'"a"') and bytes(transport.data[start:]) == b'\x81\x03"a"'
    protocol.pause_writing()  # past the transport's high-water mark
    written = len(transport.data)
    assert not send_now(b'"b"') and len(transport.data) == written
    protocol.resume_writing()
    assert send_now(b'"c"')
    protocol.data_received(client_frame(0x8, b"\x03\xe8"))  # the client closes
    assert not send_now(b'"d"')


async def test_the_server_writes_nothing_at_once_after_a_close(opened) -> None:
    protocol, _, send_now = opened
    await protocol.send({"type": "websocket.close", "code": 1008})
    assert not send_now(b'"x"')
    protocol.connection_lost(None)
    assert not send_now(b'"y"')


async def test_the_server_writes_nothing_at_once_when_shutting_down(opened) -> None:
    protocol, _, send_now = opened
    protocol.shutdown()
    assert not send_now(b'"x"')
