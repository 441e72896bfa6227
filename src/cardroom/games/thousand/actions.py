"""Actions of 1000 and their text notation.

==========================  ===============================================================
``look``                    look at one's cards (where blind bidding is allowed, cards stay
                            face down until their owner looks)
``pass``                    pass in the bidding (a pass is final)
``bid 120``                 an open bid; ``bid 120 blind`` a blind one (cards not looked at)
``discard 9S JS 9C``        the contractor puts three cards face down (``bank_use: discard``)
``give 9S JC``              the contractor gives the first card to the next player clockwise,
                            the second to the one after (``bank_use: give``)
``bet 160``                 the final bet after taking the bank (the bid or more)
``play KH``                 play a card
``play KH marriage``        lead the king (or queen) of a marriage and declare it: its suit
                            becomes trump and its value scores at once
==========================  ===============================================================

``Action.parse(text)`` and ``str(action)`` round-trip. The actions the engine lists as legal
are interned: made once, then looked up (by card index, by bid value, by the mask of three
discards, by the pair of cards given), so that listing a player's choices builds no action
objects: a contractor of ``seed`` has 120 discards to list.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Generic, TypeVar

from cardroom.games.actions import ActionText
from cardroom.games.cards import CARDS, Card, cards_of, iter_indexes, parse_cards
from cardroom.games.thousand.deck import KING_QUEEN, SUIT_SUBSETS

LOOK = "look"
PASS = "pass"
BID = "bid"
DISCARD = "discard"
GIVE = "give"
BET = "bet"
PLAY = "play"
BLIND_WORD = "blind"
MARRIAGE_WORD = "marriage"

HINT = ("try 'look', 'pass', 'bid 120', 'bid 120 blind', 'discard 9S JS 9C', 'give 9S JC', "
        "'bet 160', 'play AS' or 'play KH marriage'")


class Action(ActionText):
    """One action: ``kind`` is one of ``look pass bid discard give bet play``.

    ``value`` is the points of a bid or bet, ``blind`` marks a blind bid, ``cards`` holds the
    played, discarded (sorted) or given (in order) cards with ``mask`` their bit mask, and
    ``marriage`` marks a lead that declares a marriage.
    """

    __slots__ = ("blind", "cards", "kind", "marriage", "mask", "text", "value")

    def __init__(self, kind: str, *, value: int | None = None, blind: bool = False,
                 cards: Sequence[Card] = (), marriage: bool = False) -> None:
        self.kind = kind
        self.value = value
        self.blind = blind
        self.cards = tuple(sorted(cards)) if kind == DISCARD else tuple(cards)
        self.mask = 0
        for card in self.cards:
            self.mask |= card.mask
        self.marriage = marriage
        self.text = _text(self)

    @classmethod
    def _parse_text(cls, text: str) -> Action:
        words = text.strip().lower().split()
        if not words:
            raise ValueError(f"empty action: {HINT}")
        kind, rest = words[0], words[1:]
        if kind in (LOOK, PASS) and not rest:
            return LOOK_ACTION if kind == LOOK else PASS_ACTION
        if kind in (BID, BET) and rest:
            return _parse_value(kind, rest, text)
        if kind == PLAY and rest:
            return _parse_play(rest, text)
        if kind in (DISCARD, GIVE) and rest:
            return Action(kind, cards=parse_cards(" ".join(rest)))
        raise ValueError(f"not an action: {text!r} ({HINT})")


def _text(action: Action) -> str:
    """The canonical notation of an action."""
    kind = action.kind
    if kind in (LOOK, PASS):
        return kind
    if kind in (BID, BET):
        return f"{kind} {action.value}" + (f" {BLIND_WORD}" if action.blind else "")
    words = " ".join(card.text for card in action.cards)
    return f"{kind} {words}" + (f" {MARRIAGE_WORD}" if action.marriage else "")


def _parse_value(kind: str, rest: list[str], text: str) -> Action:
    blind = rest[-1] == BLIND_WORD
    number = rest[:-1] if blind else rest
    if len(number) != 1 or not number[0].isdigit() or (blind and kind == BET):
        raise ValueError(f"not an action: {text!r} ({HINT})")
    return bid_action(int(number[0]), blind) if kind == BID else bet_action(int(number[0]))


def _parse_play(rest: list[str], text: str) -> Action:
    marriage = rest[-1] in (MARRIAGE_WORD, "m")
    cards = rest[:-1] if marriage else rest
    if len(cards) != 1:
        raise ValueError(f"play one card: {text!r} ({HINT})")
    index = Card.parse(cards[0]).index
    return MARRIAGE_ACTIONS[index] if marriage else PLAY_ACTIONS[index]


_VALUE_ACTIONS: dict[tuple[str, int, bool], Action] = {}
INTERNED_VALUES = 1000
"""Bids and bets up to this are interned; larger (never legal) ones are built each time, so
that odd texts from clients cannot grow the cache."""


def _value_action(kind: str, value: int, blind: bool) -> Action:
    key = (kind, value, blind)
    action = _VALUE_ACTIONS.get(key)
    if action is None:
        action = Action(kind, value=value, blind=blind)
        if value <= INTERNED_VALUES:
            _VALUE_ACTIONS[key] = action
    return action


def bid_action(value: int, blind: bool = False) -> Action:
    """The action bidding ``value``, blind or open."""
    return _value_action(BID, value, blind)


def bet_action(value: int) -> Action:
    """The action naming a final bet of ``value``."""
    return _value_action(BET, value, False)


@lru_cache(maxsize=4096)
def value_actions(kind: str, values: range, blind: bool = False) -> tuple[Action, ...]:
    """The bids (``kind`` ``bid``) or final bets (``bet``) of ``values``, in order: a stretch
    of the ladder of bids, put together once for each range of values that comes up."""
    return tuple(_value_action(kind, value, blind) for value in values)


LOOK_ACTION = Action(LOOK)
PASS_ACTION = Action(PASS)
PLAY_ACTIONS: tuple[Action, ...] = tuple(Action(PLAY, cards=[card]) for card in CARDS)
MARRIAGE_ACTIONS: tuple[Action, ...] = tuple(
    Action(PLAY, cards=[card], marriage=True) for card in CARDS)


Key = TypeVar("Key")
Value = TypeVar("Value")


class Interned(dict[Key, Value], Generic[Key, Value]):
    """Actions (or tables of them) by a key, each made by ``make`` the first time it is asked
    for.

    Only the engine's lists of legal actions look actions up here (parsing builds its own),
    so the keys are those of legal actions and the tables stay small: at most the 2,024
    three-card discards of the pack, or its 552 ordered pairs of cards to give.
    """

    def __init__(self, make: Callable[[Key], Value]) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, key: Key) -> Value:
        value = self[key] = self.make(key)
        return value


DISCARD_ACTIONS: Interned[int, Action] = Interned(
    lambda mask: Action(DISCARD, cards=cards_of(mask)))
"""The discard of three cards, by the mask of the cards."""


def _gives_of(first: int) -> Interned[int, Action]:
    """The gives of card ``first`` (to the next player) with each other card, by the other
    card's index."""
    return Interned(lambda second: Action(GIVE, cards=[CARDS[first], CARDS[second]]))


GIVE_ACTIONS: Interned[int, Interned[int, Action]] = Interned(_gives_of)
"""The give of two cards, by the first card's index (to the next player), then the
second's: ``GIVE_ACTIONS[first][second]``."""


PLAYS_BY_SUIT: dict[int, tuple[Action, ...]] = {
    mask: tuple(PLAY_ACTIONS[index] for index in iter_indexes(mask)) for mask in SUIT_SUBSETS}
"""The plays of a set of cards of one suit, by its mask: ``PLAYS_BY_SUIT[hand & suit]``."""
MARRIAGE_LEADS: tuple[tuple[Action, ...], ...] = tuple(
    tuple(MARRIAGE_ACTIONS[index] for index in iter_indexes(pair)) for pair in KING_QUEEN)
"""By suit, the leads of its queen and king declaring their marriage (in index order)."""
