"""Dealing a hand of 500: a seeded shuffle, then bundles of 3-4-3 from the dealer's left with
cards to the kitty between the rounds.

Replays rely on a seed giving the same deal for ever, so the shuffle is written out
(:func:`cardroom.games.cards.shuffle`, shared with 1000) rather than left to
``random.shuffle``: it draws the same numbers from the generator in the same order, and the
layout of each deal (which position of the shuffled
deck goes to which seat) is worked out once per table shape and dealer.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache
from operator import itemgetter

from cardroom.games.cards import iter_indexes, shuffle
from cardroom.games.five_hundred.rules import Rules

BUNDLES = (3, 4, 3)
"""Cards to each player in the three rounds of the deal."""
KITTY_BUNDLES = {2: (1, 1, 0), 3: (1, 1, 1), 5: (3, 2, 0), 6: (2, 2, 2)}
"""Kitty cards dealt after each round of bundles (3, 4, 3 to each player), by kitty size."""


@cache
def deck_order(deck: int) -> tuple[int, ...]:
    """The card indexes of a deck mask, lowest first: the unshuffled deck."""
    return tuple(iter_indexes(deck))


BITS = tuple(1 << index for index in range(66))
"""The mask of each card index."""


@cache
def layout(players: int, kitty_size: int, dealer: int, dead_hands: int = 0) -> tuple[int, ...]:
    """The seat each position of the shuffled deck is dealt to (``players``: the kitty;
    ``players + 1`` and on: the dead hands).

    With dead hands (two players and a deck for three or four) the deal goes round the seats
    the deck is made for, and the empty ones get the dead hands: the dealer's left first (the
    US rules' two-hand game), then every other seat, so that the two players face each other.
    """
    owners: list[int] = []
    seats = players + dead_hands
    for bundle, to_kitty in zip(BUNDLES, KITTY_BUNDLES[kitty_size], strict=True):
        dealt_to = 0
        for offset in range(1, seats + 1):
            if offset % 2 and offset <= 2 * dead_hands:
                owner = players + 1 + offset // 2
            else:
                dealt_to += 1
                owner = (dealer + dealt_to) % players
            owners.extend([owner] * bundle)
        owners.extend([players] * to_kitty)
    return tuple(owners)


@cache
def pickers(players: int, kitty_size: int, dealer: int,
            dead_hands: int = 0) -> tuple[Callable[[list[int]], tuple[int, ...]], ...]:
    """For each seat, then the kitty, then each dead hand, what picks its cards out of the
    shuffled deck."""
    owners = layout(players, kitty_size, dealer, dead_hands)
    # Every seat and the kitty get two cards at least, so each picker gives a tuple.
    return tuple(itemgetter(*[p for p, o in enumerate(owners) if o == owner])
                 for owner in range(players + 1 + dead_hands))


def deal_cards(rules: Rules, rng: random.Random, dealer: int) -> tuple[list[int], int]:
    """Shuffle the deck and deal it in bundles of 3-4-3 from the dealer's left, kitty between.

    Returns the hands as masks (by seat, then the dead hands if the rules have any: see
    :func:`layout`) and the kitty mask. Any fixed pattern would do; this one is the
    traditional deal, and replays rely on it staying the same.
    """
    deck = list(deck_order(rules.deck_spec.mask))
    shuffle(deck, rng)
    masks = []
    for pick in pickers(rules.players, rules.kitty_size, dealer, rules.dead_hands):
        mask = 0
        for index in pick(deck):
            mask |= BITS[index]
        masks.append(mask)
    kitty = masks.pop(rules.players)
    return masks, kitty
