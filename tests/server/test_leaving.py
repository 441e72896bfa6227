"""Leaving a table during a match: the seat stays the player's, a bot plays it at once (the
table never sits waiting for one who left, even while their tab stays open on the lobby), the
leaver's connections stop following the table, and opening it again brings them back."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from cardroom.tables.room import Player, Room, RoomSettings


class Tab:
    """A browser tab in the room's eyes: it only collects what it is sent."""

    def __init__(self) -> None:
        self.received: list[dict[str, Any]] = []

    def deliver(self, message: dict[str, Any]) -> None:
        self.received.append(message)


@pytest.fixture
def room_settings() -> RoomSettings:
    """Bots move at once and lost connections wait an hour (so only leaving can hand a seat
    to a bot within the test)."""
    return RoomSettings(bot_workers=1, bot_delay=0.01, disconnect_grace=3600)


async def eventually(condition: Callable[[], bool], seconds: float = 30) -> None:
    """Wait until ``condition()`` holds."""
    for _ in range(int(seconds / 0.02)):
        if condition():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("the table never got there")


async def test_a_player_who_leaves_mid_match_is_played_by_a_bot_at_once(room: Room) -> None:
    frank = Player("f", "Frank")
    room.core.players[frank.id] = frank
    table = await room.create_table(frank, "online", {}, 0, None, "simple")
    tab = Tab()
    await room.open(tab, frank, table.id)
    await room.start_with_bots(frank, table.id, "simple")
    live = room.tables[table.id]
    assert live.status == "playing"

    await room.leave(frank, table.id)  # the tab stays open, on the lobby
    seat = live.seats[0]
    assert seat.player == frank and seat.away  # still his seat, a bot plays it
    assert tab not in live.listeners and seat.listeners == 0
    sent = len(tab.received)
    # Seat 0 acts in every hand: a scored hand means his bot played.
    await eventually(lambda: live.game is not None and len(live.game.history) >= 1)
    assert len(tab.received) == sent  # the lobby tab is no longer sent the table
    assert not any(e.get("type") == "offline" for e in live.events)

    assert await room.open(tab, frank, table.id) == 0  # back: the seat is his again
    await eventually(lambda: not live.seats[0].away)
    assert live.seats[0].listeners == 1


async def test_leaving_before_the_match_still_frees_the_seat(room: Room) -> None:
    frank, ann = Player("f", "Frank"), Player("a", "Ann")
    for player in (frank, ann):
        room.core.players[player.id] = player
    table = await room.create_table(frank, "online", {}, 0, None, "simple")
    await room.join(ann, table.id, 1)
    await room.leave(ann, table.id)
    seat = room.tables[table.id].seats[1]
    assert seat.empty and not seat.away
