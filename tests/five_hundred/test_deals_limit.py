"""A match of a fixed number of deals (the ``deals`` option): it ends after its last deal, a
deal everybody passed (or thrown in for a misdeal) counted, the highest score winning, unless a
side won or lost it earlier by the usual rules."""

from __future__ import annotations

import random
from typing import Any

import pytest
from tests.five_hundred.random_games import choose_action

from cardroom.games.five_hundred import Game, Rules, RulesError
from cardroom.games.five_hundred.scoring import deals_winner
from conftest import (
    MISERE_45,
    MISERE_45_KITTY,
    SUIT_EACH_43,
    SUIT_EACH_43_KITTY,
    finish_hand,
    new_game,
    rules_of,
    won_bid,
)

RANDOM_MATCHES = [(preset, policy, seed)
                  for preset in ("classic", "online", "american", "three-handed")
                  for policy, seed in (("uniform", 1), ("low", 2), ("passive", 3))]
"""(preset, bidding policy, seed) of the random matches played to a fixed number of deals."""


def play_match(rules: Rules, seed: int, policy: str) -> tuple[Game, list[dict[str, Any]]]:
    """A seeded random match played to its end, and the events of its last action; no action
    but the last may end it."""
    game = Game.new(rules, seed=seed)
    rng = random.Random(f"deals-limit:{seed}:{policy}")
    events: list[dict[str, Any]] = []
    while not game.is_over:
        assert len(game.actions) < 5_000, "the match did not end"
        assert not any(event["type"] == "match_over" for event in events)
        events = game.apply(choose_action(game, rng, policy))
    return game, events


def ended_as_usual(game: Game) -> bool:
    """Did a side reach the target, or fall to the losing score?"""
    rules = game.rules
    return any((score > rules.target if rules.target_strict else score >= rules.target)
               or (rules.lose_at is not None and score <= rules.lose_at)
               for score in game.scores)


def assert_over(game: Game, events: list[dict[str, Any]]) -> int:
    """The match is over with the usual last event; its winner."""
    assert game.is_over and game.phase == "over" and game.to_act is None
    assert game.legal_actions() == []
    assert events[-1] == {"type": "match_over", "winner": game.winner,
                          "scores": list(game.scores)}
    winner = game.winner
    assert winner is not None
    return winner


def assert_replays(game: Game) -> None:
    """The match's record replays to the same finished match."""
    twin = Game.replay(game.record)
    assert twin.is_over and twin.winner == game.winner and twin.scores == game.scores
    assert [h.to_dict() for h in twin.history] == [h.to_dict() for h in game.history]
    assert twin.view(0) == game.view(0)


# -- the rules ---------------------------------------------------------------------------------


@pytest.mark.parametrize("deals", [0, -1])
def test_a_match_has_at_least_one_deal(deals: int) -> None:
    with pytest.raises(RulesError, match="deals"):
        rules_of("classic", deals=deals)
    with pytest.raises(RulesError, match="deals"):
        Rules.preset("online").replace(deals=deals)


def test_deals_round_trips_and_no_preset_sets_it() -> None:
    rules = rules_of("australian", deals=3)
    assert rules.deals == 3 and rules.to_dict()["deals"] == 3
    assert Rules.from_dict(rules.to_dict()) == rules
    assert rules.preset_name is None
    assert all(Rules.preset(name).deals is None for name in Rules.PRESETS)
    assert Rules.from_dict({"preset": "classic", "deals": None}) == Rules.preset("classic")


# -- random matches ----------------------------------------------------------------------------


@pytest.mark.parametrize(("preset", "policy", "seed"), RANDOM_MATCHES)
def test_a_one_deal_match_ends_after_its_hand(preset: str, policy: str, seed: int) -> None:
    game, events = play_match(rules_of(preset, deals=1), seed, policy)
    winner = assert_over(game, events)
    assert len(game.history) == 1 and game.hand_number == 1
    kinds = [event["type"] for event in events]
    assert {"hand_scored", "all_passed", "misdeal"} & set(kinds) and "deal" not in kinds
    scores = game.scores
    assert scores[winner] == max(scores)
    tied = [side for side, score in enumerate(scores) if score == max(scores)]
    if len(tied) > 1 and not ended_as_usual(game):
        contractor = game.history[-1].contractor
        side = None if contractor is None else game.rules.side_of[contractor]
        assert winner == (side if side in tied else tied[0])
    assert_replays(game)


@pytest.mark.parametrize(("preset", "policy", "seed"), RANDOM_MATCHES)
def test_a_three_deal_match_ends_after_three_unless_won_earlier(preset: str, policy: str,
                                                               seed: int) -> None:
    game, events = play_match(rules_of(preset, deals=3), seed, policy)
    winner = assert_over(game, events)
    assert len(game.history) <= 3
    if len(game.history) < 3:
        assert ended_as_usual(game)
    elif not ended_as_usual(game):
        assert game.scores[winner] == max(game.scores)
    assert_replays(game)


def test_most_three_deal_matches_play_three_deals() -> None:
    lengths = [len(play_match(rules_of(preset, deals=3), seed, policy)[0].history)
               for preset, policy, seed in RANDOM_MATCHES]
    assert lengths.count(3) >= len(lengths) // 2, lengths


def test_no_deals_limit_plays_on_past_three_deals() -> None:
    game = Game.new(Rules.preset("classic"), seed=2)
    rng = random.Random("deals-limit:none")
    while not game.is_over and len(game.history) < 4:
        game.apply(choose_action(game, rng, "low"))
    assert len(game.history) == 4 and not game.is_over


# -- deals thrown in ---------------------------------------------------------------------------


@pytest.mark.parametrize("all_pass", ["redeal", "next_dealer", "redeal_then_pass_deal"])
def test_a_deal_everybody_passed_counts(all_pass: str) -> None:
    game = Game.new(rules_of("classic", all_pass=all_pass, deals=1), seed=5)
    for _ in range(3):
        game.apply("pass")
    events = game.apply("pass")
    assert [event["type"] for event in events] == ["pass", "all_passed", "match_over"]
    assert events[1]["outcome"] == all_pass
    # 0 to 0, and nobody was contractor: the tie goes to the first side.
    assert assert_over(game, events) == 0 and game.scores == [0, 0]
    assert len(game.history) == 1 and game.history[0].contract is None
    assert_replays(game)


def test_a_passed_deal_is_one_of_several() -> None:
    game = Game.new(rules_of("classic", deals=2), seed=5)
    for _ in range(4):
        game.apply("pass")
    assert not game.is_over and game.hand_number == 2 and game.phase == "bidding"
    rng = random.Random("deals-limit:passed-then-played")
    events: list[dict[str, Any]] = []
    while not game.is_over:
        events = game.apply(choose_action(game, rng, "low"))
    winner = assert_over(game, events)
    assert len(game.history) == 2 and game.history[0].contract is None
    assert game.history[1].contract is not None
    assert game.scores[winner] == max(game.scores)
    assert_replays(game)


def test_a_passed_deal_played_in_no_trumps_counts_once() -> None:
    game = Game.new(rules_of("online", deals=1), seed=7)
    for _ in range(4):
        game.apply("pass")
    assert game.phase == "play" and not game.is_over
    rng = random.Random("deals-limit:no-trumps")
    events: list[dict[str, Any]] = []
    while not game.is_over:
        events = game.apply(choose_action(game, rng, "uniform"))
    winner = assert_over(game, events)
    assert len(game.history) == 1 and game.history[0].contract is None
    scores = game.scores
    assert scores[winner] == max(scores)
    if scores[0] == scores[1]:  # 5 tricks each: no contractor, so the first side
        assert winner == 0
    assert_replays(game)


def test_a_misdeal_counts_as_a_deal() -> None:
    rules = rules_of("online", misdeal_no_face=True, deals=1)
    game = new_game(rules, MISERE_45, MISERE_45_KITTY)  # seat 0, first to speak, has no face
    events = game.apply("misdeal")
    assert [event["type"] for event in events] == ["misdeal", "match_over"]
    assert assert_over(game, events) == 0 and len(game.history) == 1
    assert_replays(game)


# -- who wins ----------------------------------------------------------------------------------


def test_the_usual_end_comes_first() -> None:
    """Both sides at the target after the last deal: the usual rule (the contractor's side)
    decides, not the higher score."""
    rules = rules_of("classic", deals=1, both_reach_target="contractor")
    game = new_game(rules, SUIT_EACH_43, SUIT_EACH_43_KITTY)
    game.scores[1] = 600  # side 1 ahead before the hand (set by hand: not a replayable match)
    won_bid(game, "10H", discard="4H 5H 6H")
    finish_hand(game)
    assert game.is_over and game.scores == [500, 600] and game.winner == 0


def test_the_higher_score_wins_the_last_deal() -> None:
    rules = rules_of("classic", deals=1)
    game = new_game(rules, SUIT_EACH_43, SUIT_EACH_43_KITTY, dealer=0)
    won_bid(game, "6S", discard="4H JD 5S")  # seat 1 holds every trump but the left bower
    finish_hand(game)
    assert game.is_over and game.history[0].made and game.scores == [0, 40]
    assert game.winner == 1


def game_at_its_last_deal(preset: str, scores: list[int], contractor: int | None) -> Game:
    """A one-deal match whose deal is in the history, with these scores and contractor."""
    game = Game.new(rules_of(preset, deals=1), seed=0)
    game.history.append(None)  # type: ignore[arg-type]  # only its length is read
    game.scores = list(scores)
    game.contractor = contractor
    return game


@pytest.mark.parametrize(("preset", "scores", "contractor", "winner"), [
    ("classic", [120, 80], 1, 0),  # the higher score, contractor or not
    ("classic", [80, 120], 0, 1),
    ("classic", [100, 100], 1, 1),  # a tie: the contractor's side
    ("classic", [100, 100], 3, 1),  # (its partner's seat)
    ("classic", [100, 100], 2, 0),
    ("classic", [100, 100], None, 0),  # no contractor: the first side
    ("three-handed", [30, 80, 80], 0, 1),  # the contractor not among the tied: the first
    ("three-handed", [30, 80, 80], 2, 2),
    ("three-handed", [-40, -40, -90], None, 0),
    ("three-handed", [-40, -40, -90], 2, 0),
])
def test_the_deals_winner(preset: str, scores: list[int], contractor: int | None,
                          winner: int) -> None:
    game = game_at_its_last_deal(preset, scores, contractor)
    assert deals_winner(game) == winner


def test_no_deals_winner_before_the_last_deal_or_without_the_option() -> None:
    game = Game.new(rules_of("classic", deals=2), seed=0)
    game.history.append(None)  # type: ignore[arg-type]
    assert deals_winner(game) is None
    game.history.append(None)  # type: ignore[arg-type]
    assert deals_winner(game) == 0
    game = Game.new(Rules.preset("classic"), seed=0)
    game.history.extend([None] * 50)  # type: ignore[list-item]
    assert deals_winner(game) is None
