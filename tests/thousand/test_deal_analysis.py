"""1000's double-dummy analysis of recorded deals: whether the bet could be made, what the
defenders would score, and what every card cost, each verdict agreeing with how the deal
really ended."""

from __future__ import annotations

from functools import cache

import pytest

from cardroom.bots import GAME_ANALYSERS, make_bot
from cardroom.bots.thousand import analysis
from cardroom.bots.thousand.analysis import Outcome, analyse_deal, review_deal
from cardroom.games.record import Record
from cardroom.games.thousand import Game, Rules


@cache
def bots_match(preset: str, seed: int, deals: int = 4) -> Game:
    """A match of rules bots, cut after ``deals`` deals."""
    game = Game.new(Rules.preset(preset), seed=seed)
    bots = [make_bot("rules", seat) for seat in range(game.players)]
    while len(game.history) < deals and not game.is_over:
        seat = game.to_act
        assert seat is not None
        game.apply(bots[seat].choose(game.view(seat)))
    return game


def defenders_points(game: Game, number: int) -> int:
    """The defenders' points of deal ``number`` as it was scored."""
    result = game.history[number - 1]
    return sum(points for seat, points in enumerate(result.points)
               if seat != result.contractor)


@pytest.mark.parametrize(("preset", "seed"), [("seed", 4), ("seed", 11), ("russian", 2)])
def test_the_last_cards_verdict_is_how_the_deal_ended(preset: str, seed: int) -> None:
    game = bots_match(preset, seed)
    for result in game.history:
        if result.contractor is None or not any(result.tricks):
            continue
        deal = analyse_deal(game.record, result.number, review_bids=False)
        assert deal.made == result.made and deal.contractor == result.contractor
        assert deal.unsolved == 0 and deal.makeable is not None
        last = deal.cards[-1]
        assert last.became == Outcome(bool(result.made), defenders_points(game, result.number))
        for card in deal.cards:  # a card never does better than the best play
            assert card.after <= card.before and (card.best == ()) == (card.after ==
                                                                       card.before)


def test_slips_name_better_plays_and_a_lost_bet() -> None:
    game = bots_match("seed", 4)
    cards = [card for result in game.history if any(result.tricks)
             for card in analyse_deal(game.record, result.number, review_bids=False).cards]
    slips = [card for card in cards if card.after < card.before]
    assert slips and all(card.best for card in slips)
    assert all(card.was.defenders != card.became.defenders or card.was.made != card.became.made
               for card in slips)


def test_the_replay_gets_the_deal_as_json_with_its_bidding_reviewed() -> None:
    game = bots_match("seed", 4)
    number = next(r.number for r in game.history if any(r.tricks))
    data = GAME_ANALYSERS["1000"].review(game.record.to_text(), number)
    assert data == review_deal(game.record.to_text(), number)
    assert data["unit"] == "points" and data["makers"] == [data["contractor"]]
    assert isinstance(data["makeable"], bool) and data["defenders_makeable"] >= 0
    assert data["bidding"] and {"action", "seat", "call", "bot"} <= data["bidding"][0].keys()
    card = data["cards"][0]
    assert {"made_before", "made_after", "defenders_before", "defenders_after",
            "lost"} <= card.keys()


def test_a_solve_past_its_limit_leaves_the_card_without_a_verdict(
        monkeypatch: pytest.MonkeyPatch) -> None:
    game = bots_match("seed", 11)
    number = next(r.number for r in game.history if any(r.tricks))
    monkeypatch.setattr(analysis, "NODE_LIMIT", 1)
    deal = analyse_deal(game.record, number, review_bids=False)
    assert deal.makeable is None and deal.unsolved > 0
    assert len(deal.cards) + deal.unsolved == sum(game.history[number - 1].tricks) * 3


def test_a_deal_without_play_has_no_analysis() -> None:
    game = bots_match("seed", 4)
    with pytest.raises(ValueError, match="had no cards played"):
        analyse_deal(Record.from_text(game.record.to_text()), len(game.history) + 5)
