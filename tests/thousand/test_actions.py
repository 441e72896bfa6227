"""The notation of 1000's actions: every form parses and prints back the same."""

from __future__ import annotations

import pytest

from cardroom.games.thousand import Action


@pytest.mark.parametrize("text", [
    "look", "pass", "bid 100", "bid 120 blind", "bet 160", "discard 9S JS 9C", "give 9S JC",
    "play AS", "play 10H", "play KH marriage", "play QD marriage",
])
def test_round_trip(text: str) -> None:
    action = Action.parse(text)
    assert str(action) == text
    assert Action.parse(str(action)) == action


def test_parsing_is_forgiving_about_case_and_order() -> None:
    assert str(Action.parse("  PLAY th  ")) == "play 10H"
    assert str(Action.parse("Bid 130 BLIND")) == "bid 130 blind"
    assert str(Action.parse("discard 9C JS 9S")) == "discard 9S JS 9C"  # sorted
    assert str(Action.parse("give JC 9S")) == "give JC 9S"  # order says who gets which
    assert str(Action.parse("play K♥ m")) == "play KH marriage"
    assert Action.parse("play AS") is Action.parse("play as")


@pytest.mark.parametrize("text", ["", "bid", "bid ten", "bet 120 blind", "play", "play AS KS",
                                  "fold", "look now", "bid 120 open"])
def test_nonsense_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        Action.parse(text)
