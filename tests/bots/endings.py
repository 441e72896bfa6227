"""Endings of no-tricks contracts reached through the engine, and their best cards by the
engine's own score.

:func:`reach_ending` deals a hand whose first tricks are filler (every card of a filler trick
of one suit, so every play follows suit whatever else a hand holds, and the trick goes to the
seat the schedule names), has the contract bid as scripted, and plays the filler through the
engine: what is left is the ending, with the history, the tricks won and the views of a real
hand. :func:`best_cards` then finds the best cards of the seat to play by plain minimax over
the engine itself, each side playing for the points the engine scores the hand: the
objective is written out here, independently of the bots and of the solver.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardroom.bots.five_hundred.solver import next_seats
from cardroom.games.cards import JOKER_INDEX, Card, iter_indexes, mask_of
from cardroom.games.five_hundred import Game, Rules

TRICKS = 10


def reach_ending(rules: Rules, dealer: int, bids: Sequence[str], active: Sequence[int],
                 first_leader: int, ending: dict[int, str], winners: Sequence[int],
                 opening: Sequence[str] = (), scores: Sequence[int] | None = None) -> Game:
    """The game once the filler tricks (won by ``winners`` in turn) are played, then the
    ``opening`` cards of the ending. ``ending`` holds each active seat's last cards; the
    other cards go to the filler, the folded hands and the kitty (which the contractor and
    a partner given the discards put back unused). ``scores`` sets the match score first
    (Nello may only be bid by a side in the hole)."""
    deck = rules.deck_spec.mask
    kept = {seat: [Card.parse(text) for text in cards.split()] for seat, cards in ending.items()}
    left = len(next(iter(kept.values())))
    filler_tricks = TRICKS - left
    assert len(winners) == filler_tricks and all(len(c) == left for c in kept.values())
    free = deck & ~mask_of(card for cards in kept.values() for card in cards)
    free &= ~(1 << JOKER_INDEX)
    by_suit: dict[int, list[int]] = {}
    for index in iter_indexes(free):
        by_suit.setdefault(Card(index).suit, []).append(index)  # type: ignore[arg-type]
    after = next_seats(active)
    plays: list[list[tuple[int, int]]] = []
    filler = {seat: 0 for seat in active}
    leader = first_leader
    for winner in winners:
        suit = max(by_suit, key=lambda s: len(by_suit[s]))
        cards = sorted(by_suit[suit], key=lambda i: Card(i).rank)  # type: ignore[arg-type, return-value]
        assert len(cards) >= len(active), "not enough filler cards"
        chosen, by_suit[suit] = cards[-len(active):], cards[:-len(active)]
        order = [leader]
        while len(order) < len(active):
            order.append(after[order[-1]])
        others = [seat for seat in order if seat != winner]
        given = dict(zip(others, chosen[:-1], strict=True)) | {winner: chosen[-1]}
        plays.append([(seat, given[seat]) for seat in order])
        for seat, card in given.items():
            filler[seat] |= 1 << card
        leader = winner
    hands = [0] * rules.players
    for seat in active:
        hands[seat] = filler[seat] | mask_of(kept[seat])
    rest = [Card(i) for i in iter_indexes(deck & ~mask_of(Card(i) for h in hands
                                                           for i in iter_indexes(h)))]
    plan = list(hands)
    for seat in range(rules.players):
        while hands[seat].bit_count() < TRICKS:
            hands[seat] |= rest.pop().mask
    kitty = rest
    game = Game.from_deal(rules, dealer, [[str(Card(i)) for i in iter_indexes(h)] for h in hands],
                          [str(card) for card in kitty])
    if scores is not None:
        game.scores[:] = list(scores)
    for bid in bids:
        game.apply(bid)
    while game.phase != "play":
        seat: int = game.to_act  # type: ignore[assignment]
        view = game.view(seat)
        spare = [Card.parse(t) for t in view["hand"] if not plan[seat] & Card.parse(t).mask]
        if view["discard_count"]:
            game.apply("discard " + " ".join(str(c) for c in spare[:view["discard_count"]]))
        elif game.phase == "give":
            game.apply(f"give {spare[0]}")
        else:
            game.apply(view["legal_actions"][0])
    assert tuple(game.active) == tuple(active), game.active
    assert game.to_act == first_leader, (game.to_act, first_leader)
    for trick in plays:
        for seat, card in trick:
            assert game.to_act == seat
            game.apply(f"play {Card(card)}")
    for text in opening:
        game.apply(f"play {text}")
    assert game.phase == "play" and game.hand_number == 1
    return game


def hand_value(game: Game, side: Sequence[int]) -> float:
    """The points of the finished hand (the last line of the history): the contract's side
    less the best-scoring side against it."""
    result = game.history[-1]
    ours = {game.team_of[seat] for seat in side}
    theirs = [points for team, points in enumerate(result.points) if team not in ours]
    return sum(result.points[team] for team in ours) / len(ours) - max(theirs)


def best_cards(game: Game, side: Sequence[int]) -> tuple[set[str], dict[str, float]]:
    """The cards (as play actions) that are best for the seat to play, by minimax over the
    engine with the finished hand's points (:func:`hand_value`) as the objective: the seats in
    ``side`` want it high, the others low. Also each card's value."""
    hand = game.hand_number

    def value(state: Game) -> float:
        if state.hand_number != hand or state.is_over:
            return hand_value(state, side)
        results = []
        for action in state.legal_actions():
            after = state.copy()
            after.apply(action)
            results.append(value(after))
        return max(results) if state.to_act in side else min(results)

    values = {}
    for action in game.legal_actions():
        after = game.copy()
        after.apply(action)
        values[str(action)] = value(after)
    pick = max if game.to_act in side else min
    best = pick(values.values())
    return {a for a, v in values.items() if v == best}, values


def view_of(game: Game) -> dict[str, Any]:
    """The view of the seat to play."""
    return game.view(game.to_act)
