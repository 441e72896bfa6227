"""Rules of 1000: presets, house rules, refusals, rounding and the option catalogue."""

from __future__ import annotations

import pytest

from cardroom.games.thousand import PRESET_NAMES, Rules, RulesError
from cardroom.games.thousand.rules import OPTION_TYPES, thousand_option_catalogue


def test_presets_are_named_and_distinct() -> None:
    assert PRESET_NAMES == ("seed", "russian")
    seed, russian = Rules.preset("seed"), Rules.preset("russian")
    assert seed == Rules() and seed.preset_name == "seed"
    assert russian.preset_name == "russian"
    differ = {key for key in OPTION_TYPES if getattr(seed, key) != getattr(russian, key)}
    assert differ == {"bid_step", "marriage_cap", "blind_bidding", "bank_use", "must_trump",
                      "marriage_timing", "opponent_rounding", "barrel_hold", "barrel_count",
                      "bolts", "first_dealer"}


def test_house_rules_round_trip() -> None:
    rules = Rules.from_dict({"preset": "russian", "players": 4, "bolts": None})
    assert rules.players == 4 and rules.bolts is None and rules.preset_name is None
    assert Rules.from_dict(rules.to_dict()) == rules
    assert rules.replace(players=3, bolts=3) == Rules.preset("russian")


@pytest.mark.parametrize(("data", "message"), [
    ({"preset": "chess"}, "unknown preset"),
    ({"trumps": "always"}, "unknown rules option"),
    ({"bid_step": "10"}, "whole number"),
    ({"bank_use": "burn"}, "one of"),
    ({"players": 5}, "3 players, or 4"),
    ({"bid_step": 7}, "steps of 5 or 10"),
    ({"min_bid": 105}, "multiple of the bid step"),
    ({"marriage_cap": 90}, "allow the lowest bid"),
    ({"barrel": 1200}, "between 0 and the target"),
])
def test_impossible_rules_are_refused(data: dict[str, object], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        Rules.from_dict(data)


@pytest.mark.parametrize(("mode", "points", "rounded"), [
    ("tens", 36, 40), ("tens", 34, 30), ("tens", 35, 40), ("tens", 0, 0), ("tens", 120, 120),
    ("fives", 51, 50), ("fives", 53, 55), ("fives", 52, 50), ("fives", 57, 55),
    ("none", 37, 37),
])
def test_opponent_rounding(mode: str, points: int, rounded: int) -> None:
    assert Rules(opponent_rounding=mode).round_opponent(points) == rounded  # type: ignore[arg-type]


def test_bid_values_follow_step_and_cap() -> None:
    seed, russian = Rules.preset("seed"), Rules.preset("russian")
    assert list(seed.bid_values(None, capped=True))[:3] == [100, 110, 120]
    assert seed.bid_values(None, capped=True)[-1] == 300  # no cap in seed 003
    assert list(russian.bid_values(110, capped=True)) == [115, 120]
    assert russian.bid_values(110, capped=False)[-1] == 300


def test_catalogue_documents_every_option() -> None:
    catalogue = thousand_option_catalogue()
    assert [entry["name"] for entry in catalogue] == list(OPTION_TYPES)
    assert all(entry["doc"] for entry in catalogue)
    by_name = {entry["name"]: entry for entry in catalogue}
    assert by_name["bank_use"]["choices"] == ["discard", "give"]
    assert by_name["barrel"] == {**by_name["barrel"], "kind": "int", "nullable": True}
