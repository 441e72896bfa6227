"""Which open tables this process owns, in a shared room.

Each open table is owned by one live process at a time (see :mod:`cardroom.store.leases` for
the lease and its fencing epoch in the table's row). Only the owner drives a table: its bots,
turn timers, next match, hand-overs and closing (:mod:`cardroom.tables.driver`), and the
owner's writes carry its epoch, so one that lost its lease while paused cannot write again.
Every few seconds a process renews its leases and takes the tables whose lease has ended (the
owner died or was cut off): failover from the stored record. A polite shutdown hands its
tables over, so the others take them at their next look.

Alone (SQLite, the in-process bus), the process owns every table and none of this touches the
store.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Collection

from cardroom.store.data import StoredTable
from cardroom.store.leases import LeaseStore

log = logging.getLogger(__name__)

Gained = Callable[[list[str]], Awaitable[None]]
"""Told of tables this process has just taken: they are loaded and driven from now on."""
Lost = Callable[[list[str]], None]
"""Told of tables another process has taken from this one: stop driving them."""


class Leases:
    """This process's table leases: which tables it owns, at which epoch."""

    def __init__(self, store: LeaseStore, origin: str, shared: bool, seconds: float) -> None:
        self.store = store
        self.origin = origin
        """The owner's name in the table rows: the process's name on the bus."""
        self.shared = shared
        self.seconds = seconds
        """How long a lease lasts unless renewed (renewed every third of it)."""
        self.epochs: dict[str, int] = {}
        """The tables owned, with the epoch taken at."""
        self.taken_over = 0
        """Tables taken after their lease ended elsewhere (for /api/health)."""

    def owns(self, table_id: str) -> bool:
        """This process drives the table: alone it drives every one."""
        return not self.shared or table_id in self.epochs

    def epoch(self, table_id: str) -> int | None:
        """The fencing token of this process's writes to the table (``None``: alone, or not
        its owner)."""
        return self.epochs.get(table_id) if self.shared else None

    async def take(self, table_ids: Collection[str] | None = None) -> list[str]:
        """Take the tables whose lease has ended or that nobody owns (``None``: any such
        table but a daily challenge's nobody holds; else those named); the ones taken."""
        if not self.shared:
            return []
        now = time.time()
        taken = await self.store.take(self.origin, now, now + self.seconds, table_ids)
        self.epochs.update(taken)
        return list(taken)

    async def renew(self) -> tuple[list[str], list[str]]:
        """Extend this process's leases; the tables lost (another process took them, or
        they closed) and those found ours that we did not know of."""
        held = await self.store.renew(self.origin, time.time() + self.seconds)
        lost = [t for t, epoch in self.epochs.items() if held.get(t) != epoch]
        for table_id in lost:
            del self.epochs[table_id]
        found = [t for t in held if t not in self.epochs]
        self.epochs.update((t, held[t]) for t in found)
        return lost, found

    def observe(self, stored: StoredTable) -> bool:
        """A table read back from the store: True if it shows that this process no longer
        owns it (its write was fenced off), which is then forgotten."""
        epoch = self.epochs.get(stored.id)
        if epoch is None or (stored.owner == self.origin and stored.owner_epoch == epoch):
            return False
        del self.epochs[stored.id]
        return True

    async def let_go(self, table_id: str) -> None:
        """Stop owning a table this process forgets: nobody owns it until a process asks for
        it (a daily challenge's whose player left; a closed table's lease ends with it)."""
        epoch = self.epochs.pop(table_id, None)
        if epoch is not None:
            await self.store.release(self.origin, {table_id: epoch}, hand_over=False)

    async def hand_over(self) -> int:
        """Let go of every table so that the other processes take them now (a polite
        shutdown); how many were handed over."""
        leases, self.epochs = self.epochs, {}
        return await self.store.release(self.origin, leases, hand_over=True)

    async def keep(self, gained: Gained, lost: Lost) -> None:
        """Every third of a lease: renew ours, then take the tables whose lease ended.
        Runs until cancelled; a failing store is logged and tried again next time."""
        while True:
            await asyncio.sleep(self.seconds / 3)
            try:
                gone, found = await self.renew()
                if gone:
                    lost(gone)
                taken = await self.take()
                self.taken_over += len(taken)
                if taken or found:
                    await gained(taken + found)
            except Exception:
                log.exception("keeping the table leases")
