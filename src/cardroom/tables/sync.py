"""Keeping this process's tables in step with the store and with the other processes.

Several server processes may share the tables (PostgreSQL and Redis). Each holds the tables
it owns (:mod:`cardroom.tables.leases`), loaded from the store when it takes them; of the
others it keeps their rows (:mod:`cardroom.tables.rows`), which each table's notices bring. The
owner tells the others of a change only when the table's lobby row changes: no process
replays another's actions. Should another process's change of a table held here come (the
table changed hands), the table is read again from the action log (:meth:`Sync.catch_up`).
A periodic sweep compares every held table's version with the database in case the bus lost
a notice, and hands the open tables' versions to the rows.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from cardroom.games.registry import GAMES
from cardroom.store.data import StoredSeat, StoredTable
from cardroom.tables.core import CONFLICT_RETRIES, TABLE_CHANNEL, Core
from cardroom.tables.errors import Moved
from cardroom.tables.model import (
    MATCHES_SHOWN,
    ChallengeTable,
    Player,
    Seat,
    Table,
    match_summary,
    remember_match,
)

log = logging.getLogger(__name__)

SWEEP = 5.0
"""Seconds between two comparisons of every table's version with the database: the bus may
lose a notice (Redis pub/sub delivers at most once), the sweep catches up what it missed."""


class Sync:
    """Loads tables from the store and follows the other processes' changes."""

    def __init__(self, core: Core) -> None:
        self.core = core
        self.elsewhere: Callable[[dict[str, Any]], None] = lambda notice: None
        """Told of each change of a table this process does not hold (its row changed)."""
        self.versions: Callable[[dict[str, int]], Awaitable[None]] | None = None
        """Told, at each sweep, of every open table's version in the database."""
        core.bus.subscribe(TABLE_CHANNEL, self._on_table_notice)

    # -- loading ----------------------------------------------------------------------------------

    async def restore(self, stored: StoredTable) -> Table:
        """A live table from the stored one: its seats, finished matches and current match."""
        spec = GAMES[stored.game]
        rules = spec.rules_from_dict(stored.rules)
        table = Table(id=stored.id, rules=rules, bot_level=stored.bot,
                      turn_seconds=stored.turn_seconds, creator_id=stored.creator_id,
                      seats=[Seat() for _ in range(spec.players(rules))],
                      updated_at=stored.updated_at, match_number=stored.match_number,
                      version=stored.version, game_name=spec.name, hints=stored.hints,
                      settings=stored.settings, rated=stored.rated, ratings=self.core.rater,
                      challenge=ChallengeTable.from_dict(stored.challenge))
        await self._load_into(table, stored)
        return table

    async def _load_into(self, table: Table, stored: StoredTable) -> list[dict[str, Any]]:
        """Bring a table in memory up to the stored one; the events of the actions it missed.

        ``stored`` is either the whole table or, on the same match, only the later actions
        (see :meth:`Store.load_table`).
        """
        await self._seat_players(table, stored)
        events: list[dict[str, Any]] = []
        same_match = table.game is not None and table.match_number == stored.match_number
        if not same_match:
            table.finished = []
            for m in stored.finished[-MATCHES_SHOWN:]:
                remember_match(table.finished,
                               match_summary(m.number, m.winner, m.scores, m.history))
            table.game, table.match_over_at = None, None
            if stored.match is not None:
                spec = table.spec
                table.game = spec.new(spec.rules_from_dict(stored.match.rules),
                                      seed=stored.match.seed, first_dealer=stored.match.dealer)
                events.append({"type": "match_started", "match": stored.match_number,
                               "dealer": table.game.dealer})
        game = table.game
        if game is not None:
            events += self.core.replay(
                table, ((a.number, a.seat, a.action, a.created_at) for a in stored.actions),
                record_finish=same_match)
            if game.is_over and table.match_over_at is None:
                table.match_over_at = stored.match.finished_at if stored.match else None
        table.match_number = stored.match_number
        table.settings = stored.settings
        table.version = table.lobby_version = stored.version
        table.updated_at = stored.updated_at
        return events

    async def _seat_players(self, table: Table, stored: StoredTable) -> None:
        """The stored seats: who sits where, bots, and who a bot plays for."""
        players = self.core.players
        wanted = {pid for s in stored.seats for pid in (s.player_id, s.successor_id) if pid}
        # Held here while the seats are filled: the room's own map forgets a player nothing
        # else holds, and a player just read from the store is held by nothing else yet.
        held = {pid: players.get(pid) for pid in wanted}
        missing = [pid for pid, player in held.items() if player is None]
        for found in (await self.core.store.players(missing)).values():
            held[found.id] = players.setdefault(found.id, Player(found.id, found.name))
        await self.core.rater.load_players(wanted)
        for number, state in enumerate(table.seats):
            seat = stored.seats[number] if number < len(stored.seats) else StoredSeat()
            state.player = held.get(seat.player_id) if seat.player_id else None
            state.bot, state.away, state.reserved = seat.bot, seat.away, seat.reserved
            state.successor = held.get(seat.successor_id) if seat.successor_id else None

    async def catch_up(self, table: Table) -> bool:
        """Read what other processes did to this table since our version (the caller holds
        its lock); tell this process's subscribers. False if the table is gone."""
        core = self.core
        game = table.game
        stored = await core.store.load_table(
            table.id, table.match_number if game is not None else None,
            len(game.actions) if game is not None else 0)
        if stored is None or stored.closed:
            core.forget(table)
            return False
        if core.leases.observe(stored):
            log.info("table %s was taken over by another process", table.id)
        if stored.version == table.version:
            return True
        core.counters["catch_ups"] += 1
        table.events = await self._load_into(table, stored)
        core.notify(table.id, lobby=True)
        return True

    async def retry(self, table: Table, attempt: Callable[[], Awaitable[bool]]) -> bool:
        """Run ``attempt`` (the caller holds the table's lock) until it is done: it returns
        False when its compare-and-set lost to another process, which is caught up with
        before the next try. False if the table closed or the races never ended."""
        for _ in range(CONFLICT_RETRIES):
            if table.id not in self.core.tables:
                return False
            try:
                if await attempt():
                    return True
            except Moved:
                return False
            if not await self.catch_up(table):
                return False
        return False

    async def get_table(self, table_id: str) -> Table:
        """A table held here, or (shared) one this process has just taken and not loaded yet."""
        core = self.core
        if table_id not in core.tables and core.shared:
            stored = await core.store.load_table(table_id)
            if stored is not None and not stored.closed:
                await self._adopt(stored)
        return core.table(table_id)

    async def read(self, table_id: str) -> Table | None:
        """A table as it stands, to look at: the one held here, else (shared: another
        process owns it) read back from the store without being held; ``None`` if there is
        none open."""
        held = self.core.tables.get(table_id)
        if held is not None or not self.core.shared:
            return held
        stored = await self.core.store.load_table(table_id)
        return None if stored is None or stored.closed else await self.restore(stored)

    async def load(self, table_id: str) -> Table | None:
        """A table held here, or else read from the store and held from now on (one that
        was let go of, or another process made); ``None`` if there is none open."""
        held = self.core.tables.get(table_id)
        if held is not None:
            return held
        stored = await self.core.store.load_table(table_id)
        if stored is None or stored.closed:
            return None
        return await self._adopt(stored) or self.core.tables.get(table_id)

    async def _adopt(self, stored: StoredTable) -> Table | None:
        """Hold a table first heard of now; ``None`` if another task adopted it meanwhile
        (theirs is kept: one object per table, or followers would hang on a copy)."""
        table = await self.restore(stored)
        if stored.id in self.core.tables:
            return None
        self.core.tables[stored.id] = table
        return table

    # -- other processes --------------------------------------------------------------------------

    async def _on_table_notice(self, notice: dict[str, Any]) -> None:
        """A notice from the bus: ours were delivered already; another process's change is
        handled in a task of its own, so one busy table does not hold up the others' notices
        (a table's notices still take its lock in the order they came: asyncio's locks are
        first come, first served)."""
        if notice.get("origin") != self.core.origin:
            self.core.spawn(self.apply_notice(notice))

    async def apply_notice(self, notice: dict[str, Any]) -> None:
        """Another process's change of a table's lobby row: the row is kept when the table
        is held elsewhere; a table held here that another process changed (it changed
        hands) is read again from the database, and its row kept once it is let go of."""
        core = self.core
        table_id = notice["table_id"]
        table = core.tables.get(table_id)
        if table is None:
            self.elsewhere(notice)
            return
        async with table.lock:
            if notice.get("closed"):
                core.forget(table)
                core.notify(table_id, lobby=True)
                return
            if core.tables.get(table_id) is table and notice.get("version", 0) > table.version:
                await self.catch_up(table)
        if core.tables.get(table_id) is not table:
            self.elsewhere(notice)  # let go of meanwhile: the new owner's row is kept

    async def sweep(self) -> None:
        """Catch up every table held here whose version in the database differs from ours,
        and the rows of the others (every :data:`SWEEP` seconds)."""
        core = self.core
        while True:
            await asyncio.sleep(SWEEP)
            try:
                versions = await core.store.table_versions()
                for table_id, version in versions.items():
                    table = core.tables.get(table_id)
                    if table is None:
                        continue
                    if version != table.version and not table.lock.locked():
                        async with table.lock:
                            await self.catch_up(table)
                for table_id in set(core.tables) - set(versions):
                    table = core.tables[table_id]
                    async with table.lock:
                        await self.catch_up(table)
                if self.versions is not None:
                    await self.versions(await core.store.table_versions(challenges=False))
            except Exception:
                log.exception("sweeping the tables' versions")
