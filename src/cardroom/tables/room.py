"""The card room: the verbs a connection calls, over the parts that run the tables.

This is the application layer's face. It knows no HTTP: the web layer hands it
:class:`~cardroom.tables.model.Listener` objects and :class:`~cardroom.tables.model.Player`
identities. Behind it:

- :mod:`~cardroom.tables.core`: the live tables and the one path of every change (applied,
  committed with a compare-and-set, announced to the subscribers below and to other processes);
- :mod:`~cardroom.tables.sync`: loading tables and following other processes' changes;
- :mod:`~cardroom.tables.followers`: connections, the views they get, presence and absence;
- :mod:`~cardroom.tables.relay`: each table verb run at the table's owner, and the owner's
  views relayed to connections in other processes;
- :mod:`~cardroom.tables.driver`: bots, turn timers, the next match, abandoned tables;
- :mod:`~cardroom.tables.seating`, :mod:`~cardroom.tables.lobby`,
  :mod:`~cardroom.tables.quotas`, :mod:`~cardroom.tables.workers` (the bots' processes).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import secrets
import time
import zlib
from typing import Any

from cardroom.bus import Bus
from cardroom.games.record import Record
from cardroom.games.registry import DEFAULT_GAME, GAMES, GameSpec
from cardroom.metrics import Metrics, RoomState
from cardroom.protocol import ErrorCode, Lobby
from cardroom.store.data import ChallengeEntry, NewBugReport, NewTable, TableSettings
from cardroom.store.db import NameTaken, Store
from cardroom.tables.accounts import AccountService, Session
from cardroom.tables.analyses import Analyses
from cardroom.tables.challenge import DEAL_OPTIONS, PLAYER_SEAT, DailyChallenge
from cardroom.tables.chat import TableChat
from cardroom.tables.core import CONFLICT_RETRIES, Core, busy
from cardroom.tables.driver import Driver
from cardroom.tables.errors import Moved, RoomError, no_such_table
from cardroom.tables.followers import Followers
from cardroom.tables.hints import suggest
from cardroom.tables.lobby import PAGE_LIMIT, LobbyFeed
from cardroom.tables.model import (
    MATCHES_SHOWN,
    ChallengeTable,
    Listener,
    Player,
    RoomSettings,
    Seat,
    Table,
    hash_token,
    remember_match,
)
from cardroom.tables.names import BadName, check_name
from cardroom.tables.quotas import Quotas
from cardroom.tables.relay import Relay
from cardroom.tables.rows import TableRows
from cardroom.tables.seating import Seating, check_bot_name, check_seat_number
from cardroom.tables.sync import Sync
from cardroom.tables.workers import BotWorkers, Superseded

log = logging.getLogger(__name__)

__all__ = ["MATCHES_SHOWN", "Player", "Room", "RoomError", "RoomSettings", "Table",
           "remember_match"]


class Room:
    """Every table of this server process, and the rules of who may do what."""

    def __init__(self, store: Store, settings: RoomSettings | None = None,
                 bus: Bus | None = None) -> None:
        self.settings = settings = settings or RoomSettings()
        self.metrics = Metrics()
        self.core = core = Core(store, settings, bus, self.metrics)
        self.quotas = Quotas(settings.quotas)
        self.workers = BotWorkers(settings.bot_workers, settings.bot_budget,
                                  on_decision=self.metrics.bot_decision.observe)
        self.sync = Sync(core)
        self.seating = Seating(core, self.sync)
        # The driver subscribes before the followers: it sets the turn clock their views show.
        self.driver = Driver(core, self.sync, self.workers, hand_over=self.seating.hand_over)
        self.followers = Followers(core, self.sync)
        self.relay = Relay(core, self.followers)
        self.relay.handle({
            "create": self._create, "open": self._open, "join": self._join,
            "leave": self._leave, "add_bot": self._add_bot,
            "start_with_bots": self._start_with_bots, "reserve_seat": self._reserve_seat,
            "table_settings": self._table_settings, "invite": self._invite, "say": self._say,
            "act": self._act, "hint": self._hint, "record": self._record})
        self.rows = TableRows(core, self.relay)
        self.sync.elsewhere, self.sync.versions = self.rows.noticed, self.rows.refresh
        self.seating.promised = self.rows.promised
        self.relay.let_go_of = self._lost
        self.chat = TableChat(core, self.quotas)
        self.accounts = AccountService(core, self.quotas)
        self.analyses = Analyses(store, self.workers, core.spawn)
        self.challenge = DailyChallenge(core, self.driver, self.workers,
                                        settings.challenge_bot)
        self.lobby_feed = LobbyFeed(self.rows.summary)
        core.on_lobby_change(self.lobby_feed.changed)
        self.metrics.watch(self._state)
        self._dealing: set[str] = set()
        """Challenge tables being made by this process (a second tab waits for them)."""
        self._hints: dict[tuple[str, int], tuple[int, asyncio.Future[dict[str, str]]]] = {}
        """The hint being worked out (or given) per table and seat, with the version it is
        for: asking again before the table moves on costs no more bot time."""

    @property
    def tables(self) -> dict[str, Table]:
        """Every open table this process holds, by id."""
        return self.core.tables

    @property
    def counters(self) -> dict[str, int]:
        """How this process keeps in step with the others, the matches it rated and what
        its bot workers did (reported by /api/health)."""
        leases = self.core.leases
        return {**self.core.counters, "matches_rated": self.core.rater.matches_rated,
                "tables_owned": len(leases.epochs) if leases.shared else len(self.tables),
                "tables_taken_over": leases.taken_over, "verbs_relayed": self.relay.relayed,
                "peers_placing": leases.peers_placing(),
                **{f"bot_{event}": count for event, count in self.workers.counters.items()}}

    @property
    def store(self) -> Store:
        """Where the tables and players are kept."""
        return self.core.store

    @property
    def bus(self) -> Bus:
        """The bus between processes (in-process when alone)."""
        return self.core.bus

    # -- life cycle -------------------------------------------------------------------------------

    async def start(self) -> None:
        """Start the bot workers, load the tables this process owns from the store (alone:
        every open table, replaying current matches; shared: those nobody alive owns, and
        the others' rows), and resume bots. The server answers nobody before this is done,
        so bots are ready the moment the first table needs one."""
        core = self.core
        await self.workers.start()
        await core.rater.load_bots()
        if core.shared:
            taken = await core.leases.take()  # the tables nobody alive owns
            for table_id in taken:
                await self.sync.load(table_id)
        else:
            for stored in await core.store.load_open_tables():
                core.tables[stored.id] = await self.sync.restore(stored)
        for table in core.tables.values():
            self.lobby_feed.changed(table.id)
            self._restored(table)
        core.spawn(self.driver.resume(list(core.tables.values())))
        if core.shared:
            await self.relay.taken(list(core.tables))
            await self.rows.ask()
            core.spawn(self.followers.heartbeat())
            core.spawn(self.sync.sweep())
            core.leases.start(self._taken, self._lost)
            core.spawn(core.leases.keep())
            core.spawn(self.relay.keep())
        core.spawn(self.driver.close_abandoned_tables())
        await self.challenge.close_past_days()
        core.spawn(self.challenge.sweep())
        await core.rater.rate_pending()

    def _restored(self, table: Table) -> None:
        """A table this process has just loaded from the store to drive: each seated
        player not connected anywhere gets the grace period before a bot plays for them."""
        self.followers.recount_remote(table)
        if table.status != "playing":
            return
        for number, seat in enumerate(table.seats):
            if seat.player is not None and not seat.present:
                self.followers.start_grace(table, number)

    async def stop(self) -> None:
        """Cancel timers and bots (the store keeps everything that was acknowledged), and
        hand this process's tables over to the others."""
        await self.core.cancel_tasks()
        if self.core.leases.shared:
            try:
                await self.core.leases.hand_over()
            except Exception:  # the store is gone too: the leases end by themselves
                log.exception("handing the tables over at the stop")
        for table in self.core.tables.values():
            for seat in table.seats:
                if seat.grace_task is not None:
                    seat.grace_task.cancel()
        await self.workers.stop()

    def drain(self) -> None:
        """Take no new tables and hand this process's tables over to the others, a few at a
        time, so that it can be stopped with every table playing on (a shared room; alone,
        the process keeps its tables)."""
        if self.core.leases.shared:
            self.core.leases.drain()

    async def _taken(self, table_ids: list[str]) -> None:
        """Tables this process has just taken over: each brought up to date from the store
        and driven from here on, in a task of its own (the leases' renewal and the bus do
        not wait for hundreds of loads)."""
        for table_id in table_ids:
            self.core.spawn(self._drive_taken(table_id))

    async def _drive_taken(self, table_id: str) -> None:
        """Load a table just taken and drive it; one that cannot be loaded now is handed
        back, for whoever looks next to try again."""
        try:
            table = await self.sync.load(table_id)
            if table is None:
                return
            async with table.lock:
                if not await self.sync.catch_up(table):
                    return
            self._restored(table)
            self.driver.changed(table)
            await self.relay.taken([table_id])
        except Exception:
            log.exception("taking table %s over", table_id)
            await self.core.leases.give_back(table_id)
            self._lost([table_id])

    def _lost(self, table_ids: list[str]) -> None:
        """Tables another process took from this one: their followers follow them at the
        new owner, and this process holds no more than their rows (their bots and timers
        stop here)."""
        self.relay.lost(table_ids)
        for table_id in table_ids:
            table = self.tables.get(table_id)
            if table is not None and not self.core.leases.owns(table_id):
                self.rows.keep(table)
                self.core.drop(table)

    # -- players ----------------------------------------------------------------------------------

    @staticmethod
    def check_name(name: str) -> None:
        """Refuse a name that may not be shown (``bad_name``), before anything is counted."""
        try:
            check_name(name)
        except BadName as error:
            raise RoomError(ErrorCode.BAD_NAME, str(error)) from None

    async def register(self, name: str) -> tuple[Player, str]:
        """A new player with a fresh secret token (256 random bits), if the name may be shown
        (``bad_name``: see :mod:`cardroom.tables.names`) and no player has one that looks
        the same (``name_taken``: the database's unique name key decides, in every process)."""
        try:
            checked = check_name(name)
        except BadName as error:
            raise RoomError(ErrorCode.BAD_NAME, str(error)) from None
        token = secrets.token_urlsafe(32)
        player = Player(secrets.token_hex(8), checked.display)
        try:
            await self.core.store.add_player(player.id, player.name, hash_token(token),
                                             name_key=checked.key)
        except NameTaken:
            raise RoomError(ErrorCode.NAME_TAKEN, f'Another player is already called '
                            f'"{checked.display}", or a name that looks the same; please '
                            'choose another.') from None
        self.core.players[player.id] = player
        return player, token

    async def authenticate(self, token: str) -> Player:
        """The player a token proves, or ``bad_token``."""
        found = await self.core.store.player_by_token_hash(hash_token(token))
        if found is None:
            raise RoomError(ErrorCode.BAD_TOKEN, "That token belongs to nobody: register "
                                                 "again with your name.")
        await self.core.rater.load_players([found.id])
        return self.core.players.setdefault(found.id, Player(found.id, found.name))

    async def delete_account(self, player: Player, password: str | None, confirm_name: str,
                             session: Session) -> None:
        """Delete the player's account (see :meth:`AccountService.delete`) and leave every
        table: seats of waiting tables are free again, at a match a bot plays on."""
        await self.accounts.delete(player, password, confirm_name, session)
        for table_id in self.tables_of(player):
            with contextlib.suppress(RoomError):
                await self.leave(player, table_id)

    def tables_of(self, player: Player) -> list[str]:
        """Tables where ``player`` sits (for reconnecting)."""
        return self.rows.tables_of(player)

    # -- lobby and figures ------------------------------------------------------------------------

    def lobby(self, offset: int = 0, limit: int = PAGE_LIMIT) -> Lobby:
        """A page of the lobby (most recently changed tables first), from a snapshot at most
        a second old: what ``/api/lobby`` serves however often it is asked."""
        return self.lobby_feed.page(offset, limit)

    def watch_lobby(self, listener: Listener, offset: int = 0, limit: int = PAGE_LIMIT) -> None:
        """Send a page of the lobby now, then each change of any table's row as it comes
        (``lobby_update`` messages, a burst of changes in one)."""
        self.lobby_feed.watch(listener, offset, limit)

    def _state(self) -> RoomState:
        """The room's figures now, for ``/metrics``."""
        tables = {"waiting": 0, "playing": 0, "closing": 0}
        for table in self.tables.values():
            tables["closing" if table.closing else table.status] += 1
        return RoomState(connections=self.quotas.connections,
                         lobby_watchers=self.lobby_feed.watchers, tables=tables,
                         bot_queue=self.workers.pending,
                         bot_workers=dict(self.workers.counters),
                         quota_refusals={q.value: n for q, n in self.quotas.refused.items()})

    # -- following tables -------------------------------------------------------------------------

    async def open(self, listener: Listener, player: Player | None, table_id: str,
                   invite: str | None = None) -> int | None:
        """Follow a table: the player's own seat if they sit there, else as a spectator (a
        private table only with its ``invite``, unless they sit there). The connection then
        receives the table's latest chat lines. (Where the table is owned: see
        :meth:`Relay.open`.)"""
        return await self.relay.open(listener, player, table_id, invite)

    async def _open(self, player: Player | None, table_id: str, listener: Listener,
                    invite: str | None) -> int | None:
        table = await self.sync.get_table(table_id)
        if not table.reachable_by(player, invite):
            raise no_such_table()
        seat = self.followers.open(listener, player, table, invite)
        await self.chat.history(table, listener)
        return seat

    def disconnect(self, listener: Listener) -> None:
        """A connection closed (or changed identity): stop following everything."""
        self.lobby_feed.unwatch(listener)
        self.relay.disconnect(listener)

    # -- tables and seats -------------------------------------------------------------------------

    async def new_table(self, player: Player, preset: str | None, options: dict[str, Any],
                        seat: int, turn_seconds: float | None, bot: str | None,
                        game: str = DEFAULT_GAME, hints: bool = False, private: bool = False,
                        rated: bool = True) -> str:
        """A new table made by :meth:`create_table` at the process that owns the fewest
        tables (this one when alone); its id."""
        return await self.relay.place(player, preset=preset, options=options, seat=seat,
                                      turn_seconds=turn_seconds, bot=bot, game=game,
                                      hints=hints, private=private, rated=rated)

    async def _create(self, player: Player, _table_id: str, _listener: None,
                      fill_with_bots: bool = False, **args: Any) -> str:
        table = await self.create_table(player, **args)
        if fill_with_bots:
            await self.start_with_bots(player, table.id, None)
        return table.id

    async def create_table(self, player: Player, preset: str | None, options: dict[str, Any],
                           seat: int, turn_seconds: float | None, bot: str | None,
                           game: str = DEFAULT_GAME, hints: bool = False,
                           private: bool = False, rated: bool = True,
                           challenge: ChallengeTable | None = None,
                           table_id: str | None = None) -> Table:
        """A new table of ``game`` (500 or 1000) with ``player`` in ``seat``; ``preset``
        ``None`` is the game's default preset, ``bot`` ``None`` the room's default bot;
        ``hints`` makes it a casual table, ``private`` friends only (with an invite link)
        from the start; ``rated`` tables' matches change the ratings; ``challenge`` makes it
        a daily challenge entry's (private, with no invite link); ``table_id`` ``None``: a
        fresh one."""
        bot = bot or self.settings.default_bot
        spec = known_game(game)
        if turn_seconds is not None and turn_seconds < self.settings.min_turn_seconds:
            raise RoomError(ErrorCode.BAD_RULES, "A turn timer must give at least "
                                                 f"{self.settings.min_turn_seconds:g} seconds.")
        self.quotas.tables(*self.rows.counts(player.id))
        try:
            rules = spec.rules(preset, options)
        except spec.rules_error as error:
            raise RoomError(ErrorCode.BAD_RULES, str(error)) from None
        check_bot_name(bot)
        seats = spec.players(rules)
        check_seat_number(seat, seats)
        now = time.time()
        settings = (TableSettings(private=True) if challenge is not None
                    else TableSettings(private=True, invite=new_invite()) if private
                    else TableSettings())
        table = Table(id=table_id or secrets.token_hex(6), rules=rules, bot_level=bot,
                      turn_seconds=turn_seconds, creator_id=player.id,
                      seats=[Seat() for _ in range(seats)], updated_at=now,
                      game_name=spec.name, hints=hints, settings=settings, rated=rated,
                      ratings=self.core.rater, challenge=challenge)
        with self.core.leases.new_lease(table.id) as (owner, lease_until):  # made where placed
            await self.core.store.add_table(NewTable(
                id=table.id, game=spec.name, rules=rules.to_dict(), seats=seats, bot=bot,
                turn_seconds=turn_seconds, hints=hints, creator_id=player.id, created_at=now,
                version=table.version, settings=settings, rated=rated,
                challenge=None if challenge is None else challenge.to_dict(), owner=owner,
                lease_until=lease_until))
        self.tables[table.id] = table
        if challenge is None:  # (where it is owned: it may have been handed over already)
            await self.join(player, table.id, seat, settings.invite)
        else:
            await self.seating.seat_challenge(player, table, seat)
        return table

    async def join(self, player: Player, table_id: str, seat: int,
                   invite: str | None = None) -> None:
        """Take a free seat before the match starts, or a bot's at the next hand (see
        :meth:`Seating.join`)."""
        await self.relay.run("join", player, table_id, seat=seat, invite=invite)

    async def _join(self, player: Player, table_id: str, _listener: None, seat: int,
                    invite: str | None) -> None:
        await self.seating.join(player, await self.sync.get_table(table_id), seat, invite)

    async def _visible(self, player: Player, table_id: str,
                       listener: Listener | None = None) -> Table:
        """The table, if ``player`` may see it (an open table; a private one they sit at or
        take a seat over at, or that ``listener`` follows); else ``no_such_table``, as for a
        table that does not exist, so no request tells a stranger a private table is there."""
        table = await self.sync.get_table(table_id)
        if not table.reachable_by(player, None) and (listener is None
                                                     or listener not in table.listeners):
            raise no_such_table()
        return table

    async def play_now(self, player: Player, game: str, preset: str | None) -> str:
        """Sit ``player`` down at once: at the open table of ``game`` with ``preset``'s plain
        rules that most people are waiting at (or, failing one, that is in its first hand
        with a bot's seat to take over at the next hand), else at a new table of theirs
        whose other seats take the room's bots at once, open to others. The table's id."""
        spec = known_game(game)
        try:
            rules = spec.rules(preset).to_dict()
        except spec.rules_error as error:
            raise RoomError(ErrorCode.BAD_RULES, str(error)) from None
        for table_id, seat in self._places_for(player, spec.name, rules):
            try:
                await self.join(player, table_id, seat)
            except RoomError:
                continue  # taken meanwhile: the next place
            return table_id
        return await self.relay.place(player, preset=preset, options={}, seat=0,
                                      turn_seconds=None, bot=None, game=spec.name,
                                      fill_with_bots=True)

    async def enter_challenge(self, player: Player, game: str, address: str = "") -> str:
        """The player's table of today's challenge of ``game``: the one they started (to go on
        where they stopped), or a new entry's, its first deal dealt at once with the
        challenge bot in every other seat; ``challenge_played`` once they have played every
        deal of the day (see :mod:`cardroom.tables.challenge`). The room's limit on tables
        is checked before an entry is made; a challenge's table does not count among the
        tables a player may have created, nor does the limit on new entries from one client
        ``address`` (:class:`~cardroom.tables.quotas.QuotaSettings`)."""
        spec = known_game(game)
        store, day = self.store.challenges, self.challenge.today()
        entry = await store.entry(spec.name, day, player.id)
        fresh = None
        if entry is None:
            self.quotas.tables(self.rows.counts(player.id)[0], 0)
            self.quotas.check(self.quotas.challenge_entries, f"{spec.name} {address}")
            fresh = ChallengeEntry(secrets.token_hex(8), spec.name, day, player.id,
                                   secrets.token_hex(6), time.time())
            entry = await store.add_entry(fresh)
        owner = await self._challenge_owner(entry.table_id)
        if owner is not None and owner != self.core.origin:
            return entry.table_id  # open in another tab at another process: followed there
        held = entry.table_id in self.tables
        table = await self.sync.load(entry.table_id)
        if table is None:
            if await self.store.load_table(entry.table_id) is not None:  # closed: all played
                raise RoomError(ErrorCode.CHALLENGE_PLAYED, f"You have played today's "
                                f"{spec.title} challenge: see how you stand on its "
                                "leaderboard, and come back tomorrow for new deals.")
            being_made = entry.table_id in self._dealing or (
                entry != fresh and time.time() - entry.started_at < ENTRY_SETUP)
            if being_made:  # by another tab, or another process: ask again
                raise RoomError(ErrorCode.INTERNAL, "Your challenge is being dealt; please "
                                                    "ask again in a moment.")
            # A new entry's table, or one whose making failed (a refusal, a crash): make it.
            return (await self._challenge_table(player, spec, entry)).id
        if table.game is None:  # made, but its seats not yet taken (a crash in between)
            await self.seating.seat_challenge(player, table, PLAYER_SEAT)
        elif not held:  # read back from the store, now ours: its bots go on
            self.driver.changed(table)
        return table.id

    async def _challenge_owner(self, table_id: str) -> str | None:
        """The process that owns a challenge entry's open table (``None``: it is not open).
        Its player is back: a table nobody owns (let go of while they were away, or its
        owner died) is taken here, and driven from here on."""
        leases = self.core.leases
        for _ in range(CONFLICT_RETRIES):
            try:
                owner = await leases.locate(table_id)
            except RoomError:
                return None
            if owner is not None:
                return owner.name
            if await leases.take([table_id]):
                await self._taken([table_id])
                return self.core.origin
        return None

    async def _challenge_table(self, player: Player, spec: GameSpec,
                               entry: ChallengeEntry) -> Table:
        """Make an entry's table of its day's deals, seat the player and the bots (its first
        deal starts), and have the bots play the deals too if nobody has yet."""
        self._dealing.add(entry.table_id)
        try:
            deals = dataclasses.replace(await self.challenge.deals(spec, entry.day),
                                        entry=entry.id)
            table = await self.create_table(
                player, spec.daily.preset, DEAL_OPTIONS, PLAYER_SEAT, None,
                self.settings.challenge_bot, game=spec.name, rated=False, challenge=deals,
                table_id=entry.table_id)
            self.challenge.ensure_bot_results(spec, deals)
            return table
        finally:
            self._dealing.discard(entry.table_id)

    def _places_for(self, player: Player, game: str,
                    rules: dict[str, Any]) -> list[tuple[str, int]]:
        """Where play-now may seat ``player``, best first: a free seat at a waiting table
        (the more people waiting, the better), then a bot's seat at a table in its first
        hand. Private, closing and custom-rules tables, and tables the player is at, are
        never offered."""
        waiting: list[tuple[int, str, int]] = []
        starting: list[tuple[str, int]] = []
        for row in self.rows.all():
            if (row["summary"]["game"] != game or row["private"] or row["closing"]
                    or player.id in row["players"] or row["rules"] != rules):
                continue
            table_id = row["summary"]["table_id"]
            if row["free_seat"] is not None:
                waiting.append((-len(row["players"]), table_id, row["free_seat"]))
            elif row["bot_seat"] is not None:
                starting.append((table_id, row["bot_seat"]))
        waiting.sort(key=lambda place: place[0])
        return [(table_id, seat) for _, table_id, seat in waiting] + starting

    async def reserve_seat(self, player: Player, table_id: str, seat: int,
                           reserved: bool) -> None:
        """The creator keeps an empty seat for a friend, or frees it again."""
        await self.relay.run("reserve_seat", player, table_id, seat=seat, reserved=reserved)

    async def _reserve_seat(self, player: Player, table_id: str, _listener: None, seat: int,
                            reserved: bool) -> None:
        await self.seating.reserve(player, await self._visible(player, table_id), seat, reserved)

    async def table_settings(self, player: Player, table_id: str, private: bool | None,
                             typed_chat: bool | None, invite_side: int | None) -> None:
        """The creator changes who may reach the table and its chat (``None``: unchanged;
        ``invite_side`` -1: the invite link seats its holder anywhere). A table made private
        gets an invite link if it has none."""
        await self.relay.run("table_settings", player, table_id, private=private,
                             typed_chat=typed_chat, invite_side=invite_side)

    async def _table_settings(self, player: Player, table_id: str, _listener: None,
                              private: bool | None, typed_chat: bool | None,
                              invite_side: int | None) -> None:
        table = await self._visible(player, table_id)

        def make(current: TableSettings) -> TableSettings:
            sides = len(table.spec.teams(table.rules))
            if invite_side is not None and invite_side >= sides:
                raise RoomError(ErrorCode.BAD_MESSAGE,
                                f"This table has sides 0 to {sides - 1}, not {invite_side}.")
            changed = dataclasses.replace(
                current,
                private=current.private if private is None else private,
                typed_chat=current.typed_chat if typed_chat is None else typed_chat,
                invite_side=(current.invite_side if invite_side is None
                             else None if invite_side < 0 else invite_side))
            if changed.private and changed.invite is None:
                changed = dataclasses.replace(changed, invite=new_invite())
            return changed

        await self.seating.change_settings(player, table, make)

    async def invite(self, player: Player, table_id: str, revoke: bool) -> str | None:
        """The creator's new invite link secret (the old one stops working), or ``None``
        once revoked."""
        invite: str | None = await self.relay.run("invite", player, table_id, revoke=revoke)
        return invite

    async def _invite(self, player: Player, table_id: str, _listener: None,
                      revoke: bool) -> str | None:
        table = await self._visible(player, table_id)
        settings = await self.seating.change_settings(
            player, table, lambda current: dataclasses.replace(
                current, invite=None if revoke else new_invite()))
        return settings.invite

    async def say(self, listener: Listener, player: Player, table_id: str, address: str,
                  text: str | None, phrase: str | None, reaction: str | None) -> None:
        """A chat line at a table the player sits at or follows (see :mod:`.chat`)."""
        await self.relay.run("say", player, table_id, listener, address=address, text=text,
                             phrase=phrase, reaction=reaction)

    async def _say(self, player: Player, table_id: str, listener: Listener, address: str,
                   text: str | None, phrase: str | None, reaction: str | None) -> None:
        table = await self._visible(player, table_id, listener)
        await self.chat.say(listener, player, table, address, text, phrase, reaction)

    async def leave(self, player: Player, table_id: str) -> None:
        """Leave a table (see :meth:`Seating.leave`: during a match a bot takes the seat)."""
        await self.relay.run("leave", player, table_id)

    async def _leave(self, player: Player, table_id: str, _listener: None) -> None:
        await self.seating.leave(player, await self._visible(player, table_id))

    async def add_bot(self, player: Player, table_id: str, seat: int, bot: str | None) -> None:
        """The creator seats a bot before the start."""
        await self.relay.run("add_bot", player, table_id, seat=seat, bot=bot)

    async def _add_bot(self, player: Player, table_id: str, _listener: None, seat: int,
                       bot: str | None) -> None:
        await self.seating.add_bot(player, await self._visible(player, table_id), seat, bot)

    async def start_with_bots(self, player: Player, table_id: str, bot: str | None) -> None:
        """The creator fills every empty seat with a bot; the match starts."""
        await self.relay.run("start_with_bots", player, table_id, bot=bot)

    async def _start_with_bots(self, player: Player, table_id: str, _listener: None,
                               bot: str | None) -> None:
        await self.seating.start_with_bots(player, await self._visible(player, table_id), bot)

    # -- playing ----------------------------------------------------------------------------------

    async def act(self, player: Player, table_id: str, action: str) -> dict[str, Any]:
        """A player's action at their seat: checked, stored, then announced (a claim is
        proved by the solver first, :mod:`~cardroom.tables.claims`)."""
        started = time.perf_counter()
        result: dict[str, Any] = await self.relay.run("act", player, table_id, action=action)
        self.metrics.action_latency.observe(time.perf_counter() - started)
        return result

    async def _act(self, player: Player, table_id: str, _listener: None,
                   action: str) -> dict[str, Any]:
        table = await self._visible(player, table_id)
        if self.challenge.day_over(table):
            self.challenge.close(table)
            raise RoomError(ErrorCode.CHALLENGE_TABLE, "This challenge's day is over: its "
                                                       "deals count as they stood at midnight "
                                                       "(UTC).")
        # A claim is proved first, outside the table's lock, for the version it holds at.
        judged = await self.driver.claims.judged(table, table.seat_of(player), action)
        action, proven_at = judged.action, judged.version
        async with table.lock:
            fresh = not self.core.shared
            for _ in range(CONFLICT_RETRIES):
                try:
                    number = table.seat_of(player)
                    if number is None:
                        raise RoomError(ErrorCode.NOT_AT_TABLE, "You do not sit at this table.")
                    result = await self.core.apply(table, number, action,
                                                   expected_version=proven_at)
                except Moved:
                    raise
                except RoomError as error:
                    if fresh or error.code == ErrorCode.INTERNAL:
                        raise
                    result = None  # refused on what may be stale state: look again first
                if result == {}:  # the table moved on since the proof: the claim as made
                    action, proven_at = judged.plain, None
                    continue
                if result is not None:
                    return result
                if not await self.sync.catch_up(table):
                    raise RoomError(ErrorCode.NO_SUCH_TABLE, "That table has closed.")
                fresh = True
            raise busy()

    async def hint(self, player: Player, table_id: str) -> dict[str, Any]:
        """What the search bot would do in the player's seat now, at a casual table, and
        why. It is worked out in the bot workers from the seat's own view and changes
        nothing; the answer names the version it is for."""
        hint: dict[str, Any] = await self.relay.run("hint", player, table_id)
        return hint

    async def _hint(self, player: Player, table_id: str, _listener: None) -> dict[str, Any]:
        table = await self._visible(player, table_id)
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
        if self.workers.pending >= self.settings.bot_workers:
            raise RoomError(ErrorCode.RATE_LIMITED, "The bots are busy playing: ask for a "
                                                    "hint again in a moment.")
        version, key = table.version, (table.id, seat)
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

    # -- bug reports ------------------------------------------------------------------------------

    async def report_bug(self, player: Player, table_id: str | None, description: str,
                         client_state: dict[str, Any]) -> int:
        """Store a bug report with the table's record so far (the seed stays server-side):
        only the reporter's own table's, read where the table is owned."""
        record = None
        if table_id is not None:
            with contextlib.suppress(RoomError):  # a table that closed: no record
                kept = await self.relay.run("record", player, table_id)
                record = None if kept is None else Record.from_dict(kept)
        return await self.core.store.add_bug(NewBugReport(
            player_id=player.id, player_name=player.name, description=description,
            client_state=client_state, created_at=time.time(), table_id=table_id,
            record=record))

    async def _record(self, player: Player, table_id: str,
                      _listener: None) -> dict[str, Any] | None:
        table = await self.sync.get_table(table_id)
        if table.game is None or table.seat_of(player) is None:
            return None
        return table.game.record.to_dict()


ENTRY_SETUP = 30.0
"""Seconds an entry's table may take to be made before another request makes it instead."""


def new_invite() -> str:
    """A fresh invite link secret: 192 random bits, URL-safe."""
    return secrets.token_urlsafe(24)


def _quietly(task: asyncio.Future[Any]) -> None:
    """Retrieve a shared task's outcome, so one nobody awaited any more does not warn."""
    if not task.cancelled():
        task.exception()


def known_game(game: str) -> GameSpec:
    """The registry's game of that name, or ``bad_rules`` naming the choices."""
    spec = GAMES.get(game)
    if spec is None:
        raise RoomError(ErrorCode.BAD_RULES, f"Unknown game {game!r}; choose one of: "
                                             f"{', '.join(GAMES)}.")
    return spec
