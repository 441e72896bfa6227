"""An action that cannot be stored is taken back whole: the match is exactly as it was before
it, and the next action is judged against that match."""

from __future__ import annotations

from typing import Any

import pytest

from cardroom.store.db import Change
from cardroom.tables.room import Player, Room, RoomError

NAMES = ["Ann", "Ben", "Cat", "Dan"]


async def _full_table(room: Room) -> tuple[str, list[Player]]:
    """A 500 table of four people whose match has started."""
    players = [(await room.register(name))[0] for name in NAMES]
    table = await room.create_table(players[0], None, {}, 0, None, "random")
    for seat, player in enumerate(players[1:], start=1):
        await room.join(player, table.id, seat)
    assert table.game is not None, "four people seated start the match"
    return table.id, players


def _snapshot(room: Room, table_id: str) -> tuple[Any, ...]:
    """Everything a player could tell about the match: the record and every seat's view."""
    game = room.tables[table_id].game
    return (game.record, [game.view(seat) for seat in range(4)], game.to_act)


@pytest.mark.parametrize("failure", ["lost_race", "database_error"])
async def test_an_action_that_is_not_stored_is_taken_back(
        room: Room, failure: str, monkeypatch: pytest.MonkeyPatch) -> None:
    table_id, players = await _full_table(room)
    table = room.tables[table_id]
    for _ in range(6):  # a few bids in, so the take-back is of a match with a past
        game = table.game
        await room.act(players[game.to_act], table_id, game.legal_actions()[0].text)
    before = _snapshot(room, table_id)
    version = table.version

    async def failing_commit(change: Change) -> bool:
        if failure == "database_error":
            raise OSError("disk full")
        return False

    monkeypatch.setattr(room.core.store, "commit", failing_commit)
    monkeypatch.setattr(room.sync, "catch_up", _nothing_new)
    game = table.game
    actor, action = players[game.to_act], game.legal_actions()[-1].text
    with pytest.raises(RoomError):
        await room.act(actor, table_id, action)
    assert _snapshot(room, table_id) == before
    assert table.version == version
    monkeypatch.undo()
    await room.act(actor, table_id, action)
    assert len(table.game.actions) == len(before[0].actions) + 1


async def _nothing_new(table: object) -> bool:
    """A catch-up that finds the table as it is (another process wrote nothing)."""
    return True
