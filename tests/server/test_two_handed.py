"""Two-handed 500 through the server: the dead hand is out of play and seen by nobody, so no
message to either player or to a spectator names a dead card while its hand is played, over
whole hands and the deal between them; and nothing else hidden leaks either."""

from __future__ import annotations

import asyncio
import sqlite3
from typing import Any

from cardroom.games.cards import cards_of
from cardroom.games.five_hundred import Game
from tests.server.helpers import (
    cards_in,
    play_seat,
    players_and_watcher,
)
from tests.server.test_leaks import BID_TEXTS, check_message, deals_of
from tests.server.test_player_counts import Opener

HANDS = 3
"""Hands played: every message of the first ones, and the deals between them, are checked."""


def dead_by_hand(database: Any, table_id: str) -> dict[int, set[str]]:
    """The dead cards of each hand of the table's first match, from its stored seed and
    actions (the truth the views must hide)."""
    game = deals_of(database, table_id)[1]
    with sqlite3.connect(database) as connection:
        actions = [row[0] for row in connection.execute(
            "SELECT action FROM actions WHERE table_id = ? AND match_number = 1 "
            "ORDER BY number", (table_id,))]
    dead = {game.hand_number: _texts(game)}
    for action in actions:
        game.apply(action)
        dead.setdefault(game.hand_number, _texts(game))
    return dead


def _texts(game: Game) -> set[str]:
    return {str(card) for card in cards_of(game.dead)}


def hands_of_events(message: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    """Each event of a table message with the hand it belongs to: a ``deal`` event starts a
    new hand, and the events after the last deal belong to the view's hand."""
    events = message["events"]
    hand = message["view"]["hand_number"]
    numbered = []
    for event in reversed(events):
        numbered.append((hand, event))
        if event["type"] == "deal":
            hand = event["hand"] - 1
    return list(reversed(numbered))


async def test_no_message_shows_a_dead_card(server) -> None:
    async with players_and_watcher(server.url, "South", "North") as (clients, watcher):
        table = await clients[0].create_table(preset="two-handed", seat=0,
                                              rules={"target": 5000, "lose_at": -5000})
        await clients[1].join(table, 1)
        await watcher.open(table)
        await asyncio.gather(*(play_seat(c, table, lambda u: len(u["view"]["history"]) >= HANDS,
                                         timeout=120, bot=Opener()) for c in clients))
        dead = dead_by_hand(server.database, table)
        assert all(len(cards) == 10 for cards in dead.values())
        seeds = {n: g.seed for n, g in deals_of(server.database, table).items()}
        checked = 0
        for client in [*clients, watcher]:
            for message in client.received:
                if message.get("type") != "table" or not message.get("view"):
                    continue
                check_message(message, seeds)
                view = message["view"]
                if view["hand_number"] > HANDS:
                    continue
                shown = cards_in(view, skip=BID_TEXTS | {"rules"})
                assert not shown & dead[view["hand_number"]], (message["seat"], view)
                for hand, event in hands_of_events(message):
                    assert not cards_in(event, skip=BID_TEXTS) & dead[hand], event
                checked += 1
        assert checked > 3 * 20 * HANDS // 2  # every card played, seen by three clients
        assert {m["seat"] for c in [*clients, watcher] for m in c.received
                if m.get("type") == "table"} == {0, 1, None}
