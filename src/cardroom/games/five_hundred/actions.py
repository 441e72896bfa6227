"""Actions of 500 and their text notation.

=======================  ==================================================================
``pass``                 pass / go "bye" in the bidding
``bid 7H``, ``bid 8NT``  a trick bid; ``bid misere``, ``bid open-misere``, ``bid nello``,
                         ``bid across-the-corner``, ``bid across-the-table``
``discard 4C 5C 6D``     the kitty exchange: the cards put back (any held cards)
``give 4C``              Nello's partner adds a card to the widow (after a slam call:
                         partner passes the card to the contractor)
``play JH``              play a card; ``play JK:H`` leads the joker in no trumps naming hearts
                         (``play JK2:H`` the black joker of a two-joker deck)
``misdeal``              a player with no face card asks for a new deal (option)
``slam``                 instead of discarding, a seven-bid contractor calls slam (option)
``call AS``              five players: the contractor names a partner's card (one per call)
``joker H``              in no trumps the contractor names the joker's suit before the first
                         lead; ``pass`` leaves the joker as it is (option)
``claim 4``              in the play: the claimant's side takes 4 of the tricks left and
                         concedes the rest (option ``claims``); ``claim 4 proven``: the room's
                         solver proved it, so it ends the hand at once
``accept``, ``refuse``   an opponent's answer to a claim not proven
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

from cardroom.games.actions import ActionText
from cardroom.games.cards import (
    BLACK_JOKER_INDEX,
    CARDS,
    JOKER_INDEX,
    Card,
    Suit,
    indexes_of,
    parse_cards,
)
from cardroom.games.five_hundred.bids import J5_BIDS, SPECIAL_BIDS, TRICK_BIDS, Bid

PASS = "pass"
BID = "bid"
DISCARD = "discard"
GIVE = "give"
PLAY = "play"
MISDEAL = "misdeal"
SLAM = "slam"
CALL = "call"
JOKER = "joker"
CLAIM = "claim"
ACCEPT = "accept"
REFUSE = "refuse"
PROVEN = "proven"
"""The word after a claim's count that marks it proven by the room's solver."""
KINDS = (PASS, BID, DISCARD, GIVE, PLAY, MISDEAL, SLAM, CALL, JOKER, CLAIM, ACCEPT, REFUSE)
MAX_CLAIM = 10
"""The most tricks a claim can name (a whole hand)."""


class Action(ActionText):
    """One action: ``kind`` is one of ``pass bid discard give play misdeal slam call joker
    claim accept refuse``.

    ``bid`` is set for bids; ``cards`` holds the played, given, called or discarded cards
    (sorted for a discard); ``mask`` is their bit mask; ``nominated`` is the suit a led joker
    names (or, for ``joker``, the suit the contractor gives the joker); ``claimed`` is the
    tricks a claim names and ``proven`` whether the room's solver proved it.
    """

    __slots__ = ("bid", "cards", "claimed", "kind", "mask", "nominated", "proven", "text")

    def __init__(self, kind: str, *, bid: Bid | None = None, cards: Sequence[Card] = (),
                 nominated: Suit | None = None, claimed: int = 0,
                 proven: bool = False) -> None:
        self.kind = kind
        self.claimed = claimed
        self.proven = proven
        self.bid = bid
        self.cards = tuple(sorted(cards)) if kind == DISCARD else tuple(cards)
        self.mask = 0
        for card in self.cards:
            self.mask |= card.mask
        self.nominated = nominated
        if kind in (PASS, MISDEAL, SLAM, ACCEPT, REFUSE):
            self.text = kind
        elif kind == CLAIM:
            self.text = f"claim {claimed} {PROVEN}" if proven else f"claim {claimed}"
        elif kind == BID:
            self.text = f"bid {bid}"
        elif kind == JOKER:
            self.text = f"joker {nominated.letter}"  # type: ignore[union-attr]
        else:
            words = " ".join(str(card) for card in self.cards)
            suffix = f":{nominated.letter}" if nominated is not None else ""
            self.text = f"{kind} {words}{suffix}"

    @classmethod
    def _parse_text(cls, text: str) -> Action:
        words = text.strip().split(None, 1)
        if not words:
            raise ValueError("empty action: try 'pass', 'bid 7H', 'discard ...' or 'play AS'")
        kind, rest = words[0].lower(), (words[1] if len(words) > 1 else "")
        if kind in (PASS, "bye", "p") and not rest:
            return PASS_ACTION
        if kind == MISDEAL and not rest:
            return MISDEAL_ACTION
        if kind == SLAM and not rest:
            return SLAM_ACTION
        if kind in (ACCEPT, REFUSE) and not rest:
            return ACCEPT_ACTION if kind == ACCEPT else REFUSE_ACTION
        if kind == CLAIM and rest:
            return _parse_claim(rest)
        if kind == CALL and rest:
            return CALL_ACTIONS[Card.parse(rest).index]
        if kind == JOKER and rest:
            return JOKER_SUIT_ACTIONS[Suit.parse(rest)]
        if kind == BID and rest:
            return BID_ACTIONS[Bid.parse(rest)]
        if kind == PLAY and rest:
            return _parse_play(rest)
        if kind == GIVE and rest:
            return Action(GIVE, cards=[Card.parse(rest)])
        if kind == DISCARD and rest:
            return Action(DISCARD, cards=parse_cards(rest))
        raise ValueError(f"not an action: {text!r} (try 'pass', 'bid 7H', 'bid misere', "
                         "'discard 4C 5C 6D', 'play JH', 'play JK:H', 'call AS', "
                         "'joker H', 'claim 4', 'accept' or 'refuse')")


def _parse_claim(rest: str) -> Action:
    """``claim N`` or ``claim N proven``: N is 0 to :data:`MAX_CLAIM` tricks."""
    words = rest.split()
    if (not 1 <= len(words) <= 2 or not (words[0].isascii() and words[0].isdigit())
            or int(words[0]) > MAX_CLAIM
            or words[1:] not in ([], [PROVEN])):
        raise ValueError(f"not a claim: 'claim {rest}' (try 'claim 4': the tricks your side "
                         f"takes of those left, 0 to {MAX_CLAIM})")
    return CLAIM_ACTIONS[int(words[0]), len(words) == 2]


_JOKER_LEAD = re.compile(r"(?P<card>\S+?)\s*[:/]\s*(?P<suit>\S+)")


def _parse_play(rest: str) -> Action:
    match = _JOKER_LEAD.fullmatch(rest.strip())
    if match:
        card = Card.parse(match["card"])
        if not card.is_joker:
            raise ValueError(f"only the joker names a suit when led, not {card}")
        leads = JOKER_LEADS if card.index == JOKER_INDEX else BLACK_JOKER_LEADS
        return leads[Suit.parse(match["suit"])]
    return PLAY_ACTIONS[Card.parse(rest).index]


PASS_ACTION = Action(PASS)
MISDEAL_ACTION = Action(MISDEAL)
SLAM_ACTION = Action(SLAM)
ACCEPT_ACTION = Action(ACCEPT)
REFUSE_ACTION = Action(REFUSE)
CLAIM_ACTIONS: dict[tuple[int, bool], Action] = {
    (tricks, proven): Action(CLAIM, claimed=tricks, proven=proven)
    for tricks in range(MAX_CLAIM + 1) for proven in (False, True)
}
"""Every claim by its count of tricks and whether it was proven."""
BID_ACTIONS: dict[Bid, Action] = {
    bid: Action(BID, bid=bid)
    for bid in (*TRICK_BIDS.values(), *SPECIAL_BIDS.values(), *J5_BIDS.values())
}
PLAY_ACTIONS: tuple[Action, ...] = tuple(Action(PLAY, cards=[card]) for card in CARDS)
JOKER_LEADS: dict[Suit, Action] = {
    suit: Action(PLAY, cards=[CARDS[JOKER_INDEX]], nominated=suit) for suit in Suit
}
BLACK_JOKER_LEADS: dict[Suit, Action] = {
    suit: Action(PLAY, cards=[CARDS[BLACK_JOKER_INDEX]], nominated=suit) for suit in Suit
}
GIVE_ACTIONS: tuple[Action, ...] = tuple(Action(GIVE, cards=[card]) for card in CARDS)
CALL_ACTIONS: tuple[Action, ...] = tuple(Action(CALL, cards=[card]) for card in CARDS)
JOKER_SUIT_ACTIONS: dict[Suit, Action] = {suit: Action(JOKER, nominated=suit) for suit in Suit}


def _discard(cards: Sequence[Card]) -> Action:
    """``Action(DISCARD, cards=cards)`` of cards already in index order, made without sorting
    them or formatting each again (a kitty exchange may list thousands)."""
    action = Action.__new__(Action)
    action.kind, action.bid, action.nominated = DISCARD, None, None
    action.claimed, action.proven = 0, False
    action.cards = tuple(cards)
    action.mask = sum(card.mask for card in cards)
    action.text = "discard " + " ".join([card.text for card in cards])
    return action


class DiscardChoices(Sequence[Action]):
    """Every way to put ``count`` of the held cards back: a lazy, indexable sequence.

    There are thousands of discards (3,003 for 5 of 15), so they are never listed up front:
    ``len`` counts them, ``choices[i]`` builds the i-th in lexicographic order of the held
    cards, iteration walks them all, and ``in`` checks one in constant time.

    ``extra`` actions (a slam call) come after every discard.
    """

    def __init__(self, held: int, count: int, extra: Sequence[Action] = ()) -> None:
        self.held = held
        self.discard_count = count
        self.extra = tuple(extra)
        self._cards = [CARDS[i] for i in indexes_of(held)]
        self._discards = comb(len(self._cards), count)

    def __len__(self) -> int:
        return self._discards + len(self.extra)

    @overload
    def __getitem__(self, position: int) -> Action: ...
    @overload
    def __getitem__(self, position: slice) -> list[Action]: ...

    def __getitem__(self, position: int | slice) -> Action | list[Action]:
        if isinstance(position, slice):
            return [self[i] for i in range(*position.indices(len(self)))]
        discards = self._discards
        total = discards + len(self.extra)
        if position < 0:
            position += total
        if not 0 <= position < total:
            raise IndexError("discard choice out of range")
        if position >= discards:
            return self.extra[position - discards]
        cards = self._cards
        held = len(cards)
        chosen: list[Card] = []
        start, remaining = 0, self.discard_count
        while remaining:
            for index in range(start, held):
                block = comb(held - index - 1, remaining - 1)
                if position < block:
                    chosen.append(cards[index])
                    start, remaining = index + 1, remaining - 1
                    break
                position -= block
        return _discard(chosen)

    def __iter__(self) -> Iterator[Action]:
        for chosen in combinations(self._cards, self.discard_count):
            yield _discard(chosen)
        yield from self.extra

    def __contains__(self, action: object) -> bool:
        if isinstance(action, str):
            try:
                action = Action.parse(action)
            except ValueError:
                return False
        if action in self.extra:
            return True
        return (isinstance(action, Action) and action.kind == DISCARD
                and len(action.cards) == self.discard_count == action.mask.bit_count()
                and action.mask & ~self.held == 0)

    def __repr__(self) -> str:
        return f"DiscardChoices({len(self)} ways to discard {self.discard_count})"
