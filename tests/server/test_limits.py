"""Nothing one client does grows without bound: quotas with typed errors, a lobby sent as small
updates, slow readers disconnected, abandoned tables closed, short turn timers refused, and the
operator's /metrics."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import time
import urllib.parse
import urllib.request
from typing import Any

import pytest
import websockets
from prometheus_client.parser import text_string_to_metric_families

from cardroom.tables.model import MATCHES_SHOWN, remember_match
from cardroom.tools.client import Client, ClientError
from tests.server.helpers import close_all, register_clients


def _get(server, path: str) -> bytes:
    with urllib.request.urlopen(f"http://127.0.0.1:{server.port}{path}", timeout=10) as answer:
        return answer.read()


def _metrics(server) -> dict[str, float]:
    """Every sample of /metrics, by name and labels (``name{label="value"}``)."""
    samples = {}
    for family in text_string_to_metric_families(_get(server, "/metrics").decode()):
        for sample in family.samples:
            labels = ",".join(f'{k}="{v}"' for k, v in sorted(sample.labels.items()))
            samples[f"{sample.name}{{{labels}}}" if labels else sample.name] = sample.value
    return samples


async def _until(condition, timeout: float = 20.0, every: float = 0.1) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the condition never came true"
        await asyncio.sleep(every)


# -- quotas ------------------------------------------------------------------------------------


async def test_tables_per_player_and_in_all_are_limited(server_factory) -> None:
    server = server_factory(**{"max-tables-per-player": 2, "max-tables": 3})
    clients, _ = await register_clients(server.url, ["One", "Two"])
    one, two = clients
    try:
        await one.create_table()
        await one.create_table()
        with pytest.raises(ClientError) as refused:
            await one.create_table()
        assert (refused.value.code, refused.value.quota) == ("quota_exceeded",
                                                             "tables_per_player")
        await two.create_table()
        with pytest.raises(ClientError) as refused:
            await two.create_table()
        assert (refused.value.code, refused.value.quota) == ("quota_exceeded", "tables")
        assert len(json.loads(_get(server, "/api/lobby"))["tables"]) == 3
    finally:
        await close_all(clients)


async def test_registrations_per_address_are_limited(server_factory) -> None:
    server = server_factory(**{"max-registrations-per-minute": 3})
    async with Client(server.url) as client:
        for name in ("Ann", "Bea", "Cal"):
            await client.register(name)
        with pytest.raises(ClientError) as refused:
            await client.register("Dot")
        assert (refused.value.code, refused.value.quota) == ("quota_exceeded", "registrations")
        await client.request("ping")  # refused, not dropped


async def test_one_ipv6_block_or_an_ipv4_address_however_written_is_one_client(
        server_factory) -> None:
    """Behind a trusted proxy each client is the address it names; addresses of one /64, and
    an IPv4 address written as IPv6, share one client's quota."""
    server = server_factory(**{"max-connections-per-address": 2,
                               "forwarded-allow-ips": "127.0.0.1"})

    async def refusal(address: str) -> str | None:
        """The quota a new connection from ``address`` is refused for (None: let in)."""
        connection = await websockets.connect(
            server.url, additional_headers={"X-Forwarded-For": address})
        held.append(connection)
        try:
            message = json.loads(await asyncio.wait_for(connection.recv(), 1))
        except TimeoutError:
            return None  # (a connection let in is sent nothing until it speaks)
        return message.get("quota")

    held: list[Any] = []
    try:
        assert await refusal("2001:db8:1:2::a") is None
        assert await refusal("2001:db8:1:2:ffff::b") is None
        assert await refusal("2001:db8:1:2::c") == "connections"  # the same /64
        assert await refusal("2001:db8:1:3::a") is None  # the next block: another client
        assert await refusal("192.0.2.1") is None
        assert await refusal("::ffff:192.0.2.1") is None
        assert await refusal("192.0.2.1") == "connections"
    finally:
        for connection in held:
            await connection.close()


async def test_connections_per_address_are_limited(server_factory) -> None:
    server = server_factory(**{"max-connections-per-address": 3})
    kept = [Client(server.url) for _ in range(3)]
    for client in kept:
        await client.connect()
    try:
        async with websockets.connect(server.url) as extra:
            refusal = json.loads(await asyncio.wait_for(extra.recv(), 10))
            assert (refusal["code"], refusal["quota"]) == ("quota_exceeded", "connections")
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await asyncio.wait_for(extra.recv(), 10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
        await kept[0].close()
        await _until(lambda: _metrics(server)["cardroom_connections"] == 2)
        async with Client(server.url) as again:  # a freed place can be taken
            await again.request("ping")
    finally:
        await close_all(kept)


async def test_bug_reports_are_limited_per_player_and_in_size(server_factory) -> None:
    server = server_factory(**{"max-bug-reports-per-hour": 2})
    first = Client(server.url)
    await first.connect()
    token = await first.register("Reporter")
    clients = [first]
    try:
        with pytest.raises(ClientError) as refused:
            await first.report_bug("huge", client_state={"blob": "x" * 5000})
        assert refused.value.code == "bad_message"
        for number in range(3):  # one report per connection: a new tab for each
            client = first if number == 0 else Client(server.url)
            if client is not first:
                await client.connect()
                await client.hello(token)
                clients.append(client)
            if number < 2:
                await client.report_bug(f"report {number}")
            else:
                with pytest.raises(ClientError) as refused:
                    await client.report_bug("one too many")
                assert refused.value.quota == "bug_reports"
    finally:
        await close_all(clients)


async def test_hint_requests_are_limited_per_player(server_factory) -> None:
    server = server_factory(**{"max-hints-per-minute": 2})
    async with Client(server.url) as client:
        await client.register("Curious")
        for _ in range(2):
            with pytest.raises(ClientError) as refused:
                await client.hint("no-such-table")
            assert refused.value.code == "no_such_table"
        with pytest.raises(ClientError) as refused:
            await client.hint("no-such-table")
        assert refused.value.quota == "hints"


# -- the lobby ---------------------------------------------------------------------------------


async def test_lobby_is_a_page_then_small_coalesced_updates(server) -> None:
    clients, _ = await register_clients(server.url, ["Maker", "Watcher"])
    maker, watcher = clients
    received: list[dict[str, Any]] = []
    try:
        for _ in range(6):
            await maker.create_table()
        answer = await watcher.request("lobby", limit=4)
        assert answer == {}
        await _until(lambda: watcher.lobby is not None)
        assert watcher.lobby is not None
        assert len(watcher.lobby["tables"]) == 4 and watcher.lobby["total"] == 6
        original = watcher._dispatch

        async def spy(message: dict[str, Any]) -> None:
            received.append(message)
            await original(message)

        watcher._dispatch = spy  # type: ignore[method-assign]
        made = [await maker.create_table() for _ in range(12)]
        await _until(lambda: all(any(r["table_id"] == t for r in watcher.lobby["tables"])
                                 for t in made))
        updates = [m for m in received if m["type"] == "lobby_update"]
        rows = sum(len(m["tables"]) for m in updates)
        assert not [m for m in received if m["type"] == "lobby"]  # no full list again
        assert len(updates) < len(made)  # bursts are coalesced
        assert rows <= 2 * len(made)  # each message carries the changed tables only
    finally:
        await close_all(clients)


async def test_http_lobby_pages_through_the_tables(server) -> None:
    async with Client(server.url) as maker:
        await maker.register("Pages")
        for _ in range(5):
            await maker.create_table()
        await asyncio.sleep(1.1)  # the snapshot is at most a second old
        page = json.loads(_get(server, "/api/lobby?offset=1&limit=2"))
        assert (page["total"], page["offset"], page["limit"]) == (5, 1, 2)
        assert len(page["tables"]) == 2
        everything = json.loads(_get(server, "/api/lobby?limit=100000"))
        assert everything["limit"] == 200 and len(everything["tables"]) == 5


async def test_a_client_that_does_not_read_is_closed_once_without_a_log_line_a_message(
        server_factory) -> None:
    server = server_factory(**{"disconnect-grace": 0.1})
    async with Client(server.url) as maker:
        await maker.register("Leaver")
        table = await maker.create_table(seat=0)
        await maker.start_with_bots(table)
    # The maker is gone: four bots play at full speed; a spectator never reads.
    async with websockets.connect(server.url, max_queue=1) as idle:
        await idle.send(json.dumps({"type": "open", "seq": 1, "table_id": table}))
        await _until(lambda: _metrics(server)["cardroom_connections"] == 0, timeout=90)
    log = server.database.with_suffix(".log").read_text()
    assert log.count("cannot keep up") + log.count("does not read") <= 1


async def test_a_client_that_never_reads_nor_closes_is_dropped(server_factory) -> None:
    """An attacker's socket: the handshake done and a busy table opened, then nothing read
    and nothing closed. A polite close would wait for ever to flush what is queued for it,
    holding the connection and its place in the address's quota; it is dropped instead."""
    server = server_factory(**{"disconnect-grace": 0.1, "default-bot": "simple"})
    async with Client(server.url) as maker:
        await maker.register("Leaver")
        table = await maker.create_table(seat=0)
        await maker.start_with_bots(table)
    silent = _silent_client(server.url, table)
    try:
        await _until(lambda: _metrics(server)["cardroom_connections"] == 0, timeout=30)
    finally:
        silent.close()


def _silent_client(url: str, table: str) -> socket.socket:
    """A raw WebSocket client that opens ``table`` and then neither reads nor closes: its
    receive buffer a few kilobytes, so the server's writes stop after as much."""
    address = urllib.parse.urlsplit(url)
    sock = socket.create_connection((address.hostname, address.port))
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(f"GET {address.path} HTTP/1.1\r\nHost: {address.netloc}\r\n"
                 "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                 f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += sock.recv(1)
    assert answer.startswith(b"HTTP/1.1 101"), answer
    payload = json.dumps({"type": "open", "seq": 1, "table_id": table}).encode()
    mask = os.urandom(4)
    assert len(payload) < 126  # one byte of length
    sock.sendall(bytes([0x81, 0x80 | len(payload)]) + mask
                 + bytes(byte ^ mask[i % 4] for i, byte in enumerate(payload)))
    return sock


# -- tables ------------------------------------------------------------------------------------


async def test_a_table_nobody_is_connected_to_finishes_its_hand_and_closes(
        server_factory) -> None:
    server = server_factory(**{"abandon-after": 1, "disconnect-grace": 0.1})
    seen: list[dict[str, Any]] = []
    async with Client(server.url, on_table=seen.append) as maker:
        await maker.register("Gone")
        waiting = await maker.create_table(seat=0)
        table = await maker.create_table(seat=0)
        await maker.start_with_bots(table)
    await _until(lambda: json.loads(_get(server, "/api/lobby"))["total"] == 0, timeout=120)
    hands = [m for m in seen if m["table_id"] == table]
    assert hands  # it was played
    assert waiting not in [r["table_id"] for r in json.loads(_get(server, "/api/lobby"))
                           ["tables"]]
    async with Client(server.url) as late:
        await late.register("Late")
        with pytest.raises(ClientError) as refused:
            await late.open(table)
        assert refused.value.code == "no_such_table"


async def test_a_table_with_a_connected_player_stays_open(server_factory) -> None:
    server = server_factory(**{"abandon-after": 0.5})
    async with Client(server.url) as player:
        await player.register("Here")
        table = await player.create_table(seat=0)
        await asyncio.sleep(3)
        assert [r["table_id"] for r in json.loads(_get(server, "/api/lobby"))["tables"]] == [
            table]


def test_table_messages_carry_the_latest_finished_matches_hands_only() -> None:
    finished: list[dict[str, Any]] = []
    for number in range(1, MATCHES_SHOWN + 6):
        remember_match(finished, {"match": number, "winner": 0, "scores": [500, 90],
                                   "hands": [{"number": 1}] * 12})
    assert len(finished) == MATCHES_SHOWN
    assert finished[-1]["match"] == MATCHES_SHOWN + 5 and finished[-1]["hands"]
    assert all("hands" not in m for m in finished[:-1])


async def test_turn_timers_below_the_minimum_are_refused_and_shown_before_anyone_sits(
        server) -> None:
    clients, _ = await register_clients(server.url, ["Timed", "Looker"])
    timed, looker = clients
    try:
        with pytest.raises(ClientError) as refused:
            await timed.create_table(turn_seconds=0.001)
        assert refused.value.code == "bad_rules"
        table = await timed.create_table(turn_seconds=30)
        await looker.watch_lobby()
        await _until(lambda: looker.lobby is not None and looker.lobby["tables"])
        assert looker.lobby is not None
        assert looker.lobby["tables"][0]["turn_seconds"] == 30
        assert await looker.open(table) is None
        assert looker.tables[table]["turn_seconds"] == 30
    finally:
        await close_all(clients)


# -- metrics -----------------------------------------------------------------------------------


async def test_metrics_report_connections_tables_actions_bots_errors_and_writes(
        server) -> None:
    async with Client(server.url) as client:
        await client.register("Measured")
        table = await client.create_table(seat=0)
        await client.start_with_bots(table)
        update = await client.wait_for(table, lambda u: u["view"] is not None
                                       and u["view"]["to_act"] == 0)
        await client.act(table, update["view"]["legal_actions"][0])
        # … and a bot has acted after it (seat 0 may have been the first to speak).
        await client.wait_for(table, lambda u: u["version"] >= update["version"] + 2)
        await client.send_raw("not json")
        await client.request("ping")
        samples = _metrics(server)
    assert samples["cardroom_connections"] == 1
    assert samples['cardroom_tables{state="playing"}'] == 1
    assert samples["cardroom_actions_total"] >= 1
    assert samples["cardroom_action_to_view_seconds_count"] >= 1
    assert samples["cardroom_bot_decision_seconds_count"] >= 1
    assert "cardroom_bot_queue_length" in samples
    assert samples['cardroom_rejected_messages_total{code="bad_message"}'] == 1
    assert samples['cardroom_quota_refusals_total{quota="tables"}'] == 0
    assert samples["cardroom_db_write_seconds_count"] >= 2


async def test_a_client_that_drops_in_a_burst_of_requests_frees_its_connection(
        server_factory) -> None:
    """Requests the server must answer, then the client vanishes without reading: the
    connection ends on the server too (it does not hold its place for ever)."""
    server = server_factory(**{"max-connections-per-address": 3})
    for _ in range(5):
        gone = await websockets.connect(server.url, max_queue=1)
        for number in range(300):
            await gone.send(json.dumps({"type": "ping", "seq": number}))
        gone.transport.abort()
    await _until(lambda: _metrics(server)["cardroom_connections"] == 0, timeout=60)
    async with Client(server.url) as fresh:
        await fresh.request("ping")
