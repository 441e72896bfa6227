"""The bidding of 1000: looking at one's cards, blind and open bids, passes, and the contract.

Where blind bidding is allowed a player's cards stay face down until it looks (``look``); it may
bid before that, blind, never above the cap without a marriage. A pass is final; the bidding
ends when one bidder is left, who takes the bank (:mod:`.bank`). When the first bidder need not
bid and everybody passes, the deal is void and passes to the left.
"""

from __future__ import annotations

from typing import Any

from cardroom.games.base import IllegalAction
from cardroom.games.cards import cards_of
from cardroom.games.phases import next_seat, seat_mask
from cardroom.games.thousand.actions import (
    BID,
    LOOK,
    LOOK_ACTION,
    PASS,
    PASS_ACTION,
    Action,
    value_actions,
)
from cardroom.games.thousand.deck import marriages_in
from cardroom.games.thousand.scoring import next_deal, record_passed_deal
from cardroom.games.thousand.state import DISCARD_PHASE, GIVE_PHASE, State


def legal(game: State) -> list[Action]:
    """The calls of the seat to act: look (if it has not), pass (unless it must bid), and the
    bids it may make (blind ones before it looks)."""
    seat: int = game._to_act  # type: ignore[assignment]
    actions: list[Action] = []
    looked = bool(game.looked >> seat & 1)
    if not looked:
        actions.append(LOOK_ACTION)
    if not must_bid(game):
        actions.append(PASS_ACTION)
    actions.extend(value_actions(BID, bid_values(game, seat), not looked))
    return actions


def bid_values(game: State, seat: int) -> range:
    """The bids ``seat`` may make now: blind ones (not looked) never above the cap."""
    looked = game.looked >> seat & 1
    capped = not looked or not marriages_in(game.hands[seat])
    return game.rules.bid_values(game.high_bid, capped)


def must_bid(game: State) -> bool:
    """Whether the seat to act must bid: the first bidder, under ``first_bidder_must_bid``."""
    return game.rules.first_bidder_must_bid and game.high_bid is None


def check(game: State, seat: int, action: Action) -> None:
    """``IllegalAction`` unless ``action`` is a call ``seat`` may make now."""
    looked = game.looked >> seat & 1
    if action.kind == LOOK:
        if looked:
            raise IllegalAction("You have already looked at your cards.")
        return
    if action.kind == PASS:
        if must_bid(game):
            raise IllegalAction(f"The first bidder must bid at least {game.rules.min_bid}.")
        return
    if action.kind != BID:
        raise IllegalAction("It is time to bid: pass, or bid e.g. 'bid 120'.")
    if action.blind and looked:
        raise IllegalAction("You have looked at your cards: your bids are open now.")
    if not action.blind and not looked:
        raise IllegalAction("Look at your cards first ('look'), or bid blind, "
                            f"e.g. 'bid {game.rules.min_bid} blind'.")
    value: int = action.value  # type: ignore[assignment]
    if value not in bid_values(game, seat):
        raise IllegalAction(refusal(game, seat, value))


def refusal(game: State, seat: int, value: int) -> str:
    """A human explanation of why a bid of ``value`` may not be made now."""
    rules = game.rules
    lowest = rules.min_bid if game.high_bid is None else game.high_bid + rules.bid_step
    if value < lowest:
        return f"A bid must be at least {lowest}."
    if value % rules.bid_step:
        return f"Bids go up in steps of {rules.bid_step}."
    if value > rules.max_bid:
        return f"The highest bid is {rules.max_bid}."
    if not game.looked >> seat & 1:
        return f"A blind bid may not go above {rules.marriage_cap}."
    return f"Without a marriage in hand you may not bid above {rules.marriage_cap}."


def speak(game: State, seat: int, action: Action) -> list[dict[str, Any]]:
    """A look, a pass or a bid (``IllegalAction`` if ``seat`` may not make it); then the next
    seat still in bids, or the bidding is over."""
    check(game, seat, action)
    if action.kind == LOOK:
        game.looked |= 1 << seat
        return [{"type": "look", "seat": seat}]
    if action.kind == PASS:
        game.passed |= 1 << seat
        game.bids.append((seat, None, False))
        events: list[dict[str, Any]] = [{"type": "pass", "seat": seat}]
    else:
        game.high_bid, game.high_bidder, game.high_blind = action.value, seat, action.blind
        game.bids.append((seat, action.value, action.blind))
        events = [{"type": "bid", "seat": seat, "bid": action.value, "blind": action.blind}]
    still_in = [s for s in game.active if not game.passed >> s & 1]
    if game.high_bid is None and not still_in:
        return events + all_passed(game)
    if game.high_bid is not None and still_in in ([], [game.high_bidder]):
        return events + start_contract(game)
    game._to_act = next_seat(seat, still_in, game.players)
    return events


def all_passed(game: State) -> list[dict[str, Any]]:
    """Nobody bid (only when the first bidder need not): the deal is void."""
    game.looked = seat_mask(game.active)
    record_passed_deal(game)
    return [{"type": "all_passed"}, *next_deal(game)]


def start_contract(game: State) -> list[dict[str, Any]]:
    """The high bidder takes the bank (shown to all unless hidden or the bid was blind) and
    goes on to discard or give."""
    contractor: int = game.high_bidder  # type: ignore[assignment]
    game.contractor = contractor
    game.bid = game.bet = game.high_bid
    game.blind = game.high_blind
    game.looked = seat_mask(game.active)
    game.bank_public = game.rules.bank_shown and not game.blind
    events: list[dict[str, Any]] = [
        {"type": "contract", "seat": contractor, "bid": game.bid, "blind": game.blind}]
    if game.bank_public:
        events.append({"type": "bank", "cards": [str(c) for c in cards_of(game.bank)]})
    game.hands[contractor] |= game.bank
    game.bank = 0
    game.move_to(DISCARD_PHASE if game.rules.bank_use == "discard" else GIVE_PHASE, contractor)
    return [*events, {"type": "bank_taken", "seat": contractor}]
