"""Scoring whole hands played from crafted deals, all-pass hands, and the end of the match."""

from __future__ import annotations

import pytest

from cardroom.games.five_hundred import Game, IllegalAction, Rules
from conftest import (
    MISERE_45,
    MISERE_45_KITTY,
    SUIT_EACH_43,
    SUIT_EACH_43_KITTY,
    SUIT_EACH_45,
    SUIT_EACH_45_KITTY,
    finish_hand,
    new_game,
    rules_of,
    run,
    won_bid,
)

# Seat 0 holds ten hearts and takes the kitty (4S 4C 4H JD JK). Putting back these cards it
# keeps 0, 1 or 2 low black cards: it then loses exactly that many tricks (to seat 1's spades)
# and takes all the others with its hearts.
HEARTS_DISCARD = {0: "4S 4C 4H JD JK", 1: "4C 4H JD JK 5H", 2: "4H JD JK 5H 6H"}


def hearts_hand(rules: Rules | str, bid: str, lost: int = 0,
                scores: tuple[int, int] = (0, 0)) -> Game:
    """Seat 0 bids ``bid`` in hearts (or no trumps) and takes all tricks but ``lost``."""
    rules = Rules.preset(rules) if isinstance(rules, str) else rules
    if rules.deck == "43":
        assert lost == 0
        game = new_game(rules, SUIT_EACH_43, SUIT_EACH_43_KITTY)
        discard = SUIT_EACH_43_KITTY
    else:
        game = new_game(rules, SUIT_EACH_45, SUIT_EACH_45_KITTY)
        discard = HEARTS_DISCARD[lost]
    game.scores = list(scores)
    won_bid(game, bid, discard)
    finish_hand(game)
    return game


def last(game: Game):
    return game.history[-1]


# -- trick contracts -------------------------------------------------------------------------


def test_made_contract_scores_its_value_and_defenders_10_a_trick():
    game = hearts_hand("online", "7H", lost=2)
    result = last(game)
    assert result.tricks == (8, 2, 0, 0)
    assert (result.made, result.points, result.scores) == (True, (200, 20), (200, 20))
    assert game.scores == [200, 20]


def test_failed_contract_loses_its_value_and_defenders_still_score():
    result = last(hearts_hand("online", "9H", lost=2))
    assert (result.made, result.points) == (False, (-400, 20))


def test_contract_made_exactly():
    result = last(hearts_hand("online", "9H", lost=1))
    assert (result.made, result.points) == (True, (400, 10))


def test_no_credit_for_overtricks_without_a_sweep():
    result = last(hearts_hand("online", "6H", lost=1))
    assert result.points == (100, 10)


def test_defender_points_none():
    rules = rules_of("online", defender_points="none")
    assert last(hearts_hand(rules, "7H", lost=2)).points == (200, 0)
    assert last(hearts_hand(rules, "9H", lost=2)).points == (-400, 0)


def test_no_trumps_contract_scores_at_its_value():
    result = last(hearts_hand("classic", "7NT"))
    assert (result.made, result.points) == (True, (220, 0))


def test_failed_no_trumps_contract():
    # In no trumps seat 0's low spade loses, and seat 1 runs its spades.
    result = last(hearts_hand("online", "7NT", lost=2))
    assert result.tricks[1] >= 4
    assert (result.made, result.points) == (False, (-220, 10 * result.tricks[1]))


def test_sweep_plus_50_for_a_six_to_nine_bid_taking_all_ten():
    assert last(hearts_hand("online", "7H")).points == (250, 0)
    assert last(hearts_hand("online", "9H")).points == (450, 0)


def test_sweep_plus_50_not_for_a_ten_bid():
    assert last(hearts_hand(rules_of("online", win_needs_bid=False, target=1000), "10H")).points \
        == (500, 0)


def test_sweep_plus_50_needs_all_ten_tricks():
    assert last(hearts_hand("online", "7H", lost=1)).points == (200, 10)


def test_slam_250_lifts_a_small_contract_to_250():
    assert last(hearts_hand("australian", "7H")).points == (250, 0)
    assert last(hearts_hand("american", "6H")).points == (250, 0)


def test_slam_250_keeps_a_contract_worth_more():
    assert last(hearts_hand("australian", "8H")).points == (300, 0)


def test_slam_250_needs_all_ten_tricks():
    assert last(hearts_hand("american", "7H", lost=1)).points == (200, 10)


def test_no_all_tricks_bonus():
    assert last(hearts_hand("classic", "7H")).points == (200, 0)


def test_after_a_hand_the_deal_passes_left_and_a_new_hand_is_dealt():
    game = hearts_hand("online", "7H", lost=2)
    assert (game.hand_number, game.dealer, game.phase, game.to_act) == (2, 0, "bidding", 1)
    assert all(game.hands[seat].bit_count() == 10 for seat in range(4))


def test_hand_scored_event_carries_the_score_line():
    game = new_game("online", SUIT_EACH_45, SUIT_EACH_45_KITTY)
    won_bid(game, "7H", HEARTS_DISCARD[2])
    events = []
    while game.hand_number == 1:
        events += game.apply(str(game.legal_actions()[0]))
    scored = next(e for e in events if e["type"] == "hand_scored")
    assert (scored["contract"], scored["points"], scored["made"]) == ("7H", [200, 20], True)
    assert events[-1] == {"type": "deal", "hand": 2, "dealer": 0}


# -- misère ----------------------------------------------------------------------------------


def misere_game(rules: Rules | str = "online") -> Game:
    return won_bid(new_game(rules, MISERE_45, MISERE_45_KITTY), "misere")


def test_misere_partner_folds():
    game = misere_game()
    assert game.active == (0, 1, 3)
    assert game.view(0)["contract"]["playing"] == [0, 1, 3]


def test_misere_made_scores_250():
    game = misere_game()
    finish_hand(game)
    result = last(game)
    assert result.tricks[0] == 0
    assert (result.made, result.points) == (True, (250, 0))


def misere_taking_tricks(rules: Rules | str) -> Game:
    """Seat 0 keeps the two top hearts and leads them: nobody else has a heart."""
    game = won_bid(new_game(rules, MISERE_45, MISERE_45_KITTY), "misere", "4S 5S JH QH JK")
    run(game, "play AH", "play 9S", "play KC")
    if game.hand_number == 1:
        run(game, "play KH", "play 10S", "play AC")
        finish_hand(game)
    return game


def test_misere_failed_play_on_defenders_score_10_per_trick_taken():
    game = misere_taking_tricks("online")
    result = last(game)
    assert result.tricks[0] == 2 and sum(result.tricks) == 10
    assert (result.made, result.points) == (False, (-250, 20))


def test_misere_failed_stop_ends_the_hand_at_the_first_trick():
    game = misere_taking_tricks(rules_of("online", misere_failure="stop"))
    result = last(game)
    assert result.tricks == (1, 0, 0, 0)
    assert (result.made, result.points) == (False, (-250, 10))
    assert (game.hand_number, game.phase) == (2, "bidding")


def test_australian_misere_stops_at_the_first_trick():
    game = new_game(rules_of("australian", deck="45"), MISERE_45, MISERE_45_KITTY)
    run(game, "bid 7S", "bid misere", "pass", "pass", "pass")
    assert (game.contractor, str(game.contract), game.active) == (1, "misere", (0, 1, 2))
    game.apply(f"discard {MISERE_45_KITTY}")
    run(game, "play 9S", "play QD", "play 4S")  # seat 1 takes the first trick
    result = last(game)
    assert result.tricks == (0, 1, 0, 0)
    assert (result.made, result.points) == (False, (10, -250))
    assert game.hand_number == 2


# -- open misère (Spread) --------------------------------------------------------------------


def spread_game() -> Game:
    game = new_game("online", MISERE_45, MISERE_45_KITTY)
    run(game, "bid misere", "bid across-the-corner", "pass", "pass", "bid open-misere", "pass")
    assert (game.contractor, str(game.contract)) == (0, "open-misere")
    game.apply(f"discard {MISERE_45_KITTY}")
    return game


def test_spread_hand_is_hidden_until_the_first_trick_is_over():
    game = spread_game()
    assert game.view(1)["open_hands"] == {}
    for _ in range(2):
        game.apply(str(game.legal_actions()[0]))
    assert game.view(1)["open_hands"] == {}
    game.apply(str(game.legal_actions()[0]))  # the first trick is complete
    shown = [str(c) for c in game.visible_hand(0, 0)]
    for viewer in (None, 1, 2, 3):
        assert game.view(viewer)["open_hands"]["0"] == shown
    assert "0" not in game.view(0)["open_hands"]  # one's own hand is under "hand"
    assert "2" not in game.view(1)["open_hands"]  # nobody else's hand is shown


def test_spread_made_scores_500_and_wins_with_the_bid():
    game = spread_game()
    finish_hand(game)
    assert (last(game).made, last(game).points) == (True, (500, 0))
    assert game.is_over and game.winner == 0


# -- Across The Corner -----------------------------------------------------------------------


def corner_game(fixed: dict[int, str], dealer: int = 3) -> Game:
    """The first speaker bids No Tricks and the next one Across The Corner; the rest pass."""
    game = new_game("online", fixed, dealer=dealer)
    run(game, "bid misere", "bid across-the-corner", "pass", "pass", "pass")
    return game


def test_across_the_corner_is_a_duel_without_the_kitty():
    game = corner_game(MISERE_45)
    assert (game.phase, game.to_act, game.contractor) == ("play", 1, 1)
    assert game.active == (0, 1) and game.corner_opponent == 0
    assert game.view(1)["kitty_size"] == 5 and game.hands[1].bit_count() == 10


def test_across_the_corner_fewer_tricks_scores_250_for_that_side():
    game = corner_game(MISERE_45)
    finish_hand(game)
    result = last(game)
    assert result.tricks == (0, 10, 0, 0)
    assert result.points == (250, 0)  # seat 0, the opponent, took fewer


def test_across_the_corner_contractor_taking_fewer_scores_250():
    fixed = {1: MISERE_45[1], 2: MISERE_45[0]}
    game = corner_game(fixed, dealer=0)  # seat 1 bids No Tricks, seat 2 Across The Corner
    assert (game.contractor, game.corner_opponent) == (2, 1)
    finish_hand(game)
    result = last(game)
    assert result.tricks[2] == 0
    assert (result.made, result.points) == (True, (250, 0))


def test_across_the_corner_five_each_scores_nothing():
    fixed = {0: "4S 5S 6S 7S 8S 10C JC QC KC AC", 1: "10S JS QS KS AS 4C 5C 6C 7C 8C"}
    game = corner_game(fixed)
    finish_hand(game)
    result = last(game)
    assert result.tricks == (5, 5, 0, 0)
    assert result.points == (0, 0)
    assert game.scores == [0, 0]


# -- Across The Table ------------------------------------------------------------------------

TABLE_DEAL = {
    0: "4S 5S 6S 4C 5C 6C 4D 5D 6D 4H",
    1: "9S 10S JS QS KS 9C 10C JC QC KC",
    2: "7S 8S 7C 8C 7D 8D 5H 6H 7H 8H",
    3: "AS AC 9D 10D JD QD KD AD 9H 10H",
}
TABLE_KITTY = "JH QH KH AH JK"


def table_game() -> Game:
    game = new_game("online", TABLE_DEAL, TABLE_KITTY)
    run(game, "bid misere", "pass", "bid across-the-table", "pass", "pass")
    assert (game.contractor, str(game.contract), game.phase) == (2, "across-the-table", "discard")
    game.apply(f"discard {TABLE_KITTY}")
    return game


def test_across_the_table_partner_chooses_from_the_discards():
    game = table_game()
    assert (game.phase, game.to_act) == ("partner_discard", 0)
    assert game.hands[0].bit_count() == 15
    assert sorted(game.view(0)["exchange"]) == sorted(TABLE_KITTY.split())
    assert game.view(0)["discard_count"] == 5
    assert game.view(2)["exchange"] is None
    with pytest.raises(IllegalAction):
        game.apply("discard 4S")
    game.apply("discard 4S 5S 6S 4C JK")
    assert (game.phase, game.to_act) == ("play", 2)
    assert game.active == (0, 1, 2, 3)


def test_across_the_table_made_scores_500():
    game = table_game()
    game.apply(f"discard {TABLE_KITTY}")
    finish_hand(game)
    result = last(game)
    assert result.tricks[0] == result.tricks[2] == 0
    assert (result.made, result.points) == (True, (500, 0))


def test_across_the_table_fails_when_the_partner_takes_a_trick():
    game = table_game()
    game.apply("discard 4H JH QH KH AH")  # seat 0 keeps the joker, forced on a void
    finish_hand(game)
    result = last(game)
    taken = result.tricks[0] + result.tricks[2]
    assert result.tricks[0] >= 1
    assert (result.made, result.points) == (False, (-500, 10 * taken))


# -- Nello (seed 000) ------------------------------------------------------------------------


def nello_game() -> Game:
    game = new_game("american", MISERE_45, MISERE_45_KITTY)
    game.scores = [-100, 0]
    run(game, "bid nello", "pass", "pass", "pass")
    return game


def test_nello_partner_gives_a_card_and_the_contractor_discards_six():
    game = nello_game()
    assert (game.phase, game.to_act) == ("give", 2)
    with pytest.raises(IllegalAction, match="You do not hold AS"):
        game.apply("give AS")
    game.apply("give 4H")
    assert (game.phase, game.to_act) == ("discard", 0)
    assert game.hands[0].bit_count() == 16
    assert "4H" in game.view(0)["exchange"]
    with pytest.raises(IllegalAction, match="discard 6 cards"):
        game.apply(f"discard {MISERE_45_KITTY}")
    game.apply(f"discard {MISERE_45_KITTY} 4H")
    assert (game.phase, game.to_act, game.active) == ("play", 0, (0, 1, 3))


def test_nello_made_scores_250():
    game = nello_game()
    run(game, "give 4H", f"discard {MISERE_45_KITTY} 4H")
    finish_hand(game)
    assert (last(game).made, last(game).points) == (True, (250, 0))
    assert game.scores == [150, 0]


def test_nello_set_loses_250_and_opponents_score_per_trick():
    game = nello_game()
    run(game, "give 4H", "discard 4S 5S JH QH JK 4H")
    run(game, "play AH", "play 9S", "play KC", "play KH", "play 10S", "play AC")
    finish_hand(game)
    result = last(game)
    assert result.tricks[0] == 2
    assert (result.made, result.points) == (False, (-250, 20))


# -- everybody passes ------------------------------------------------------------------------


def all_pass(game: Game) -> None:
    for _ in range(4):
        game.apply("pass")


def test_all_pass_redeal_by_the_same_dealer():
    game = new_game("classic", {})
    all_pass(game)
    assert (game.hand_number, game.dealer, game.phase, game.to_act) == (2, 3, "bidding", 0)
    assert game.scores == [0, 0]
    assert last(game).contract is None and last(game).points == (0, 0)


def test_all_pass_redeal_in_a_single_round_auction():
    game = new_game("american", {})
    all_pass(game)
    assert (game.hand_number, game.dealer) == (2, 3)


def test_all_pass_redeal_then_pass_deal():
    game = new_game(rules_of("classic", all_pass="redeal_then_pass_deal"), {})
    dealers = []
    for _ in range(4):
        all_pass(game)
        dealers.append(game.dealer)
    assert dealers == [3, 3, 0, 0]


def test_all_pass_next_dealer():
    game = new_game("australian", {})
    all_pass(game)
    assert (game.hand_number, game.dealer, game.to_act) == (2, 0, 1)
    assert game.scores == [0, 0]


def test_all_pass_play_no_trump_without_kitty_exchange():
    game = new_game("online", SUIT_EACH_45, SUIT_EACH_45_KITTY)
    all_pass(game)
    assert (game.hand_number, game.phase, game.to_act) == (1, "play", 0)
    assert game.contract is None and game.strain.trump is None
    assert game.view(0)["kitty_size"] == 5
    assert all(game.hands[seat].bit_count() == 10 for seat in range(4))


def test_all_pass_play_no_trump_scores_10_a_trick_to_each_side():
    game = new_game("online", {0: "AS KS QS 4C 5C 6C 7C 8C 9C 10C"})
    all_pass(game)
    finish_hand(game)
    result = last(game)
    sides = (result.tricks[0] + result.tricks[2], result.tricks[1] + result.tricks[3])
    assert sum(sides) == 10 and min(sides) > 0
    assert result.points == (10 * sides[0], 10 * sides[1])
    assert result.contract is None and result.made is None


def test_all_pass_hand_does_not_win_when_a_bid_is_needed():
    game = new_game("online", SUIT_EACH_45, SUIT_EACH_45_KITTY)
    game.scores = [450, 0]
    all_pass(game)
    finish_hand(game)
    assert last(game).points == (100, 0)
    assert game.scores == [550, 0] and not game.is_over


# -- the end of the match --------------------------------------------------------------------


def test_reaching_the_target_wins():
    game = hearts_hand("classic", "7H", scores=(300, 0))
    assert game.scores == [500, 0]
    assert (game.is_over, game.winner, game.phase, game.to_act) == (True, 0, "over", None)
    assert game.legal_actions() == []
    with pytest.raises(IllegalAction, match="over"):
        game.apply("pass")


def test_below_the_target_play_goes_on():
    game = hearts_hand("classic", "7H", scores=(299, 0))
    assert game.scores == [499, 0] and not game.is_over and game.hand_number == 2


def test_match_over_event():
    game = new_game("classic", SUIT_EACH_43, SUIT_EACH_43_KITTY)
    game.scores = [300, 0]
    won_bid(game, "7H")
    events = []
    while not game.is_over:
        events += game.apply(str(game.legal_actions()[0]))
    assert events[-1] == {"type": "match_over", "winner": 0, "scores": [500, 0]}


def test_target_strict_needs_more_than_500():
    game = hearts_hand("american", "7H", scores=(250, 0))
    assert game.scores == [500, 0] and not game.is_over
    game = hearts_hand("american", "7H", scores=(260, 0))
    assert game.scores == [510, 0] and game.winner == 0


def test_win_needs_bid_defenders_reaching_500_do_not_win():
    game = hearts_hand("online", "7H", lost=2, scores=(0, 490))
    assert game.scores == [200, 510]
    assert not game.is_over and game.hand_number == 2


def test_without_win_needs_bid_defenders_reaching_500_win():
    game = hearts_hand(rules_of("online", win_needs_bid=False), "7H", lost=2, scores=(0, 490))
    assert game.winner == 1


def test_win_needs_bid_the_bidders_reaching_500_win():
    game = hearts_hand("online", "7H", lost=2, scores=(300, 0))
    assert game.winner == 0


def test_win_needs_bid_a_failed_bid_does_not_win():
    game = hearts_hand("online", "9H", lost=2, scores=(0, 480))
    assert game.scores == [-400, 500] and not game.is_over


def test_both_sides_reach_the_target_contractor_wins():
    rules = rules_of("online", win_needs_bid=False)
    game = hearts_hand(rules, "7H", lost=2, scores=(300, 590))
    assert game.scores == [500, 610] and game.winner == 0


def test_both_sides_reach_the_target_higher_score_wins():
    rules = rules_of("online", win_needs_bid=False, both_reach_target="higher_score")
    game = hearts_hand(rules, "7H", lost=2, scores=(300, 590))
    assert game.winner == 1


def test_both_sides_reach_the_target_equal_scores_go_to_the_contractor():
    rules = rules_of("online", win_needs_bid=False, both_reach_target="higher_score")
    game = hearts_hand(rules, "7H", lost=2, scores=(300, 480))
    assert game.scores == [500, 500] and game.winner == 0


def test_american_both_over_500_contractor_wins():
    game = hearts_hand("american", "7H", lost=1, scores=(320, 500))
    assert game.scores == [520, 510] and game.winner == 0


def test_lose_at_minus_500():
    game = hearts_hand("online", "9H", lost=2, scores=(-100, 0))
    assert game.scores == [-500, 20]
    assert game.winner == 1


def test_above_lose_at_play_goes_on():
    game = hearts_hand("online", "9H", lost=2, scores=(-99, 0))
    assert game.scores == [-499, 20] and not game.is_over


def test_lose_at_none_never_loses():
    game = hearts_hand(rules_of("online", lose_at=None), "9H", lost=2, scores=(-1000, 0))
    assert game.scores == [-1400, 20] and not game.is_over


def test_custom_target():
    game = hearts_hand(rules_of("classic", target=200), "7H")
    assert game.winner == 0
