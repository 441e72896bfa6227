"""1000 at the card room: tables of three (or four), bots in the empty seats, whole deals
played over real WebSockets, and a server killed mid-deal that comes back with every action."""

from __future__ import annotations

from typing import Any

from cardroom.tools.client import ClientError
from tests.server.helpers import (
    close_all,
    hand_scored,
    lobby_row,
    play_seat,
    register_clients,
    registered_client,
    survives_a_kill,
)
from tests.shapes import check_message


async def test_one_player_and_two_bots_play_a_deal_of_1000(server) -> None:
    async with registered_client(server.url, "Olga") as client:
        table = await client.create_table(game="1000", seat=0)
        await client.start_with_bots(table)
        await play_seat(client, table, hand_scored, timeout=60)
        update = client.tables[table]
        check_message(update)
        view = update["view"]
        assert view["game"] == "1000" and view["preset"] == "seed"
        assert len(update["seats"]) == 3 and view["players"] == 3
        deal = view["history"][0]
        # Seed 003: the host deals first, so the player on the host's left bids first.
        assert deal["dealer"] == 0
        assert deal["bet"] >= 100 and deal["contractor"] in (0, 1, 2)
        assert sum(deal["card_points"]) + deal["discard_points"] == 120
        assert view["scores"] == list(deal["scores"])
        assert [s["bot"] for s in update["seats"]] == [None, "simple", "simple"]


async def test_the_creator_deals_first_wherever_they_sit_and_the_lobby_shows_1000(
        server) -> None:
    clients, _ = await register_clients(server.url, ["Host", "Guest"])
    try:
        table = await clients[0].create_table(game="1000", seat=2)
        await clients[1].join(table, 0)
        await clients[0].add_bot(table, 1)
        update = await clients[1].wait_for(table, lambda u: u["view"] is not None)
        assert update["view"]["dealer"] == 2
        assert update["view"]["to_act"] == 0  # the host's left
    finally:
        await close_all(clients)


async def test_lobby_row_and_seats_of_a_four_player_1000_table(server) -> None:
    async with registered_client(server.url, "Four") as client:
        await client.watch_lobby()
        table = await client.create_table(game="1000", preset="russian", seat=1,
                                          rules={"players": 4})
        row = await lobby_row(client, table)
        assert row["game"] == "1000" and row["preset"] is None
        assert len(row["seats"]) == 4 and row["teams"] == [[0], [1], [2], [3]]
        assert row["scores"] == [0, 0, 0, 0] and row["target"] == 1000
        await client.start_with_bots(table)
        update = await client.wait_for(table, lambda u: u["view"] is not None)
        view = update["view"]
        assert view["sitting_out"] == view["dealer"]
        assert len(view["active"]) == 3


async def test_bad_games_seats_and_rules_are_refused(server) -> None:
    async with registered_client(server.url, "Careful") as client:
        for kwargs, code in [({"game": "2000"}, "bad_rules"),
                             ({"game": "1000", "preset": "online"}, "bad_rules"),
                             ({"game": "1000", "seat": 3}, "bad_message"),
                             ({"game": "1000", "rules": {"players": 5}}, "bad_rules")]:
            try:
                await client.create_table(**kwargs)
            except ClientError as error:
                assert error.code == code, kwargs
            else:
                raise AssertionError(f"accepted {kwargs}")
        table = await client.create_table(game="1000")
        try:
            await client.add_bot(table, 3)
        except ClientError as error:
            assert error.code == "bad_message"
        else:
            raise AssertionError("a bot in seat 3 of three")


async def test_a_1000_table_killed_mid_deal_comes_back_with_every_action(server) -> None:
    def same_deal(before: dict[str, Any], after: dict[str, Any]) -> None:
        view = after["view"]
        assert view["game"] == "1000" and len(after["seats"]) == 3
        if view["hand_number"] == before["hand_number"]:
            assert view["bidding"][:len(before["bidding"])] == before["bidding"]
            assert view["contract"] == before["contract"]

    await survives_a_kill(server, lambda client: client.create_table(game="1000", seat=0),
                          seat=0, point="mid-trick", hands=3, check=same_deal)
