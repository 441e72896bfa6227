"""The bot a table gets: the room's default (the strongest bot within the time budget) unless
its creator chose a level, offered in player words with one honest line each, and the level
shown in the lobby row and the table bar."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from cardroom.bots import BOT_NAMES, GAME_FACTORIES, QUICK_BOTS
from cardroom.bots.levels import DEFAULT_BOT, PLAYER_LEVELS, level_word
from cardroom.games.registry import GAMES
from cardroom.protocol import TableSummary
from cardroom.tables.room import Player, Room, RoomSettings
from cardroom.web.app import ServerConfig, create_app
from tests.shapes import check_shape


@pytest.fixture
def room_settings() -> RoomSettings:
    """A room whose default bot is the quick ``rules``, so a table that names none plays it."""
    return RoomSettings(bot_workers=1, disconnect_grace=3600, default_bot="rules")


def test_every_game_offers_the_default_bot_and_never_defaults_to_simple() -> None:
    assert DEFAULT_BOT not in QUICK_BOTS and DEFAULT_BOT.startswith("search")
    for game in GAMES:
        levels = PLAYER_LEVELS[game]
        assert DEFAULT_BOT in [level.bot for level in levels], game
        assert level_word(game, DEFAULT_BOT) == "Expert"
        assert len({level.word for level in levels}) == len(levels)
        order = [BOT_NAMES.index(level.bot) for level in levels]
        assert order == sorted(order), f"{game}'s levels are not weakest first"
        for level in levels:
            assert level.bot in GAME_FACTORIES[game], (game, level.bot)
            assert 20 < len(level.description) < 100 and level.description.endswith(".")


def test_simple_is_the_500_beginner_and_1000_offers_no_level_it_does_not_have() -> None:
    assert level_word("500", "simple") == "Beginner"
    # 1000's "simple" plays its one heuristic bot, the same as "rules": not offered twice.
    assert "simple" not in [level.bot for level in PLAYER_LEVELS["1000"]]
    assert level_word("1000", "random") == "random"


async def test_a_table_that_names_no_bot_gets_the_rooms_default(room: Room) -> None:
    ann = Player("a", "Ann")
    room.core.players[ann.id] = ann
    table = await room.create_table(ann, "online", {}, 0, None, None)
    assert table.bot_level == "rules"
    summary = table.summary()
    check_shape(summary, TableSummary)
    assert (summary["bot"], summary["bot_word"]) == ("rules", "Casual")
    assert table.update_for(0)["bot_word"] == "Casual"
    await room.add_bot(ann, table.id, 1, None)
    await room.add_bot(ann, table.id, 2, "search:fast")
    await room.start_with_bots(ann, table.id, None)
    assert [seat.bot for seat in room.tables[table.id].seats] == [
        None, "rules", "search:fast", "rules"]


async def test_a_chosen_level_is_the_tables_bot(room: Room) -> None:
    ann = Player("a", "Ann")
    room.core.players[ann.id] = ann
    table = await room.create_table(ann, "seed", {}, 0, None, "search", game="1000")
    assert table.summary()["bot_word"] == "Expert"
    await room.start_with_bots(ann, table.id, None)
    assert [seat.bot for seat in room.tables[table.id].seats] == [None, "search", "search"]


@pytest.fixture(scope="module")
def app_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """The whole app with the room's settings as `cardroom serve` has them by default."""
    database: Path = tmp_path_factory.mktemp("levels") / "room.sqlite3"
    with TestClient(create_app(ServerConfig(database_url=f"sqlite:///{database}"))) as client:
        yield client


@pytest.mark.parametrize("game", list(GAMES))
def test_the_new_table_form_is_offered_each_games_levels_and_the_default(
        app_client: TestClient, game: str) -> None:
    catalogue = app_client.get("/api/rules", params={"game": game}).json()
    assert catalogue["default_bot"] == DEFAULT_BOT
    assert [level["word"] for level in catalogue["bot_levels"]] == [
        level.word for level in PLAYER_LEVELS[game]]
    assert all(set(level) == {"word", "bot", "description", "rating"}
               and level["rating"] is None  # no rated match yet
               for level in catalogue["bot_levels"])

