"""A 500 view is exactly a :class:`FiveHundredView`: the typed structure bots, server and
browser rely on. (The property tests check every view of thousands of random matches; these
check that the check itself catches a wrong view.)"""

from __future__ import annotations

import copy

import pytest
from tests.shapes import check_shape

from cardroom.games.five_hundred import Game, Rules
from cardroom.games.five_hundred.shapes import FiveHundredView


def _view_in_play() -> dict:
    game = Game.new(Rules.preset("online"), seed=4)
    while game.phase != "play" or not game.view(game.to_act)["trick"]:
        game.apply(game.legal_actions()[0])
    return dict(game.view(game.to_act))


def test_a_view_in_play_has_its_shape() -> None:
    check_shape(_view_in_play(), FiveHundredView)


@pytest.mark.parametrize("spoil", ["extra_key", "nested_extra_key", "wrong_type",
                                   "missing_key", "nested_wrong_type"])
def test_a_wrong_view_is_caught(spoil: str) -> None:
    view = copy.deepcopy(_view_in_play())
    if spoil == "extra_key":
        view["kitty"] = ["JK"]
    elif spoil == "nested_extra_key":
        view["trick"][0]["hidden"] = "AS"
    elif spoil == "wrong_type":
        view["hand_number"] = "1"
    elif spoil == "missing_key":
        del view["legal_actions"]
    else:
        view["contract"]["slam"] = "no"
    with pytest.raises(AssertionError):
        check_shape(view, FiveHundredView)
