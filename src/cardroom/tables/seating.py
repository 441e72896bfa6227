"""Seats: taking and leaving them, bots seated by the creator, the start.

Each seat change is checked against fresh state and written with the table's compare-and-set;
the match starts when every seat is filled, and the table closes when its last human leaves.
Leaving during a match keeps the seat for its player but hands it to a bot at once.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Awaitable, Callable

from cardroom.bots import BOT_NAMES
from cardroom.protocol import ErrorCode
from cardroom.store.data import TableSettings
from cardroom.store.db import Change
from cardroom.tables.core import CONFLICT_RETRIES, Core, busy
from cardroom.tables.errors import Moved, RoomError, no_such_table
from cardroom.tables.model import Player, Seat, Table, invite_matches
from cardroom.tables.sync import Sync

SeatCheck = Callable[[], dict[int, Seat]]
"""Checks a request against the table as it stands and returns the seats it changes (or
raises the :class:`RoomError` that refuses it)."""


class Seating:
    """The seat verbs of the room."""

    def __init__(self, core: Core, sync: Sync) -> None:
        self.core, self.sync = core, sync
        self.promised: Callable[[str], bool] = lambda player_id: False
        """Whether a player is to take a bot's seat over somewhere in the room (the room
        sets it: :meth:`TableRows.promised`)."""

    async def join(self, player: Player, table: Table, seat: int,
                   invite: str | None = None) -> None:
        """Take a free seat before the match starts; at an open table being played, take a
        bot's seat over when the hand being played ends (:meth:`hand_over`). A private
        table, a seat kept for a friend and the invite's own side need the table's
        ``invite``."""

        def check() -> dict[int, Seat]:
            if not table.reachable_by(player, invite):
                raise no_such_table()
            if table.seat_of(player) is not None:
                raise RoomError(ErrorCode.SEAT_TAKEN, "You already sit at this table.")
            check_seat_number(seat, len(table.seats))
            invited = invite_matches(table.settings.invite, invite)
            side = table.settings.invite_side
            if invited and side is not None and seat not in table.spec.teams(table.rules)[side]:
                raise RoomError(ErrorCode.SEAT_TAKEN, "Your invitation is for a seat of the "
                                                      "other side.")
            if table.status == "playing":
                return {seat: self._successor(table, seat, player)}
            state = table.seats[seat]
            if not state.empty:
                raise RoomError(ErrorCode.SEAT_TAKEN, f"Seat {seat} is taken.")
            if state.reserved and not invited:
                raise RoomError(ErrorCode.SEAT_TAKEN, "That seat is kept for a friend of the "
                                                      "table's creator.")
            return {seat: Seat(player=player)}

        await self._change_seats(table, check)

    async def hand_over(self, table: Table, version: int) -> None:
        """The hand ended: each bot that has a successor gives its seat to that player
        (unless the table moved on meanwhile, or the player sat elsewhere there since). A
        successor not following the table here is away at once, so a bot goes on playing
        for them until they open it (a promise nobody keeps never stops a table). The next
        match does not start early for it."""

        def check() -> dict[int, Seat]:
            if table.version != version:
                return {}
            following = {p.id for p in table.listeners.values() if p is not None}
            return {n: Seat(player=s.successor, away=s.successor.id not in following)
                    for n, s in enumerate(table.seats)
                    if s.successor is not None and s.player is None
                    and table.seat_of(s.successor) is None}

        await self._change_seats(table, check, may_start=False)

    def _successor(self, table: Table, seat: int, player: Player) -> Seat:
        """The seat with ``player`` to take it over from its bot when the hand ends: only a
        bot's own seat (not an absent player's), not already promised to someone else, and
        only one such promise per player in the whole room (one account cannot hold every
        bot's seat)."""
        state = table.seats[seat]
        if state.player is not None or state.bot is None:
            raise RoomError(ErrorCode.TABLE_STARTED, "The match has started: only a bot's "
                                                     "seat can be taken over.")
        if state.successor is not None:
            raise RoomError(ErrorCode.SEAT_TAKEN, f"{state.successor.name} takes that seat "
                                                  "over at the next hand.")
        if self.promised(player.id):
            raise RoomError(ErrorCode.SEAT_TAKEN, "You take another seat over at the next "
                                                  "hand: leave that table first.")
        return dataclasses.replace(state, successor=player)

    async def reserve(self, player: Player, table: Table, seat: int, reserved: bool) -> None:
        """The creator keeps an empty seat for a friend (no bot or stranger takes it), or
        frees it again."""

        def check() -> dict[int, Seat]:
            _check_creator(table, player)
            _check_not_challenge(table)
            check_seat_number(seat, len(table.seats))
            state = table.seats[seat]
            if reserved and (table.status == "playing" or not state.empty):
                raise RoomError(ErrorCode.SEAT_TAKEN, "Only an empty seat of a table that "
                                                      "is waiting can be kept for a friend.")
            return {seat: dataclasses.replace(state, reserved=reserved)}

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
                return _give_up_succession(table, player)
            _check_not_challenge(table)
            if table.status == "playing":
                return {number: dataclasses.replace(table.seats[number], away=True)}
            return {number: Seat()}

        await self._change_seats(table, check)

    async def add_bot(self, player: Player, table: Table, seat: int, bot: str | None) -> None:
        """The creator seats a bot before the start (``None``: the table's bot)."""
        bot = bot or table.bot_level

        def check() -> dict[int, Seat]:
            _check_creator(table, player)
            _check_not_challenge(table)
            _check_seating_open(table)
            check_bot_name(bot)
            check_seat_number(seat, len(table.seats))
            if not table.seats[seat].open:
                raise RoomError(ErrorCode.SEAT_TAKEN, f"Seat {seat} is taken or kept for a "
                                                      "friend.")
            return {seat: Seat(bot=bot)}

        await self._change_seats(table, check)

    async def start_with_bots(self, player: Player, table: Table, bot: str | None) -> None:
        """The creator fills every empty seat with a bot (``None``: the table's); the match
        starts."""
        bot = bot or table.bot_level

        def check() -> dict[int, Seat]:
            _check_creator(table, player)
            _check_not_challenge(table)
            _check_seating_open(table)
            check_bot_name(bot)
            return {n: Seat(bot=bot) for n, s in enumerate(table.seats) if s.open}

        await self._change_seats(table, check)

    async def seat_challenge(self, player: Player, table: Table, seat: int) -> None:
        """Seat a daily challenge's player and its bots (the table's) in one change, which
        starts its first deal; nothing if they sit there already. Nobody, the player neither,
        chooses a challenge's bots (see :func:`_check_not_challenge`)."""

        def check() -> dict[int, Seat]:
            if table.game is not None:
                return {}
            wanted = {n: Seat(player=player) if n == seat else Seat(bot=table.bot_level)
                      for n in range(len(table.seats))}
            return {n: state for n, state in wanted.items()
                    if (table.seats[n].player, table.seats[n].bot) != (state.player, state.bot)}

        await self._change_seats(table, check)

    async def _change_seats(self, table: Table, check: SeatCheck,
                            may_start: bool = True) -> None:
        """Seat changes checked by ``check`` (which returns them) against fresh state; the
        match starts when every seat is filled (if ``may_start``), the table closes when the
        last human leaves. No changes: nothing is written."""

        async def attempt() -> bool:
            changes = check()
            return not changes or await self._write_seats(table, changes, may_start)

        await self.settle(table, attempt)

    async def change_settings(self, player: Player, table: Table,
                              make: Callable[[TableSettings], TableSettings]) -> TableSettings:
        """The creator changes the table's settings (``make`` gives the new ones from the
        current); everybody following it, and the lobby, hear of it."""
        core = self.core
        settings = table.settings

        async def attempt() -> bool:
            nonlocal settings
            _check_creator(table, player)
            _check_not_challenge(table)
            settings = make(table.settings)
            if settings == table.settings:
                return True
            if not await core.commit(table, Change(table.id, table.version, time.time(),
                                                   settings=settings)):
                return False
            table.settings = settings
            table.events = [{"type": "settings"}]
            await core.announce(table, lobby=True)
            return True

        await self.settle(table, attempt)
        return settings

    async def settle(self, table: Table, attempt: Callable[[], Awaitable[bool]]) -> None:
        """Run ``attempt`` under the table's lock until it is written (it returns False when
        its compare-and-set lost): a refusal made on what may be another process's stale
        state is checked again after catching up."""
        core = self.core
        async with table.lock:
            fresh = not core.shared
            for _ in range(CONFLICT_RETRIES):
                if table.id not in core.tables:
                    # Let go of meanwhile: closed, or (shared) moved to another process.
                    raise Moved() if core.shared else no_such_table()
                try:
                    written = await attempt()
                except Moved:
                    raise
                except RoomError:
                    if fresh:
                        raise
                    await self.sync.catch_up(table)  # refused on what may be stale state
                    fresh = True
                    continue
                if written:
                    return
                await self.sync.catch_up(table)
            raise busy()

    async def _write_seats(self, table: Table, changes: dict[int, Seat],
                           may_start: bool = True) -> bool:
        """Commit seat changes (and the match they complete, or the table's closing); False
        if another process changed the table first."""
        core = self.core
        seats = [changes.get(n, s) for n, s in enumerate(table.seats)]
        change = Change(table.id, table.version, time.time(),
                        seats={n: s.stored() for n, s in changes.items()})
        close = change.close = all(s.player is None for s in seats)
        game = None
        if (may_start and not close and all(not s.empty for s in seats)
                and table.status == "waiting"):
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
            table.sent.pop(listener, None)


def _give_up_succession(table: Table, player: Player) -> dict[int, Seat]:
    """A player who was to take a bot's seat over at the next hand changed their mind (or
    ``not_at_table``: they neither sit here nor were to)."""
    for number, state in enumerate(table.seats):
        if state.successor is not None and state.successor.id == player.id:
            return {number: dataclasses.replace(state, successor=None)}
    raise RoomError(ErrorCode.NOT_AT_TABLE, "You do not sit at this table.")


def _check_not_challenge(table: Table) -> None:
    """Refuse a change of a daily challenge's table: its player plays every deal, nobody
    else may reach it before the day is over, and it stays that way."""
    if table.challenge is not None:
        raise RoomError(ErrorCode.CHALLENGE_TABLE, "This is a daily challenge's table: you "
                        "play its deals yourself, and it stays private. Close the page to "
                        "stop; your seat waits for you until the day is over.")


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
