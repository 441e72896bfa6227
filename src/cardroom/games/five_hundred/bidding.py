"""The bidding of 500: who may bid what, passes, misdeals, and the contract it ends in.

Bids climb the rules' bid ladder (``Rules.bid_ladder``); each seat's legal bids are the rungs
above the high bid, less the *gated* ones (special contracts and inkles) that the situation
does not allow, each refused with a reason (:func:`refusal`). When the bidding is over the
contract is set up and the hand moves on to the kitty exchange or straight to the play; a deal
everybody passed is scored as nothing and dealt again, or played in no trumps.
"""

from __future__ import annotations

from typing import Any

from cardroom.games.base import IllegalAction
from cardroom.games.cards import JOKERS_MASK, Card, Rank, Suit, mask_of
from cardroom.games.five_hundred.actions import (
    BID,
    MISDEAL,
    MISDEAL_ACTION,
    PASS,
    PASS_ACTION,
    Action,
)
from cardroom.games.five_hundred.bids import SPECIAL_BIDS, Bid, Contract
from cardroom.games.five_hundred.exchange import after_exchange, take_kitty
from cardroom.games.five_hundred.play import start_play
from cardroom.games.five_hundred.scoring import deals_winner, match_over, record_hand
from cardroom.games.five_hundred.state import GIVE_PHASE, State
from cardroom.games.five_hundred.tricks import strain_for

FACE_MASK = JOKERS_MASK | mask_of(Card.of(rank, suit) for suit in Suit
                                  for rank in (Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE))
"""Face cards for the misdeal rule: jacks, queens, kings, aces and the jokers."""
SOLO_CONTRACTS = frozenset({Contract.MISERE, Contract.OPEN_MISERE, Contract.NELLO,
                            Contract.BLIND_MISERE, Contract.HI_LO})
"""Contracts the bidder plays alone while its partners fold."""
SOLO_BIDS = frozenset(SPECIAL_BIDS[contract] for contract in SOLO_CONTRACTS)
"""The bids of :data:`SOLO_CONTRACTS` (a bid is hashed quicker than its contract)."""
# The contracts by name, as module constants: looking a member up on the enum class is slow.
TRICKS, J5, MISERE, OPEN_MISERE, NELLO = (Contract.TRICKS, Contract.J5, Contract.MISERE,
                                          Contract.OPEN_MISERE, Contract.NELLO)
ACROSS_THE_CORNER, ACROSS_THE_TABLE = Contract.ACROSS_THE_CORNER, Contract.ACROSS_THE_TABLE
BLIND_MISERE = Contract.BLIND_MISERE
ALL_PASS_SUMMARIES = {
    "redeal": "the same dealer deals again.",
    "redeal_then_pass_deal": "the cards are dealt again.",
    "next_dealer": "the deal passes to the left.",
}


# -- what may be bid ------------------------------------------------------------------------------


def legal(game: State) -> list[Action]:
    """Pass (unless the dealer must bid), every bid above the high bid that the situation
    allows, and a misdeal where one may be called."""
    seat: int = game._to_act  # type: ignore[assignment]
    rules = game.rules
    actions = [] if rules.all_pass == "dealer_must_bid" and must_bid(game) else [PASS_ACTION]
    if game.barred != seat:
        start = game.high_rank + 1
        ladder = game.ladder_actions
        gated = [rank for rank in rules.gated_bids if rank >= start]
        if gated:
            bidders = misere_bidders(game)
            for rank in gated:
                if gated_refusal(game, seat, ladder[rank].bid, bidders):  # type: ignore[arg-type]
                    actions.extend(ladder[start:rank])
                    start = rank + 1
        actions.extend(ladder[start:])
    if rules.misdeal_no_face and may_misdeal(game, seat):
        actions.append(MISDEAL_ACTION)
    return actions


def must_bid(game: State) -> bool:
    """The dealer, everybody else having passed with no bid, must bid (``dealer_must_bid``)."""
    return (game.rules.all_pass == "dealer_must_bid" and game.high_bid is None
            and game.passed.bit_count() == game.players - 1 and game.barred != game._to_act)


def may_misdeal(game: State, seat: int) -> bool:
    """A seat holding no face card may call a misdeal on its first turn to speak."""
    return (game.rules.misdeal_no_face and not game.spoken >> seat & 1
            and not game.hands[seat] & FACE_MASK)


def misere_bidders(game: State) -> list[int]:
    """The seats that have bid misère (No Tricks) this hand."""
    return [s for s, b in game.bids if b is not None and b.contract is MISERE]


def refusal(game: State, seat: int, bid: Bid) -> str | None:
    """Why ``seat`` may not make ``bid`` now, or ``None`` if it may."""
    rank = game.rules.bid_rank.get(bid)
    if rank is None:
        return f"{bid.name} is not a bid under these rules."
    if game.barred == seat:
        return "You were set by three tricks or more last hand: you may not bid this hand."
    if rank <= game.high_rank:
        return f"A bid must beat {game.high_bid.name}, and {bid.name} does not."  # type: ignore[union-attr]
    if bid.is_trick_bid and not game.rules.inkle:
        return None
    return gated_refusal(game, seat, bid, misere_bidders(game))


def gated_refusal(game: State, seat: int, bid: Bid, bidders: list[int]) -> str | None:
    """Why ``seat`` may not make ``bid``, a bid above the high bid, in the situation (an
    inkle, or a special contract that needs an earlier bid, a score or a first call), or
    ``None`` if it may. ``bidders`` are the seats that have bid misère this hand."""
    rules = game.rules
    contract = bid.contract
    if contract is TRICKS or contract is J5:
        if rules.inkle and bid.tricks == 6 and len(game.bids) >= 2:
            return "Only the first two players to speak may bid six (an inkle)."
        return None
    if contract is MISERE and rules.misere_placement == "after_seven":
        if not any(b is not None and b.tricks == 7 for _, b in game.bids):
            return "Misère may only be bid once somebody has bid seven."
    elif contract is OPEN_MISERE and rules.open_misere_needs_misere:
        if not bidders:
            return "Spread may only be bid after somebody has bid No Tricks this hand."
    elif contract is ACROSS_THE_CORNER:
        if not any(game.team_of[s] != game.team_of[seat] for s in bidders):
            return "Across The Corner may only be bid after an opponent bid No Tricks."
    elif contract is ACROSS_THE_TABLE:
        if game.partner_of(seat) not in bidders:
            return "Across The Table may only be bid after your partner bid No Tricks."
    elif contract is NELLO and game.scores[game.team_of[seat]] >= 0:
        return "Nello may only be bid by a side in the hole (with a score below zero)."
    elif contract is BLIND_MISERE and game.spoken >> seat & 1:
        return "Blind misère may only be your first call of the hand, before you look."
    return None


def check(game: State, seat: int, action: Action) -> None:
    """``IllegalAction`` unless ``action`` is a pass, bid or misdeal ``seat`` may make now."""
    if action.kind == PASS:
        if must_bid(game):
            raise IllegalAction("Everybody else has passed: the dealer must bid.")
        return
    if action.kind == MISDEAL:
        if not may_misdeal(game, seat):
            raise IllegalAction("A misdeal may only be called by a player holding no face "
                                "card, on its first turn to speak, where the rules allow.")
        return
    if action.kind != BID:
        raise IllegalAction("It is time to bid: pass, or bid e.g. 'bid 7H'.")
    reason = refusal(game, seat, action.bid)  # type: ignore[arg-type]
    if reason:
        raise IllegalAction(reason)


# -- bidding ---------------------------------------------------------------------------------------


def speak(game: State, seat: int, action: Action) -> list[dict[str, Any]]:
    """A pass, a bid or a misdeal (``IllegalAction`` if ``seat`` may not make it); then the
    next seat bids, or the bidding is over."""
    bid = action.bid
    rank = game.rules.bid_rank.get(bid) if bid is not None else None
    # A trick bid above the high bid, by a seat that may bid, needs no more checks (no inkle).
    if (rank is None or rank <= game.high_rank or game.barred == seat or game.rules.inkle
            or not bid.is_trick_bid or action.kind != BID):  # type: ignore[union-attr]
        check(game, seat, action)
    if action.kind == MISDEAL:
        return misdeal(game, seat)
    game.bids.append((seat, bid))
    game.spoken |= 1 << seat
    if bid is None:
        game.passed |= 1 << seat
        events: list[dict[str, Any]] = [{"type": "pass", "seat": seat}]
    else:
        game.high_bid, game.high_bidder, game.high_rank = bid, seat, rank  # type: ignore[assignment]
        events = [{"type": "bid", "seat": seat, "bid": bid.text}]
    next_seat = next_bidder(game, seat)
    if next_seat is not None:
        game._to_act = next_seat
        return events
    if game.high_bid is None:
        return events + all_passed(game)
    return events + start_contract(game, game.high_bid, game.high_bidder)  # type: ignore[arg-type]


def next_bidder(game: State, seat: int) -> int | None:
    """Who bids next, or ``None`` when the bidding is over."""
    n = game.players
    if game.rules.bidding == "single":
        return (seat + 1) % n if len(game.bids) < n else None
    still_in = ~game.passed & ((1 << n) - 1)
    high_bidder = game.high_bidder
    if high_bidder is not None and not still_in & ~(1 << high_bidder):
        # Nobody is left to outbid the high bidder: it may raise its own bid, or has won.
        if game.rules.rebid == "any_time" and still_in:
            return high_bidder
        return None
    for offset in range(1, n + 1):
        candidate = (seat + offset) % n
        if still_in >> candidate & 1:
            return candidate
    return None


def misdeal(game: State, seat: int) -> list[dict[str, Any]]:
    """A seat with no face card called a misdeal: the same dealer deals again (unless it was
    the last deal of a match of so many deals)."""
    record_hand(game, None, [0] * len(game.teams),
                f"Misdeal: seat {seat} held no face card; the same dealer deals again.")
    event: dict[str, Any] = {"type": "misdeal", "seat": seat}
    winner = deals_winner(game)
    if winner is not None:  # the last deal of a match of so many deals (``deals``)
        return [event, match_over(game, winner)]
    game._deal()
    return [event, {"type": "deal", "hand": game.hand_number, "dealer": game.dealer}]


def all_passed(game: State) -> list[dict[str, Any]]:
    """Nobody bid: play in no trumps, or deal again (by the same dealer or the next); a deal
    thrown in so may be the last of a match of so many deals (``deals``)."""
    rule = game.rules.all_pass
    if rule == "play_no_trump":
        events: list[dict[str, Any]] = [{"type": "all_passed", "outcome": "play_no_trump"}]
        return events + start_play(game)
    if rule == "dealer_must_bid":
        rule = "next_dealer"  # the dealer was barred from bidding (ralphing)
    record_hand(game, None, [0] * len(game.teams),
                "Everybody passed: " + ALL_PASS_SUMMARIES[rule])
    winner = deals_winner(game)
    if winner is not None:  # the last deal of a match of so many deals (``deals``)
        return [{"type": "all_passed", "outcome": rule}, match_over(game, winner)]
    if rule == "next_dealer" or (rule == "redeal_then_pass_deal" and game.redeals >= 2):
        game.redeals = 0
        game.dealer = (game.dealer + 1) % game.players
    else:
        game.redeals += 1
    game._deal()
    return [{"type": "all_passed", "outcome": rule},
            {"type": "deal", "hand": game.hand_number, "dealer": game.dealer}]


def start_contract(game: State, bid: Bid, contractor: int) -> list[dict[str, Any]]:
    """Set up the contract won in the bidding and move on to the kitty or the play."""
    rules = game.rules
    game.contract, game.contractor = bid, contractor
    game.redeals = 0
    mates = game.teammates(contractor)
    game.contract_side = tuple(sorted((contractor, *mates)))
    kind = bid.contract
    misere_type = bid.is_misere_type
    game.strain = strain_for(bid.trump, misere_type and rules.joker_low_in_misere,
                             jack_high=kind is J5,
                             colour_four=rules.deck_spec.colour_four)
    game.joker_forced = misere_type and rules.misere_joker_forced
    events: list[dict[str, Any]] = [
        {"type": "contract", "seat": contractor, "bid": bid.text, "value": bid.value}]
    if bid in SOLO_BIDS:
        game.active = tuple(s for s in range(game.players) if s not in mates)
    elif kind is ACROSS_THE_CORNER:
        game.corner_opponent = next(s for s, b in reversed(game.bids) if b is not None
                                    and b.contract is MISERE
                                    and game.team_of[s] != game.team_of[contractor])
        game.active = tuple(sorted((contractor, game.corner_opponent)))
        return events + start_play(game)
    if kind is NELLO:
        game.move_to(GIVE_PHASE, mates[0])
        return events
    if kind is OPEN_MISERE and rules.wilkinson_misere:
        return events + after_exchange(game)
    return events + take_kitty(game, rules.kitty_size)
