"""The card room: players, the lobby, tables, seats, bots, timers and per-seat views.

This is the application layer. It owns every live :class:`Table`, checks who may do what,
writes every accepted action to the store *before* anybody hears of it, and fans out each
change as per-seat views (``Game.view(seat)``, never hand-built). It knows no HTTP: the web
layer hands it :class:`Listener` objects and :class:`Player` identities.

Several server processes may share the tables (PostgreSQL and Redis). Each process holds every
open table in memory, and every change of a table is written with a compare-and-set on the
table's row version (:meth:`Store.commit`): of two processes making change N, one wins; the
other reloads what it missed from the database (:meth:`Room._catch_up`) and tries again on
fresh state. The winner tells the others over the bus, with the action, so they usually apply
it without reading the database. The process that made the last change drives the table's bots
and timers; the others stand by and take over if nothing happens for ``takeover_delay`` (the
driver may have died); if both act, the compare-and-set keeps only one.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import random
import secrets
import time
import zlib
from dataclasses import dataclass, field
from typing import Any, Protocol

from cardroom.bots import BOT_NAMES
from cardroom.bus import Bus, InProcessBus
from cardroom.games.base import IllegalAction
from cardroom.games.registry import DEFAULT_GAME, GAMES, GameSpec
from cardroom.metrics import Metrics, RoomState
from cardroom.protocol import (
    ErrorCode,
    SeatInfo,
    TableSummary,
)
from cardroom.store.db import Change, Store, StoredTable
from cardroom.store.models import BugRow, TableRow
from cardroom.tables.errors import RoomError
from cardroom.tables.hints import suggest
from cardroom.tables.lobby import PAGE_LIMIT, LobbyFeed
from cardroom.tables.quotas import Quotas, QuotaSettings
from cardroom.tables.workers import BotWorkers, Superseded

log = logging.getLogger(__name__)

TABLE_CHANNEL = "tables"
PRESENCE_CHANNEL = "presence"
Game = Any
"""A match of any game of the registry (``cardroom.games.base.Game`` and its record)."""
Rules = Any
"""The rules of any game of the registry."""
HEARTBEAT = 2.0
"""Seconds between a process's reports of which seats it holds connections for."""
SWEEP = 5.0
"""Seconds between two comparisons of every table's version with the database: the bus may
lose a notice (Redis pub/sub delivers at most once), the sweep catches up what it missed."""
PRESENCE_TTL = 7.0
"""A process not heard from for this long is taken for dead: its connections are gone."""
CONFLICT_RETRIES = 8
RESUME_SPREAD_PER_TABLE = 0.01
RESUME_SPREAD_MAX = 3.0
"""After a restart, the restored tables' bots start over up to this many seconds (a hundredth
of a second a table)."""
MATCHES_SHOWN = 20
"""Finished matches a table message lists (their results; the last one's hands too)."""
MAX_FOLLOWED = 8
"""Tables one connection may follow at once (a player at several tables, a spectator)."""


@dataclass(frozen=True)
class Player:
    """A registered player, as proven by their token."""

    id: str
    name: str


class Listener(Protocol):
    """A connection following a table or the lobby (the web layer implements it)."""

    def deliver(self, message: dict[str, Any]) -> None:
        """Queue a message for sending; must not block."""
        ...


@dataclass
class RoomSettings:
    """Timings of the room (seconds). Tests shorten them; the defaults suit people."""

    disconnect_grace: float = 120.0
    """How long a disconnected player's seat waits before a bot plays it."""
    bot_delay: float = 0.8
    """Pause before a bot acts, so people can follow the play."""
    next_match_delay: float = 5.0
    """Pause between the end of a match and the next one at the same table."""
    bot_workers: int = 2
    """Worker processes that run bots' decisions, so a thinking bot never holds up the event
    loop (a thread would: bots are pure Python and hold the interpreter lock)."""
    takeover_delay: float = 2.0
    """With several processes: how long past its due time a bot move, timer or next match
    waits for the process that drives the table before another process makes it instead."""
    bot_budget: float = 10.0
    """Seconds one bot decision may take: past it the worker is replaced and a quick bot
    decides instead."""
    resume_delay: float = 1.0
    """After a restart: how long the restored tables' bots wait for their players to
    reconnect before they play on (see :meth:`Room._resume`)."""
    min_turn_seconds: float = 5.0
    """The shortest turn timer a table may have (a shorter one only makes bots play for
    people who had no time to act, and keeps the bot workers busy)."""
    abandon_after: float = 600.0
    """A table where no seated human has been connected for this long finishes its hand
    and closes (bots do not play on for nobody, nor come back at every restart)."""
    quotas: QuotaSettings = field(default_factory=QuotaSettings)
    """What one player or address may do, and how many tables there may be."""


@dataclass
class Seat:
    """A seat: a human player, a bot, or empty; plus the human's connection state."""

    player: Player | None = None
    bot: str | None = None
    listeners: int = 0
    """This process's connections following the table from this seat."""
    remote: bool = False
    """Another live process holds a connection for this seat."""
    away: bool = False
    grace_task: asyncio.Task[None] | None = None

    @property
    def present(self) -> bool:
        """The seated human has a connection in some process."""
        return self.listeners > 0 or self.remote

    @property
    def empty(self) -> bool:
        """Nobody sits here."""
        return self.player is None and self.bot is None

    def info(self, number: int) -> dict[str, Any]:
        """What everybody may know of this seat (a protocol.SeatInfo)."""
        return {"seat": number, "name": self.player.name if self.player else None,
                "bot": self.bot, "connected": self.present or self.bot is not None,
                "away": self.away}


@dataclass
class Table:
    """A live table: seats, the current match, and who follows it."""

    id: str
    rules: Rules
    bot_level: str
    turn_seconds: float | None
    creator_id: str | None
    seats: list[Seat]
    updated_at: float
    game: Game | None = None
    match_number: int = 0
    version: int = field(default_factory=lambda: int(time.time() * 1000))
    events: list[dict[str, Any]] = field(default_factory=list)
    finished: list[dict[str, Any]] = field(default_factory=list)
    """The latest finished matches (at most :data:`MATCHES_SHOWN`), the last one with its
    hands: a table message carries the current match's history, not every match's."""
    human_seen_at: float = field(default_factory=time.monotonic)
    """When a seated human was last seen connected (monotonic seconds)."""
    closing: bool = False
    """Abandoned: the table closes at the end of the hand being played."""
    listeners: dict[Listener, Player | None] = field(default_factory=dict)
    """This process's connections following the table, each with the player it proved (or
    ``None``). The seat a connection sees is looked up at every delivery, never stored: a
    player who leaves a seat stops seeing it at once, and its next occupant's cards reach
    nobody else."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    turn_task: asyncio.Task[None] | None = None
    deadline: float | None = None
    match_over_at: float | None = None
    """When the current match ended (the next one starts ``next_match_delay`` later)."""
    game_name: str = DEFAULT_GAME
    """Which game the table plays (a name of ``cardroom.games.registry.GAMES``)."""
    hints: bool = False
    """A casual table: its players may ask the search bot for a hint on their turn."""

    @property
    def spec(self) -> GameSpec:
        """The game the table plays."""
        return GAMES[self.game_name]

    @property
    def status(self) -> str:
        """``playing`` while a match is on, else ``waiting``."""
        return "playing" if self.game is not None and not self.game.is_over else "waiting"

    def seat_of(self, player: Player | None) -> int | None:
        """The seat ``player`` holds here, if any."""
        if player is None:
            return None
        return next((n for n, s in enumerate(self.seats)
                     if s.player is not None and s.player.id == player.id), None)

    def seats_by_player(self) -> dict[str, int]:
        """Each seated human's seat, by player id."""
        return {s.player.id: n for n, s in enumerate(self.seats) if s.player is not None}

    def connections_by_seat(self) -> list[int]:
        """How many of this process's connections follow the table as each seat's player."""
        seated = self.seats_by_player()
        counts = [0] * len(self.seats)
        for player in self.listeners.values():
            if player is not None and player.id in seated:
                counts[seated[player.id]] += 1
        return counts

    def summary(self) -> TableSummary:
        """The lobby row of this table."""
        teams = self.spec.teams(self.rules)
        return TableSummary(
            table_id=self.id, game=self.game_name, preset=self.rules.preset_name,
            status=self.status,  # type: ignore[arg-type]
            seats=[SeatInfo(**s.info(n)) for n, s in enumerate(self.seats)],
            teams=teams,
            age_seconds=round(max(0.0, time.time() - self.updated_at), 1),
            scores=list(self.game.scores) if self.game else [0] * len(teams),
            target=self.rules.target, hints=self.hints, turn_seconds=self.turn_seconds,
            updated_at=self.updated_at)

    def update_for(self, seat: int | None) -> dict[str, Any]:
        """The full ``table`` message for a viewer in ``seat`` (``None``: spectator)."""
        clock = None
        if self.deadline is not None and self.game is not None and self.game.to_act is not None:
            clock = {"seat": self.game.to_act, "deadline": self.deadline}
        # Built as a plain dict (this runs for every viewer after every action); its shape is
        # protocol.TableUpdate, which the server tests validate every message against.
        return {
            "type": "table", "table_id": self.id, "game": self.game_name,
            "version": self.version, "seat": seat, "status": self.status,
            "seats": [s.info(n) for n, s in enumerate(self.seats)],
            "match_number": self.match_number, "creator": self.creator_id,
            "view": self.game.view(seat) if self.game is not None else None,
            "events": self.events, "clock": clock, "matches": list(self.finished),
            "hints": self.hints, "turn_seconds": self.turn_seconds,
        }


def hash_token(token: str) -> str:
    """Tokens are stored hashed: a leaked database does not hand out seats."""
    return hashlib.sha256(token.encode()).hexdigest()


class Room:
    """Every table of this server process, and the rules of who may do what."""

    def __init__(self, store: Store, settings: RoomSettings | None = None,
                 bus: Bus | None = None) -> None:
        self.store = store
        self.settings = settings or RoomSettings()
        self.bus = bus or InProcessBus()
        self.metrics = Metrics()
        self.metrics.watch(self._state)
        self.shared = not isinstance(self.bus, InProcessBus)
        """Other processes may share the tables (a bus between processes)."""
        self.origin = secrets.token_hex(8)
        """Names this process on the bus, so it can skip its own notices."""
        self.tables: dict[str, Table] = {}
        self._lobby = LobbyFeed(self._lobby_row)
        self.quotas = Quotas(self.settings.quotas)
        self._following: dict[Listener, dict[str, None]] = {}
        """The tables each connection follows, oldest first."""
        self._players: dict[str, Player] = {}
        self.workers = BotWorkers(self.settings.bot_workers, self.settings.bot_budget,
                                  on_decision=self.metrics.bot_decision.observe)
        self._tasks: set[asyncio.Task[Any]] = set()
        self.counters: dict[str, int] = {"changes": 0, "conflicts": 0, "notices_applied": 0,
                                         "catch_ups": 0}
        """How this process keeps in step with the others (reported by /api/health)."""
        self._elsewhere: dict[str, tuple[float, set[tuple[str, int]]]] = {}
        """Other processes: when last heard from, and the seats they hold connections for."""
        self._hints: dict[tuple[str, int], tuple[int, asyncio.Future[dict[str, str]]]] = {}
        """The hint being worked out (or given) per table and seat, with the version it is
        for: asking again before the table moves on costs no more bot time."""
        self.bus.subscribe(TABLE_CHANNEL, self._on_table_notice)
        if self.shared:
            self.bus.subscribe(PRESENCE_CHANNEL, self._on_presence)

    # -- life cycle -----------------------------------------------------------------------------

    async def start(self) -> None:
        """Start the bot workers, load every open table from the store (replaying current
        matches), and resume bots. The server answers nobody before this is done, so bots
        are ready the moment the first table needs one."""
        await self.workers.start()
        for stored in await self.store.load_open_tables():
            table = await self._restore(stored)
            self.tables[table.id] = table
            self._lobby.changed(table.id)
        for table in self.tables.values():
            for number, seat in enumerate(table.seats):
                if seat.player is not None and table.status == "playing":
                    self._start_grace(table, number)
        self._spawn(self._resume(list(self.tables.values())))
        if self.shared:
            self._spawn(self._heartbeat())
            self._spawn(self._sweep())
        self._spawn(self._close_abandoned_tables())

    async def _resume(self, tables: list[Table]) -> None:
        """Set the restored tables' bots and timers going again, spread over a moment after
        ``resume_delay``: the players coming back after a restart are served first (a table
        whose player reconnects goes on at once), and the bots of hundreds of tables do not
        all ask the workers at the same instant."""
        spread = min(RESUME_SPREAD_MAX, len(tables) * RESUME_SPREAD_PER_TABLE)
        due = sorted((random.uniform(0, spread), n) for n in range(len(tables)))
        started = time.monotonic() + self.settings.resume_delay
        for at, number in due:
            await asyncio.sleep(max(0.0, started + at - time.monotonic()))
            table = tables[number]
            if table.id in self.tables and table.turn_task is None:
                # Alone, this process drives every table now; shared, whoever drove a table
                # goes on doing so, and this one stands by.
                self._after_change(table, owner=not self.shared)

    async def stop(self) -> None:
        """Cancel timers and bots (the store keeps everything that was acknowledged)."""
        for task in list(self._tasks):
            task.cancel()
        for table in self.tables.values():
            for seat in table.seats:
                if seat.grace_task is not None:
                    seat.grace_task.cancel()
        await self.workers.stop()

    async def _restore(self, stored: StoredTable) -> Table:
        row = stored.row
        spec = GAMES[row.game]
        rules = spec.rules_from_dict(row.rules)
        table = Table(id=row.id, rules=rules, bot_level=row.bot,
                      turn_seconds=row.turn_seconds, creator_id=row.creator_id,
                      seats=[Seat() for _ in range(spec.players(rules))],
                      updated_at=row.updated_at, match_number=row.match_number,
                      version=row.version, game_name=spec.name, hints=bool(row.hints))
        await self._load_into(table, stored)
        return table

    async def _load_into(self, table: Table, stored: StoredTable) -> list[dict[str, Any]]:
        """Bring a table in memory up to the stored one; the events of the actions it missed.

        ``stored`` is either the whole table or, on the same match, only the later actions
        (see :meth:`Store.load_table`).
        """
        row = stored.row
        ids = [s.player_id for s in stored.seats.values()
               if s.player_id and s.player_id not in self._players]
        for found in (await self.store.players(ids)).values():
            self._players.setdefault(found.id, Player(found.id, found.name))
        for number in range(len(table.seats)):
            seat_row = stored.seats.get(number)
            state = table.seats[number]
            player = self._players.get(seat_row.player_id) if seat_row and seat_row.player_id \
                else None
            state.player, state.bot = player, seat_row.bot if seat_row else None
            state.away = bool(seat_row.away) if seat_row else False
        events: list[dict[str, Any]] = []
        same_match = table.game is not None and table.match_number == row.match_number
        if not same_match:
            table.finished = []
            for m in stored.finished[-MATCHES_SHOWN:]:
                _remember_match(table.finished,
                                _match_summary(m.number, m.winner, m.scores, m.history))
            table.game, table.match_over_at = None, None
            if stored.match is not None:
                spec = table.spec
                table.game = spec.new(spec.rules_from_dict(stored.match.rules),
                                      seed=stored.match.seed, first_dealer=stored.match.dealer)
                events.append({"type": "match_started", "match": row.match_number,
                               "dealer": table.game.dealer})
        game = table.game
        if game is not None:
            for action in stored.actions:
                if action.number != len(game.actions):
                    continue  # read twice (a catch-up racing a notice): already applied
                events += [{"seat": action.seat, **e} if "seat" not in e else e
                           for e in game.apply(action.action, seat=action.seat)]
                if game.is_over:
                    table.match_over_at = action.created_at
                    if same_match:
                        _remember_match(table.finished, self._summary_of(table))
            if game.is_over and table.match_over_at is None:
                table.match_over_at = stored.match.finished_at if stored.match else None
        table.match_number = row.match_number
        table.version = row.version
        table.updated_at = max(row.updated_at,
                               stored.actions[-1].created_at if stored.actions else 0.0)
        return events

    async def _catch_up(self, table: Table) -> bool:
        """Read what other processes did to this table since our version (the caller holds
        its lock); tell this process's followers. False if the table is gone."""
        game = table.game
        stored = await self.store.load_table(
            table.id, table.match_number if game is not None else None,
            len(game.actions) if game is not None else 0)
        if stored is None or stored.row.closed:
            self._forget(table)
            return False
        if stored.row.version == table.version:
            return True
        self.counters["catch_ups"] += 1
        table.events = await self._load_into(table, stored)
        self._refresh_presence(table)
        await self._deliver({"table_id": table.id, "lobby": True}, owner=False)
        return True

    def _forget(self, table: Table) -> None:
        if self.tables.pop(table.id, None) is not None and table.turn_task is not None:
            table.turn_task.cancel()
        self._lobby.changed(table.id)

    # -- players --------------------------------------------------------------------------------

    async def register(self, name: str) -> tuple[Player, str]:
        """A new player with a fresh secret token (256 random bits), if the name may be shown
        (``bad_name``: see :mod:`cardroom.tables.names`) and no player has one that looks
        the same (``name_taken``: the database's unique name key decides, in every process)."""
        from cardroom.store.db import NameTaken
        from cardroom.tables.names import BadName, check_name

        try:
            checked = check_name(name)
        except BadName as error:
            raise RoomError(ErrorCode.BAD_NAME, str(error)) from None
        token = secrets.token_urlsafe(32)
        player = Player(secrets.token_hex(8), checked.display)
        try:
            await self.store.add_player(player.id, player.name, hash_token(token),
                                        name_key=checked.key)
        except NameTaken:
            raise RoomError(ErrorCode.NAME_TAKEN, f'Another player is already called '
                            f'"{checked.display}", or a name that looks the same; please '
                            'choose another.') from None
        self._players[player.id] = player
        return player, token

    async def authenticate(self, token: str) -> Player:
        """The player a token proves, or ``bad_token``."""
        row = await self.store.player_by_token_hash(hash_token(token))
        if row is None:
            raise RoomError(ErrorCode.BAD_TOKEN, "That token belongs to nobody: register "
                                                 "again with your name.")
        return self._players.setdefault(row.id, Player(row.id, row.name))

    def tables_of(self, player: Player) -> list[str]:
        """Tables where ``player`` sits (for reconnecting)."""
        return [t.id for t in self.tables.values() if t.seat_of(player) is not None]

    # -- lobby ----------------------------------------------------------------------------------

    def lobby(self, offset: int = 0, limit: int = PAGE_LIMIT) -> dict[str, Any]:
        """A page of the lobby (most recently changed tables first), from a snapshot at most
        a second old: what ``/api/lobby`` serves however often it is asked."""
        return self._lobby.page(offset, limit)

    def watch_lobby(self, listener: Listener, offset: int = 0, limit: int = PAGE_LIMIT) -> None:
        """Send a page of the lobby now, then each change of any table's row as it comes
        (``lobby_update`` messages, a burst of changes in one)."""
        self._lobby.watch(listener, offset, limit)

    def _state(self) -> RoomState:
        """The room's figures now, for ``/metrics``."""
        tables = {"waiting": 0, "playing": 0, "closing": 0}
        for table in self.tables.values():
            tables["closing" if table.closing else table.status] += 1
        return RoomState(connections=self.quotas.connections, lobby_watchers=self._lobby.watchers,
                         tables=tables, bot_queue=self.workers.pending,
                         quota_refusals={q.value: n for q, n in self.quotas.refused.items()})

    def _lobby_row(self, table_id: str) -> dict[str, Any] | None:
        table = self.tables.get(table_id)
        return None if table is None else table.summary().model_dump(mode="json")

    # -- tables and seats -----------------------------------------------------------------------

    async def create_table(self, player: Player, preset: str | None, options: dict[str, Any],
                           seat: int, turn_seconds: float | None, bot: str,
                           game: str = DEFAULT_GAME, hints: bool = False) -> Table:
        """A new table of ``game`` (500 or 1000) with ``player`` in ``seat``; ``preset``
        ``None`` is the game's default preset; ``hints`` makes it a casual table."""
        spec = GAMES.get(game)
        if spec is None:
            raise RoomError(ErrorCode.BAD_RULES, f"Unknown game {game!r}; choose one of: "
                                                 f"{', '.join(GAMES)}.")
        if turn_seconds is not None and turn_seconds < self.settings.min_turn_seconds:
            raise RoomError(ErrorCode.BAD_RULES, "A turn timer must give at least "
                                                 f"{self.settings.min_turn_seconds:g} seconds.")
        self.quotas.tables(len(self.tables),
                           sum(t.creator_id == player.id for t in self.tables.values()))
        try:
            rules = spec.rules(preset, options)
        except spec.rules_error as error:
            raise RoomError(ErrorCode.BAD_RULES, str(error)) from None
        self._check_bot_name(bot)
        seats = spec.players(rules)
        self._check_seat_number(seat, seats)
        now = time.time()
        table = Table(id=secrets.token_hex(6), rules=rules, bot_level=bot,
                      turn_seconds=turn_seconds, creator_id=player.id,
                      seats=[Seat() for _ in range(seats)], updated_at=now,
                      game_name=spec.name, hints=hints)
        await self.store.add_table(TableRow(
            id=table.id, game=spec.name, rules=rules.to_dict(), turn_seconds=turn_seconds,
            bot=bot, hints=hints, creator_id=player.id, created_at=now, updated_at=now,
            version=table.version), seats)
        self.tables[table.id] = table
        await self.join(player, table.id, seat)
        return table

    async def join(self, player: Player, table_id: str, seat: int) -> None:
        """Take a free seat before the match starts."""
        table = await self._get_table(table_id)

        def check() -> dict[int, Seat]:
            self._check_seating_open(table)
            if table.seat_of(player) is not None:
                raise RoomError(ErrorCode.SEAT_TAKEN, "You already sit at this table.")
            self._check_seat_number(seat, len(table.seats))
            if not table.seats[seat].empty:
                raise RoomError(ErrorCode.SEAT_TAKEN, f"Seat {seat} is taken.")
            return {seat: Seat(player=player)}

        await self._change_seats(table, check)

    async def leave(self, player: Player, table_id: str) -> None:
        """Give up a seat while no match is being played."""
        table = await self._get_table(table_id)

        def check() -> dict[int, Seat]:
            number = table.seat_of(player)
            if number is None:
                raise RoomError(ErrorCode.NOT_AT_TABLE, "You do not sit at this table.")
            if table.status == "playing":
                raise RoomError(ErrorCode.TABLE_STARTED,
                                "The match is on: you can leave once it is over.")
            return {number: Seat()}

        await self._change_seats(table, check)

    async def add_bot(self, player: Player, table_id: str, seat: int, bot: str) -> None:
        """The creator seats a bot before the start."""
        table = await self._get_table(table_id)

        def check() -> dict[int, Seat]:
            self._check_creator(table, player)
            self._check_seating_open(table)
            self._check_bot_name(bot)
            self._check_seat_number(seat, len(table.seats))
            if not table.seats[seat].empty:
                raise RoomError(ErrorCode.SEAT_TAKEN, f"Seat {seat} is taken.")
            return {seat: Seat(bot=bot)}

        await self._change_seats(table, check)

    async def start_with_bots(self, player: Player, table_id: str, bot: str) -> None:
        """The creator fills every empty seat with a bot; the match starts."""
        table = await self._get_table(table_id)

        def check() -> dict[int, Seat]:
            self._check_creator(table, player)
            self._check_seating_open(table)
            self._check_bot_name(bot)
            return {n: Seat(bot=bot) for n, s in enumerate(table.seats) if s.empty}

        await self._change_seats(table, check)

    async def _change_seats(self, table: Table, check: Any) -> None:
        """Seat changes checked by ``check`` (which returns them) against fresh state; the
        match starts when every seat is filled, the table closes when the last human leaves."""
        async with table.lock:
            fresh = not self.shared
            for _ in range(CONFLICT_RETRIES):
                if table.id not in self.tables:
                    raise RoomError(ErrorCode.NO_SUCH_TABLE, "That table has closed.")
                try:
                    changes: dict[int, Seat] = check()
                except RoomError:
                    if fresh:
                        raise
                    await self._catch_up(table)  # refused on what may be stale state
                    fresh = True
                    continue
                seats = [changes.get(n, s) for n, s in enumerate(table.seats)]
                now = time.time()
                change = Change(table.id, table.version, now,
                                seats={n: (s.player.id if s.player else None, s.bot, False)
                                       for n, s in changes.items()})
                close = all(s.player is None for s in seats)
                change.close = close
                game = None
                if not close and all(not s.empty for s in seats) and table.status == "waiting":
                    game = self._new_game(table, seats)
                    change.match = (table.match_number + 1, game.seed, game.first_dealer,
                                    table.rules.to_dict())
                if await self._commit(table, change):
                    table.seats = seats
                    table.events = [{"type": "seats"}]
                    self._refresh_presence(table)
                    if game is not None:
                        self._begin_match(table, game)
                    if close:
                        self._forget(table)
                    await self._publish(table, lobby=True, closed=close)
                    return
                await self._catch_up(table)
            raise _busy()

    @staticmethod
    def _new_game(table: Table, seats: list[Seat]) -> Game:
        """A new match at the table. Rules whose host deals first (1000's seed preset) have
        the table's creator deal, wherever they sit."""
        first_dealer = None
        if getattr(table.rules, "first_dealer", None) == "host":
            first_dealer = next((n for n, s in enumerate(seats) if s.player is not None
                                 and s.player.id == table.creator_id), 0)
        return table.spec.new(table.rules, secrets.randbits(62), first_dealer)

    def _begin_match(self, table: Table, game: Game) -> None:
        table.game, table.match_number, table.match_over_at = game, table.match_number + 1, None
        table.events = [{"type": "match_started", "match": table.match_number,
                         "dealer": game.dealer}]

    async def _commit(self, table: Table, change: Change) -> bool:
        """Write a change made against the table's version; on success the table is at the
        next version. False: another process changed the table first (catch up, retry)."""
        with self.metrics.db_write.time():
            written = await self.store.commit(change)
        if not written:
            self.counters["conflicts"] += 1
            return False
        self.counters["changes"] += 1
        table.version = change.version + 1
        table.updated_at = change.updated_at
        return True

    # -- playing --------------------------------------------------------------------------------

    async def act(self, player: Player, table_id: str, action: str) -> dict[str, Any]:
        """A player's action at their seat: checked, stored, then announced."""
        started = time.perf_counter()
        table = await self._get_table(table_id)
        async with table.lock:
            fresh = not self.shared
            for _ in range(CONFLICT_RETRIES):
                try:
                    number = table.seat_of(player)
                    if number is None:
                        raise RoomError(ErrorCode.NOT_AT_TABLE, "You do not sit at this table.")
                    result = await self._apply(table, number, action)
                except RoomError as error:
                    if fresh or error.code == ErrorCode.INTERNAL:
                        raise
                    result = None  # refused on what may be stale state: look again first
                if result is not None:
                    self.metrics.action_latency.observe(time.perf_counter() - started)
                    return result
                if not await self._catch_up(table):
                    raise RoomError(ErrorCode.NO_SUCH_TABLE, "That table has closed.")
                fresh = True
            raise _busy()

    async def _apply(self, table: Table, seat: int, action: str,
                     expected_version: int | None = None) -> dict[str, Any] | None:
        """Apply, persist and announce one action (the caller holds the table's lock).

        ``None``: another process changed the table meanwhile; nothing was applied.
        """
        game = table.game
        if game is None or game.is_over:
            raise RoomError(ErrorCode.ILLEGAL_ACTION, "No match is being played here.")
        if expected_version is not None and table.version != expected_version:
            return {}
        if game.to_act != seat:
            raise RoomError(ErrorCode.NOT_YOUR_TURN, "It is not your turn.")
        before = game.copy()
        try:
            events = game.apply(action, seat=seat)
        except IllegalAction as error:
            raise RoomError(ErrorCode.ILLEGAL_ACTION, str(error)) from None
        number = len(game.actions) - 1
        text = game.actions[-1].text
        now = time.time()
        change = Change(table.id, table.version, now,
                        action=(table.match_number, number, seat, text))
        if game.is_over:
            assert game.winner is not None
            change.finish = (table.match_number, game.winner, list(game.scores),
                             [h.to_dict() for h in game.history])
        try:
            won = await self._commit(table, change)
        except Exception:
            table.game = before
            log.exception("could not store an action at table %s", table.id)
            raise RoomError(ErrorCode.INTERNAL, "The action could not be saved; "
                                                "please try again.") from None
        if not won:
            table.game = before
            return None
        table.events = [{"seat": seat, **e} if "seat" not in e else e for e in events]
        match_over = game.is_over
        if match_over:
            table.match_over_at = now
            _remember_match(table.finished, self._summary_of(table))
        self.metrics.actions.inc()
        await self._publish(table, lobby=match_over or any(
            e["type"] in ("hand_scored", "match_started") for e in events),
            action={"match": table.match_number, "number": number, "seat": seat,
                    "text": text})
        return {"version": table.version, "action": text, "match": table.match_number,
                "number": number}

    async def hint(self, player: Player, table_id: str) -> dict[str, Any]:
        """What the search bot would do in the player's seat now, at a casual table, and
        why. It is worked out in the bot workers from the seat's own view and changes
        nothing; the answer names the version it is for."""
        table = await self._get_table(table_id)
        seat = table.seat_of(player)
        if seat is None:
            raise RoomError(ErrorCode.NOT_AT_TABLE,
                            "Only the players seated at this table may ask for hints.")
        if not table.hints:
            raise RoomError(ErrorCode.HINTS_DISABLED,
                            "This table does not allow hints: only casual tables do.")
        game = table.game
        if game is None or game.is_over:
            raise RoomError(ErrorCode.NOT_YOUR_TURN, "No match is being played here.")
        if game.to_act != seat:
            raise RoomError(ErrorCode.NOT_YOUR_TURN, "Hints are for your own turn.")
        version = table.version
        key = (table.id, seat)
        pending = self._hints.get(key)
        if pending is None or pending[0] != version:
            for gone in [k for k in self._hints if k[0] not in self.tables]:
                del self._hints[gone]
            seed = zlib.crc32(f"hint:{table.id}:{version}:{seat}".encode())
            work = asyncio.ensure_future(self.workers.run(table.id, suggest, seed,
                                                          game.view(seat)))
            work.add_done_callback(_quietly)
            pending = self._hints[key] = (version, work)
        try:
            answer = await asyncio.shield(pending[1])
        except (Superseded, TimeoutError):
            self._forget_hint(key, pending)
            raise RoomError(ErrorCode.INTERNAL, "No hint could be worked out in time; please "
                                                "try again.") from None
        except Exception:
            self._forget_hint(key, pending)
            log.exception("hint at table %s seat %s", table.id, seat)
            raise RoomError(ErrorCode.INTERNAL, "No hint could be worked out; please try "
                                                "again.") from None
        return {"table_id": table.id, "version": version, "seat": seat, **answer}

    def _forget_hint(self, key: tuple[str, int], pending: tuple[int, Any]) -> None:
        if self._hints.get(key) is pending:
            del self._hints[key]

    @staticmethod
    def _summary_of(table: Table) -> dict[str, Any]:
        game = table.game
        assert game is not None and game.winner is not None
        return _match_summary(table.match_number, game.winner, list(game.scores),
                              [h.to_dict() for h in game.history])

    async def _next_match_later(self, table: Table, version: int, delay: float) -> None:
        """Seed 004: when a match ends, a new one starts with the same players."""
        await asyncio.sleep(delay)
        async with table.lock:
            for _ in range(CONFLICT_RETRIES):
                if (table.id not in self.tables or table.status == "playing"
                        or table.version != version
                        or not all(not s.empty for s in table.seats)):
                    return
                game = self._new_game(table, table.seats)
                change = Change(table.id, table.version, time.time(),
                                match=(table.match_number + 1, game.seed, game.first_dealer,
                                       table.rules.to_dict()))
                if await self._commit(table, change):
                    self._begin_match(table, game)
                    await self._publish(table, lobby=True)
                    return
                await self._catch_up(table)
                version = table.version

    # -- bots, timers, disconnections ------------------------------------------------------------

    def _after_change(self, table: Table, owner: bool = True) -> None:
        """Arrange whoever must act next: a bot, a timer, the next match, or nobody (a human's
        free turn). ``owner``: this process made the change and drives the table; otherwise it
        stands by, ``takeover_delay`` later."""
        if table.turn_task is not None:
            table.turn_task.cancel()
            table.turn_task = None
        table.deadline = None
        game = table.game
        if table.id not in self.tables:
            return
        if table.closing and (game is None or game.is_over or any(
                e.get("type") == "hand_scored" for e in table.events)):
            table.turn_task = self._spawn(self._close(table))
            return
        if game is None:
            return
        late = 0.0 if owner or not self.shared else self.settings.takeover_delay
        if game.is_over:
            since = table.match_over_at or table.updated_at
            delay = since + self.settings.next_match_delay - time.time()
            table.turn_task = self._spawn(self._next_match_later(table, table.version,
                                                                 max(0.0, delay) + late))
            return
        if game.to_act is None:
            return
        seat = table.seats[game.to_act]
        if seat.bot is not None or seat.away:
            table.turn_task = self._spawn(self._bot_turn(table, table.version,
                                                         self.settings.bot_delay + late))
        elif table.turn_seconds is not None:
            table.deadline = table.updated_at + table.turn_seconds
            table.turn_task = self._spawn(self._bot_turn(
                table, table.version, max(0.0, table.deadline - time.time()) + late))

    async def _bot_turn(self, table: Table, version: int, delay: float) -> None:
        """After ``delay``, the seat's bot moves, unless the table has moved on meanwhile."""
        await asyncio.sleep(delay)
        game = table.game
        if game is None or table.version != version or game.to_act is None:
            return
        seat = game.to_act
        name = table.seats[seat].bot or table.bot_level
        seed = zlib.crc32(f"{table.id}:{version}".encode())
        try:
            action = await self.workers.decide(table.id, name, seed, game.view(seat))
        except Superseded:
            return  # the table moved on and asked again
        decided = time.perf_counter()
        async with table.lock:
            try:
                result = await self._apply(table, seat, action, expected_version=version)
                if result is None:
                    # Another process moved first; what it did reaches us (and our followers).
                    await self._catch_up(table)
                elif result:
                    self.metrics.action_latency.observe(time.perf_counter() - decided)
            except RoomError as error:
                log.error("bot %s at table %s seat %s: %s", name, table.id, seat,
                          error.message)

    def _announce(self, table: Table, event: dict[str, Any]) -> None:
        """A change of who is present (not of the game): new version, tell everybody."""
        self._spawn(self._presence_change(table, event))

    async def _presence_change(self, table: Table, event: dict[str, Any]) -> None:
        async with table.lock:
            for _ in range(CONFLICT_RETRIES):
                if table.id not in self.tables:
                    return
                number = event["seat"]
                state = table.seats[number]
                if state.player is None:
                    return
                away = state.away
                if event["type"] == "away":
                    if state.present or state.away:
                        return
                    away = True
                elif event["type"] == "connected":
                    away = False
                elif state.present:  # offline, but back (here or elsewhere) already
                    return
                change = Change(table.id, table.version, time.time())
                if away != state.away:
                    change.seats[number] = (state.player.id, state.bot, away)
                if await self._commit(table, change):
                    state.away = away
                    table.events = [event]
                    await self._publish(table, lobby=True)
                    return
                if not await self._catch_up(table):
                    return

    async def _close_abandoned_tables(self) -> None:
        """Every little while: a table where no seated human has been connected for
        ``abandon_after`` seconds closes, at once if no hand is being played, else when its
        hand is scored (see :meth:`_after_change`)."""
        every = max(0.05, min(30.0, self.settings.abandon_after / 4))
        while True:
            await asyncio.sleep(every)
            now = time.monotonic()
            for table in list(self.tables.values()):
                if any(s.player is not None and s.present for s in table.seats):
                    table.human_seen_at, table.closing = now, False
                elif not table.closing and \
                        now - table.human_seen_at >= self.settings.abandon_after:
                    table.closing = True
                    if table.status == "waiting":
                        self._after_change(table)

    async def _close(self, table: Table) -> None:
        """Close an abandoned table for good (unless a seated human came back meanwhile)."""
        async with table.lock:
            for _ in range(CONFLICT_RETRIES):
                if table.id not in self.tables or not table.closing:
                    return
                change = Change(table.id, table.version, time.time())
                change.close = True
                if await self._commit(table, change):
                    log.info("table %s closed: nobody has been connected there for %g s",
                             table.id, self.settings.abandon_after)
                    table.turn_task = None  # this task: forgetting the table must not end it
                    self._forget(table)
                    await self._publish(table, lobby=True, closed=True)
                    return
                await self._catch_up(table)

    def _start_grace(self, table: Table, seat: int) -> None:
        state = table.seats[seat]
        if state.grace_task is None:
            state.grace_task = self._spawn(self._grace(table, seat))

    async def _grace(self, table: Table, seat: int) -> None:
        """After the grace period, a bot plays the absent player's seat until they return."""
        await asyncio.sleep(self.settings.disconnect_grace)
        state = table.seats[seat]
        state.grace_task = None
        if not state.present and state.player is not None:
            self._announce(table, {"type": "away", "seat": seat})

    # -- presence across processes ----------------------------------------------------------------

    def _tell_presence(self, table_id: str, seat: int, here: bool) -> None:
        """Other processes learn at once that this one gained or lost a seat's last connection."""
        if self.shared:
            self._spawn(self.bus.publish(PRESENCE_CHANNEL, {
                "origin": self.origin, "add" if here else "remove": [[table_id, seat]]}))

    def _local_presence(self) -> list[list[Any]]:
        return [[t.id, n] for t in self.tables.values() for n, s in enumerate(t.seats)
                if s.listeners > 0 and s.player is not None]

    async def _heartbeat(self) -> None:
        """Every few seconds: say which seats this process holds; forget silent processes."""
        joined = True
        while True:
            await self.bus.publish(PRESENCE_CHANNEL, {"origin": self.origin,
                                                      "seats": self._local_presence()})
            now = time.monotonic()
            if not self.bus.joined:
                # The bus is down, not the other processes: nobody is taken for dead while
                # nobody can be heard, and each gets a whole TTL once the bus is back.
                joined = False
            elif not joined:
                joined = True
                self._elsewhere = {o: (now, seats) for o, (_, seats) in self._elsewhere.items()}
            else:
                for origin, (heard, seats) in list(self._elsewhere.items()):
                    if now - heard > PRESENCE_TTL:
                        del self._elsewhere[origin]
                        self._presence_moved(seats, dead=True)
            await asyncio.sleep(HEARTBEAT)

    async def _sweep(self) -> None:
        """Catch up every table whose version in the database differs from ours, and load
        tables made elsewhere that we never heard of."""
        while True:
            await asyncio.sleep(SWEEP)
            try:
                versions = await self.store.table_versions()
                for table_id, version in versions.items():
                    table = self.tables.get(table_id)
                    if table is None:
                        await self._get_table(table_id)
                        continue
                    if version != table.version and not table.lock.locked():
                        async with table.lock:
                            await self._catch_up(table)
                for table_id in set(self.tables) - set(versions):
                    table = self.tables[table_id]
                    async with table.lock:
                        await self._catch_up(table)
            except Exception:
                log.exception("sweeping the tables' versions")

    async def _on_presence(self, notice: dict[str, Any]) -> None:
        origin = notice.get("origin")
        if origin == self.origin or not isinstance(origin, str):
            return
        _, seats = self._elsewhere.get(origin, (0.0, set()))
        moved: set[tuple[str, int]] = set()
        if "seats" in notice:
            fresh = {(t, n) for t, n in notice["seats"]}
            moved, seats = seats ^ fresh, fresh
        for t, n in notice.get("add", ()):
            seats.add((t, n))
            moved.add((t, n))
        for t, n in notice.get("remove", ()):
            seats.discard((t, n))
            moved.add((t, n))
        self._elsewhere[origin] = (time.monotonic(), seats)
        self._presence_moved(moved, dead=False)

    def _presence_moved(self, seats: set[tuple[str, int]], dead: bool) -> None:
        """Recompute ``remote`` for these seats. A dead process's players count as gone: the
        grace period starts for them (they will usually reconnect here first)."""
        for table_id, number in seats:
            table = self.tables.get(table_id)
            if table is None or not 0 <= number < len(table.seats):
                continue
            state = table.seats[number]
            state.remote = any((table_id, number) in held
                               for _, held in self._elsewhere.values())
            if dead and not state.present and state.player is not None \
                    and table.status == "playing":
                self._start_grace(table, number)

    # -- following tables -----------------------------------------------------------------------

    async def open(self, listener: Listener, player: Player | None, table_id: str) -> int | None:
        """Follow a table: the player's own seat if they sit there, else as a spectator.

        A connection follows at most :data:`MAX_FOLLOWED` tables; opening another stops
        following the one it opened longest ago."""
        table = await self._get_table(table_id)
        followed = self._following.setdefault(listener, {})
        followed.pop(table.id, None)
        followed[table.id] = None
        while len(followed) > MAX_FOLLOWED:
            self._unfollow(listener, next(iter(followed)))
        table.listeners[listener] = player
        seat = table.seat_of(player)
        if seat is not None:
            table.human_seen_at, table.closing = time.monotonic(), False
        listener.deliver(table.update_for(seat))
        self._refresh_presence(table)
        if seat is not None and table.seats[seat].away:
            # Back while a bot plays for them: everybody sees them come, and the bot stops.
            self._announce(table, {"type": "connected", "seat": seat})
        return seat

    def disconnect(self, listener: Listener) -> None:
        """A connection closed (or changed identity): stop following everything."""
        self._lobby.unwatch(listener)
        for table_id in list(self._following.get(listener, ())):
            self._unfollow(listener, table_id)
        self._following.pop(listener, None)

    def _unfollow(self, listener: Listener, table_id: str) -> None:
        self._following.get(listener, {}).pop(table_id, None)
        table = self.tables.get(table_id)
        if table is not None and table.listeners.pop(listener, None) is not None:
            self._refresh_presence(table)

    def _refresh_presence(self, table: Table) -> None:
        """Bring each seat's count of this process's connections up to date after any change
        of connections or seats, and act on a seated player's first connection here (no
        grace period, connected again) or last one (offline, then the grace period).

        Counts come from the connections' own players, so a connection whose player left a
        seat never counts for, nor marks offline, the seat's next occupant."""
        for number, count in enumerate(table.connections_by_seat()):
            state = table.seats[number]
            before, state.listeners = state.listeners, count
            if count > 0 and state.grace_task is not None:
                state.grace_task.cancel()
                state.grace_task = None
            if (before > 0) == (count > 0):
                continue
            self._tell_presence(table.id, number, here=count > 0)
            if state.player is None:
                continue
            if count > 0 and not state.remote:
                self._announce(table, {"type": "connected", "seat": number})
            elif count == 0 and not state.present:
                self._announce(table, {"type": "offline", "seat": number})
                if table.status == "playing":
                    self._start_grace(table, number)

    async def _publish(self, table: Table, lobby: bool, closed: bool = False,
                       action: dict[str, Any] | None = None) -> None:
        """Tell this process's followers at once (so every view precedes the ack of the action
        that caused it), then the other processes through the bus."""
        notice: dict[str, Any] = {"table_id": table.id, "lobby": lobby, "origin": self.origin,
                                  "version": table.version}
        await self._deliver(notice, owner=True)
        if self.shared:
            notice.update(events=table.events, updated_at=table.updated_at, closed=closed,
                          action=action)
        await self.bus.publish(TABLE_CHANNEL, notice)

    async def _on_table_notice(self, notice: dict[str, Any]) -> None:
        """A notice from the bus: ours were delivered already; another process's change is
        handled in a task of its own, so one busy table does not hold up the others' notices
        (a table's notices still take its lock in the order they came: asyncio's locks are
        first come, first served)."""
        if notice.get("origin") != self.origin:
            self._spawn(self._apply_notice(notice))

    async def _apply_notice(self, notice: dict[str, Any]) -> None:
        """Another process's change is applied here (from the notice when it is the very next
        one, else from the database), then delivered to this process's followers."""
        table_id = notice["table_id"]
        table = self.tables.get(table_id)
        if table is None:
            if notice.get("closed"):
                return
            stored = await self.store.load_table(table_id)
            if stored is None or stored.row.closed:
                return
            adopted = await self._adopt(stored)
            if adopted is not None:
                adopted.events = list(notice.get("events") or [])
                await self._deliver(notice, owner=False)
                return
            table = self.tables.get(table_id)  # adopted meanwhile, maybe from an older read
            if table is None:
                return
        async with table.lock:
            if notice.get("closed"):
                self._forget(table)
                await self._deliver(notice, owner=False)
                return
            if notice.get("version", 0) <= table.version:
                return  # we have it (a catch-up read it before its notice came)
            action = notice.get("action")
            game = table.game
            if (action is not None and game is not None and notice["version"] == table.version + 1
                    and action["match"] == table.match_number
                    and action["number"] == len(game.actions)):
                game.apply(action["text"], seat=action["seat"])
                table.version = notice["version"]
                table.updated_at = notice.get("updated_at") or time.time()
                table.events = list(notice.get("events") or [])
                if game.is_over:
                    table.match_over_at = table.updated_at
                    _remember_match(table.finished, self._summary_of(table))
                self.counters["notices_applied"] += 1
                await self._deliver(notice, owner=False)
                return
            await self._catch_up(table)

    async def _deliver(self, notice: dict[str, Any], owner: bool = True) -> None:
        """Push fresh views of a changed table to its followers (and the lobby if asked)."""
        table = self.tables.get(notice["table_id"])
        if table is not None:
            self._after_change(table, owner)
            cache: dict[int | None, dict[str, Any]] = {}
            seated = table.seats_by_player()
            for listener, player in list(table.listeners.items()):
                seat = seated.get(player.id) if player is not None else None
                if seat not in cache:
                    cache[seat] = table.update_for(seat)
                listener.deliver(cache[seat])
        if notice.get("lobby"):
            self._lobby.changed(notice["table_id"])

    # -- bug reports ----------------------------------------------------------------------------

    async def report_bug(self, player: Player, table_id: str | None, description: str,
                         client_state: dict[str, Any]) -> int:
        """Store a bug report with the table's record so far (the seed stays server-side)."""
        record = None
        if table_id is not None and table_id in self.tables:
            game = self.tables[table_id].game
            if game is not None:
                record = game.record.to_dict()
        return await self.store.add_bug(BugRow(
            table_id=table_id, player_id=player.id, player_name=player.name,
            description=description, record=record, client_state=client_state,
            created_at=time.time()))

    # -- helpers --------------------------------------------------------------------------------

    def _table(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise RoomError(ErrorCode.NO_SUCH_TABLE, "There is no such table (it may have "
                                                     "closed).")
        return table

    async def _get_table(self, table_id: str) -> Table:
        """A table held here, or (shared) one another process made that we have not heard of."""
        if table_id not in self.tables and self.shared:
            stored = await self.store.load_table(table_id)
            if stored is not None and not stored.row.closed:
                await self._adopt(stored)
        return self._table(table_id)

    async def _adopt(self, stored: StoredTable) -> Table | None:
        """Hold a table first heard of now; ``None`` if another task adopted it meanwhile
        (theirs is kept: one object per table, or followers would hang on a copy)."""
        table = await self._restore(stored)
        if stored.row.id in self.tables:
            return None
        self.tables[stored.row.id] = table
        return table

    @staticmethod
    def _check_creator(table: Table, player: Player) -> None:
        """The table's creator, seated there: one who left gives up seating bots and
        starting, unless they sit down again."""
        if table.creator_id != player.id:
            raise RoomError(ErrorCode.NOT_CREATOR,
                            "Only the player who created the table may seat bots.")
        if table.seat_of(player) is None:
            raise RoomError(ErrorCode.NOT_CREATOR,
                            "You left this table: sit down again to seat bots or start.")

    @staticmethod
    def _check_seating_open(table: Table) -> None:
        if table.status == "playing":
            raise RoomError(ErrorCode.TABLE_STARTED, "The match has started: seats are set.")

    @staticmethod
    def _check_seat_number(seat: int, seats: int) -> None:
        if not 0 <= seat < seats:
            raise RoomError(ErrorCode.BAD_MESSAGE,
                            f"This table has seats 0 to {seats - 1}, not {seat}.")

    @staticmethod
    def _check_bot_name(bot: str) -> None:
        if bot not in BOT_NAMES:
            raise RoomError(ErrorCode.BAD_MESSAGE,
                            f"Unknown bot {bot!r}; choose one of: {', '.join(BOT_NAMES)}.")

    def _spawn(self, coroutine: Any) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("room task failed", exc_info=task.exception())


def _busy() -> RoomError:
    return RoomError(ErrorCode.INTERNAL, "The table changed too often to keep up; "
                                         "please try again.")


def _match_summary(number: int, winner: int | None, scores: list[int] | None,
                   history: list[dict[str, Any]] | None) -> dict[str, Any]:
    """A finished match, for the score history across matches."""
    return {"match": number, "winner": winner, "scores": scores or [0, 0],
            "hands": history or []}


def _remember_match(finished: list[dict[str, Any]], summary: dict[str, Any]) -> None:
    """Add a finished match to a table's list: earlier matches keep their result only, and
    only the latest :data:`MATCHES_SHOWN` are kept, so table messages stay small however
    long a table plays."""
    if finished:
        finished[-1] = {k: v for k, v in finished[-1].items() if k != "hands"}
    finished.append(summary)
    del finished[:-MATCHES_SHOWN]


def _quietly(task: asyncio.Future[Any]) -> None:
    """Retrieve a shared task's outcome, so one nobody awaited any more does not warn."""
    if not task.cancelled():
        task.exception()
