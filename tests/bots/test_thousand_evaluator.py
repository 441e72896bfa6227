"""1000's learned hand evaluator and the bids it makes: its training data is the engine's
deal solved as the search bot solves its final bet, the shipped model loads and predicts
solved deals it never saw within the error bench/RESULTS.md states, and the valued bidding
weighs a bid against a pass as a 1000 player would."""

from __future__ import annotations

from itertools import pairwise

import numpy as np
import pytest

from cardroom.bots.thousand import evaluator as ev
from cardroom.bots.thousand.evaluator import (
    BETS,
    FEATURES,
    OUTCOMES,
    Context,
    context_of,
    expected_highest,
    features,
    made_chance,
    outcome_of,
    shipped,
)
from cardroom.bots.thousand.search import ThousandSearchBot, highest_made
from cardroom.bots.thousand.solver import Position
from cardroom.bots.thousand.valued_bids import passing_value, valued_bid, winning_value
from cardroom.games.cards import Card
from cardroom.games.thousand import Game, Rules
from cardroom.tools import evaluator_thousand
from cardroom.tools.arena import bot_choice
from cardroom.tools.evaluator_data import dataset_for

CHECK_SEED = "evaluator-1000-check"
"""Deals the shipped model never saw (it was fitted on the seed ``evaluator-1000``)."""
CHECK_DEALS = 40
MAX_MEAN_ERROR = 23.0
"""The largest mean absolute error, in points, of the expected highest bet made that the
shipped model may make on the check deals: 21.9 on them, 20.5 on the 7,200 held-out rows of
its training (bench/RESULTS.md), against 23.4 for the best constant guess there."""


def mask(*texts: str) -> int:
    """A hand from card texts."""
    return sum(Card.parse(text).mask for text in texts)


SEED_RULES = Rules.preset("seed").to_dict()
STRONG = mask("AH", "10H", "KH", "QH", "AD", "AC", "AS")
"""The hearts marriage with its ace and ten, and three more aces."""
WEAK = mask("9H", "JH", "9D", "JD", "9C", "JS", "QS")


def _check_rows() -> tuple[np.ndarray, np.ndarray]:
    rows = [evaluator_thousand.solve_deal(number, CHECK_SEED) for number in range(CHECK_DEALS)]
    return (np.asarray([r for row in rows for r in row.features[ev.MODEL]], dtype=np.float32),
            np.asarray([t for row in rows for t in row.targets[ev.MODEL]]))


def test_a_row_is_the_highest_bet_the_seat_makes_on_the_dealt_cards() -> None:
    rows = evaluator_thousand.solve_deal(3, "seed-x")
    game, rng = evaluator_thousand.deal_game(3, "seed-x")
    opener = game.to_act
    seats = list(evaluator_thousand.first_calls(game, rng.randrange(2**31)))  # rows' order
    assert sorted(seats) == [0, 1, 2]  # every seat, as contractor in turn
    game, _ = evaluator_thousand.deal_game(3, "seed-x")
    for seat, row, target in zip(seats, rows.features[ev.MODEL], rows.targets[ev.MODEL],
                                 strict=True):
        hand = game.hands[seat]
        assert row[:len(ev.hand_features(hand))] == ev.hand_features(hand)
        fresh, _ = evaluator_thousand.deal_game(3, "seed-x")
        played = evaluator_thousand.won_by(fresh, seat)
        assert played.contractor == seat and len(played.completed) == 0
        place = highest_made(Position.from_game(played), BETS, 0)
        assert target == outcome_of(None if place < 0 else BETS[place])
        forced = row[len(ev.hand_features(hand)) + 4]
        assert forced == (1.0 if seat == opener else 0.0)
    again = evaluator_thousand.solve_deal(3, "seed-x")
    assert again.features == rows.features and again.targets == rows.targets
    # the deals alternate between the two presets the model learned
    assert [evaluator_thousand.deal_game(n, "s")[0].rules.bank_use for n in (0, 1)] == [
        "discard", "give"]


def test_the_dataset_names_the_model_the_bots_load() -> None:
    dataset = dataset_for("1000")
    assert dataset.kinds == (ev.MODEL,) and dataset.outcomes == {ev.MODEL: OUTCOMES}
    assert dataset.model_path.name == ev.MODEL_FILE
    assert dataset.model_path.parent.parts[-2:] == ("bots", "thousand")


def test_the_shipped_model_predicts_solved_deals_it_never_saw() -> None:
    rows, targets = _check_rows()
    assert rows.shape == (3 * CHECK_DEALS, FEATURES)
    distributions = shipped().network.probabilities(rows)
    assert np.allclose(distributions.sum(axis=1), 1.0, atol=1e-5)
    values = np.asarray([ev.LOWEST_BET - ev.BET_STEP, *BETS])
    predicted = np.asarray([expected_highest(d) for d in distributions.astype(np.float64)])
    error = np.abs(predicted - values[targets]).mean()
    assert error <= MAX_MEAN_ERROR
    # better than the best constant guess on these very deals
    assert error < np.abs(np.median(values[targets]) - values[targets]).mean()
    # a bid's chance of being made is sharper than the share of all hands that make it
    chances = np.asarray([made_chance(d, 120) for d in distributions.astype(np.float64)])
    made = values[targets] >= 120
    assert ((chances - made) ** 2).mean() < ((made.mean() - made) ** 2).mean()


def test_a_strong_hand_makes_more_and_each_higher_bet_is_made_less_often() -> None:
    model = shipped()
    context = context_of(SEED_RULES, 1, [(0, 100)], opener=False)
    strong, weak = model.distribution(STRONG, context), model.distribution(WEAK, context)
    assert expected_highest(strong) > expected_highest(weak) + 60
    assert made_chance(strong, 150) > 0.7 and made_chance(weak, 100) < 0.3
    chances = [made_chance(strong, bet) for bet in range(100, 301, 10)]
    assert all(a >= b for a, b in pairwise(chances))
    assert len(features(STRONG, context)) == FEATURES


def test_winning_and_passing_are_weighed_in_points_against_the_others_mean() -> None:
    sure_140 = np.zeros(OUTCOMES)
    sure_140[outcome_of(140)] = 1.0
    # made: the bid and 60% of the room to the highest bet; each defender takes 30
    assert winning_value(sure_140, 120, [30.0, 30.0]) == pytest.approx(120 + 0.6 * 20 - 30)
    hopeless = np.zeros(OUTCOMES)
    hopeless[0] = 1.0
    assert winning_value(hopeless, 110, [30.0, 0.0]) == pytest.approx(-110 - 15)
    # a forced opening is made a third of the time: passing it lets its holder lose points
    assert passing_value(100, True, 30.0, 30.0) > passing_value(100, False, 30.0, 30.0)


def _bidding_view(rules: str, hand: int, seat_calls: list[str]) -> dict[str, object]:
    """The view of the seat after the opener, its cards replaced by ``hand`` (the others'
    hands are not read), once the calls given have been made."""
    game = Game.new(rules, 0)
    for action in seat_calls:
        game.apply(action, game.to_act)
    view = dict(game.view(game.to_act))
    view["hand"] = [card.text for card in game.sort_hand(hand)]
    return view


@pytest.mark.parametrize("preset", ["seed", "russian"])
def test_a_strong_hand_bids_over_a_forced_opening_and_a_weak_one_lets_it_stand(
        preset: str) -> None:
    looked = ["look", "bid 100", "look"] if preset == "seed" else ["bid 100"]
    strong = _bidding_view(preset, STRONG, looked)
    assert valued_bid(strong) == next(text for text in strong["legal_actions"]
                                      if text.startswith("bid "))
    assert valued_bid(_bidding_view(preset, WEAK, looked)) == "pass"


def test_a_forced_opener_bids_and_a_seat_yet_to_look_looks() -> None:
    game = Game.new("seed", 0)
    view = game.view(game.to_act)
    assert valued_bid(view) is None  # only blind bids: the bot looks first
    bot = ThousandSearchBot(0, "fast", bidding="valued")
    assert bot.choose(view) == "look"
    game.apply("look", game.to_act)
    opener = game.view(game.to_act)
    assert "pass" not in opener["legal_actions"]
    assert bot.choose(opener) == "bid 100"


def test_house_rules_the_model_never_learned_are_bid_by_rule(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from cardroom.bots.thousand import search

    rules = Rules.from_dict({"preset": "seed", "min_bid": 120, "bid_step": 10})
    assert not ev.learned(rules.to_dict()) and ev.learned(SEED_RULES)
    game = Game.new(rules, 0)
    game.apply("look", game.to_act)
    game.apply("bid 120", game.to_act)
    game.apply("look", game.to_act)
    view = game.view(game.to_act)
    by_rule = ThousandSearchBot(0, "fast", bidding="rules").choose(view)

    def unlearned(view: object) -> str:
        raise AssertionError("the valued bidding was asked at a table it never learned")

    monkeypatch.setattr(search, "valued_bid", unlearned)
    assert ThousandSearchBot(0, "fast", bidding="valued").choose(view) == by_rule


def test_the_arena_builds_1000s_search_bot_in_a_bidding_style() -> None:
    bot = bot_choice("search:fast@valued", "1000")(2)  # type: ignore[operator]
    assert isinstance(bot, ThousandSearchBot) and bot.bidding == "valued"
    assert bot_choice("search@rules", "1000")(2).bidding == "rules"  # type: ignore[operator]
    read = bot_choice("search@rules/learned", "1000")(2)  # type: ignore[operator]
    assert read.reading == "learned" and read.bidding == "rules"
    with pytest.raises(ValueError, match="bidding style of 1000"):
        bot_choice("search@sampled", "1000")
    with pytest.raises(ValueError, match="bidding style of 1000"):
        bot_choice("search@valued/rules", "1000")  # 1000 reads the calls learned, or not


def test_the_context_reads_the_calls_before_the_seat() -> None:
    context = context_of(SEED_RULES, 2, [(1, 100), (0, None), (1, 130)], opener=False)
    assert context == Context(False, True, False, False, False, 130, 1)
    opening = context_of(SEED_RULES, 1, [], opener=True)
    assert opening.forced and opening.highest_other is None
