"""Old finished matches moved out of the database into compressed record files, and back
(``cardroom db archive``, ``cardroom db import-archive``).

A room that runs for years keeps every action of every match: the ``actions`` table is most
of the database. Archiving writes each finished match older than a cut-off as one gzip file
in the card room's own record format (:class:`cardroom.games.record.Record`), so
``gunzip -c FILE | cardroom replay /dev/stdin`` replays it; the header's extra lines keep what
the database held beside the record: the table, the match's result and score history, who
played each seat, the actions' times, the match's chat and its hands' analyses. A folder per
month of the finish holds the files, and ``index.jsonl`` lists them, a line a match (table,
match, game, finish, scores, players). Then the batch's rows are deleted in one transaction.
The files are written (and synced) before that transaction, so a failure in between leaves
a match in both places, never in neither; writing it again writes the same file.

Importing puts matches back with every row they had (a chat line gets a new number): the
history, replays and profiles find them again. A match the database already holds is left
as it is, so importing twice is harmless. Ratings are not touched either way: they were
worked out when the match ended and stay. Tables and players stay in the database (small);
a table an import finds missing comes back closed, with the archived table's settings.

Only matches rated (or never to be rated) are archived, and none of a daily challenge's
tables: its standings and its archive of days are made of its matches' scores.
"""

from __future__ import annotations

import gzip
import json
import os
import time
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Table, delete, func, insert, or_, select, tuple_, update
from sqlalchemy.ext.asyncio import AsyncEngine

from cardroom.games.record import Record
from cardroom.store.models import (
    ACTIONS,
    CHALLENGE_ENTRIES,
    CHAT_LINES,
    HAND_ANALYSES,
    MATCH_SEATS,
    MATCHES,
    TABLES,
)

SUFFIX = ".record.gz"
INDEX = "index.jsonl"
BATCH = 200
"""Matches archived in one transaction: each batch holds SQLite's write lock briefly."""
DAY = 86_400.0

_TABLE_COLUMNS = ("bot", "hints", "creator_id", "created_at", "turn_seconds", "rated",
                  "private")
"""What an import needs to bring back a table the database no longer has."""
_MATCH_COLUMNS = ("started_at", "finished_at", "winner", "scores", "history", "rating",
                  "private")
_SEAT_COLUMNS = ("seat", "player_id", "bot", "side", "won")
_CHAT_COLUMNS = ("created_at", "player_id", "name", "seat", "channel", "kind", "text")

Key = tuple[str, int]
"""A match: (table id, match number)."""


@dataclass(frozen=True, slots=True)
class ArchivedMatch:
    """A finished match with everything the database kept of it: its record, and the rows
    beside it as plain values (by column name)."""

    table_id: str
    number: int
    record: Record
    match: dict[str, Any]
    """The match row's result columns (:data:`_MATCH_COLUMNS`)."""
    table: dict[str, Any]
    """The table's settings (:data:`_TABLE_COLUMNS`)."""
    seats: list[dict[str, Any]]
    """Who played each seat and how their side did (``match_seats``)."""
    times: list[float]
    """When each action was accepted."""
    chat: list[dict[str, Any]]
    analyses: dict[int, Any]
    """Hands' analyses worked out for replays, by hand."""

    @property
    def key(self) -> Key:
        """(table id, match number)."""
        return self.table_id, self.number

    def to_text(self) -> str:
        """The match as a record file's text: the record, with the rest in extra header
        lines (JSON values)."""
        extra = {"table": self.table_id, "match": self.number, "result": self.match,
                 "table-settings": self.table, "players": self.seats, "times": self.times,
                 "chat": self.chat, "analyses": self.analyses}
        record = Record(game=self.record.game, rules=self.record.rules, seed=self.record.seed,
                        dealer=self.record.dealer, actions=self.record.actions,
                        seats=self.record.seats,
                        extra={key: json.dumps(value, sort_keys=True)
                               for key, value in extra.items()})
        return record.to_text()

    @classmethod
    def from_text(cls, text: str) -> ArchivedMatch:
        """Read :meth:`to_text`'s form back; ``ValueError`` if it is not an archived match."""
        record = Record.from_text(text)
        try:
            extra = {key: json.loads(value) for key, value in record.extra.items()}
            return cls(table_id=str(extra["table"]), number=int(extra["match"]),
                       record=Record(game=record.game, rules=record.rules, seed=record.seed,
                                     dealer=record.dealer, actions=record.actions,
                                     seats=record.seats),
                       match=dict(extra["result"]), table=dict(extra["table-settings"]),
                       seats=list(extra["players"]), times=list(extra["times"]),
                       chat=list(extra["chat"]),
                       analyses={int(hand): analysis
                                 for hand, analysis in dict(extra["analyses"]).items()})
        except (KeyError, TypeError, ValueError) as error:
            raise ValueError(f"not an archived match: {error!r}") from None

    @property
    def path(self) -> Path:
        """Where its file goes in an archive folder: a folder per month of its finish."""
        month = time.strftime("%Y-%m", time.gmtime(self.match["finished_at"]))
        return Path(month) / f"{self.table_id}-{self.number}{SUFFIX}"

    def index_entry(self) -> dict[str, Any]:
        """Its line in the archive's index."""
        return {"file": self.path.as_posix(), "table": self.table_id, "match": self.number,
                "game": self.record.game, "finished_at": self.match["finished_at"],
                "scores": self.match["scores"],
                "players": sorted({seat["player_id"] or f"bot:{seat['bot']}"
                                   for seat in self.seats})}


class Archive:
    """The store's side of archiving (``Store.archive``): finding, reading, deleting and
    putting back finished matches."""

    def __init__(self, engine: AsyncEngine,
                 writing: Callable[[], AbstractAsyncContextManager[None]]) -> None:
        self._engine = engine
        self._writing = writing

    async def count(self, before: float) -> int:
        """How many matches finished before ``before`` (unix seconds) may be archived."""
        async with self._engine.connect() as connection:
            return int((await connection.execute(
                select(func.count()).select_from(_archivable(before).subquery())))
                .scalar_one())

    async def oldest(self, before: float, limit: int = BATCH) -> list[ArchivedMatch]:
        """Up to ``limit`` of the matches that may be archived, oldest first, with all the
        database keeps of them."""
        async with self._engine.connect() as connection:
            return await connection.run_sync(_read_oldest, before, limit)

    async def remove(self, keys: list[Key]) -> None:
        """Delete these finished matches and every row of theirs, in one transaction."""
        async with self._writing(), self._engine.begin() as connection:
            await connection.run_sync(_delete, keys)

    async def put_back(self, matches: list[ArchivedMatch]) -> int:
        """Insert archived matches the database does not hold, in one transaction; how many
        were added (the others were there already)."""
        async with self._writing(), self._engine.begin() as connection:
            return await connection.run_sync(_insert, matches)


def _archivable(before: float) -> Any:
    """The matches that may be archived, as (table id, number): finished before ``before``,
    not waiting for their rating, not a daily challenge's."""
    return (select(MATCHES.c.table_id, MATCHES.c.number)
            .join(TABLES, TABLES.c.id == MATCHES.c.table_id)
            .where(MATCHES.c.finished_at < before,
                   or_(MATCHES.c.rating.is_(None), MATCHES.c.rating != "pending"),
                   # a daily challenge's matches are its standings: they stay
                   MATCHES.c.table_id.not_in(select(CHALLENGE_ENTRIES.c.table_id))))


def _of(table: Table, keys: list[Key], number: str = "match_number") -> Any:
    """A condition: the row belongs to one of these matches."""
    return tuple_(table.c.table_id, table.c[number]).in_(keys)


def _read_oldest(connection: Connection, before: float, limit: int) -> list[ArchivedMatch]:
    rows = connection.execute(
        select(MATCHES, TABLES.c.game, *(TABLES.c[name].label(f"table_{name}")
                                           for name in _TABLE_COLUMNS))
        .join(TABLES, TABLES.c.id == MATCHES.c.table_id)
        .where(tuple_(MATCHES.c.table_id, MATCHES.c.number).in_(
            _archivable(before).order_by(MATCHES.c.finished_at).limit(limit)))
        .order_by(MATCHES.c.finished_at)).all()
    keys = [(row.table_id, row.number) for row in rows]
    if not keys:
        return []
    seats: dict[Key, list[dict[str, Any]]] = {key: [] for key in keys}
    for seat in connection.execute(select(MATCH_SEATS).where(_of(MATCH_SEATS, keys))
                                   .order_by(MATCH_SEATS.c.seat)):
        seats[seat.table_id, seat.match_number].append(
            {name: getattr(seat, name) for name in _SEAT_COLUMNS})
    actions: dict[Key, list[Any]] = {key: [] for key in keys}
    for action in connection.execute(select(ACTIONS).where(_of(ACTIONS, keys))
                                     .order_by(ACTIONS.c.number)):
        actions[action.table_id, action.match_number].append(action)
    chat: dict[Key, list[dict[str, Any]]] = {key: [] for key in keys}
    for line in connection.execute(select(CHAT_LINES).where(_of(CHAT_LINES, keys))
                                   .order_by(CHAT_LINES.c.id)):
        chat[line.table_id, line.match_number].append(
            {name: getattr(line, name) for name in _CHAT_COLUMNS})
    analyses: dict[Key, dict[int, Any]] = {key: {} for key in keys}
    for analysis in connection.execute(select(HAND_ANALYSES).where(_of(HAND_ANALYSES, keys))):
        analyses[analysis.table_id, analysis.match_number][analysis.hand] = analysis.analysis
    return [ArchivedMatch(
        table_id=row.table_id, number=row.number,
        record=Record(game=row.game, rules=row.rules, seed=row.seed, dealer=row.dealer,
                      actions=[a.action for a in actions[key]],
                      seats=[a.seat for a in actions[key]]),
        match={name: getattr(row, name) for name in _MATCH_COLUMNS},
        table={name: getattr(row, f"table_{name}") for name in _TABLE_COLUMNS},
        seats=seats[key], times=[a.created_at for a in actions[key]], chat=chat[key],
        analyses=analyses[key]) for row, key in zip(rows, keys, strict=True)]


def _delete(connection: Connection, keys: list[Key]) -> None:
    if not keys:
        return
    for table in (ACTIONS, MATCH_SEATS, CHAT_LINES, HAND_ANALYSES):
        connection.execute(delete(table).where(_of(table, keys)))
    connection.execute(delete(MATCHES).where(_of(MATCHES, keys, "number"),
                                              MATCHES.c.finished_at.isnot(None)))


def _insert(connection: Connection, matches: list[ArchivedMatch]) -> int:
    keys = [m.key for m in matches]
    if not keys:
        return 0
    held = {(row.table_id, row.number) for row in connection.execute(
        select(MATCHES.c.table_id, MATCHES.c.number).where(_of(MATCHES, keys, "number")))}
    missing = [m for m in matches if m.key not in held]
    tables = {row.id for row in connection.execute(
        select(TABLES.c.id).where(TABLES.c.id.in_({m.table_id for m in missing})))}
    for m in missing:
        if m.table_id not in tables:
            connection.execute(insert(TABLES).values(
                id=m.table_id, game=m.record.game, rules=m.record.rules,
                updated_at=m.match["finished_at"], match_number=m.number, closed=True,
                version=0, **m.table))
            tables.add(m.table_id)
        else:  # a table brought back by an import counts the matches it gets back
            connection.execute(update(TABLES).where(
                TABLES.c.id == m.table_id, TABLES.c.closed.is_(True),
                TABLES.c.match_number < m.number).values(match_number=m.number))
        connection.execute(insert(MATCHES).values(
            table_id=m.table_id, number=m.number, seed=m.record.seed, dealer=m.record.dealer,
            rules=m.record.rules, **m.match))
        rows: list[tuple[Table, list[dict[str, Any]]]] = [
            (MATCH_SEATS, [{"table_id": m.table_id, "match_number": m.number,
                       "finished_at": m.match["finished_at"], **seat} for seat in m.seats]),
            (ACTIONS, [{"table_id": m.table_id, "match_number": m.number, "number": number,
                         "seat": seat, "action": action, "created_at": at}
                        for number, (seat, action, at) in enumerate(zip(
                            m.record.seats, m.record.actions, m.times, strict=True))]),
            (CHAT_LINES, [{"table_id": m.table_id, "match_number": m.number, **line}
                     for line in m.chat]),
            (HAND_ANALYSES, [{"table_id": m.table_id, "match_number": m.number, "hand": hand,
                          "analysis": analysis, "created_at": m.match["finished_at"]}
                         for hand, analysis in m.analyses.items()])]
        for table, values in rows:
            if values:
                connection.execute(insert(table), values)
    return len(missing)


def _write_file(path: Path, data: bytes) -> None:
    """Write a file whole or not at all (through a temporary name), synced to the disk."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    with partial.open("wb") as file:
        file.write(data)
        file.flush()
        os.fsync(file.fileno())
    os.replace(partial, path)


def write_files(folder: Path, matches: list[ArchivedMatch]) -> None:
    """Write each match's gzip record file into ``folder`` and add them to its index."""
    for m in matches:
        _write_file(folder / m.path, gzip.compress(m.to_text().encode(), mtime=0))
    folder.mkdir(parents=True, exist_ok=True)
    with (folder / INDEX).open("a", encoding="utf-8") as index:
        for m in matches:
            index.write(json.dumps(m.index_entry(), sort_keys=True) + "\n")
        index.flush()
        os.fsync(index.fileno())


def read_file(path: Path) -> ArchivedMatch:
    """One archived match from its file; ``ValueError`` if the file is not one."""
    try:
        text = gzip.decompress(path.read_bytes()).decode("utf-8")
    except (OSError, EOFError, UnicodeDecodeError) as error:
        raise ValueError(f"{path} is not a gzip-compressed record: {error}") from None
    return ArchivedMatch.from_text(text)


def archive_files(folder: Path) -> list[Path]:
    """Every archived match's file in an archive folder, in the order they were written."""
    return sorted(folder.rglob(f"*{SUFFIX}"))


async def archive(archive: Archive, folder: Path, older_than_days: float,
                  batch: int = BATCH, now: float | None = None) -> AsyncIterator[int]:
    """Archive every match that finished more than ``older_than_days`` ago into ``folder``,
    a batch at a time: yields how many each batch moved."""
    before = (time.time() if now is None else now) - older_than_days * DAY
    while matches := await archive.oldest(before, batch):
        write_files(folder, matches)
        await archive.remove([m.key for m in matches])
        yield len(matches)


async def import_archive(archive: Archive, folder: Path,
                         batch: int = BATCH) -> AsyncIterator[tuple[int, int]]:
    """Put the matches of an archive folder back, a batch at a time: yields each batch's
    (files read, matches added)."""
    files = archive_files(folder)
    for start in range(0, len(files), batch):
        chunk = [read_file(path) for path in files[start:start + batch]]
        yield len(chunk), await archive.put_back(chunk)
