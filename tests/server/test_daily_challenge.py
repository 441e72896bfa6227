"""The daily challenge in the room: everybody gets the same deals, one entry a day, bots that
reply alike, results scored by duplicate, nobody sees a deal before playing it, and a restart
in the middle loses nothing."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from cardroom.games.registry import GAMES
from cardroom.protocol import ErrorCode, Quota
from cardroom.store.data import ChallengeEntry
from cardroom.store.db import Store
from cardroom.tables import replays
from cardroom.tables.challenge import DayBoard, day_deals, utc_day
from cardroom.tables.matchpoints import BOTS
from cardroom.tables.model import Table
from cardroom.tables.profiles import profile
from cardroom.tables.quotas import Quotas, QuotaSettings
from cardroom.tables.room import Player, Room, RoomError, RoomSettings

DAY_SECONDS = 86_400.0


class Clock:
    """A clock a test moves on (the challenge's day follows it)."""

    def __init__(self) -> None:
        self.now = time.time()  # deals finish at the real time, within the day

    def __call__(self) -> float:
        return self.now


def settings() -> RoomSettings:
    """Random bots at the challenge (quick, and as random as their seed: they reply alike at
    two tables only if the seed is the deal's and the actions', not the table's), no waits."""
    return RoomSettings(bot_workers=1, bot_delay=0.0, next_match_delay=0.0,
                        disconnect_grace=3600, default_bot="rules", challenge_bot="random",
                        quotas=QuotaSettings(tables_per_player=100, tables=1000))


async def open_room(path: Path, clock: Clock) -> Room:
    room = Room(await Store.open(f"sqlite:///{path}"), settings())
    room.challenge.clock = clock
    room.challenge.fresh = 0.0
    await room.start()
    return room


async def close_room(room: Room) -> None:
    await room.stop()
    await room.store.close()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def room(tmp_path: Path, clock: Clock) -> AsyncIterator[Room]:
    room = await open_room(tmp_path / "room.sqlite3", clock)
    try:
        yield room
    finally:
        await close_room(room)


Chooser = Callable[[list[str]], str]


def first(legal: list[str]) -> str:
    return legal[0]


def last(legal: list[str]) -> str:
    return legal[-1]


async def play(room: Room, player: Player, table: Table, choose: Chooser,
               deals: int | None = None) -> None:
    """Play ``player``'s turns with ``choose`` until ``deals`` deals are over (all of them:
    until the table closes)."""
    for _ in range(20_000):
        done = table.match_number if table.game is not None and table.game.is_over \
            else table.match_number - 1
        if table.id not in room.tables or (deals is not None and done >= deals):
            return
        game = table.game
        if game is not None and not game.is_over and game.to_act == 0:
            await room.act(player, table.id, choose(list(game.legal_actions())))
        else:
            await asyncio.sleep(0.005)
    raise AssertionError("the challenge never ended")


async def test_two_players_get_the_same_deals_and_are_scored_by_duplicate(room: Room) -> None:
    (ann, _), (bob, _), (cat, _) = [await room.register(n) for n in ("Ann", "Bob", "Cat")]
    deals = GAMES["500"].daily.deals
    ann_table = room.tables[await room.enter_challenge(ann, "500")]
    bob_table = room.tables[await room.enter_challenge(bob, "500")]
    assert ann_table.id != bob_table.id
    assert ann_table.seat_of(ann) == 0 and bob_table.seat_of(bob) == 0
    assert [s.bot for s in ann_table.seats[1:]] == ["random"] * 3
    assert ann_table.settings.private and ann_table.settings.invite is None
    assert not ann_table.rated and not ann_table.hints and ann_table.turn_seconds is None
    assert ann_table.game is not None and bob_table.game is not None
    assert ann_table.game.view(0)["hand"] == bob_table.game.view(0)["hand"]

    # Nobody else reaches a challenge table: not Bob, not a spectator.
    with pytest.raises(RoomError) as refused:
        await room.open(_Tab(), bob, ann_table.id)
    assert refused.value.code == ErrorCode.NO_SUCH_TABLE
    with pytest.raises(RoomError) as refused:
        await room.join(cat, ann_table.id, 1)
    assert refused.value.code == ErrorCode.NO_SUCH_TABLE
    # Its player can neither leave, open it up, nor choose its bots.
    for change in (room.leave(ann, ann_table.id),
                   room.table_settings(ann, ann_table.id, False, None, None),
                   room.invite(ann, ann_table.id, False),
                   room.add_bot(ann, ann_table.id, 1, "simple"),
                   room.start_with_bots(ann, ann_table.id, "simple"),
                   room.reserve_seat(ann, ann_table.id, 1, True)):
        with pytest.raises(RoomError) as refused:
            await change
        assert refused.value.code == ErrorCode.CHALLENGE_TABLE

    # Entering again is the same entry, where it stands.
    assert room.tables[await room.enter_challenge(ann, "500")] is ann_table

    await play(room, ann, ann_table, first)
    # Bob plays the same cards the same way: the bots reply alike, deal by deal.
    await play(room, bob, bob_table, first, deals=3)
    ann_records = await room.store.match_records(ann_table.id)
    bob_records = await room.store.match_records(bob_table.id)
    assert len(ann_records) == deals
    for ours, theirs in zip(ann_records[:3], bob_records[:3], strict=True):
        assert ours.record.seed == theirs.record.seed
        assert ours.record.actions == theirs.record.actions

    # Before Bob has played every deal, Ann's deals are hers alone to replay.
    assert await replays.find(room, bob, ann_table.id, 1, None) is None
    assert await replays.find(room, cat, ann_table.id, 1, None) is None
    assert await replays.find(room, ann, ann_table.id, 1, None) is not None
    # Bob's table (still open) shows no deal's points to him before he has finished.
    board = await room.challenge.board(GAMES["500"], room.challenge.today())
    shown = board.to_dict(bob.id, "The bots")
    assert not shown["deals_shown"]
    anns = next(r for r in shown["rows"] if r["player_id"] == ann.id)
    assert anns["played"] == deals
    assert (anns["deals"], anns["total"], anns["points"], anns["rank"], anns["table_id"]) == (
        None, None, None, None, None)
    bobs = next(r for r in shown["rows"] if r["player_id"] == bob.id)
    assert bobs["deals"] is not None and shown["you_row"] == bobs
    # Rows say only who plays and how far they got, most deals first.
    assert [r["played"] for r in shown["rows"]] == sorted(
        (r["played"] for r in shown["rows"]), reverse=True)

    await play(room, bob, bob_table, last)
    assert ann_table.id not in room.tables and bob_table.id not in room.tables
    with pytest.raises(RoomError) as refused:
        await room.enter_challenge(ann, "500")
    assert refused.value.code == ErrorCode.CHALLENGE_PLAYED

    # The bots played every deal in all four seats.
    for _ in range(3000):
        if await room.store.challenges.bot_points("500", room.challenge.today()) is not None:
            break
        await asyncio.sleep(0.01)
    board = await room.challenge.board(GAMES["500"], room.challenge.today())
    assert board.bots_ready and not board.over
    ann_row, bob_row, bots_row = (board.row_of(ann.id), board.row_of(bob.id),
                                  board.row_of(BOTS))
    assert ann_row and bob_row and bots_row
    assert ann_row.played == bob_row.played == bots_row.played == deals
    # The matchpoints are each deal's results against the two others, worked out here anew.
    for deal in range(deals):
        results = {row.id: row.deals[deal][0] for row in (ann_row, bob_row, bots_row)}
        for row in (ann_row, bob_row, bots_row):
            mine = results[row.id]
            others = [v for k, v in results.items() if k != row.id]
            beaten = sum(v < mine for v in others) + sum(v == mine for v in others) / 2
            assert row.deals[deal][1] == pytest.approx(100 * beaten / 2, abs=0.01)
    ranks = sorted(row.rank for row in board.rows)
    assert ranks[0] == 1 and len(board.rows) == 3
    # Ann's scores per deal are her table's matches' scores.
    for deal, record in enumerate(ann_records):
        scores = record.match.scores or []
        assert ann_row.deals[deal][0] == scores[0] - scores[1]

    # Nobody else's profile lists a challenge's deals (their scores would say which deals
    # are big ones); the player's own does.
    assert not (await profile(room.store, ann.id, own=False))["recent"]  # type: ignore[index]
    assert len((await profile(room.store, ann.id, own=True))["recent"]) == deals  # type: ignore
    assert await profile(room.store, "bot:random") is None

    # Having played every deal, Bob may replay Ann's; Cat, who has not entered, may not.
    assert await replays.find(room, bob, ann_table.id, 2, None) is not None
    assert await replays.find(room, cat, ann_table.id, 2, None) is None
    assert board.to_dict(bob.id, "The bots")["deals_shown"]


async def test_the_deals_come_from_the_days_secret_not_the_date() -> None:
    day = "2026-11-25"
    (one, one_salt), (other, other_salt) = (day_deals("a" * 64, "500", day, 8),
                                            day_deals("b" * 64, "500", day, 8))
    assert len(set(one)) == 8 and not set(one) & set(other)
    assert one_salt != other_salt and len(one_salt) == 32
    assert (one, one_salt) == day_deals("a" * 64, "500", day, 8)
    assert one != day_deals("a" * 64, "500", "2026-11-26", 8)[0]
    assert all(0 <= seed < 2**62 for seed in one)


async def final_board(room: Room, day: str) -> DayBoard:
    """A past day's 500 board once the bots have played its deals too (the day's end sets
    them to it; until then the board has no bots' row, and a player's rank may still
    change)."""
    board = await room.challenge.board(GAMES["500"], day)
    for _ in range(1000):
        if board.bots_ready:
            break
        await asyncio.sleep(0.01)
        board = await room.challenge.board(GAMES["500"], day)
    assert board.bots_ready
    return board


async def test_each_day_has_new_deals_and_a_past_day_closes_and_opens_to_all(
        room: Room, clock: Clock) -> None:
    (ann, _), (bob, _) = [await room.register(n) for n in ("Ann", "Bob")]
    first_day = room.challenge.today()
    table = room.tables[await room.enter_challenge(ann, "500")]
    await play(room, ann, table, first, deals=1)
    assert await replays.find(room, bob, table.id, 1, None) is None

    clock.now += DAY_SECONDS
    assert room.challenge.today() == utc_day(clock.now) > first_day
    # Past midnight the table takes no more actions (the day's deals are as they stood).
    game = table.game
    assert game is not None and not game.is_over
    with pytest.raises(RoomError) as refused:
        await room.act(ann, table.id, next(iter(game.legal_actions())))
    assert refused.value.code == ErrorCode.CHALLENGE_TABLE
    await room.challenge.close_past_days()
    for _ in range(500):
        if table.id not in room.tables:
            break
        await asyncio.sleep(0.01)
    assert table.id not in room.tables
    # The day is over: anybody may replay its deals; the entry keeps the deal it finished.
    assert await replays.find(room, bob, table.id, 1, None) is not None
    board = await final_board(room, first_day)
    assert board.over and board.row_of(ann.id) is not None
    assert board.row_of(ann.id).played == 1  # type: ignore[union-attr]
    assert board.to_dict(None, "The bots")["deals_shown"]

    # A new day, new deals, a new entry.
    today = room.tables[await room.enter_challenge(ann, "500")]
    assert today.id != table.id and today.challenge is not None
    assert table.challenge is not None and today.challenge.seeds != table.challenge.seeds
    history = await room.challenge.history(GAMES["500"], ann.id)
    assert [h["day"] for h in history] == [today.challenge.day, first_day]
    ann_row = board.row_of(ann.id)
    assert ann_row is not None and history[1]["played"] == 1
    assert (history[1]["rank"], history[1]["of"]) == (ann_row.rank, len(board.rows))
    assert history[0]["rank"] is None and history[0]["played"] == 0  # today's: under way
    archive = await room.challenge.archive(GAMES["500"])
    assert archive == [{"day": first_day, "entries": 1, "winners": ["Ann"]}]


async def test_a_restart_in_the_middle_of_a_deal_loses_nothing(tmp_path: Path,
                                                             clock: Clock) -> None:
    path = tmp_path / "room.sqlite3"
    room = await open_room(path, clock)
    try:
        ann, _ = await room.register("Ann")
        table = room.tables[await room.enter_challenge(ann, "500")]
        await play(room, ann, table, first, deals=1)
        # Into the second deal, with Ann to play (no bot's move is then on its way to the
        # store, which the list of actions taken here would miss).
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            game = table.game
            if (table.match_number == 2 and game is not None and not game.is_over
                    and game.to_act == 0 and len(game.actions) > 6):
                break
            if game is not None and not game.is_over and game.to_act == 0:
                await room.act(ann, table.id, first(list(game.legal_actions())))
            await asyncio.sleep(0.005)
        assert table.game is not None and table.game.to_act == 0 and table.match_number == 2
        actions = list(table.game.record.actions)
    finally:
        await close_room(room)
    room = await open_room(path, clock)
    try:
        restored = room.tables[table.id]
        assert restored.challenge == table.challenge and restored.match_number == 2
        assert restored.game is not None and restored.game.record.actions == actions
        assert restored.seats[0].player is not None and not restored.seats[0].away
        assert room.tables[await room.enter_challenge(ann, "500")] is restored
        await play(room, ann, restored, first)
        records = await room.store.match_records(table.id)
        assert len(records) == GAMES["500"].daily.deals
        assert records[1].record.actions[:len(actions)] == actions
    finally:
        await close_room(room)


async def test_a_thousand_challenge_deals_its_own_set(room: Room) -> None:
    ann, _ = await room.register("Ann")
    table = room.tables[await room.enter_challenge(ann, "1000")]
    assert table.game_name == "1000" and table.challenge is not None
    assert table.challenge.deals == GAMES["1000"].daily.deals
    await play(room, ann, table, first, deals=1)
    board = await room.challenge.board(GAMES["1000"], room.challenge.today())
    row = board.row_of(ann.id)
    assert row is not None and row.played == 1


async def test_an_unknown_game_is_refused(room: Room) -> None:
    ann, _ = await room.register("Ann")
    with pytest.raises(RoomError) as refused:
        await room.enter_challenge(ann, "bridge")
    assert refused.value.code == ErrorCode.BAD_RULES


async def test_an_entry_whose_table_was_never_made_gets_it(room: Room) -> None:
    ann, _ = await room.register("Ann")
    day = room.challenge.today()
    stale = ChallengeEntry("e1", "500", day, ann.id, "t1", time.time() - 3600)
    await room.store.challenges.add_entry(stale)
    table = room.tables[await room.enter_challenge(ann, "500")]
    assert table.id == "t1" and table.challenge is not None and table.challenge.entry == "e1"
    assert table.status == "playing" and table.seat_of(ann) == 0


async def test_a_full_room_makes_no_entry(room: Room) -> None:
    ann, _ = await room.register("Ann")
    room.quotas.settings = dataclasses.replace(room.quotas.settings, tables=0)
    with pytest.raises(RoomError) as refused:
        await room.enter_challenge(ann, "500")
    assert refused.value.code == ErrorCode.QUOTA_EXCEEDED
    assert await room.store.challenges.entry("500", room.challenge.today(), ann.id) is None


async def test_one_address_makes_few_entries_a_day(room: Room) -> None:
    """Names cost nothing, so a throwaway guest could play the day's deals before its
    player: one client address makes at most the limit's new entries of a game a day. Going
    on with an entry is not a new one, and another game has a limit of its own."""
    room.quotas = Quotas(QuotaSettings(challenge_entries_per_day=2))
    ann, bob, cid, dee = [(await room.register(name))[0] for name in ("Ann", "Bob", "Cid", "Dee")]
    for player in (ann, bob):
        await room.enter_challenge(player, "500", "10.0.0.1")
    await room.enter_challenge(ann, "500", "10.0.0.1")  # back to her entry
    with pytest.raises(RoomError) as refused:
        await room.enter_challenge(cid, "500", "10.0.0.1")
    assert refused.value.code == ErrorCode.QUOTA_EXCEEDED
    assert refused.value.quota == Quota.CHALLENGE_ENTRIES
    assert await room.store.challenges.entry("500", room.challenge.today(), cid.id) is None
    await room.enter_challenge(cid, "1000", "10.0.0.1")
    await room.enter_challenge(dee, "500", "10.0.0.2")


async def test_an_idle_challenge_table_is_let_go_of_and_comes_back(tmp_path: Path,
                                                                   clock: Clock) -> None:
    room = Room(await Store.open(f"sqlite:///{tmp_path / 'idle.sqlite3'}"),
                dataclasses.replace(settings(), abandon_after=0.2))
    room.challenge.clock = clock
    await room.start()
    try:
        ann, _ = await room.register("Ann")
        tab = _Tab()
        table = room.tables[await room.enter_challenge(ann, "500")]
        await room.open(tab, ann, table.id)
        await play(room, ann, table, first, deals=1)
        room.disconnect(tab)  # Ann closes the page
        for _ in range(500):
            if table.id not in room.tables:
                break
            await asyncio.sleep(0.01)
        assert table.id not in room.tables  # nobody follows it: let go of, not closed
        again = room.tables[await room.enter_challenge(ann, "500")]
        await room.open(tab, ann, again.id)
        assert again is not table and again.id == table.id and again.match_number >= 1
        await play(room, ann, again, first)
        assert len(await room.store.match_records(table.id)) == GAMES["500"].daily.deals
    finally:
        await close_room(room)


class _Tab:
    """A connection in the room's eyes: it keeps what it is sent."""

    def __init__(self) -> None:
        self.received: list[dict[str, Any]] = []

    def deliver(self, message: dict[str, Any]) -> None:
        self.received.append(message)
