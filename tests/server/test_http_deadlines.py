"""HTTP clients that would hold a connection for ever are dropped, as an attacker would try it:
one that connects and sends nothing, one that trickles a request a byte at a time
(slowloris), one that sends a head of megabytes, one that reads none of its answers. Clients
that are merely slow, or idle between requests, get every answer."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from uvicorn.config import Config
from uvicorn.server import ServerState

from cardroom.web.http_limits import MAX_REQUEST_HEAD_BYTES
from cardroom.web.server import http_protocol
from tests.conftest import ServerProcess

DEADLINE = 2.0
"""The test server's request-read and stalled-write timeouts, in seconds."""

TCP_ESTABLISHED = 1
"""``tcpi_state`` of a connection still open (Linux's TCP_INFO)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server for the module, impatient: two seconds for a request, two for a reader."""
    process = ServerProcess(tmp_path_factory.mktemp("deadlines") / "room.sqlite3",
                            **{"request-read-timeout": DEADLINE,
                               "stalled-write-timeout": DEADLINE})
    process.start()
    yield process
    process.stop()


def _connect(server: ServerProcess, receive_buffer: int | None = None) -> socket.socket:
    sock = socket.socket()
    if receive_buffer is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.connect(("127.0.0.1", server.port))
    return sock


def _open(sock: socket.socket) -> bool:
    """The connection is still established (looked at without reading from it)."""
    return sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 8)[0] == TCP_ESTABLISHED


def _ended(sock: socket.socket) -> bool:
    """The server closed or reset the connection (what it sent before is read and dropped)."""
    sock.setblocking(False)
    try:
        while chunk := sock.recv(1 << 16):
            del chunk
    except BlockingIOError:
        return False
    except ConnectionResetError:
        return True
    return True


def _answer(sock: socket.socket) -> bytes:
    """One whole answer (head and a Content-Length body) read from a blocking socket."""
    sock.settimeout(10)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(4096)
        assert chunk, f"the connection ended after {data!r}"
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n")
                  if line.lower().startswith(b"content-length:"))
    while len(body) < length:
        chunk = sock.recv(4096)
        assert chunk, "the connection ended in the body"
        body += chunk
    return head + b"\r\n\r\n" + body


async def _until_ended(sock: socket.socket, timeout: float) -> float:
    """Seconds until the server ends the connection (failing after ``timeout``)."""
    began = time.monotonic()
    while not _ended(sock):
        assert time.monotonic() - began < timeout, "the connection was never ended"
        await asyncio.sleep(0.1)
    return time.monotonic() - began


async def test_a_connection_that_sends_nothing_is_closed_at_the_deadline(server) -> None:
    sock = _connect(server)
    try:
        await asyncio.sleep(DEADLINE / 2)
        assert _open(sock) and not _ended(sock)  # not before its time
        await _until_ended(sock, timeout=DEADLINE * 5)
    finally:
        sock.close()


async def test_a_request_trickled_a_byte_at_a_time_is_dropped_however_steady(server) -> None:
    """Slowloris: a header that never ends, a byte every tenth of a second, on a connection
    that first asked for something honestly. Every byte used to restart uvicorn's only read
    deadline (the keep-alive wait); the request's own deadline does not move."""
    sock = _connect(server)
    try:
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: cardroom\r\n\r\n")
        assert _answer(sock).startswith(b"HTTP/1.1 200")
        began = time.monotonic()
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: cardroom\r\nX-Padding: ")
        while not _ended(sock):
            assert time.monotonic() - began < DEADLINE * 5, "still open, still trickling"
            try:
                sock.send(b"a")
            except (BrokenPipeError, ConnectionResetError):
                break
            await asyncio.sleep(0.1)
        assert time.monotonic() - began > DEADLINE * 0.9
    finally:
        sock.close()


async def test_slow_requests_on_an_idle_connection_are_each_given_the_deadline(server) -> None:
    """A keep-alive connection idle between requests, each request sent in pieces over most
    of the deadline: every request has a deadline of its own, and each is answered."""
    sock = _connect(server)
    try:
        for _ in range(2):
            for piece in (b"GET /api/health HTTP/1.1\r\n", b"Host: cardroom\r\n", b"\r\n"):
                sock.sendall(piece)
                await asyncio.sleep(DEADLINE * 0.3)
            assert _answer(sock).startswith(b"HTTP/1.1 200")
            await asyncio.sleep(DEADLINE * 0.6)  # idle, within uvicorn's keep-alive wait
    finally:
        sock.close()


async def test_a_slow_body_within_the_deadline_is_read(server) -> None:
    """A record import sent in pieces (a phone on a slow link) is read to its end."""
    sock = _connect(server)
    body = b"not a record " * 2000
    try:
        sock.sendall(b"POST /api/replays/import HTTP/1.1\r\nHost: cardroom\r\n"
                     b"Content-Type: text/plain\r\nContent-Length: %d\r\n\r\n" % len(body))
        for start in range(0, len(body), len(body) // 4 + 1):
            sock.sendall(body[start:start + len(body) // 4 + 1])
            await asyncio.sleep(DEADLINE * 0.15)
        answer = _answer(sock)
        assert answer.startswith(b"HTTP/1.1 400"), answer[:200]  # read, and judged
    finally:
        sock.close()


async def test_a_head_of_megabytes_is_refused_before_it_is_gathered(server) -> None:
    """A header sent without end: the server stops taking it soon after the limit, rather
    than gathering all four megabytes in memory."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 32 * 1024)  # little in flight
    sock.connect(("127.0.0.1", server.port))
    sock.settimeout(10)
    sent = 0
    try:
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: cardroom\r\nX-Padding: ")
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            while sent < 64 * MAX_REQUEST_HEAD_BYTES:
                sent += sock.send(b"a" * 65536)
        assert sent < 16 * MAX_REQUEST_HEAD_BYTES
    finally:
        sock.close()


async def test_a_long_head_is_answered_431_and_a_large_cookie_is_not(server) -> None:
    for padding, status in ((MAX_REQUEST_HEAD_BYTES // 8, b"200"),
                            (MAX_REQUEST_HEAD_BYTES * 2, b"431")):
        sock = _connect(server)
        try:
            sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: cardroom\r\nCookie: c=%s\r\n\r\n"
                         % (b"a" * padding))
            assert _answer(sock).startswith(b"HTTP/1.1 " + status)
        finally:
            sock.close()


def _pipelining_client(server, requests: int, receive_buffer: int | None) -> socket.socket:
    """A raw HTTP client that sends ``requests`` requests for the client's largest file at
    once (its receive buffer ``receive_buffer`` bytes, or the system's)."""
    sock = _connect(server, receive_buffer)
    sock.sendall(b"GET /static/js/app.js HTTP/1.1\r\nHost: cardroom\r\n\r\n" * requests)
    return sock


PIPELINED = 300
"""Requests an attacker's HTTP client sends at once before it stops reading: their answers
(the client's code, 36 KB each) are far more than the sockets' buffers hold."""


async def test_an_http_client_that_stops_reading_is_dropped(server) -> None:
    """An attacker's socket: many requests sent at once, then nothing read and nothing
    closed. Their answers would wait for it for ever, holding the connection and what is
    queued for it; after the stalled-write timeout it is reset, quietly."""
    sock = _pipelining_client(server, PIPELINED, receive_buffer=4096)
    try:
        await asyncio.sleep(DEADLINE / 2)
        assert _open(sock)  # not dropped before its time
        began = time.monotonic()
        while _open(sock):
            assert time.monotonic() - began < 20, "never dropped"
            await asyncio.sleep(0.1)
    finally:
        sock.close()
    log = server.database.with_suffix(".log").read_text()
    assert "Traceback" not in log and "ERROR" not in log, log[-3000:]
    sock = _connect(server)
    sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: cardroom\r\n\r\n")
    assert _answer(sock).startswith(b"HTTP/1.1 200")  # the server goes on
    sock.close()


async def test_an_http_client_that_reads_slowly_gets_every_answer(server) -> None:
    """A slow client that keeps reading is no attacker: reading what has come every half
    second, its answers never stall for the timeout's two seconds, and every one arrives."""
    requests = PIPELINED // 3
    sock = _pipelining_client(server, requests, receive_buffer=None)
    sock.setblocking(False)
    received = bytearray()
    deadline = time.monotonic() + 60
    try:
        while received.count(b"HTTP/1.1 200") < requests:
            assert time.monotonic() < deadline, f"{received.count(b'HTTP/1.1 200')} answers"
            await asyncio.sleep(0.5)
            while True:
                try:
                    chunk = sock.recv(1 << 20)
                except BlockingIOError:
                    break
                assert chunk, "the server closed the connection"
                received += chunk
    finally:
        sock.close()


# -- an answer left waiting below the high-water mark ------------------------------------------

ANSWER_BYTES = 48 * 1024
"""An answer under the transport's 64 KiB high-water mark (so ``pause_writing`` never comes)
yet larger than the small socket buffers below hold."""


async def _answer_app(scope, receive, send) -> None:
    """An ASGI app answering every request with :data:`ANSWER_BYTES` bytes, then closing."""
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-length", str(ANSWER_BYTES).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": b"x" * ANSWER_BYTES})


async def test_a_closing_answer_left_unread_below_the_high_water_mark_is_dropped(
        tmp_path: Path) -> None:
    """A one-request client that reads nothing of an answer small enough never to pause the
    transport: the connection's close waited for the client to take the rest, for ever. The
    protocol (on a real loopback socket with small buffers) resets it after the stall
    timeout instead."""
    config = Config(app=_answer_app, lifespan="off", log_level="warning")
    config.load()
    protocol = http_protocol(stall_timeout=DEADLINE / 4)(
        config=config, server_state=ServerState(), app_state={})
    listener = socket.create_server(("127.0.0.1", 0))
    client = socket.socket()
    client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
    client.connect(listener.getsockname())
    accepted, _ = listener.accept()
    listener.close()
    accepted.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 2048)
    loop = asyncio.get_running_loop()
    transport, _ = await loop.connect_accepted_socket(lambda: protocol, accepted)
    try:
        client.sendall(b"GET / HTTP/1.1\r\nHost: cardroom\r\n\r\n")
        began = time.monotonic()
        while not transport.is_closing():  # the answer is written, and the close begun
            assert time.monotonic() - began < 5
            await asyncio.sleep(0.01)
        assert 0 < transport.get_write_buffer_size() < ANSWER_BYTES  # left waiting
        while _open(client):  # looked at, never read
            assert time.monotonic() - began < DEADLINE * 5, "never dropped"
            await asyncio.sleep(0.05)
        assert transport.get_write_buffer_size() == 0
    finally:
        client.close()
        transport.abort()
