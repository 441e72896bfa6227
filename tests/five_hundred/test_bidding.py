"""The auction: bidding styles, final passes, re-bids, inkles and when special bids are allowed."""

from __future__ import annotations

import pytest

from cardroom.games.five_hundred import Game, IllegalAction, Rules
from conftest import (
    assert_legal_exactly_when_accepted,
    assert_refused,
    new_game,
    rules_of,
    run,
    texts,
)


def auction(rules: Rules | str, scores: tuple[int, int] = (0, 0)) -> Game:
    """A fresh game, dealer 3, so seat 0 speaks first."""
    game = new_game(rules, {})
    game.scores = list(scores)
    return game


def bids_of(game: Game) -> set[str]:
    return {action[4:] for action in texts(game.legal_actions()) if action.startswith("bid ")}


def assert_legal_actions_are_exactly_the_accepted_ones(game: Game) -> None:
    candidates = ["pass", *(f"bid {bid}" for bid in game.rules.bid_ladder)]
    assert_legal_exactly_when_accepted(game, candidates)


def test_left_of_the_dealer_speaks_first():
    game = new_game("online", {}, dealer=1)
    assert (game.phase, game.to_act) == ("bidding", 2)


def test_until_passed_goes_round_skipping_players_who_passed():
    game = auction("classic")
    run(game, "bid 6S", "pass", "bid 6C", "pass")
    assert game.to_act == 0
    game.apply("bid 7S")
    assert game.to_act == 2  # seat 1 passed and is skipped
    game.apply("pass")
    assert (game.phase, game.to_act) == ("discard", 0)
    assert str(game.contract) == "7S" and game.contractor == 0


def test_a_pass_is_final():
    game = auction("classic")
    run(game, "bid 6S", "pass", "bid 6C", "pass")
    with pytest.raises(IllegalAction):
        game.apply("bid 8S", seat=1)
    run(game, "bid 7S", "bid 7C", "bid 7D")
    assert game.to_act == 2 and game.passed == 0b1010


def test_a_bid_must_beat_the_high_bid():
    game = auction("classic")
    game.apply("bid 7H")
    assert_refused(game, "bid 7S", "must beat 7 hearts")
    assert_refused(game, "bid 7H", "must beat")
    assert "7H" not in bids_of(game) and "7NT" in bids_of(game) and "6NT" not in bids_of(game)
    assert_legal_actions_are_exactly_the_accepted_ones(game)


def test_bidding_ends_when_all_but_the_high_bidder_have_passed():
    game = auction("classic")
    run(game, "pass", "bid 6H", "pass", "pass")
    assert (game.phase, game.to_act) == ("discard", 1)
    assert game.contractor == 1


def test_high_bidder_may_not_raise_without_an_intervening_bid():
    game = auction("classic")
    run(game, "bid 6S", "pass", "pass", "pass")
    assert game.phase == "discard"


def test_rebid_any_time_lets_the_high_bidder_raise_after_the_others_pass():
    game = auction(rules_of("classic", rebid="any_time"))
    run(game, "bid 6S", "pass", "pass", "pass")
    assert (game.phase, game.to_act) == ("bidding", 0)
    assert "pass" in texts(game.legal_actions()) and "7S" in bids_of(game)
    game.apply("bid 7S")
    assert (game.phase, game.to_act) == ("bidding", 0)
    game.apply("pass")
    assert (game.phase, game.contractor, str(game.contract)) == ("discard", 0, "7S")


def test_single_round_everyone_speaks_once_dealer_last():
    game = auction("american")
    run(game, "bid 6S", "pass", "bid 7S")
    assert game.to_act == 3
    game.apply("pass")  # the dealer speaks last; seat 0 gets no second turn
    assert (game.phase, game.contractor, str(game.contract)) == ("discard", 2, "7S")


def test_single_round_the_last_bid_wins_even_over_partner():
    game = auction("american")
    run(game, "bid 6S", "pass", "bid 7S", "bid 7D")
    assert (game.contractor, str(game.contract)) == (3, "7D")


def test_inkle_only_the_first_two_speakers_may_bid_six():
    game = auction("american")
    run(game, "bid 6S", "bid 6C")
    assert not any(bid.startswith("6") for bid in bids_of(game))
    assert_refused(game, "bid 6H", "first two")
    game.apply("bid 7S")


def test_inkle_counts_speakers_not_bids():
    game = auction("american")
    run(game, "pass", "bid 6S")
    assert_refused(game, "bid 6NT", "first two")
    assert_legal_actions_are_exactly_the_accepted_ones(game)


def test_without_inkles_anyone_may_bid_six():
    game = auction("classic")
    run(game, "pass", "pass")
    game.apply("bid 6H")


def test_dealer_must_bid_when_everyone_else_passed():
    game = auction(rules_of("classic", all_pass="dealer_must_bid"))
    run(game, "pass", "pass", "pass")
    assert game.to_act == 3
    assert "pass" not in texts(game.legal_actions())
    assert_refused(game, "pass", "dealer must bid")
    game.apply("bid 6S")
    assert (game.phase, game.contractor) == ("discard", 3)


def test_dealer_may_pass_when_someone_has_bid():
    game = auction(rules_of("classic", all_pass="dealer_must_bid"))
    run(game, "pass", "bid 6S", "pass", "pass")
    assert game.contractor == 1


def test_australian_misere_only_after_a_seven():
    game = auction("australian")
    assert "misere" not in bids_of(game)
    assert_refused(game, "bid misere", "bid seven")
    run(game, "bid 6NT")
    assert_refused(game, "bid misere", "bid seven")
    run(game, "bid 7S")
    assert "misere" in bids_of(game)
    game.apply("bid misere")
    assert str(game.high_bid) == "misere"


@pytest.mark.parametrize(("preset", "below", "above"), [
    ("australian", "7NT", "8S"),  # after the sevens
    ("online", "8S", "8C"),  # at its value, 250: no seven needed first
])
def test_misere_beats_the_bid_below_it_and_loses_to_the_one_above(preset, below, above):
    game = auction(preset)
    run(game, f"bid {below}", "bid misere")
    assert_refused(game, f"bid {below}", "must beat")
    game.apply(f"bid {above}")
    assert_refused(game, "bid misere", "must beat")


def test_australian_open_misere_any_time():
    game = auction("australian")
    game.apply("bid open-misere")
    assert str(game.high_bid) == "open-misere"


def test_online_spread_only_after_a_no_tricks_bid():
    game = auction("online")
    assert "open-misere" not in bids_of(game)
    assert_refused(game, "bid open-misere", "No Tricks")
    game.apply("bid misere")
    assert "open-misere" in bids_of(game)
    game.apply("bid open-misere")


def test_online_spread_by_the_no_tricks_bidder_after_an_intervening_bid():
    game = auction("online")
    run(game, "bid misere", "bid across-the-corner", "pass", "pass", "bid open-misere")
    assert (game.high_bidder, str(game.high_bid)) == (0, "open-misere")


def test_across_the_corner_only_after_an_opponents_no_tricks():
    game = auction("online")
    assert "across-the-corner" not in bids_of(game)
    game.apply("bid misere")
    assert "across-the-corner" in bids_of(game)
    assert_legal_actions_are_exactly_the_accepted_ones(game)
    game.apply("pass")
    assert "across-the-corner" not in bids_of(game)  # seat 2 is the No Tricks bidder's partner
    assert_refused(game, "bid across-the-corner", "opponent bid No Tricks")


def test_across_the_corner_may_be_bid_over_no_tricks_of_equal_value():
    game = auction("online")
    run(game, "bid misere", "bid across-the-corner")
    assert str(game.high_bid) == "across-the-corner" and game.high_bidder == 1


def test_across_the_table_only_after_partners_no_tricks():
    game = auction("online")
    game.apply("bid misere")
    assert "across-the-table" not in bids_of(game)
    assert_refused(game, "bid across-the-table", "your partner bid No Tricks")
    game.apply("pass")
    assert "across-the-table" in bids_of(game)
    assert_legal_actions_are_exactly_the_accepted_ones(game)
    game.apply("bid across-the-table")


def test_across_the_table_refused_without_any_no_tricks_bid():
    game = auction("online")
    assert_refused(game, "bid across-the-table", "partner")


def test_nello_only_for_a_side_in_the_hole():
    game = auction("american", scores=(0, 0))
    assert "nello" not in bids_of(game)
    assert_refused(game, "bid nello", "in the hole")


def test_nello_allowed_with_a_negative_score():
    game = auction("american", scores=(-100, 0))
    assert "nello" in bids_of(game)
    game.apply("bid nello")
    assert str(game.high_bid) == "nello"


def test_nello_is_judged_by_the_bidders_own_side():
    game = auction("american", scores=(0, -20))
    game.apply("pass")
    assert "nello" in bids_of(game)  # seat 1's side is in the hole
    game.apply("pass")
    assert "nello" not in bids_of(game)  # seat 2's side is not


def test_nello_beats_every_bid_below_8s():
    game = auction("american", scores=(-100, 0))
    run(game, "bid 7NT", "pass", "bid nello")
    assert "8S" in bids_of(game)
    game.apply("bid 8S")
    assert str(game.high_bid) == "8S"


def test_bidding_is_public_in_the_view():
    game = auction("classic")
    run(game, "bid 6S", "pass")
    view = game.view(3)
    assert view["bidding"] == [{"seat": 0, "bid": "6S"}, {"seat": 1, "bid": "pass"}]
    assert view["high_bid"] == {"seat": 0, "bid": "6S"}
    assert view["passed"] == [1]
    assert game.view(1)["legal_actions"] == []
