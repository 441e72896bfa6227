"""The 1000 double-dummy solver against plain minimax and against the engine itself.

Endings come from random games of every preset (and house rules that change the play:
must-trump with marriages on any lead, a fourth player sitting out, no rounding, a blind
contract), played at random with marriages declared whenever offered, so that many endings
have trumps changed and marriages still to declare. The reference is plain minimax over
every legal play with no pruning, on :class:`Position` (the engine's ``playable``,
``trick_winner`` and ``score_deal``); the engine is the judge of the legal plays, of the
scoring, and of the solver's own best line played out in a real game.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace

import pytest

from cardroom.bots.thousand.solver import Position, Solver, makes, move_values, solve
from cardroom.games.cards import Card
from cardroom.games.thousand import Game, Rules

TABLES: dict[str, Rules] = {
    "seed": Rules.preset("seed"),
    "russian": Rules.preset("russian"),
    "must trump, marriages on any lead": Rules.preset("russian").replace(
        marriage_timing="when_leading", opponent_rounding="none"),
    "four players": Rules.preset("seed").replace(players=4),
}


def random_game(rules: Rules, seed: int, tricks_left: int, declare: float = 0.7) -> Game | None:
    """A game of ``rules`` in its first deal's play with ``tricks_left`` tricks to finish
    (mid-trick about half the time), reached by random play that declares a marriage when it
    may with probability ``declare``; ``None`` if the deal ended first."""
    rng = random.Random(seed)
    game = Game.new(rules, seed=seed)
    stop_mid_trick = rng.random() < 0.5
    while game.hand_number == 1 and not game.is_over:
        seat = game.to_act
        assert seat is not None
        legal = game.legal_actions()
        if game.phase == "play":
            left = game.hands[seat].bit_count()
            if left == tricks_left and (bool(game.trick) == stop_mid_trick or left == 1):
                return game
            married = [a for a in legal if a.marriage]
            game.apply(married[0] if married and rng.random() < declare else rng.choice(legal))
        elif game.phase == "bidding":
            bids = [a for a in legal if a.kind == "bid"]
            looks = [a for a in legal if a.kind == "look"]
            game.apply(looks[0] if looks else bids[0] if bids and rng.random() < 0.3
                       else legal[0] if legal[0].kind == "pass" else rng.choice(legal))
        else:
            game.apply(rng.choice(legal) if len(legal) < 50 else legal[rng.randrange(len(legal))])
    return None


def endings(rules: Rules, tricks_left: int, count: int, declare: float = 0.7) -> Iterator[Game]:
    """``count`` random endings of ``rules`` with ``tricks_left`` tricks to finish."""
    found = 0
    for seed in range(2000):
        game = random_game(rules, seed, tricks_left, declare)
        if game is not None:
            yield game
            found += 1
            if found == count:
                return


def minimax(position: Position) -> int:
    """The margin with best play by all: every legal play tried, nothing pruned."""
    if not position.hands[position.to_play]:
        return position.deal.margin(position.card_points, position.marriage_points)
    values = [minimax(position.after(move)) for move in position.legal_moves()]
    return max(values) if position.to_play == position.deal.contractor else min(values)


def most_taken(position: Position) -> int:
    """The contractor's total (card points, marriages, counted discards) when it plays for
    the most and the defenders for the least: every legal play tried, nothing pruned."""
    deal = position.deal
    if not position.hands[position.to_play]:
        counted = deal.discard_points if deal.rules.count_discards else 0
        seat = deal.contractor
        return position.card_points[seat] + position.marriage_points[seat] + counted
    values = [most_taken(position.after(move)) for move in position.legal_moves()]
    return max(values) if position.to_play == deal.contractor else min(values)


def engine_moves(game: Game) -> set[tuple[int, bool]]:
    return {(a.card.index, a.marriage) for a in game.legal_actions()}


CASES = [(table, tricks) for table in TABLES for tricks in (1, 2, 3, 4)]


@pytest.mark.parametrize(("table", "tricks"), [(t, n) for t, n in CASES if n > 1])
def test_a_bet_is_made_exactly_when_the_contractor_can_force_it(table: str, tricks: int) -> None:
    """``makes`` (one probe of the search bot's final bet) says yes exactly for the bets up to
    the most the contractor can force, whatever the defenders' own points and the bet's
    doubling when blind."""
    for game in endings(TABLES[table], tricks, 6):
        position = Position.from_game(game)
        most = most_taken(position)
        for bet in (most - 10, most - 1, most, most + 1, most + 10):
            for blind in (False, True):
                deal = replace(position.deal, bet=max(bet, 1), blind=blind)
                assert makes(replace(position, deal=deal)) == (max(bet, 1) <= most), (bet, most)


@pytest.mark.parametrize(("table", "tricks"), CASES)
def test_the_solver_agrees_with_minimax(table: str, tricks: int) -> None:
    count = 12 if tricks < 4 else 5
    checked = changed = 0
    for game in endings(TABLES[table], tricks, count):
        position = Position.from_game(game)
        assert set(position.legal_moves()) == engine_moves(game)
        expected = {move: minimax(position.after(move)) for move in position.legal_moves()}
        assert move_values(position) == expected
        assert solve(position) == (max if position.to_play == position.deal.contractor
                                   else min)(expected.values())
        checked += 1
        changed += bool(game.marriages)
    assert checked == count
    assert changed or tricks > 2, "no ending with a marriage declared"


def test_endings_with_marriages_still_to_declare() -> None:
    """Endings where the seat to lead holds a whole marriage: declaring it is a move of its
    own, which the solver values as minimax does."""
    seen = 0
    for table in ("seed", "must trump, marriages on any lead"):
        for tricks in (2, 3, 4):
            for game in endings(TABLES[table], tricks, 400, declare=0.0):
                position = Position.from_game(game)
                if seen >= 12 or not any(declare for _, declare in position.legal_moves()):
                    continue
                expected = {move: minimax(position.after(move))
                            for move in position.legal_moves()}
                assert move_values(position) == expected
                seen += 1
    assert seen >= 6


@pytest.mark.parametrize("table", list(TABLES))
def test_the_engine_scores_the_solvers_line_as_solved(table: str) -> None:
    """Play each ending out in the real engine, every seat making the solver's best move:
    the engine's score of the deal is the margin the solver promised."""
    for game in endings(TABLES[table], 4, 6):
        promised = solve(Position.from_game(game))
        hand = game.hand_number
        while game.hand_number == hand and not game.is_over:
            position = Position.from_game(game)
            values = Solver(position).move_values()
            pick = max if position.to_play == position.deal.contractor else min
            card, declare = pick(values, key=lambda move: (values[move], move))
            game.apply(f"play {Card.from_index(card)}{' marriage' if declare else ''}")
        result = game.history[-1]
        points = result.points
        margin = 2 * points[result.contractor] - sum(  # type: ignore[index]
            points[s] for s in range(len(points)) if s != result.contractor)
        assert margin == promised


def test_a_blind_contract_and_the_barrel_score_as_the_engine() -> None:
    """Doubled points and a defender on the barrel (no points) reach the solver's leaves."""
    for seed, game in enumerate(endings(TABLES["seed"], 2, 8)):
        object.__setattr__(game, "blind", seed % 2 == 0)
        game.on_barrel[game.active[seed % 3]] = seed % 3 != game.contractor
        position = Position.from_game(game)
        assert solve(position) == minimax(position)
