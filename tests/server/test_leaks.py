"""No message to a seat or a spectator ever holds a card that viewer may not see."""

from __future__ import annotations

import asyncio
import json
import sqlite3

from cardroom.bots import make_bot
from cardroom.games.five_hundred import Game, Rules
from tests.server.helpers import (
    cards_in,
    play_seat,
    players_and_watcher,
)
from tests.shapes import check_message as check_shapes

BID_TEXTS = frozenset({"bid", "contract"})
"""Keys holding bid texts such as "7H", which look like cards but are not."""
PUBLIC_PLAY = frozenset({"trick", "tricks", "rules", "events"}) | BID_TEXTS
"""Keys whose cards are public plays (or not cards at all: bids, rules)."""
CARD_EVENTS = frozenset({"play", "trick", "claim"})
"""The only events that may name cards: a card played, a trick won, a claim (the claimant's
hand, shown to all)."""


class Claiming:
    """The simple bot, which claims every trick left each third time it may (opponents
    refuse what the solver did not prove), so that claims and shown hands cross the wire."""

    def __init__(self, seed: int) -> None:
        self.bot = make_bot("simple", seed)
        self.chances = 0

    def choose(self, view: dict) -> str:
        if view.get("claims"):
            self.chances += 1
            if self.chances % 3 == 0:
                return f"claim {view['claims'][-1]}"
        return self.bot.choose(view)


def deals_of(database, table_id: str) -> dict[int, Game]:
    """Each match of the table rebuilt from the database, to know the truth behind views."""
    with sqlite3.connect(database) as connection:
        matches = connection.execute("SELECT number, seed, dealer, rules FROM matches "
                                     "WHERE table_id = ?", (table_id,)).fetchall()
    return {n: Game.new(Rules.from_dict(json.loads(rules)), seed=seed, dealer=dealer)
            for n, seed, dealer, rules in matches}


def check_message(message: dict, seeds: dict[int, int]) -> None:
    """A table message: of the protocol's shape, and besides public plays only the viewer's
    own cards appear in it."""
    check_shapes(message)
    for event in message["events"]:
        assert event["type"] in CARD_EVENTS or not cards_in(event, skip=BID_TEXTS), event
    view = message.get("view")
    if not view:
        assert message["match_number"] not in seeds or message["status"] == "waiting"
        return
    assert str(seeds[message["match_number"]]) not in str(message)
    own = (set(view["hand"] or []) | set(view["discards"]) | set(view["exchange"] or [])
           | set(view["handed_over"]))
    for cards in view["open_hands"].values():
        own |= set(cards)
    hidden = cards_in(message, skip=PUBLIC_PLAY) - own
    assert not hidden, f"seat {message['seat']} was sent cards it may not see: {hidden}"
    if message["seat"] is None:
        assert view["hand"] is None and not view["discards"] and not view["exchange"]
        assert not view["handed_over"]


async def test_no_message_leaks_hidden_cards_over_many_hands(server) -> None:
    async with players_and_watcher(server.url, "N", "E", "S", "W") as (clients, watcher):
        table = await clients[0].create_table(seat=0, rules={"target": 5000, "lose_at": -5000})
        for seat, client in enumerate(clients[1:], start=1):
            await client.join(table, seat)
        await watcher.open(table)
        await asyncio.gather(*(play_seat(c, table, lambda u: len(u["view"]["history"]) >= 4,
                                         seed=n, timeout=120, bot=Claiming(n))
                               for n, c in enumerate(clients)))
        seeds = {n: g.seed for n, g in deals_of(server.database, table).items()}
        checked = claims = 0
        for client in [*clients, watcher]:
            for message in client.received:
                if message.get("type") == "table":
                    check_message(message, seeds)
                    checked += 1
                    claims += sum(e["type"] == "claim" for e in message["events"])
        assert checked > 200 and claims > 0
        for lobby in (m for c in clients for m in c.received if m.get("type") == "lobby"):
            check_shapes(lobby)
