"""Tricks of 500: which suit a card belongs to, who must follow, and who wins.

A :class:`Strain` holds lookup tables for one trump suit (or no trumps), built once and cached:
each card's *effective* suit (the left bower and the joker belong to trumps), the mask of cards
that follow each suit, and a winning key per card for each suit led. The engine's hot path uses
only these tables and integer masks.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from cardroom.games.cards import (
    BLACK_JOKER_INDEX,
    CARD_COUNT,
    CARDS,
    JOKER_INDEX,
    Card,
    Rank,
    Suit,
)
from cardroom.games.five_hundred.bids import Bid

JOKER_SUIT = 4
"""Effective suit of the joker in no trumps: a suit of its own until it is led and names one."""

_TRUMP_KEY = 1000
_JOKER_WINS_KEY = 5000


class Strain:
    """Lookup tables for tricks played with ``trump`` as trumps (``None``: no trumps).

    - ``suit_of[i]``: effective suit of card ``i`` (0–3, or :data:`JOKER_SUIT`);
    - ``follow_mask[s]``: mask of the cards whose effective suit is ``s``;
    - ``keys[led][i]``: how strongly card ``i`` bids for a trick whose led suit is ``led``
      (0: it cannot win); the highest key in a trick wins it.

    Variants: ``joker_low`` (the jokers win nothing unless led, misère), ``jack_high`` (J5 no
    trumps: each jack above its ace), ``colour_four`` (the ``43-red-trump-4`` deck: the four of
    the trump suit's colour partner is the lowest trump) and ``joker_suit`` (no trumps with
    the jokers nominated into a suit, where they rank above its ace). With two jokers the
    black one (``JK2``) beats the other.
    """

    __slots__ = ("colour_four", "follow_mask", "jack_high", "joker_low", "joker_suit", "keys",
                 "suit_of", "trump")

    def __init__(self, trump: Suit | None, joker_low: bool = False, *, jack_high: bool = False,
                 colour_four: bool = False, joker_suit: Suit | None = None) -> None:
        self.trump = trump
        self.joker_low = joker_low
        self.jack_high = jack_high
        self.colour_four = colour_four
        self.joker_suit = joker_suit if trump is None else None
        self.suit_of = [0] * CARD_COUNT
        power = [0] * CARD_COUNT  # order within the card's effective suit
        for card in CARDS:
            if card.is_joker:
                continue
            self.suit_of[card.index] = int(card.suit)  # type: ignore[arg-type]
            power[card.index] = int(card.rank) + 1  # type: ignore[arg-type]
            if jack_high and card.rank is Rank.JACK:
                power[card.index] = int(Rank.ACE) + 2
        if trump is None:
            joker_home = JOKER_SUIT if self.joker_suit is None else int(self.joker_suit)
            self.suit_of[JOKER_INDEX] = self.suit_of[BLACK_JOKER_INDEX] = joker_home
            power[JOKER_INDEX], power[BLACK_JOKER_INDEX] = 31, 32
        else:
            right = Card.of(Rank.JACK, trump).index
            left = Card.of(Rank.JACK, trump.same_colour).index
            self.suit_of[left] = int(trump)
            self.suit_of[JOKER_INDEX] = self.suit_of[BLACK_JOKER_INDEX] = int(trump)
            power[right], power[left] = 30, 29
            power[JOKER_INDEX], power[BLACK_JOKER_INDEX] = 31, 32
            if colour_four:
                four = Card.of(Rank.FOUR, trump.same_colour).index
                self.suit_of[four] = int(trump)
                power[four] = 0
        self.follow_mask = [0] * 5
        for index in range(CARD_COUNT):
            self.follow_mask[self.suit_of[index]] |= 1 << index
        self.keys = []
        for led in range(5):
            keys = [0] * CARD_COUNT
            for index in range(CARD_COUNT):
                suit = self.suit_of[index]
                if trump is not None and suit == trump:
                    keys[index] = _TRUMP_KEY + power[index]
                elif index >= JOKER_INDEX and self.joker_suit is None:
                    keys[index] = 0 if joker_low else _JOKER_WINS_KEY + power[index]
                elif suit == led:
                    keys[index] = power[index]
            self.keys.append(keys)

    def winner(self, cards: Sequence[int], led: int) -> int:
        """Position in ``cards`` (card indexes in play order) of the card that wins."""
        keys = self.keys[led]
        best, best_key = 0, keys[cards[0]]
        for position in range(1, len(cards)):
            key = keys[cards[position]]
            if key > best_key:
                best, best_key = position, key
        return best

    def led_suit(self, card_index: int, nominated: Suit | None) -> int:
        """Effective suit led by a card: a joker led in no trumps leads the suit it names."""
        suit = self.suit_of[card_index]
        if suit == JOKER_SUIT and nominated is not None:
            return int(nominated)
        return suit


@cache
def strain_for(trump: Suit | None, joker_low: bool = False, *, jack_high: bool = False,
               colour_four: bool = False, joker_suit: Suit | None = None) -> Strain:
    """The cached :class:`Strain` of a trump suit (``None`` for no trumps) and variant."""
    return Strain(trump, joker_low, jack_high=jack_high, colour_four=colour_four,
                  joker_suit=joker_suit)


def _parse_strain(contract: Bid | Suit | str | None) -> Suit | None:
    if contract is None or isinstance(contract, Suit):
        return contract
    if isinstance(contract, Bid):
        return contract.trump
    text = contract.strip().upper()
    if text in ("NT", "NO TRUMPS", "NO-TRUMPS", "NOTRUMPS"):
        return None
    try:
        return Suit.parse(text)
    except ValueError:
        return Bid.parse(text).trump


def trick_winner(
    cards: Sequence[Card | str],
    contract: Bid | Suit | str | None,
    *,
    nominated: Suit | str | None = None,
    joker_low: bool = False,
    colour_four: bool = False,
) -> int:
    """Which card wins a trick: its position in ``cards`` (given in play order).

    ``contract`` is the trump suit (``"H"``, ``Suit.HEARTS``), ``"NT"``/``None`` for no trumps,
    or a bid (``"7H"``, ``Bid``; special contracts play in no trumps). ``nominated`` is the
    suit a joker led in no trumps names; ``colour_four`` plays the ``43-red-trump-4`` deck's
    extra trump. A J5 bid (``"7J5"``) ranks the jacks on top.
    ``trick_winner("10D JD 4H KD".split(), "H") == 1``.
    """
    if not cards:
        raise ValueError("a trick needs at least one card")
    jack_high = isinstance(contract, (Bid, str)) and str(contract).upper().endswith("J5")
    strain = strain_for(_parse_strain(contract), joker_low, jack_high=jack_high,
                        colour_four=colour_four)
    indexes = [Card.parse(card).index for card in cards]
    named = Suit.parse(nominated) if isinstance(nominated, str) else nominated
    return strain.winner(indexes, strain.led_suit(indexes[0], named))
