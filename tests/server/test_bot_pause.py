"""A bot's pause (for the players to see the last card) and its thinking overlap: the bot's
decision is worked out as the pause begins, so a player waits for the longer of the two, not
both. A person's turn timer is not used that way: they nearly always act before it ends."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from cardroom.tables.quotas import QuotaSettings
from cardroom.tables.room import Player, Room, RoomSettings

PAUSE = 5.0
"""Longer than any wait below: a bot that moved would have had to skip it."""


@pytest.fixture
def room_settings() -> RoomSettings:
    return RoomSettings(bot_workers=1, disconnect_grace=3600, default_bot="rules",
                        bot_delay=PAUSE, quotas=QuotaSettings(tables_per_player=100))


def record_decisions(room: Room) -> list[tuple[str, int]]:
    """Every decision asked of the workers from now on: the table and its version then."""
    asked: list[tuple[str, int]] = []
    decide = room.workers.decide

    async def recorded(key: str, *args: Any, **kwargs: Any) -> str:
        asked.append((key, room.tables[key].version))
        return await decide(key, *args, **kwargs)

    room.workers.decide = recorded  # type: ignore[method-assign]
    return asked


async def until(condition: Any, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        await asyncio.sleep(0.02)
    return False


async def test_a_bot_thinks_during_its_pause_and_moves_only_when_it_ends(room: Room) -> None:
    ann = Player("a", "Ann")
    room.core.players[ann.id] = ann
    table = await room.create_table(ann, "online", {}, 0, None, None)
    asked = record_decisions(room)
    await room.start_with_bots(ann, table.id, None)
    game = room.tables[table.id].game
    assert game is not None
    while game.to_act == 0:  # Ann's own calls first, if she is the first to speak
        await room.act(ann, table.id, game.legal_actions()[0].text)
    version = room.tables[table.id].version
    assert await until(lambda: asked, PAUSE / 2), "the bot's decision is asked for at once"
    assert asked == [(table.id, version)]
    assert room.tables[table.id].version == version  # and played only after the pause


async def test_a_persons_turn_timer_asks_for_no_decision_before_it_ends(room: Room) -> None:
    ann, bob = Player("a", "Ann"), Player("b", "Bob")
    room.core.players.update({ann.id: ann, bob.id: bob})
    table = await room.create_table(ann, "online", {}, 0, 60.0, None)
    asked = record_decisions(room)
    await room.join(bob, table.id, 1)
    await room.start_with_bots(ann, table.id, None)
    game = room.tables[table.id].game
    assert game is not None
    await until(lambda: game.to_act in (0, 1), PAUSE * 4)  # the bots' calls are paused
    assert game.to_act in (0, 1)
    assert not await until(lambda: any(version == room.tables[table.id].version
                                       for _, version in asked), 1.0)


class Tab:
    """A connection following the table (what it is sent is not looked at here)."""

    def deliver(self, message: Any) -> None:
        pass


async def test_a_player_going_offline_during_a_bots_pause_does_not_start_its_thinking_again(
        room: Room) -> None:
    """Ann's tab closes while a bot pauses: the table's version moves on (she is offline),
    its game does not, and the bot plays the decision already asked for when the pause
    ends, without asking the workers again."""
    ann = Player("a", "Ann")
    room.core.players[ann.id] = ann
    table = await room.create_table(ann, "online", {}, 0, None, None)
    tab = Tab()
    await room.open(tab, ann, table.id)
    positions: list[int] = []  # how many actions the match had at each decision asked
    decide = room.workers.decide

    async def recorded(key: str, *args: Any, **kwargs: Any) -> str:
        game = room.tables[key].game
        positions.append(len(game.actions) if game is not None else -1)
        return await decide(key, *args, **kwargs)

    room.workers.decide = recorded  # type: ignore[method-assign]
    await room.start_with_bots(ann, table.id, None)
    game = room.tables[table.id].game
    assert game is not None
    while game.to_act == 0:
        await room.act(ann, table.id, game.legal_actions()[0].text)
    actions = len(game.actions)
    assert await until(lambda: actions in positions, PAUSE / 4), "the bot thinks at once"
    version = room.tables[table.id].version
    room.disconnect(tab)
    assert await until(lambda: room.tables[table.id].version != version, PAUSE / 4)
    assert game.to_act != 0 and len(game.actions) == actions  # offline, mid-pause
    assert await until(lambda: len(game.actions) > actions, PAUSE * 3), "the bot moved"
    assert positions.count(actions) == 1
