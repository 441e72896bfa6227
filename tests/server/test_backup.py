"""`cardroom db backup` while bots play at a running server, and `cardroom db restore` into a
fresh database: every finished match of the restored database replays, from its seed and
actions, to the scores stored with it, as in the database it was copied from."""

from __future__ import annotations

import asyncio
import shutil
import sys
from pathlib import Path

import pytest
from sqlalchemy import text

from cardroom.games.registry import replay
from cardroom.store.db import Store, make_engine
from tests.server.helpers import QUICK, close_all, register_clients
from tests.server.pg import fresh_database

TABLES = 3
"""Tables of bots playing quick matches back to back while the backup is taken."""


async def cli(*words: str) -> tuple[int, str]:
    """Run the real ``cardroom`` command in a process of its own: its exit code and output."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "cardroom", *words, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT, env={"COLUMNS": "200", **_environment()})
    output, _ = await process.communicate()
    return process.returncode or 0, output.decode()


def _environment() -> dict[str, str]:
    import os

    return {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL",
                                                              "CARDROOM_DATABASE_URL")}


async def bots_playing(url: str) -> list[str]:
    """Tables of quick 500 matches that bots play on their own, one after another: each
    creator starts it with bots and leaves, so a bot takes that seat too."""
    clients, _ = await register_clients(url, [f"Owner{n}" for n in range(TABLES)])
    tables = []
    try:
        for client in clients:
            table = await client.create_table(rules=QUICK)
            await client.start_with_bots(table)
            await client.leave(table)
            tables.append(table)
    finally:
        await close_all(clients)
    return tables


async def finished_scores(url: str) -> dict[tuple[str, int], list[int]]:
    """The stored final scores of every finished match in a database, by (table, match),
    each checked by replaying the match's record through its game's engine."""
    engine = make_engine(url)
    try:
        async with engine.connect() as connection:
            table_ids = [row[0] for row in await connection.execute(
                text("SELECT DISTINCT table_id FROM matches"))]
    finally:
        await engine.dispose()
    store = await Store.open(url, migrate=False)
    scores: dict[tuple[str, int], list[int]] = {}
    try:
        for table_id in table_ids:
            for played in await store.match_records(table_id):
                game = replay(played.record)  # a match being played replays as far as it went
                if played.match.finished_at is None:
                    continue
                assert game.is_over, (table_id, played.match.number)
                assert list(game.scores) == played.match.scores, (table_id, played.match.number)
                scores[table_id, played.match.number] = list(game.scores)
    finally:
        await store.close()
    return scores


async def until_finished(url: str, count: int) -> dict[tuple[str, int], list[int]]:
    """Wait until the database holds ``count`` finished matches; their scores."""
    for _ in range(600):
        scores = await finished_scores(url)
        if len(scores) >= count:
            return scores
        await asyncio.sleep(0.1)
    raise AssertionError("the bots did not finish enough matches")


async def room_key(url: str) -> str:
    """The key a room's processes name their Redis channels by."""
    from cardroom.store.db import Store

    store = await Store.open(url, migrate=False)
    try:
        return await store.room_key()
    finally:
        await store.close()


async def back_up_restore_and_replay(server_url: str, source: str, fresh: str,
                                     backup: Path) -> None:
    """Back up ``source`` twice while its server's bots play, restore the second backup
    into ``fresh``, and check what the restored database holds."""
    await bots_playing(server_url)
    await until_finished(source, TABLES)
    for _ in range(2):  # the second over the first: a backup file is replaced whole
        code, output = await cli("db", "backup", "--database-url", source, str(backup))
        assert code == 0, output
        assert "Backed up into" in output
    code, output = await cli("db", "restore", "--database-url", fresh, str(backup))
    assert code == 0, output
    assert "Restored" in output
    restored = await finished_scores(fresh)
    assert len(restored) >= TABLES
    # A restored copy is a room of its own: on a shared Redis it never hears the original.
    assert await room_key(fresh) != await room_key(source)
    # The bots played on while the backups were made: the source has gone further, and
    # every match the backup holds is there with the same result.
    later = await until_finished(source, len(restored) + 1)
    assert {key: later[key] for key in restored} == restored
    # A restore never overwrites a database that holds something unless told to.
    code, output = await cli("db", "restore", "--database-url", fresh, str(backup))
    assert code == 1
    assert "not empty" in output
    code, output = await cli("db", "restore", "--force", "--database-url", fresh,
                             str(backup))
    assert code == 0, output
    assert await finished_scores(fresh) == restored


async def test_an_sqlite_backup_made_during_play_restores_every_match(
        server_factory, tmp_path: Path) -> None:
    server = server_factory()
    source = f"sqlite:///{server.database}"
    fresh = tmp_path / "restored.sqlite3"
    backup = tmp_path / "backup.sqlite3"
    await back_up_restore_and_replay(server.url, source, f"sqlite:///{fresh}", backup)
    # The backup is one self-contained file: no write-ahead log was left beside it.
    assert not backup.with_name(backup.name + "-wal").exists()
    assert backup.read_bytes().startswith(b"SQLite format 3\x00")


@pytest.mark.skipif(shutil.which("pg_dump") is None or shutil.which("pg_restore") is None,
                    reason="PostgreSQL's client tools (pg_dump, pg_restore) are not installed")
async def test_a_postgresql_dump_made_during_play_restores_every_match(
        server_factory, tmp_path: Path) -> None:
    backup = tmp_path / "backup.dump"
    with fresh_database() as source, fresh_database() as fresh:
        server = server_factory(database_url=source)
        await back_up_restore_and_replay(server.url, source, fresh, backup)
        server.stop()
    assert backup.read_bytes().startswith(b"PGDMP")


async def test_a_backup_of_one_kind_is_not_restored_into_the_other(tmp_path: Path) -> None:
    backup = tmp_path / "backup.sqlite3"
    backup.write_bytes(b"SQLite format 3\x00" + bytes(100))
    code, output = await cli("db", "restore", "--database-url",
                             "postgresql://postgres@127.0.0.1/nowhere", str(backup))
    assert code == 1
    assert "cannot be restored into a postgresql database" in output
    code, output = await cli("db", "backup", "--database-url",
                             f"sqlite:///{tmp_path / 'missing.sqlite3'}", str(backup))
    assert code == 1
    assert "no database file" in output
