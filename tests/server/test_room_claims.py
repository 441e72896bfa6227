"""Claims at the room's tables: the solver in the bot workers proves a claim before it is
applied (a proven claim ends the hand at once), an unproven one goes to the opponents (bots
refuse it), a text claiming to be proven is refused, and a bot claims the rest of the tricks
when they are proven its side's and a person is waiting."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from cardroom.bots import make_bot
from cardroom.games.five_hundred import Game
from cardroom.protocol import ErrorCode
from cardroom.tables.core import Core
from cardroom.tables.hints import suggest
from cardroom.tables.room import Player, Room, RoomError, Table
from tests.five_hundred.conftest import SUIT_EACH_45, SUIT_EACH_45_KITTY, fill_deal
from tests.server.helpers import known_players

SEED = 3
"""The seed of the deals where Ann's claims are not proven."""


def deal_from(make: Callable[[Table], Game]) -> Callable[[Table, object], Game]:
    """A stand-in for :meth:`Core.new_game` that deals ``make``'s match."""
    return lambda table, seats: make(table)


@pytest.fixture
def suit_each(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every match deals seat 0 the hearts (every trump of a hearts contract, but the
    kitty's) and each other seat a suit of its own."""
    hands, kitty = fill_deal("online", SUIT_EACH_45, SUIT_EACH_45_KITTY)
    monkeypatch.setattr(Core, "new_game", staticmethod(deal_from(
        lambda table: Game.from_deal(table.rules, 3, hands, kitty, seed=SEED))))


@pytest.fixture
def seeded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every match is dealt from :data:`SEED`, dealer 3."""
    monkeypatch.setattr(Core, "new_game", staticmethod(deal_from(
        lambda table: Game.new(table.rules, SEED, 3))))


async def until(table: Table, done: Callable[[Game], bool], act: Callable[[Game], str | None],
                room: Room, player: Player, seconds: float = 60) -> Game:
    """Wait (acting for ``player`` with ``act`` at its turns) until ``done(game)``."""
    for _ in range(int(seconds / 0.02)):
        game = table.game
        assert game is not None
        if done(game):
            return game
        seat = table.seat_of(player)
        if game.to_act == seat and not game.is_over:
            action = act(game)
            if action is not None:
                await room.act(player, table.id, action)
                continue
        await asyncio.sleep(0.02)
    raise AssertionError("the table never got there")


def simple_for(seat: int) -> Callable[[Game], str]:
    """The simple bot's choice for ``seat``."""
    bot = make_bot("simple", seat)
    return lambda game: bot.choose(game.view(seat))


async def test_a_proven_claim_ends_the_hand_at_once(room: Room, suit_each: None) -> None:
    (ann,) = known_players(room, "Ann")
    table = await room.create_table(ann, "online", {}, 0, None, "simple")
    await room.start_with_bots(ann, table.id, None)

    def bid_ten_then_claim(game: Game) -> str:
        if game.phase == "bidding":
            return "bid 10H" if "bid 10H" in map(str, game.legal_actions()) else "pass"
        if game.phase == "play":
            return "claim 10"
        return simple_for(0)(game)

    game = await until(table, lambda g: bool(g.history), bid_ten_then_claim, room, ann)
    assert "claim 10 proven" in [action.text for action in game.actions]
    result = game.history[0]
    assert result.contract == "10H" and result.made and result.tricks == (10, 0, 0, 0)
    assert len([a for a in game.actions if a.kind == "play"]) == 0


async def test_an_unproven_claim_goes_to_the_bots_who_refuse_it(room: Room,
                                                                  seeded: None) -> None:
    (ann,) = known_players(room, "Ann")
    table = await room.create_table(ann, "online", {}, 0, None, "simple")
    await room.start_with_bots(ann, table.id, None)
    claimed: list[int] = []

    def claim_everything_once(game: Game) -> str:
        options = game.claim_options(0)
        if options and not claimed and len(game.completed) < 6:
            claimed.append(game.hand_number)
            return options[-1]
        return simple_for(0)(game)

    game = await until(table, lambda g: bool(claimed) and g.phase == "play"
                       and g.to_act == 0, claim_everything_once, room, ann)
    texts = [action.text for action in game.actions]
    claim = next(number for number, (seat, text) in enumerate(zip(game.action_seats, texts,
                                                                   strict=True))
                 if seat == 0 and text.startswith("claim"))
    made = texts[claim]
    assert made == "claim 10"  # not proven
    assert texts[claim + 1:claim + 2] == ["refuse"]  # the first opponent, a bot, refuses
    assert game.view(0)["claims"] == []  # not again before the trick is over
    assert "0" in game.view(1)["open_hands"]  # the claimant's hand stays shown
    with pytest.raises(RoomError) as refused:
        await room.act(ann, table.id, made)
    assert refused.value.code == ErrorCode.ILLEGAL_ACTION
    assert "once this trick is over" in refused.value.message


async def test_a_claim_that_says_it_is_proven_is_refused(room: Room, seeded: None) -> None:
    (ann,) = known_players(room, "Ann")
    table = await room.create_table(ann, "online", {}, 0, None, "simple")
    await room.start_with_bots(ann, table.id, None)
    game = await until(table, lambda g: bool(g.claim_options(0)), simple_for(0), room, ann)
    actions = len(game.actions)
    for text in ("claim 0 proven", "claim 10 proven", "CLAIM 3 proven"):
        with pytest.raises(RoomError) as refused:
            await room.act(ann, table.id, text)
        assert refused.value.code == ErrorCode.ILLEGAL_ACTION
        assert "Only the room proves a claim" in refused.value.message
    assert len(game.actions) == actions


async def test_a_bot_claims_the_rest_when_proven_and_a_person_waits(room: Room,
                                                                     suit_each: None) -> None:
    (ann,) = known_players(room, "Ann")
    table = await room.create_table(ann, "online", {}, 1, None, "simple")
    await room.start_with_bots(ann, table.id, None)
    passing = lambda game: "pass" if game.phase == "bidding" else simple_for(1)(game)  # noqa: E731
    game = await until(table, lambda g: bool(g.history), passing, room, ann)
    claims = [(seat, action.text) for seat, action in zip(game.action_seats, game.actions,
                                                          strict=True)
              if action.kind == "claim"]
    assert claims == [(0, "claim 10 proven")]
    assert game.history[0].tricks == (10, 0, 0, 0)


async def test_a_flood_of_claims_makes_one_claim_and_changes_nothing_else(
        room: Room, seeded: None) -> None:
    (ann,) = known_players(room, "Ann")
    table = await room.create_table(ann, "online", {}, 0, None, "simple")
    await room.start_with_bots(ann, table.id, None)
    game = await until(table, lambda g: bool(g.claim_options(0)) and not g.completed,
                       simple_for(0), room, ann)
    before = len(game.actions)
    answers = await asyncio.gather(*(room.act(ann, table.id, "claim 10") for _ in range(12)),
                                   return_exceptions=True)
    made = [answer for answer in answers if not isinstance(answer, BaseException)]
    refused = [answer for answer in answers if isinstance(answer, RoomError)]
    assert len(made) == 1 and len(refused) == 11
    assert {error.code for error in refused} <= {ErrorCode.NOT_YOUR_TURN,
                                                 ErrorCode.ILLEGAL_ACTION}
    assert [action.text for action in game.actions[before:before + 1]] == ["claim 10"]


def test_a_hint_to_a_seat_a_claim_is_put_to_says_refuse() -> None:
    hands, kitty = fill_deal("online", SUIT_EACH_45, SUIT_EACH_45_KITTY)
    game = Game.from_deal("online", 3, hands, kitty)
    for action in ("bid 10H", "pass", "pass", "pass", "discard 4S 4C 5H 6H 7H"):
        game.apply(action)
    game.apply("claim 10")
    hint = suggest(1, game.view(1))
    assert hint["action"] == "refuse" and "could not prove" in hint["explanation"]


async def test_a_proof_of_a_position_the_table_has_left_applies_the_claim_as_made(
        room: Room, suit_each: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """A proof holds for the version it was made at: if the table moved on meanwhile (the
    core finds another version), the claim goes to the opponents unproven."""
    (ann,) = known_players(room, "Ann")
    table = await room.create_table(ann, "online", {}, 0, None, "simple")
    await room.start_with_bots(ann, table.id, None)

    def bid_ten(game: Game) -> str | None:
        if game.phase == "bidding":
            return "bid 10H" if "bid 10H" in map(str, game.legal_actions()) else "pass"
        return None if game.phase == "play" else simple_for(0)(game)

    game = await until(table, lambda g: g.phase == "play" and g.to_act == 0, bid_ten, room, ann)
    applied = room.core.apply
    expected: list[int | None] = []

    async def moved_on(table: Table, seat: int, action: str,
                       expected_version: int | None = None) -> dict | None:
        expected.append(expected_version)
        if expected_version is not None:
            return {}  # as if another change had come first
        return await applied(table, seat, action)

    monkeypatch.setattr(room.core, "apply", moved_on)
    await room.act(ann, table.id, "claim   10")  # spaced as a person might type it
    assert expected[0] is not None and expected[-1] is None
    texts = [action.text for action in game.actions]
    assert "claim 10" in texts and "claim 10 proven" not in texts
