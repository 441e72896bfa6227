"""Between the bidding and the play: the kitty exchange and what may come with it.

The contractor takes the kitty and puts as many cards back (``discard``); in the pair
no-tricks contracts the discards go to partner, who puts back as many (``partner_discard``).
Nello's partner first adds a card to the widow (``give``); after a slam call partner passes
a card to the contractor instead. With five players the contractor then names the cards that
call its partners (``call``), and in no trumps it may name the joker's suit (``joker``).
"""

from __future__ import annotations

from typing import Any

from cardroom.games.base import IllegalAction
from cardroom.games.cards import JOKERS_MASK, cards_of, iter_indexes
from cardroom.games.five_hundred.actions import (
    CALL,
    CALL_ACTIONS,
    DISCARD,
    GIVE,
    GIVE_ACTIONS,
    JOKER,
    JOKER_SUIT_ACTIONS,
    PASS,
    PASS_ACTION,
    SLAM,
    SLAM_ACTION,
    Action,
    DiscardChoices,
)
from cardroom.games.five_hundred.bids import Bid, Contract
from cardroom.games.five_hundred.play import start_play
from cardroom.games.five_hundred.state import (
    CALL_PHASE,
    DISCARD_PHASE,
    GIVE_PHASE,
    JOKER_PHASE,
    PAIR_NULLO_BIDS,
    PARTNER_DISCARD,
    State,
)
from cardroom.games.five_hundred.tricks import strain_for

# -- taking the kitty and putting cards back ------------------------------------------------------


def take_kitty(game: State, count: int) -> list[dict[str, Any]]:
    """The contractor picks up the kitty and must put ``count`` cards back."""
    contractor: int = game.contractor  # type: ignore[assignment]
    game.exchange = game.kitty
    game.hands[contractor] |= game.kitty
    game.kitty = 0
    game.exchange_count = count
    game.move_to(DISCARD_PHASE, contractor)
    return [{"type": "kitty_taken", "seat": contractor}]


def may_call_slam(game: State) -> bool:
    """A seven-bid contractor holding the kitty may call slam instead of discarding."""
    contract = game.contract
    return (game.rules.slam_call and game._phase == DISCARD_PHASE and not game.slam
            and contract is not None and contract.is_trick_bid and contract.tricks == 7)


def legal_discards(game: State) -> DiscardChoices:
    """Every way to put the cards back (and a slam call where one may be made)."""
    extra = (SLAM_ACTION,) if may_call_slam(game) else ()
    return DiscardChoices(game.hands[game._to_act], game.exchange_count,  # type: ignore[index]
                          extra)


def check_holding(game: State, seat: int, action: Action, kind: str, count: int,
                  what: str) -> None:
    """``IllegalAction`` unless ``action`` is ``kind`` of ``count`` cards ``seat`` holds."""
    if action.kind != kind:
        raise IllegalAction(f"It is time to {what}.")
    if action.mask & ~game.hands[seat]:
        stray = cards_of(action.mask & ~game.hands[seat])[0]
        raise IllegalAction(f"You do not hold {stray}.")
    if len(action.cards) != count or action.mask.bit_count() != count:
        raise IllegalAction(f"You must {what}, not {len(action.cards)}.")


def check_discard(game: State, seat: int, action: Action) -> None:
    """``IllegalAction`` unless ``action`` puts back the right number of held cards (or
    calls slam where one may)."""
    if action.kind == SLAM:
        if not may_call_slam(game):
            raise IllegalAction("Only a contractor of a seven bid may call slam, before "
                                "discarding.")
        return
    check_holding(game, seat, action, DISCARD, game.exchange_count,
                  f"discard {game.exchange_count} cards")


def put_back(game: State, seat: int, action: Action) -> list[dict[str, Any]]:
    """Put the cards back (to partner, in a pair no-tricks contract), or call slam
    (``IllegalAction`` if ``seat`` may not)."""
    check_discard(game, seat, action)
    if action.kind == SLAM:
        return call_slam(game, seat)
    game.hands[seat] &= ~action.mask
    events: list[dict[str, Any]] = [
        {"type": "discard", "seat": seat, "count": len(action.cards)}]
    if game._phase == DISCARD_PHASE and game.contract in PAIR_NULLO_BIDS:
        partner = game.partner_of(seat)
        game.hands[partner] |= action.mask
        game.exchange = game.handed_over = action.mask
        game.move_to(PARTNER_DISCARD, partner)
        return [*events, {"type": "discards_passed", "seat": seat, "to": partner}]
    game.discards[seat] |= action.mask
    game.exchange = 0
    return events + after_exchange(game)


def call_slam(game: State, seat: int) -> list[dict[str, Any]]:
    """Slam: partner passes a card to the contractor and folds."""
    partner = game.partner_of(seat)
    game.slam = True
    game.slam_kitty, game.exchange = game.exchange, 0
    game.active = tuple(s for s in range(game.players) if s != partner)
    game.move_to(GIVE_PHASE, partner)
    return [{"type": "slam", "seat": seat}]


# -- giving a card (Nello's widow, a slam's pass) -------------------------------------------------


def legal_gives(game: State) -> list[Action]:
    """A give of each held card."""
    return [GIVE_ACTIONS[i] for i in iter_indexes(game.hands[game._to_act])]  # type: ignore[index]


def give(game: State, seat: int, action: Action) -> list[dict[str, Any]]:
    """Partner's card goes to the widow (Nello) or, after a slam call, to the contractor
    (``IllegalAction`` unless ``action`` gives one held card)."""
    check_holding(game, seat, action, GIVE, 1, "give one card")
    game.hands[seat] &= ~action.mask
    game.given = action.mask
    if game.slam:
        contractor: int = game.contractor  # type: ignore[assignment]
        game.hands[contractor] |= action.mask
        game.exchange = game.slam_kitty | action.mask
        game.slam_kitty = 0
        game.exchange_count = game.rules.kitty_size + 1
        game.move_to(DISCARD_PHASE, contractor)
        return [{"type": "give", "seat": seat, "to": contractor}]
    game.kitty |= action.mask
    return [{"type": "give", "seat": seat}, *take_kitty(game, game.rules.kitty_size + 1)]


# -- after the exchange: calling partners, naming the joker's suit --------------------------------


TWO_PARTNERS_FROM = 8
"""Five players: a contractor of this many tricks or more calls two partners, below it one."""


def partners_called(tricks: int) -> int:
    """How many partners a five-player contractor of ``tricks`` calls."""
    return 2 if tricks >= TWO_PARTNERS_FROM else 1


def after_exchange(game: State) -> list[dict[str, Any]]:
    """After the kitty: five players call partners, then the joker may be named."""
    contract: Bid = game.contract  # type: ignore[assignment]
    if game.players == 5 and contract.is_trick_bid and not game.called:
        game.move_to(CALL_PHASE, game.contractor)
        return [{"type": "calling", "seat": game.contractor,
                 "count": partners_called(contract.tricks)}]
    if (game.rules.joker_suit_nomination and contract.is_trick_bid
            and contract.trump is None and game.joker_suit is None
            and game.hands[game.contractor] & JOKERS_MASK):  # type: ignore[index]
        # Only the joker's holder may name its suit: a contractor without it could name a
        # suit to force a defender's joker out on that suit's lead.
        game.move_to(JOKER_PHASE, game.contractor)
        return []
    return start_play(game)


def callable_cards(game: State) -> int:
    """Five players: the cards the contractor may name (any it does not hold)."""
    called = 0
    for index in game.called:
        called |= 1 << index
    return game.rules.deck_spec.mask & ~game.hands[game.contractor] & ~called  # type: ignore[index]


def legal_calls(game: State) -> list[Action]:
    """A call of each card the contractor may name."""
    return [CALL_ACTIONS[i] for i in iter_indexes(callable_cards(game))]


def check_call(game: State, seat: int, action: Action) -> None:
    """``IllegalAction`` unless ``action`` names a card of the deck the contractor does not
    hold and has not named yet."""
    if action.kind != CALL:
        raise IllegalAction("Name a card to call your partner, e.g. 'call AS'.")
    card = action.cards[0]
    if not game.rules.deck_spec.mask & card.mask:
        raise IllegalAction(f"{card} is not in the {game.rules.deck} deck.")
    if card.index in game.called:
        raise IllegalAction(f"You have already called {card}.")
    if game.hands[game.contractor] & card.mask:  # type: ignore[index]
        raise IllegalAction(f"You hold {card} yourself: name a card you do not hold.")


def call(game: State, seat: int, action: Action) -> list[dict[str, Any]]:
    """Name a card (``IllegalAction`` if it may not be named); once all are named, their
    holders are the contractor's partners."""
    check_call(game, seat, action)
    card = action.cards[0]
    game.called.append(card.index)
    events: list[dict[str, Any]] = [{"type": "call", "seat": seat, "card": card.text}]
    if len(game.called) < partners_called(game.contract.tricks):  # type: ignore[union-attr]
        return events
    holders = {s for s in range(game.players) for i in game.called if game.hands[s] >> i & 1}
    game.partners = tuple(sorted(holders))
    game.contract_side = tuple(sorted((seat, *game.partners)))
    return events + after_exchange(game)


def legal_joker_names(game: State) -> list[Action]:
    """Leave the joker as it is, or give it a suit."""
    return [PASS_ACTION, *JOKER_SUIT_ACTIONS.values()]


def name_joker(game: State, seat: int, action: Action) -> list[dict[str, Any]]:
    """The joker becomes the highest card of the named suit (or stays as it is)."""
    if action.kind not in (PASS, JOKER):
        raise IllegalAction("Name the joker's suit, e.g. 'joker H', or 'pass'.")
    if action.kind == PASS:
        return [{"type": "joker_suit", "seat": seat, "suit": None}, *start_play(game)]
    contract: Bid = game.contract  # type: ignore[assignment]
    suit = action.nominated
    assert suit is not None
    game.joker_suit = suit
    game.strain = strain_for(None, jack_high=contract.contract is Contract.J5, joker_suit=suit)
    return [{"type": "joker_suit", "seat": seat, "suit": suit.letter}, *start_play(game)]
