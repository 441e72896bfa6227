"""The parts the 1000 engine is assembled from: the phase table, the seats' order, copies, and
the view's typed shape, which must name exactly the keys the views carry."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardroom.games.phases import next_seat, next_seats, seat_mask
from cardroom.games.thousand import Game, IllegalAction, Rules
from cardroom.games.thousand.game import PHASES
from cardroom.games.thousand.shapes import (
    BarrelView,
    BidRange,
    ContractView,
    GiftView,
    HandView,
    HighBid,
    MarriageView,
    Penalty,
    PlayedCard,
    SeatBid,
    ThousandView,
    TrickView,
)
from tests.thousand.test_properties import choose

NESTED_SHAPES: dict[str, type] = {"bidding": SeatBid, "gifts": GiftView,
                                  "marriages": MarriageView, "trick": PlayedCard,
                                  "tricks": TrickView, "barrel": BarrelView,
                                  "history": HandView}
"""The view's lists of dicts, by key, and the shape of each dict."""
OPTIONAL_SHAPES: dict[str, type] = {"high_bid": HighBid, "bid_range": BidRange,
                                    "contract": ContractView}
"""The view's dicts (``None`` at times), by key, and the shape of each."""


def random_games(count: int, players: int) -> list[Game]:
    """Matches of random (cautious) play, stopped at a random point of their second deal or
    later, on the lowest target so that some are over."""
    games = []
    for seed in range(count):
        rng = random.Random(f"parts:{seed}")
        rules = Rules.preset("russian" if seed % 2 else "seed").replace(
            players=players, target=200, barrel=None, bolts=1)
        game = Game.new(rules, seed=seed)
        for _ in range(rng.randrange(40, 400)):
            if game.is_over:
                break
            game.apply(choose(game, rng))
        games.append(game)
    return games


def test_next_seats_skip_the_seat_that_sits_out() -> None:
    assert next_seats((0, 1, 3), 4) == (1, 3, 3, 0)
    assert next_seat(3, [1, 2], 4) == 1
    assert seat_mask((0, 2, 3)) == 0b1101


def test_the_phase_table_holds_every_phase_a_match_goes_through() -> None:
    seen = set()
    for preset in ("seed", "russian"):
        game = Game.new(preset, seed=5)
        rng = random.Random(preset)
        while len(game.history) < 3:
            seen.add(game.phase)
            game.apply(choose(game, rng))
    assert seen == set(PHASES)


def test_a_refused_action_leaves_the_record_as_it_was() -> None:
    game = Game.new("seed", seed=4)
    before = game.record.to_dict()
    with pytest.raises(IllegalAction):
        game.apply("bid 105 blind")
    assert game.record.to_dict() == before


def test_a_copy_shares_no_list_with_the_original() -> None:
    for game in random_games(6, 4):
        twin = game.copy()
        for name, value in vars(game).items():
            if isinstance(value, list | dict):
                assert getattr(twin, name) is not value, name
                assert getattr(twin, name) == value, name


def _check_shape(value: dict[str, Any], shape: type, where: str) -> None:
    assert set(value) == set(shape.__annotations__), where


@pytest.mark.parametrize("players", [3, 4])
def test_the_view_has_exactly_the_keys_of_its_shape(players: int) -> None:
    for game in random_games(12, players):
        for seat in (*range(game.players), None):
            view = game.view(seat)
            _check_shape(dict(view), ThousandView, "view")
            for key, shape in NESTED_SHAPES.items():
                for item in view[key]:  # type: ignore[literal-required]
                    _check_shape(item, shape, key)
            for key, shape in OPTIONAL_SHAPES.items():
                if view[key] is not None:  # type: ignore[literal-required]
                    _check_shape(view[key], shape, key)  # type: ignore[literal-required]
            for result in view["history"]:
                for penalty in result["penalties"]:
                    _check_shape(dict(penalty), Penalty, "penalties")
