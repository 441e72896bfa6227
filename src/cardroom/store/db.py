"""Persistence of players, tables, matches, actions and bug reports (async SQLAlchemy).

SQLite by default (a file in the working directory), PostgreSQL by URL. Every write that the
table layer needs before it acknowledges anything is one short transaction here; every other
layer sees plain dataclasses, never sessions.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import event, insert, make_url, select, update
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
_INSERT_ACTION = insert(ActionRow.__table__)


def async_url(url: str) -> str:
    """The SQLAlchemy async driver URL for a plain ``sqlite:`` or ``postgresql:`` URL."""
    for plain, driver in (("sqlite://", "sqlite+aiosqlite://"),
                          ("postgresql://", "postgresql+asyncpg://"),
                          ("postgres://", "postgresql+asyncpg://")):
        if url.startswith(plain):
            return driver + url[len(plain):]
    return url


def make_engine(url: str, **options: Any) -> AsyncEngine:
    """An async engine for a plain URL.

    A PostgreSQL URL may carry libpq's ``options=-csearch_path=NAME`` (several ``-cKEY=VALUE``
    separated by spaces); they become the connection's server settings, so a server (or a
    test) can keep its tables in a schema of its own.
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
    engine = create_async_engine(parsed, connect_args=connect_args, **options)
    if engine.dialect.name == "sqlite":
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
    return engine


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

    @classmethod
    async def open(cls, url: str = DEFAULT_DATABASE_URL, migrate: bool = True) -> Store:
        """Connect and, unless told not to, upgrade the schema to the newest migration."""
        from cardroom.store.migrate import upgrade

        engine = make_engine(url)
        if migrate:
            await upgrade(engine)
        return cls(engine)

    async def close(self) -> None:
        """Release the connection pool."""
        await self.engine.dispose()

    # -- players --------------------------------------------------------------------------------

    async def add_player(self, player_id: str, name: str, token_hash: str) -> None:
        """Register a player."""
        async with self.sessions.begin() as session:
            session.add(PlayerRow(id=player_id, name=name, token_hash=token_hash,
                                  created_at=time.time()))

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

    async def add_table(self, row: TableRow, seats: int) -> None:
        """Create a table with empty seats."""
        async with self.sessions.begin() as session:
            session.add(row)
            await session.flush()
            session.add_all(SeatRow(table_id=row.id, seat=s) for s in range(seats))

    async def set_seat(self, table_id: str, seat: int, player_id: str | None,
                       bot: str | None) -> None:
        """Put a player, a bot or nobody in a seat."""
        async with self.sessions.begin() as session:
            await session.execute(update(SeatRow)
                                  .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                                  .values(player_id=player_id, bot=bot))
            await self._touch(session, table_id)

    async def close_table(self, table_id: str) -> None:
        """Mark a table closed (everybody left); it no longer loads at start-up."""
        async with self.sessions.begin() as session:
            await session.execute(update(TableRow).where(TableRow.id == table_id)
                                  .values(closed=True, updated_at=time.time()))

    async def start_match(self, table_id: str, number: int, seed: int, dealer: int,
                          rules: dict[str, Any]) -> None:
        """Record a new match's seed and first dealer and make it the table's current one."""
        now = time.time()
        async with self.sessions.begin() as session:
            session.add(MatchRow(table_id=table_id, number=number, seed=seed, dealer=dealer,
                                 rules=rules, started_at=now))
            await session.execute(update(TableRow).where(TableRow.id == table_id)
                                  .values(match_number=number, updated_at=now))

    async def append_action(self, table_id: str, match_number: int, number: int, seat: int,
                            action: str) -> None:
        """Write one accepted action (fails if that number is already taken).

        One INSERT in one transaction: this is the hot path of a busy room. The table's age in
        the lobby comes from its last action (see :meth:`load_open_tables`).
        """
        async with self.engine.begin() as connection:
            await connection.execute(_INSERT_ACTION, {
                "table_id": table_id, "match_number": match_number, "number": number,
                "seat": seat, "action": action, "created_at": time.time()})

    async def finish_match(self, table_id: str, number: int, winner: int, scores: list[int],
                           history: list[dict[str, Any]]) -> None:
        """Record how a match ended."""
        async with self.sessions.begin() as session:
            await session.execute(update(MatchRow)
                                  .where(MatchRow.table_id == table_id, MatchRow.number == number)
                                  .values(winner=winner, scores=scores, history=history,
                                          finished_at=time.time()))

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
        async with self.sessions.begin() as session:
            session.add(row)
            await session.flush()
            return row.id

    async def bugs(self) -> list[BugRow]:
        """Every bug report, oldest first."""
        async with self.sessions() as session:
            return list((await session.execute(select(BugRow).order_by(BugRow.id))).scalars())

    @staticmethod
    async def _touch(session: Any, table_id: str, now: float | None = None) -> None:
        await session.execute(update(TableRow).where(TableRow.id == table_id)
                              .values(updated_at=now or time.time()))


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    """WAL keeps readers off writers' backs; NORMAL sync survives a killed process."""
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()
