"""Bids: notation, Avondale values and their order in each preset's bidding ladder."""

from __future__ import annotations

import pickle

import pytest

from cardroom.games.cards import Suit
from cardroom.games.five_hundred import Bid, Contract, Rules, bid_value
from conftest import rules_of

AVONDALE = {
    6: (40, 60, 80, 100, 120),
    7: (140, 160, 180, 200, 220),
    8: (240, 260, 280, 300, 320),
    9: (340, 360, 380, 400, 420),
    10: (440, 460, 480, 500, 520),
}
STRAINS = ("S", "C", "D", "H", "NT")


@pytest.mark.parametrize(
    ("text", "value"),
    [("6S", 40), ("6NT", 120), ("7S", 140), ("8D", 280), ("10H", 500), ("10NT", 520),
     ("misere", 250), ("open-misere", 500)],
)
def test_worked_bid_values(text, value):
    assert Bid.parse(text).value == value
    assert bid_value(text) == value


@pytest.mark.parametrize("tricks", sorted(AVONDALE))
def test_full_avondale_table(tricks):
    for strain, value in zip(STRAINS, AVONDALE[tricks], strict=True):
        assert Bid.parse(f"{tricks}{strain}").value == value


def test_special_contract_values():
    assert Bid.parse("nello").value == 250
    assert Bid.parse("across-the-corner").value == 250
    assert Bid.parse("across-the-table").value == 500


@pytest.mark.parametrize(
    ("text", "canonical"),
    [("7H", "7H"), ("7h", "7H"), ("7♥", "7H"), ("7 hearts", "7H"), ("7 Heart", "7H"),
     ("10♠", "10S"), ("8NT", "8NT"), ("8nt", "8NT"), ("8 no trumps", "8NT"),
     ("6 no-trump", "6NT"), ("misere", "misere"), ("Misère", "misere"),
     ("no tricks", "misere"), ("nullo", "misere"), ("open misere", "open-misere"),
     ("spread", "open-misere"), ("lay down misere", "open-misere"), ("nello", "nello"),
     ("Across The Corner", "across-the-corner"), ("across_the_table", "across-the-table")],
)
def test_bid_parse_forms(text, canonical):
    assert str(Bid.parse(text)) == canonical


@pytest.mark.parametrize("text", ["5H", "11S", "7X", "", "misery", "7", "NT"])
def test_bad_bid_is_a_value_error(text):
    with pytest.raises(ValueError, match="not a bid"):
        Bid.parse(text)


def test_every_bid_round_trips_through_its_text():
    bids = [Bid.parse(f"{t}{s}") for t in AVONDALE for s in STRAINS]
    bids += [Bid.parse(kind.value) for kind in Contract
             if kind not in (Contract.TRICKS, Contract.J5)]
    bids += [Bid.parse(f"{t}J5") for t in AVONDALE]
    for bid in bids:
        assert Bid.parse(str(bid)) is bid
        assert pickle.loads(pickle.dumps(bid)) is bid


def test_trick_bid_fields():
    bid = Bid.parse("8D")
    assert (bid.tricks, bid.trump, bid.contract) == (8, Suit.DIAMONDS, Contract.TRICKS)
    assert Bid.parse("9NT").trump is None
    assert not bid.is_misere_type


def test_special_bids_aim_at_no_tricks():
    for text in ("misere", "open-misere", "nello", "across-the-corner", "across-the-table"):
        bid = Bid.parse(text)
        assert bid.is_misere_type
        assert bid.tricks == 0 and bid.trump is None


def ladder(rules: Rules) -> list[str]:
    return [str(bid) for bid in rules.bid_ladder]


def between(order: list[str], low: str, bid: str, high: str) -> bool:
    return order.index(low) + 1 == order.index(bid) == order.index(high) - 1


def test_trick_bids_are_ordered_by_value_in_every_preset():
    for name in ("classic", "australian", "american", "online"):
        values = [b.value for b in Rules.preset(name).bid_ladder if not b.is_misere_type]
        assert values == sorted(values)
        assert len(values) == 25


def test_classic_has_only_trick_bids():
    order = ladder(Rules.preset("classic"))
    assert order[0] == "6S" and order[-1] == "10NT" and len(order) == 25


def test_australian_misere_sits_between_7nt_and_8s():
    assert between(ladder(Rules.preset("australian")), "7NT", "misere", "8S")


def test_online_misere_sits_at_its_value_between_8s_and_8c():
    order = ladder(Rules.preset("online"))
    assert order.index("8S") + 1 == order.index("misere")
    assert order.index("misere") < order.index("8C")


def test_open_misere_sits_between_10d_and_10h():
    for name in ("australian", "online"):
        order = ladder(Rules.preset(name))
        assert order.index("10D") + 1 == order.index("open-misere")
        assert order.index("open-misere") < order.index("10H")


def test_across_the_corner_is_just_above_misere():
    assert between(ladder(Rules.preset("online")), "misere", "across-the-corner", "8C")


def test_across_the_corner_follows_misere_after_sevens_too():
    rules = rules_of("online", misere_placement="after_seven")
    assert between(ladder(rules), "misere", "across-the-corner", "8S")


def test_across_the_table_is_above_spread_and_below_10h():
    assert between(ladder(Rules.preset("online")), "open-misere", "across-the-table", "10H")


def test_american_nello_comes_after_7nt_and_beats_everything_below_8s():
    assert between(ladder(Rules.preset("american")), "7NT", "nello", "8S")


def test_specials_are_only_in_the_ladder_when_allowed():
    assert "misere" not in ladder(Rules.preset("american"))
    assert "nello" not in ladder(Rules.preset("online"))
    assert "across-the-table" not in ladder(Rules.preset("australian"))


def test_bid_rank_matches_ladder_position():
    rules = Rules.preset("online")
    for position, bid in enumerate(rules.bid_ladder):
        assert rules.bid_rank[bid] == position


def test_bid_parse_refuses_non_text():
    with pytest.raises(ValueError):
        Bid.parse(7)  # type: ignore[arg-type]
