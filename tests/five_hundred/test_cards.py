"""Card notation, suits, ranks and the bit-mask helpers."""

from __future__ import annotations

import pickle
import random

import pytest

from cardroom.games.cards import (
    BLACK_JOKER,
    CARD_COUNT,
    CARDS,
    JOKER,
    SUIT_MASKS,
    Card,
    Rank,
    Suit,
    cards_of,
    format_cards,
    indexes_of,
    iter_indexes,
    mask_of,
    parse_cards,
)


@pytest.mark.parametrize("card", CARDS, ids=str)
def test_every_card_round_trips_through_its_text(card):
    assert Card.parse(str(card)) is card


@pytest.mark.parametrize("card", CARDS, ids=str)
def test_every_card_parses_in_lower_case(card):
    assert Card.parse(str(card).lower()) is card


def test_card_text_is_rank_then_suit_letter():
    assert str(Card.of(Rank.TEN, Suit.HEARTS)) == "10H"
    assert str(Card.of(Rank.ACE, Suit.SPADES)) == "AS"
    assert str(Card.of(Rank.JACK, Suit.DIAMONDS)) == "JD"
    assert str(Card.of(Rank.FOUR, Suit.CLUBS)) == "4C"


@pytest.mark.parametrize("text", ["TH", "th", "Th", "10h", " 10H "])
def test_ten_may_be_written_t(text):
    assert Card.parse(text) is Card.parse("10H")


@pytest.mark.parametrize(
    ("text", "expected"),
    [("A♠", "AS"), ("10♥", "10H"), ("Q♦", "QD"), ("4♣", "4C"), ("K♡", "KH"), ("J♤", "JS")],
)
def test_suit_symbols_are_accepted(text, expected):
    assert Card.parse(text) is Card.parse(expected)


def test_jokers():
    assert Card.parse("JK") is JOKER
    assert Card.parse("jk") is JOKER
    assert Card.parse("joker") is JOKER
    assert Card.parse("JK2") is BLACK_JOKER
    assert JOKER.is_joker and BLACK_JOKER.is_joker
    assert JOKER.suit is None and JOKER.rank is None
    assert str(JOKER) == "JK" and str(BLACK_JOKER) == "JK2"
    assert not Card.parse("JS").is_joker


def test_six_handed_ranks_parse():
    assert Card.parse("13H").rank is Rank.THIRTEEN
    assert Card.parse("11c").rank is Rank.ELEVEN


@pytest.mark.parametrize("text", ["", "1H", "ZZ", "10X", "AH AS", "JK3", "H10", "15S"])
def test_bad_card_text_is_a_clear_value_error(text):
    with pytest.raises(ValueError, match="not a card"):
        Card.parse(text)


def test_card_parse_refuses_non_text():
    with pytest.raises(ValueError):
        Card.parse(12)  # type: ignore[arg-type]


def test_cards_are_interned_hashable_and_pickle_to_themselves():
    assert Card.parse("AS") is Card.parse("as")
    assert len({Card.parse("AS"), Card.parse("A♠"), Card.parse("KS")}) == 2
    assert pickle.loads(pickle.dumps(Card.parse("QH"))) is Card.parse("QH")


def test_card_index_and_mask():
    card = Card.parse("QH")
    assert card.mask == 1 << card.index
    assert Card.from_index(card.index) is card
    assert card.suit is Suit.HEARTS and card.rank is Rank.QUEEN


def test_card_index_out_of_range():
    with pytest.raises(ValueError):
        Card(CARD_COUNT)


def test_suit_order_is_bidding_seniority():
    assert Suit.SPADES < Suit.CLUBS < Suit.DIAMONDS < Suit.HEARTS


def test_suit_letters_symbols_and_colours():
    assert [s.letter for s in Suit] == ["S", "C", "D", "H"]
    assert [s.symbol for s in Suit] == ["♠", "♣", "♦", "♥"]
    assert [s.is_red for s in Suit] == [False, False, True, True]
    assert str(Suit.HEARTS) == "H"


def test_same_colour_suit_is_the_left_bower_suit():
    assert Suit.HEARTS.same_colour is Suit.DIAMONDS
    assert Suit.DIAMONDS.same_colour is Suit.HEARTS
    assert Suit.SPADES.same_colour is Suit.CLUBS
    assert Suit.CLUBS.same_colour is Suit.SPADES


@pytest.mark.parametrize(
    ("text", "suit"),
    [("S", Suit.SPADES), ("♣", Suit.CLUBS), ("diamonds", Suit.DIAMONDS), ("Heart", Suit.HEARTS),
     ("h", Suit.HEARTS)],
)
def test_suit_parse(text, suit):
    assert Suit.parse(text) is suit


def test_suit_parse_error_names_the_choices():
    with pytest.raises(ValueError, match="not a suit"):
        Suit.parse("X")


def test_plain_rank_order():
    order = [Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.THIRTEEN, Rank.TWELVE,
             Rank.ELEVEN, Rank.TEN, Rank.NINE, Rank.FOUR]
    assert order == sorted(order, reverse=True)


def test_rank_labels_and_parse():
    assert [str(r) for r in (Rank.TEN, Rank.JACK, Rank.ACE, Rank.FOUR)] == ["10", "J", "A", "4"]
    assert Rank.parse("t") is Rank.TEN
    assert Rank.parse("q") is Rank.QUEEN
    with pytest.raises(ValueError, match="not a rank"):
        Rank.parse("1")


def test_mask_of_and_cards_of_round_trip():
    mask = mask_of(["AS", "10H", "JK"])
    assert mask == Card.parse("AS").mask | Card.parse("10H").mask | JOKER.mask
    assert cards_of(mask) == [Card.parse("AS"), Card.parse("10H"), JOKER]


def test_mask_of_accepts_cards_and_ignores_duplicates():
    assert mask_of([Card.parse("AS"), "as"]) == Card.parse("AS").mask
    assert mask_of([]) == 0


def test_iter_indexes_lowest_first():
    assert list(iter_indexes(0b101001)) == [0, 3, 5]
    assert list(iter_indexes(0)) == []


def test_indexes_of_reads_a_mask_like_iter_indexes():
    rng = random.Random(4)
    masks = [0, 1, 1 << 65, (1 << CARD_COUNT) - 1,
             *(rng.getrandbits(CARD_COUNT) for _ in range(500))]
    for mask in masks:
        assert indexes_of(mask) == list(iter_indexes(mask))


def test_parse_cards_and_format_cards():
    parsed = parse_cards("AS, 10h  JK")
    assert parsed == [Card.parse("AS"), Card.parse("10H"), JOKER]
    assert format_cards(parsed) == "AS 10H JK"
    assert format_cards(mask_of(parsed)) == "AS 10H JK"
    assert parse_cards("  ") == []


def test_suit_masks_hold_each_suit():
    for suit in Suit:
        assert all(card.suit is suit for card in cards_of(SUIT_MASKS[suit]))
        assert SUIT_MASKS[suit].bit_count() == 16
    assert JOKER.mask & (SUIT_MASKS[0] | SUIT_MASKS[1] | SUIT_MASKS[2] | SUIT_MASKS[3]) == 0
