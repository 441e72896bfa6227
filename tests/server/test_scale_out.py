"""Two server processes share tables through PostgreSQL and Redis.

Players connected to different processes play at the same table and see the same events in
the same order; a process killed mid-hand loses nothing, and its players finish on the other.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from cardroom.bots import make_bot
from cardroom.store.db import Store
from cardroom.tools.client import Client
from tests.conftest import SHARED_REDIS, SHARED_REDIS_URL
from tests.server.helpers import close_all, hand_scored, my_turn

pytestmark = SHARED_REDIS
PRESENCE_ONLY = {"seats", "connected", "offline", "away"}


@pytest.fixture
def two_servers(shared_database, server_factory) -> list[Any]:
    """Two `cardroom serve` processes on one database and one Redis (stopped before the
    schema is dropped: fixtures end in reverse order)."""
    return [server_factory(shared_database, **{"redis-url": SHARED_REDIS_URL,
                                               "disconnect-grace": 60})
            for _ in range(2)]


async def connect(url: str, name: str) -> tuple[Client, str]:
    """A registered client that keeps every message it receives."""
    client = Client(url)
    client.keep_all = True
    await client.connect()
    return client, await client.register(name)


async def play(client: Client, table: str, until: Callable[[dict[str, Any]], bool],
               acked: list[str], seed: int) -> None:
    """Play this client's seat with a bot's choices until ``until``; remember the acks."""
    bot = make_bot("simple", seed)
    while True:
        update = await client.wait_for(table, lambda u: until(u) or my_turn(u), timeout=60)
        if until(update):
            return
        try:
            result = await client.act(table, bot.choose(update["view"]))
        except Exception as error:  # a turn that moved on meanwhile: look again
            if getattr(error, "code", None) in ("not_your_turn", "illegal_action"):
                continue
            raise
        acked.append(result["action"])


def table_messages(client: Client, table: str) -> list[dict[str, Any]]:
    return [m for m in client.received if m.get("type") == "table" and m["table_id"] == table]


def game_events(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every event caused by play (not by people coming and going), in the order received."""
    return [e for m in messages for e in m["events"] if e["type"] not in PRESENCE_ONLY]


def assert_in_order(messages: list[dict[str, Any]]) -> None:
    """Versions never go back (a connection that follows a table again where it moved gets
    the latest view again, as after a reconnection)."""
    versions = [m["version"] for m in messages]
    assert versions == sorted(versions), "versions must never go back"


async def stored_actions(url: str, table: str) -> list[tuple[int, str]]:
    store = await Store.open(url, migrate=False)
    try:
        stored = await store.load_table(table)
        assert stored is not None
        return [(a.seat, a.action) for a in stored.actions]
    finally:
        await store.close()


async def test_players_on_two_processes_play_a_hand_and_see_every_event_in_order(
        two_servers, shared_database) -> None:
    a, b = two_servers
    pairs = [await connect(server.url, name)
             for server, name in ((a, "N"), (b, "E"), (a, "S"), (b, "W"))]
    clients = [c for c, _ in pairs]
    try:
        table = await clients[0].create_table(seat=0)
        for seat, client in enumerate(clients[1:], start=1):
            await client.join(table, seat)
        acked: list[list[str]] = [[] for _ in clients]
        await asyncio.gather(*(play(c, table, hand_scored, acked[n], n)
                               for n, c in enumerate(clients)))
        final = max(clients[0].tables[table]["version"], clients[1].tables[table]["version"])
        for client in clients:
            await client.wait_for(table, lambda u, final=final: u["version"] >= final)
        streams = [table_messages(c, table) for c in clients]
        for stream in streams:
            assert_in_order(stream)
        # Everybody, on either process, saw the same play events in the same order …
        first = game_events(streams[0])
        assert [game_events(s) for s in streams[1:]] == [first] * 3
        # … and they are exactly the stored actions.
        record = await stored_actions(shared_database, table)
        played = [(e["seat"], e["card"]) for e in first if e["type"] == "play"]
        assert played == [(seat, text.removeprefix("play ").split(":")[0])
                          for seat, text in record if text.startswith("play")]
        for seat in range(4):
            mine = [text for s, text in record if s == seat]
            assert mine[:len(acked[seat])] == acked[seat]
    finally:
        await close_all(clients)


async def test_bots_and_humans_across_processes_finish_a_match_and_start_the_next(
        two_servers, shared_database) -> None:
    a, b = two_servers
    (north, _), (south, _) = await connect(a.url, "North"), await connect(b.url, "South")
    try:
        table = await north.create_table(seat=0, rules={"target": 80, "lose_at": -80})
        await south.join(table, 2)
        await north.start_with_bots(table)  # seats 1 and 3
        acked: list[list[str]] = [[], []]
        over = lambda u: len(u["matches"]) >= 1  # noqa: E731
        await asyncio.gather(play(north, table, over, acked[0], 1),
                             play(south, table, over, acked[1], 2))
        # The next match starts by itself, driven by one process or the other.
        for client in (north, south):
            update = await client.wait_for(table, lambda u: u["match_number"] == 2, timeout=30)
            assert update["matches"][0]["winner"] in (0, 1)
        ends = [north.tables[table]["matches"][0], south.tables[table]["matches"][0]]
        assert ends[0] == ends[1]
        for client in (north, south):
            assert_in_order(table_messages(client, table))
        streams = [game_events(table_messages(c, table)) for c in (north, south)]
        cut = min(len(s) for s in streams)
        assert streams[0][:cut] == streams[1][:cut]
    finally:
        await close_all([north, south])


async def test_a_process_killed_mid_hand_loses_nothing_and_its_players_finish_on_the_other(
        two_servers, shared_database) -> None:
    a, b = two_servers
    pairs = [await connect(server.url, name)
             for server, name in ((a, "N"), (a, "E"), (b, "S"))]
    clients = [c for c, _ in pairs]
    tokens = [t for _, t in pairs]
    table = await clients[0].create_table(seat=0, rules={"target": 2000, "lose_at": -2000})
    await clients[1].join(table, 1)
    await clients[2].join(table, 2)
    await clients[0].add_bot(table, 3)  # the fourth seat fills: the match starts
    acked: list[list[str]] = [[], [], []]
    mid_hand = lambda u: bool(u["view"]) and u["view"]["phase"] == "play" and (  # noqa: E731
        len(u["view"]["tricks"]) >= 2)
    await asyncio.gather(*(play(c, table, mid_hand, acked[n], n)
                           for n, c in enumerate(clients)))
    a.kill()
    await close_all(clients[:2])
    # North and East come back through the surviving process, with their tokens.
    again = []
    for seat, token in enumerate(tokens[:2]):
        client = Client(b.url)
        client.keep_all = True
        await client.connect()
        await client.hello(token)
        assert await client.open(table) == seat
        again.append(client)
    players = [*again, clients[2]]
    try:
        hands = len(players[2].tables[table]["view"]["history"])
        done = lambda u: len(u["view"]["history"]) > hands  # noqa: E731
        await asyncio.gather(*(play(c, table, done, acked[n], 10 + n)
                               for n, c in enumerate(players)))
        record = await stored_actions(shared_database, table)
        for seat in range(3):
            mine = [text for s, text in record if s == seat]
            assert mine[:len(acked[seat])] == acked[seat], f"seat {seat} lost an action"
        for client in players:
            assert_in_order(table_messages(client, table))
        # The survivor's players saw the whole hand end, scored the same.
        scores = {tuple(c.tables[table]["view"]["history"][hands]["scores"])
                  if isinstance(c.tables[table]["view"]["history"][hands], dict)
                  and "scores" in c.tables[table]["view"]["history"][hands]
                  else repr(c.tables[table]["view"]["history"][hands]) for c in players}
        assert len(scores) == 1
    finally:
        await close_all(players)
