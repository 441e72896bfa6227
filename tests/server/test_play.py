"""Whole hands and matches played by real clients over real WebSockets."""

from __future__ import annotations

import asyncio

from cardroom.tools.client import Client
from tests.server.helpers import (
    hand_scored,
    play_seat,
    registered_clients,
)


def match_over(update: dict) -> bool:
    """The first match at the table is over."""
    return len(update.get("matches", [])) >= 1


async def test_four_players_play_a_hand_to_the_score(server) -> None:
    async with registered_clients(server.url, "Shaun", "Alice", "Susan", "Bob") as clients:
        table = await clients[0].create_table(preset="online", seat=0)
        for seat, client in enumerate(clients[1:], start=1):
            await client.join(table, seat)
        await asyncio.gather(*(play_seat(c, table, hand_scored, seed=n)
                               for n, c in enumerate(clients)))
        results = [c.tables[table]["view"]["history"][0] for c in clients]
        assert all(result == results[0] for result in results)
        assert results[0]["contract"] is not None or results[0]["summary"].startswith("Nobody")
        scores = [c.tables[table]["view"]["scores"] for c in clients]
        assert all(s == scores[0] for s in scores)
        assert [s["name"] for s in clients[0].tables[table]["seats"]] == [
            "Shaun", "Alice", "Susan", "Bob"]


async def test_two_players_and_two_bots_play_a_whole_match(server) -> None:
    async with registered_clients(server.url, "Ann", "Ben") as clients:
        table = await clients[0].create_table(preset="classic", seat=0,
                                              rules={"target": 300, "lose_at": -300})
        await clients[1].join(table, 2)
        await clients[0].add_bot(table, 1)
        await clients[0].start_with_bots(table)
        await asyncio.gather(*(play_seat(c, table, match_over, seed=n, timeout=120)
                               for n, c in enumerate(clients)))
        finished = clients[0].tables[table]["matches"][0]
        assert finished["winner"] in (0, 1)
        assert sum(h["points"][0] for h in finished["hands"]) == finished["scores"][0]
        seats = clients[0].tables[table]["seats"]
        assert [s["bot"] for s in seats] == [None, "simple", None, "simple"]
        # Seed 004: a new match starts at the same table with the same players.
        update = await clients[0].wait_for(table, lambda u: u["match_number"] == 2)
        assert update["status"] == "playing"
        assert update["view"]["scores"] == [0, 0]


async def test_lobby_lists_tables_with_seats_preset_and_age(server) -> None:
    async with registered_clients(server.url, "Shaun", "Alice") as clients:
        await clients[1].watch_lobby()
        table = await clients[0].create_table(preset="australian", seat=0)
        lobby = await _wait_lobby(clients[1], lambda rows: any(r["table_id"] == table
                                                               for r in rows))
        row = next(r for r in lobby if r["table_id"] == table)
        assert row["preset"] == "australian"
        assert row["status"] == "waiting"
        assert row["seats"][0]["name"] == "Shaun" and row["seats"][1]["name"] is None
        assert row["teams"] == [[0, 2], [1, 3]]
        assert row["age_seconds"] >= 0
        await clients[1].join(table, 1)
        lobby = await _wait_lobby(clients[1], lambda rows: rows[0]["seats"][1]["name"])
        assert lobby[0]["seats"][1]["name"] == "Alice"


async def test_leave_frees_the_seat_before_the_start_and_hands_it_to_a_bot_during_a_match(
        server) -> None:
    async with registered_clients(server.url, "Shaun", "Alice") as clients:
        table = await clients[0].create_table(seat=0)
        await clients[1].join(table, 1)
        await clients[1].leave(table)
        update = await clients[0].wait_for(table, lambda u: u["seats"][1]["name"] is None)
        assert update["status"] == "waiting"
        await clients[1].join(table, 1)
        await clients[0].start_with_bots(table)
        await clients[1].leave(table)
        update = await clients[0].wait_for(table, lambda u: u["seats"][1]["away"])
        assert update["status"] == "playing" and update["seats"][1]["name"] == "Alice"


async def test_spectator_sees_the_table_without_hidden_cards(server) -> None:
    async with registered_clients(server.url, "Shaun", "Watcher") as clients:
        table = await clients[0].create_table(seat=0)
        await clients[0].start_with_bots(table)
        assert await clients[1].open(table) is None
        update = await clients[1].wait_for(table, lambda u: u["view"] is not None)
        assert update["seat"] is None
        assert update["view"]["hand"] is None
        assert update["view"]["hand_sizes"] == [10, 10, 10, 10]


async def _wait_lobby(client: Client, condition) -> list[dict]:
    for _ in range(200):
        if client.lobby and client.lobby["tables"] and condition(client.lobby["tables"]):
            return client.lobby["tables"]
        await asyncio.sleep(0.02)
    raise AssertionError(f"lobby never matched: {client.lobby}")
