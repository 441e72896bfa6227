"""Claims: who may claim, the claimant's hand shown, a proven claim ending the hand, an unproven
one put to the opponents under the table's consent rule, and the record replaying it all."""

from __future__ import annotations

import random

import pytest
from tests.five_hundred.conftest import (
    MISERE_45,
    MISERE_45_KITTY,
    SUIT_EACH_45,
    SUIT_EACH_45_KITTY,
    assert_refused,
    new_game,
    rules_of,
    run,
    won_bid,
)

from cardroom.games.five_hundred import Game, Rules


def hearts_contract(**options: object) -> Game:
    """Seat 0 (hearts, every trump but the kitty's) plays 7H on `online`; seat 0 leads."""
    game = new_game(rules_of("online", **options), SUIT_EACH_45, SUIT_EACH_45_KITTY)
    return won_bid(game, "7H", "4S 4C 5H 6H 7H")


def test_the_player_on_lead_is_offered_every_count_and_nobody_else_any() -> None:
    game = hearts_contract()
    assert game.to_act == 0 and game.phase == "play"
    assert game.view(0)["claims"] == list(range(11))
    assert game.claim_options(0) == [f"claim {n}" for n in range(11)]
    for seat in (1, 2, 3, None):
        assert game.view(seat)["claims"] == []
    assert "claim 10" not in [action.text for action in game.legal_actions()]
    game.apply("play AH")
    assert game.view(1)["claims"] == []  # not on lead: a card is on the trick
    assert_refused(game, "claim 3", "only the player on lead", seat=1)


def test_any_player_at_their_turn_may_claim_where_the_table_allows() -> None:
    game = hearts_contract(claims="turn")
    game.apply("play AH")
    assert game.view(1)["claims"] == list(range(11))
    assert_refused(game, "claim 3", "turn", seat=2)


def test_a_table_without_claims_offers_none() -> None:
    game = hearts_contract(claims="off")
    assert game.view(0)["claims"] == []
    assert_refused(game, "claim 10", "does not allow claims")


def test_claims_are_for_the_play_and_for_four_players_in_partnerships() -> None:
    game = new_game(rules_of("online"), SUIT_EACH_45, SUIT_EACH_45_KITTY)
    assert game.phase == "bidding" and game.view(0)["claims"] == []
    assert_refused(game, "claim 10", "time to bid")
    three = Game.new(Rules.preset("three-handed"), seed=4)
    rng = random.Random(4)
    while three.phase != "play":
        three.apply(rng.choice(list(three.legal_actions())))
    seat = three.to_act
    assert seat is not None and three.view(seat)["claims"] == []
    assert_refused(three, "claim 10", "tables of four in two partnerships", seat=seat)


def test_a_proven_claim_ends_the_hand_with_the_tricks_claimed() -> None:
    game = hearts_contract()
    run(game, "play AH", "play 5S", "play 4D", "play 5C")  # seat 0 wins the first trick
    events = game.apply("claim 9 proven", seat=0)
    kinds = [event["type"] for event in events]
    assert kinds[:3] == ["claim", "claim_settled", "hand_scored"]
    assert events[0]["hand"][0] == "JK" and events[0]["remaining"] == 9
    result = game.history[-1]
    assert result.tricks == (10, 0, 0, 0) and result.made is True
    assert game.hand_number == 2 and game.phase == "bidding"


def test_claiming_some_tricks_concedes_the_rest_to_the_first_opponent() -> None:
    game = hearts_contract()
    game.apply("claim 6 proven")
    assert game.history[-1].tricks == (6, 4, 0, 0)
    assert game.history[-1].made is False


def test_an_unproven_claim_shows_the_hand_and_waits_for_both_opponents() -> None:
    game = hearts_contract()
    assert "0" not in game.view(1)["open_hands"]
    events = game.apply("claim 10")
    assert events == [{"type": "claim", "seat": 0, "tricks": 10, "remaining": 10,
                       "proven": False, "hand": game.view(0)["hand"]}]
    assert game.phase == "claim" and game.to_act == 1
    view = game.view(1)
    assert view["legal_actions"] == ["accept", "refuse"]
    assert view["claim"] == {"seat": 0, "tricks": 10, "remaining": 10, "accepted": [],
                             "consent": "both"}
    assert view["open_hands"]["0"] == game.view(0)["hand"]
    assert game.view(2)["legal_actions"] == []
    assert_refused(game, "play KH", "accept", seat=1)
    game.apply("accept")
    assert game.to_act == 3 and game.view(3)["claim"]["accepted"] == [1]  # type: ignore[index]
    events = game.apply("accept")
    assert [e["type"] for e in events][:3] == ["claim_answer", "claim_settled", "hand_scored"]
    assert game.history[-1].tricks == (10, 0, 0, 0)


def test_one_refusal_of_two_needed_lets_play_go_on_with_the_hand_still_shown() -> None:
    game = hearts_contract()
    game.apply("claim 10")
    game.apply("accept")
    events = game.apply("refuse")
    assert events[-1] == {"type": "claim_refused", "seat": 0}
    assert game.phase == "play" and game.to_act == 0 and game.view(0)["claim"] is None
    assert game.view(2)["open_hands"]["0"] == game.view(0)["hand"]
    assert game.view(0)["claims"] == []  # not again until this trick is over
    assert_refused(game, "claim 10", "once this trick is over")
    run(game, "play AH", "play 5S", "play 4D", "play 5C")
    assert game.view(0)["claims"] == list(range(10))


def test_where_one_consent_is_enough_one_acceptance_settles_the_claim() -> None:
    game = hearts_contract(claim_consent="one")
    game.apply("claim 10")
    game.apply("accept")
    assert game.hand_number == 2 and game.history[-1].tricks == (10, 0, 0, 0)
    game = hearts_contract(claim_consent="one")
    game.apply("claim 10")
    game.apply("refuse")
    assert game.phase == "claim" and game.to_act == 3
    game.apply("accept")
    assert game.hand_number == 2
    game = hearts_contract(claim_consent="one")
    game.apply("claim 10")
    run(game, "refuse", "refuse")
    assert game.phase == "play" and game.to_act == 0


def test_a_claim_in_the_middle_of_a_trick_gives_out_the_trick_in_progress_too() -> None:
    game = hearts_contract(claims="turn")
    run(game, "play AH", "play 5S")
    game.apply("claim 0 proven", seat=2)  # seat 2 concedes every trick left
    assert game.history[-1].tricks == (0, 0, 0, 10)  # to the first opponent after it


def test_in_misere_only_its_player_claims_and_only_that_it_takes_no_more() -> None:
    game = new_game(rules_of("online"), MISERE_45, MISERE_45_KITTY)
    won_bid(game, "misere", MISERE_45_KITTY)
    assert game.to_act == 0
    assert game.view(0)["claims"] == [0]
    assert_refused(game, "claim 3", "only claim that you take no more")
    game.apply("claim 0")
    assert game.to_act == 1  # partner (seat 2) is out: the opponents answer
    run(game, "accept", "accept")
    assert game.history[-1].tricks == (0, 10, 0, 0) and game.history[-1].made is True


def test_defenders_of_a_misere_may_not_claim() -> None:
    game = new_game(rules_of("online", claims="turn"), MISERE_45, MISERE_45_KITTY)
    won_bid(game, "misere", MISERE_45_KITTY)
    game.apply("play 4S")
    assert game.view(1)["claims"] == []
    assert_refused(game, "claim 0", "only its players claim", seat=1)


@pytest.mark.parametrize("text", ["claim 11", "claim -1", "claim x", "claim 3 please"])
def test_a_malformed_claim_is_refused_and_changes_nothing(text: str) -> None:
    game = hearts_contract()
    before = game.view(0)
    assert_refused(game, text, "claim")
    assert game.view(0) == before and len(game.actions) == len(hearts_contract().actions)


def test_an_answer_outside_a_claim_is_refused() -> None:
    game = hearts_contract()
    assert_refused(game, "accept", "play a card")


def random_claims_game(seed: int) -> Game:
    """A random `online` match with claims (`turn`) made, proven or not, answered at random."""
    rng = random.Random(seed)
    game = Game.new(rules_of("online", claims="turn",
                             claim_consent=rng.choice(["both", "one"])), seed=seed)
    while not game.is_over and len(game.actions) < 400:
        seat = game.to_act
        assert seat is not None
        options = game.claim_options(seat)
        if options and rng.random() < 0.08:
            game.apply(rng.choice(options) + rng.choice(["", " proven"]), seat=seat)
        else:
            game.apply(rng.choice(list(game.legal_actions())), seat=seat)
    return game


@pytest.mark.parametrize("seed", range(40))
def test_random_claims_keep_every_hand_whole_and_replay_from_the_record(seed: int) -> None:
    game = random_claims_game(seed)
    for result in game.history:
        if result.contract is not None or result.made is not None:
            assert sum(result.tricks) == 10
    twin = Game.replay(game.record)
    assert twin.view(0) == game.view(0) and twin.scores == game.scores
