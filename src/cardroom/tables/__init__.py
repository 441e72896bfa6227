"""The application layer: lobby, tables, seats, players, bots, timers and per-seat views."""

from cardroom.tables.room import Player, Room, RoomError, RoomSettings, Table

__all__ = ["Player", "Room", "RoomError", "RoomSettings", "Table"]
