"""Persistence of players, tables, matches, actions and bug reports (async SQLAlchemy).

SQLite by default (a file in the working directory), PostgreSQL by URL. Every write that the
table layer needs before it acknowledges anything is committed here before the call returns
(on an SQLite file, table changes that arrive together share one short transaction:
:class:`GroupCommit`); every other layer sees plain dataclasses, never sessions.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    URL,
    Connection,
    bindparam,
    create_engine,
    event,
    insert,
    make_url,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine

from cardroom.store.models import (
    ActionRow,
    BugRow,
    MatchRow,
    PlayerRow,
    SeatRow,
    TableRow,
)

DEFAULT_DATABASE_URL = "sqlite:///cardroom.sqlite3"
log = logging.getLogger(__name__)
_INSERT_ACTION = insert(ActionRow.__table__)
_TABLES = TableRow.__table__
_BUMP = (update(_TABLES)
         .where(_TABLES.c.id == bindparam("b_id"), _TABLES.c.version == bindparam("b_old")))
_BUMP_PLAIN = _BUMP.values(version=bindparam("b_new"), updated_at=bindparam("b_at"))
"""The compare-and-set of an ordinary action (compiled once: this is the hot path)."""
_ACTIONS = ActionRow.__table__
_BUMPED = _BUMP_PLAIN.returning(_TABLES.c.id).cte("bumped")
_BUMP_AND_INSERT = insert(_ACTIONS).from_select(
    ["table_id", "match_number", "number", "seat", "action", "created_at"],
    select(_BUMPED.c.id, *(bindparam(f"a_{name}", type_=_ACTIONS.c[name].type)
                           for name in ("match_number", "number", "seat", "action",
                                        "created_at"))))
"""An ordinary action as one PostgreSQL statement: the action row is inserted only if the
compare-and-set of the version matched, so one round trip does what BEGIN, UPDATE, INSERT
and COMMIT did in four (a single statement is atomic on its own). Its parameters are named
apart from every column (``a_…``, ``b_…``): SQLAlchemy adds a parameter named like a column
of ``tables`` to the UPDATE's SET clause."""


def async_url(url: str) -> str:
    """The SQLAlchemy async driver URL for a plain ``sqlite:`` or ``postgresql:`` URL."""
    for plain, driver in (("sqlite://", "sqlite+aiosqlite://"),
                          ("postgresql://", "postgresql+asyncpg://"),
                          ("postgres://", "postgresql+asyncpg://")):
        if url.startswith(plain):
            return driver + url[len(plain):]
    return url


POSTGRES_POOL = {"pool_size": 20, "max_overflow": 10}
"""Connections kept open to PostgreSQL. With SQLAlchemy's default of five, a busy server kept
opening connections past the fifth and closing them again: each one a new server backend,
a TLS attempt and statements prepared afresh, ~7% of the server's CPU at 500 tables."""


def make_engine(url: str, **options: Any) -> AsyncEngine:
    """An async engine for a plain URL.

    A PostgreSQL URL may carry libpq's ``options=-csearch_path=NAME`` (several ``-cKEY=VALUE``
    separated by spaces); they become the connection's server settings, so a server (or a
    test) can keep its tables in a schema of its own. PostgreSQL connections are pooled
    (:data:`POSTGRES_POOL`, unless ``options`` say otherwise).
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
        options = {**POSTGRES_POOL, **options}
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
    seats: dict[int, tuple[str | None, str | None, bool]] = field(default_factory=dict)
    """seat → (player id, bot, away)."""
    match: tuple[int, int, int, dict[str, Any]] | None = None
    """A new current match: (number, seed, first dealer, rules)."""
    finish: tuple[int, int, list[int], list[dict[str, Any]]] | None = None
    """The current match ended: (number, winner, scores, history)."""
    close: bool = False


@dataclass
class StoredTable:
    """A table as loaded at start-up: enough to rebuild it and its current match."""

    row: TableRow
    seats: dict[int, SeatRow]
    match: MatchRow | None
    actions: list[ActionRow] = field(default_factory=list)
    finished: list[MatchRow] = field(default_factory=list)


class Store:
    """The database behind the card room."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.sessions = async_sessionmaker(engine, expire_on_commit=False)
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

    @contextlib.asynccontextmanager
    async def _writing(self) -> AsyncIterator[None]:
        if self._sqlite_writer is None:
            yield
            return
        async with self._sqlite_writer:
            yield

    @classmethod
    async def open(cls, url: str = DEFAULT_DATABASE_URL, migrate: bool = True) -> Store:
        """Connect and, unless told not to, upgrade the schema to the newest migration."""
        from cardroom.store.migrate import upgrade

        engine = make_engine(url)
        if migrate:
            await upgrade(engine)
        return cls(engine)

    async def close(self) -> None:
        """Release the connection pool (after writing the changes already queued)."""
        if self.group_commit is not None:
            await self.group_commit.close()
        await self.engine.dispose()

    # -- players --------------------------------------------------------------------------------

    async def add_player(self, player_id: str, name: str, token_hash: str,
                         name_key: str | None = None) -> None:
        """Register a player; :class:`NameTaken` if another player has ``name_key``.

        The unique index on ``players.name_key`` decides, not a look-up first: of two
        registrations of one name at once, in one process or two, exactly one succeeds.
        """
        try:
            async with self._writing(), self.sessions.begin() as session:
                session.add(PlayerRow(id=player_id, name=name, name_key=name_key,
                                      token_hash=token_hash, created_at=time.time()))
        except IntegrityError:
            if name_key is not None and await self._name_key_held(name_key):
                raise NameTaken(name_key) from None
            raise

    async def _name_key_held(self, name_key: str) -> bool:
        """Whether a player has this name key (asked after a refused insert: the row that
        won is committed by then)."""
        async with self.sessions() as session:
            held = await session.execute(
                select(PlayerRow.id).where(PlayerRow.name_key == name_key).limit(1))
            return held.first() is not None

    async def player_by_token_hash(self, token_hash: str) -> PlayerRow | None:
        """The player whose token hashes to this, if any."""
        async with self.sessions() as session:
            return (await session.execute(
                select(PlayerRow).where(PlayerRow.token_hash == token_hash))).scalar_one_or_none()

    async def players(self, ids: Sequence[str]) -> dict[str, PlayerRow]:
        """Players by id."""
        if not ids:
            return {}
        async with self.sessions() as session:
            rows = (await session.execute(select(PlayerRow).where(PlayerRow.id.in_(ids))))
            return {row.id: row for row in rows.scalars()}

    # -- tables ---------------------------------------------------------------------------------

    async def commit(self, change: Change) -> bool:
        """Write a change if the table is still at ``change.version``; False if another writer
        got there first (nothing is written then).

        The version bump comes first: on PostgreSQL it locks the table's row until commit, so
        a rival transaction waits, then finds the version moved and matches no row.
        """
        if change.match is None and not change.close:
            bump, parameters = _BUMP_PLAIN, {"b_id": change.table_id, "b_old": change.version,
                                             "b_new": change.version + 1,
                                             "b_at": change.updated_at}
            if self._single_statement and change.action and not change.seats \
                    and change.finish is None:
                return await self._commit_action(change, parameters)
        else:
            values: dict[str, Any] = {"version": change.version + 1,
                                      "updated_at": change.updated_at}
            if change.match is not None:
                values["match_number"] = change.match[0]
            if change.close:
                values["closed"] = True
            bump = _BUMP.values(**values)
            parameters = {"b_id": change.table_id, "b_old": change.version}
        if self.group_commit is not None:
            return await self.group_commit.commit(change, bump, parameters)
        async with self._writing(), self.engine.begin() as connection:
            return await connection.run_sync(_write_change, change, bump, parameters)

    async def _commit_action(self, change: Change, parameters: dict[str, Any]) -> bool:
        """An ordinary action on PostgreSQL, in one statement (:data:`_BUMP_AND_INSERT`)."""
        match, number, seat, text = change.action  # type: ignore[misc]
        async with self._autocommit.connect() as connection:
            written = await connection.execute(_BUMP_AND_INSERT, {
                **parameters, "a_match_number": match, "a_number": number, "a_seat": seat,
                "a_action": text, "a_created_at": change.updated_at})
            return written.rowcount == 1

    async def load_table(self, table_id: str, match_number: int | None = None,
                         actions_from: int = 0) -> StoredTable | None:
        """One table as it stands now (closed ones too: see ``row.closed``).

        To catch up a table already held in memory, pass the match it holds and how many of
        its actions it has: if the table is still on that match, only later actions are read
        and finished matches are not.
        """
        async with self.sessions() as session:
            row = await session.get(TableRow, table_id, populate_existing=True)
            if row is None:
                return None
            seats = (await session.execute(
                select(SeatRow).where(SeatRow.table_id == table_id)
                .execution_options(populate_existing=True))).scalars().all()
            same_match = match_number == row.match_number
            if same_match:
                matches = list((await session.execute(
                    select(MatchRow).where(MatchRow.table_id == table_id,
                                           MatchRow.number == row.match_number)
                    .execution_options(populate_existing=True))).scalars())
            else:
                matches = list((await session.execute(
                    select(MatchRow).where(MatchRow.table_id == table_id)
                    .order_by(MatchRow.number)
                    .execution_options(populate_existing=True))).scalars())
            current = next((m for m in matches if m.number == row.match_number), None)
            actions = []
            if current is not None:
                actions = list((await session.execute(
                    select(ActionRow).where(ActionRow.table_id == table_id,
                                            ActionRow.match_number == current.number,
                                            ActionRow.number >= (actions_from if same_match
                                                                 else 0))
                    .order_by(ActionRow.number))).scalars())
            finished = [] if same_match else [m for m in matches if m.finished_at is not None]
            return StoredTable(row=row, seats={s.seat: s for s in seats}, match=current,
                               actions=actions, finished=finished)

    async def table_versions(self) -> dict[str, int]:
        """The version of every open table (one cheap query: how processes notice changes
        whose notice they missed)."""
        async with self.engine.connect() as connection:
            rows = await connection.execute(select(_TABLES.c.id, _TABLES.c.version)
                                            .where(_TABLES.c.closed.is_(False)))
            return {table_id: version for table_id, version in rows}

    async def add_table(self, row: TableRow, seats: int) -> None:
        """Create a table with empty seats."""
        async with self._writing(), self.sessions.begin() as session:
            session.add(row)
            await session.flush()
            session.add_all(SeatRow(table_id=row.id, seat=s) for s in range(seats))

    async def load_open_tables(self) -> list[StoredTable]:
        """Every table not closed, with its seats, its current match and that match's actions."""
        async with self.sessions() as session:
            tables = (await session.execute(
                select(TableRow).where(TableRow.closed.is_(False)))).scalars().all()
            stored = []
            for row in tables:
                seats = (await session.execute(
                    select(SeatRow).where(SeatRow.table_id == row.id))).scalars().all()
                matches = (await session.execute(
                    select(MatchRow).where(MatchRow.table_id == row.id)
                    .order_by(MatchRow.number))).scalars().all()
                current = next((m for m in matches if m.number == row.match_number), None)
                actions = []
                if current is not None:
                    actions = list((await session.execute(
                        select(ActionRow).where(ActionRow.table_id == row.id,
                                                ActionRow.match_number == current.number)
                        .order_by(ActionRow.number))).scalars())
                if actions:
                    row.updated_at = max(row.updated_at, actions[-1].created_at)
                stored.append(StoredTable(
                    row=row, seats={s.seat: s for s in seats}, match=current, actions=actions,
                    finished=[m for m in matches if m.finished_at is not None]))
            return stored

    # -- bug reports ----------------------------------------------------------------------------

    async def add_bug(self, row: BugRow) -> int:
        """Store a bug report; returns its number."""
        async with self._writing(), self.sessions.begin() as session:
            session.add(row)
            await session.flush()
            return row.id

    async def bugs(self) -> list[BugRow]:
        """Every bug report, oldest first."""
        async with self.sessions() as session:
            return list((await session.execute(select(BugRow).order_by(BugRow.id))).scalars())


def _write_change(connection: Connection, change: Change, bump: Any,
                  parameters: dict[str, Any]) -> bool:
    """Write one change inside the caller's transaction; False (and nothing written) if the
    table is no longer at ``change.version``."""
    if connection.execute(bump, parameters).rowcount != 1:
        return False
    if change.action is not None:
        match, number, seat, text = change.action
        connection.execute(_INSERT_ACTION, {
            "table_id": change.table_id, "match_number": match, "number": number,
            "seat": seat, "action": text, "created_at": change.updated_at})
    for seat, (player_id, bot, away) in change.seats.items():
        connection.execute(
            update(SeatRow).where(SeatRow.table_id == change.table_id, SeatRow.seat == seat)
            .values(player_id=player_id, bot=bot, away=away))
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
                    finished_at=change.updated_at))
    return True


_Pending = tuple[Change, Any, dict[str, Any], "asyncio.Future[bool]"]


class GroupCommit:
    """Table changes written to an SQLite file in groups, by one thread of its own.

    Through aiosqlite every statement is a hand-off to its thread and back: four per action
    (BEGIN, UPDATE, INSERT, COMMIT), a third of a loaded server's time. Here the changes that
    arrive while a group is being written wait for the next group, and a group is one hand-off
    to this writer's thread and one transaction, however many changes it holds. Each change
    keeps its own compare-and-set: one that lost its race writes nothing and answers False,
    the others are written. A group in which a change breaks a constraint is rolled back and
    its changes are written one by one, so only the faulty one fails; any other failure fails
    the whole group. A change whose caller gave up before its group was formed is not
    written (one already being written cannot be withdrawn).
    """

    def __init__(self, url: URL, writing: Callable[[], AbstractAsyncContextManager[None]]):
        self.engine = create_engine(url.set(drivername="sqlite"))
        """The writer's own synchronous engine (used by its thread alone)."""
        event.listen(self.engine, "connect", _sqlite_pragmas)
        self._writing = writing
        """The store's own lock on writes, held while a group is written."""
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite-writer")
        self._pending: list[_Pending] = []
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
        loop = asyncio.get_running_loop()
        group: list[_Pending] = []
        try:
            while self._pending:
                group = [pending for pending in self._pending if not pending[3].done()]
                self._pending = []
                if not group:
                    continue
                async with self._writing():
                    outcomes = await loop.run_in_executor(self._thread, self._write_group, group)
                self.groups += 1
                for (*_, future), outcome in zip(group, outcomes, strict=True):
                    _settle(future, outcome)
                group = []
        except BaseException as error:
            unanswered, self._pending = group + self._pending, []
            for *_, future in unanswered:
                _settle(future, error)
            if not isinstance(error, Exception):
                raise  # cancelled: the callers were cancelled with it
            log.exception("could not write a group of %d table changes", len(unanswered))

    def _write_group(self, group: list[_Pending]) -> list[bool | Exception]:
        """In the writer's thread: the whole group in one transaction, or one by one if a
        change breaks a constraint."""
        try:
            return self._write_together(group)
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
            return self._write_together([pending])[0]
        except Exception as error:
            return error

    def _write_together(self, group: list[_Pending]) -> list[bool]:
        """In the writer's thread: the group's changes in one transaction; their answers
        are returned only once it has committed."""
        with self.engine.begin() as connection:
            return [_write_change(connection, *pending[:3]) for pending in group]

    async def close(self) -> None:
        """Finish the changes already queued, then release the thread and the connection;
        later changes are refused."""
        self._closed = True
        if self._flusher is not None:
            await asyncio.wait({self._flusher})  # not cancelled if this wait is
        await asyncio.to_thread(self._release)

    def _release(self) -> None:
        self._thread.shutdown(wait=True)
        self.engine.dispose()


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
