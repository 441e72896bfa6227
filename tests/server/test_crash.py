"""Nothing acknowledged is lost: SIGKILL the server anywhere, restart, play on."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest

from cardroom.bots import make_bot
from cardroom.client import Client
from tests.server.helpers import my_turn


def stored_actions(database, seat: int) -> list[str]:
    """The action log of one seat, read straight from the database file."""
    with sqlite3.connect(database) as connection:
        rows = connection.execute("SELECT action FROM actions WHERE seat = ? "
                                  "ORDER BY match_number, number", (seat,)).fetchall()
    return [row[0] for row in rows]


async def act_until(client: Client, table: str, stop, acked: list[str]) -> dict[str, Any]:
    """Play our seat (bots hold the others) until ``stop(update)``; remember every ack."""
    bot = make_bot("simple", 5)
    while True:
        update = await client.wait_for(table, lambda u: stop(u) or my_turn(u), timeout=30)
        if stop(update):
            return update
        result = await client.act(table, bot.choose(update["view"]))
        acked.append(result["action"])


STOP_POINTS = {
    "bidding": lambda u: u["view"]["phase"] == "bidding" and len(u["view"]["bidding"]) >= 2,
    "kitty": lambda u: u["view"]["phase"] == "discard",
    "mid-trick": lambda u: u["view"]["phase"] == "play" and len(u["view"]["trick"]) == 2,
}


@pytest.mark.parametrize("point", STOP_POINTS)
async def test_sigkill_and_restart_keeps_every_acknowledged_action(server, point) -> None:
    client = Client(server.url)
    await client.connect()
    token = await client.register("Survivor")
    # Bots hold seats 1-3; the kill comes at the point, or after six hands if it never shows.
    table = await client.create_table(seat=0, rules={"target": 2000, "lose_at": -2000})
    await client.start_with_bots(table)
    acked: list[str] = []
    stop = STOP_POINTS[point]
    before = await act_until(client, table, lambda u: bool(u["view"]) and (
        stop(u) or len(u["view"]["history"]) >= 6), acked)
    server.kill()
    await client.close()
    server.start()
    async with Client(server.url) as again:
        await again.hello(token)
        assert await again.open(table) == 0
        after = await again.wait_for(table, lambda u: u["view"] is not None)
        view_before, view_after = before["view"], after["view"]
        assert view_after["history"][:len(view_before["history"])] == view_before["history"]
        if view_after["hand_number"] == view_before["hand_number"]:
            assert view_after["bidding"][:len(view_before["bidding"])] == view_before["bidding"]
            assert view_after["tricks"][:len(view_before["tricks"])] == view_before["tricks"]
        assert stored_actions(server.database, seat=0)[:len(acked)] == acked
        # The game goes on to the end of the hand after the restart.
        hands = len(view_after["history"])
        await act_until(again, table, lambda u: len(u["view"]["history"]) > hands, acked)


async def test_a_server_killed_between_matches_starts_the_next_one_after_restart(
        server_factory) -> None:
    server = server_factory(**{"next-match-delay": 2})
    client = Client(server.url)
    await client.connect()
    token = await client.register("Between")
    table = await client.create_table(seat=0, rules={"target": 50, "lose_at": -50})
    await client.start_with_bots(table)
    await act_until(client, table, lambda u: len(u["matches"]) >= 1, [])
    server.kill()
    await client.close()
    server.start()
    async with Client(server.url) as again:
        await again.hello(token)
        await again.open(table)
        update = await again.wait_for(table, lambda u: u["match_number"] == 2, timeout=20)
        assert update["status"] == "playing"
        assert update["matches"][0]["winner"] in (0, 1)
