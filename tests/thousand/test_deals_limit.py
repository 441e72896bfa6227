"""A match of 1000 of a fixed number of deals (the ``deals`` option): it ends after its last
deal, a deal everybody passed counted, the highest score winning, unless somebody reached the
target earlier."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardroom.games.cards import cards_of
from cardroom.games.thousand import Action, Game, Rules, RulesError
from cardroom.games.thousand.scoring import deals_winner
from tests.thousand.helpers import finish_deal, new_game, rules_of, win_bidding

RULE_SETS: dict[str, Rules] = {
    "seed": Rules.preset("seed"),
    "russian": Rules.preset("russian"),
    "four-players": rules_of("seed", players=4),
    "low-target": rules_of("seed", target=100, barrel=None),
    "nobody-must-bid": rules_of("russian", first_bidder_must_bid=False),
}
"""The rules the random matches are played by (each with a number of deals on top)."""
RANDOM_MATCHES = [(name, seed) for name in RULE_SETS for seed in (1, 2, 3)]

STRONG = {1: "AH 10H KH QH AS AD AC"}
"""Seat 1 (the first bidder when seat 0 deals) takes every trick with these and the bank."""
STRONG_BANK = "10S 10D 10C"


def choose(game: Game, rng: random.Random) -> Action:
    """A random legal action; bidders mostly look, pass often and bid low; bets stay low (so
    that contracts are made now and then)."""
    legal = list(game.legal_actions())
    if game.phase == "bidding":
        if legal[0].kind == "look" and rng.random() < 0.8:
            return legal[0]
        passes = [a for a in legal if a.kind == "pass"]
        bids = [a for a in legal if a.kind == "bid"]
        if passes and (not bids or rng.random() < 0.6):
            return passes[0]
        return rng.choice(bids[:2])
    if game.phase == "bet":
        return rng.choice(legal[:2])
    return rng.choice(legal)


def play_match(name: str, deals: int, seed: int) -> tuple[Game, list[dict[str, Any]]]:
    """A seeded random match of :data:`RULE_SETS` ``name`` played to its end (after
    ``deals`` deals at most), and the events of its last action; no action but the last may
    end it."""
    game = Game.new(RULE_SETS[name].replace(deals=deals), seed=seed)
    rng = random.Random(f"thousand-deals-limit:{name}:{seed}")
    events: list[dict[str, Any]] = []
    while not game.is_over:
        assert len(game.actions) < 5_000, "the match did not end"
        assert not any(event["type"] == "match_over" for event in events)
        events = game.apply(choose(game, rng))
    return game, events


def reached(game: Game) -> bool:
    """Did somebody reach the target?"""
    return max(game.scores) >= game.rules.target


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
    assert twin.history == game.history and twin.view(None) == game.view(None)


def assert_best_wins(game: Game, winner: int) -> None:
    """The highest score won; a tie went to the last deal's contractor, else the lowest seat."""
    scores = game.scores
    tied = [seat for seat, score in enumerate(scores) if score == max(scores)]
    contractor = game.history[-1].contractor
    assert winner == (contractor if contractor in tied else tied[0])


# -- the rules ---------------------------------------------------------------------------------


@pytest.mark.parametrize("deals", [0, -3])
def test_a_match_has_at_least_one_deal(deals: int) -> None:
    with pytest.raises(RulesError, match="deals"):
        rules_of("seed", deals=deals)
    with pytest.raises(RulesError, match="deals"):
        Rules(deals=deals)


def test_deals_round_trips_and_no_preset_sets_it() -> None:
    rules = rules_of("russian", deals=5)
    assert rules.to_dict()["deals"] == 5 and Rules.from_dict(rules.to_dict()) == rules
    assert rules.preset_name is None
    assert all(Rules.preset(name).deals is None for name in Rules.PRESETS)


# -- random matches ----------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "seed"), RANDOM_MATCHES)
def test_a_one_deal_match_ends_after_its_deal(name: str, seed: int) -> None:
    game, events = play_match(name, 1, seed)
    winner = assert_over(game, events)
    assert len(game.history) == 1 and game.hand_number == 1
    kinds = [event["type"] for event in events]
    assert {"hand_scored", "all_passed"} & set(kinds) and "deal" not in kinds
    assert_best_wins(game, winner)
    assert_replays(game)


@pytest.mark.parametrize(("name", "seed"), RANDOM_MATCHES)
def test_a_three_deal_match_ends_after_three_unless_won_earlier(name: str, seed: int) -> None:
    game, events = play_match(name, 3, seed)
    winner = assert_over(game, events)
    assert len(game.history) <= 3
    if len(game.history) < 3:
        assert reached(game)
    if not reached(game):
        assert_best_wins(game, winner)
    assert_replays(game)


def test_most_three_deal_matches_play_three_deals() -> None:
    lengths = [len(play_match(name, 3, seed)[0].history)
               for name, seed in RANDOM_MATCHES]
    assert lengths.count(3) >= len(lengths) // 2, lengths


def test_no_deals_limit_plays_on_past_three_deals() -> None:
    game = Game.new(Rules.preset("seed"), seed=2)
    rng = random.Random("thousand-deals-limit:none")
    while not game.is_over and len(game.history) < 4:
        game.apply(choose(game, rng))
    assert len(game.history) == 4 and not game.is_over


# -- deals everybody passed --------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4])
def test_a_deal_everybody_passed_counts(players: int) -> None:
    rules = Rules(players=players, first_bidder_must_bid=False, blind_bidding=False, deals=1)
    game = Game.new(rules, seed=4)
    events: list[dict[str, Any]] = []
    for _ in range(3):
        events = game.apply("pass")
    assert [event["type"] for event in events] == ["pass", "all_passed", "match_over"]
    # Nobody scored and nobody was contractor: the tie goes to the lowest seat.
    assert assert_over(game, events) == 0 and game.scores == [0] * players
    assert len(game.history) == 1 and game.history[0].contractor is None
    assert_replays(game)


def test_a_passed_deal_is_one_of_several() -> None:
    rules = Rules(first_bidder_must_bid=False, blind_bidding=False, deals=2)
    game = Game.new(rules, seed=4)
    for _ in range(3):
        game.apply("pass")
    assert not game.is_over and game.hand_number == 2 and game.dealer == 1
    game.apply("bid 100")
    rng = random.Random("thousand-deals-limit:passed-then-played")
    events: list[dict[str, Any]] = []
    while not game.is_over:
        events = game.apply(choose(game, rng))
    winner = assert_over(game, events)
    assert len(game.history) == 2 and game.history[0].contractor is None
    assert game.history[1].contractor is not None
    assert_best_wins(game, winner)
    assert_replays(game)


# -- who wins ----------------------------------------------------------------------------------


def strong_deal(game: Game) -> Game:
    """Seat 1 bids and bets 120 on the strong hand (see :data:`STRONG`), puts the bank back
    and plays the deal out."""
    win_bidding(game, 120)
    bank = [str(card) for card in cards_of(game.dealt_bank)]
    game.apply(" ".join(["discard", *bank]))
    game.apply("bet 120")
    finish_deal(game)
    return game


def test_the_higher_score_wins_the_last_deal() -> None:
    game = strong_deal(new_game(rules_of("seed", deals=1), STRONG, STRONG_BANK))
    assert game.is_over and game.history[0].made and game.scores == [0, 120, 0]
    assert game.winner == 1


def test_the_usual_end_comes_first() -> None:
    """Two players at the target after the last deal: the usual rule (the contractor among
    them wins) decides, not the higher score."""
    rules = rules_of("seed", deals=1)
    game = new_game(rules, STRONG, STRONG_BANK)
    game.scores[1:] = [900, 1500]  # set by hand (not a replayable match): seat 2 far ahead
    strong_deal(game)
    assert game.is_over and game.scores == [0, 1020, 1500] and game.winner == 1


def game_at_its_last_deal(rules: Rules, scores: list[int], contractor: int | None) -> Game:
    """A match whose last deal is in the history, with these scores and contractor."""
    game = Game.new(rules.replace(deals=1), seed=0)
    game.history.append(None)  # type: ignore[arg-type]  # only its length is read
    game.scores = list(scores)
    game.contractor = contractor
    return game


@pytest.mark.parametrize(("players", "scores", "contractor", "winner"), [
    (3, [120, 80, 40], 1, 0),  # the higher score, contractor or not
    (3, [80, 120, 120], 0, 1),  # a tie without the contractor: the lowest seat
    (3, [80, 120, 120], 2, 2),  # a tie with the contractor: the contractor
    (3, [0, 0, 0], None, 0),  # a deal everybody passed: the lowest seat
    (3, [-120, -60, -60], None, 1),
    (4, [60, 60, 60, 100], 1, 3),
    (4, [100, 60, 100, 100], 3, 3),
    (4, [100, 60, 100, 100], 1, 0),
])
def test_the_deals_winner(players: int, scores: list[int], contractor: int | None,
                          winner: int) -> None:
    game = game_at_its_last_deal(Rules(players=players), scores, contractor)
    assert deals_winner(game) == winner


def test_no_deals_winner_before_the_last_deal_or_without_the_option() -> None:
    game = Game.new(rules_of("seed", deals=2), seed=0)
    game.history.append(None)  # type: ignore[arg-type]
    assert deals_winner(game) is None
    game.history.append(None)  # type: ignore[arg-type]
    assert deals_winner(game) == 0
    game = Game.new(Rules.preset("seed"), seed=0)
    game.history.extend([None] * 50)  # type: ignore[list-item]
    assert deals_winner(game) is None
