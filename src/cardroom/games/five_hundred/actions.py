"""Actions of 500 and their text notation.

=======================  ==================================================================
``pass``                 pass / go "bye" in the bidding
``bid 7H``, ``bid 8NT``  a trick bid; ``bid misere``, ``bid open-misere``, ``bid nello``,
                         ``bid across-the-corner``, ``bid across-the-table``
``discard 4C 5C 6D``     the kitty exchange: the cards put back (any held cards)
``give 4C``              Nello's partner adds a card to the widow
``play JH``              play a card; ``play JK:H`` leads the joker in no trumps naming hearts
=======================  ==================================================================

``Action.parse(text)`` and ``str(action)`` round-trip. Pass, bid and play actions are interned,
so the engine hands out the same objects again and again without allocating.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from itertools import combinations
from math import comb
from typing import overload

from cardroom.games.cards import CARDS, JOKER_INDEX, Card, Suit, iter_indexes, parse_cards
from cardroom.games.five_hundred.bids import SPECIAL_BIDS, TRICK_BIDS, Bid

PASS = "pass"
BID = "bid"
DISCARD = "discard"
GIVE = "give"
PLAY = "play"
KINDS = (PASS, BID, DISCARD, GIVE, PLAY)


class Action:
    """One action: ``kind`` is one of ``pass bid discard give play``.

    ``bid`` is set for bids; ``cards`` holds the played, given or discarded cards (sorted for a
    discard); ``mask`` is their bit mask; ``nominated`` is the suit a led joker names.
    """

    __slots__ = ("bid", "cards", "kind", "mask", "nominated", "text")

    def __init__(self, kind: str, *, bid: Bid | None = None, cards: Sequence[Card] = (),
                 nominated: Suit | None = None) -> None:
        self.kind = kind
        self.bid = bid
        self.cards = tuple(sorted(cards)) if kind == DISCARD else tuple(cards)
        self.mask = 0
        for card in self.cards:
            self.mask |= card.mask
        self.nominated = nominated
        if kind == PASS:
            self.text = PASS
        elif kind == BID:
            self.text = f"bid {bid}"
        else:
            words = " ".join(str(card) for card in self.cards)
            suffix = f":{nominated.letter}" if nominated is not None else ""
            self.text = f"{kind} {words}{suffix}"

    @property
    def card(self) -> Card:
        """The single card of a play or give action."""
        return self.cards[0]

    @staticmethod
    def parse(text: str | Action) -> Action:
        """Parse the notation above; ``ValueError`` with a hint on anything else."""
        if isinstance(text, Action):
            return text
        if not isinstance(text, str):
            raise ValueError(f"not an action: {text!r}")
        words = text.strip().split(None, 1)
        if not words:
            raise ValueError("empty action: try 'pass', 'bid 7H', 'discard ...' or 'play AS'")
        kind, rest = words[0].lower(), (words[1] if len(words) > 1 else "")
        if kind in (PASS, "bye", "p") and not rest:
            return PASS_ACTION
        if kind == BID and rest:
            return BID_ACTIONS[Bid.parse(rest)]
        if kind == PLAY and rest:
            return _parse_play(rest)
        if kind == GIVE and rest:
            return Action(GIVE, cards=[Card.parse(rest)])
        if kind == DISCARD and rest:
            return Action(DISCARD, cards=parse_cards(rest))
        raise ValueError(f"not an action: {text!r} (try 'pass', 'bid 7H', 'bid misere', "
                         "'discard 4C 5C 6D', 'play JH' or 'play JK:H')")

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Action({self.text!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, str):
            try:
                other = Action.parse(other)
            except ValueError:
                return False
        return isinstance(other, Action) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Action.parse, (self.text,))


_JOKER_LEAD = re.compile(r"(?P<card>\S+?)\s*[:/]\s*(?P<suit>\S+)")


def _parse_play(rest: str) -> Action:
    match = _JOKER_LEAD.fullmatch(rest.strip())
    if match:
        card = Card.parse(match["card"])
        if card.index != JOKER_INDEX:
            raise ValueError(f"only the joker names a suit when led, not {card}")
        return JOKER_LEADS[Suit.parse(match["suit"])]
    return PLAY_ACTIONS[Card.parse(rest).index]


PASS_ACTION = Action(PASS)
BID_ACTIONS: dict[Bid, Action] = {
    bid: Action(BID, bid=bid) for bid in (*TRICK_BIDS.values(), *SPECIAL_BIDS.values())
}
PLAY_ACTIONS: tuple[Action, ...] = tuple(Action(PLAY, cards=[card]) for card in CARDS)
JOKER_LEADS: dict[Suit, Action] = {
    suit: Action(PLAY, cards=[CARDS[JOKER_INDEX]], nominated=suit) for suit in Suit
}
GIVE_ACTIONS: tuple[Action, ...] = tuple(Action(GIVE, cards=[card]) for card in CARDS)


class DiscardChoices(Sequence[Action]):
    """Every way to put ``count`` of the held cards back: a lazy, indexable sequence.

    There are thousands of discards (3,003 for 5 of 15), so they are never listed up front:
    ``len`` counts them, ``choices[i]`` builds the i-th in lexicographic order of the held
    cards, iteration walks them all, and ``in`` checks one in constant time.
    """

    def __init__(self, held: int, count: int) -> None:
        self.held = held
        self.count = count
        self._cards = [CARDS[i] for i in iter_indexes(held)]

    def __len__(self) -> int:
        return comb(len(self._cards), self.count)

    @overload
    def __getitem__(self, position: int) -> Action: ...
    @overload
    def __getitem__(self, position: slice) -> list[Action]: ...

    def __getitem__(self, position: int | slice) -> Action | list[Action]:
        if isinstance(position, slice):
            return [self[i] for i in range(*position.indices(len(self)))]
        total = len(self)
        if position < 0:
            position += total
        if not 0 <= position < total:
            raise IndexError("discard choice out of range")
        chosen: list[Card] = []
        start, left = 0, self.count
        while left:
            for index in range(start, len(self._cards)):
                block = comb(len(self._cards) - index - 1, left - 1)
                if position < block:
                    chosen.append(self._cards[index])
                    start, left = index + 1, left - 1
                    break
                position -= block
        return Action(DISCARD, cards=chosen)

    def __iter__(self) -> Iterator[Action]:
        for chosen in combinations(self._cards, self.count):
            yield Action(DISCARD, cards=chosen)

    def __contains__(self, action: object) -> bool:
        if isinstance(action, str):
            try:
                action = Action.parse(action)
            except ValueError:
                return False
        return (isinstance(action, Action) and action.kind == DISCARD
                and len(action.cards) == self.count == action.mask.bit_count()
                and action.mask & ~self.held == 0)

    def __repr__(self) -> str:
        return f"DiscardChoices({len(self)} ways to discard {self.count})"
