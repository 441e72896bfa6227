"""Persistence of players, tables, matches, actions and bug reports (async SQLAlchemy).

SQLite by default (a file in the working directory), PostgreSQL by URL. Every write that the
table layer needs before it acknowledges anything is committed here before the call returns
(on an SQLite file, table changes that arrive together share one short transaction:
:class:`GroupCommit`). Every other layer sees the plain dataclasses of
:mod:`cardroom.store.data` and game records, never a row or a session.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractAsyncContextManager, AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    URL,
    Connection,
    bindparam,
    create_engine,
    event,
    insert,
    literal,
    make_url,
    select,
    update,
)
from sqlalchemy.engine import Engine, Row
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import (
    AsyncConnection,
    AsyncEngine,
    async_sessionmaker,
    create_async_engine,
)

from cardroom.games.record import Record
from cardroom.store.accounts import Accounts
from cardroom.store.archive import Archive
from cardroom.store.challenges import ChallengeStore
from cardroom.store.data import (
    BugReport,
    ChatLine,
    MatchPlayers,
    MatchRecord,
    NewBugReport,
    NewTable,
    PlayerInfo,
    StoredAction,
    StoredMatch,
    StoredSeat,
    StoredTable,
    TableSettings,
)
from cardroom.store.leases import LeaseStore
from cardroom.store.models import (
    ACTIONS,
    CHAT_LINES,
    HAND_ANALYSES,
    SESSIONS,
    TABLES,
    BugRow,
    MatchRow,
    MatchSeatRow,
    PlayerRow,
    RoomRow,
    SeatRow,
    SessionRow,
    TableRow,
)
from cardroom.store.standings import Standings

DEFAULT_DATABASE_URL = "sqlite:///cardroom.sqlite3"
log = logging.getLogger(__name__)
"""The tables as Core ``Table`` objects (the ORM types them as any ``FromClause``)."""
_INSERT_ACTION = insert(ACTIONS)
_BUMP = (update(TABLES)
         .where(TABLES.c.id == bindparam("b_id"), TABLES.c.version == bindparam("b_old")))
_BUMP_FENCED = _BUMP.where(TABLES.c.owner_epoch == bindparam("b_epoch"))
"""The compare-and-set of a change by the table's owner in a shared room: also refused once
another process has taken the table (its epoch moved on: :mod:`cardroom.store.leases`)."""
_BUMP_PLAIN = _BUMP.values(version=bindparam("b_new"), updated_at=bindparam("b_at"))
"""The compare-and-set of an ordinary action (compiled once: this is the hot path)."""
_BUMP_PLAIN_FENCED = _BUMP_FENCED.values(version=bindparam("b_new"),
                                         updated_at=bindparam("b_at"))
_PLAYERS = PlayerRow.__table__
_SEATS = SeatRow.__table__
_MATCHES = MatchRow.__table__
_MATCH_COLUMNS = tuple(_MATCHES.c[name] for name in (
    "number", "seed", "dealer", "rules", "started_at", "winner", "scores", "history",
    "finished_at"))
"""What a :class:`StoredMatch` is read from: named, so a reader (the load test's check of an
older checkout's database) needs no column a later migration added."""
_BUGS = BugRow.__table__


def _bump_and_insert(bump: Any) -> Any:
    """An ordinary action as one PostgreSQL statement: the action row is inserted only if the
    compare-and-set ``bump`` matched, so one round trip does what BEGIN, UPDATE, INSERT and
    COMMIT did in four (a single statement is atomic on its own). Its parameters are named
    apart from every column (``a_…``, ``b_…``): SQLAlchemy adds a parameter named like a
    column of ``tables`` to the UPDATE's SET clause."""
    bumped = bump.returning(TABLES.c.id).cte("bumped")
    return insert(ACTIONS).from_select(
        ["table_id", "match_number", "number", "seat", "action", "created_at"],
        select(bumped.c.id, *(bindparam(f"a_{name}", type_=ACTIONS.c[name].type)
                              for name in ("match_number", "number", "seat", "action",
                                           "created_at"))))


_BUMP_AND_INSERT = _bump_and_insert(_BUMP_PLAIN)
_BUMP_AND_INSERT_FENCED = _bump_and_insert(_BUMP_PLAIN_FENCED)


def async_url(url: str) -> str:
    """The SQLAlchemy async driver URL for a plain ``sqlite:`` or ``postgresql:`` URL."""
    for plain, driver in (("sqlite://", "sqlite+aiosqlite://"),
                          ("postgresql://", "postgresql+asyncpg://"),
                          ("postgres://", "postgresql+asyncpg://")):
        if url.startswith(plain):
            return driver + url[len(plain):]
    return url


POSTGRES_POOL = 20
"""Connections a process keeps open to PostgreSQL, and the most it opens: a burst of more
writes than this waits for a connection to come back rather than opening another. A pool
that opens connections beyond its size (SQLAlchemy's overflow) closes them again as soon as
they are returned, so a busy server kept opening and closing them, each one a new server
backend, a TLS attempt and statements prepared afresh: with five kept, ~7% of the server's
CPU at 500 tables; with 20 and 10 more in a burst, ~12% at full speed (50 writes in flight).
Several processes on one PostgreSQL need processes × pool under its ``max_connections``
(100 by default): ``--database-pool``."""


def make_engine(url: str, pool: int = POSTGRES_POOL, **options: Any) -> AsyncEngine:
    """An async engine for a plain URL.

    A PostgreSQL URL may carry libpq's ``options=-csearch_path=NAME`` (several ``-cKEY=VALUE``
    separated by spaces); they become the connection's server settings, so a server (or a
    test) can keep its tables in a schema of its own. PostgreSQL connections are pooled:
    ``pool`` kept open and never more (unless ``options`` say otherwise).
    """
    parsed = make_url(async_url(url))
    connect_args: dict[str, Any] = {}
    if parsed.get_backend_name() == "postgresql" and "options" in parsed.query:
        settings = {}
        for part in str(parsed.query["options"]).replace("-c ", "-c").split():
            key, _, value = part.removeprefix("-c").partition("=")
            settings[key] = value
        connect_args["server_settings"] = settings
        parsed = parsed.difference_update_query(["options"])
    if parsed.get_backend_name() == "postgresql":
        options = {"pool_size": pool, "max_overflow": 0, **options}
    engine = create_async_engine(parsed, connect_args=connect_args, **options)
    if engine.dialect.name == "sqlite":
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
    return engine


class NameTaken(Exception):
    """Another player already has a name with this key (:meth:`Store.add_player`)."""

    def __init__(self, name_key: str) -> None:
        super().__init__(f"name key {name_key!r} is taken")
        self.name_key = name_key


@dataclass
class Change:
    """One change of a table, written all at once by :meth:`Store.commit` if, and only if, the
    table is still at ``version`` (compare-and-set): of two processes making change N of the
    same table, exactly one wins; the other reloads the table and tries again."""

    table_id: str
    version: int
    """The version the change was made against; the table is at ``version + 1`` after it."""
    updated_at: float
    action: tuple[int, int, int, str] | None = None
    """(match number, action number, seat, action text)."""
    seats: dict[int, StoredSeat] = field(default_factory=dict)
    """The seats it changes, by number."""
    settings: TableSettings | None = None
    """The table's new settings (privacy, invite, chat), if they change."""
    match: tuple[int, int, int, dict[str, Any]] | None = None
    """A new current match: (number, seed, first dealer, rules)."""
    finish: tuple[int, int, list[int], list[dict[str, Any]]] | None = None
    """The current match ended: (number, winner, scores, history)."""
    players: MatchPlayers | None = None
    """With ``finish``: who played it, and whether it is rated."""
    close: bool = False
    epoch: int | None = None
    """The writer's fencing token when it owns the table in a shared room: the change is
    refused once another process has taken the table. ``None``: not fenced."""


class Store:
    """The database behind the card room."""

    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine
        self._sessions = async_sessionmaker(engine, expire_on_commit=False)
        self._single_statement = engine.dialect.name == "postgresql"
        """Ordinary actions are written by :meth:`_commit_action` (SQLite cannot put an
        UPDATE in a WITH clause)."""
        self._autocommit = engine.execution_options(isolation_level="AUTOCOMMIT")
        self._sqlite_writer = asyncio.Lock() if engine.dialect.name == "sqlite" else None
        """SQLite lets one transaction write at a time and makes the others poll with growing
        sleeps; queueing this process's writes here instead keeps each one short."""
        self.group_commit = GroupCommit(engine.url, self._writing) if GroupCommit.serves(engine) \
            else None
        """Table changes on an SQLite file go through :class:`GroupCommit`."""
        self.accounts = Accounts(engine, self._writing)
        """Sessions, passwords, passkeys and deleting accounts."""
        self.standings = Standings(engine, self._writing)
        """Ratings, profiles and the leaderboard."""
        self.challenges = ChallengeStore(engine, self._writing)
        """The daily challenge's days, entries and results."""
        self.archive = Archive(engine, self._writing)
        """Old finished matches moved out to record files and back (``store/archive.py``)."""
        self.leases = LeaseStore(engine, self._writing)
        """Which process owns each open table of a shared room (``store/leases.py``)."""

    @contextlib.asynccontextmanager
    async def _writing(self) -> AsyncIterator[None]:
        if self._sqlite_writer is None:
            yield
            return
        async with self._sqlite_writer:
            yield

    @classmethod
    async def open(cls, url: str = DEFAULT_DATABASE_URL, migrate: bool = True,
                   pool: int = POSTGRES_POOL) -> Store:
        """Connect and, unless told not to, upgrade the schema to the newest migration;
        ``pool``: PostgreSQL connections kept open (:data:`POSTGRES_POOL`)."""
        from cardroom.store.migrate import upgrade

        engine = make_engine(url, pool)
        if migrate:
            await upgrade(engine)
        return cls(engine)

    async def close(self) -> None:
        """Release the connection pool (after writing the changes already queued)."""
        if self.group_commit is not None:
            await self.group_commit.close()
        await self._engine.dispose()

    async def room_key(self) -> str:
        """The room's key (made with the schema): the same for every process that shares
        this database, another for any other database."""
        async with self._engine.connect() as connection:
            key = (await connection.execute(select(RoomRow.key))).scalar_one_or_none()
        if key is None:
            raise RuntimeError("the database has no room key: run `cardroom db upgrade`")
        return key

    # -- players --------------------------------------------------------------------------------

    async def add_player(self, player_id: str, name: str, token_hash: str,
                         name_key: str | None = None) -> None:
        """Register a player, signed in with the token ``token_hash`` is the hash of;
        :class:`NameTaken` if another player has ``name_key``.

        The unique index on ``players.name_key`` decides, not a look-up first: of two
        registrations of one name at once, in one process or two, exactly one succeeds.
        """
        now = time.time()
        try:
            async with self._writing(), self._sessions.begin() as session:
                session.add(PlayerRow(id=player_id, name=name, name_key=name_key,
                                      created_at=now))
                await session.flush()
                session.add(SessionRow(token_hash=token_hash, player_id=player_id,
                                       created_at=now))
        except IntegrityError:
            if name_key is not None and await self._name_key_held(name_key):
                raise NameTaken(name_key) from None
            raise

    async def _name_key_held(self, name_key: str) -> bool:
        """Whether a player has this name key (asked after a refused insert: the row that
        won is committed by then)."""
        async with self._sessions() as session:
            held = await session.execute(
                select(PlayerRow.id).where(PlayerRow.name_key == name_key).limit(1))
            return held.first() is not None

    async def player_by_token_hash(self, token_hash: str) -> PlayerInfo | None:
        """The player signed in with the token that hashes to this, if any."""
        async with self._engine.connect() as connection:
            found = (await connection.execute(
                select(_PLAYERS.c.id, _PLAYERS.c.name)
                .join(SESSIONS, SESSIONS.c.player_id == _PLAYERS.c.id)
                .where(SESSIONS.c.token_hash == token_hash,
                       _PLAYERS.c.deleted_at.is_(None)))).first()
            return None if found is None else PlayerInfo(found.id, found.name)

    async def players(self, ids: Sequence[str]) -> dict[str, PlayerInfo]:
        """Players by id (ids nobody has are left out)."""
        if not ids:
            return {}
        async with self._engine.connect() as connection:
            rows = await connection.execute(select(_PLAYERS.c.id, _PLAYERS.c.name)
                                            .where(_PLAYERS.c.id.in_(ids)))
            return {row.id: PlayerInfo(row.id, row.name) for row in rows}

    # -- tables ---------------------------------------------------------------------------------

    async def commit(self, change: Change) -> bool:
        """Write a change if the table is still at ``change.version``; False if another writer
        got there first (nothing is written then).

        The version bump comes first: on PostgreSQL it locks the table's row until commit, so
        a rival transaction waits, then finds the version moved and matches no row.
        """
        fenced = change.epoch is not None
        if change.match is None and not change.close and change.settings is None:
            bump = _BUMP_PLAIN_FENCED if fenced else _BUMP_PLAIN
            parameters = {"b_id": change.table_id, "b_old": change.version,
                          "b_new": change.version + 1, "b_at": change.updated_at}
            if fenced:
                parameters["b_epoch"] = change.epoch
            if self._single_statement and _only_an_action(change):
                return await self._commit_action(change, parameters)
        else:
            values: dict[str, Any] = {"version": change.version + 1,
                                      "updated_at": change.updated_at}
            if change.match is not None:
                values["match_number"] = change.match[0]
            if change.close:
                values["closed"] = True
            if change.settings is not None:
                values.update(_settings_columns(change.settings))
            bump = (_BUMP_FENCED if fenced else _BUMP).values(**values)
            parameters = {"b_id": change.table_id, "b_old": change.version}
            if fenced:
                parameters["b_epoch"] = change.epoch
        if self.group_commit is not None:
            return await self.group_commit.commit(change, bump, parameters)
        async with self._writing(), self._engine.begin() as connection:
            return await connection.run_sync(_write_change, change, bump, parameters)

    async def _commit_action(self, change: Change, parameters: dict[str, Any]) -> bool:
        """An ordinary action on PostgreSQL, in one statement (:data:`_BUMP_AND_INSERT`)."""
        match, number, seat, text = change.action  # type: ignore[misc]
        async with self._autocommit.connect() as connection:
            statement = _BUMP_AND_INSERT if change.epoch is None else _BUMP_AND_INSERT_FENCED
            written = await connection.execute(statement, {
                **parameters, "a_match_number": match, "a_number": number, "a_seat": seat,
                "a_action": text, "a_created_at": change.updated_at})
            return written.rowcount == 1

    async def load_table(self, table_id: str, match_number: int | None = None,
                         actions_from: int = 0) -> StoredTable | None:
        """One table as it stands now (closed ones too: see ``closed``).

        To catch up a table already held in memory, pass the match it holds and how many of
        its actions it has: if the table is still on that match, only later actions are read
        and finished matches are not.
        """
        async with self._engine.connect() as connection:
            row = (await connection.execute(
                select(TABLES).where(TABLES.c.id == table_id))).first()
            if row is None:
                return None
            return await _read_table(connection, row, match_number, actions_from)

    async def table_versions(self, challenges: bool = True) -> dict[str, int]:
        """The version of every open table (one cheap query: how processes notice changes
        whose notice they missed); without the daily challenge's unless ``challenges`` (each
        is reached by its player, who may leave it for hours)."""
        query = select(TABLES.c.id, TABLES.c.version).where(TABLES.c.closed.is_(False))
        if not challenges:
            query = query.where(TABLES.c.challenge.is_(None))
        async with self._engine.connect() as connection:
            return {table_id: version for table_id, version in await connection.execute(query)}

    async def add_table(self, table: NewTable) -> None:
        """Create a table with its empty seats, on no match yet."""
        async with self._writing(), self._engine.begin() as connection:
            await connection.execute(insert(TableRow).values(
                id=table.id, game=table.game, rules=table.rules,
                turn_seconds=table.turn_seconds, bot=table.bot, hints=table.hints,
                creator_id=table.creator_id, created_at=table.created_at,
                updated_at=table.created_at, match_number=0, closed=False,
                version=table.version, rated=table.rated, challenge=table.challenge,
                owner=table.owner, owner_epoch=1 if table.owner else 0,
                lease_until=table.lease_until, **_settings_columns(table.settings)))
            if table.seats:
                await connection.execute(insert(SeatRow), [
                    {"table_id": table.id, "seat": seat, "player_id": None, "bot": None,
                     "away": False} for seat in range(table.seats)])

    async def load_open_tables(self) -> list[StoredTable]:
        """Every table not closed, with its seats, its current match and that match's actions."""
        async with self._engine.connect() as connection:
            rows = (await connection.execute(
                select(TABLES).where(TABLES.c.closed.is_(False)))).all()
            return [await _read_table(connection, row) for row in rows]

    async def match_records(self, table_id: str) -> list[MatchRecord]:
        """Every match of a table, oldest first, each with its whole record so far (the
        current match's too): what replays a table's history, as the load test's end check
        does. Empty if there is no such table."""
        async with self._engine.connect() as connection:
            game = (await connection.execute(
                select(TABLES.c.game).where(TABLES.c.id == table_id))).scalar_one_or_none()
            if game is None:
                return []
            matches = [_stored_match(m) for m in await connection.execute(
                select(*_MATCH_COLUMNS).where(_MATCHES.c.table_id == table_id)
                .order_by(_MATCHES.c.number))]
            actions: dict[int, list[Any]] = {m.number: [] for m in matches}
            for action in await connection.execute(
                    select(ACTIONS.c.match_number, ACTIONS.c.seat, ACTIONS.c.action)
                    .where(ACTIONS.c.table_id == table_id)
                    .order_by(ACTIONS.c.match_number, ACTIONS.c.number)):
                if action.match_number in actions:
                    actions[action.match_number].append(action)
        return [MatchRecord(match=m, record=Record(
            game=game, rules=m.rules, seed=m.seed, dealer=m.dealer,
            actions=[a.action for a in actions[m.number]],
            seats=[a.seat for a in actions[m.number]])) for m in matches]

    # -- hands' analyses --------------------------------------------------------------------------

    async def hand_analysis(self, table_id: str, match_number: int,
                            hand: int) -> dict[str, Any] | None:
        """The analysis kept for a hand of a table's match (``None``: none yet)."""
        async with self._engine.connect() as connection:
            found = (await connection.execute(
                select(HAND_ANALYSES.c.analysis).where(
                    HAND_ANALYSES.c.table_id == table_id,
                    HAND_ANALYSES.c.match_number == match_number,
                    HAND_ANALYSES.c.hand == hand))).scalar_one_or_none()
        return dict(found) if found is not None else None

    async def add_hand_analysis(self, table_id: str, match_number: int, hand: int,
                                analysis: dict[str, Any]) -> None:
        """Keep a hand's analysis; one another process kept first stays (they are the same)."""
        try:
            async with self._writing(), self._engine.begin() as connection:
                await connection.execute(insert(HAND_ANALYSES).values(
                    table_id=table_id, match_number=match_number, hand=hand,
                    analysis=analysis, created_at=time.time()))
        except IntegrityError:
            pass

    # -- chat -------------------------------------------------------------------------------------

    async def add_chat_line(self, line: ChatLine, epoch: int | None = None) -> bool:
        """Keep a line of a table's chat (with the table's matches, for its replay); in a
        shared room only while the table's row is still at the owner's ``epoch``, as every
        other write of an owner (False: another process has taken the table, and nothing
        is kept)."""
        values = {"table_id": line.table_id, "match_number": line.match_number,
                  "created_at": line.created_at, "player_id": line.player_id,
                  "name": line.name, "seat": line.seat, "channel": line.channel,
                  "kind": line.kind, "text": line.text}
        if epoch is None:
            statement = insert(CHAT_LINES).values(**values)
        else:
            columns = (literal(value, CHAT_LINES.c[name].type).label(name)
                       for name, value in values.items())
            owned = select(*columns).where(TABLES.c.id == line.table_id,
                                           TABLES.c.owner_epoch == epoch)
            statement = insert(CHAT_LINES).from_select(list(values), owned)
        async with self._writing(), self._engine.begin() as connection:
            kept = (await connection.execute(statement)).rowcount
        return kept == 1

    async def chat_lines(self, table_id: str, limit: int = 1000) -> list[ChatLine]:
        """A table's chat, oldest first: its latest ``limit`` lines."""
        async with self._engine.connect() as connection:
            rows = (await connection.execute(
                select(CHAT_LINES).where(CHAT_LINES.c.table_id == table_id)
                .order_by(CHAT_LINES.c.id.desc()).limit(limit))).all()
        return [ChatLine(table_id=row.table_id, match_number=row.match_number,
                         created_at=row.created_at, player_id=row.player_id, name=row.name,
                         seat=row.seat, channel=row.channel, kind=row.kind, text=row.text)
                for row in reversed(rows)]

    # -- bug reports ----------------------------------------------------------------------------

    async def add_bug(self, report: NewBugReport) -> int:
        """Store a bug report; returns its number."""
        async with self._writing(), self._sessions.begin() as session:
            row = BugRow(table_id=report.table_id, player_id=report.player_id,
                         player_name=report.player_name, description=report.description,
                         record=None if report.record is None else report.record.to_dict(),
                         client_state=report.client_state, created_at=report.created_at)
            session.add(row)
            await session.flush()
            return row.id

    async def bugs(self) -> list[BugReport]:
        """Every bug report, oldest first."""
        async with self._engine.connect() as connection:
            rows = await connection.execute(select(_BUGS).order_by(_BUGS.c.id))
            return [BugReport(id=row.id, player_id=row.player_id, player_name=row.player_name,
                              description=row.description, client_state=row.client_state,
                              created_at=row.created_at, table_id=row.table_id,
                              record=_bug_record(row.record)) for row in rows]


async def _read_table(connection: AsyncConnection, row: Row[Any],
                      match_number: int | None = None, actions_from: int = 0) -> StoredTable:
    """A table with its seats and matches, read inside the caller's transaction (see
    :meth:`Store.load_table` for ``match_number`` and ``actions_from``)."""
    table_id = row.id
    seats = {seat.seat: StoredSeat(seat.player_id, seat.bot, bool(seat.away),
                                   bool(seat.reserved), seat.successor_id)
             for seat in await connection.execute(
                 select(_SEATS.c.seat, _SEATS.c.player_id, _SEATS.c.bot, _SEATS.c.away,
                        _SEATS.c.reserved, _SEATS.c.successor_id)
                 .where(_SEATS.c.table_id == table_id))}
    same_match = match_number == row.match_number
    query = select(*_MATCH_COLUMNS).where(_MATCHES.c.table_id == table_id)
    if same_match:
        query = query.where(_MATCHES.c.number == row.match_number)
    matches = [_stored_match(m)
               for m in await connection.execute(query.order_by(_MATCHES.c.number))]
    current = next((m for m in matches if m.number == row.match_number), None)
    actions: tuple[StoredAction, ...] = ()
    if current is not None:
        actions = tuple(StoredAction(a.number, a.seat, a.action, a.created_at)
                        for a in await connection.execute(
                            select(ACTIONS.c.number, ACTIONS.c.seat, ACTIONS.c.action,
                                   ACTIONS.c.created_at)
                            .where(ACTIONS.c.table_id == table_id,
                                   ACTIONS.c.match_number == current.number,
                                   ACTIONS.c.number >= (actions_from if same_match else 0))
                            .order_by(ACTIONS.c.number)))
    return StoredTable(
        id=table_id, game=row.game, rules=row.rules, bot=row.bot,
        turn_seconds=row.turn_seconds, hints=bool(row.hints), creator_id=row.creator_id,
        created_at=row.created_at,
        updated_at=max(row.updated_at, actions[-1].created_at) if actions else row.updated_at,
        match_number=row.match_number, closed=bool(row.closed), version=row.version,
        seats=tuple(seats.get(number, StoredSeat())
                    for number in range(max(seats, default=-1) + 1)),
        match=current, actions=actions,
        finished=() if same_match else tuple(m for m in matches if m.finished_at is not None),
        settings=TableSettings(private=bool(row.private), invite=row.invite,
                               invite_side=row.invite_side, typed_chat=bool(row.typed_chat)),
        rated=bool(row.rated), challenge=row.challenge, owner=row.owner,
        owner_epoch=row.owner_epoch)


def _stored_match(row: Row[Any]) -> StoredMatch:
    """A row of ``matches`` as a :class:`StoredMatch`."""
    return StoredMatch(number=row.number, seed=row.seed, dealer=row.dealer, rules=row.rules,
                       started_at=row.started_at, winner=row.winner, scores=row.scores,
                       history=row.history, finished_at=row.finished_at)


def _bug_record(data: Any) -> Record | None:
    """A bug report's stored record; ``None`` if it kept none, or something that is no
    record (reports are written with :meth:`Record.to_dict`, but the column takes any JSON)."""
    if not isinstance(data, dict):
        return None
    try:
        return Record.from_dict(data)
    except (KeyError, TypeError, ValueError):
        return None


def _settings_columns(settings: TableSettings) -> dict[str, Any]:
    """A table's settings as the values of its row's columns."""
    return {"private": settings.private, "invite": settings.invite,
            "invite_side": settings.invite_side, "typed_chat": settings.typed_chat}


def _write_change(connection: Connection, change: Change, bump: Any,
                  parameters: dict[str, Any]) -> bool:
    """Write one change inside the caller's transaction; False (and nothing written) if the
    table is no longer at ``change.version``."""
    if connection.execute(bump, parameters).rowcount != 1:
        return False
    if change.action is not None:
        connection.execute(_INSERT_ACTION, _action_row(change))
    for place, held in change.seats.items():
        connection.execute(
            update(SeatRow).where(SeatRow.table_id == change.table_id, SeatRow.seat == place)
            .values(player_id=held.player_id, bot=held.bot, away=held.away,
                    reserved=held.reserved, successor_id=held.successor_id))
    if change.match is not None:
        number, seed, dealer, rules = change.match
        connection.execute(insert(MatchRow).values(
            table_id=change.table_id, number=number, seed=seed, dealer=dealer, rules=rules,
            started_at=change.updated_at))
    if change.finish is not None:
        number, winner, scores, history = change.finish
        connection.execute(
            update(MatchRow).where(MatchRow.table_id == change.table_id,
                                   MatchRow.number == number)
            .values(winner=winner, scores=scores, history=history,
                    finished_at=change.updated_at,
                    rating="pending" if change.players and change.players.rated
                    else "unrated",
                    private=bool(change.players and change.players.private)))
        if change.players is not None and change.players.seats:
            connection.execute(insert(MatchSeatRow), [
                {"table_id": change.table_id, "match_number": number, "seat": held.seat,
                 "player_id": held.player_id, "bot": held.bot, "side": held.side,
                 "won": held.won, "finished_at": change.updated_at}
                for held in change.players.seats])
    return True


_Pending = tuple[Change, Any, dict[str, Any], "asyncio.Future[bool]"]


class GroupCommit:
    """Table changes written to an SQLite file in groups, in the event loop's own thread.

    Through aiosqlite every statement is a hand-off to its thread and back: four per action
    (BEGIN, UPDATE, INSERT, COMMIT), a third of a loaded server's time; even one hand-off a
    group to a writer thread of its own cost more than the writing (the two threads' turns
    at the interpreter lock: 0.1 ms of CPU an action on a loaded server). So a group is
    written where the changes are made: the changes that arrive while one is being written
    (or while the store's write lock is held) wait for the next, and a group is one
    transaction, however many changes it holds. In WAL mode with ``synchronous=NORMAL`` a
    commit appends to the WAL without waiting for the disk (about 25 µs); what can wait on
    the disk, copying the WAL back into the database (a checkpoint), is done in a thread
    every :data:`CHECKPOINT_AFTER` changes, never by a commit here (see
    :meth:`_checkpoint_wal`). Nor does the loop ever wait for SQLite's lock: its writes give
    up at once when another process holds it (``cardroom db archive`` or ``import-archive``
    on the same file, say), and that group is written by the thread, which waits as long as
    SQLite's usual five seconds.

    Each change keeps its own compare-and-set: one that lost its race writes nothing and
    answers False, the others are written. A group in which a change breaks a constraint is
    rolled back and its changes are written one by one, so only the faulty one fails; any
    other failure fails the whole group. A change whose caller gave up before its group was
    formed is not written (one already being written cannot be withdrawn).

    An ordinary action (the version's compare-and-set and the action's row, nearly every
    change) is written with the two statements compiled once and run on the driver's cursor:
    SQLAlchemy's work around each statement cost three times SQLite's own (about 80 µs
    against 25 µs an action, a tenth of a loaded server's CPU). Every other change takes
    SQLAlchemy's path, in the same transaction.
    """

    def __init__(self, url: URL, writing: Callable[[], AbstractAsyncContextManager[None]]):
        self.engine = _writer_engine(url, wait_for_lock=False)
        """The engine the event loop writes with: it never waits for SQLite's lock."""
        self._patient = _writer_engine(url, wait_for_lock=True)
        """The engine of the writer's thread: it waits for SQLite's lock as long as the
        room's other connections do."""
        self.engines = (self.engine, self._patient)
        """Both engines that write table changes."""
        self._bump = _DriverStatement(_BUMP_PLAIN, self.engine.dialect)
        self._insert_action = _DriverStatement(_INSERT_ACTION, self.engine.dialect,
                                               [column.name for column in ACTIONS.c])
        self._writing = writing
        """The store's own lock on writes, held while a group is written."""
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite-writer")
        self._checkpoint: asyncio.Task[None] | None = None
        self._since_checkpoint = 0
        """Changes written since the last checkpoint began."""
        self._pending: list[_Pending] = []
        self._held: Connection | None = None
        """The connection the event loop writes with (see :meth:`_in_held_connection`)."""
        self._flusher: asyncio.Task[None] | None = None
        self._closed = False
        self.groups = 0
        """Groups written so far (how many changes shared one is ``changes / groups``)."""

    @staticmethod
    def serves(engine: AsyncEngine) -> bool:
        """Whether the engine's database is an SQLite file (an in-memory database is private
        to its connection, so another connection would see another database)."""
        database = engine.url.database
        return engine.dialect.name == "sqlite" and database not in (None, "", ":memory:")

    async def commit(self, change: Change, bump: Any, parameters: dict[str, Any]) -> bool:
        """Write the change with the next group; answers as :meth:`Store.commit`."""
        if self._closed:
            raise RuntimeError("The store is closed.")
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._pending.append((change, bump, parameters, future))
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush())
        return await future

    async def _flush(self) -> None:
        """Write groups until nothing waits. Whatever happens, every waiting caller gets an
        answer: the outcome of its change, or the error that stopped the writing."""
        group: list[_Pending] = []
        try:
            while self._pending:
                group = [pending for pending in self._pending if not pending[3].done()]
                self._pending = []
                if not group:
                    continue
                async with self._writing():
                    outcomes = await self._write_somewhere(group)
                self.groups += 1
                for (*_, future), outcome in zip(group, outcomes, strict=True):
                    _settle(future, outcome)
                group = []
                self._checkpoint_when_due(len(outcomes))
        except BaseException as error:
            unanswered, self._pending = group + self._pending, []
            for *_, future in unanswered:
                _settle(future, error)
            if not isinstance(error, Exception):
                raise  # cancelled: the callers were cancelled with it
            log.exception("could not write a group of %d table changes", len(unanswered))

    def _checkpoint_when_due(self, written: int) -> None:
        """Count ``written`` changes; every :data:`CHECKPOINT_AFTER` of them, checkpoint the
        WAL (unless a checkpoint is still running)."""
        self._since_checkpoint += written
        if self._since_checkpoint < CHECKPOINT_AFTER or (
                self._checkpoint is not None and not self._checkpoint.done()):
            return
        self._since_checkpoint = 0
        self._checkpoint = asyncio.create_task(self._checkpoint_wal())
        self._checkpoint.add_done_callback(_log_checkpoint_failure)

    async def _checkpoint_wal(self) -> None:
        """Copy the WAL back into the database in the writer's thread, and start it over.

        A passive checkpoint copies while the room goes on writing; but SQLite starts the WAL
        over only when a write begins with every frame copied, which never happens while
        writes keep coming. So once everything is copied, the WAL is truncated with the
        store's write lock held, without waiting: if a reader still uses it (a backup's long
        read, say), the next checkpoint tries again. A passive copy that misses the frames
        written while it ran is tried again at once (:data:`PASSIVE_TRIES`), each try having
        fewer left: with only one, a burst's last writes, landing during the copy, left the
        WAL at 3.7 MB after it and failed the WAL test on a loaded machine."""
        loop = asyncio.get_running_loop()
        for _ in range(PASSIVE_TRIES):
            if await loop.run_in_executor(self._thread, self._checkpoint_now, "PASSIVE"):
                break
        else:
            return
        async with self._writing():
            # Shielded: a cancelled wait must not let the next group write while the
            # thread still holds SQLite's lock.
            await asyncio.shield(loop.run_in_executor(self._thread, self._checkpoint_now,
                                                      "TRUNCATE"))

    def _checkpoint_now(self, mode: str) -> bool:
        """In the writer's thread: a checkpoint of the WAL in ``mode`` that waits for no
        lock; whether it copied every frame (and, truncating, started the WAL over)."""
        with self.engine.connect() as connection:
            busy, frames, copied = connection.exec_driver_sql(
                f"PRAGMA wal_checkpoint({mode})").one()
        if busy:
            log.debug("a %s checkpoint found the WAL in use; it is tried again later", mode)
        return not busy and frames == copied

    async def _write_somewhere(self, group: list[_Pending]) -> list[bool | Exception]:
        """Write the group in the event loop, or, when SQLite's lock is another process's or
        a change breaks a constraint, in the writer's thread (waiting for the lock, and one
        change at a time after a broken constraint). The loop's attempt is one transaction,
        rolled back whole when it fails, so the thread writes every change exactly once."""
        try:
            return self._write_together(group, self._in_held_connection)
        except Exception as error:
            if not (_busy(error) or isinstance(error, IntegrityError)):
                raise
        return await asyncio.get_running_loop().run_in_executor(
            self._thread, self._write_group, group)

    def _write_group(self, group: list[_Pending]) -> list[bool | Exception]:
        """In the writer's thread: the whole group in one transaction, or one by one if a
        change breaks a constraint."""
        try:
            return self._write_together(group, self._patient.begin)
        except IntegrityError as error:
            if len(group) == 1:
                return [error]
            log.warning("a change of a group of %d broke a constraint (%s); writing them one "
                        "by one", len(group), error.orig)
        return [self._write_alone(pending) for pending in group]

    def _write_alone(self, pending: _Pending) -> bool | Exception:
        """In the writer's thread: one change in its own transaction; its answer only once
        that transaction has committed."""
        try:
            return self._write_together([pending], self._patient.begin)[0]
        except Exception as error:
            return error

    @contextmanager
    def _in_held_connection(self) -> Iterator[Connection]:
        """A transaction on the connection the event loop keeps for its writes: taken from
        the pool once, not for every group (a checkout and a return with its reset cost
        about as much as the group's own statements). After a failure it goes back to the
        pool, whose reset rolls back whatever the failure left open (a COMMIT that failed,
        say), and the next group takes one afresh."""
        if self._held is None:
            self._held = self.engine.connect()
        try:
            with self._held.begin():
                yield self._held
        except BaseException:
            self._held.close()
            self._held = None
            raise

    def _write_together(self, group: list[_Pending],
                        begin: Callable[[], AbstractContextManager[Connection]]
                        ) -> list[bool | Exception]:
        """The group's changes in one transaction (``begin`` gives its connection); their
        answers are returned only once it has committed."""
        with begin() as connection:
            cursor = connection.connection.cursor()
            try:
                return [self._write_action(cursor, change, parameters)
                        if bump is _BUMP_PLAIN and _only_an_action(change)
                        else _write_change(connection, change, bump, parameters)
                        for change, bump, parameters, _ in group]
            finally:
                cursor.close()

    def _write_action(self, cursor: Any, change: Change, parameters: dict[str, Any]) -> bool:
        """An ordinary action's compare-and-set and row, as :func:`_write_change` writes
        them, on the driver's cursor."""
        if self._bump.run(cursor, parameters) != 1:
            return False
        self._insert_action.run(cursor, _action_row(change))
        return True

    async def close(self) -> None:
        """Finish the changes already queued, then release the thread and the connection;
        later changes are refused."""
        self._closed = True
        if self._flusher is not None:
            await asyncio.wait({self._flusher})  # not cancelled if this wait is
        if self._checkpoint is not None:
            await asyncio.wait({self._checkpoint})
        await asyncio.to_thread(self._release)

    def _release(self) -> None:
        self._thread.shutdown(wait=True)
        if self._held is not None:
            self._held.close()
        self.engine.dispose()
        self._patient.dispose()


PASSIVE_TRIES = 3
"""Passive checkpoints tried one after another before giving up until the next one is due
(a reader holding the WAL fails them all at once; writes coming in fail fewer each time)."""
CHECKPOINT_AFTER = 500
"""Changes written between two checkpoints of the WAL (a change adds two or three pages to
it, so the WAL stays near SQLite's own default of a checkpoint every 1,000 pages)."""


def _writer_engine(url: URL, wait_for_lock: bool) -> Engine:
    """A synchronous engine of the table writer's: its commits never checkpoint the WAL (a
    checkpoint can wait on the disk: :meth:`GroupCommit._checkpoint_wal` does it), and,
    unless ``wait_for_lock``, a write that finds SQLite's lock taken fails at once
    (SQLITE_BUSY) instead of waiting for it."""
    engine = create_engine(url.set(drivername="sqlite"))
    event.listen(engine, "connect", _sqlite_pragmas)

    def writer_pragmas(connection: Any, _record: Any) -> None:
        cursor = connection.cursor()
        cursor.execute("PRAGMA wal_autocheckpoint=0")
        if not wait_for_lock:
            cursor.execute("PRAGMA busy_timeout=0")
        cursor.close()

    event.listen(engine, "connect", writer_pragmas)
    return engine


def _busy(error: BaseException) -> bool:
    """The error says SQLite's lock was taken (SQLITE_BUSY), whether raised by the driver or
    wrapped by SQLAlchemy."""
    driver_error = getattr(error, "orig", error)
    return (isinstance(driver_error, sqlite3.OperationalError)
            and getattr(driver_error, "sqlite_errorcode", None) == sqlite3.SQLITE_BUSY)


def _log_checkpoint_failure(done: asyncio.Future[None]) -> None:
    """A checkpoint that failed is said in the log (the next one tries again)."""
    if not done.cancelled() and done.exception() is not None:
        log.warning("could not checkpoint the database's WAL: %s", done.exception())


def _action_row(change: Change) -> dict[str, Any]:
    """The row of ``actions`` a change with an action adds."""
    assert change.action is not None
    match, number, seat, text = change.action
    return {"table_id": change.table_id, "match_number": match, "number": number,
            "seat": seat, "action": text, "created_at": change.updated_at}


def _only_an_action(change: Change) -> bool:
    """The change is an ordinary action: no seat, match, settings or closing with it."""
    return (change.action is not None and not change.seats and change.match is None
            and change.finish is None and change.settings is None and not change.close)


class _DriverStatement:
    """A statement of plain columns compiled once for a dialect, run on a driver's cursor
    with its parameters by name (SQLAlchemy's statement, without its work per execution).
    A broken constraint raises SQLAlchemy's ``IntegrityError``, as the statement run by
    SQLAlchemy would."""

    def __init__(self, statement: Any, dialect: Any, columns: list[str] | None = None) -> None:
        compiled = statement.compile(dialect=dialect, column_keys=columns)
        self.sql = str(compiled)
        self.names = tuple(compiled.positiontup or ())
        self._driver_integrity_error: type[Exception] = dialect.loaded_dbapi.IntegrityError

    def run(self, cursor: Any, parameters: dict[str, Any]) -> int:
        """Execute with ``parameters``; the rows it changed."""
        values = tuple(parameters[name] for name in self.names)
        try:
            cursor.execute(self.sql, values)
        except self._driver_integrity_error as error:
            raise IntegrityError(self.sql, values, error) from error
        return int(cursor.rowcount)


def _settle(future: asyncio.Future[bool], outcome: bool | BaseException) -> None:
    """Hand an outcome to a waiting caller (unless it has stopped waiting)."""
    if future.done():
        return
    if isinstance(outcome, asyncio.CancelledError):
        future.cancel()
    elif isinstance(outcome, BaseException):
        future.set_exception(outcome)
    else:
        future.set_result(outcome)


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    """WAL keeps readers off writers' backs; NORMAL sync survives a killed process."""
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()
