"""Scoring of 1000: the contract, rounding, blind doubling, the barrel, bolts and the winner."""

from __future__ import annotations

from cardroom.games.cards import cards_of
from cardroom.games.thousand import Game, Rules, score_deal
from tests.thousand.helpers import finish_deal, new_game, run, texts, win_bidding

STRONG = {1: "AH 10H KH QH AS AD AC"}
"""Seat 1 (the first bidder when seat 0 deals) takes every trick with these and the bank."""
STRONG_BANK = "10S 10D 10C"
WEAK = {0: "10S AC AD 10H QH KH AH", 1: "9S JS 9C JC 9D JD 9H",
        2: "AS 10C KC QC 10D KD QD"}
"""Seat 1 takes next to nothing with these; both opponents take points."""
WEAK_BANK = "JH QS KS"


def bank_step(game: Game, bet: int) -> Game:
    """The contractor puts back the bank's three cards (or gives away two of them) and bets."""
    cards = [str(card) for card in cards_of(game.dealt_bank)]
    game.apply(" ".join([game.phase, *cards[:3 if game.phase == "discard" else 2]]))
    game.apply(f"bet {bet}")
    return game


def strong_deal(preset: str = "seed", bid: int = 120, bet: int = 120, marriage: bool = False,
                **changes: object) -> Game:
    """Seat 1 wins the bidding with the strong hand and plays it out (declaring hearts first
    when ``marriage``); the deal is scored."""
    game = new_game(Rules.from_dict({"preset": preset, **changes}), STRONG, STRONG_BANK)
    bank_step(win_bidding(game, bid), bet)
    if marriage:
        if game.rules.marriage_timing != "when_leading":
            game.apply("play AS")
            game.apply(texts(game.legal_actions())[0])
            game.apply(texts(game.legal_actions())[0])
        game.apply("play KH marriage")
    finish_deal(game)
    return game


def weak_deal(preset: str = "seed", bid: int = 100, bet: int = 100, **changes: object) -> Game:
    """Seat 1 wins the bidding with the weak hand and plays it out; the deal is scored."""
    game = new_game(Rules.from_dict({"preset": preset, **changes}), WEAK, WEAK_BANK)
    bank_step(win_bidding(game, bid), bet)
    finish_deal(game)
    return game


# -- the contract ------------------------------------------------------------------------------


def test_pagat_worked_example() -> None:
    """Bid 130, raised to 160 after the bank: taking 215 scores +160, taking 155 scores -160."""
    rules = Rules.preset("russian")
    made = score_deal(rules, 0, 160, False, [115, 5, 0], [100, 0, 0], 0, (0, 1, 2),
                      [False] * 3)
    assert made.taken == 215 and made.made and made.points[0] == 160
    failed = score_deal(rules, 0, 160, False, [55, 65, 0], [100, 0, 0], 0, (0, 1, 2),
                        [False] * 3)
    assert failed.taken == 155 and not failed.made and failed.points[0] == -160
    assert failed.points[1] == 65  # 65 is already a multiple of 5


def test_worked_example_through_the_engine() -> None:
    made = strong_deal("russian", bid=130, bet=160, marriage=True)
    result = made.history[0]
    assert (result.bid, result.bet, result.made, result.points[1]) == (130, 160, True, 160)
    assert result.taken == 120 + 100
    failed = weak_deal("russian", bid=130, bet=160, marriage_cap=None)
    assert failed.history[0].points[1] == -160 and not failed.history[0].made


def test_bet_equal_to_points_is_made() -> None:
    game = strong_deal(bid=120, bet=120)
    assert game.history[0].taken == 120 and game.history[0].made


def test_discards_count_for_the_contractor_or_nobody() -> None:
    counted = strong_deal()
    assert counted.history[0].discard_points == 30 and counted.history[0].taken == 120
    not_counted = strong_deal(count_discards=False)
    assert not_counted.history[0].taken == 90 and not not_counted.history[0].made


def test_opponents_are_rounded_per_preset() -> None:
    for preset, unit in (("seed", 10), ("russian", 5)):
        result = weak_deal(preset, marriage_cap=None).history[0]
        for seat in (0, 2):
            points = result.card_points[seat]
            expected = (points + unit // 2) // unit * unit + result.marriages[seat]
            assert result.points[seat] == expected


def test_blind_contract_doubles_every_player() -> None:
    game = new_game("seed", WEAK, WEAK_BANK)
    assert texts(game.legal_actions())[:3] == ["look", "bid 100 blind", "bid 110 blind"]
    run(game, "bid 100 blind", "look", "pass", "look", "pass")
    assert game.blind and game.view(0)["bank"] is None and game.view(1)["bank"] is not None
    bank_step(game, 100)
    finish_deal(game)
    result = game.history[0]
    assert result.blind and result.points[1] == -200
    for seat in (0, 2):
        plain = (result.card_points[seat] + 5) // 10 * 10 + result.marriages[seat]
        assert result.points[seat] == 2 * plain


# -- the barrel --------------------------------------------------------------------------------


def test_seed_barrel_opponent_scores_nothing_and_pays_after_three_deals() -> None:
    game = new_game("seed", WEAK, WEAK_BANK)
    game.scores[2], game.on_barrel[2], game.barrel_deals[2] = 890, True, 2
    bank_step(win_bidding(game, 100), 100)
    finish_deal(game)
    result = game.history[0]
    assert result.card_points[2] > 0 and result.points[2] == 0
    assert result.penalties == ({"seat": 2, "kind": "barrel", "points": -120},)
    assert game.scores[2] == 770 and not game.on_barrel[2]


def test_seed_barrel_taking_the_bank_starts_the_count_again() -> None:
    game = new_game("seed", WEAK, WEAK_BANK)
    game.scores[1], game.on_barrel[1], game.barrel_deals[1] = 890, True, 2
    game.scores[0] = 700
    bank_step(win_bidding(game, 100), 100)
    finish_deal(game)  # seat 1 fails: 790, off the barrel
    assert game.scores[1] == 790 and not game.on_barrel[1]
    game = new_game("seed", STRONG, STRONG_BANK)
    game.scores[1], game.on_barrel[1], game.barrel_deals[1] = 880, True, 2
    bank_step(win_bidding(game, 100), 100)
    finish_deal(game)  # made: 980, still on the barrel, count restarted
    assert game.scores[1] == 980 and game.on_barrel[1] and game.barrel_deals[1] == 0


def test_reaching_the_barrel_and_growing_past_it_without_hold() -> None:
    game = new_game("seed", WEAK, WEAK_BANK)
    game.scores[0] = game.scores[2] = 870
    bank_step(win_bidding(game, 100), 100)
    finish_deal(game)
    assert all(game.scores[s] > 880 and game.on_barrel[s] for s in (0, 2))
    assert game.barrel_deals[0] == 0


def test_russian_barrel_holds_scores_at_880() -> None:
    game = weak_deal("russian", marriage_cap=None)  # plain run for reference
    opponents = game.history[0].points
    game = new_game("russian", WEAK, WEAK_BANK)
    game.scores[0] = game.scores[2] = 870
    bank_step(win_bidding(game, 100), 100)
    finish_deal(game)
    assert all(opponents[s] > 10 for s in (0, 2))
    assert game.scores[0] == game.scores[2] == 880 and game.on_barrel[0] and game.on_barrel[2]


def test_russian_barrel_counts_every_deal_and_a_made_contract_below_target_is_held() -> None:
    game = new_game("russian", STRONG, STRONG_BANK)
    game.scores[1], game.on_barrel[1], game.barrel_deals[1] = 880, True, 1
    bank_step(win_bidding(game, 100), 100)
    finish_deal(game)
    assert game.scores[1] == 880 and game.barrel_deals[1] == 2
    game = new_game("russian", STRONG, STRONG_BANK)
    game.scores[1], game.on_barrel[1], game.barrel_deals[1] = 880, True, 2
    bank_step(win_bidding(game, 100), 100)
    finish_deal(game)
    assert game.scores[1] == 760 and not game.on_barrel[1]
    assert game.history[0].penalties[-1] == {"seat": 1, "kind": "barrel", "points": -120}


def test_a_contract_reaching_the_target_wins_from_the_barrel() -> None:
    for preset in ("seed", "russian"):
        game = new_game(preset, STRONG, STRONG_BANK)
        game.scores[1], game.on_barrel[1] = 880, True
        bank_step(win_bidding(game, 120), 120)
        finish_deal(game)
        assert game.is_over and game.winner == 1 and game.scores[1] == 1000
        assert game.to_act is None and game.legal_actions() == []


def test_no_barrel_option() -> None:
    game = new_game(Rules(barrel=None), WEAK, WEAK_BANK)
    game.scores[2] = 990
    bank_step(win_bidding(game, 100), 100)
    finish_deal(game)
    assert game.is_over and game.winner == 2


# -- bolts -------------------------------------------------------------------------------------


def test_three_bolts_cost_120() -> None:
    game = new_game("russian", STRONG, STRONG_BANK)
    game.bolts[0] = 2
    bank_step(win_bidding(game, 120), 120)
    finish_deal(game)
    result = game.history[0]
    assert result.tricks == (0, 8, 0)
    assert result.penalties == ({"seat": 0, "kind": "bolts", "points": -120},)
    assert game.bolts == [0, 0, 1] and game.scores == [-120, 120, 0]


def test_seed_has_no_bolts() -> None:
    game = strong_deal()
    assert game.history[0].tricks == (0, 7, 0) and game.bolts == [0, 0, 0]


# -- the winner --------------------------------------------------------------------------------


def test_contractor_wins_when_several_reach_the_target() -> None:
    game = new_game(Rules(barrel=None), STRONG, STRONG_BANK)
    game.scores = [990, 900, 0]
    bank_step(win_bidding(game, 100), 100)
    finish_deal(game)
    assert game.winner == 1


def test_deal_points_match_scores() -> None:
    game = weak_deal()
    result = game.history[0]
    assert sum(result.card_points) + result.discard_points == 120
    assert tuple(game.scores) == result.points == result.scores
