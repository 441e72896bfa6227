"""A seat belongs to whoever holds its token: reconnecting needs it, a name proves nothing."""

from __future__ import annotations

import pytest

from cardroom.tools.client import Client, ClientError
from tests.server.helpers import close_all, my_turn, register_clients


async def test_reconnect_with_token_gets_the_same_seat_and_view(server) -> None:
    clients, tokens = await register_clients(server.url, ["Shaun"])
    table = await clients[0].create_table(seat=2)
    await clients[0].start_with_bots(table)
    before = await clients[0].wait_for(table, my_turn)
    await clients[0].close()
    async with Client(server.url) as again:
        hello = await again.hello(tokens[0])
        assert hello["tables"] == [table]
        assert await again.open(table) == 2
        after = await again.wait_for(table, my_turn)
        assert after["seat"] == 2
        assert after["view"]["hand"] == before["view"]["hand"]
        assert after["view"]["bidding"] == before["view"]["bidding"]
        await again.act(table, after["view"]["legal_actions"][0])


async def test_same_name_without_the_token_cannot_take_the_seat(server) -> None:
    clients, _ = await register_clients(server.url, ["Shaun", "Sean"])
    try:
        for again in ("Shaun", "SHAUN"):  # nobody else may even take the name
            with pytest.raises(ClientError) as refused:
                await clients[1].register(again)
            assert refused.value.code == "name_taken"
        table = await clients[0].create_table(seat=0)
        await clients[0].start_with_bots(table)
        await clients[0].wait_for(table, my_turn)
        impostor = clients[1]
        assert await impostor.open(table) is None  # a spectator, not Shaun's seat
        update = await impostor.wait_for(table, lambda u: u["view"] is not None)
        assert update["view"]["hand"] is None
        with pytest.raises(ClientError) as refused:
            await impostor.act(table, "pass")
        assert refused.value.code == "not_at_table"
    finally:
        await close_all(clients)


async def test_invented_token_is_refused(server) -> None:
    async with Client(server.url) as client:
        with pytest.raises(ClientError) as refused:
            await client.hello("x" * 43)
        assert refused.value.code == "bad_token"
        with pytest.raises(ClientError) as refused:
            await client.act("anything", "pass")
        assert refused.value.code == "not_registered"


async def test_disconnected_seat_is_played_by_a_bot_until_the_player_returns(
        server_factory) -> None:
    server = server_factory(**{"disconnect-grace": 0.3})
    clients, tokens = await register_clients(server.url, ["Shaun"])
    table = await clients[0].create_table(seat=0)
    await clients[0].start_with_bots(table)
    await clients[0].wait_for(table, my_turn)
    await clients[0].close()
    async with Client(server.url) as watcher:
        await watcher.register("Watcher")
        await watcher.open(table)
        away = await watcher.wait_for(table, lambda u: u["seats"][0]["away"])
        assert away["seats"][0]["name"] == "Shaun"
        # The bot plays Shaun's turns: the game moves past seat 0.
        await watcher.wait_for(table, lambda u: len(u["view"]["history"]) >= 1, timeout=30)
        async with Client(server.url) as back:
            await back.hello(tokens[0])
            assert await back.open(table) == 0
            update = await back.wait_for(table, lambda u: not u["seats"][0]["away"])
            assert update["seat"] == 0


async def test_turn_timer_moves_for_a_player_who_does_not_act(server_factory) -> None:
    server = server_factory(**{"min-turn-seconds": 0.5})  # the timer of a quick test
    async with Client(server.url) as client:
        await client.register("Slow")
        table = await client.create_table(seat=0, turn_seconds=0.5)
        await client.start_with_bots(table)
        waiting = await client.wait_for(table, my_turn)
        assert waiting["clock"]["seat"] == 0
        assert waiting["clock"]["deadline"] > 0
        assert waiting["view"]["phase"] == "bidding"
        # Nobody at seat 0 acts, yet seat 0's bid appears: the clock ran out and a bot moved.
        moved = await client.wait_for(table, lambda u: u["view"]["hand_number"] > 1 or any(
            entry["seat"] == 0 for entry in u["view"]["bidding"]))
        assert moved["version"] > waiting["version"]
