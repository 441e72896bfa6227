"""Play now: one request seats a player at once, at a waiting table with the same rules, at a
table in its first hand (taking a bot's seat over when the hand ends), or at a new table of
theirs with bots in the other seats; and humans taking bots' seats over at open tables."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from cardroom.bots import make_bot
from cardroom.tables.model import Table
from cardroom.tables.room import Player, Room, RoomError, RoomSettings
from tests.server.helpers import known_players


class Tab:
    """A connection in the room's eyes: it keeps what it is sent."""

    def __init__(self) -> None:
        self.received: list[dict[str, Any]] = []

    def deliver(self, message: dict[str, Any]) -> None:
        self.received.append(message)


@pytest.fixture
def room_settings() -> RoomSettings:
    """Quick bots that move at once; lost connections wait an hour."""
    return RoomSettings(bot_workers=1, bot_delay=0.01, disconnect_grace=3600,
                        default_bot="simple")


async def eventually(condition: Callable[[], bool], seconds: float = 60) -> None:
    """Wait until ``condition()`` holds."""
    for _ in range(int(seconds / 0.02)):
        if condition():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("the table never got there")


async def play_for(room: Room, player: Player, table: Table,
                   until: Callable[[], bool]) -> None:
    """Play ``player``'s turns with a quick bot's choices until ``until()``."""
    bot = make_bot("simple")
    while not until():
        game = table.game
        seat = table.seat_of(player)
        if game is not None and not game.is_over and seat is not None and game.to_act == seat:
            await room.act(player, table.id, bot.choose(game.view(seat)))
        else:
            await asyncio.sleep(0.01)


async def test_play_now_starts_a_table_with_bots_then_a_second_player_takes_a_bot_over(
        room: Room) -> None:
    ann, bob = known_players(room, "Ann", "Bob")
    table = room.tables[await room.play_now(ann, "500", "online")]
    assert table.status == "playing" and table.seat_of(ann) == 0
    assert [s.bot for s in table.seats] == [None, "simple", "simple", "simple"]

    same = room.tables[await room.play_now(bob, "500", "online")]
    assert same is table
    promised = [n for n, s in enumerate(table.seats) if s.successor is bob]
    assert len(promised) == 1 and table.seat_of(bob) is None
    seat = promised[0]
    assert table.seats[seat].bot == "simple"  # the bot finishes the hand
    assert table.summary()["seats"][seat]["successor"] == "Bob"

    # Ann plays the first hand out and then waits: her first bid of the next hand, made at
    # once, would change the table before the hand-over runs, which then waits for the end of
    # that hand (seen once under a loaded run)
    await play_for(room, ann, table,
                   lambda: table.game is not None and len(table.game.history) >= 1)
    await eventually(lambda: table.seat_of(bob) is not None)
    assert table.seat_of(bob) == seat and table.seats[seat].bot is None
    assert table.seats[seat].successor is None
    game = table.game
    assert game is not None and len(game.history) == 1  # taken over as the second hand began
    stored = await room.store.load_table(table.id)
    assert stored is not None and stored.seats[seat].player_id == bob.id


async def test_play_now_prefers_a_waiting_table_with_people_and_matches_the_rules(
        room: Room) -> None:
    ann, bob, carl, dora = known_players(room, "Ann", "Bob", "Carl", "Dora")
    waiting = await room.create_table(ann, "online", {}, 0, None, None)
    custom = await room.create_table(bob, "online", {"target": 300}, 0, None, None)
    assert room.tables[await room.play_now(carl, "500", "online")] is waiting
    assert waiting.seat_of(carl) == 1 and waiting.status == "waiting"
    other = room.tables[await room.play_now(dora, "500", "classic")]
    assert other not in (waiting, custom) and other.rules.preset_name == "classic"
    assert other.status == "playing"


async def test_play_now_never_offers_a_private_or_own_table(room: Room) -> None:
    ann, bob = known_players(room, "Ann", "Bob")
    private = await room.create_table(ann, "online", {}, 0, None, None)
    await room.table_settings(ann, private.id, True, None, None)
    mine = room.tables[await room.play_now(bob, "500", "online")]
    assert mine is not private
    again = room.tables[await room.play_now(bob, "500", "online")]
    assert again is not mine and again is not private


async def test_play_now_refuses_unknown_games_and_presets(room: Room) -> None:
    (ann,) = known_players(room, "Ann")
    for game, preset in [("poker", None), ("500", "martian")]:
        with pytest.raises(RoomError) as refused:
            await room.play_now(ann, game, preset)
        assert refused.value.code == "bad_rules"
    assert not room.tables


async def test_taking_a_bot_over_is_for_a_bots_own_seat_once(room: Room) -> None:
    ann, bob, carl = known_players(room, "Ann", "Bob", "Carl")
    table = room.tables[await room.play_now(ann, "500", "online")]
    with pytest.raises(RoomError) as refused:
        await room.join(bob, table.id, 0)  # Ann's own seat
    assert refused.value.code == "table_started"
    await room.join(bob, table.id, 1)
    for who, seat, code in [(carl, 1, "seat_taken"), (bob, 2, "seat_taken")]:
        with pytest.raises(RoomError) as refused:
            await room.join(who, table.id, seat)
        assert refused.value.code == code
    await room.leave(bob, table.id)  # changed his mind before the hand ended
    assert table.seats[1].successor is None
    await room.join(carl, table.id, 1)
    assert table.seats[1].successor is carl


async def test_a_successor_who_is_not_there_is_away_and_a_bot_plays_on(room: Room) -> None:
    """A promise nobody keeps never stops a table: the seat becomes the successor's, away,
    so a bot plays it until they open the table."""
    ann, bob = known_players(room, "Ann", "Bob")
    table = room.tables[await room.play_now(ann, "500", "online")]
    await room.join(bob, table.id, 1)  # and goes away without following the table
    await play_for(room, ann, table, lambda: table.seat_of(bob) is not None)
    assert table.seats[1].away
    hands = len(table.game.history) if table.game else 0
    await play_for(room, ann, table, lambda: table.game is not None
                   and len(table.game.history) > hands)  # the bot played his seat
    tab = Tab()
    await room.open(tab, bob, table.id)
    await eventually(lambda: not table.seats[1].away)


async def test_one_player_takes_over_one_seat_in_the_whole_room(room: Room) -> None:
    ann, carl, bob = known_players(room, "Ann", "Carl", "Bob")
    first = room.tables[await room.play_now(ann, "500", "online")]
    second = room.tables[await room.play_now(carl, "500", "classic")]
    await room.join(bob, first.id, 1)
    with pytest.raises(RoomError) as refused:
        await room.join(bob, second.id, 1)
    assert refused.value.code == "seat_taken"
    await room.leave(bob, first.id)
    await room.join(bob, second.id, 1)
