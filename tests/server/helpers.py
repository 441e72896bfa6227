"""Playing through real clients: seat players, act when it is their turn."""

from __future__ import annotations

import asyncio
import re
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any, cast

from cardroom.bots import make_bot
from cardroom.protocol import TablePatch, TableUpdate
from cardroom.table_patches import apply_table_patch
from cardroom.tables.room import Player, Room
from cardroom.tools.client import Client
from tests.shapes import check_message


class HeldTables:
    """What a connection that takes patches holds, as a browser tab does: each table's latest
    whole message, each patch applied to the one before it (one that does not fit is
    counted: the client would open the table again)."""

    def __init__(self) -> None:
        self.held: dict[str, dict[str, Any]] = {}
        self.patched = 0
        self.misfits = 0

    def take(self, message: dict[str, Any]) -> dict[str, Any] | None:
        """The whole ``table`` message that ``message`` is or leads to (held from now on);
        ``None`` for any other message and for a patch that does not fit."""
        if message.get("type") == "table_patch":
            merged = apply_table_patch(
                cast("TableUpdate | None", self.held.get(message["table_id"])),
                cast("TablePatch", message))
            if merged is None:
                self.misfits += 1
                return None
            self.patched += 1
            message = cast("dict[str, Any]", merged)
        if message.get("type") != "table":
            return None
        self.held[message["table_id"]] = message
        return message


QUICK = {"target": 50}
"""A 500 match that ends with the first made contract (or soon after)."""


async def finished_match(room: Room, player: Player, rated: bool = True,
                         private: bool = False) -> str:
    """A quick 500 match at a new table of ``player``'s, played out by bots (the player
    leaves, so a bot plays for them); the table's id once it is over."""
    table = await room.create_table(player, "online", QUICK, 0, None, "simple",
                                    rated=rated, private=private)
    await room.start_with_bots(player, table.id, None)
    await room.leave(player, table.id)
    for _ in range(600):
        if table.game is not None and table.game.is_over:
            return table.id
        await asyncio.sleep(0.05)
    raise AssertionError("the match did not end")


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
    """Close every client, then check every message each received against the protocol's
    shapes (so every server test checks the messages it caused)."""
    await asyncio.gather(*(c.close() for c in clients), return_exceptions=True)
    for client in clients:
        for message in client.received:
            check_message(message)


@asynccontextmanager
async def registered_clients(url: str, *names: str) -> AsyncIterator[list[Client]]:
    """Connected clients registered as ``names``; closed at the end, and their messages
    checked, as :func:`close_all` does."""
    clients, _ = await register_clients(url, list(names))
    try:
        yield clients
    finally:
        await close_all(clients)


@asynccontextmanager
async def registered_client(url: str, name: str) -> AsyncIterator[Client]:
    """The one client of :func:`registered_clients` for ``name``."""
    async with registered_clients(url, name) as clients:
        yield clients[0]


@asynccontextmanager
async def players_and_watcher(url: str, *names: str
                              ) -> AsyncIterator[tuple[list[Client], Client]]:
    """Registered players ``names`` and a spectator ("Watcher"), all keeping every message
    they receive (the leak tests read them all); closed and checked at the end."""
    async with registered_clients(url, *names, "Watcher") as everyone:
        for client in everyone:
            client.keep_all = True
        yield everyone[:-1], everyone[-1]


async def alone_with_bots(url: str, name: str, **table: Any) -> tuple[Client, str, str]:
    """A client registered as ``name`` at a new table (``table``: ``create_table``'s options)
    whose other seats bots took: the client, its token and the table's id."""
    client = Client(url)
    await client.connect()
    token = await client.register(name)
    table_id = await client.create_table(**table)
    await client.start_with_bots(table_id)
    return client, token, table_id


async def lobby_row(client: Client, table: str) -> dict[str, Any]:
    """The table's row in the client's lobby, once it shows."""
    for _ in range(200):
        rows = [t for t in (client.lobby or {}).get("tables", []) if t["table_id"] == table]
        if rows:
            return rows[0]
        await asyncio.sleep(0.02)
    raise AssertionError("the table never reached the lobby")


def known_players(room: Room, *names: str) -> list[Player]:
    """Players named ``names`` that ``room`` knows as if they had registered (their ids: the
    names in lower case), for tests that drive a room without clients."""
    players = [Player(name.lower(), name) for name in names]
    for player in players:
        room.core.players[player.id] = player
    return players


def my_turn(update: dict[str, Any]) -> bool:
    """It is this viewer's turn at a running match."""
    view = update.get("view")
    return bool(view) and update["status"] == "playing" and view["to_act"] == update["seat"]


async def play_seat(client: Client, table_id: str, until: Any, seed: int = 0,
                    timeout: float = 60, bot: Any = None) -> None:
    """Play with a bot's choices (a simple bot's unless given) on this client's turns, until
    ``until(update)``."""
    bot = bot or make_bot("simple", seed)
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
"""Points of a deal to kill the server at (each a test of a view update)."""


async def survives_a_kill(server, create: Callable[[Client], Awaitable[str]], seat: int,
                          point: str, hands: int,
                          check: Callable[[dict[str, Any], dict[str, Any]], None]) -> None:
    """SIGKILL the server at a point of a deal, restart it, and play on.

    ``create`` opens the table with our client at ``seat``; bots take the others. We play until
    the stop ``point`` (or until ``hands`` hands are scored if it never shows), kill and restart
    the server, and come back with our token: the history (and, in the same hand, the tricks)
    must be as before, ``check(view before, update after)`` holds, every acknowledged action of
    ours is stored, and the game plays on to the end of the hand.
    """
    client = Client(server.url)
    await client.connect()
    token = await client.register("Survivor")
    table = await create(client)
    await client.start_with_bots(table)
    acked: list[str] = []
    stop = STOP_POINTS[point]
    before = await act_until(client, table, lambda u: bool(u["view"]) and (
        stop(u) or len(u["view"]["history"]) >= hands), acked)
    server.kill()
    await client.close()
    server.start()
    async with Client(server.url) as again:
        await again.hello(token)
        assert await again.open(table) == seat
        after = await again.wait_for(table, lambda u: u["view"] is not None)
        view_before, view_after = before["view"], after["view"]
        assert view_after["history"][:len(view_before["history"])] == view_before["history"]
        if view_after["hand_number"] == view_before["hand_number"]:
            assert view_after["tricks"][:len(view_before["tricks"])] == view_before["tricks"]
        check(view_before, after)
        assert stored_actions(server.database, seat=seat)[:len(acked)] == acked
        played = len(view_after["history"])
        await act_until(again, table, lambda u: len(u["view"]["history"]) > played, acked)
