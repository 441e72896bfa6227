"""What this process knows of every open table: those it holds, and the rows of the others.

In a shared room a process holds only the tables it owns (:mod:`cardroom.tables.leases`): no
other process replays their actions. Of each of the others (but a daily
challenge's: private, reached by its player alone) it keeps a
:class:`~cardroom.tables.model.TableRow`, the lobby row and what the room decides by (who sits
where, play-now's places, the room's limits). The owner sends a table's row with every change
of its lobby row (the table notice's ``row``): a seat, a score, the match's end; an action
that leaves the row as it was is told to nobody. A process asks the owners for the rows it
lacks on :data:`ROWS_CHANNEL`, at its start and at every sweep; for every row again when it
is back on the bus after a time off it (the notices sent meanwhile were lost); and, every
:data:`STALE_CHECK` seconds, for those whose version is behind the database's by a lobby
change it did not hear of (an owner's notice dropped while the owner was off the bus). The
owners answer on the asker's own channel (:mod:`cardroom.tables.relay`). A process that lets
a table go keeps its row; one that takes a table holds the table instead.

Alone, the process holds every table and keeps no rows.
"""

from __future__ import annotations

import time
from collections.abc import Collection, Iterator
from typing import Any

from cardroom.protocol import TableSummary
from cardroom.tables.core import Core
from cardroom.tables.model import Player, Table, TableRow
from cardroom.tables.relay import Relay

ROWS_CHANNEL = "rows"
"""The bus channel on which a process asks the owners for tables' rows."""
ANSWER_BATCH = 200
"""Rows sent in one item of an answer."""
STALE_CHECK = 60.0
"""Seconds between two looks for rows that may have missed a lobby change. A row's version
is that of its table's last lobby change, so a table in play is behind the database's version
between two: every such row is asked for again then, a bounded cost (each open table's row
once a minute) for a lost notice caught within a minute."""


class TableRows:
    """The rows of the open tables this process does not hold, and questions over all."""

    def __init__(self, core: Core, relay: Relay) -> None:
        self.core, self.relay = core, relay
        self.elsewhere: dict[str, TableRow] = {}
        """The rows of the open tables owned by other processes, by id."""
        self._checked = time.monotonic()
        """When the rows were last compared with the database's versions."""
        if core.shared:
            core.bus.subscribe(ROWS_CHANNEL, self._on_ask)
            relay.on("rows", self._on_rows)
            relay.rejoined = self.ask

    # -- questions over every open table ----------------------------------------------------------

    def summary(self, table_id: str) -> TableSummary | None:
        """A table's lobby row; ``None`` for a closed or private table."""
        table = self.core.tables.get(table_id)
        if table is not None:
            return None if table.settings.private else table.summary()
        row = self.elsewhere.get(table_id)
        return None if row is None or row["private"] else row["summary"]

    def tables_of(self, player: Player) -> list[str]:
        """The open tables where ``player`` sits."""
        held = [t.id for t in self.core.tables.values() if t.seat_of(player) is not None]
        return held + [t for t, row in self._others() if player.id in row["players"]]

    def promised(self, player_id: str) -> bool:
        """Whether the player is to take a bot's seat over at the next hand somewhere."""
        return any(s.successor is not None and s.successor.id == player_id
                   for table in self.core.tables.values() for s in table.seats) or any(
            player_id in row["successors"] for _, row in self._others())

    def counts(self, creator_id: str) -> tuple[int, int]:
        """How many tables are open, and how many of them (not a daily challenge's) the
        player ``creator_id`` created: the room's limits count these."""
        created = sum(t.creator_id == creator_id and t.challenge is None
                      for t in self.core.tables.values())
        created += sum(row["creator_id"] == creator_id and not row["challenge"]
                       for _, row in self._others())
        return len(self.core.tables) + sum(1 for _ in self._others()), created

    def all(self) -> Iterator[TableRow]:
        """Every open table's row (built now for the tables held here)."""
        for table in list(self.core.tables.values()):
            yield table.row()
        for _, row in self._others():
            yield row

    def _others(self) -> Iterator[tuple[str, TableRow]]:
        """The rows of the tables held elsewhere (not one this process has taken since)."""
        held = self.core.tables
        return ((t, row) for t, row in self.elsewhere.items() if t not in held)

    # -- keeping the rows -------------------------------------------------------------------------

    def noticed(self, notice: dict[str, Any]) -> None:
        """A change of the lobby row of a table another process owns (or its close)."""
        table_id = notice["table_id"]
        self.core.counters["rows_noticed"] += 1
        if notice.get("closed"):
            if self.elsewhere.pop(table_id, None) is not None:
                self.core.lobby_changed(table_id)
            return
        row = notice.get("row")
        known = self.elsewhere.get(table_id)
        if row is not None and not row["challenge"] and (
                known is None or row["version"] >= known["version"]):
            self.elsewhere[table_id] = row
            self.core.lobby_changed(table_id)

    def keep(self, table: Table) -> None:
        """A table this process lets go of: its row stays known (not a daily challenge's)."""
        if table.challenge is None:
            self.elsewhere[table.id] = table.row()

    async def refresh(self, versions: dict[str, int]) -> None:
        """Bring the rows in step with the database's open tables and versions (the sweep,
        every few seconds): drop the closed ones, ask for the missing, and every
        :data:`STALE_CHECK` seconds for those behind the database."""
        for table_id in [t for t in self.elsewhere if t not in versions]:
            del self.elsewhere[table_id]
            self.core.lobby_changed(table_id)
        now = time.monotonic()
        stale = now - self._checked >= STALE_CHECK
        if stale:
            self._checked = now
        wanted = [t for t, version in versions.items() if t not in self.core.tables and (
            t not in self.elsewhere or (stale and self.elsewhere[t]["version"] < version))]
        if wanted:
            await self.ask(wanted)

    async def ask(self, table_ids: Collection[str] | None = None) -> None:
        """Ask the owners for these tables' rows (``None``: every table they own)."""
        await self.core.bus.publish(ROWS_CHANNEL, {
            "from": self.core.origin, "ids": None if table_ids is None else list(table_ids)})

    async def _on_ask(self, notice: dict[str, Any]) -> None:
        asker, ids = notice.get("from"), notice.get("ids")
        if not isinstance(asker, str) or asker == self.core.origin:
            return
        held, leases = self.core.tables, self.core.leases
        tables = (list(held.values()) if ids is None
                  else [held[t] for t in ids if t in held])
        rows = [table.row() for table in tables
                if leases.owns(table.id) and table.challenge is None]
        for start in range(0, len(rows), ANSWER_BATCH):  # a notice each: none is huge
            await self.relay.send_alone(asker, {"kind": "rows",
                                                "rows": rows[start:start + ANSWER_BATCH]})

    def _on_rows(self, item: dict[str, Any]) -> None:
        for row in item.get("rows", ()):
            table_id = row["summary"]["table_id"]
            known = self.elsewhere.get(table_id)
            if table_id in self.core.tables or (known is not None
                                                and known["version"] >= row["version"]):
                continue  # held here, or known as it is (the stale check asks for every
                # table in play: its row's version is behind the database's between changes)
            self.elsewhere[table_id] = row
            self.core.lobby_changed(table_id)
