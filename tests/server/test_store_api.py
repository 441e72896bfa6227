"""The store speaks plain dataclasses and game records; its rows and sessions stay inside."""

from __future__ import annotations

import ast
import dataclasses
import random
from pathlib import Path

import pytest

import cardroom
from cardroom.games.record import Record
from cardroom.games.registry import GAMES, replay
from cardroom.store.data import (
    BugReport,
    ChatLine,
    NewBugReport,
    NewTable,
    PlayerInfo,
    StoredAction,
    StoredSeat,
    TableSettings,
)
from cardroom.store.db import Change, Store

PACKAGE = Path(cardroom.__file__).parent
STORE = PACKAGE / "store"
INSIDE_ONLY = ("sqlalchemy", "cardroom.store.models")
"""What no module outside ``store/`` may import."""


def _imports(path: Path) -> set[str]:
    """Every module a source file imports (``from a import b`` counts as ``a`` and
    ``a.b``), at any depth: inside functions too."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def test_no_module_outside_the_store_imports_its_models_or_sqlalchemy() -> None:
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.is_relative_to(STORE):
            continue
        for name in sorted(_imports(path)):
            if any(name == banned or name.startswith(f"{banned}.") for banned in INSIDE_ONLY):
                offenders.append(f"{path.relative_to(PACKAGE.parent)}: {name}")
    assert offenders == []


def test_the_boundary_check_sees_the_imports_it_looks_for(tmp_path: Path) -> None:
    source = tmp_path / "sample.py"
    source.write_text("def f():\n"
                      "    from cardroom.store import models\n"
                      "    import sqlalchemy.orm\n")
    assert {"cardroom.store.models", "sqlalchemy.orm"} <= _imports(source)


@pytest.fixture
async def store(tmp_path: Path):
    opened = await Store.open(f"sqlite:///{tmp_path / 'api.sqlite3'}")
    try:
        yield opened
    finally:
        await opened.close()


async def test_players_come_back_as_plain_players(store: Store) -> None:
    await store.add_player("p1", "Alice", "hash-1", name_key="alice")
    assert await store.player_by_token_hash("hash-1") == PlayerInfo("p1", "Alice")
    assert await store.player_by_token_hash("hash-2") is None
    assert await store.players(["p1", "nobody"]) == {"p1": PlayerInfo("p1", "Alice")}


async def test_a_table_comes_back_as_plain_fields_and_its_matches_as_records(
        store: Store) -> None:
    spec = GAMES["500"]
    rules = spec.rules()
    await store.add_table(NewTable(id="t1", game="500", rules=rules.to_dict(), seats=4,
                                   bot="simple", turn_seconds=30.0, hints=True,
                                   creator_id="p1", created_at=10.0))
    fresh = await store.load_table("t1")
    assert fresh is not None
    assert (fresh.game, fresh.bot, fresh.turn_seconds, fresh.hints, fresh.creator_id,
            fresh.version, fresh.match_number, fresh.closed) == (
        "500", "simple", 30.0, True, "p1", 0, 0, False)
    assert fresh.seats == (StoredSeat(),) * 4 and fresh.match is None and fresh.actions == ()
    with pytest.raises(dataclasses.FrozenInstanceError):
        fresh.version = 5  # type: ignore[misc]

    game = spec.new(rules, seed=7, first_dealer=0)
    assert await store.commit(Change("t1", 0, 11.0, seats={0: StoredSeat("p1"),
                                                           1: StoredSeat(bot="simple")},
                                     match=(1, game.seed, game.first_dealer, rules.to_dict())))
    for number in range(6):
        seat, text = game.to_act, game.legal_actions()[0].text
        game.apply(text)
        assert await store.commit(Change("t1", 1 + number, 12.0 + number,
                                         action=(1, number, seat, text)))

    stored = await store.load_table("t1")
    assert stored is not None and stored.version == 7 and stored.match_number == 1
    assert stored.seats[:2] == (StoredSeat("p1"), StoredSeat(bot="simple"))
    assert stored.match is not None and stored.match.seed == 7
    assert [(a.number, a.seat, a.action) for a in stored.actions] == list(
        zip(range(6), game.record.seats, game.record.actions, strict=True))
    assert stored.updated_at == 17.0  # the last action's time
    later = await store.load_table("t1", match_number=1, actions_from=4)
    assert later is not None and [a.number for a in later.actions] == [4, 5]
    assert later.actions[0] == StoredAction(4, game.record.seats[4], game.record.actions[4],
                                            16.0)
    assert [t.id for t in await store.load_open_tables()] == ["t1"]

    (played,) = await store.match_records("t1")
    assert played.match.number == 1 and played.match.finished_at is None
    assert played.record == dataclasses.replace(game.record, notes={})
    assert replay(played.record).record.actions == game.record.actions
    assert await store.match_records("nowhere") == []


async def test_a_finished_match_comes_back_as_a_record_that_replays_to_its_scores(
        store: Store) -> None:
    """What the load test's end check relies on: the stored record of a finished match
    rebuilds the match, and the stored scores are those it ended with."""
    spec = GAMES["500"]
    rules = spec.rules(None, {"target": 50, "lose_at": -50})
    game = spec.new(rules, seed=3, first_dealer=0)
    await store.add_table(NewTable(id="t1", game="500", rules=rules.to_dict(), seats=4,
                                   bot="simple", turn_seconds=None, hints=False,
                                   creator_id=None, created_at=0.0))
    assert await store.commit(Change("t1", 0, 1.0, match=(1, game.seed, game.first_dealer,
                                                          rules.to_dict())))
    choose = random.Random(1)
    while not game.is_over:
        seat = game.to_act
        game.apply(choose.choice(game.legal_actions()).text)
        number = len(game.actions) - 1
        change = Change("t1", number + 1, 2.0, action=(1, number, seat, game.actions[-1].text))
        if game.is_over:
            change.finish = (1, game.winner, list(game.scores),
                             [h.to_dict() for h in game.history])
        assert await store.commit(change)

    (played,) = await store.match_records("t1")
    assert played.match.finished_at == 2.0 and played.match.scores == list(game.scores)
    assert played.match.winner == game.winner
    assert list(replay(played.record).scores) == played.match.scores
    stored = await store.load_table("t1")
    assert stored is not None and stored.finished == (played.match,)


async def test_bug_reports_keep_their_record(store: Store) -> None:
    record = Record(game="500", rules={"preset": "online"}, seed=3, dealer=1,
                    actions=["pass"], seats=[2])
    first = await store.add_bug(NewBugReport(
        player_id="p1", player_name="Alice", description="odd", client_state={"a": 1},
        created_at=5.0, table_id="t1", record=record))
    second = await store.add_bug(NewBugReport(
        player_id="p2", player_name="Bob", description="none", client_state={},
        created_at=6.0))
    assert await store.bugs() == [
        BugReport(id=first, player_id="p1", player_name="Alice", description="odd",
                  client_state={"a": 1}, created_at=5.0, table_id="t1", record=record),
        BugReport(id=second, player_id="p2", player_name="Bob", description="none",
                  client_state={}, created_at=6.0)]


async def test_settings_reserved_seats_successors_and_chat_come_back(store: Store) -> None:
    """What private tables, friends' seats, bots' successors and the chat keep: each comes
    back as written, from a fresh read as another process would make it."""
    spec = GAMES["500"]
    await store.add_table(NewTable(
        id="t2", game="500", rules=spec.rules().to_dict(), seats=4, bot="search",
        turn_seconds=None, hints=False, creator_id="p1", created_at=1.0,
        settings=TableSettings(private=True, invite="s" * 32)))
    fresh = await store.load_table("t2")
    assert fresh is not None and fresh.settings == TableSettings(private=True, invite="s" * 32)
    later = TableSettings(private=True, invite=None, invite_side=1, typed_chat=False)
    assert await store.commit(Change("t2", 0, 2.0, settings=later, seats={
        1: StoredSeat(reserved=True), 2: StoredSeat(bot="search", successor_id="p2")}))
    stored = await store.load_table("t2")
    assert stored is not None and stored.settings == later and stored.version == 1
    assert stored.seats[1:3] == (StoredSeat(reserved=True),
                                 StoredSeat(bot="search", successor_id="p2"))
    lines = [ChatLine(table_id="t2", match_number=0, created_at=3.0 + n, player_id="p1",
                      name="Ann", seat=0, channel="players", kind="text", text=f"line {n}")
             for n in range(5)]
    for line in lines:
        await store.add_chat_line(line)
    assert await store.chat_lines("t2") == lines
    assert await store.chat_lines("t2", limit=2) == lines[-2:]
    assert await store.chat_lines("t1") == []
