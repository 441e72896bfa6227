"""Rules options, the named presets of RULES.md 1.7, and house rules on top of them."""

from __future__ import annotations

import json

import pytest

from cardroom.games.cards import Card, cards_of
from cardroom.games.five_hundred import PRESET_NAMES, Rules, RulesError

PRESETS = ("classic", "australian", "american", "online")


def test_the_four_presets_exist():
    assert set(PRESETS) <= set(PRESET_NAMES)
    for name in PRESETS:
        assert Rules.preset(name).preset_name == name


def test_unknown_preset_is_a_rules_error_naming_the_choices():
    with pytest.raises(RulesError, match="classic"):
        Rules.preset("seven-handed")


def test_classic_preset():
    rules = Rules.preset("classic")
    assert rules.deck == "43" and rules.kitty_size == 3
    assert (rules.bidding, rules.rebid) == ("until_passed", "after_intervening_bid")
    assert not (rules.misere or rules.open_misere or rules.nello or rules.across_the_corner
                or rules.across_the_table)
    assert rules.all_pass == "redeal"
    assert rules.all_tricks_bonus == "none"
    assert (rules.target, rules.target_strict, rules.lose_at) == (500, False, -500)
    assert not rules.win_needs_bid


def test_australian_preset():
    rules = Rules.preset("australian")
    assert rules.deck == "43" and rules.kitty_size == 3
    assert rules.bidding == "until_passed"
    assert rules.misere and rules.misere_placement == "after_seven"
    assert rules.open_misere and not rules.open_misere_needs_misere
    assert not (rules.nello or rules.across_the_corner or rules.across_the_table)
    assert rules.all_pass == "next_dealer"
    assert rules.all_tricks_bonus == "slam_250"
    assert rules.win_needs_bid and rules.lose_at == -500 and rules.target == 500


def test_american_preset():
    rules = Rules.preset("american")
    assert rules.deck == "45" and rules.kitty_size == 5
    assert rules.bidding == "single" and rules.inkle
    assert rules.nello and not (rules.misere or rules.open_misere)
    assert rules.all_pass == "redeal"
    assert rules.all_tricks_bonus == "slam_250"
    assert rules.target == 500 and rules.target_strict
    assert rules.both_reach_target == "contractor"


def test_online_preset():
    rules = Rules.preset("online")
    assert rules.deck == "45" and rules.kitty_size == 5
    assert rules.bidding == "until_passed"
    assert rules.misere and rules.misere_placement == "by_value"
    assert rules.open_misere and rules.open_misere_needs_misere
    assert rules.across_the_corner and rules.across_the_table and not rules.nello
    assert rules.all_pass == "play_no_trump"
    assert rules.all_tricks_bonus == "sweep_plus_50"
    assert rules.nt_joker == "play_any_time" and rules.misere_joker_forced
    assert rules.misere_failure == "play_on"
    assert rules.win_needs_bid and rules.target == 500 and not rules.target_strict
    assert rules.lose_at == -500


@pytest.mark.parametrize(("deck", "size", "kitty"), [("43", 43, 3), ("45", 45, 5)])
def test_decks_deal_ten_cards_each_and_the_kitty(deck, size, kitty):
    spec = Rules(deck=deck).deck_spec
    assert spec.size == size == 40 + kitty
    assert spec.kitty == kitty


def test_43_deck_has_red_fours_only_and_one_joker():
    cards = {str(c) for c in cards_of(Rules(deck="43").deck_spec.mask)}
    assert {"4H", "4D", "JK", "5S", "AC"} <= cards
    assert not {"4S", "4C", "3H", "2D", "JK2"} & cards


def test_45_deck_is_ace_to_four_and_one_joker():
    cards = cards_of(Rules(deck="45").deck_spec.mask)
    suited = [c for c in cards if not c.is_joker]
    assert len(suited) == 44
    assert min(c.rank for c in suited) == Card.parse("4S").rank
    assert [c for c in cards if c.is_joker] == [Card.parse("JK")]


@pytest.mark.parametrize("name", PRESETS)
def test_to_dict_from_dict_round_trip(name):
    rules = Rules.preset(name)
    data = json.loads(json.dumps(rules.to_dict()))
    assert Rules.from_dict(data) == rules


def test_from_dict_starts_from_the_named_preset():
    assert Rules.from_dict({"preset": "american"}) == Rules.preset("american")


def test_from_dict_without_preset_starts_from_online():
    assert Rules.from_dict({}) == Rules.preset("online")


def test_house_rules_on_top_of_a_preset():
    rules = Rules.from_dict({"preset": "australian", "all_pass": "redeal", "target": 300})
    assert rules.all_pass == "redeal" and rules.target == 300
    assert rules.misere_placement == "after_seven"  # the rest is the preset's
    assert rules.preset_name is None


def test_replace_changes_options_and_validates():
    rules = Rules.preset("classic").replace(deck="45")
    assert rules.kitty_size == 5
    with pytest.raises(RulesError, match="deck"):
        Rules.preset("classic").replace(deck="52")
    with pytest.raises(RulesError, match="unknown"):
        Rules.preset("classic").replace(jokers=2)


def test_unknown_option_is_a_rules_error_naming_it():
    with pytest.raises(RulesError, match="kitty_cards"):
        Rules.from_dict({"preset": "classic", "kitty_cards": 3})


def test_unknown_preset_in_from_dict():
    with pytest.raises(RulesError, match="preset"):
        Rules.from_dict({"preset": "hexagonal"})


def test_non_text_preset_in_from_dict_is_a_rules_error():
    with pytest.raises(RulesError):
        Rules.from_dict({"preset": ["online"]})


def test_rules_must_be_a_mapping():
    with pytest.raises(RulesError, match="mapping"):
        Rules.from_dict(["online"])  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("option", "value", "hint"),
    [
        ("deck", "52", "'43', '45'"),
        ("all_pass", "shuffle", "redeal"),
        ("misere", "yes", "true or false"),
        ("target", "500", "whole number"),
        ("target", True, "whole number"),
        ("lose_at", 1.5, "whole number or null"),
        ("nt_joker", "sometimes", "play_any_time"),
    ],
)
def test_bad_value_is_a_rules_error_naming_the_allowed_values(option, value, hint):
    with pytest.raises(RulesError, match=option) as raised:
        Rules.from_dict({"preset": "classic", option: value})
    assert hint in str(raised.value)


def test_bad_value_in_the_constructor_is_refused_too():
    with pytest.raises(RulesError, match="bidding"):
        Rules(bidding="twice")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"preset": "classic", "open_misere": True, "open_misere_needs_misere": True},
         "requires misère"),
        ({"preset": "classic", "across_the_corner": True}, "require misère"),
        ({"preset": "classic", "across_the_table": True}, "require misère"),
        ({"preset": "australian", "nello": True}, "Nello"),
        ({"preset": "american", "rebid": "any_time"}, "single round"),
        ({"preset": "classic", "target": 0}, "target"),
        ({"preset": "classic", "lose_at": 100}, "lose_at"),
    ],
)
def test_impossible_combinations_are_refused_with_a_reason(changes, reason):
    with pytest.raises(RulesError, match=reason):
        Rules.from_dict(changes)


def test_lose_at_may_be_switched_off():
    assert Rules.from_dict({"preset": "classic", "lose_at": None}).lose_at is None


def test_rules_are_immutable_values():
    rules = Rules.preset("online")
    with pytest.raises(AttributeError):
        rules.deck = "43"  # type: ignore[misc]
    assert Rules.preset("online") == Rules(**Rules.PRESETS["online"])
    assert hash(Rules.preset("online")) == hash(Rules(**Rules.PRESETS["online"]))


def test_four_players_in_partnerships_opposite():
    assert Rules().players == 4
    assert Rules().teams == ((0, 2), (1, 3))


def test_every_presets_rules_page_says_where_its_rules_come_from() -> None:
    """The last section of each preset's rules names its source (two-handed: the US card
    makers' Two-Hand Five Hundred)."""
    from cardroom.games.five_hundred.rules import ALL_PRESET_NAMES
    from cardroom.games.five_hundred.text import PRESET_SOURCES, explain

    assert set(PRESET_SOURCES) == set(ALL_PRESET_NAMES)
    for name in ALL_PRESET_NAMES:
        last = explain(Rules.preset(name)).sections[-1]
        assert last.key == "source" and PRESET_SOURCES[name] in last.blocks[0].text
    assert "bicyclecards.com" in PRESET_SOURCES["two-handed"]
