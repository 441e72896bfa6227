"""Whoever must act next at a table: a bot, a turn timer, the next match, people taking bots'
seats over when a hand ends, or closing it.

After every change of a table (:meth:`Driver.changed`, a subscriber of the core) the driver
arranges the one thing due next. With several processes only the table's owner does
(:mod:`cardroom.tables.leases`); the others still work out the turn clock their followers'
views show. If a change reaches the owner late, the compare-and-set keeps one history.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
import zlib
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from cardroom.store.db import Change
from cardroom.tables.claims import TableClaims
from cardroom.tables.core import Core
from cardroom.tables.errors import RoomError
from cardroom.tables.model import Game, Table, Thinking
from cardroom.tables.sync import Sync
from cardroom.tables.workers import BotWorkers, Superseded

log = logging.getLogger(__name__)

HandOver = Callable[[Table, int], Awaitable[None]]
"""Seats the bots' successors at a table at a version."""

RESUME_SPREAD_PER_TABLE = 0.01
RESUME_SPREAD_MAX = 3.0
"""After a restart, the restored tables' bots start over up to this many seconds (a hundredth
of a second a table)."""


class Driver:
    """Bots, timers, the next match and abandoned tables, for every table of the process."""

    def __init__(self, core: Core, sync: Sync, workers: BotWorkers,
                 hand_over: HandOver | None = None) -> None:
        self.core, self.sync, self.workers = core, sync, workers
        self.hand_over = hand_over
        """Seats bots' successors when a hand ends (:meth:`Seating.hand_over`)."""
        self.claims = TableClaims(workers)
        """Claims proved by the solver: the bots' own, and players' (the room's)."""
        self.now: Callable[[], float] = time.time
        """The room's clock of days: a daily challenge's table stops when its day ends (tests
        move it)."""
        core.subscribe(self.changed)

    def changed(self, table: Table) -> None:
        """Arrange whoever must act next: a bot, a timer, the next match, the table's closing,
        or nobody (a human's free turn); only if this process owns the table."""
        core, settings = self.core, self.core.settings
        if table.turn_task is not None:
            table.turn_task.cancel()
            table.turn_task = None
        table.deadline = None
        game = table.game
        if table.id not in core.tables:
            return
        if table.challenge_done or self.day_over(table):
            table.closing = True  # the entry's last deal is over, or its day
        if table.closing and (game is None or game.is_over or table.challenge is not None or any(
                e.get("type") == "hand_scored" for e in table.events)):
            self._due(table, self._close(table))
            return
        if game is None:
            return
        if self._hand_over_due(table):
            self._due(table, self._hand_over(table, table.version))
            return
        if game.is_over:
            since = table.match_over_at or table.updated_at
            delay = since + settings.next_match_delay - time.time()
            self._due(table, self._next_match_later(table, table.version, max(0.0, delay)))
            return
        if game.to_act is None:
            return
        seat = table.seats[game.to_act]
        if seat.bot is not None or seat.away:
            self._due(table, self._bot_turn(table, table.version, settings.bot_delay,
                                            ahead=True))
        elif table.turn_seconds is not None:
            table.deadline = table.updated_at + table.turn_seconds
            self._due(table, self._bot_turn(table, table.version,
                                            max(0.0, table.deadline - time.time())))

    def _due(self, table: Table, work: Coroutine[Any, Any, None]) -> None:
        """Run what is due next at the table, if this process owns it (else drop it)."""
        if self.core.leases.owns(table.id):
            table.turn_task = self.core.spawn(work)
        else:
            work.close()

    async def resume(self, tables: list[Table]) -> None:
        """Set the restored tables' bots and timers going again, spread over a moment after
        ``resume_delay``: the players coming back after a restart are served first (a table
        whose player reconnects goes on at once), and the bots of hundreds of tables do not
        all ask the workers at the same instant."""
        core = self.core
        spread = min(RESUME_SPREAD_MAX, len(tables) * RESUME_SPREAD_PER_TABLE)
        due = sorted((random.uniform(0, spread), n) for n in range(len(tables)))
        started = time.monotonic() + core.settings.resume_delay
        for at, number in due:
            await asyncio.sleep(max(0.0, started + at - time.monotonic()))
            table = tables[number]
            if table.id in core.tables and table.turn_task is None:
                self.changed(table)  # the tables this process owns

    def _hand_over_due(self, table: Table) -> bool:
        """A hand (or the match) just ended and someone takes a bot's seat over now."""
        game = table.game
        return (self.hand_over is not None and game is not None
                and any(s.successor is not None for s in table.seats)
                and (game.is_over or any(e.get("type") == "hand_scored" for e in table.events)))

    async def _hand_over(self, table: Table, version: int) -> None:
        """The bots' successors take their seats (unless the table moved on meanwhile, or
        another process took it); the change's announcement arranges what comes next."""
        assert self.hand_over is not None
        if not self.core.leases.owns(table.id):
            return
        try:
            await self.hand_over(table, version)
        except RoomError as error:
            log.error("handing bots' seats over at table %s: %s", table.id, error.message)

    async def _bot_turn(self, table: Table, version: int, delay: float,
                        ahead: bool = False) -> None:
        """After ``delay``, the seat's bot moves, unless the table has moved on meanwhile: a
        claim of the tricks left when the solver proves them its side's and a person waits,
        else its bot's decision. ``ahead``: the delay is a bot's pause, for the players to
        see the last card, so the decision is worked out during it rather than after (a
        person's turn timer is not: they nearly always act first)."""
        if not ahead:
            await asyncio.sleep(delay)
        if not self._turn_due(table, version):
            return
        game = table.game
        assert game is not None and game.to_act is not None
        seat = game.to_act
        name = table.seats[seat].bot or table.bot_level
        deciding = asyncio.shield(self._decision(table, game, seat, name))
        if ahead:
            action, _ = await asyncio.gather(deciding, asyncio.sleep(delay))
        else:
            action = await deciding
        if action is None:
            return  # the table moved on and asked again
        if not self._turn_due(table, version):
            return
        decided = time.perf_counter()
        async with table.lock:
            try:
                result = await self.core.apply(table, seat, action, expected_version=version)
                if result is None:
                    # Another process moved first; what it did reaches us (and our followers).
                    await self.sync.catch_up(table)
                elif result:
                    self.core.metrics.action_latency.observe(time.perf_counter() - decided)
            except RoomError as error:
                log.error("bot %s at table %s seat %s: %s", name, table.id, seat,
                          error.message)

    def _turn_due(self, table: Table, version: int) -> bool:
        """Whether the turn awaited at ``version`` is still to be played here: the table has
        not moved on, someone is to act, and this process still owns it."""
        game = table.game
        return (game is not None and table.version == version and game.to_act is not None
                and self.core.leases.owns(table.id))

    def _decision(self, table: Table, game: Game, seat: int,
                  name: str) -> asyncio.Future[str | None]:
        """The bot's decision at this position of the match: the one being worked out
        already when the table's version moved on but not its game (a player connected or
        went offline during the bot's pause: the turn is arranged again, the thinking goes
        on), else a new one (the one before, for another position, is stopped)."""
        held = table.thinking
        if held is not None and held.serves(game, seat, name):
            return held.answer
        if held is not None:
            held.answer.cancel()
        answer = self.core.spawn(self._decide_unless_superseded(table, seat, name))
        table.thinking = Thinking(game, len(game.actions), seat, name, answer)
        return answer

    async def _decide_unless_superseded(self, table: Table, seat: int,
                                        name: str) -> str | None:
        """:meth:`_decide`, or ``None`` when the workers were asked again for the table
        before they took this one."""
        try:
            return await self._decide(table, seat, name)
        except Superseded:
            return None

    async def _decide(self, table: Table, seat: int, name: str) -> str:
        """The action of the bot ``name`` at ``seat``: a claim where one is proven and a
        person waits, else its decision in the workers."""
        game = table.game
        assert game is not None
        seed = bot_seed(game, table.challenge.salt if table.challenge is not None else "")
        return (await self.claims.bot_claim(table, seat)
                or await self.workers.decide(table.id, name, seed, game.view(seat),
                                             steady=table.challenge is not None))

    async def _next_match_later(self, table: Table, version: int, delay: float) -> None:
        """Seed 004: when a match ends, a new one starts with the same players (unless the
        table moved on meanwhile)."""
        await asyncio.sleep(delay)
        core = self.core

        async def attempt() -> bool:
            if (table.status == "playing" or not all(not s.empty for s in table.seats)
                    or table.challenge_done or self.day_over(table)
                    or not core.leases.owns(table.id)):  # taken over meanwhile
                return True
            game = core.new_game(table, table.seats)
            if not await core.commit(table, core.new_match_change(table, game)):
                return False
            core.begin_match(table, game)
            await core.announce(table, lobby=True)
            return True

        async with table.lock:
            if table.version == version:
                await self.sync.retry(table, attempt)

    def day_over(self, table: Table) -> bool:
        """A daily challenge's table whose day is over: no more actions, no next deal."""
        return table.challenge is not None and table.challenge.ends_at <= self.now()

    # -- abandoned tables -------------------------------------------------------------------------

    async def close_abandoned_tables(self) -> None:
        """Every little while: a table where no seated human has been connected for
        ``abandon_after`` seconds closes, at once if no hand is being played, else when its
        hand is scored (see :meth:`changed`); a daily challenge's is let go of instead (it
        stays open in the store until its day is over)."""
        core = self.core
        abandon_after = core.settings.abandon_after
        every = max(0.05, min(30.0, abandon_after / 4))
        while True:
            await asyncio.sleep(every)
            now = time.monotonic()
            for table in list(core.tables.values()):
                if any(s.player is not None and s.present for s in table.seats):
                    table.human_seen_at = now
                    if table.challenge is None:  # a challenge's closes only when it is done
                        table.closing = False
                elif table.challenge is not None:
                    if not table.closing and now - table.human_seen_at >= abandon_after:
                        # Waits for its player all day, in the store: let go of it here
                        # (see Room.enter_challenge; it closes when its day is over).
                        core.forget(table)
                elif not table.closing and now - table.human_seen_at >= abandon_after:
                    table.closing = True
                    if table.status == "waiting":
                        self.changed(table)

    async def _close(self, table: Table) -> None:
        """Close an abandoned table, or a challenge table that is done (its last deal over,
        or its day), for good (unless a seated human came back to an abandoned one
        meanwhile)."""
        core = self.core

        async def attempt() -> bool:
            if not table.closing or not core.leases.owns(table.id):
                return True
            change = Change(table.id, table.version, time.time())
            change.close = True
            if not await core.commit(table, change):
                return False
            if table.challenge is None:
                log.info("table %s closed: nobody has been connected there for %g s",
                         table.id, core.settings.abandon_after)
            table.turn_task = None  # this task: forgetting the table must not end it
            core.forget(table)
            await core.announce(table, lobby=True, closed=True)
            return True

        async with table.lock:
            await self.sync.retry(table, attempt)


def bot_seed(game: Game, salt: str = "") -> int:
    """The seed of a bot's decision: the match's own seed and how far it has gone (and a
    daily challenge's salt), so that two tables dealt the same cards (a challenge's entries)
    where the same actions were taken get the same decision."""
    return zlib.crc32(f"{salt}:{game.seed}:{len(game.actions)}".encode())
