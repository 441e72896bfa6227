"""Seats: taking and leaving them, bots seated by the creator, the start.

Each seat change is checked against fresh state and written with the table's compare-and-set;
the match starts when every seat is filled, and the table closes when its last human leaves.
Leaving during a match keeps the seat for its player but hands it to a bot at once.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable

from cardroom.bots import BOT_NAMES
from cardroom.protocol import ErrorCode
from cardroom.store.db import Change
from cardroom.tables.core import CONFLICT_RETRIES, Core, busy
from cardroom.tables.errors import RoomError
from cardroom.tables.model import Player, Seat, Table
from cardroom.tables.sync import Sync

SeatCheck = Callable[[], dict[int, Seat]]
"""Checks a request against the table as it stands and returns the seats it changes (or
raises the :class:`RoomError` that refuses it)."""


class Seating:
    """The seat verbs of the room."""

    def __init__(self, core: Core, sync: Sync) -> None:
        self.core, self.sync = core, sync

    async def join(self, player: Player, table: Table, seat: int) -> None:
        """Take a free seat before the match starts."""

        def check() -> dict[int, Seat]:
            _check_seating_open(table)
            if table.seat_of(player) is not None:
                raise RoomError(ErrorCode.SEAT_TAKEN, "You already sit at this table.")
            check_seat_number(seat, len(table.seats))
            if not table.seats[seat].empty:
                raise RoomError(ErrorCode.SEAT_TAKEN, f"Seat {seat} is taken.")
            return {seat: Seat(player=player)}

        await self._change_seats(table, check)

    async def leave(self, player: Player, table: Table) -> None:
        """Leave a table. Before a match the seat is free again. During one the player keeps
        the seat (the match goes on with its sides), but a bot plays it from now on, as after
        a lost connection's grace period: one who chose to leave is not coming back soon, so
        nobody waits for them. Their connections stop following the table, so a tab left
        open on the lobby counts neither as present nor for the table's abandonment; opening
        the table again brings them back to their seat, as after a lost connection."""

        def check() -> dict[int, Seat]:
            number = table.seat_of(player)
            if number is None:
                raise RoomError(ErrorCode.NOT_AT_TABLE, "You do not sit at this table.")
            if table.status == "playing":
                return {number: dataclasses.replace(table.seats[number], away=True)}
            return {number: Seat()}

        await self._change_seats(table, check)

    async def add_bot(self, player: Player, table: Table, seat: int, bot: str | None) -> None:
        """The creator seats a bot before the start (``None``: the table's bot)."""
        bot = bot or table.bot_level

        def check() -> dict[int, Seat]:
            _check_creator(table, player)
            _check_seating_open(table)
            check_bot_name(bot)
            check_seat_number(seat, len(table.seats))
            if not table.seats[seat].empty:
                raise RoomError(ErrorCode.SEAT_TAKEN, f"Seat {seat} is taken.")
            return {seat: Seat(bot=bot)}

        await self._change_seats(table, check)

    async def start_with_bots(self, player: Player, table: Table, bot: str | None) -> None:
        """The creator fills every empty seat with a bot (``None``: the table's); the match
        starts."""
        bot = bot or table.bot_level

        def check() -> dict[int, Seat]:
            _check_creator(table, player)
            _check_seating_open(table)
            check_bot_name(bot)
            return {n: Seat(bot=bot) for n, s in enumerate(table.seats) if s.empty}

        await self._change_seats(table, check)

    async def _change_seats(self, table: Table, check: SeatCheck) -> None:
        """Seat changes checked by ``check`` (which returns them) against fresh state; the
        match starts when every seat is filled, the table closes when the last human leaves."""
        core = self.core
        async with table.lock:
            fresh = not core.shared
            for _ in range(CONFLICT_RETRIES):
                if table.id not in core.tables:
                    raise RoomError(ErrorCode.NO_SUCH_TABLE, "That table has closed.")
                try:
                    changes = check()
                except RoomError:
                    if fresh:
                        raise
                    await self.sync.catch_up(table)  # refused on what may be stale state
                    fresh = True
                    continue
                if await self._write_seats(table, changes):
                    return
                await self.sync.catch_up(table)
            raise busy()

    async def _write_seats(self, table: Table, changes: dict[int, Seat]) -> bool:
        """Commit seat changes (and the match they complete, or the table's closing); False
        if another process changed the table first."""
        core = self.core
        seats = [changes.get(n, s) for n, s in enumerate(table.seats)]
        change = Change(table.id, table.version, time.time(),
                        seats={n: (s.player.id if s.player else None, s.bot, s.away)
                               for n, s in changes.items()})
        close = change.close = all(s.player is None for s in seats)
        game = None
        if not close and all(not s.empty for s in seats) and table.status == "waiting":
            game = core.new_game(table, seats)
            change.match = core.new_match_change(table, game).match
        if not await core.commit(table, change):
            return False
        table.seats = seats
        away = [n for n, s in changes.items() if s.away]
        table.events = [{"type": "away", "seat": n} for n in away] or [{"type": "seats"}]
        for number in away:
            _stop_following(table, seats[number].player)
        if game is not None:
            core.begin_match(table, game)
        if close:
            core.forget(table)
        await core.announce(table, lobby=True, closed=close)
        return True


def _stop_following(table: Table, player: Player | None) -> None:
    """The player's connections no longer follow the table: the followers' next count of the
    seat's connections (after the announcement) finds none, without an offline notice."""
    for listener, follower in list(table.listeners.items()):
        if player is not None and follower is not None and follower.id == player.id:
            del table.listeners[listener]


def _check_creator(table: Table, player: Player) -> None:
    """The table's creator, seated there: one who left gives up seating bots and starting,
    unless they sit down again."""
    if table.creator_id != player.id:
        raise RoomError(ErrorCode.NOT_CREATOR,
                        "Only the player who created the table may seat bots.")
    if table.seat_of(player) is None:
        raise RoomError(ErrorCode.NOT_CREATOR,
                        "You left this table: sit down again to seat bots or start.")


def _check_seating_open(table: Table) -> None:
    if table.status == "playing":
        raise RoomError(ErrorCode.TABLE_STARTED, "The match has started: seats are set.")


def check_seat_number(seat: int, seats: int) -> None:
    """``seat`` is one of a table's ``seats`` (``bad_message`` if not)."""
    if not 0 <= seat < seats:
        raise RoomError(ErrorCode.BAD_MESSAGE,
                        f"This table has seats 0 to {seats - 1}, not {seat}.")


def check_bot_name(bot: str) -> None:
    """``bot`` is a registry bot's name (``bad_message`` if not)."""
    if bot not in BOT_NAMES:
        raise RoomError(ErrorCode.BAD_MESSAGE,
                        f"Unknown bot {bot!r}; choose one of: {', '.join(BOT_NAMES)}.")
