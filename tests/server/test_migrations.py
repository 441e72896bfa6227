"""The schema comes from the Alembic migrations, on SQLite and PostgreSQL alike, and matches
the models (autogenerate finds nothing to add)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from typer.testing import CliRunner

from cardroom.cli import app
from cardroom.store.db import Change, Store, make_engine
from cardroom.store.migrate import head, upgrade
from cardroom.store.models import Base
from tests.server.pg import fresh_schema


def _diff(connection) -> list:
    return compare_metadata(MigrationContext.configure(connection), Base.metadata)


async def _upgrade_and_compare(url: str) -> tuple[str | None, list]:
    engine = make_engine(url)
    try:
        reached = await upgrade(engine)
        again = await upgrade(engine)  # a second upgrade is a no-op
        assert again == reached
        async with engine.connect() as connection:
            return reached, await connection.run_sync(_diff)
    finally:
        await engine.dispose()


async def test_fresh_sqlite_upgrades_to_head_and_matches_the_models(tmp_path: Path) -> None:
    reached, diff = await _upgrade_and_compare(f"sqlite:///{tmp_path / 'fresh.sqlite3'}")
    assert reached == head()
    assert diff == []


async def test_fresh_postgresql_upgrades_to_head_and_matches_the_models() -> None:
    with fresh_schema() as url:
        reached, diff = await _upgrade_and_compare(url)
        assert reached == head()
        assert diff == []
        # And the store works there: a 62-bit seed fits.
        store = await Store.open(url)
        try:
            from cardroom.store.data import NewTable

            await store.add_table(NewTable(id="t1", game="500", rules={}, seats=4,
                                           bot="simple", turn_seconds=None, hints=False,
                                           creator_id=None, created_at=0.0, version=7))
            assert await store.commit(Change("t1", 7, 1.0, match=(1, (1 << 62) - 1, 0, {})))
            assert not await store.commit(Change("t1", 7, 2.0, action=(1, 0, 1, "pass")))
            stored = await store.load_table("t1")
            assert stored is not None and stored.match is not None
            assert (stored.version, stored.match.seed) == (8, (1 << 62) - 1)
            assert stored.actions == ()
            # An ordinary action is one statement there: written only at the right version.
            assert await store.commit(Change("t1", 8, 3.0, action=(1, 0, 1, "pass")))
            assert not await store.commit(Change("t1", 8, 4.0, action=(1, 0, 3, "bid 7H")))
            stored = await store.load_table("t1")
            assert stored is not None and stored.version == 9
            assert [(a.number, a.seat, a.action, a.created_at) for a in stored.actions] == [
                (0, 1, "pass", 3.0)]
        finally:
            await store.close()


async def test_servers_upgrading_together_on_postgresql_take_turns() -> None:
    with fresh_schema() as url:
        results = await asyncio.gather(*(_upgrade_and_compare(url) for _ in range(3)))
        assert {reached for reached, _ in results} == {head()}


def test_a_database_made_before_migrations_is_adopted_and_upgraded(tmp_path: Path) -> None:
    """Its tables came from create_all of the first models: stamped 0001, then upgraded."""
    path = tmp_path / "old.sqlite3"

    async def make_old() -> None:
        engine = make_engine(f"sqlite:///{path}")
        async with engine.begin() as connection:
            await connection.run_sync(lambda c: upgrade_to_first(c))
        await engine.dispose()

    def upgrade_to_first(connection) -> None:
        from alembic import command

        from cardroom.store.migrate import alembic_config

        command.upgrade(alembic_config(connection), "0001")
        connection.exec_driver_sql("DROP TABLE alembic_version")
        connection.exec_driver_sql(
            "INSERT INTO tables VALUES ('old', '500', '{}', NULL, 'simple', NULL, 0, 0, 0, 0)")

    asyncio.run(make_old())
    result = CliRunner().invoke(app, ["db", "upgrade", "--database-url", f"sqlite:///{path}"])
    assert result.exit_code == 0, result.output
    assert f"revision {head()}" in result.output
    with sqlite3.connect(path) as connection:
        version, = connection.execute("SELECT version FROM tables").fetchone()
    assert version > 1_700_000_000_000  # from the clock: above any version a client holds


def test_db_upgrade_reports_an_unreachable_database() -> None:
    result = CliRunner().invoke(app, ["db", "upgrade", "--database-url",
                                      "postgresql://nobody@127.0.0.1:1/none"])
    assert result.exit_code == 1
    assert "cannot upgrade" in result.output


@pytest.mark.parametrize("kind", ["sqlite"])
def test_db_upgrade_creates_a_fresh_database(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "new.sqlite3"
    result = CliRunner().invoke(app, ["db", "upgrade", "--database-url", f"sqlite:///{path}"])
    assert result.exit_code == 0, result.output
    with sqlite3.connect(path) as connection:
        names = {row[0] for row in connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"players", "tables", "seats", "matches", "actions", "bugs"} <= names


OLD_PLAYERS = [  # (id, name, created_at): registered before names had keys
    ("p1", "Shaun", 1.0), ("p2", "Shaun", 2.0), ("p3", "SHAUN", 3.0), ("p4", "Аlice", 5.0),
    ("p5", "Alice", 4.0), ("p6", "Bob", 6.0), ("p7", "\u200b", 7.0), ("p0", "shaun", 2.0),
]


async def _migrate_old_players(url: str) -> dict[str, str | None]:
    """A database at 0003 holding duplicate names, upgraded to head: each player's key."""
    from sqlalchemy import text

    from cardroom.store.db import NameTaken

    engine = make_engine(url)
    try:
        assert await upgrade(engine, "0003") == "0003"
        async with engine.begin() as connection:
            for player_id, name, created_at in OLD_PLAYERS:
                await connection.execute(text(
                    "INSERT INTO players (id, name, token_hash, created_at) "
                    "VALUES (:id, :name, :hash, :at)"),
                    {"id": player_id, "name": name, "hash": f"h-{player_id}", "at": created_at})
        assert await upgrade(engine) == head()
        async with engine.connect() as connection:
            keys = dict((await connection.execute(text(
                "SELECT id, name_key FROM players"))).all())
            assert await connection.run_sync(_diff) == []
    finally:
        await engine.dispose()
    store = await Store.open(url)
    try:  # the oldest holder of a name keeps it: nobody new can take it
        with pytest.raises(NameTaken):
            await store.add_player("new", "shaun", "h-new", name_key=keys["p1"])
        assert (await store.player_by_token_hash("h-p2")) is not None  # duplicates still play
    finally:
        await store.close()
    return keys


def _check_old_keys(keys: dict[str, str | None]) -> None:
    from cardroom.tables.names import name_key

    assert keys["p1"] == name_key("Shaun")  # the oldest of the four Shauns
    assert keys["p2"] is None and keys["p3"] is None and keys["p0"] is None
    assert keys["p5"] == name_key("Alice")  # older than the Cyrillic Аlice
    assert keys["p4"] is None
    assert keys["p6"] == name_key("Bob")
    assert keys["p7"] is None  # nothing visible: no key


async def test_upgrading_a_database_with_duplicate_names_keys_the_oldest_sqlite(
        tmp_path: Path) -> None:
    _check_old_keys(await _migrate_old_players(f"sqlite:///{tmp_path / 'dupes.sqlite3'}"))


async def test_upgrading_a_database_with_duplicate_names_keys_the_oldest_postgresql() -> None:
    with fresh_schema() as url:
        _check_old_keys(await _migrate_old_players(url))


async def test_the_name_key_migration_downgrades(tmp_path: Path) -> None:
    from sqlalchemy import inspect

    engine = make_engine(f"sqlite:///{tmp_path / 'down.sqlite3'}")
    try:
        await upgrade(engine)

        def downgrade(connection) -> list[str]:
            from alembic import command

            from cardroom.store.migrate import alembic_config

            command.downgrade(alembic_config(connection), "0003")
            return [column["name"] for column in inspect(connection).get_columns("players")]

        async with engine.begin() as connection:
            assert "name_key" not in await connection.run_sync(downgrade)
        assert await upgrade(engine) == head()
    finally:
        await engine.dispose()


async def _ordinary_and_challenge_tables(url: str) -> None:
    """A database at 0008, where an ordinary table's ``challenge`` was JSON's ``null``,
    upgraded to head: the ordinary tables (the old one and a new one) are told apart from a
    challenge's by the query every process's sweep makes."""
    from sqlalchemy import text

    from cardroom.store.data import NewTable

    engine = make_engine(url)
    try:
        await upgrade(engine, "0008")
        async with engine.begin() as connection:
            await connection.execute(text(
                "INSERT INTO tables (id, game, rules, bot, turn_seconds, hints, created_at, "
                "updated_at, match_number, closed, version, private, typed_chat, rated, "
                "challenge) VALUES ('old', '500', '{}', 'simple', NULL, false, 0, 0, 0, false, "
                "1, false, true, true, 'null')"))
        assert await upgrade(engine) == head()
    finally:
        await engine.dispose()
    store = await Store.open(url)
    try:
        for table_id, challenge in (("new", None), ("daily", {"entry": "e1"})):
            await store.add_table(NewTable(id=table_id, game="500", rules={}, seats=4,
                                           bot="simple", turn_seconds=None, hints=False,
                                           creator_id=None, created_at=0.0, version=1,
                                           challenge=challenge))
        assert set(await store.table_versions()) == {"old", "new", "daily"}
        assert set(await store.table_versions(challenges=False)) == {"old", "new"}
    finally:
        await store.close()


async def test_ordinary_tables_are_not_taken_for_challenges_on_sqlite(tmp_path: Path) -> None:
    await _ordinary_and_challenge_tables(f"sqlite:///{tmp_path / 'null.sqlite3'}")


async def test_ordinary_tables_are_not_taken_for_challenges_on_postgresql() -> None:
    with fresh_schema() as url:
        await _ordinary_and_challenge_tables(url)


async def test_the_processes_of_one_database_read_one_room_key_and_another_database_another(
        tmp_path: Path) -> None:
    """The key that keeps rooms apart on a shared Redis: made with the schema, the same for
    every process of a database."""
    keys = []
    for name in ("first", "first", "second"):
        store = await Store.open(f"sqlite:///{tmp_path / name}.sqlite3")
        try:
            keys.append(await store.room_key())
        finally:
            await store.close()
    assert keys[0] == keys[1] != keys[2]
    assert all(len(key) == 16 for key in keys)
