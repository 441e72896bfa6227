"""The one path every change of a table takes: applied, committed, then announced.

:class:`Core` holds this process's live tables. A change (a player's or bot's action, a seat
change, a new match, a presence change) is written with a compare-and-set on the table's row
version (:meth:`Core.commit`): of two processes making change N, one wins and the other catches
up (:mod:`cardroom.tables.sync`) and tries again. Actions from any source (a player, stored
actions read back, another process's notice) go through :meth:`Core.replay` or
:meth:`Core.apply`, which stamp the acting seat on the events and record a finished match in one
place. After a change, :meth:`Core.announce` tells the subscribers (delivery to connections, the
bot-and-timer driver, the lobby) and the other processes; nothing here schedules a bot or knows
a socket.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
import weakref
from collections.abc import Callable, Iterable
from typing import Any, Protocol

from cardroom.bus import Bus, InProcessBus
from cardroom.games.base import IllegalAction
from cardroom.games.registry import replay
from cardroom.metrics import Metrics
from cardroom.protocol import ErrorCode
from cardroom.store.data import MatchPlayers, MatchSeat
from cardroom.store.db import Change, Store
from cardroom.tables.errors import Moved, RoomError, no_such_table
from cardroom.tables.leases import Leases
from cardroom.tables.model import Game, Player, RoomSettings, Seat, Table
from cardroom.tables.ratings import Rater

log = logging.getLogger(__name__)

TABLE_CHANNEL = "tables"
"""The bus channel of table changes."""
CONFLICT_RETRIES = 8
"""Lost compare-and-sets in a row before a change gives up (``internal``: try again)."""
SCORE_EVENTS = frozenset({"hand_scored", "match_started"})
"""Events after which a table's lobby row changes."""


class Subscriber(Protocol):
    """A part of the room that reacts to every change of a table, in this process."""

    def __call__(self, table: Table) -> None:
        """``table`` changed (here or in another process)."""
        ...


def busy() -> RoomError:
    """The error of a change that lost its race too many times in a row."""
    return RoomError(ErrorCode.INTERNAL, "The table changed too often to keep up; "
                                         "please try again.")


def stamped(events: Iterable[dict[str, Any]], seat: int) -> list[dict[str, Any]]:
    """Events of an action, each naming the seat that acted."""
    return [{"seat": seat, **e} if "seat" not in e else e for e in events]


def match_players(table: Table, winner: int) -> MatchPlayers:
    """Who holds each seat as the match ends (an absent player, not the bot playing for
    them), their sides, and whether the match is rated: at a rated table where a person
    played."""
    side_of = {seat: side for side, seats in enumerate(table.spec.teams(table.rules))
               for seat in seats}
    seats = tuple(MatchSeat(number, seat.player.id if seat.player else None,
                            None if seat.player else seat.bot, side_of[number],
                            side_of[number] == winner)
                  for number, seat in enumerate(table.seats))
    return MatchPlayers(seats, table.rated and any(s.player_id for s in seats),
                        table.settings.private)


def first_dealer(rules: Any, host: int) -> int | None:
    """Who deals a new match's first hand: the ``host``'s seat under rules whose host deals
    first (1000's seed preset), else ``None`` (the rules draw a dealer from the seed)."""
    return host if getattr(rules, "first_dealer", None) == "host" else None


def without_last_action(game: Game) -> Game:
    """The match as it was before its last action, rebuilt from its record. An action that
    could not be committed is taken back this way: the rare failure pays for the replay, so the
    common path copies nothing."""
    record = game.record
    del record.actions[-1]
    del record.seats[len(record.actions):]
    return replay(record)


class Core:
    """This process's live tables and the path of their changes."""

    def __init__(self, store: Store, settings: RoomSettings, bus: Bus | None,
                 metrics: Metrics) -> None:
        self.store = store
        self.settings = settings
        self.bus = bus or InProcessBus()
        self.shared = not isinstance(self.bus, InProcessBus)
        """Other processes may share the tables (a bus between processes)."""
        self.origin = secrets.token_hex(8)
        """Names this process on the bus, so it can skip its own notices, and as the owner
        of its tables."""
        self.leases = Leases(store.leases, self.bus, self.origin, self.shared,
                             settings.lease_seconds)
        """The tables this process owns and drives (alone: every one)."""
        self.metrics = metrics
        self.tables: dict[str, Table] = {}
        self.rater = Rater(store, self.bus, self.origin)
        """Rates finished matches; the ratings the seats show."""
        self.players: weakref.WeakValueDictionary[str, Player] = weakref.WeakValueDictionary()
        """The players this process holds (at a seat, on a connection), by id: one object per
        player, forgotten once nothing holds it."""
        self.counters: dict[str, int] = {"changes": 0, "conflicts": 0, "catch_ups": 0,
                                         "rows_noticed": 0}
        """How this process keeps in step with the others (reported by /api/health)."""
        self._subscribers: list[Subscriber] = []
        self._lobby_watchers: list[Callable[[str], None]] = []
        self._tasks: set[asyncio.Task[Any]] = set()

    # -- subscribers ------------------------------------------------------------------------------

    def subscribe(self, subscriber: Subscriber) -> None:
        """Call ``subscriber`` after every change of any table, in subscription order."""
        self._subscribers.append(subscriber)

    def on_lobby_change(self, changed: Callable[[str], None]) -> None:
        """Call ``changed(table_id)`` whenever a table's lobby row may have changed."""
        self._lobby_watchers.append(changed)

    def notify(self, table_id: str, lobby: bool) -> None:
        """Tell the subscribers that a table changed (and the lobby, if its row did)."""
        table = self.tables.get(table_id)
        if table is not None:
            for subscriber in self._subscribers:
                subscriber(table)
        if lobby:
            self.lobby_changed(table_id)

    def lobby_changed(self, table_id: str) -> None:
        """Tell the lobby that a table's row may have changed (or that it closed)."""
        for changed in self._lobby_watchers:
            changed(table_id)

    async def announce(self, table: Table, lobby: bool, closed: bool = False) -> None:
        """Tell this process's subscribers at once (so every view precedes the ack of the
        action that caused it), then, when its lobby row changed (a seat, a score, the
        match's end, its close), the other processes through the bus: they hold the rows
        of the tables they do not own (:mod:`cardroom.tables.rows`), and nothing of a
        change that leaves the row as it was. Alone, nobody else is to be told."""
        self.notify(table.id, lobby=lobby)
        if not (lobby or closed):
            return
        table.lobby_version = table.version
        if not self.shared:
            return
        notice: dict[str, Any] = {"table_id": table.id, "origin": self.origin,
                                  "version": table.version, "closed": closed}
        if not closed:
            notice["row"] = table.row()
        await self.bus.publish(TABLE_CHANNEL, notice)

    # -- changes ----------------------------------------------------------------------------------

    async def commit(self, table: Table, change: Change) -> bool:
        """Write a change made against the table's version; on success the table is at the
        next version. False: another process changed the table first, or took the table
        from this one (catch up, retry). The owner's writes are fenced by its epoch; a
        process that no longer owns the table writes nothing (:class:`Moved`)."""
        if not self.leases.owns(table.id):
            raise Moved()
        change.epoch = self.leases.epoch(table.id)
        with self.metrics.db_write.time():
            written = await self.store.commit(change)
        if not written:
            self.counters["conflicts"] += 1
            return False
        self.counters["changes"] += 1
        table.version = change.version + 1
        table.updated_at = change.updated_at
        return True

    @staticmethod
    def replay(table: Table, actions: Iterable[tuple[int, int, str, float]],
               record_finish: bool = True) -> list[dict[str, Any]]:
        """Apply actions already stored (``(number, seat, text, created_at)``) to the table's
        match; the events they cause. Actions the match already holds are skipped (a
        catch-up may read what a notice brought). ``record_finish``: a match finished here
        joins the table's finished matches."""
        game = table.game
        events: list[dict[str, Any]] = []
        if game is None:
            return events
        for number, seat, text, created_at in actions:
            if number != len(game.actions):
                continue
            events += stamped(game.apply(text, seat=seat), seat)
            if game.is_over:
                table.match_over_at = created_at
                if record_finish:
                    table.remember_finished_match()
        return events

    async def apply(self, table: Table, seat: int, action: str,
                    expected_version: int | None = None) -> dict[str, Any] | None:
        """Apply, persist and announce one action (the caller holds the table's lock).

        ``None``: another process changed the table meanwhile; nothing was applied. ``{}``:
        the table is no longer at ``expected_version`` (a bot's move that came too late).
        """
        game = table.game
        if game is None or game.is_over:
            raise RoomError(ErrorCode.ILLEGAL_ACTION, "No match is being played here.")
        if expected_version is not None and table.version != expected_version:
            return {}
        if game.to_act != seat:
            raise RoomError(ErrorCode.NOT_YOUR_TURN, "It is not your turn.")
        hands = len(game.history)
        try:
            events = game.apply(action, seat=seat)
        except IllegalAction as error:
            raise RoomError(ErrorCode.ILLEGAL_ACTION, str(error)) from None
        number, text, now = len(game.actions) - 1, game.actions[-1].text, time.time()
        change = Change(table.id, table.version, now,
                        action=(table.match_number, number, seat, text))
        if game.is_over:
            assert game.winner is not None
            change.finish = (table.match_number, game.winner, list(game.scores),
                             [h.to_dict() for h in game.history])
            change.players = match_players(table, game.winner)
        try:
            won = await self.commit(table, change)
        except Moved:
            table.game = without_last_action(game)
            raise
        except Exception:
            table.game = without_last_action(game)
            log.exception("could not store an action at table %s", table.id)
            raise RoomError(ErrorCode.INTERNAL, "The action could not be saved; "
                                                "please try again.") from None
        if not won:
            table.game = without_last_action(game)
            return None
        table.events = stamped(events, seat)
        if game.is_over:
            table.match_over_at = now
            table.remember_finished_match()
            if change.players is not None and change.players.rated:
                self.spawn(self.rater.rate(table.id, table.match_number))
        self.metrics.actions.inc()
        await self.announce(table, lobby=game.is_over or len(game.history) != hands or any(
            e["type"] in SCORE_EVENTS for e in events))
        return {"version": table.version, "action": text, "match": table.match_number,
                "number": number}

    @staticmethod
    def new_game(table: Table, seats: list[Seat]) -> Game:
        """A new match at the table: dealt at random, or a challenge table's next deal.
        Rules whose host deals first (1000's seed preset) have the table's creator deal,
        wherever they sit."""
        host = next((n for n, s in enumerate(seats) if s.player is not None
                     and s.player.id == table.creator_id), 0)
        challenge = table.challenge
        seed = (secrets.randbits(62) if challenge is None
                else challenge.seeds[table.match_number])
        return table.spec.new(table.rules, seed, first_dealer(table.rules, host))

    @staticmethod
    def begin_match(table: Table, game: Game) -> None:
        """The new match is the table's (its change was committed)."""
        table.game, table.match_number, table.match_over_at = game, table.match_number + 1, None
        table.events = [{"type": "match_started", "match": table.match_number,
                         "dealer": game.dealer}]

    def new_match_change(self, table: Table, game: Game) -> Change:
        """The change that starts ``game`` as the table's next match."""
        return Change(table.id, table.version, time.time(),
                      match=(table.match_number + 1, game.seed, game.first_dealer,
                             table.rules.to_dict()))

    def forget(self, table: Table) -> None:
        """The table closed, or this process lets go of it: drop it (its lobby row goes too,
        and its lease: nobody owns it until asked for)."""
        self.drop(table)
        if self.leases.epoch(table.id) is not None:
            self.spawn(self.leases.let_go(table.id))
        self.lobby_changed(table.id)

    def drop(self, table: Table) -> None:
        """Hold the table no more (another process owns it, or it closed): its timers stop,
        and its bots, which find it gone."""
        if self.tables.pop(table.id, None) is not None and table.turn_task is not None:
            table.turn_task.cancel()
        for seat in table.seats:
            if seat.grace_task is not None:
                seat.grace_task.cancel()
                seat.grace_task = None

    def table(self, table_id: str) -> Table:
        """A table held here, or ``no_such_table``."""
        table = self.tables.get(table_id)
        if table is None:
            raise no_such_table()
        return table

    # -- tasks ------------------------------------------------------------------------------------

    def spawn(self, coroutine: Any) -> asyncio.Task[Any]:
        """Run a coroutine of the room's own; its failure is logged, never lost."""
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)
        return task

    async def cancel_tasks(self, wait: float = 5.0) -> None:
        """Stop every task of the room (the server is stopping), and give them ``wait``
        seconds to finish: one cancelled inside a database call must let go of its
        connection before the store closes, or closing the event loop waits for it forever."""
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=wait)

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("room task failed", exc_info=task.exception())
