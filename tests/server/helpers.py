"""Playing through real clients: seat players, act when it is their turn."""

from __future__ import annotations

import asyncio
import re
from typing import Any

from cardroom.bots import make_bot
from cardroom.client import Client

CARD = re.compile(r"^(?:10|11|12|13|[2-9JQKA])[SCDH]$|^JK2?$")


async def register_clients(url: str, names: list[str]) -> tuple[list[Client], list[str]]:
    """Connected, registered clients and their tokens."""
    clients, tokens = [], []
    for name in names:
        client = Client(url)
        await client.connect()
        tokens.append(await client.register(name))
        clients.append(client)
    return clients, tokens


async def close_all(clients: list[Client]) -> None:
    """Close every client."""
    await asyncio.gather(*(c.close() for c in clients), return_exceptions=True)


def my_turn(update: dict[str, Any]) -> bool:
    """It is this viewer's turn at a running match."""
    view = update.get("view")
    return bool(view) and update["status"] == "playing" and view["to_act"] == update["seat"]


async def play_seat(client: Client, table_id: str, until: Any, seed: int = 0,
                    timeout: float = 60) -> None:
    """Play with a simple bot's choices on this client's turns, until ``until(update)``."""
    bot = make_bot("simple", seed)
    while True:
        update = await client.wait_for(table_id, lambda u: until(u) or my_turn(u), timeout)
        if until(update):
            return
        await client.act(table_id, bot.choose(update["view"]))


def hand_scored(update: dict[str, Any]) -> bool:
    """The first hand of the current match has been scored."""
    return bool(update.get("view")) and len(update["view"]["history"]) >= 1


def cards_in(value: Any, skip: frozenset[str] = frozenset()) -> set[str]:
    """Every card-looking string in a JSON value, except under keys in ``skip``."""
    found: set[str] = set()
    if isinstance(value, dict):
        for key, item in value.items():
            if key not in skip:
                found |= cards_in(item, skip)
    elif isinstance(value, list):
        for item in value:
            found |= cards_in(item, skip)
    elif isinstance(value, str) and CARD.match(value):
        found.add(value)
    return found
