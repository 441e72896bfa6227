"""`cardroom db archive` while bots play at a running server: old finished matches leave the
database for gzip record files (with an index), and `cardroom db import-archive` brings them
back, where the history, replays and profiles find them again and they replay to the same
scores."""

from __future__ import annotations

import asyncio
import gzip
import json
from pathlib import Path

import pytest
from sqlalchemy import text

from cardroom.games.record import Record
from cardroom.games.registry import replay
from cardroom.store.archive import ArchivedMatch
from cardroom.store.db import Store, make_engine
from tests.server.helpers import QUICK, close_all, register_clients
from tests.server.pg import fresh_schema
from tests.server.test_backup import cli, finished_scores, until_finished

TABLES = 2


async def chatty_bot_tables(url: str) -> list[str]:
    """Tables whose creators say something, then leave the bots to play on."""
    clients, _ = await register_clients(url, [f"Chatter{n}" for n in range(TABLES)])
    tables = []
    try:
        for number, client in enumerate(clients):
            table = await client.create_table(rules=QUICK)
            await client.start_with_bots(table)
            await client.say(table, text=f"good luck from table {number}")
            await client.leave(table)
            tables.append(table)
    finally:
        await close_all(clients)
    return tables


async def action_rows(url: str, keys: set[tuple[str, int]]) -> int:
    """How many stored actions these matches have."""
    engine = make_engine(url)
    try:
        async with engine.connect() as connection:
            return sum([(await connection.execute(
                text("SELECT count(*) FROM actions WHERE table_id = :t AND match_number = :n"),
                {"t": table, "n": number})).scalar_one() for table, number in keys])
    finally:
        await engine.dispose()


async def until_rated(url: str) -> None:
    """Wait until no finished match waits for its rating (those are not archived)."""
    store = await Store.open(url, migrate=False)
    try:
        for _ in range(300):
            if not await store.standings.pending():
                return
            await asyncio.sleep(0.1)
    finally:
        await store.close()
    raise AssertionError("matches stayed unrated")


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
async def test_old_matches_are_archived_to_record_files_and_imported_back(
        server_factory, tmp_path: Path, database: str) -> None:
    if database == "postgresql":
        with fresh_schema() as url:
            server = server_factory(database_url=url)
            try:
                await archive_and_import(server, url, tmp_path)
            finally:
                server.stop()  # before its schema is dropped
    else:
        server = server_factory()
        await archive_and_import(server, f"sqlite:///{server.database}", tmp_path)


async def archive_and_import(server, url: str, tmp_path: Path) -> None:
    """Archive every finished match of the server's database, check, import, check."""
    tables = await chatty_bot_tables(server.url)
    await until_finished(url, TABLES)
    await until_rated(url)
    folder = tmp_path / "archive"
    code, output = await cli("db", "archive", "--database-url", url, "--older-than", "0",
                             "--to", str(folder))
    assert code == 0, output
    assert "Archived" in output

    # The index lists every file written; each is a gzip record that replays to its scores.
    entries = [json.loads(line) for line in (folder / "index.jsonl").read_text().splitlines()]
    archived = {(e["table"], e["match"]): e for e in entries}
    assert len(archived) == len(entries) >= TABLES
    assert {table for table, _ in archived} == set(tables)
    for entry in entries:
        text = gzip.decompress((folder / entry["file"]).read_bytes()).decode()
        assert list(replay(Record.from_text(text)).scores) == entry["scores"]

    # The database no longer holds them, nor their actions; the bots play on meanwhile.
    store = await Store.open(url, migrate=False)
    try:
        for table, number in archived:
            assert await store.standings.match_record(table, number) is None
        assert await action_rows(url, set(archived)) == 0
        for table in tables:
            left = {m.match.number for m in await store.match_records(table)}
            assert not left & {number for t, number in archived if t == table}
    finally:
        await store.close()

    code, output = await cli("db", "import-archive", "--database-url", url, str(folder))
    assert code == 0, output
    assert f"Imported {len(archived)} of the {len(archived)} archived matches" in output

    # Back: they replay to the scores they had, and the readers behind the history,
    # replays, profiles and chat find them as before.
    scores = await finished_scores(url)
    assert {key: scores[key] for key in archived} == {
        key: entry["scores"] for key, entry in archived.items()}
    store = await Store.open(url, migrate=False)
    try:
        for table, number in archived:
            found = await store.standings.match_record(table, number)
            assert found is not None
            match, record = found
            assert list(replay(record).scores) == match.scores == archived[table, number][
                "scores"]
            assert [seat.seat for seat in match.seats] == [0, 1, 2, 3]
            assert "simple" in {seat.bot for seat in match.seats}
        recent = {(m.table_id, m.number) for m in
                  await store.standings.recent("bot:simple", limit=1000)}
        assert set(archived) <= recent
        said = {line.text for table in tables for line in await store.chat_lines(table)}
        assert said == {f"good luck from table {n}" for n in range(TABLES)}
    finally:
        await store.close()

    # A second import adds nothing: what the database holds stays as it is.
    code, output = await cli("db", "import-archive", "--database-url", url, str(folder))
    assert code == 0, output
    assert f"Imported 0 of the {len(archived)}" in output


def test_an_archived_match_reads_back_as_it_was_written() -> None:
    match = ArchivedMatch(
        table_id="t1", number=3,
        record=Record(game="500", rules={"target": 50}, seed=7, dealer=2,
                      actions=["bid 7H", "pass"], seats=[3, 0]),
        match={"started_at": 1.5, "finished_at": 1_700_000_000.25, "winner": 0,
               "scores": [520, -40], "history": [{"hand": 1}], "rating": "done",
               "private": False},
        table={"bot": "simple", "hints": False, "creator_id": "p1", "created_at": 1.0,
               "turn_seconds": None, "rated": True, "private": False},
        seats=[{"seat": 0, "player_id": "p1", "bot": None, "side": 0, "won": True}],
        times=[2.0, 3.0],
        chat=[{"created_at": 2.5, "player_id": "p1", "name": "Ann", "seat": 0,
               "channel": "players", "kind": "text", "text": "line one: with a colon\nand two"}],
        analyses={1: {"par": [7]}})
    assert ArchivedMatch.from_text(match.to_text()) == match
    assert match.path.as_posix() == "2023-11/t1-3.record.gz"
