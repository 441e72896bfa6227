"""A seat's private view goes to its current occupant only, and presence follows the player's
own connections: after any join, leave, reconnect, second tab or closed tab, every table message
a connection receives is the view of the seat its player holds at that moment."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from cardroom.tables.room import Player, Room, RoomError
from cardroom.tools.client import Client, ClientError
from tests.server.helpers import HeldTables, close_all, known_players, register_clients

SEQUENCES = 300
STEPS = 30


class Connection:
    """A connection in the room's eyes: checks every table message against the room's state
    at the moment it is delivered (one that takes patches, the message each patch leads to
    from the one before: nothing is lost in one process, so every patch must fit)."""

    def __init__(self, room: Room, player: Player, patches: bool = False) -> None:
        self.room, self.player, self.patches = room, player, patches
        self.received: list[dict[str, Any]] = []
        self.wrong: list[str] = []
        self.tables = HeldTables()

    def deliver(self, message: dict[str, Any]) -> None:
        self.received.append(message)
        whole = self.tables.take(message)
        if whole is None:
            return
        message = whole
        table = self.room.tables.get(message["table_id"])
        expected = table.seat_of(self.player) if table is not None else None
        if message["seat"] != expected:
            self.wrong.append(f"{self.player.name} got seat {message['seat']}'s view while "
                              f"sitting in {expected}")
        view = message["view"]
        if view is not None and expected is None and view.get("hand"):
            self.wrong.append(f"{self.player.name} saw a hand from no seat")


async def _step(room: Room, rng: random.Random, table_id: str, players: list[Player],
                connections: list[Connection]) -> None:
    """One random move: a seat taken or given up, a tab opened, reopened or closed."""
    player = rng.choice(players)
    move = rng.choice(["join", "join", "join", "leave", "open", "open", "close", "new_tab"])
    try:
        if move == "join":
            await room.join(player, table_id, rng.randrange(4))
        elif move == "leave":
            await room.leave(player, table_id)
        elif move == "new_tab":
            connection = Connection(room, player, patches=rng.random() < 0.5)
            connections.append(connection)
            await room.open(connection, player, table_id)
        else:
            mine = [c for c in connections if c.player == player]
            if mine:
                connection = rng.choice(mine)
                if move == "open":
                    await room.open(connection, player, table_id)
                else:
                    room.disconnect(connection)
                    connections.remove(connection)
    except RoomError:
        pass  # refused moves (a taken seat, leaving a seat one does not hold) change nothing


def _check_presence(room: Room, table_id: str, connections: list[Connection]) -> None:
    table = room.tables.get(table_id)
    if table is None:
        return
    for number, seat in enumerate(table.seats):
        if seat.player is None:
            continue
        following = sum(1 for c in connections if c.player == seat.player
                        and c in table.listeners)
        assert seat.listeners == following, (number, seat.listeners, following)


async def test_random_seatings_send_each_connection_its_players_seat_only(room: Room) -> None:
    rng = random.Random(15)
    players = known_players(room, *(f"Player {n}" for n in range(5)))
    started = 0
    for _ in range(SEQUENCES):
        creator = rng.choice(players)
        table = await room.create_table(creator, "online", {}, rng.randrange(4), None, "simple")
        connections = [Connection(room, creator, patches=rng.random() < 0.5)]
        await room.open(connections[0], creator, table.id)
        for _ in range(STEPS):  # after the deal, joins and leaves are refused: tabs go on
            await _step(room, rng, table.id, players, connections)
            _check_presence(room, table.id, connections)
        started += table.status == "playing"
        for connection in connections:
            assert connection.wrong == [] and connection.tables.misfits == 0
            room.disconnect(connection)
    assert started > SEQUENCES // 10  # many sequences reached a dealt match


async def test_a_creator_who_left_may_not_seat_bots_until_seated_again(room: Room) -> None:
    creator, other = known_players(room, "Creator", "Other")
    table = await room.create_table(creator, "online", {}, 0, None, "simple")
    await room.join(other, table.id, 2)
    await room.leave(creator, table.id)
    with pytest.raises(RoomError) as refused:
        await room.add_bot(creator, table.id, 1, "simple")
    assert refused.value.code == "not_creator"
    with pytest.raises(RoomError) as refused:
        await room.start_with_bots(creator, table.id, "simple")
    assert refused.value.code == "not_creator"
    await room.join(creator, table.id, 3)
    await room.add_bot(creator, table.id, 1, "simple")
    assert room.tables[table.id].seats[1].bot == "simple"


async def test_a_leavers_old_connection_never_sees_the_next_occupants_hand(server) -> None:
    """The reported sequence, over real connections: she sits in seat 1 on one tab, leaves,
    sits in seat 3 on another tab with the same token; Bob takes seat 1; the match starts."""
    clients, tokens = await register_clients(server.url, ["Alice", "Bob", "Host"])
    alice_one, bob, host = clients
    seen_by_first_tab: list[dict] = []
    seen_by_bob: list[dict] = []
    alice_one.on_table = seen_by_first_tab.append
    bob.on_table = seen_by_bob.append
    alice_two = Client(server.url)
    await alice_two.connect()
    await alice_two.hello(tokens[0])
    try:
        table = await host.create_table(seat=0)
        await alice_one.join(table, 1)
        await alice_one.leave(table)
        await alice_two.join(table, 3)
        await bob.join(table, 1)
        await host.start_with_bots(table)
        update = await bob.wait_for(table, lambda u: u["view"] is not None)
        bobs_hand = set(update["view"]["hand"])
        await alice_one.wait_for(table, lambda u: u["status"] == "playing")
        since_bob = [m for m in seen_by_first_tab if m["seats"][1]["name"] == "Bob"]
        assert since_bob
        for message in since_bob:
            assert message["seat"] == 3  # her own seat's view, never Bob's
            hand = (message["view"] or {}).get("hand") or []
            assert not bobs_hand & set(hand)
        # Her old tab closing does not mark Bob offline (nor start a bot for him).
        await alice_one.close()
        await asyncio.sleep(1.0)
        await bob.request("ping")
        assert bob.tables[table]["seats"][1]["connected"] is True
        for message in seen_by_bob:
            assert {"type": "offline", "seat": 1} not in [
                {"type": e.get("type"), "seat": e.get("seat")} for e in message["events"]]
    finally:
        await close_all([alice_two, bob, host])


async def test_a_player_who_left_is_refused_the_creators_rights(server) -> None:
    clients, _ = await register_clients(server.url, ["Maker", "Guest"])
    maker, guest = clients
    try:
        table = await maker.create_table(seat=0)
        await guest.join(table, 2)
        await maker.leave(table)
        with pytest.raises(ClientError) as refused:
            await maker.start_with_bots(table)
        assert refused.value.code == "not_creator"
    finally:
        await close_all(clients)
