"""Table leases in the store: which server process owns each open table, and until when.

A shared room (several processes on one database) gives each open table one owner at a time.
The lease lives in the table's own row (``owner``, ``owner_epoch``, ``lease_until``), so the
database that already orders every change of a table is also the one judge of who owns it: a
Redis outage cannot make two owners, and no other lock service is needed. Taking a table
raises its epoch by one; the owner's writes carry that epoch and are refused once another
process has taken the table (:meth:`cardroom.store.db.Store.commit`), so an owner that was
paused past its lease cannot write again when it wakes.

Leases are timed by the processes' clocks (``time.time()``): hosts sharing a database keep
their clocks in step (NTP), and a skew only shortens or lengthens a takeover, never makes two
owners write, thanks to the epoch.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from contextlib import AbstractAsyncContextManager
from typing import NamedTuple

from sqlalchemy import ColumnElement, and_, func, or_, select, tuple_, update
from sqlalchemy.ext.asyncio import AsyncEngine

from cardroom.store.models import TABLES


def _free(now: float, table_ids: Collection[str] | None) -> ColumnElement[bool]:
    """Open tables whose lease ended or that nobody owns: any but a daily challenge's that
    was let go of (``table_ids`` ``None``), or those named."""
    free = and_(TABLES.c.closed.is_(False),
                or_(TABLES.c.owner.is_(None), TABLES.c.lease_until < now))
    if table_ids is None:
        return and_(free, or_(TABLES.c.challenge.is_(None), TABLES.c.owner.is_not(None)))
    return and_(free, TABLES.c.id.in_(list(table_ids)))


class Holder(NamedTuple):
    """Who holds an open table's lease now."""

    owner: str | None
    """The process whose lease lasts past now (``None``: its lease ended or nobody owns it)."""
    let_go: bool
    """Nobody owns it at all: a daily challenge's table its player left, taken by whichever
    process its player comes back to."""
    epoch: int
    """The epoch its last owner took it at (each taking counts one more): of two owners told
    of, the one at the higher epoch took it later."""


class LeaseStore:
    """The store's side of table ownership (``Store.leases``)."""

    def __init__(self, engine: AsyncEngine,
                 writing: Callable[[], AbstractAsyncContextManager[None]]) -> None:
        self._engine = engine
        self._writing = writing

    async def take(self, owner: str, now: float, until: float,
                   table_ids: Collection[str] | None = None,
                   limit: int | None = None) -> dict[str, int]:
        """Take open tables whose lease has ended (or that nobody owns) for ``owner`` until
        ``until``, at most ``limit`` of them; their new epochs, by table id.

        ``table_ids`` ``None``: any such table but a daily challenge's that its process let
        go of (nobody owns it until its player comes back: :meth:`release` with
        ``hand_over=False``); otherwise only those tables, whoever let go of them.
        """
        if table_ids is not None and not table_ids:
            return {}
        free = _free(now, table_ids)
        if limit is not None:
            # The row's own condition is checked again as it is written: of two processes
            # picking the same tables, the later one takes none of those.
            free = and_(free, TABLES.c.id.in_(select(TABLES.c.id).where(free).limit(limit)))
        statement = (update(TABLES)
                     .where(free)
                     .values(owner=owner, owner_epoch=TABLES.c.owner_epoch + 1,
                             lease_until=until)
                     .returning(TABLES.c.id, TABLES.c.owner_epoch))
        async with self._writing(), self._engine.begin() as connection:
            return {table_id: epoch for table_id, epoch in await connection.execute(statement)}

    async def holder(self, table_id: str, now: float) -> Holder | None:
        """Who holds the lease of an open table at ``now``; ``None`` for a table that is
        closed or never was."""
        statement = select(TABLES.c.owner, TABLES.c.lease_until, TABLES.c.owner_epoch).where(
            TABLES.c.id == table_id, TABLES.c.closed.is_(False))
        async with self._engine.connect() as connection:
            row = (await connection.execute(statement)).first()
        if row is None:
            return None
        owner, until, epoch = row
        return Holder(owner if owner is not None and until >= now else None, owner is None,
                      int(epoch))

    async def let_go_challenges(self) -> dict[str, float]:
        """The open daily challenge tables that nobody owns (their players left them), with
        when each one's day ends (alone, where nothing is owned: every open one)."""
        statement = select(TABLES.c.id, TABLES.c.challenge).where(
            TABLES.c.closed.is_(False), TABLES.c.challenge.is_not(None),
            TABLES.c.owner.is_(None))
        async with self._engine.connect() as connection:
            rows = (await connection.execute(statement)).all()
        return {table_id: float(challenge.get("ends_at", 0.0)) for table_id, challenge in rows
                if isinstance(challenge, dict)}

    async def owned(self, now: float) -> dict[str, int]:
        """How many open tables each process holds a lease on at ``now``, by its name."""
        statement = (select(TABLES.c.owner, func.count())
                     .where(TABLES.c.closed.is_(False), TABLES.c.owner.is_not(None),
                            TABLES.c.lease_until >= now)
                     .group_by(TABLES.c.owner))
        async with self._engine.connect() as connection:
            return {owner: int(count) for owner, count in await connection.execute(statement)}

    async def free(self, now: float) -> int:
        """How many open tables :meth:`take` (with no ids) would find free now."""
        async with self._engine.connect() as connection:
            return int((await connection.execute(
                select(func.count()).select_from(TABLES).where(_free(now, None)))).scalar_one())

    async def renew(self, owner: str, until: float) -> dict[str, int]:
        """Extend every lease ``owner`` still holds to ``until``; those tables' epochs (a
        table missing is one another process took, one that closed, or one ``owner`` handed
        over)."""
        statement = (update(TABLES)
                     .where(TABLES.c.owner == owner, TABLES.c.closed.is_(False),
                            TABLES.c.lease_until > 0)
                     .values(lease_until=until)
                     .returning(TABLES.c.id, TABLES.c.owner_epoch))
        async with self._writing(), self._engine.begin() as connection:
            return {table_id: epoch for table_id, epoch in await connection.execute(statement)}

    async def release(self, owner: str, leases: dict[str, int], hand_over: bool) -> int:
        """Let go of tables ``owner`` holds at these epochs; how many were let go of.

        ``hand_over``: another process should take them at once (a polite shutdown): the
        lease ends now and any process's next look takes them. Otherwise nobody owns them
        until a process asks for them by id (a daily challenge's table whose player left).
        """
        if not leases:
            return 0
        values = {"lease_until": 0.0} if hand_over else {"owner": None, "lease_until": 0.0}
        mine = tuple_(TABLES.c.id, TABLES.c.owner_epoch).in_(list(leases.items()))
        statement = update(TABLES).where(TABLES.c.owner == owner, mine).values(**values)
        async with self._writing(), self._engine.begin() as connection:
            return (await connection.execute(statement)).rowcount
