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

import pytest
from uvicorn.config import Config
from uvicorn.server import ServerState

from cardroom.web.http_limits import MAX_REQUEST_HEAD_BYTES, MAX_REQUEST_HEADERS
from cardroom.web.server import http_protocol
from tests.conftest import ServerProcess, module_server

DEADLINE = 2.0
"""The test server's request-read and stalled-write timeouts, in seconds."""

TCP_ESTABLISHED = 1
"""``tcpi_state`` of a connection still open (Linux's TCP_INFO)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server for the module, impatient: two seconds for a request, two for a reader."""
    yield from module_server(tmp_path_factory, "deadlines",
                             **{"request-read-timeout": DEADLINE,
                                "stalled-write-timeout": DEADLINE})


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


def _whole_answers(received: bytes) -> list[tuple[bytes, bytes]]:
    """The whole answers (head and Content-Length body) at the start of ``received``."""
    answers = []
    while b"\r\n\r\n" in received:
        head, _, rest = received.partition(b"\r\n\r\n")
        length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n")
                      if line.lower().startswith(b"content-length:"))
        if len(rest) < length:
            break
        answers.append((head, rest[:length]))
        received = rest[length:]
    return answers


def _answer(sock: socket.socket) -> bytes:
    """One whole answer (head and body) read from a blocking socket."""
    sock.settimeout(10)
    data = b""
    while not _whole_answers(data):
        chunk = sock.recv(4096)
        assert chunk, f"the connection ended after {data!r}"
        data += chunk
    head, body = _whole_answers(data)[0]
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


async def test_a_websocket_handshake_refused_for_its_size_is_answered_and_closed(
        server) -> None:
    """A cookie of 9 KB passes the HTTP head's limit but not the WebSocket layer's line limit
    (8 KB): the refusal used to stay queued, unsent, and the connection open for ever."""
    sock = _connect(server)
    try:
        sock.sendall(b"GET /ws HTTP/1.1\r\nHost: cardroom\r\nUpgrade: websocket\r\n"
                     b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                     b"Sec-WebSocket-Version: 13\r\nCookie: c=%s\r\n\r\n" % (b"a" * 9000))
        sock.settimeout(DEADLINE * 2)
        assert sock.recv(4096).startswith(b"HTTP/1.1 431")
        assert await _until_ended(sock, timeout=DEADLINE) < DEADLINE
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


CHUNKED_POST = (b"POST /api/replays/import HTTP/1.1\r\nHost: cardroom\r\n"
                b"Transfer-Encoding: chunked\r\n\r\n1\r\na\r\n0\r\n")
"""A chunked request whose body has ended: what follows are its trailers."""


@pytest.mark.parametrize(("start", "filler"), [
    (b"GET /api/health HTTP/1.1\r\nHost: cardroom\r\nX-Padding: ", b"a"),
    (b"GET /api/health HTTP/1.1\r\nHost: cardroom\r\n", b"a:\r\n"),
    (CHUNKED_POST + b"X-Trailer: ", b"a"),
    (CHUNKED_POST, b"a:\r\n"),
], ids=["one-endless-header", "endless-headers", "one-endless-trailer", "endless-trailers"])
async def test_a_head_of_megabytes_is_refused_before_it_is_gathered(
        server, start: bytes, filler: bytes) -> None:
    """A head, or a chunked body's trailers, sent without end (one header's value, or tiny
    headers one after another): the server stops taking it soon after the limit, rather
    than gathering all four megabytes in memory (or a list of a million headers)."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 32 * 1024)  # little in flight
    sock.connect(("127.0.0.1", server.port))
    sock.settimeout(10)
    sent = 0
    block = filler * (65536 // len(filler))
    try:
        sock.sendall(start)
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            while sent < 64 * MAX_REQUEST_HEAD_BYTES:
                sent += sock.send(block)
        assert sent < 16 * MAX_REQUEST_HEAD_BYTES
    finally:
        sock.close()


@pytest.mark.parametrize(("headers", "status"), [
    (b"Cookie: c=%s\r\n" % (b"a" * (MAX_REQUEST_HEAD_BYTES // 8)), b"200"),
    (b"".join(b"X-%d: a\r\n" % n for n in range(MAX_REQUEST_HEADERS - 10)), b"200"),
    (b"Cookie: c=%s\r\n" % (b"a" * (MAX_REQUEST_HEAD_BYTES * 2)), b"431"),
    (b"".join(b"X-%d: a\r\n" % n for n in range(MAX_REQUEST_HEADERS + 1)), b"431"),
], ids=["a-large-cookie", "many-headers", "a-cookie-too-large", "too-many-headers"])
async def test_a_head_over_its_limits_is_answered_431(server, headers: bytes,
                                                      status: bytes) -> None:
    """A large cookie, or many headers, within the limits are answered; past them, 431."""
    sock = _connect(server)
    try:
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: cardroom\r\n" + headers + b"\r\n")
        assert _answer(sock).startswith(b"HTTP/1.1 " + status)
    finally:
        sock.close()


async def test_a_blank_line_after_an_answer_does_not_hold_the_connection(server) -> None:
    """A blank line starts no request (the parser skips it) yet used to cancel the keep-alive
    wait: one line held a connection for ever. Any byte starts the deadline."""
    sock = _connect(server)
    try:
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: cardroom\r\n\r\n")
        assert _answer(sock).startswith(b"HTTP/1.1 200")
        sock.sendall(b"\r\n")
        assert await _until_ended(sock, timeout=DEADLINE * 5) > DEADLINE * 0.8
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


# -- the protocol alone, on a real loopback socket -----------------------------------------------

SMALL_BUFFER = 2048
"""Socket buffers (the kernel doubles them) small enough that an answer of a few kilobytes
waits in the transport rather than in the kernel."""


async def _sized_app(scope, receive, send) -> None:
    """An ASGI app: ``/N`` is answered with N bytes; ``/slow`` after three seconds; a POST's
    body is read to its end first (a GET's is not asked for: asking would let uvicorn read
    on)."""
    while scope["method"] == "POST" and (await receive()).get("more_body"):
        pass
    if scope["path"] == "/slow":
        await asyncio.sleep(3)
    size = int(scope["path"].strip("/")) if scope["path"].strip("/").isdigit() else 4
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-length", str(size).encode())]})
    await send({"type": "http.response.body", "body": b"x" * size})


@contextlib.asynccontextmanager
async def _protocol_on_a_socket(app=_sized_app, small_buffers: bool = False, **timeouts: float):
    """The server's HTTP protocol (``http_protocol(**timeouts)``) serving ``app`` on one
    accepted loopback connection: the client's socket and the server's transport."""
    config = Config(app=app, lifespan="off", log_level="warning")
    config.load()
    protocol = http_protocol(**timeouts)(config=config, server_state=ServerState(),
                                         app_state={})
    listener = socket.create_server(("127.0.0.1", 0))
    client = socket.socket()
    if small_buffers:
        client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, SMALL_BUFFER)
    client.connect(listener.getsockname())
    accepted, _ = listener.accept()
    listener.close()
    if small_buffers:
        accepted.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SMALL_BUFFER)
    transport, _ = await asyncio.get_running_loop().connect_accepted_socket(
        lambda: protocol, accepted)
    try:
        yield client, transport
    finally:
        client.close()
        transport.abort()


async def _read_answers(client: socket.socket, answers: int, timeout: float,
                        every: float = 0.01) -> list[bytes]:
    """Read until ``answers`` whole answers have come (one buffer's worth every ``every``
    seconds: 0.1 is about 20 KB a second), without blocking the loop the server runs on."""
    client.setblocking(False)
    received = b""
    began = time.monotonic()
    while len(_whole_answers(received)) < answers:
        assert time.monotonic() - began < timeout, received[-200:]
        await asyncio.sleep(every)
        try:
            chunk = client.recv(SMALL_BUFFER)
        except BlockingIOError:
            continue
        assert chunk, f"the connection ended after {len(received)} bytes"
        received += chunk
    return [body for _, body in _whole_answers(received)]


async def test_a_slow_reader_of_one_answer_after_another_is_never_dropped() -> None:
    """A steady reader at 20 KB/s on a keep-alive connection: the first answer left a few
    kilobytes waiting when it was complete, and the second, larger, waits far longer than
    the stall timeout in all. The client took bytes at every look: it is kept."""
    async with _protocol_on_a_socket(small_buffers=True, stall_timeout=DEADLINE / 2) as (
            client, transport):
        for size in (8_000, 60_000):
            client.sendall(b"GET /%d HTTP/1.1\r\nHost: cardroom\r\n\r\n" % size)
            await asyncio.sleep(0.05)
            assert transport.get_write_buffer_size() > 0  # an answer waits in the transport
            assert await _read_answers(client, 1, timeout=DEADLINE * 10,
                                       every=0.1) == [b"x" * size]


async def test_a_pipelined_body_waiting_its_turn_is_not_late() -> None:
    """A slow answer (three seconds), then a request whose body comes a moment later: uvicorn
    reads nothing more until the first answer is out, so the body waits in the kernel past
    the read deadline. The client is not late; both answers come."""
    async with _protocol_on_a_socket(read_timeout=DEADLINE) as (client, _):
        client.sendall(b"GET /slow HTTP/1.1\r\nHost: cardroom\r\n\r\n"
                       b"POST /10 HTTP/1.1\r\nHost: cardroom\r\nContent-Length: 10\r\n\r\n"
                       b"12345")
        await asyncio.sleep(0.05)
        client.sendall(b"67890")
        assert await _read_answers(client, 2, timeout=DEADLINE * 5) == [b"x" * 4, b"x" * 10]


async def test_a_blank_line_during_a_slow_answer_does_not_cut_it_off() -> None:
    """A stray blank line after a request (which servers ignore) while its answer takes
    longer than the read deadline: the answer still comes."""
    async with _protocol_on_a_socket(read_timeout=DEADLINE) as (client, _):
        client.sendall(b"GET /slow HTTP/1.1\r\nHost: cardroom\r\n\r\n")
        await asyncio.sleep(0.05)
        client.sendall(b"\r\n")
        assert await _read_answers(client, 1, timeout=DEADLINE * 5) == [b"x" * 4]


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


async def test_a_closing_answer_left_unread_below_the_high_water_mark_is_dropped() -> None:
    """A one-request client that reads nothing of an answer small enough never to pause the
    transport: the connection's close waited for the client to take the rest, for ever. The
    protocol resets it after the stall timeout instead."""
    async with _protocol_on_a_socket(_answer_app, small_buffers=True,
                                     stall_timeout=DEADLINE / 4) as (client, transport):
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


async def test_a_websocket_asked_for_behind_unread_answers_is_dropped() -> None:
    """A client that asks for a WebSocket on a connection whose earlier answer it never
    read (the transport past its high-water mark, paused under the HTTP protocol): upgraded,
    the new protocol took it for a reader and wrote it every message at once, without
    bound. It is dropped instead, before the app sees it."""
    upgraded: list[str] = []

    async def app(scope, receive, send) -> None:
        if scope["type"] == "websocket":
            upgraded.append(scope["path"])
            await receive()
            await send({"type": "websocket.accept"})
            for _ in range(200):
                await send({"type": "websocket.send", "text": "x" * 1000})
            return
        await _sized_app(scope, receive, send)

    async with _protocol_on_a_socket(app, small_buffers=True) as (client, transport):
        client.sendall(b"GET /300000 HTTP/1.1\r\nHost: cardroom\r\n\r\n")
        began = time.monotonic()
        while transport.get_write_buffer_size() < 70_000:  # past the high-water mark
            assert time.monotonic() - began < 5
            await asyncio.sleep(0.01)
        client.sendall(b"GET /ws HTTP/1.1\r\nHost: cardroom\r\nUpgrade: websocket\r\n"
                       b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                       b"Sec-WebSocket-Version: 13\r\n\r\n")
        while not transport.is_closing():
            assert time.monotonic() - began < 5, "never dropped"
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.1)
        assert not upgraded


async def test_a_websocket_asked_for_in_one_write_behind_requests_is_dropped() -> None:
    """The same in one write: the requests and the upgrade parsed at once, before any
    answer is written (the transport is not yet paused). Upgraded, the answers still to come
    were written whole, megabytes to a client that reads nothing, and the HTTP protocol's
    stall watch had ended. The upgrade behind answers not yet taken is dropped too."""
    upgraded: list[str] = []

    async def app(scope, receive, send) -> None:
        if scope["type"] == "websocket":
            upgraded.append(scope["path"])
            return
        await _sized_app(scope, receive, send)

    async with _protocol_on_a_socket(app, small_buffers=True) as (client, transport):
        client.sendall(b"GET /60000 HTTP/1.1\r\nHost: cardroom\r\n\r\n" * 20
                       + b"GET /ws HTTP/1.1\r\nHost: cardroom\r\nUpgrade: websocket\r\n"
                         b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                         b"Sec-WebSocket-Version: 13\r\n\r\n")
        began = time.monotonic()
        while not transport.is_closing():
            assert time.monotonic() - began < 5, "never dropped"
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.1)
        assert not upgraded and transport.get_write_buffer_size() < 1_000_000
