"""One client address may hold only so many connections open at once, as an attacker would
try it: sockets opened by the dozen and held (HTTP and WebSocket alike) get a 429 past the
cap and are closed, and each connection that ends gives its place back. A trusted proxy's
address, which all its clients share, is not counted."""

from __future__ import annotations

import contextlib
import os
import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from cardroom.tools.processes import ManagedServer
from cardroom.web.server import REFUSALS_ANSWERED, AddressLimit, http_protocol
from tests.conftest import ServerProcess, module_server

CAP = 4
"""The test server's connections per address."""

HEALTH = b"GET /api/health HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n"
UPGRADE = (b"GET /ws HTTP/1.1\r\nhost: 127.0.0.1\r\nupgrade: websocket\r\n"
           b"connection: Upgrade\r\nsec-websocket-key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
           b"sec-websocket-version: 13\r\n")
"""A WebSocket handshake's request, but for its last headers and the blank line."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server for the module, allowing an address four connections."""
    yield from module_server(tmp_path_factory, "cap",
                             **{"max-http-connections-per-address": CAP})


def _answer_to_health(server: ServerProcess) -> tuple[socket.socket, bytes]:
    """A new connection that asked for /api/health, and the head of its answer (the
    connection stays open: keep-alive)."""
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    sock.sendall(HEALTH)
    received = b""
    while b"\r\n\r\n" not in received:
        chunk = sock.recv(1 << 16)
        if not chunk:
            break
        received += chunk
    return sock, received.partition(b"\r\n")[0]


def _refused(server: ServerProcess) -> bytes:
    """What a connection past the cap is told before the server closes it."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        return _refused_reading(sock)


def _eventually(check: Callable[[], bool], seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.05)
    return False


def _admitted(server: ServerProcess) -> bool:
    sock, status = _answer_to_health(server)
    sock.close()
    return status == b"HTTP/1.1 200 OK"


def _wait_until_all_closed(server: ServerProcess) -> None:
    """The server has seen every earlier test's connections end (a cap's worth are let in)."""
    def all_free() -> bool:
        held = [_answer_to_health(server) for _ in range(CAP)]
        for sock, _ in held:
            sock.close()
        return all(status == b"HTTP/1.1 200 OK" for _, status in held)
    assert _eventually(all_free)
    time.sleep(0.2)


def test_an_address_past_its_connections_is_refused_until_one_ends(
        server: ServerProcess) -> None:
    _wait_until_all_closed(server)
    held = [_answer_to_health(server) for _ in range(CAP)]
    try:
        assert [status for _, status in held] == [b"HTTP/1.1 200 OK"] * CAP
        refused = _refused(server)
        assert refused.startswith(b"HTTP/1.1 429 ")
        assert refused.endswith(b"Too many connections open from your address.")
        held.pop()[0].close()
        assert _eventually(lambda: _admitted(server))  # its place was given back
    finally:
        for sock, _ in held:
            sock.close()


def test_held_sockets_that_send_nothing_count(server: ServerProcess) -> None:
    _wait_until_all_closed(server)
    silent = [socket.create_connection(("127.0.0.1", server.port), timeout=10)
              for _ in range(CAP)]
    try:
        time.sleep(0.3)  # (the server has accepted them all)
        assert _refused(server).startswith(b"HTTP/1.1 429 ")
    finally:
        for sock in silent:
            sock.close()


def _websocket(stack: contextlib.ExitStack, server: ServerProcess) -> ClientConnection:
    """A WebSocket to the server, closed when ``stack`` ends."""
    websocket = connect(server.url, open_timeout=10, legacy=True)
    stack.callback(_close_quietly, websocket)
    return websocket


def _close_quietly(websocket: ClientConnection) -> None:
    """Close a WebSocket, which the server may have ended already."""
    with contextlib.suppress(ConnectionClosed):
        websocket.close()


def test_websockets_count_and_give_their_place_back_when_closed(
        server: ServerProcess) -> None:
    _wait_until_all_closed(server)
    with contextlib.ExitStack() as stack:
        sockets = [_websocket(stack, server) for _ in range(CAP)]
        assert _refused(server).startswith(b"HTTP/1.1 429 ")
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
            sock.sendall(UPGRADE + b"\r\n")  # another WebSocket: refused as any connection is
            assert _refused_reading(sock).startswith(b"HTTP/1.1 429 ")
        _close_quietly(sockets.pop())
        assert _eventually(lambda: _admitted(server))
        later = _answer_to_health(server)  # one place was given back, no more
        stack.callback(later[0].close)
        assert later[1] == b"HTTP/1.1 200 OK"
        assert _refused(server).startswith(b"HTTP/1.1 429 ")


def test_a_trusted_proxys_clients_are_not_capped_by_its_address(
        server_factory: Callable[..., ServerProcess]) -> None:
    proxied = server_factory(**{"max-http-connections-per-address": 2,
                                "forwarded-allow-ips": "127.0.0.1"})
    held = [_answer_to_health(proxied) for _ in range(5)]
    try:
        assert [status for _, status in held] == [b"HTTP/1.1 200 OK"] * 5
    finally:
        for sock, _ in held:
            sock.close()


def test_a_flood_of_refused_connections_holds_no_descriptors(server: ServerProcess) -> None:
    _wait_until_all_closed(server)
    held = [_answer_to_health(server) for _ in range(CAP)]
    before = _descriptors(server)
    flood = [sock for _ in range(100)  # none of them sends or reads anything
             if (sock := _connected_unless_reset(server)) is not None]
    try:
        time.sleep(0.5)
        assert _descriptors(server) <= before + REFUSALS_ANSWERED + 4
        answered = sum(_refused_reading(sock).startswith(b"HTTP/1.1 429 ") for sock in flood)
        assert 1 <= answered <= REFUSALS_ANSWERED  # the rest were reset without an answer
    finally:
        for sock in flood:
            sock.close()
        for sock, _ in held:
            sock.close()


def _connected_unless_reset(server: ServerProcess) -> socket.socket | None:
    """A new connection, or ``None`` if the server reset it before it was made."""
    try:
        return socket.create_connection(("127.0.0.1", server.port), timeout=10)
    except ConnectionResetError:
        return None


def _descriptors(server: ServerProcess) -> int:
    """The server's open file descriptors."""
    return len(os.listdir(f"/proc/{server.pid}/fd"))


def _refused_reading(sock: socket.socket) -> bytes:
    """What the server wrote to a connection it refused (nothing, if it reset it)."""
    received = b""
    with contextlib.suppress(ConnectionResetError):
        while chunk := sock.recv(1 << 16):
            received += chunk
    return received


@pytest.mark.parametrize("upgrade", [
    UPGRADE + b"origin: https://elsewhere.example\r\n\r\n",
    UPGRADE + b"x-long: " + b"a" * 9000 + b"\r\n\r\n",
    b"GET / HTTP/1.1\r\nhost: 127.0.0.1\r\nx-long: " + b"a" * 70_000 + b"\r\n\r\n",
], ids=["another site's page", "a WebSocket header line too long", "a head too long"])
def test_refused_requests_give_their_place_back(server: ServerProcess, upgrade: bytes) -> None:
    _wait_until_all_closed(server)
    for _ in range(CAP + 2):
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
            sock.sendall(upgrade)
            assert _refused_reading(sock).split(b" ")[1] in (b"403", b"431")
    _wait_until_all_closed(server)


def test_trusted_addresses_networks_and_everyone() -> None:
    limit = AddressLimit(1, "10.0.0.0/8, 192.0.2.7, /run/proxy.sock")
    assert all(limit.take("10.1.2.3") for _ in range(3))
    assert all(limit.take("192.0.2.7") for _ in range(3))
    assert all(limit.take("/run/proxy.sock") for _ in range(3))
    assert limit.take(None) is not None  # a Unix socket's connection: no address
    first = limit.take("192.0.2.8")
    assert first is not None and limit.take("192.0.2.8") is None
    first.release()
    first.release()  # (given back once)
    assert limit.open == {}
    assert limit.take("192.0.2.8") is not None and limit.take("192.0.2.8") is None
    everyone = AddressLimit(1, "*")
    assert all(everyone.take("203.0.113.9") for _ in range(3))
    assert everyone.open == {}


@pytest.mark.parametrize("option", ["10.0.0.1,*", "10.0.0.5/8", " * "])
def test_proxies_are_trusted_only_as_uvicorn_trusts_them(option: str) -> None:
    """``*`` trusts everyone only as the whole option, and a network must be a valid one
    (uvicorn then takes it as a name, which no address matches)."""
    limit = AddressLimit(1, option)
    assert limit.take("10.9.9.9") is not None and limit.take("10.9.9.9") is None


def test_an_address_counts_as_itself_however_it_is_written() -> None:
    limit = AddressLimit(1)
    assert limit.take("192.0.2.1") is not None
    assert limit.take("::ffff:192.0.2.1") is None  # an IPv4 address written as IPv6
    assert limit.take("2001:db8:1:2::1") is not None
    assert limit.take("2001:db8:1:2:ffff::9") is None  # the same /64
    assert limit.take("2001:db8:1:3::1") is not None


def test_each_server_counts_its_own_connections() -> None:
    first, second = http_protocol(http_connections_per_address=3), http_protocol()
    assert first.address_limit is not second.address_limit
    assert first.address_limit.limit == 3


def test_another_checkouts_server_is_given_only_the_options_it_has(tmp_path: Path) -> None:
    """A benchmark runs an older checkout's server beside this one's: with the load test's
    generous cap when it has one, without the option when it would refuse it."""
    (tmp_path / "src" / "cardroom").mkdir(parents=True)
    cli = tmp_path / "src" / "cardroom" / "cli.py"
    cli.write_text("    default_bot: str = 'search'\n", encoding="utf-8")
    older = ManagedServer(1, "sqlite://", None, tmp_path / "log", source=tmp_path).command()
    assert "--default-bot" in older and "--max-http-connections-per-address" not in older
    cli.write_text("    default_bot: str\n    max_http_connections_per_address: int\n",
                   encoding="utf-8")
    newer = ManagedServer(1, "sqlite://", None, tmp_path / "log", source=tmp_path).command()
    assert newer[newer.index("--max-http-connections-per-address") + 1] == "1000000"
    mine = ManagedServer(1, "sqlite://", None, tmp_path / "log").command()
    assert "--max-http-connections-per-address" in mine
