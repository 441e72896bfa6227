"""Fixtures of the server tests: a card room run in the test's own event loop, without a
server process (the server process itself is ``tests/conftest.py``'s ``server``)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from cardroom.store.db import Store
from cardroom.tables.quotas import QuotaSettings
from cardroom.tables.room import Room, RoomSettings


@pytest.fixture
def room_settings() -> RoomSettings:
    """The settings of :func:`room`: one bot worker, quick bots at tables that name none, a
    disconnected player's seat kept for an hour, and table quotas no test reaches. A test
    module changes them by defining its own ``room_settings`` fixture."""
    return RoomSettings(bot_workers=1, disconnect_grace=3600, default_bot="simple",
                        quotas=QuotaSettings(tables_per_player=10_000, tables=100_000))


@pytest.fixture
async def room(tmp_path: Path, room_settings: RoomSettings) -> AsyncIterator[Room]:
    """A started room on a SQLite file of its own, with :func:`room_settings`; stopped and its
    store closed at the end."""
    store = await Store.open(f"sqlite:///{tmp_path / 'room.sqlite3'}")
    room = Room(store, room_settings)
    await room.start()
    try:
        yield room
    finally:
        await room.stop()
        await store.close()
