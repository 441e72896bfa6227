"""Between the bidding and the play: the bank taken, cards put away, and the final bet.

The contractor has taken the bank's three cards (:func:`.bidding.start_contract`) and now either
``discard``s three cards face down (``bank_use: discard``) or ``give``s one card face down to
each opponent (``bank_use: give``), so that everyone in play holds eight. Under
``raise_after_bank`` it then names its final bet (``bet``): the winning bid or more, within the
cap without a marriage in hand. Then the play starts (:func:`.play.start_play`).
"""

from __future__ import annotations

from typing import Any

from cardroom.games.base import IllegalAction
from cardroom.games.cards import cards_of, indexes_of
from cardroom.games.thousand.actions import (
    BET,
    DISCARD,
    DISCARD_ACTIONS,
    GIVE,
    GIVE_ACTIONS,
    Action,
    value_actions,
)
from cardroom.games.thousand.deck import marriages_in, subsets
from cardroom.games.thousand.play import start_play
from cardroom.games.thousand.state import BANK_SIZE, BET_PHASE, DISCARD_PHASE, State

GIVEN = 2
"""Cards the contractor gives away under ``bank_use: give``: one to each opponent."""

# -- putting cards away ---------------------------------------------------------------------------


def legal_discards(game: State) -> list[Action]:
    """Every set of three cards of the contractor's hand, to discard, in lexicographic order
    of cards (interned actions: 120 of them from a hand of ten)."""
    seat: int = game._to_act  # type: ignore[assignment]
    table = DISCARD_ACTIONS
    return [table[mask] for mask in subsets(game.hands[seat], BANK_SIZE)]


def legal_gives(game: State) -> list[Action]:
    """Every ordered pair of the contractor's cards: the first to the next player clockwise,
    the second to the one after (interned actions)."""
    seat: int = game._to_act  # type: ignore[assignment]
    held = indexes_of(game.hands[seat])
    actions: list[Action] = []
    for first in held:
        gives = GIVE_ACTIONS[first]
        actions.extend([gives[second] for second in held if second != first])
    return actions


def check_cards(game: State, seat: int, action: Action) -> None:
    """``IllegalAction`` unless ``action`` discards (or gives, as the phase says) the right
    number of different cards that ``seat`` holds."""
    kind, count = (DISCARD, BANK_SIZE) if game._phase == DISCARD_PHASE else (GIVE, GIVEN)
    what = (f"discard {count} cards, e.g. 'discard 9S JS 9C'" if kind == DISCARD else
            "give one card to each opponent, e.g. 'give 9S JC'")
    if action.kind != kind:
        raise IllegalAction(f"It is time to {what}.")
    stray = action.mask & ~game.hands[seat]
    if stray:
        raise IllegalAction(f"You do not hold {cards_of(stray)[0]}.")
    if len(action.cards) != count or action.mask.bit_count() != count:
        raise IllegalAction(f"You must {what}.")


def discard(game: State, seat: int, action: Action) -> list[dict[str, Any]]:
    """Put three cards face down (they may count for the contractor at the end)."""
    check_cards(game, seat, action)
    game.hands[seat] &= ~action.mask
    game.discards = action.mask
    return [{"type": "discard", "seat": seat, "count": BANK_SIZE}, *after_bank(game)]


def give(game: State, seat: int, action: Action) -> list[dict[str, Any]]:
    """Give the first card to the next player in the deal clockwise, the second to the one
    after."""
    check_cards(game, seat, action)
    events: list[dict[str, Any]] = []
    receiver = seat
    for card in action.cards:
        receiver = game.next_active(receiver)
        game.hands[seat] &= ~card.mask
        game.hands[receiver] |= card.mask
        game.gifts.append((receiver, card.index))
        events.append({"type": "give", "seat": seat, "to": receiver})
    return events + after_bank(game)


def after_bank(game: State) -> list[dict[str, Any]]:
    """The bank is dealt with: the final bet (under ``raise_after_bank``), or the play."""
    if game.rules.raise_after_bank:
        game._phase = BET_PHASE
        return []
    return start_play(game)


# -- the final bet --------------------------------------------------------------------------------


def bet_values(game: State, seat: int) -> range:
    """Final bets: the winning bid or more, within the cap without a marriage in hand."""
    rules = game.rules
    bid: int = game.bid  # type: ignore[assignment]
    capped = not marriages_in(game.hands[seat])
    values = rules.bid_values(bid - rules.bid_step, capped)
    return values if len(values) else range(bid, bid + 1)


def legal_bets(game: State) -> list[Action]:
    """The final bets the contractor may name."""
    return list(value_actions(BET, bet_values(game, game._to_act)))  # type: ignore[arg-type]


def bet(game: State, seat: int, action: Action) -> list[dict[str, Any]]:
    """Name the final bet (``IllegalAction`` unless it is one of :func:`bet_values`); then
    the play starts."""
    if action.kind != BET:
        raise IllegalAction(f"It is time to name your final bet, e.g. 'bet {game.bid}'.")
    values = bet_values(game, seat)
    if action.value not in values:
        raise IllegalAction(f"The final bet must be one of {values[0]} to {values[-1]} "
                            f"in steps of {game.rules.bid_step} (it may not be lowered"
                            + (", nor go above the cap without a marriage)."
                               if game.rules.marriage_cap is not None else ")."))
    game.bet = action.value
    return [{"type": "bet", "seat": seat, "bet": game.bet}, *start_play(game)]
