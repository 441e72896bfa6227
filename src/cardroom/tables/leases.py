"""Which open tables this process owns, in a shared room.

Each open table is owned by one live process at a time (see :mod:`cardroom.store.leases` for
the lease and its fencing epoch in the table's row). Only the owner drives a table: its bots,
turn timers, next match, hand-overs and closing (:mod:`cardroom.tables.driver`), and the
owner's writes carry its epoch, so one that lost its lease while paused cannot write again.
Every few seconds a process renews its leases and takes the tables whose lease has ended (the
owner died or was cut off): failover from the stored record. A polite shutdown hands its
tables over, so the others take them at their next look.

Each process tells the others how many tables it owns at every renewal, and within
:data:`LOAD_EVERY` of a change (the bus's :data:`LOAD_CHANNEL`); a new table is made at the
less loaded of two live processes drawn at random (:meth:`Leases.place`,
:mod:`cardroom.tables.relay`), which owns it from the start: the loads heard are a moment
old, and were every process to pick the one least loaded of all, a burst of new tables
would all go to the same one. A process takes only its fair share of the tables a dead one
leaves (:meth:`Leases.share`), and one that owns well over its share, by the store's count
at two looks in a row, hands the rest over a few at a time, so that a restarted process gets
tables back while a burst of new tables placed on a moment-old count moves none. A draining
process takes no table and hands its own over a few at a time (:meth:`Leases.drain`): it can
then be stopped or restarted with every table playing on elsewhere.

Alone (SQLite, the in-process bus), the process owns every table and none of this touches the
store.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Awaitable, Callable, Collection, Iterator
from contextlib import contextmanager
from typing import Any, NamedTuple

from cardroom.bus import Bus
from cardroom.store.data import StoredTable
from cardroom.store.leases import LeaseStore
from cardroom.tables.errors import no_such_table

log = logging.getLogger(__name__)

LOAD_CHANNEL = "owners"
"""The bus channel of the processes' loads."""
DRAIN_BATCH = 20
"""Tables a draining (or overloaded) process hands over at each renewal: the others take a
few at a time."""
SLACK = 0.25
"""How far over its fair share a process may own tables before it hands some over (a share
and a quarter, and two tables at least): enough that a table is not passed back and forth."""
LOAD_EVERY = 0.5
"""Seconds between two loads told while a process's table count changes (besides the one at
every renewal): the others place new tables by counts at most this old in a burst."""
KEEP_SLACK = SLACK / 2
"""How far over its fair share a process may own tables and still keep a new one made by a
connection of its own (an eighth): half the slack at which it would hand tables over."""
PLACEMENT_CHOICES = 2
"""Live processes drawn at random for each new table, the less loaded one taking it (the
"power of two choices": nearly as even as the least loaded of all, without every process
sending a burst to the same one)."""


class Owner(NamedTuple):
    """The process that owns a table, and the epoch it took the table at."""

    name: str
    epoch: int
    """Counts the table's takings: a later owner's is higher (a notice of a move with a
    lower one than known is old news)."""


class Peer(NamedTuple):
    """What this process last heard of another one's load."""

    heard: float
    """When (``time.monotonic()``)."""
    owned: int
    draining: bool
    mine: int | None = None
    """How many tables this process owned then (``None``: not known)."""
    rise: int = 0
    """How many more it owned than at the load heard before."""

    def guessed(self, mine_now: int, now: float) -> int:
        """How many tables it owns now, at a guess: as many more as this process has
        gained since (in a burst of new tables every process gains about as many), so that
        a moment-old count does not make this process look over its share; but no more
        than it gained itself between its last two loads (a burst made at this process
        alone does not make the others look as loaded as it is), and nothing once its load
        is older than two :data:`LOAD_EVERY` (a process whose count changes tells it that
        often: it has stopped growing)."""
        if self.mine is None or now - self.heard > 2 * LOAD_EVERY:
            return self.owned
        return self.owned + min(max(0, mine_now - self.mine), self.rise)

Gained = Callable[[list[str]], Awaitable[None]]
"""Told of tables this process has just taken: they are loaded and driven from now on."""
Lost = Callable[[list[str]], None]
"""Told of tables another process has taken from this one: stop driving them."""


class Leases:
    """This process's table leases: which tables it owns, at which epoch."""

    def __init__(self, store: LeaseStore, bus: Bus, origin: str, shared: bool,
                 seconds: float) -> None:
        self.store = store
        self.bus = bus
        self.origin = origin
        """The owner's name in the table rows: the process's name on the bus."""
        self.shared = shared
        self.seconds = seconds
        """How long a lease lasts unless renewed (renewed every third of it)."""
        self.epochs: dict[str, int] = {}
        """The tables owned, with the epoch taken at."""
        self.taken_over = 0
        """Tables taken after their lease ended elsewhere (for /api/health)."""
        self.draining = False
        """Taking no table, handing its own over (:meth:`drain`)."""
        self.peers: dict[str, Peer] = {}
        """The other live processes' loads, by name."""
        self.random = random.Random()
        """Draws the processes a new table may go to."""
        self._gained: Gained | None = None
        self._lost: Lost | None = None
        self._unwritten: set[str] = set()
        """Tables made here whose row is still being written: not in a renewal's answer."""
        self._over_before = False
        """Over a fair share at the last look too."""
        self._told = 0
        """The table count last told to the others."""

    def owns(self, table_id: str) -> bool:
        """This process drives the table: alone it drives every one."""
        return not self.shared or table_id in self.epochs

    def epoch(self, table_id: str) -> int | None:
        """The fencing token of this process's writes to the table (``None``: alone, or not
        its owner)."""
        return self.epochs.get(table_id) if self.shared else None

    @contextmanager
    def new_lease(self, table_id: str) -> Iterator[tuple[str | None, float]]:
        """The owner and lease end a table made here is stored with (shared: this process,
        at epoch 1, from the start; alone: nobody, as every table), while its row is written
        inside the block. Until the row is there a renewal does not find it, and must not
        count it lost; if the block fails, the lease is forgotten."""
        if not self.shared:
            yield None, 0.0
            return
        self.epochs[table_id] = 1
        self._unwritten.add(table_id)
        try:
            yield self.origin, time.time() + self.seconds
        except BaseException:
            self.epochs.pop(table_id, None)
            raise
        finally:
            self._unwritten.discard(table_id)

    async def take(self, table_ids: Collection[str] | None = None,
                   limit: int | None = None) -> list[str]:
        """Take the tables whose lease has ended or that nobody owns (``None``: any such
        table but a daily challenge's nobody holds; else those named), at most ``limit``;
        the ones taken."""
        if not self.shared:
            return []
        now = time.time()
        taken = await self.store.take(self.origin, now, now + self.seconds, table_ids, limit)
        self.epochs.update(taken)
        return list(taken)

    async def renew(self) -> tuple[list[str], list[str]]:
        """Extend this process's leases; the tables lost (another process took them, or
        they closed) and those found ours that we did not know of."""
        # A table made while renewing, or whose row is still being written, is not in its
        # answer.
        before = {t: epoch for t, epoch in self.epochs.items() if t not in self._unwritten}
        held = await self.store.renew(self.origin, time.time() + self.seconds)
        lost = [t for t, epoch in before.items()
                if held.get(t) != epoch and self.epochs.get(t) == epoch]
        for table_id in lost:
            del self.epochs[table_id]
        found = [t for t in held if t not in self.epochs]
        self.epochs.update((t, held[t]) for t in found)
        return lost, found

    async def locate(self, table_id: str) -> Owner | None:
        """The live process that owns an open table (this one when it owns it); ``None``
        while nobody does (its owner died or handed it over: the next look of some process
        takes it). A daily challenge's table that nobody owns is taken here: its player came
        back to this process. ``no_such_table`` for a table not open."""
        if self.owns(table_id):
            return Owner(self.origin, self.epochs.get(table_id, 0))
        holder = await self.store.holder(table_id, time.time())
        if holder is None:
            raise no_such_table()
        if holder.let_go and not self.draining and await self.take([table_id]):
            if self._gained is not None:
                await self._gained([table_id])
            return Owner(self.origin, self.epochs.get(table_id, holder.epoch + 1))
        return None if holder.owner is None else Owner(holder.owner, holder.epoch)

    def observe(self, stored: StoredTable) -> bool:
        """A table read back from the store: True if it shows that this process no longer
        owns it (its write was fenced off), which is then lost."""
        epoch = self.epochs.get(stored.id)
        if epoch is None or (stored.owner == self.origin and stored.owner_epoch == epoch):
            return False
        del self.epochs[stored.id]
        if self._lost is not None:
            self._lost([stored.id])
        return True

    async def _release(self, table_ids: Collection[str], hand_over: bool) -> int:
        """Stop owning these tables (those of them this process owns) and say so in the
        store (see :meth:`LeaseStore.release` for ``hand_over``); how many were let go."""
        leases = {t: self.epochs.pop(t) for t in list(table_ids) if t in self.epochs}
        return await self.store.release(self.origin, leases, hand_over) if leases else 0

    async def let_go(self, table_id: str) -> None:
        """Stop owning a table this process forgets: nobody owns it until a process asks for
        it (a daily challenge's whose player left; a closed table's lease ends with it)."""
        await self._release([table_id], hand_over=False)

    async def give_back(self, table_id: str) -> None:
        """Hand one table over (this process could not load it): whoever looks next, this
        process included, takes it and tries again."""
        await self._release([table_id], hand_over=True)

    async def hand_over(self) -> int:
        """Let go of every table so that the other processes take them now (a polite
        shutdown); how many were handed over."""
        return await self._release(self.epochs, hand_over=True)

    # -- placement and draining -------------------------------------------------------------------

    def start(self, gained: Gained, lost: Lost) -> None:
        """Listen to the other processes' loads; ``gained`` and ``lost`` are
        told of the tables this process takes and loses from now on."""
        self._gained, self._lost = gained, lost
        self.bus.subscribe(LOAD_CHANNEL, self._on_load)

    def _loads(self) -> dict[str, int]:
        """The tables owned by each live process that takes tables (heard within a lease,
        not draining), this one included unless it drains. A process that just died counts
        a little longer; its tables are shared out at the next looks."""
        now = time.monotonic()
        loads = {origin: peer.owned for origin, peer in self.peers.items()
                 if now - peer.heard < self.seconds and not peer.draining}
        if not self.draining:
            loads[self.origin] = len(self.epochs)
        return loads

    def peers_placing(self) -> int:
        """How many other live processes take new tables, by the loads heard: a draining
        process alone in this count places new tables at itself."""
        return len(self._loads()) - (not self.draining)

    def place(self) -> str:
        """The process a new table goes to, made by a connection here: this one while it
        would own no more than its fair share and :data:`KEEP_SLACK` (the maker's verbs and
        views then need no relaying, and a table with one person and bots none at all).
        Otherwise, of :data:`PLACEMENT_CHOICES` live processes not draining, drawn at
        random, the one owning the fewest tables (this one when it ties, or when it is
        alone). Another one is counted as owning one more from now on, so that the next
        new table may go elsewhere."""
        loads = self._loads() or {self.origin: len(self.epochs)}
        if self._keeps_new_table(loads):
            return self.origin
        drawn = self.random.sample(sorted(loads), min(PLACEMENT_CHOICES, len(loads)))
        chosen = min(drawn, key=lambda origin: (loads[origin], origin != self.origin))
        if chosen != self.origin:
            peer = self.peers[chosen]
            self.peers[chosen] = peer._replace(owned=peer.owned + 1)
        return chosen

    def _keeps_new_table(self, loads: dict[str, int]) -> bool:
        """Whether a table made here may stay here: this process takes tables, and would own
        no more than its fair share and :data:`KEEP_SLACK` of it, the others' loads guessed
        from those heard (:meth:`Peer.guessed`). Behind a load balancer that spreads
        connections evenly, every process keeps the tables its players make; one that gets
        more of them sends the rest away once the others' next loads are heard."""
        if self.origin not in loads:
            return False
        mine = len(self.epochs)
        now = time.monotonic()
        total = mine + sum(self.peers[origin].guessed(mine, now) for origin in loads
                           if origin != self.origin)
        return mine + 1 <= (total + 1) / len(loads) * (1 + KEEP_SLACK)

    def share(self, free: int, owned: dict[str, int] | None = None) -> int:
        """How many more tables this process should own, were ``free`` tables shared out
        so that every live process owns about as many (negative: that many too many). By
        the loads heard, or by ``owned``, the store's count for each process."""
        loads = self._loads()
        if self.origin not in loads:
            return -len(self.epochs)
        if owned is not None:
            loads = {origin: owned.get(origin, 0) for origin in loads}
        fair = -(-(sum(loads.values()) + free) // len(loads))  # rounded up
        return fair - len(self.epochs)

    def drain(self) -> None:
        """Take no more tables, and hand this process's own over a few at a time."""
        self.draining = True
        log.info("draining: handing %d tables over", len(self.epochs))

    async def _on_load(self, notice: dict[str, Any]) -> None:
        origin = notice.get("origin")
        if isinstance(origin, str) and origin != self.origin and "owned" in notice:
            self.hear_load(origin, int(notice["owned"]), bool(notice.get("draining")))

    def hear_load(self, origin: str, owned: int, draining: bool) -> None:
        """Another process told how many tables it owns, and whether it drains."""
        before = self.peers.get(origin)
        self.peers[origin] = Peer(time.monotonic(), owned, draining, len(self.epochs),
                                  0 if before is None else max(0, owned - before.owned))

    async def _hand_some_over(self, most: int = DRAIN_BATCH) -> None:
        """Draining or overloaded: hand up to ``most`` (and :data:`DRAIN_BATCH`) tables over
        to whoever looks next; never one whose row is still being written (its creator is
        about to sit there, and no other process could load it yet)."""
        batch = [t for t in self.epochs if t not in self._unwritten][:min(most, DRAIN_BATCH)]
        await self._release(batch, hand_over=True)
        if self._lost is not None:
            self._lost(batch)

    async def keep(self) -> None:
        """Every third of a lease: renew ours, take the tables whose lease ended (or hand
        some over, draining), and tell the others our load; between those, tell it every
        :data:`LOAD_EVERY` seconds while it changes. Runs until cancelled; a failing store
        is logged and tried again next time."""
        loop = asyncio.get_running_loop()
        next_look = loop.time() + self.seconds / 3
        while True:
            await asyncio.sleep(min(LOAD_EVERY, max(0.0, next_look - loop.time())))
            try:
                if loop.time() >= next_look:
                    next_look = loop.time() + self.seconds / 3
                    await self._renew_and_take()
                elif len(self.epochs) == self._told:
                    continue
                await self._tell_load()
            except Exception:
                log.exception("keeping the table leases")

    async def _tell_load(self) -> None:
        self._told = len(self.epochs)
        await self.bus.publish(LOAD_CHANNEL, {"origin": self.origin, "owned": self._told,
                                              "draining": self.draining})

    def _too_many(self, share: int) -> int:
        """The tables owned over a fair ``share`` (:meth:`share`) when well over it (a
        share and :data:`SLACK`, two tables at least), else 0."""
        return -share if -share > max(2, SLACK * (len(self.epochs) + share)) else 0

    async def _excess(self, share: int, free: int) -> int:
        """How many tables this process owns well over its fair share (0: not well over),
        by the loads heard (``share``) and then by the store's own count, at this look and
        the one before: the loads heard lag a burst of new tables, and a table handed over
        makes its players follow it elsewhere."""
        over_before, self._over_before = self._over_before, False  # a failed look breaks it
        excess = 0
        if self._too_many(share):
            excess = self._too_many(self.share(free, await self.store.owned(time.time())))
        self._over_before = excess > 0
        return excess if over_before else 0

    async def _renew_and_take(self) -> None:
        started = time.monotonic()
        gone, found = await self.renew()
        if (late := time.monotonic() - started) > self.seconds / 3:
            log.warning("renewing the leases took %.1f s (a lease lasts %g s)", late,
                        self.seconds)
        if gone:
            log.info("lost %d tables to other processes", len(gone))
        if gone and self._lost is not None:
            self._lost(gone)
        if found and self._gained is not None:
            await self._gained(found)  # at once: a failing look below must not leave them idle
        if self.draining:
            await self._hand_some_over()
            return
        free = await self.store.free(time.time())
        share = self.share(free)
        taken: list[str] = []
        if free and share > 0:
            self._over_before = False
            taken = await self.take(limit=share)
            self.taken_over += len(taken)
            if taken:
                log.info("took %d of %d free tables (owning %d, loads %s)", len(taken), free,
                         len(self.epochs), self._loads())
        elif excess := await self._excess(share, free):
            log.info("over a fair share by %d: handing some over (loads %s)", excess,
                     self._loads())
            await self._hand_some_over(excess)  # well over a fair share: the rest go
        if taken and self._gained is not None:
            await self._gained(taken)
