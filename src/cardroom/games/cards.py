"""Cards, suits, ranks and their notation, shared by every game of the card room.

A card is an interned :class:`Card` object with an integer ``index``; a set of cards is an ``int``
bit mask (bit ``index`` set for each card). The engines keep hands, tricks and the kitty as masks
so that legal moves and trick winners come from a few integer operations, while the public API
hands out friendly :class:`Card` objects that print as ``"10H"`` and parse back.

Layout of the index: ``suit * 16 + rank`` for the 64 suited cards, then the jokers. Every
game's deals shuffle with :func:`shuffle`.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Iterator
from enum import IntEnum
from functools import cache
from typing import TypeVar, cast

T = TypeVar("T")


def parsed_already(value: object, kind: type[T], what: str) -> T | None:
    """The start of every notation parser: ``value`` itself if it is a ``kind`` already,
    ``None`` if it is text to parse, ``ValueError`` ("not {what}: …") for anything else."""
    if isinstance(value, kind):
        return value
    if not isinstance(value, str):
        raise ValueError(f"not {what}: {value!r}")
    return None


class Suit(IntEnum):
    """The four suits, numbered in 500's bidding seniority (spades lowest, hearts highest)."""

    SPADES = 0
    CLUBS = 1
    DIAMONDS = 2
    HEARTS = 3

    @property
    def letter(self) -> str:
        """One-letter notation: ``S C D H``."""
        return "SCDH"[self]

    @property
    def symbol(self) -> str:
        """The suit symbol: ``♠ ♣ ♦ ♥``."""
        return "♠♣♦♥"[self]

    @property
    def is_red(self) -> bool:
        """Hearts and diamonds are red; spades and clubs black."""
        return self in (Suit.DIAMONDS, Suit.HEARTS)

    @property
    def same_colour(self) -> Suit:
        """The other suit of the same colour (home of the left bower in 500)."""
        return Suit(self ^ 1)

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Parse ``S``/``♠``/``spades`` (any case) into a suit; ``ValueError`` otherwise."""
        key = text.strip().lower()
        try:
            return _SUIT_WORDS[key]
        except KeyError:
            raise ValueError(f"not a suit: {text!r} (use S, C, D, H or ♠ ♣ ♦ ♥)") from None

    def __str__(self) -> str:
        return self.letter


_SUIT_WORDS: dict[str, Suit] = {}
for _suit in Suit:
    for _word in (_suit.letter, _suit.symbol, _suit.name, _suit.name[:-1]):
        _SUIT_WORDS[_word.lower()] = _suit
_SUIT_WORDS.update({"♤": Suit.SPADES, "♧": Suit.CLUBS, "♢": Suit.DIAMONDS, "♡": Suit.HEARTS})


class Rank(IntEnum):
    """Ranks, numbered by their order in a plain suit of 500 (A K Q J 13 12 11 10 … 2).

    The six-handed 500 deck adds 11, 12 and 13 between the jack and the ten. Other games
    (1000) impose their own order through their own tables; the number here only fixes the
    card's bit position.
    """

    TWO = 0
    THREE = 1
    FOUR = 2
    FIVE = 3
    SIX = 4
    SEVEN = 5
    EIGHT = 6
    NINE = 7
    TEN = 8
    ELEVEN = 9
    TWELVE = 10
    THIRTEEN = 11
    JACK = 12
    QUEEN = 13
    KING = 14
    ACE = 15

    @property
    def label(self) -> str:
        """Notation: ``2``…``10``, ``11``, ``12``, ``13``, ``J``, ``Q``, ``K``, ``A``."""
        return _RANK_LABELS[self]

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Parse a rank label (``T`` is accepted for 10); ``ValueError`` otherwise."""
        try:
            return _RANK_WORDS[text.strip().upper()]
        except KeyError:
            raise ValueError(f"not a rank: {text!r}") from None

    def __str__(self) -> str:
        return self.label


_RANK_LABELS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "J", "Q", "K", "A"]
_RANK_WORDS = {label: Rank(i) for i, label in enumerate(_RANK_LABELS)}
_RANK_WORDS["T"] = Rank.TEN

JOKER_INDEX = 64
"""Index of the joker (the only joker in most decks; the red/coloured one when there are two)."""
BLACK_JOKER_INDEX = 65
"""Index of the second, black-and-white joker of two-joker decks (it beats the coloured one)."""
CARD_COUNT = 66
"""Size of the index space: 64 suited cards and two jokers."""


class Card:
    """One playing card. Instances are interned: ``Card.parse("AS") is Card.parse("as")``.

    ``card.index`` is its bit position, ``card.mask`` is ``1 << index``; ``card.suit`` and
    ``card.rank`` are ``None`` for a joker.
    """

    __slots__ = ("index", "mask", "rank", "suit", "text")

    index: int
    mask: int
    rank: Rank | None
    suit: Suit | None
    text: str

    def __init__(self, index: int) -> None:
        if not 0 <= index < CARD_COUNT:
            raise ValueError(f"card index out of range: {index}")
        self.index = index
        self.mask = 1 << index
        if index >= JOKER_INDEX:
            self.rank = None
            self.suit = None
            self.text = "JK" if index == JOKER_INDEX else "JK2"
        else:
            self.rank = Rank(index & 15)
            self.suit = Suit(index >> 4)
            self.text = self.rank.label + self.suit.letter

    @staticmethod
    def of(rank: Rank, suit: Suit) -> Card:
        """The card of this rank and suit."""
        return CARDS[suit * 16 + rank]

    @staticmethod
    def from_index(index: int) -> Card:
        """The interned card with this index."""
        return CARDS[index]

    @staticmethod
    def parse(text: str | Card) -> Card:
        """Parse ``"10H"``, ``"th"``, ``"A♠"``, ``"JK"``, ``"JK2"``; ``ValueError`` on bad text."""
        done = parsed_already(text, Card, "a card")
        if done is not None:
            return done
        cleaned = cast(str, text).strip().upper()
        if cleaned in _JOKER_WORDS:
            return CARDS[_JOKER_WORDS[cleaned]]
        match = _CARD_RE.fullmatch(cleaned)
        if not match:
            raise ValueError(f"not a card: {text!r} (write rank then suit, e.g. 10H, AS, JK)")
        return Card.of(Rank.parse(match["rank"]), Suit.parse(match["suit"]))

    @property
    def is_joker(self) -> bool:
        """True for either joker."""
        return self.index >= JOKER_INDEX

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Card({self.text!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Card) and other.index == self.index

    def __hash__(self) -> int:
        return self.index

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Card.from_index, (self.index,))


_CARD_RE = re.compile(r"(?P<rank>10|11|12|13|[2-9TJQKA])\s*(?P<suit>[SCDH♠♣♦♥♤♧♢♡])")
_JOKER_WORDS = {"JK": JOKER_INDEX, "JOKER": JOKER_INDEX, "JK1": JOKER_INDEX,
                "JK2": BLACK_JOKER_INDEX, "BLACK JOKER": BLACK_JOKER_INDEX}

CARDS: tuple[Card, ...] = tuple(Card(i) for i in range(CARD_COUNT))
"""Every card, by index."""
JOKER = CARDS[JOKER_INDEX]
BLACK_JOKER = CARDS[BLACK_JOKER_INDEX]

SUIT_MASKS: tuple[int, ...] = tuple(0xFFFF << (16 * s) for s in Suit)
"""Bit mask of all sixteen rank positions of each printed suit."""
JOKERS_MASK = (1 << JOKER_INDEX) | (1 << BLACK_JOKER_INDEX)


def iter_indexes(mask: int) -> Iterator[int]:
    """Yield the set bit positions of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


@cache
def _swaps(size: int) -> tuple[tuple[int, int, int], ...]:
    """(position, positions up to it, bits to draw) of each swap of a shuffle of ``size``."""
    return tuple((last, last + 1, (last + 1).bit_length()) for last in range(size - 1, 0, -1))


def shuffle(deck: list[int], rng: random.Random) -> None:
    """Shuffle ``deck`` in place exactly as ``rng.shuffle(deck)`` does (Fisher-Yates, each
    position's swap drawn with ``getrandbits`` and rejection), with no method call per card."""
    getrandbits = rng.getrandbits
    for last, size, bits in _swaps(len(deck)):
        pick = getrandbits(bits)
        while pick >= size:
            pick = getrandbits(bits)
        deck[last], deck[pick] = deck[pick], deck[last]


MASK_BYTES = (CARD_COUNT + 7) // 8
"""Bytes of a mask of cards."""
_LOW_BITS = tuple(tuple(bit for bit in range(8) if bits >> bit & 1) for bits in range(256))
BYTE_INDEXES = tuple(tuple(tuple(map((8 * byte).__add__, bits)) for bits in _LOW_BITS)
                     for byte in range(MASK_BYTES))
"""``BYTE_INDEXES[byte][value]``: the card indexes of a mask whose byte ``byte`` (lowest
first) is ``value``."""


def indexes_of(mask: int) -> list[int]:
    """The card indexes of a mask of cards, lowest first: :func:`iter_indexes` for masks of
    cards, read a byte at a time from tables instead of a bit at a time."""
    b0, b1, b2, b3, b4, b5, b6, b7, b8 = BYTE_INDEXES
    b = mask.to_bytes(MASK_BYTES, "little")
    return [*b0[b[0]], *b1[b[1]], *b2[b[2]], *b3[b[3]], *b4[b[4]], *b5[b[5]], *b6[b[6]],
            *b7[b[7]], *b8[b[8]]]


def cards_of(mask: int) -> list[Card]:
    """The cards of a mask, in index order."""
    return [CARDS[i] for i in indexes_of(mask)]


def mask_of(cards: Iterable[Card | str]) -> int:
    """The mask of some cards (or card texts)."""
    mask = 0
    for card in cards:
        mask |= Card.parse(card).mask
    return mask


def parse_cards(text: str) -> list[Card]:
    """Parse a space- or comma-separated list of cards: ``"AS 10H JK"``."""
    return [Card.parse(word) for word in re.split(r"[\s,]+", text.strip()) if word]


def format_cards(cards: Iterable[Card] | int) -> str:
    """Cards (or a mask) as space-separated notation."""
    if isinstance(cards, int):
        cards = cards_of(cards)
    return " ".join(str(card) for card in cards)
