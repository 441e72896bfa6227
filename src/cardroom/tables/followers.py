"""Connections following tables, the views they receive, and who is present at each seat.

Every connection receives, after every change, the view of the seat its player holds at that
moment (looked up at each delivery, never stored) or the spectator's view. A seat's presence
counts only its own player's connections, in this process and (over the bus) in the others; a
seated player's last connection closing starts the grace period, after which a bot plays for
them until they come back. A player who leaves during a match is away at once
(:mod:`~cardroom.tables.seating`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import Callable
from typing import Any

from cardroom.protocol import TablePatch, TableUpdate
from cardroom.store.db import Change
from cardroom.table_patches import table_patch
from cardroom.tables.core import Core
from cardroom.tables.errors import no_such_table
from cardroom.tables.model import Listener, Player, Table, takes_patches
from cardroom.tables.sync import Sync

PRESENCE_CHANNEL = "presence"
"""The bus channel of which process holds which seats' connections."""
HEARTBEAT = 2.0
"""Seconds between a process's reports of which seats it holds connections for."""
PRESENCE_TTL = 7.0
"""A process not heard from for this long is taken for dead: its connections are gone."""


class Followers:
    """Who follows which table in this process, and every seat's presence."""

    def __init__(self, core: Core, sync: Sync) -> None:
        self.core, self.sync = core, sync
        self._following: dict[Listener, dict[str, None]] = {}
        """The tables each connection follows, oldest first."""
        self._elsewhere: dict[str, tuple[float, set[tuple[str, int]]]] = {}
        """Other processes: when last heard from, and the seats they hold connections for."""
        self.process_gone: Callable[[str], None] | None = None
        """Told of another process taken for dead (its connections are gone)."""
        core.subscribe(self._changed)
        if core.shared:
            core.bus.subscribe(PRESENCE_CHANNEL, self._on_presence)

    # -- this process's connections ---------------------------------------------------------------

    def open(self, listener: Listener, player: Player | None, table: Table,
             invite: str | None = None) -> int | None:
        """Follow a table: the player's own seat if they sit there, else as a spectator
        (``invite``: the secret it was opened with, see :meth:`_send_strangers_away`).
        How many tables one connection may follow is the relay's to limit."""
        self._following.setdefault(listener, {})[table.id] = None
        table.listeners[listener] = player
        table.invites[listener] = invite
        seat = table.seat_of(player)
        if seat is not None:
            table.human_seen_at = time.monotonic()
            if table.challenge is None:  # a challenge's table closes when its day is done
                table.closing = False
        update = table.update_for(seat)
        listener.deliver(update)
        if takes_patches(listener):
            table.sent[listener] = update
        self.refresh(table)
        if seat is not None and table.seats[seat].away:
            # Back while a bot plays for them: everybody sees them come, and the bot stops.
            self.announce(table, {"type": "connected", "seat": seat})
        return seat

    def disconnect(self, listener: Listener) -> None:
        """A connection closed (or changed identity): stop following everything."""
        for table_id in list(self._following.get(listener, ())):
            self.unfollow(listener, table_id)
        self._following.pop(listener, None)

    def unfollow(self, listener: Listener, table_id: str) -> None:
        """Stop following one table."""
        self._following.get(listener, {}).pop(table_id, None)
        table = self.core.tables.get(table_id)
        if table is not None:
            table.invites.pop(listener, None)
            table.sent.pop(listener, None)
        if table is not None and table.listeners.pop(listener, None) is not None:
            self.refresh(table)

    def _changed(self, table: Table) -> None:
        """After any change: presence brought up to date (seats may have changed hands),
        then each follower's view, built once per seat (what the seats see alike, once),
        and sent whole or, to a connection that takes patches, as what changed since the
        last message it was sent (each patch built once for the followers it suits)."""
        if table.settings.private:
            self._send_strangers_away(table)
        self.refresh(table)
        seated = table.seats_by_player()
        followers = [(listener, seated.get(player.id) if player is not None else None)
                     for listener, player in table.listeners.items()]
        updates = table.updates_for(seat for _, seat in followers)
        patches: dict[tuple[int | None, int], tuple[TableUpdate, TablePatch | None]] = {}
        for listener, seat in followers:
            update = updates[seat]
            before = table.sent.get(listener)
            if before is None:
                listener.deliver(update)
                continue
            built = (seat, id(before))  # (the base is held in the value: its id stays its own)
            if built not in patches:
                patches[built] = (before, table_patch(before, update))
            patch = patches[built][1]
            listener.deliver(update if patch is None else patch)
            table.sent[listener] = update

    def _send_strangers_away(self, table: Table) -> None:
        """A private table keeps only the connections that may still see it (its players,
        bots' successors, holders of its current link): one that followed it while it was
        open, or with a link since renewed or revoked, is told the table is gone (as to one
        who never saw it) and follows it no more."""
        for listener, player in list(table.listeners.items()):
            if not table.reachable_by(player, table.invites.get(listener)):
                gone = no_such_table()
                listener.deliver({"type": "error", "seq": None, "code": gone.code,
                                  "message": gone.message, "quota": None})
                self.unfollow(listener, table.id)

    def refresh(self, table: Table) -> None:
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
                self.announce(table, {"type": "connected", "seat": number})
            elif count == 0 and not state.present and not state.away:
                # (A bot already plays an away seat: nothing to announce nor wait for.)
                self.announce(table, {"type": "offline", "seat": number})
                if table.status == "playing":
                    self.start_grace(table, number)

    # -- presence changes -------------------------------------------------------------------------

    def announce(self, table: Table, event: dict[str, Any]) -> None:
        """A change of who is present (not of the game): new version, tell everybody."""
        self.core.spawn(self._presence_change(table, event))

    async def _presence_change(self, table: Table, event: dict[str, Any]) -> None:
        async def attempt() -> bool:
            number = event["seat"]
            state = table.seats[number]
            if state.player is None:
                return True
            away = state.away
            if event["type"] == "away":
                if state.present or state.away:
                    return True
                away = True
            elif event["type"] == "connected":
                away = False
            elif state.present:  # offline, but back (here or elsewhere) already
                return True
            change = Change(table.id, table.version, time.time())
            if away != state.away:
                change.seats[number] = dataclasses.replace(state.stored(), away=away)
            if not await self.core.commit(table, change):
                return False
            state.away = away
            table.events = [event]
            await self.core.announce(table, lobby=True)
            return True

        async with table.lock:
            await self.sync.retry(table, attempt)

    def start_grace(self, table: Table, seat: int) -> None:
        """The seat's player is gone: a bot plays for them after the grace period (never at
        a challenge table: its deals wait for their player, whose result they are)."""
        if table.challenge is not None:
            return
        state = table.seats[seat]
        if state.grace_task is None:
            state.grace_task = self.core.spawn(self._grace(table, seat))

    async def _grace(self, table: Table, seat: int) -> None:
        await asyncio.sleep(self.core.settings.disconnect_grace)
        state = table.seats[seat]
        state.grace_task = None
        if not state.present and state.player is not None:
            self.announce(table, {"type": "away", "seat": seat})

    # -- presence across processes ----------------------------------------------------------------

    def _tell_presence(self, table_id: str, seat: int, here: bool) -> None:
        """Other processes learn at once that this one gained or lost a seat's last connection."""
        if self.core.shared:
            self.core.bus.post(PRESENCE_CHANNEL, {
                "origin": self.core.origin, "add" if here else "remove": [[table_id, seat]]})

    def _local_presence(self) -> list[list[Any]]:
        return [[t.id, n] for t in self.core.tables.values() for n, s in enumerate(t.seats)
                if s.listeners > 0 and s.player is not None]

    async def heartbeat(self) -> None:
        """Every few seconds: say which seats this process holds; forget silent processes."""
        core = self.core
        joined = True
        while True:
            await core.bus.publish(PRESENCE_CHANNEL, {"origin": core.origin,
                                                      "seats": self._local_presence()})
            now = time.monotonic()
            if not core.bus.joined:
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
                        if self.process_gone is not None:
                            self.process_gone(origin)
            await asyncio.sleep(HEARTBEAT)

    async def _on_presence(self, notice: dict[str, Any]) -> None:
        origin = notice.get("origin")
        if origin == self.core.origin or not isinstance(origin, str):
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

    def recount_remote(self, table: Table) -> None:
        """Whether each seat's player is connected to another process, from what the others
        last said: for a table this process holds from now on (taken over, or restored)."""
        self._presence_moved({(table.id, n) for n in range(len(table.seats))}, dead=False)

    def _presence_moved(self, seats: set[tuple[str, int]], dead: bool) -> None:
        """Recompute ``remote`` for these seats. A dead process's players count as gone: the
        grace period starts for them (they will usually reconnect here first)."""
        for table_id, number in seats:
            table = self.core.tables.get(table_id)
            if table is None or not 0 <= number < len(table.seats):
                continue
            state = table.seats[number]
            state.remote = any((table_id, number) in held
                               for _, held in self._elsewhere.values())
            if dead and not state.present and state.player is not None \
                    and table.status == "playing":
                self.start_grace(table, number)
