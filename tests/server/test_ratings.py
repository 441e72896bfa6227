"""Ratings and profiles: a finished rated match moves its players' and bots' ratings once,
even across a crash between the finish and the rating; profiles, the leaderboard and match
records show it; unrated tables and private tables keep what they promise."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from cardroom.games.record import Record
from cardroom.games.registry import GAMES, replay
from cardroom.store.data import FinishedMatch, MatchPlayers, MatchSeat, NewTable
from cardroom.store.db import Change, Store
from cardroom.tables.profiles import profile
from cardroom.tables.quotas import QuotaSettings
from cardroom.tables.ratings import Rater, rate_match, side_ranks
from cardroom.tables.room import Player, Room, RoomSettings
from cardroom.web.app import ServerConfig, create_app
from tests.server.helpers import finished_match
from tests.server.pg import fresh_schema


@pytest.fixture
def room_settings() -> RoomSettings:
    return RoomSettings(bot_workers=1, bot_delay=0.0, next_match_delay=3600,
                        disconnect_grace=3600, default_bot="simple",
                        leaderboard_min_matches=1,
                        quotas=QuotaSettings(tables_per_player=100, tables=1000))


async def rated_figures(room: Room, entity: str) -> dict[str, Any]:
    """The entity's standings once its rating is written (it comes just after the finish)."""
    for _ in range(200):
        found = await room.store.standings.of_player(entity)
        if found:
            return found
        await asyncio.sleep(0.05)
    raise AssertionError(f"{entity} was never rated")


async def test_a_finished_match_rates_its_player_and_its_bots_once(room: Room) -> None:
    ann, _ = await room.register("Ann")
    table_id = await finished_match(room, ann)
    table = room.tables[table_id]
    game = table.game
    assert game is not None
    ann_won = game.winner == 0
    standing = (await rated_figures(room, ann.id))["500"]
    bots = (await rated_figures(room, "bot:simple"))["500"]
    assert standing.matches == 1 and standing.wins == int(ann_won)
    assert (standing.rating > 1500) == ann_won and (bots.rating > 1500) != ann_won
    assert standing.hands == len(game.history) and standing.sigma < 25 / 3
    assert standing.points == sum(hand.points[0] for hand in game.history)
    made = sum(hand.made is True for hand in game.history if hand.contractor == 0)
    assert sum(made for _, made in standing.contracts.values()) == made
    assert bots.matches == 1  # one match, though it held three seats
    assert await room.store.standings.pending() == []
    await room.core.rater.rate(table_id, 1)  # a second rating of the same match: nothing
    assert (await room.store.standings.of_player(ann.id))["500"] == standing
    seats = room.lobby()["tables"][0]["seats"] if room.lobby()["tables"] else \
        table.update_for(None)["seats"]
    assert seats[0]["player_id"] == ann.id and seats[0]["rating"] == standing.rating
    assert seats[1]["player_id"] == "bot:simple" and seats[1]["rating"] == bots.rating


async def test_a_crash_before_the_rating_loses_nothing(tmp_path: Path,
                                                       room_settings: RoomSettings) -> None:
    url = f"sqlite:///{tmp_path / 'room.sqlite3'}"
    store = await Store.open(url)
    room = Room(store, room_settings)
    await room.start()

    async def crash(_table_id: str, _number: int) -> None:
        """The process dies between the finish's commit and the rating."""

    room.core.rater.rate = crash  # type: ignore[method-assign]
    ann, _ = await room.register("Ann")
    await finished_match(room, ann)
    await asyncio.sleep(0.2)
    await room.stop()
    await store.close()
    assert not await _standings(url, ann.id)

    store = await Store.open(url)
    again = Room(store, room_settings)
    await again.start()  # rates what was pending
    try:
        assert (await rated_figures(again, ann.id))["500"].matches == 1
    finally:
        await again.stop()
        await store.close()


async def _standings(url: str, entity: str) -> dict[str, Any]:
    store = await Store.open(url)
    try:
        return await store.standings.of_player(entity)
    finally:
        await store.close()


async def test_unrated_tables_and_tables_of_bots_change_no_rating(room: Room) -> None:
    ann, _ = await room.register("Ann")
    await finished_match(room, ann, rated=False)
    await asyncio.sleep(0.3)
    assert await room.store.standings.of_player(ann.id) == {}
    assert await room.store.standings.of_player("bot:simple") == {}


def _match(game: str, winner: int, scores: list[int], seats: list[tuple[str | None, str | None,
                                                                         int]],
           history: list[dict[str, Any]] | None = None) -> FinishedMatch:
    return FinishedMatch(
        table_id="t", number=1, game=game, rules={}, winner=winner, scores=scores,
        history=history or [], finished_at=1.0, private=False,
        seats=tuple(MatchSeat(number, player, bot, side, side == winner)
                    for number, (player, bot, side) in enumerate(seats)))


def test_sides_are_ranked_winner_first_then_by_score() -> None:
    assert side_ranks(_match("1000", 2, [300, 700, 1010], []), 3) == [2, 1, 0]
    assert side_ranks(_match("1000", 0, [1000, 400, 400], []), 3) == [0, 1, 1]
    assert side_ranks(_match("500", 1, [480, 510], []), 2) == [1, 0]


def test_a_rating_moves_with_the_result_and_tallies_contracts_by_level() -> None:
    history = [{"contract": "8NT", "contractor": 0, "made": True, "points": [220, 0]},
               {"contract": "misere", "contractor": 1, "made": False, "points": [30, -250]},
               {"contract": None, "contractor": None, "made": None, "points": [0, 0]}]
    match = _match("500", 0, [520, -250], [("ann", None, 0), (None, "search", 1),
                                           ("bob", None, 0), (None, "search", 1)], history)
    after = rate_match(match, {})
    assert after["ann"].rating == after["bob"].rating > 1500 > after["bot:search"].rating
    assert after["ann"].contracts == {"8": [1, 1]} and after["bob"].contracts == {}
    assert after["bot:search"].contracts == {"misere": [1, 0]}
    assert after["ann"].points == 250 and after["bot:search"].points == -500  # two seats
    assert after["bot:search"].hands == 6 and after["bot:search"].matches == 1
    again = rate_match(match, after)
    assert again["ann"].mu > after["ann"].mu and again["ann"].sigma < after["ann"].sigma
    assert again["ann"].matches == 2 and again["ann"].contracts == {"8": [2, 2]}


def test_a_thousand_match_ranks_three_players_and_tallies_bets() -> None:
    history = [{"contractor": 2, "bid": 110, "bet": 120, "made": True, "points": [40, 30, 120]}]
    match = _match("1000", 2, [300, 700, 1010], [("ann", None, 0), ("bob", None, 1),
                                                 ("cat", None, 2)], history)
    after = rate_match(match, {})
    assert after["cat"].rating > after["bob"].rating > after["ann"].rating
    assert after["cat"].contracts == {"120": [1, 1]} and after["cat"].points == 120


# -- over HTTP ----------------------------------------------------------------------------------


@pytest.fixture
def web(tmp_path: Path, room_settings: RoomSettings) -> Any:
    room_settings.quotas.lookups_per_minute = 30
    app = create_app(ServerConfig(database_url=f"sqlite:///{tmp_path / 'room.sqlite3'}",
                                  room=room_settings))
    with TestClient(app) as client:
        yield client


def test_profiles_the_leaderboard_and_records_show_a_finished_match(web: TestClient) -> None:
    room: Room = web.app.state.room  # type: ignore[attr-defined]

    async def play() -> tuple[Player, str, str]:
        ann, _ = await room.register("Ann")
        table_id = await finished_match(room, ann)
        hidden = await finished_match(room, ann, private=True)
        await rated_figures(room, ann.id)
        for _ in range(100):
            if (await room.store.standings.of_player(ann.id))["500"].matches == 2:
                break
            await asyncio.sleep(0.05)
        return ann, table_id, hidden

    ann, table_id, hidden = web.portal.call(play)  # type: ignore[attr-defined]
    profile = web.get(f"/api/players/{ann.id}").json()
    assert profile["name"] == "Ann" and not profile["registered"] and not profile["deleted"]
    figures = profile["games"]["500"]
    assert figures["matches"] == 2 and figures["rating"]["provisional"]
    assert [point["rating"] for point in figures["history"]][-1] == figures["rating"]["rating"]
    assert len(figures["history"]) == 2
    newest, oldest = profile["recent"]
    assert newest["table_id"] is None and newest["record"] is None  # the private table's
    assert oldest["table_id"] == table_id and oldest["preset"] is None  # house rules
    assert [p["player_id"] for p in oldest["players"]] == [ann.id] + ["bot:simple"] * 3
    assert hidden not in web.get(f"/api/players/{ann.id}").text

    assert newest["players"] == []  # who plays at a private table is nobody else's business

    async def open_up() -> None:  # the private table opens later: its matches stay private
        await room.table_settings(ann, hidden, False, None, None)

    web.portal.call(open_up)  # type: ignore[attr-defined]
    assert web.get(f"/api/players/{ann.id}").json()["recent"][0]["record"] is None
    record = Record.from_text(web.get(oldest["record"]).text)
    finished = replay(record)
    assert finished.is_over and list(finished.scores) == oldest["scores"]
    assert web.get(f"/api/matches/{hidden}/1/record").status_code == 404
    assert web.get(f"/api/matches/{table_id}/2/record").status_code == 404

    board = web.get("/api/leaderboard?game=500").json()
    lines = {line["player_id"]: line for line in board["players"]}
    assert board["min_matches"] == 1 and lines[ann.id]["matches"] == 2
    assert lines["bot:simple"]["bot"] == "simple" and lines["bot:simple"]["name"] == "Beginner"
    assert [line["rank"] for line in board["players"]] == list(range(1, len(lines) + 1))
    assert web.get("/api/leaderboard?game=1000").json()["players"] == []
    levels = {level["bot"]: level for level in web.get("/api/rules").json()["bot_levels"]}
    assert levels["simple"]["rating"] == lines["bot:simple"]["rating"]  # the New table form
    assert levels["search"]["rating"] is None
    bot = web.get("/api/players/bot:simple").json()
    assert bot["bot"] == "simple" and bot["games"]["500"]["matches"] == 2


def test_lookups_answer_nobody_and_are_limited(web: TestClient) -> None:
    assert web.get("/api/players/nobody").status_code == 404
    assert web.get("/api/players/bot:nobody").status_code == 404
    assert web.get("/api/leaderboard?game=go").status_code == 404
    assert web.get("/api/leaderboard?limit=x").status_code == 400
    assert web.get("/api/leaderboard?limit=100000").json()["limit"] == 100
    assert web.get(f"/api/leaderboard?offset={2**63}").status_code == 200
    assert web.get("/api/matches/x/0/record").status_code == 404
    codes = [web.get("/api/players/nobody").status_code for _ in range(30)]
    assert codes[-1] == 429 and codes.count(429) == 7  # 30 a minute, 23 of them here


def test_the_rater_shows_ratings_only_for_what_it_knows() -> None:
    rater = Rater(store=None)  # type: ignore[arg-type]
    rater.players["ann"] = {"500": 1620}
    rater.bots[("search", "500")] = 1710
    assert rater.rating_of("ann", None, "500") == 1620
    assert rater.rating_of("ann", None, "1000") is None
    assert rater.rating_of(None, "search", "500") == 1710
    assert rater.rating_of("bob", "search", "500") is None  # an absent player's seat
    assert rater.rating_of(None, None, "500") is None


# -- several processes ---------------------------------------------------------------------------


async def finished_in_store(store: Store, table_id: str, player: str) -> None:
    """A table whose one match finished (a made-up result), with ``player`` in seat 0 and
    bots in the others, written as the finishing commit writes it."""
    rules = GAMES["500"].rules("online")
    await store.add_table(NewTable(id=table_id, game="500", rules=rules.to_dict(), seats=4,
                                   bot="rules", turn_seconds=None, hints=False,
                                   creator_id=player, created_at=1.0))
    assert await store.commit(Change(table_id, 0, 2.0, match=(1, 7, 0, rules.to_dict())))
    seats = tuple(MatchSeat(n, player if n == 0 else None, None if n == 0 else "rules", n % 2,
                            n % 2 == 0) for n in range(4))
    finish = Change(table_id, 1, 3.0, finish=(1, 0, [520, 100], []),
                    players=MatchPlayers(seats, rated=True))
    assert await store.commit(finish)


async def test_two_processes_rate_each_match_once_on_postgresql() -> None:
    with fresh_schema() as url:
        first, second = await Store.open(url), await Store.open(url, migrate=False)
        try:
            for table_id in ("t1", "t2", "t3"):
                await finished_in_store(first, table_id, "ann")
            # The same match at once in two processes: one rates it.
            both = await asyncio.gather(first.standings.rate("t1", 1, rate_match),
                                        second.standings.rate("t1", 1, rate_match))
            assert sorted(result is None for result in both) == [False, True]
            # Two matches of one player at once: both count (one transaction waits or
            # tries again), none is lost.
            await asyncio.gather(first.standings.rate("t2", 1, rate_match),
                                 second.standings.rate("t3", 1, rate_match))
            standing = (await first.standings.of_player("ann"))["500"]
            assert standing.matches == 3 and standing.wins == 3
            assert len(await first.standings.history("ann", "500")) == 3
            assert (await first.standings.of_player("bot:rules"))["500"].matches == 3
            assert await first.standings.pending() == []
            recent = await second.standings.recent("bot:rules")  # three seats a match
            assert sorted(match.table_id for match in recent) == ["t1", "t2", "t3"]
            shown = await profile(second, "bot:rules")
            assert shown is not None and shown["games"]["500"]["matches"] == 3
            assert len(shown["recent"]) == 3 and shown["name"] == "Casual"
            board = await second.standings.leaderboard("500", 1, 0, 10)
            assert board[0] == 2 and {line.player_id for line in board[1]} == {
                "ann", "bot:rules"}
        finally:
            await first.close()
            await second.close()


async def test_a_deleted_account_keeps_no_rating_and_leaves_the_leaderboard(tmp_path: Path
                                                                          ) -> None:
    store = await Store.open(f"sqlite:///{tmp_path / 'room.sqlite3'}")
    try:
        await store.add_player("ann", "Ann", "h-ann")
        await finished_in_store(store, "t1", "ann")
        await store.standings.rate("t1", 1, rate_match)
        assert [line.player_id for line in (await store.standings.leaderboard(
            "500", 1, 0, 10))[1]] == ["ann", "bot:rules"]
        await store.accounts.delete("ann")
        await finished_in_store(store, "t2", "ann")  # a match that ended after it
        await store.standings.rate("t2", 1, rate_match)
        assert await store.standings.of_player("ann") == {}
        total, lines = await store.standings.leaderboard("500", 1, 0, 10)
        assert total == 1 and [line.player_id for line in lines] == ["bot:rules"]
    finally:
        await store.close()
