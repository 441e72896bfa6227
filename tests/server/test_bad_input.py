"""Bad input gets a typed error, changes nothing, and the connection survives."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator

import pytest

from cardroom.protocol import MAX_MESSAGE_BYTES
from cardroom.tools.client import Client, ClientError
from tests.conftest import ServerProcess, module_server
from tests.server.helpers import my_turn


async def next_error(client: Client) -> dict:
    """The next error that answers no request of ours."""
    for _ in range(200):
        if client.errors:
            return client.errors.pop(0)
        await asyncio.sleep(0.01)
    raise AssertionError("no error came back")


@pytest.fixture(scope="module")
def shared_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server for the many unreadable messages (each test opens its own connection)."""
    yield from module_server(tmp_path_factory, "bad-input")


@pytest.fixture
async def seated(server):
    """A registered client at a running table where it is its turn."""
    client = Client(server.url)
    await client.connect()
    await client.register("Tester")
    table = await client.create_table(seat=0)
    await client.start_with_bots(table)
    await client.wait_for(table, my_turn)
    yield client, table
    await client.close()


@pytest.mark.parametrize(("text", "code"), [
    ("{not json", "bad_message"),
    ("[1, 2, 3]", "bad_message"),
    (json.dumps({"type": "teleport", "seq": 1}), "unknown_type"),
    (json.dumps({"type": "act", "seq": 1}), "bad_message"),
    (json.dumps({"type": "act", "seq": 1, "table_id": "x", "action": "pass", "extra": 1}),
     "bad_message"),
    (json.dumps({"type": "join", "seq": 1, "table_id": "x", "seat": 9}), "bad_message"),
    (json.dumps({"type": "register", "seq": 1, "name": ""}), "bad_message"),
    ("x" * (MAX_MESSAGE_BYTES + 1), "too_large"),
])
async def test_malformed_messages_get_typed_errors(seated, text, code) -> None:
    client, table = seated
    before = client.tables[table]
    await client.send_raw(text)
    error = await next_error(client)
    assert error["code"] == code
    assert error["message"]
    await client.request("ping")  # the connection survives
    assert client.tables[table]["version"] == before["version"]


async def test_out_of_turn_and_illegal_actions_change_nothing(seated) -> None:
    client, table = seated
    update = client.tables[table]
    with pytest.raises(ClientError) as refused:
        await client.act(table, "play ZZ")
    assert refused.value.code == "illegal_action"
    with pytest.raises(ClientError) as refused:
        await client.act(table, "play " + update["view"]["hand"][0])
    assert refused.value.code == "illegal_action"
    assert "bid" in refused.value.message.lower()
    assert client.tables[table]["version"] == update["version"]
    await client.act(table, update["view"]["legal_actions"][0])
    after = await client.wait_for(table, lambda u: u["version"] > update["version"])
    if after["view"]["to_act"] != 0:
        with pytest.raises(ClientError) as refused:
            await client.act(table, "pass")
        assert refused.value.code in ("not_your_turn", "illegal_action")


async def test_a_flood_is_rate_limited_and_the_connection_survives(server_factory) -> None:
    server = server_factory(**{"message-rate": 20, "message-burst": 60})
    client = Client(server.url)
    await client.connect()
    await client.register("Flooder")
    for number in range(300):
        await client.send_raw(json.dumps({"type": "ping", "seq": 10_000 + number}))
    codes = set()
    for _ in range(500):
        await asyncio.sleep(0.01)
        codes |= {e["code"] for e in client.errors}
        if "rate_limited" in codes:
            break
    assert "rate_limited" in codes
    await asyncio.sleep(3.5)  # the bucket refills
    await client.request("ping")
    await client.close()


async def test_seats_cannot_be_taken_twice_or_by_non_creators(server) -> None:
    async with Client(server.url) as owner, Client(server.url) as other:
        await owner.register("Owner")
        await other.register("Other")
        table = await owner.create_table(seat=0)
        with pytest.raises(ClientError) as refused:
            await other.join(table, 0)
        assert refused.value.code == "seat_taken"
        with pytest.raises(ClientError) as refused:
            await other.add_bot(table, 1)
        assert refused.value.code == "not_creator"
        with pytest.raises(ClientError) as refused:
            await other.join("no-such-table", 1)
        assert refused.value.code == "no_such_table"
        with pytest.raises(ClientError) as refused:
            await owner.create_table(rules={"deck": "52"})
        assert refused.value.code == "bad_rules"


DEEP = 990
"""Nesting that once overflowed the decoder's recursion (RecursionError, no answer)."""


@pytest.mark.parametrize(("text", "seq"), [
    ('{"type":["ping"]}', None),
    ('{"type":["ping"],"seq":5}', 5),
    ('{"type":{}}', None),
    ('{"type":{},"seq":6}', 6),
    ('{"type":null,"seq":7}', 7),
    ('{"seq":8}', 8),
    ('{"type":"ping","seq":' + "9" * 4301 + "}", None),
    ('{"type":"ping","seq":' + "9" * 400 + "}", None),
    ('{"type":"ping","seq":' + str(2**53 + 1) + "}", None),
    ('{"type":"ping","seq":-1}', None),
    ('{"type":"ping","seq":true}', None),
    ('{"type":"ping","seq":false}', None),
    ('{"type":"ping","seq":1.0}', None),
    ('{"type":"ping","seq":1e400}', None),
    ('{"type":"ping","seq":"1"}', None),
    ('{"type":"ping","seq":null}', None),
    ('{"type":"ping"}', None),
    ("[" * DEEP + "]" * DEEP, None),
    ('{"type":"ping","seq":9,"x":' + "[" * DEEP + "]" * DEEP + "}", None),
    ('{"type":"report_bug","seq":10,"description":"x","client_state":'
     + '{"a":' * DEEP + "1" + "}" * (DEEP + 1), None),
    ('{"type":"ping","seq":11,"x":' + "[" * 40 + "]" * 40 + "}", None),
    ('{"type":"ping","seq":12,"x":"\\ud800"}', None),
    ('{"type":"ping","seq":13,"x":NaN}', None),
    ('{"type":"ping","seq":14,"' + "k" * 10_000 + '":1}', 14),
    ("", None),
    ("null", None),
    ('"ping"', None),
])
async def test_unreadable_messages_get_bad_message_and_the_connection_lives(
        shared_server: ServerProcess, text: str, seq: int | None) -> None:
    """Each of these once dropped the connection without a close frame and logged a
    traceback, or is a near relative; each now gets ``bad_message`` and the connection goes
    on."""
    log = shared_server.database.with_suffix(".log")
    logged_before = len(log.read_text())
    async with Client(shared_server.url) as client:
        await client.send_raw(text)
        error = await next_error(client)
        assert (error["code"], error["seq"]) == ("bad_message", seq), error
        assert len(error["message"]) < 500
        assert await client.request("ping") == {}
        assert not client.errors
    logged = log.read_text()[logged_before:]
    assert "Traceback" not in logged and "ERROR" not in logged, logged[-3000:]


async def test_unreadable_binary_frames_get_bad_message(shared_server: ServerProcess) -> None:
    async with Client(shared_server.url) as client:
        await client.send_raw(b"\xff\xfe{\x00")
        assert (await next_error(client))["code"] == "bad_message"
        await client.request("ping")


async def test_nesting_a_browser_uses_is_accepted(shared_server: ServerProcess) -> None:
    """A bug report's client state a few levels deep is fine (the cap is well above it)."""
    async with Client(shared_server.url) as client:
        await client.register("Nester")
        state: dict = {"leaf": 1}
        for level in range(20):
            state = {f"level{level}": state, "list": [[1, [2]]]}
        result = await client.request("report_bug", description="deep state",
                                      client_state=state)
        assert result["bug"]
