"""The 24-card pack of 1000, its card points, marriages and the two trick rules.

Cards are the shared :mod:`cardroom.games.cards` cards (bit ``suit * 16 + rank``); this module
only adds 1000's own tables: the pack, the order within a suit (A 10 K Q J 9), card points,
marriage values, who wins a trick and which cards may be played to it. Everything is an integer
table or a bit mask, so the engine and the search bots share the same fast rules.
"""

from __future__ import annotations

from itertools import combinations

from cardroom.games.cards import CARDS, SUIT_MASKS, Rank, Suit, iter_indexes

RANKS = (Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.NINE)
"""The six ranks of the pack, highest first (the ten ranks just below the ace)."""
CARD_POINTS_BY_RANK = {Rank.ACE: 11, Rank.TEN: 10, Rank.KING: 4, Rank.QUEEN: 3, Rank.JACK: 2,
                       Rank.NINE: 0}
"""What each rank counts in the tricks that win it: 120 in the whole pack."""
MARRIAGE_POINTS: tuple[int, ...] = (40, 60, 80, 100)
"""A marriage's value by suit: ♠ 40, ♣ 60, ♦ 80, ♥ 100 (index: :class:`Suit`)."""
PACK_POINTS = 120
"""Card points in the whole pack."""

PACK_MASK = 0
for _suit in Suit:
    for _rank in RANKS:
        PACK_MASK |= 1 << (_suit * 16 + _rank)

CARD_TEXT: tuple[str, ...] = tuple(card.text for card in CARDS)
"""Each card's notation (``"10H"``), by index."""
SUIT_LETTERS: tuple[str, ...] = tuple(suit.letter for suit in Suit)
"""Each suit's letter (``S C D H``), by suit number."""
PACK_ORDER: tuple[int, ...] = tuple(iter_indexes(PACK_MASK))
"""The card indexes of the pack, lowest first: the pack before it is shuffled."""
SUIT_IN_PACK: tuple[int, ...] = tuple(PACK_MASK & mask for mask in SUIT_MASKS)
"""Mask of the six cards of each suit."""
POINTS: tuple[int, ...] = tuple(
    CARD_POINTS_BY_RANK.get(card.rank, 0) if card.rank is not None else 0 for card in CARDS)
"""Card points by card index (0 for cards outside the pack)."""
STRENGTH: tuple[int, ...] = tuple(
    len(RANKS) - RANKS.index(card.rank) if card.rank in RANKS else 0 for card in CARDS)
"""Order within a suit by card index: ace 6, ten 5, king 4, queen 3, jack 2, nine 1."""
KING_QUEEN: tuple[int, ...] = tuple(
    (1 << (suit * 16 + Rank.KING)) | (1 << (suit * 16 + Rank.QUEEN)) for suit in Suit)
"""Mask of the marriage (king and queen) of each suit."""
_SUIT_PAIRS: tuple[tuple[Suit, int], ...] = tuple(zip(Suit, KING_QUEEN, strict=True))
"""Each suit with its marriage's mask (iterating a tuple is cheaper than the enum)."""


def subsets(mask: int, count: int) -> list[int]:
    """Every ``count``-card subset of ``mask``, as masks, in lexicographic order of cards."""
    return [sum(chosen) for chosen in combinations([1 << i for i in iter_indexes(mask)], count)]


SUIT_SUBSETS: tuple[int, ...] = tuple(
    mask for suit_mask in SUIT_IN_PACK for size in range(suit_mask.bit_count() + 1)
    for mask in subsets(suit_mask, size))
"""Every set of cards of one suit of the pack, as masks (the empty set among them): the keys
of tables that answer for a hand a suit at a time (``table[hand & SUIT_IN_PACK[suit]]``)."""
_POINTS_BY_SUIT: dict[int, int] = {mask: sum(POINTS[i] for i in iter_indexes(mask))
                                   for mask in SUIT_SUBSETS}


def points_of(mask: int) -> int:
    """Card points of a set of cards, a suit at a time from a table."""
    table = _POINTS_BY_SUIT
    s0, s1, s2, s3 = SUIT_IN_PACK
    return table[mask & s0] + table[mask & s1] + table[mask & s2] + table[mask & s3]


def marriages_in(mask: int) -> list[Suit]:
    """The suits whose king and queen are both in ``mask``."""
    return [suit for suit, pair in _SUIT_PAIRS if mask & pair == pair]


def is_marriage_card(index: int) -> bool:
    """True for a king or a queen (a card that can declare its marriage when led)."""
    return index & 15 in (Rank.KING, Rank.QUEEN)


def card_key(index: int, led: int, trump: int | None) -> int:
    """How strongly a card stands in a trick led in suit ``led``: trumps above the suit led,
    other suits nowhere (0); within a suit by :data:`STRENGTH`."""
    suit = index >> 4
    if suit == trump:
        return 20 + STRENGTH[index]
    if suit == led:
        return 10 + STRENGTH[index]
    return 0


_CARD_KEYS: dict[tuple[int, int | None], tuple[int, ...]] = {
    (led, trump): tuple(card_key(index, led, trump) for index in range(len(CARDS)))
    for led in Suit for trump in (None, *Suit)}
""":func:`card_key` of every card index, by the suit led and the trump."""


def trick_winner(trick: list[int], trump: int | None) -> int:
    """Position in ``trick`` of the winning card: the highest trump, else the highest card of
    the suit led (``trump`` is a suit number or ``None``)."""
    keys = _CARD_KEYS[trick[0] >> 4, trump]
    return trick.index(max(trick, key=keys.__getitem__))


def playable(hand: int, led: int | None, trump: int | None, must_trump: bool) -> int:
    """Mask of the cards of ``hand`` that may be played to a trick led in suit ``led``.

    Any card may be led; a player must follow suit if able, and otherwise (under
    ``must_trump``) must play a trump if holding one.
    """
    if led is None:
        return hand
    follow = hand & SUIT_IN_PACK[led]
    if follow:
        return follow
    if must_trump and trump is not None:
        trumps = hand & SUIT_IN_PACK[trump]
        if trumps:
            return trumps
    return hand
