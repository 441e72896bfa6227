"""The store's writes of table changes to an SQLite file, which are grouped."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from sqlalchemy import event
from sqlalchemy.exc import IntegrityError

from cardroom.store.data import NewTable
from cardroom.store.db import CHECKPOINT_AFTER, Change, Store


async def _store_with_tables(path: Path, count: int) -> Store:
    """A store on a fresh SQLite file with ``count`` tables, each on match 1 at version 1."""
    store = await Store.open(f"sqlite:///{path}")
    for number in range(count):
        table_id = f"t{number}"
        await store.add_table(NewTable(id=table_id, game="500", rules={}, seats=4, bot="simple",
                                       turn_seconds=None, hints=False, creator_id=None,
                                       created_at=0.0))
        assert await store.commit(Change(table_id, 0, 0.5, match=(1, 42, 0, {})))
    return store


@asynccontextmanager
async def _open_tables(path: Path, count: int) -> AsyncIterator[Store]:
    """:func:`_store_with_tables`, closed at the end."""
    store = await _store_with_tables(path, count)
    try:
        yield store
    finally:
        await store.close()


async def _actions(store: Store, table_id: str) -> list[tuple[int, int, str]]:
    stored = await store.load_table(table_id)
    assert stored is not None
    return [(a.number, a.seat, a.action) for a in stored.actions]


async def test_changes_arriving_together_are_written_together(tmp_path: Path) -> None:
    async with _open_tables(tmp_path / "room.sqlite3", 50) as store:
        assert store.group_commit is not None
        before = store.group_commit.groups
        written = await asyncio.gather(*(
            store.commit(Change(f"t{n}", 1, 1.0, action=(1, 0, n % 4, "pass")))
            for n in range(50)))
        assert written == [True] * 50
        assert store.group_commit.groups - before < 5
        for n in (0, 17, 49):
            assert await _actions(store, f"t{n}") == [(0, n % 4, "pass")]
            stored = await store.load_table(f"t{n}")
            assert stored is not None and stored.version == 2


async def test_a_change_that_lost_its_race_writes_nothing_and_the_rest_of_its_group_stands(
        tmp_path: Path) -> None:
    async with _open_tables(tmp_path / "room.sqlite3", 2) as store:
        written = await asyncio.gather(
            store.commit(Change("t0", 1, 1.0, action=(1, 0, 1, "pass"))),
            store.commit(Change("t0", 1, 1.1, action=(1, 0, 2, "bid 6S"))),
            store.commit(Change("t1", 1, 1.2, action=(1, 0, 3, "bid 7H"))))
        assert written == [True, False, True]
        assert await _actions(store, "t0") == [(0, 1, "pass")]
        assert await _actions(store, "t1") == [(0, 3, "bid 7H")]


async def _group_with_a_taken_key(store: Store, failing_commits: int = 0) -> list[object]:
    """Outcomes of one group on tables t0, t1 and t2 at version 1, where t1 already holds
    action 0 and its change writes action 0 again, at the right version: the row's key is
    taken. ``failing_commits``: how many COMMITs fail once the group is sent."""
    assert await store.commit(Change("t1", 1, 1.0, action=(1, 0, 0, "pass")))
    _fail_commits(store, failing_commits)
    return await asyncio.gather(
        store.commit(Change("t0", 1, 2.0, action=(1, 0, 1, "pass"))),
        store.commit(Change("t1", 2, 2.1, action=(1, 0, 2, "pass"))),
        store.commit(Change("t2", 1, 2.2, action=(1, 0, 3, "bid 7H"))),
        return_exceptions=True)


async def test_a_failing_change_fails_alone(tmp_path: Path) -> None:
    async with _open_tables(tmp_path / "room.sqlite3", 3) as store:
        written = await _group_with_a_taken_key(store)
        assert written[0] is True and written[2] is True
        assert isinstance(written[1], IntegrityError)
        assert await _actions(store, "t0") == [(0, 1, "pass")]
        assert await _actions(store, "t1") == [(0, 0, "pass")]
        stored = await store.load_table("t1")
        assert stored is not None and stored.version == 2  # its bump was rolled back
        assert await _actions(store, "t2") == [(0, 3, "bid 7H")]


async def test_closing_the_store_writes_what_is_queued(tmp_path: Path) -> None:
    path = tmp_path / "room.sqlite3"
    store = await _store_with_tables(path, 1)
    pending = asyncio.ensure_future(store.commit(Change("t0", 1, 1.0, action=(1, 0, 1, "pass"))))
    await asyncio.sleep(0)  # queued, not yet written
    await store.close()
    assert pending.done() and pending.result() is True
    again = await Store.open(f"sqlite:///{path}")
    try:
        assert await _actions(again, "t0") == [(0, 1, "pass")]
    finally:
        await again.close()


@pytest.mark.parametrize("url", ["sqlite://", "sqlite:///:memory:"])
async def test_an_in_memory_database_is_written_directly(url: str) -> None:
    store = await Store.open(url)
    try:
        assert store.group_commit is None
    finally:
        await store.close()


def _fail_commits(store: Store, how_many: int) -> None:
    """Make the next ``how_many`` COMMITs of the store's SQLite writer fail (a full disk,
    say), after every statement of their transactions has run."""
    assert store.group_commit is not None
    left = [how_many]

    def commit(_connection) -> None:
        if left[0] > 0:
            left[0] -= 1
            raise OSError("disk full")

    for engine in store.group_commit.engines:
        event.listen(engine, "commit", commit)


async def test_a_group_whose_commit_fails_reports_no_change_written(tmp_path: Path) -> None:
    async with _open_tables(tmp_path / "room.sqlite3", 2) as store:
        _fail_commits(store, 1)
        written = await asyncio.gather(
            store.commit(Change("t0", 1, 1.0, action=(1, 0, 1, "pass"))),
            store.commit(Change("t1", 1, 1.1, action=(1, 0, 2, "pass"))),
            return_exceptions=True)
        assert all(isinstance(outcome, OSError) for outcome in written)
        assert await _actions(store, "t0") == [] and await _actions(store, "t1") == []
        # The writer goes on: the same changes are written when tried again.
        assert await store.commit(Change("t0", 1, 2.0, action=(1, 0, 1, "pass")))
        assert await _actions(store, "t0") == [(0, 1, "pass")]


async def test_a_change_written_alone_answers_only_once_committed(tmp_path: Path) -> None:
    async with _open_tables(tmp_path / "room.sqlite3", 3) as store:
        # t1's taken key sends the group one by one, and then t0's COMMIT fails.
        written = await _group_with_a_taken_key(store, failing_commits=1)
        assert isinstance(written[0], OSError)
        assert isinstance(written[1], IntegrityError)
        assert written[2] is True
        assert await _actions(store, "t0") == []
        assert await _actions(store, "t2") == [(0, 3, "bid 7H")]


async def test_a_change_whose_caller_gave_up_before_its_group_is_not_written(
        tmp_path: Path) -> None:
    async with _open_tables(tmp_path / "room.sqlite3", 1) as store:
        waiting = asyncio.ensure_future(
            store.commit(Change("t0", 1, 1.0, action=(1, 0, 1, "pass"))))
        await asyncio.sleep(0)  # queued, not yet written
        waiting.cancel()
        await asyncio.sleep(0.2)
        stored = await store.load_table("t0")
        assert stored is not None and stored.version == 1 and stored.actions == ()
        assert await store.commit(Change("t0", 1, 2.0, action=(1, 0, 2, "pass")))


async def test_a_closed_store_refuses_changes_instead_of_hanging(tmp_path: Path) -> None:
    store = await _store_with_tables(tmp_path / "room.sqlite3", 1)
    await store.close()
    with pytest.raises(RuntimeError, match="closed"):
        await asyncio.wait_for(store.commit(Change("t0", 1, 1.0, action=(1, 0, 1, "pass"))), 5)


async def test_the_wal_is_checkpointed_and_started_over_while_changes_keep_coming(
        tmp_path: Path) -> None:
    """Changes are committed in the event loop without checkpointing; the checkpoint thread
    copies the WAL back and starts it over, though writes never pause: it stays small, and
    the database holds every change."""
    path = tmp_path / "room.sqlite3"
    wal = path.with_name(path.name + "-wal")
    async with _open_tables(path, 4) as store:
        assert store.group_commit is not None
        changes = 4 * CHECKPOINT_AFTER
        for n in range(changes):
            assert await store.commit(Change(f"t{n % 4}", 1 + n // 4, 1.0,
                                             action=(1, n // 4, n % 4, "pass")))
        largest_before_checkpoint = wal.stat().st_size
        checkpoint = store.group_commit._checkpoint
        assert checkpoint is not None
        await checkpoint
        # A change adds two or three pages (about 10 KB) to the WAL: without checkpoints
        # the 2,000 changes would have made it some 20 MB long.
        assert largest_before_checkpoint < 10 * 1024 * 1024
        assert wal.stat().st_size < 256 * 1024
        assert len(await _actions(store, "t3")) == changes // 4


async def test_a_write_lock_held_by_another_process_never_stops_the_event_loop(
        tmp_path: Path) -> None:
    """Another process holding SQLite's write lock (an archive run on the same file, say):
    the room's commit waits for it in the writer's thread, the event loop goes on serving
    everything else meanwhile, and the change is written once, when the lock is let go."""
    path = tmp_path / "room.sqlite3"
    async with _open_tables(path, 1) as store:
        other = sqlite3.connect(path, timeout=5)
        other.execute("BEGIN IMMEDIATE")
        ticks = 0

        async def tick() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.01)
                ticks += 1

        ticker = asyncio.create_task(tick())
        commit = asyncio.create_task(store.commit(Change("t0", 1, 1.0, action=(1, 0, 1, "pass"))))
        await asyncio.sleep(0.5)
        assert not commit.done()  # waiting for the other process …
        assert ticks >= 10  # … while the loop keeps running
        other.rollback()
        other.close()
        assert await commit is True
        ticker.cancel()
        assert await _actions(store, "t0") == [(0, 1, "pass")]


async def test_a_long_reader_never_holds_up_the_writes_and_the_wal_is_started_over_after_it(
        tmp_path: Path) -> None:
    """A backup's long read keeps SQLite from starting the WAL over: the checkpoints give up
    on that at once, so no commit waits for the reader, and the first checkpoint after it
    starts the WAL over."""
    path = tmp_path / "room.sqlite3"
    wal = path.with_name(path.name + "-wal")
    async with _open_tables(path, 4) as store:
        assert store.group_commit is not None
        reader = sqlite3.connect(path)
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM actions").fetchone()  # holds its snapshot
        version = [1] * 4
        for n in range(3 * CHECKPOINT_AFTER):
            if n == 2 * CHECKPOINT_AFTER:
                reader.rollback()
                reader.close()
            table = n % 4
            # A commit that waited for the reader would wait SQLite's five seconds.
            assert await asyncio.wait_for(store.commit(Change(
                f"t{table}", version[table], 1.0,
                action=(1, version[table] - 1, table, "pass"))), timeout=2.5)
            version[table] += 1
        checkpoint = store.group_commit._checkpoint
        assert checkpoint is not None
        await checkpoint
        assert wal.stat().st_size < 256 * 1024
        assert len(await _actions(store, "t1")) == 3 * CHECKPOINT_AFTER // 4
