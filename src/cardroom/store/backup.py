"""Backing up and restoring the whole database while the room runs (``cardroom db backup``,
``cardroom db restore``).

An SQLite file is copied with SQLite's online backup API in a single step: the copy is one
read transaction, so it is a consistent snapshot even while a server writes (in WAL mode the
writers never wait for it). A copy made in several steps would start over each time another
process wrote between two steps, and a busy room writes all the time. A PostgreSQL database
is dumped by ``pg_dump -Fc`` and loaded by ``pg_restore``, the server's own tools, which must
be installed where the command runs. Either way the backup holds everything: accounts,
sessions, ratings, tables and every match's record.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import (
    ColumnElement,
    Connection,
    Table,
    create_engine,
    func,
    inspect,
    make_url,
    select,
    update,
)

from cardroom.store.db import make_engine
from cardroom.store.models import MATCHES, PLAYERS, TABLES, RoomRow, new_room_key

SQLITE_MAGIC = b"SQLite format 3\x00"
"""The first bytes of every SQLite database file."""
PG_DUMP_MAGIC = b"PGDMP"
"""The first bytes of a dump in ``pg_dump``'s custom format (``-Fc``)."""


class BackupError(Exception):
    """A backup or a restore that cannot be done; the message says why, for the operator."""


@dataclass(frozen=True, slots=True)
class Contents:
    """What a database holds, in short: what a backup or a restore reports."""

    players: int
    tables: int
    matches: int
    finished: int
    """Finished matches among ``matches``."""

    def __str__(self) -> str:
        return (f"{self.players} players, {self.tables} tables, {self.matches} matches "
                f"({self.finished} finished)")


@dataclass(frozen=True, slots=True)
class Outcome:
    """A backup or restore done: the file, its size, how long it took and, where it could
    be read, what the database it made holds."""

    file: Path
    size: int
    seconds: float
    contents: Contents | None


def kind_of(url: str) -> str:
    """``sqlite`` or ``postgresql``: the kind of database a plain URL names."""
    backend = make_url(url).get_backend_name()
    if backend not in ("sqlite", "postgresql"):
        raise BackupError(f"cannot back up a {backend} database (sqlite or postgresql only)")
    return backend


def sqlite_path(url: str) -> Path:
    """The file of an ``sqlite:///file`` URL (an in-memory database has none)."""
    database = make_url(url).database
    if not database or database == ":memory:":
        raise BackupError("an in-memory SQLite database has no file to back up or restore")
    return Path(database)


def libpq_url(url: str) -> str:
    """The URL as libpq's tools take it (no SQLAlchemy driver name in the scheme)."""
    parsed = make_url(url).set(drivername="postgresql")
    return parsed.render_as_string(hide_password=False)


def file_kind(path: Path) -> str:
    """``sqlite`` or ``postgresql``: which kind of backup a file is, by its first bytes."""
    with path.open("rb") as file:
        start = file.read(len(SQLITE_MAGIC))
    if start.startswith(SQLITE_MAGIC):
        return "sqlite"
    if start.startswith(PG_DUMP_MAGIC):
        return "postgresql"
    raise BackupError(f"{path} is neither an SQLite database nor a pg_dump custom-format dump")


async def contents(url: str) -> Contents | None:
    """How many players, tables and matches the database at ``url`` holds (``None``: it has
    no card room schema)."""
    engine = make_engine(url)
    try:
        async with engine.connect() as connection:
            return await connection.run_sync(_contents)
    finally:
        await engine.dispose()


def _file_contents(path: Path) -> Contents | None:
    """:func:`contents` of an SQLite file read as it is: not through the store's engine,
    which would turn a backup's single file into a write-ahead-logged one."""
    engine = create_engine(f"sqlite:///{path}")
    try:
        with engine.connect() as connection:
            return _contents(connection)
    finally:
        engine.dispose()


def _contents(connection: Connection) -> Contents | None:
    if "matches" not in _table_names(connection):
        return None

    def count(table: Table, *where: ColumnElement[bool]) -> int:
        return int(connection.execute(
            select(func.count()).select_from(table).where(*where)).scalar_one())

    return Contents(players=count(PLAYERS), tables=count(TABLES), matches=count(MATCHES),
                    finished=count(MATCHES, MATCHES.c.finished_at.isnot(None)))


def _table_names(connection: Connection) -> set[str]:
    return set(inspect(connection).get_table_names())


async def is_empty(url: str) -> bool:
    """Whether the database at ``url`` holds no table at all (a file that does not exist
    yet is empty)."""
    if kind_of(url) == "sqlite" and not sqlite_path(url).exists():
        return True
    engine = make_engine(url)
    try:
        async with engine.connect() as connection:
            return not await connection.run_sync(_table_names)
    finally:
        await engine.dispose()


def _sqlite_copy(source: Path, target: Path) -> None:
    """Copy one SQLite database into another file, in one step of the online backup API,
    through a temporary file beside the target: a failed copy leaves no half-written
    target behind."""
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    reader = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    try:
        writer = sqlite3.connect(partial)
        try:
            reader.backup(writer, pages=-1)
            checked = writer.execute("PRAGMA quick_check").fetchone()
            if checked is None or checked[0] != "ok":
                raise BackupError(f"the copy of {source} fails SQLite's check: {checked}")
            # One file, no write-ahead log beside it: the copy may be moved or mailed.
            writer.execute("PRAGMA journal_mode=DELETE")
        finally:
            writer.close()
    finally:
        reader.close()
    os.replace(partial, target)


async def _run_tool(tool: str, arguments: list[str]) -> None:
    """Run one of PostgreSQL's client tools; :class:`BackupError` with its own words if it
    is missing or fails."""
    found = shutil.which(tool)
    if found is None:
        raise BackupError(f"{tool} is not installed (on Debian: apt-get install "
                          f"postgresql-client); it is needed for a PostgreSQL database")
    process = await asyncio.create_subprocess_exec(found, *arguments,
                                                   stdout=asyncio.subprocess.DEVNULL,
                                                   stderr=asyncio.subprocess.PIPE)
    _, errors = await process.communicate()
    if process.returncode != 0:
        said = errors.decode(errors="replace").strip()
        raise BackupError(f"{tool} failed: {said or f'exit code {process.returncode}'}")


async def backup(url: str, file: Path) -> Outcome:
    """Back the database at ``url`` up into ``file`` (replaced if it exists), safely while
    servers write to it."""
    started = time.monotonic()
    if kind_of(url) == "sqlite":
        source = sqlite_path(url)
        if not source.exists():
            raise BackupError(f"there is no database file {source}")
        await asyncio.to_thread(_sqlite_copy, source, file)
        made = await asyncio.to_thread(_file_contents, file)
    else:
        partial = file.with_name(file.name + ".partial")
        await _run_tool("pg_dump", ["--format=custom", "--no-owner", f"--file={partial}",
                              f"--dbname={libpq_url(url)}"])
        os.replace(partial, file)
        made = None
    return Outcome(file, file.stat().st_size, time.monotonic() - started, made)


async def restore(url: str, file: Path, force: bool = False) -> Outcome:
    """Load the backup ``file`` into the database at ``url``: refused if that database holds
    anything unless ``force`` (then what it held is replaced). Stop the servers first: a
    server keeps what it has in memory and would write it over the restored tables."""
    started = time.monotonic()
    kind = kind_of(url)
    if not file.is_file():
        raise BackupError(f"there is no backup file {file}")
    if file_kind(file) != kind:
        raise BackupError(f"{file} is a {file_kind(file)} backup; it cannot be restored into "
                          f"a {kind} database")
    if not force and not await is_empty(url):
        raise BackupError("the database is not empty; restore into an empty one, or pass "
                          "--force to replace what it holds")
    if kind == "sqlite":
        target = sqlite_path(url)
        for leftover in (target.with_name(target.name + suffix) for suffix in ("-wal", "-shm")):
            leftover.unlink(missing_ok=True)
        await asyncio.to_thread(_sqlite_copy, file, target)
    else:
        await _run_tool("pg_restore", ["--no-owner", "--exit-on-error", "--single-transaction",
                                 *(["--clean", "--if-exists"] if force else []),
                                 f"--dbname={libpq_url(url)}", str(file)])
    await _new_room(url)
    return Outcome(file, file.stat().st_size, time.monotonic() - started,
                   await contents(url))


async def _new_room(url: str) -> None:
    """Give a restored database a room key of its own: restored beside the room it was
    taken from (a staging copy), sharing its Redis, it must not hear that room's processes
    (a backup from before the key gets one when a server first upgrades it)."""
    engine = make_engine(url)
    try:
        async with engine.begin() as connection:
            if "room" in await connection.run_sync(_table_names):
                await connection.execute(update(RoomRow).values(key=new_room_key()))
    finally:
        await engine.dispose()
