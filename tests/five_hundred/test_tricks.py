"""Who wins a trick: RULES.md section 3 and the worked tricks of seed 004."""

from __future__ import annotations

import pytest

from cardroom.games.cards import Suit
from cardroom.games.five_hundred import Bid, trick_winner


@pytest.mark.parametrize(
    ("contract", "trick", "winner"),
    [
        ("H", "10D JD 4H KD", "JD"),  # the left bower is a trump
        ("D", "10D JH KD KH", "JH"),  # left bower of diamonds
        ("H", "10S JD JH AH", "JH"),  # right bower beats left bower and ace
        ("H", "JK JD JH AH", "JK"),  # the joker is the top trump
        ("NT", "JK AD AS AH", "JK"),  # the joker wins in no trumps
        ("NT", "JH QH 10S JD", "QH"),  # no bowers in no trumps
        ("S", "10D 5S AC KD", "5S"),  # a low trump beats the suit led
        ("NT", "10D JS AC KD", "KD"),  # off-suit cards cannot win
        ("NT", "13H 12H 11H 10H", "13H"),  # six-handed ranks: 13 12 11 above 10
    ],
)
def test_rules_md_worked_examples(contract, trick, winner):
    cards = trick.split()
    assert cards[trick_winner(cards, contract)] == winner


@pytest.mark.parametrize(
    ("trick", "winner"),
    [
        ("KS JC JS 6S", "JS"),  # right bower beats left bower (JC is a spade)
        ("10H AH 4S JH", "4S"),  # a trump wins; JH is no bower with spades trump
        ("4D QC 8D 9D", "9D"),  # a higher card of another suit cannot win
    ],
)
def test_seed_004_worked_tricks_with_spades_trump(trick, winner):
    cards = trick.split()
    assert cards[trick_winner(cards, "S")] == winner


def test_the_joker_always_wins_a_suit_contract_trick():
    assert trick_winner(["JS", "JC", "JK", "AS"], "S") == 2
    assert trick_winner(["AD", "JK", "KD", "QD"], "H") == 1


def test_left_bower_beats_the_ace_of_trumps():
    assert trick_winner(["AC", "JS", "KC", "QC"], "C") == 1


def test_jack_of_the_other_colour_is_not_a_bower():
    # Hearts trump: the jack of clubs is just a club.
    assert trick_winner(["QC", "JC", "KC", "4C"], "H") == 2


def test_left_bower_led_leads_trumps():
    # Spades trump, the jack of clubs led: the ace of spades follows (trumps) and the jack wins;
    # the ace of clubs does not follow and cannot win.
    assert trick_winner(["JC", "AS", "AC", "KS"], "S") == 0


def test_trick_winner_takes_bids_suits_and_no_trump_spellings():
    trick = ["10D", "JD", "4H", "KD"]
    assert trick_winner(trick, "7H") == 1
    assert trick_winner(trick, Bid.parse("7H")) == 1
    assert trick_winner(trick, Suit.HEARTS) == 1
    assert trick_winner(trick, "NT") == 3
    assert trick_winner(trick, None) == 3
    assert trick_winner(trick, "8NT") == 3


def test_special_contracts_play_in_no_trumps():
    assert trick_winner(["10D", "JD", "4H", "KD"], "misere") == 3
    assert trick_winner(["5S", "JK", "AS"], Bid.parse("misere")) == 1


def test_joker_led_in_no_trumps_names_the_suit_and_wins():
    assert trick_winner(["JK", "AH", "KH", "QH"], "NT", nominated="H") == 0
    assert trick_winner(["JK", "4S", "AH", "5S"], "NT", nominated=Suit.SPADES) == 0


def test_joker_named_suit_decides_the_trick_when_the_joker_plays_low():
    # Joker low (Trickster's misère rule): led and followed, the highest of the named suit wins.
    assert trick_winner(["JK", "4S", "AH", "5S"], "NT", nominated="S", joker_low=True) == 3
    # Nobody follows the named suit: the joker wins after all.
    assert trick_winner(["JK", "4D", "AH", "5C"], "NT", nominated="S", joker_low=True) == 0


def test_joker_low_played_to_a_trick_does_not_win():
    assert trick_winner(["5S", "JK", "4S"], "misere", joker_low=True) == 0


def test_a_single_card_trick_is_won_by_it():
    assert trick_winner(["4C"], "H") == 0


def test_empty_trick_is_an_error():
    with pytest.raises(ValueError):
        trick_winner([], "H")
