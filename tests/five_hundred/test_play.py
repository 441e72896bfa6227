"""Playing cards to tricks in whole games: following suit, bowers, the joker, illegal plays."""

from __future__ import annotations

import pytest

from cardroom.games.five_hundred import Game, IllegalAction
from conftest import (
    assert_legal_exactly_when_accepted,
    assert_refused,
    cards,
    first_legal,
    new_game,
    rules_of,
    run,
    texts,
    won_bid,
)

HEARTS_LEADER = "4D 5H 6H 7H 8H 9H 10H QH KH AH"


def hearts_game(seat1: str, seat0: str = HEARTS_LEADER, rules="online") -> Game:
    """Seat 0 has won 7 hearts and is about to lead; seat 1 holds ``seat1``."""
    return won_bid(new_game(rules, {0: seat0, 1: seat1}), "7H")


def no_trumps_game(seat0: str, seat1: str, rules="online", bid="7NT") -> Game:
    return won_bid(new_game(rules, {0: seat0, 1: seat1}), bid)


def snapshot(game: Game) -> tuple[object, ...]:
    return (
        [game.view(seat) for seat in (None, 0, 1, 2, 3)],
        list(game.hands),
        game.kitty,
        len(game.actions),
        game.phase,
        game.to_act,
    )


# -- following suit --------------------------------------------------------------------------


def test_the_contractor_leads_the_first_trick():
    game = hearts_game("KS 4C 5C 6C 7C 8C 9C 10C JC QC")
    assert (game.phase, game.to_act) == ("play", 0)


def test_must_follow_the_suit_led():
    game = hearts_game("KS 4C 5C 6C 7C 8C 9C 10C JC QC", seat0="AS " + HEARTS_LEADER[3:])
    game.apply("play AS")
    assert texts(game.legal_actions()) == ["play KS"]
    assert_refused(game, "play 4C", "must follow suit")
    game.apply("play KS")
    assert game.to_act == 2


def test_void_in_the_suit_led_may_play_anything():
    game = hearts_game("4S 5S 6S 7S 8S 9S 10S JS QS KS")
    game.apply("play 4D")
    assert len(game.legal_actions()) == 10
    game.apply("play KS")


def test_left_bower_is_not_its_printed_suit():
    # Hearts trump: seat 1's only "diamond" is the jack, a trump, so seat 1 is void in diamonds.
    game = hearts_game("JD 4C 5C 6C 7C 8C 9C 10C JC QC")
    game.apply("play 4D")
    assert len(game.legal_actions()) == 10
    game.apply("play 4C")


def test_left_bower_may_not_be_played_to_its_printed_suit_when_holding_that_suit():
    game = hearts_game("JD 5D 4C 5C 6C 7C 8C 9C 10C JC")
    game.apply("play 4D")
    assert texts(game.legal_actions()) == ["play 5D"]
    assert_refused(game, "play JD", "must follow suit")


def test_left_bower_must_follow_when_trumps_are_led():
    game = hearts_game("JD 4C 5C 6C 7C 8C 9C 10C JC QC")
    game.apply("play 5H")
    assert texts(game.legal_actions()) == ["play JD"]
    assert_refused(game, "play 4C", r"Trumps \(hearts\) were led")
    game.apply("play JD")


def test_left_bower_led_is_a_trump_lead():
    # Spades trump; seat 0 leads the jack of clubs; seat 1 holds clubs and one spade.
    game = won_bid(new_game("online", {0: "JC 4S 5S 6S 7S 8S 9S 10S QS KS",
                                       1: "AS 4C 5C 6C 7C 8C 9C 10C QC KC"}), "7S")
    game.apply("play JC")
    assert texts(game.legal_actions()) == ["play AS"]


def test_a_trump_beats_the_ace_led_and_its_player_leads_next():
    game = hearts_game("4H 4C 5C 6C 7C 8C 9C 10C JC QC", seat0="AS " + HEARTS_LEADER[3:])
    run(game, "play AS", "play 4H", "play KS", "play KC")
    assert game.completed[0]["winner"] == 1
    assert game.tricks_won == [0, 1, 0, 0]
    assert game.to_act == 1


# -- the joker in a suit contract ----------------------------------------------------------


def test_joker_is_a_trump_and_may_not_be_played_to_another_suit_that_one_can_follow():
    game = hearts_game("JK 4C 5C 6C 7C 8C 9C 10C JC QC", seat0="KC " + HEARTS_LEADER[3:])
    game.apply("play KC")
    assert "play JK" not in texts(game.legal_actions())
    assert_refused(game, "play JK", "joker is a trump")


def test_joker_must_follow_when_trumps_are_led():
    game = hearts_game("JK 4C 5C 6C 7C 8C 9C 10C JC QC")
    game.apply("play 5H")
    assert texts(game.legal_actions()) == ["play JK"]


def test_joker_may_trump_when_void_and_wins():
    game = hearts_game("JK 4S 5S 6S 7S 8S 9S 10S JS QS", seat0="4C JH 6H 7H 8H 9H 10H QH KH AH")
    game.apply("play 4C")
    game.apply("play JK")
    while game.trick:
        game.apply(first_legal(game))
    assert game.completed[0]["winner"] == 1


def test_joker_led_in_a_suit_contract_names_no_suit():
    game = hearts_game("4S 5S 6S 7S 8S 9S 10S JS QS KS", seat0="JK " + HEARTS_LEADER[3:])
    assert "play JK" in texts(game.legal_actions())
    assert_refused(game, "play JK:H", "Only the joker led in no trumps")
    game.apply("play JK")


# -- the joker in no trumps ----------------------------------------------------------------


def test_leading_the_joker_in_no_trumps_requires_naming_a_suit():
    game = no_trumps_game("JK 4S 5S 6S 7S 8S 9S 10S JS QS", "4H 5H 6H 7H 8H 9H AS 4C 5C 6C")
    assert {"play JK:S", "play JK:C", "play JK:D", "play JK:H"} <= set(texts(game.legal_actions()))
    assert "play JK" not in texts(game.legal_actions())
    assert_refused(game, "play JK", "name the suit")


def test_joker_led_with_a_named_suit_must_be_followed_and_wins():
    game = no_trumps_game("JK 4S 5S 6S 7S 8S 9S 10S JS QS", "4H 5H 6H 7H 8H 9H AS 4C 5C 6C")
    events = game.apply("play JK:H")
    assert events[0]["nominated"] == "H"
    assert game.view(1)["led"] == "H"
    assert "play AS" not in texts(game.legal_actions())
    assert_refused(game, "play AS", "must follow suit")
    game.apply("play 9H")
    while game.trick:
        game.apply(first_legal(game))
    assert game.completed[0]["winner"] == 0
    assert game.completed[0]["nominated"] == "H"


def test_only_the_joker_names_a_suit():
    game = no_trumps_game("JK 4S 5S 6S 7S 8S 9S 10S JS QS", "4H 5H 6H 7H 8H 9H AS 4C 5C 6C")
    assert_refused(game, "play 4S:H", "only the joker")


def test_nt_joker_play_any_time_may_be_played_holding_the_suit_led_and_wins():
    game = no_trumps_game("4S 5S 6S 7S 8S 9S 10S JS QS KS", "JK AS 4H 5H 6H 7H 8H 9H 10H JH")
    game.apply("play KS")
    assert set(texts(game.legal_actions())) == {"play AS", "play JK"}
    game.apply("play JK")
    while game.trick:
        game.apply(first_legal(game))
    assert game.completed[0]["winner"] == 1


def test_nt_joker_only_when_void_may_not_be_played_holding_the_suit_led():
    rules = rules_of("online", nt_joker="only_when_void")
    game = no_trumps_game("4S 5S 6S 7S 8S 9S 10S JS QS KS", "JK AS 4H 5H 6H 7H 8H 9H 10H JH",
                          rules=rules)
    game.apply("play KS")
    assert texts(game.legal_actions()) == ["play AS"]
    assert_refused(game, "play JK", "only be played when you cannot follow")


def test_nt_joker_only_when_void_may_be_played_when_void_and_wins():
    rules = rules_of("online", nt_joker="only_when_void")
    game = no_trumps_game("4S 5S 6S 7S 8S 9S 10S JS QS KS", "JK 4C 4H 5H 6H 7H 8H 9H 10H JH",
                          rules=rules)
    game.apply("play KS")
    assert "play JK" in texts(game.legal_actions())
    game.apply("play JK")
    while game.trick:
        game.apply(first_legal(game))
    assert game.completed[0]["winner"] == 1


def test_classic_and_american_presets_play_the_joker_only_when_void():
    for preset in ("classic", "american"):
        game = no_trumps_game("5S 6S 7S 8S 9S 10S JS QS KS 5C", "JK AS 5H 6H 7H 8H 9H 10H JH QH",
                              rules=preset)
        game.apply("play KS")
        assert texts(game.legal_actions()) == ["play AS"], preset


# -- the joker in no-tricks contracts ------------------------------------------------------

MISERE_JOKER = {
    0: "JK 4S 5S 6S 7S 8S 9S 10S JS QS",
    1: "KS 4H 5H 6H 7H 8H 9H 10H JH QH",
    3: "4D 5D 6D 7D 8D 9D 10D JD QD KD",
}


def test_misere_joker_may_not_be_led():
    game = won_bid(new_game("online", MISERE_JOKER), "misere")
    assert game.active == (0, 1, 3)
    assert not any(action.startswith("play JK") for action in texts(game.legal_actions()))
    assert_refused(game, "play JK:H", "may not be led")


def test_misere_joker_must_be_played_when_void():
    game = won_bid(new_game("online", MISERE_JOKER), "misere")
    run(game, "play 4S", "play KS", "play 4D")  # seat 1 wins and leads hearts
    run(game, "play 4H", "play 5D")
    assert game.to_act == 0
    assert texts(game.legal_actions()) == ["play JK"]
    assert_refused(game, "play 5S", "must play the joker")
    game.apply("play JK")


def test_misere_joker_may_be_led_to_the_last_trick():
    fixed = {0: "JK 4S 5S 6S 7S 8S 9S 10S JS QS",
             1: "4H 5H 6H 7H 8H 9H 10H JH QH KH",
             3: "4D 5D 6D 7D 8D 9D 10D JD QD KD"}
    game = won_bid(new_game("online", fixed), "misere")
    for _ in range(27):  # seat 0 leads its spades and wins: nobody else holds one
        game.apply(first_legal(game))
    assert game.to_act == 0 and game.hands[0] == 1 << 64
    assert set(texts(game.legal_actions())) == {"play JK:S", "play JK:C", "play JK:D",
                                                "play JK:H"}
    game.apply("play JK:H")


def test_without_the_forced_joker_rule_the_joker_may_be_led_and_held():
    game = won_bid(new_game(rules_of("online", misere_joker_forced=False), MISERE_JOKER),
                   "misere")
    assert "play JK:H" in texts(game.legal_actions())
    run(game, "play 4S", "play KS", "play 4D", "play 4H", "play 5D")
    assert "play 5S" in texts(game.legal_actions())
    game.apply("play 5S")


def test_the_joker_played_by_the_misere_bidder_wins_the_trick():
    game = won_bid(new_game("online", MISERE_JOKER), "misere")
    run(game, "play 4S", "play KS", "play 4D", "play 4H", "play 5D", "play JK")
    assert game.completed[-1]["winner"] == 0


def test_joker_low_in_misere_wins_no_trick_when_not_led():
    rules = rules_of("online", joker_low_in_misere=True)
    game = won_bid(new_game(rules, MISERE_JOKER), "misere")
    run(game, "play 4S", "play KS", "play 4D", "play 4H", "play 5D", "play JK")
    assert game.completed[-1]["winner"] == 1
    assert game.tricks_won[0] == 0


def test_a_seat_sees_only_its_own_hand():
    game = hearts_game("KS 4C 5C 6C 7C 8C 9C 10C JC QC")
    game.apply("play 5H")
    view = game.view(1)
    assert sorted(view["hand"]) == sorted(cards("KS 4C 5C 6C 7C 8C 9C 10C JC QC"))
    assert view["open_hands"] == {} and view["hand_sizes"] == [9, 10, 10, 10]
    assert view["trick"] == [{"seat": 0, "card": "5H"}] and view["led"] == "H"
    assert game.view(None)["hand"] is None and game.view(None)["open_hands"] == {}
    assert "exchange" in view and view["exchange"] is None


def test_legal_plays_are_exactly_the_accepted_plays():
    game = no_trumps_game("JK 4S 5S 6S 7S 8S 9S 10S JS QS", "4H 5H 6H 7H 8H 9H AS 4C 5C 6C")
    candidates = [f"play {card}" for card in cards("JK 4S QS 4H")]
    candidates += [f"play JK:{suit}" for suit in "SCDH"] + ["play 4S:H"]
    assert_legal_exactly_when_accepted(game, candidates)


# -- illegal actions -------------------------------------------------------------------------


def test_illegal_play_leaves_the_game_unchanged():
    game = hearts_game("KS 4C 5C 6C 7C 8C 9C 10C JC QC", seat0="AS " + HEARTS_LEADER[3:])
    game.apply("play AS")
    before = snapshot(game)
    for action in ("play 4C", "play AH", "bid 8H", "pass", "discard 4C", "hello", "play JK:H"):
        with pytest.raises(IllegalAction):
            game.apply(action)
        assert snapshot(game) == before, action


def test_illegal_action_messages_say_why():
    game = hearts_game("KS 4C 5C 6C 7C 8C 9C 10C JC QC")
    assert_refused(game, "play KS", r"^You do not hold KS\.$")
    assert_refused(game, "bid 8H", "time to play a card")
    assert_refused(game, "shuffle", "not an action")


def test_acting_out_of_turn_is_refused():
    game = hearts_game("KS 4C 5C 6C 7C 8C 9C 10C JC QC")
    before = snapshot(game)
    assert_refused(game, "play KS", "seat 0's turn, not seat 1's", seat=1)
    assert snapshot(game) == before
    game.apply("play 5H", seat=0)


def test_out_of_turn_in_the_bidding():
    game = new_game("online", {})
    assert_refused(game, "bid 7H", "seat 0's turn", seat=2)
    assert game.bids == []


def test_discard_must_be_the_right_number_of_held_cards():
    game = new_game("online", {0: HEARTS_LEADER})
    run(game, "bid 7H", "pass", "pass", "pass")
    assert (game.phase, game.to_act) == ("discard", 0)
    assert game.hands[0].bit_count() == 15
    before = snapshot(game)
    assert_refused(game, "discard 4D 5H", "discard 5 cards")
    assert_refused(game, "discard AS 4D 5H 6H 7H", "You do not hold AS")
    assert_refused(game, "play 4D", "discard 5 cards")
    assert snapshot(game) == before


def test_contractor_may_discard_any_cards_including_the_kitty():
    game = new_game("online", {0: HEARTS_LEADER})
    kitty = game.kitty
    run(game, "bid 7H", "pass", "pass", "pass")
    assert game.view(0)["exchange"] and game.view(1)["exchange"] is None
    game.apply("discard 4D 5H 6H 7H 8H")
    assert game.phase == "play"
    assert game.hands[0] & kitty == kitty
    assert game.hands[0].bit_count() == 10


def test_first_lead_from_the_dealers_left_option():
    game = new_game(rules_of("online", first_lead="dealer_left"), {1: HEARTS_LEADER})
    run(game, "pass", "bid 7H", "pass", "pass")
    game.apply("discard " + " ".join(str(c) for c in game.view(1)["exchange"]))
    assert (game.phase, game.to_act) == ("play", 0)


def test_from_deal_checks_the_deal():
    hands = [["AS"] * 10] * 4
    with pytest.raises(ValueError):
        Game.from_deal("online", dealer=0, hands=hands, kitty=["JK"] * 5)
    game = new_game("online", {})
    good_hands = [[str(c) for c in game.view(s)["hand"]] for s in range(4)]
    with pytest.raises(ValueError, match="kitty"):
        Game.from_deal("online", dealer=0, hands=good_hands, kitty=["JK"])
    with pytest.raises(ValueError, match="hands"):
        Game.from_deal("online", dealer=0, hands=good_hands[:3], kitty=[])
