"""The lobby's feed: a page of tables when a watcher subscribes, then small per-table updates.

Rebuilding the whole lobby for every watcher after every change of any table cost up to
334 KB a message with 2,000 tables. Here each table's lobby row is built once per change
(and only while somebody may read it: on the next flush), changes that arrive together are
sent as one ``lobby_update`` message after :data:`COALESCE` seconds, and the sorted list the
HTTP lobby pages through is rebuilt at most once per :data:`SNAPSHOT_AGE`.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from cardroom.protocol import Lobby, LobbyUpdate, TableSummary
from cardroom.tables.model import Listener, age_seconds

COALESCE = 0.25
"""Seconds a burst of lobby changes is gathered before it is sent as one update."""
SNAPSHOT_AGE = 1.0
"""Seconds the sorted lobby served to pages may lag behind the tables."""
PAGE_LIMIT = 200
MAX_OFFSET = 1_000_000
STALE_LIMIT = 10_000
"""Changed tables whose rows wait to be built before they are built anyway (nobody may ask
for the lobby for hours: the set of them must not grow meanwhile)."""
"""Most tables in one lobby page (the subscription's first message or ``/api/lobby``)."""


Summarise = Callable[[str], TableSummary | None]
"""A table's lobby row, ``None`` once it closed."""


class LobbyFeed:
    """Every table's lobby row, the watchers, and the changes not yet sent to them."""

    def __init__(self, summarise: Summarise, coalesce: float = COALESCE) -> None:
        self._summarise = summarise
        self._coalesce = coalesce
        self._rows: dict[str, TableSummary] = {}
        self._stale: set[str] = set()
        """Tables whose row must be built again before it is read."""
        self._unsent: set[str] = set()
        """Tables changed since the watchers last heard (kept only while there are any)."""
        self._gone: set[str] = set()
        """Tables whose row went (closed, or made private) since the watchers last heard:
        only these are named as removed, so a table that never had a row (a private one)
        is never named to anybody."""
        self._watchers: set[Listener] = set()
        self._flush_handle: asyncio.TimerHandle | None = None
        self._order: list[str] = []
        self._order_at = float("-inf")
        self._order_stale = True

    @property
    def watchers(self) -> int:
        """How many connections watch the lobby."""
        return len(self._watchers)

    def changed(self, table_id: str) -> None:
        """A table's lobby row may have changed (or the table closed): send it soon."""
        self._stale.add(table_id)
        if len(self._stale) > STALE_LIMIT:
            self._rebuild_stale()
        if not self._watchers:
            return
        self._unsent.add(table_id)
        if self._flush_handle is None:
            self._flush_handle = asyncio.get_running_loop().call_later(self._coalesce,
                                                                       self._flush)

    def watch(self, listener: Listener, offset: int = 0, limit: int = PAGE_LIMIT) -> None:
        """Send ``listener`` a page of the lobby now, and every change from now on."""
        listener.deliver(self.page(offset, limit, fresh=True))
        self._watchers.add(listener)

    def unwatch(self, listener: Listener) -> None:
        """Stop sending to ``listener`` (its connection closed)."""
        self._watchers.discard(listener)
        if not self._watchers:
            self._unsent.clear()
            self._gone.clear()

    def page(self, offset: int = 0, limit: int = PAGE_LIMIT, fresh: bool = False
             ) -> Lobby:
        """A ``lobby`` message: up to ``limit`` tables from ``offset``, most recently changed
        first, and how many there are. ``fresh``: include every change so far (else the
        sorted list may be up to :data:`SNAPSHOT_AGE` old, which keeps a hammered HTTP lobby
        cheap)."""
        now = time.monotonic()
        if fresh or now - self._order_at >= SNAPSHOT_AGE:
            self._rebuild_stale()
            if self._order_stale:
                self._order = sorted(self._rows, key=lambda t: -self._rows[t]["updated_at"])
                self._order_stale = False
            self._order_at = now
        offset = min(max(0, offset), MAX_OFFSET)
        limit = max(0, min(limit, PAGE_LIMIT))
        rows = [self._aged(self._rows[t]) for t in self._order[offset:offset + limit]
                if t in self._rows]
        return {"type": "lobby", "tables": rows, "total": len(self._order),
                "offset": offset, "limit": limit}

    def _rebuild_stale(self) -> None:
        """Build again the rows of the tables changed since they were last built."""
        for table_id in self._stale:
            row = self._summarise(table_id)
            if row is None:
                if self._rows.pop(table_id, None) is not None and self._watchers:
                    self._gone.add(table_id)
            else:
                self._rows[table_id] = row
        if self._stale:
            self._order_stale = True
            self._stale.clear()

    def _flush(self) -> None:
        """Send every change gathered since the last flush, as one message per watcher."""
        self._flush_handle = None
        self._rebuild_stale()
        changed, self._unsent = self._unsent, set()
        rows = [self._aged(self._rows[t]) for t in changed if t in self._rows]
        removed = sorted(t for t in self._gone if t not in self._rows)
        self._gone.clear()
        if not self._watchers or not (rows or removed):
            return
        message: LobbyUpdate = {"type": "lobby_update", "tables": rows, "removed": removed}
        for listener in list(self._watchers):
            listener.deliver(message)

    @staticmethod
    def _aged(row: TableSummary) -> TableSummary:
        """The row with its age counted up to now (rows are built when their table changes)."""
        aged = row.copy()
        aged["age_seconds"] = age_seconds(row["updated_at"])
        return aged
