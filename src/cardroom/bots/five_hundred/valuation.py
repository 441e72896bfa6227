"""How much a 500 hand is worth, as the rules bot values it: tricks in each strain, the level
worth bidding, support for partner's strain, the risk each card brings to a no-tricks
contract, and which cards to keep in the kitty exchange.

These read cards, not views, so the search bot's sampled bidding values the hands of the
deals it samples with them too (:mod:`cardroom.bots.five_hundred.bidding`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Protocol

from cardroom.bots.five_hundred.knowledge import STRAINS
from cardroom.bots.five_hundred.simple import worth
from cardroom.games.cards import JOKERS_MASK, Card, Rank, Suit, cards_of
from cardroom.games.five_hundred import Strain, strain_for

PARTNER_TRICKS = 1.0
"""Tricks a silent partner is expected to add to a contract."""
KITTY_TRICKS = {0: 0.0, 3: 0.5, 5: 1.0}
"""Tricks the kitty exchange is expected to add, by kitty size."""
BID_SLACK = 0.25
"""Added to a trick estimate before rounding down to a bid level (levels pay 100 a step)."""
NO_TRUMP_CAUTION = 0.75
"""Taken off a no-trumps estimate: with no trumps to stop them, the opponents' long suits
run, and partner's help is harder to reach."""
TOP_TRUMP_VALUES = (1.0, 1.0, 0.8, 0.7, 0.5, 0.3)
"""Tricks from the joker, right bower, left bower, ace, king and queen of trumps."""
MIN_TRUMPS = 4
"""Fewest trumps to bid a suit with."""
MISERE_ALLOWANCE = {0: 0, 3: 1, 5: 2, 6: 3}
"""Dangerous cards a no-tricks bidder may hold, by how many cards it can throw away."""
JOKER_RISK = 20
"""Misère risk of the joker: it wins any trick it is played to."""


# -- small card helpers ----------------------------------------------------------------------


def suit_of(strain: Strain, card: Card) -> int:
    """The effective suit of a card (trumps take the left bower and the joker)."""
    return strain.suit_of[card.index]


def in_suit(strain: Strain, cards: Iterable[Card], suit: int) -> list[Card]:
    """The cards of ``cards`` that belong to effective suit ``suit``."""
    return [card for card in cards if strain.suit_of[card.index] == suit]


def ranked(strain: Strain, mask: int, suit: int) -> list[Card]:
    """The cards of ``mask`` in effective suit ``suit``, strongest first."""
    keys = strain.keys[suit]
    return sorted(cards_of(mask & strain.follow_mask[suit]), key=lambda c: -keys[c.index])


def count_below(strain: Strain, mask: int, card: Card) -> int:
    """How many cards of ``mask`` in ``card``'s effective suit rank below it."""
    suit = suit_of(strain, card)
    keys = strain.keys[suit]
    return sum(keys[c.index] < keys[card.index] for c in cards_of(mask & strain.follow_mask[suit]))


# -- hand evaluation -------------------------------------------------------------------------


def suit_tricks(hand: list[Card], trump: Suit, deck: int) -> float:
    """Tricks ``hand`` should take by itself with ``trump`` as trumps (0: too few trumps).

    Top trumps count by their place in the trump order, further trumps half a trick (more
    beyond five, they make long trumps), side aces and kings, and voids and singletons the
    ruffs they give.
    """
    strain = strain_for(trump)
    trumps = in_suit(strain, hand, trump)
    if len(trumps) < MIN_TRUMPS:
        return 0.0
    order = ranked(strain, deck, trump)
    places = [order.index(card) for card in trumps]
    tops = [TOP_TRUMP_VALUES[p] for p in places if p < len(TOP_TRUMP_VALUES)]
    others = len(trumps) - len(tops)
    tricks = sum(tops) + 0.5 * others + 0.4 * max(0, len(trumps) - 5)
    for suit in Suit:
        if suit != trump:
            tricks += _side_suit_tricks(in_suit(strain, hand, suit), len(trumps))
    return tricks


def hand_levels(hand: list[Card], deck: int, kitty_size: int,
                partners: float) -> dict[Suit | None, int]:
    """The highest level a hand is worth bidding in each strain on its own cards, with the
    usual allowance for partners and the kitty (0: not worth a bid in that strain)."""
    allowance = PARTNER_TRICKS * partners + KITTY_TRICKS.get(kitty_size, 1.0)
    levels = {}
    for strain in STRAINS:
        if strain is None:
            mine = no_trump_tricks(hand, deck) - NO_TRUMP_CAUTION
        else:
            mine = suit_tricks(hand, strain, deck)
        levels[strain] = math.floor(mine + allowance + BID_SLACK) if mine > 0 else 0
    return levels


def _side_suit_tricks(cards: list[Card], trumps: int) -> float:
    """Tricks from one side suit in a trump contract: aces, backed kings, ruffing shortness."""
    ranks = {card.rank for card in cards}
    tricks = 0.0
    if Rank.ACE in ranks:
        tricks += 0.9 + 0.6 * (Rank.KING in ranks)
    elif Rank.KING in ranks and len(cards) >= 2:
        tricks += 0.4
    if not cards:
        tricks += 0.6 if trumps >= 5 else 0.4
    elif len(cards) == 1 and Rank.ACE not in ranks:
        tricks += 0.3
    return tricks


def no_trump_tricks(hand: list[Card], deck: int) -> float:
    """Tricks ``hand`` should take in no trumps (0 unless every suit is stopped).

    Runs of top cards count in full and a long run sets up its small cards; a guarded king
    counts a little. The joker counts a trick and stops one unguarded suit.
    """
    strain = strain_for(None)
    has_joker = any(card.is_joker for card in hand)
    tricks = float(has_joker)
    unstopped = 0
    mask = sum(card.mask for card in hand)
    for suit in Suit:
        mine = ranked(strain, mask, suit)
        run = _top_run(strain, mine, deck, suit)
        tricks += run
        if run and len(mine) >= 5:
            tricks += 0.8 * (len(mine) - max(run, 3))
        ranks = {card.rank for card in mine}
        if not run and Rank.KING in ranks and len(mine) >= 2:
            tricks += 0.4
        stopped = run or (Rank.KING in ranks and len(mine) >= 2) or (
            Rank.QUEEN in ranks and len(mine) >= 3)
        unstopped += not stopped
    if unstopped > has_joker:
        return 0.0
    return tricks


def _top_run(strain: Strain, mine: list[Card], deck: int, suit: int) -> int:
    """How many of the suit's top cards (A, K, Q … of the deck) ``mine`` holds unbroken."""
    run = 0
    for mine_card, top in zip(mine, ranked(strain, deck, suit), strict=False):
        if mine_card != top:
            break
        run += 1
    return run


def support_tricks(hand: list[Card], trump: Suit | None) -> float:
    """Tricks this hand brings to partner's contract in ``trump`` (``None``: no trumps)."""
    strain = strain_for(trump)
    tricks = 0.0
    trumps = in_suit(strain, hand, trump) if trump is not None else []
    for card in trumps:
        role = _trump_place(card, trump)  # type: ignore[arg-type]
        tricks += (1.0, 1.0, 0.8, 0.6, 0.3)[role] if role < 5 else 0.25
    for suit in Suit:
        if suit == trump:
            continue
        side = in_suit(strain, hand, suit)
        ranks = {card.rank for card in side}
        tricks += 0.9 * (Rank.ACE in ranks)
        if trump is None:
            tricks += 0.4 * (Rank.KING in ranks and len(side) >= 2)
        elif len(trumps) >= 2 and len(side) <= 1:
            tricks += 0.4 if not side else 0.2
    if trump is None:
        tricks += any(card.is_joker for card in hand)
    return tricks


def _trump_place(card: Card, trump: Suit) -> int:
    """Place of a trump in the order joker, right, left, A, K (5 for any lower trump)."""
    if card.is_joker:
        return 0
    if card.rank is Rank.JACK:
        return 1 if card.suit is trump else 2
    return {Rank.ACE: 3, Rank.KING: 4}.get(card.rank, 5)  # type: ignore[arg-type]


def misere_risks(cards: list[Card], deck: int, joker_low: bool = False) -> dict[Card, int]:
    """How much each card threatens a no-tricks contract (above 0: it may well take a trick).

    The i-th lowest card of a suit is safe while the deck holds at most 2i+1 lower cards the
    bidder does not: two defenders use up about two of them each time the suit is played.
    A joker (either of two) wins whatever trick it is played to (unless it plays low).
    """
    strain = strain_for(None)
    mask = sum(card.mask for card in cards)
    others = deck & ~mask
    risks: dict[Card, int] = {}
    for suit in Suit:
        for place, card in enumerate(reversed(ranked(strain, mask, suit))):
            risks[card] = count_below(strain, others, card) - (2 * place + 1)
    for joker in cards_of(mask & JOKERS_MASK):
        risks[joker] = -1 if joker_low else JOKER_RISK
    return risks


def misere_danger(cards: list[Card], deck: int, joker_low: bool = False) -> int:
    """How many cards of ``cards`` may take a trick in a no-tricks contract."""
    return sum(risk > 0 for risk in misere_risks(cards, deck, joker_low).values())


def shed_for_misere(cards: list[Card], count: int, deck: int, joker_low: bool) -> list[Card]:
    """The ``count`` cards whose loss makes ``cards`` safest for a no-tricks contract, chosen
    one at a time (each discard makes the cards below it in its suit safer)."""
    kept = list(cards)
    shed: list[Card] = []
    for _ in range(count):
        risks = misere_risks(kept, deck, joker_low)
        worst = max(kept, key=lambda c: (risks[c], c.rank or 0, c))
        kept.remove(worst)
        shed.append(worst)
    return shed

# -- the kitty exchange ----------------------------------------------------------------------


class KittyHand(Protocol):
    """What the kitty discard rule reads of a hand: the strain, the cards, which are the top
    of their suit, which are trumps: the rules bot's
    :class:`~cardroom.bots.five_hundred.rules_bot.Table`, or a sampled deal's
    :class:`~cardroom.bots.five_hundred.bidding.Holding`."""

    strain: Strain
    hand: list[Card]

    def boss(self, card: Card) -> bool:
        """Is ``card`` the top card left in its effective suit?"""
        ...

    def trumps_held(self, cards: Iterable[Card]) -> list[Card]:
        """The trumps among ``cards``."""
        ...


def keep_value(holding: KittyHand, card: Card, cards: list[Card]) -> float:
    """How much a card is worth keeping in a trick contract: the joker and trumps most, then
    bosses, guards of honours and long suits; a lone small card least (shedding it makes a
    void to ruff in)."""
    strain = holding.strain
    if card.is_joker:
        return 1000.0
    suit = suit_of(strain, card)
    value = float(worth(strain, card))
    if suit == strain.trump:
        return 200 + value
    if holding.boss(card):
        value += 100
    mine = in_suit(strain, cards, suit)
    honours = [c for c in mine if c.rank in (Rank.KING, Rank.QUEEN) and not holding.boss(c)]
    if honours and card not in honours and len(mine) <= 3:
        value += 30
    if len(mine) == 1 and holding.trumps_held(cards):
        value -= 10
    return value


def kitty_discards(holding: KittyHand, count: int) -> list[Card]:
    """Kitty discards for a trick contract: whole short side suits first (voids to ruff in),
    then the cards least worth keeping; trumps, the joker and aces go last."""
    strain = holding.strain

    def keeper(card: Card) -> bool:
        return (card.is_joker or suit_of(strain, card) == strain.trump
                or card.rank is Rank.ACE or (strain.trump is None and card.rank is Rank.KING))

    chosen: list[Card] = []
    if strain.trump is not None:
        suits = {suit_of(strain, c) for c in holding.hand} - {strain.trump}
        for suit in sorted(suits, key=lambda s: len(in_suit(strain, holding.hand, s))):
            group = in_suit(strain, holding.hand, suit)
            if not any(keeper(c) for c in group) and len(chosen) + len(group) <= count:
                chosen.extend(group)
    rest = [c for c in holding.hand if c not in chosen]
    rest.sort(key=lambda c: (keeper(c), keep_value(holding, c, rest), c))
    return chosen + rest[:count - len(chosen)]
