"""The card play of 500: which cards may be played, playing one, and the end of each trick.

Everything here runs once per card, so it works on masks and the :class:`~.tricks.Strain`
tables only: a seat's playable cards are its hand masked by the led suit's follow mask, and the
legal plays are read from tables of ready-made actions (by the mask's bytes, or, for the cards
of the suit led, by the whole mask) instead of being built card by card.
"""

from __future__ import annotations

from typing import Any

from cardroom.games.base import IllegalAction
from cardroom.games.cards import (
    BYTE_INDEXES,
    CARD_COUNT,
    CARDS,
    JOKER_INDEX,
    JOKERS_MASK,
    Card,
    Suit,
)
from cardroom.games.five_hundred import claims
from cardroom.games.five_hundred.actions import (
    BLACK_JOKER_LEADS,
    CLAIM,
    JOKER_LEADS,
    PLAY,
    PLAY_ACTIONS,
    Action,
)
from cardroom.games.five_hundred.bids import Contract
from cardroom.games.five_hundred.scoring import end_hand
from cardroom.games.five_hundred.shapes import TrickView
from cardroom.games.five_hundred.state import PLAYING, TRICKS_PER_HAND, State
from cardroom.games.five_hundred.tricks import JOKER_SUIT
from cardroom.games.phases import next_seats

JOKERS = JOKERS_MASK
CARD_TEXT = tuple(card.text for card in CARDS)
SUIT_WORDS = {0: "spades", 1: "clubs", 2: "diamonds", 3: "hearts"}
ALL_SUITS = tuple(Suit)
CACHE_LIMIT = 1 << 14
"""Entries a table of plays keeps at most before it starts again (a bound on its memory)."""


_B0, _B1, _B2, _B3, _B4, _B5, _B6, _B7, _B8 = (
    tuple(tuple(PLAY_ACTIONS[i] for i in indexes if i < CARD_COUNT) for indexes in values)
    for values in BYTE_INDEXES)
"""For each byte of a mask (lowest first) and each value of it, the plays of its cards."""


def play_actions(mask: int) -> list[Action]:
    """The play action of each card of ``mask``, lowest index first (read a byte at a time
    from tables of ready-made actions)."""
    b = mask.to_bytes(9, "little")
    return [*_B0[b[0]], *_B1[b[1]], *_B2[b[2]], *_B3[b[3]], *_B4[b[4]], *_B5[b[5]],
            *_B6[b[6]], *_B7[b[7]], *_B8[b[8]]]


PLAY_EVENTS = tuple(tuple({"type": "play", "seat": seat, "card": text} for text in CARD_TEXT)
                    for seat in range(6))
"""The event of each seat's play of each card, to be copied (a copy is quicker to make)."""


def start_play(game: State) -> list[dict[str, Any]]:
    """The kitty and calls are done: the first lead is the contractor's or the dealer's
    left's (under ``first_lead``)."""
    game._phase = PLAYING
    game.next_in_play = next_seats(game.active, game.players)
    contract = game.contract
    no_trumps = contract is None or (contract.is_trick_bid and contract.trump is None)
    game.joker_any_time = (no_trumps and game.joker_suit is None
                           and game.rules.nt_joker == "play_any_time")
    if game.rules.first_lead == "contractor" and game.contractor is not None:
        game._to_act = game.contractor
    else:
        game._to_act = game.next_of(game.dealer, game.active)
    return [{"type": "play_starts", "leader": game._to_act}]


def joker_lead_suits(game: State, hand: int) -> tuple[Suit, ...]:
    """The suits a joker led now may name (pagat's limits, when the rules have them)."""
    if not game.rules.joker_lead_limits or len(game.completed) == TRICKS_PER_HAND - 1:
        return ALL_SUITS
    fresh = tuple(suit for suit in Suit if not game.suits_led >> suit & 1)
    return fresh or (ALL_SUITS if not hand & ~JOKERS else ())


def playable(game: State, seat: int) -> int:
    """Mask of the cards ``seat`` may play to the current trick."""
    hand = game.hands[seat]
    if game.trick:
        follow = hand & game.strain.follow_mask[game.led]
        if follow:
            if game.joker_any_time and hand & JOKERS:
                return follow | hand & JOKERS
            return follow
        if game.joker_forced and hand & JOKERS:
            return hand & JOKERS
        return hand
    if hand & JOKERS and hand & ~JOKERS:
        if game.joker_forced:
            return hand & ~JOKERS
        if (game.rules.joker_lead_limits and game.strain.suit_of[JOKER_INDEX] == JOKER_SUIT
                and not joker_lead_suits(game, hand)):
            return hand & ~JOKERS
    return hand


def legal(game: State) -> list[Action]:
    """The legal plays of the seat to act; a joker led in no trumps once per suit it may
    name."""
    seat: int = game._to_act  # type: ignore[assignment]
    if game.trick:
        hand = game.hands[seat]
        follow = hand & game.strain.follow_mask[game.led]
        if follow and not (game.joker_any_time and hand & JOKERS):
            plays = _FOLLOWS.get(follow)
            if plays is None:
                plays = _remember_follow(follow)
            return list(plays)
        return play_actions(playable(game, seat))
    mask = playable(game, seat)
    if mask & JOKERS and game.strain.suit_of[JOKER_INDEX] == JOKER_SUIT:
        return _with_joker_leads(game, seat, mask)
    return play_actions(mask)


_FOLLOWS: dict[int, tuple[Action, ...]] = {}
"""The plays of a seat's cards of the suit led, by their mask: a few thousand masks come again
and again."""


def _remember_follow(mask: int) -> tuple[Action, ...]:
    if len(_FOLLOWS) >= CACHE_LIMIT:
        _FOLLOWS.clear()
    plays = _FOLLOWS[mask] = tuple(play_actions(mask))
    return plays


def _with_joker_leads(game: State, seat: int, mask: int) -> list[Action]:
    """The plays of ``mask`` when the joker leads in no trumps: one per suit it may name."""
    actions = play_actions(mask & ~JOKERS)
    allowed = joker_lead_suits(game, game.hands[seat])
    if mask >> JOKER_INDEX & 1:
        actions.extend(JOKER_LEADS[suit] for suit in allowed)
    if mask >> (JOKER_INDEX + 1) & 1:
        actions.extend(BLACK_JOKER_LEADS[suit] for suit in allowed)
    return actions


def check(game: State, seat: int, action: Action) -> None:
    """``IllegalAction`` unless ``action`` is a card ``seat`` may play now."""
    if action.kind != PLAY:
        raise IllegalAction("It is time to play a card, e.g. 'play AS'.")
    card = action.cards[0]
    if not game.hands[seat] & card.mask:
        raise IllegalAction(f"You do not hold {card}.")
    if not playable(game, seat) & card.mask:
        raise IllegalAction(refusal(game, seat, card))
    names_suit = not game.trick and game.strain.suit_of[card.index] == JOKER_SUIT
    if names_suit:
        if action.nominated is None:
            raise IllegalAction("Leading the joker in no trumps, you must name the suit the "
                                "others must follow, e.g. 'play JK:H'.")
        if action.nominated not in joker_lead_suits(game, game.hands[seat]):
            raise IllegalAction("A led joker may not name a suit already led this hand.")
    elif action.nominated is not None:
        raise IllegalAction("Only the joker led in no trumps names a suit.")


def refusal(game: State, seat: int, card: Card) -> str:
    """A human explanation of why ``card`` may not be played now."""
    hand = game.hands[seat]
    if not game.trick:
        if game.joker_forced:
            return "The joker may not be led in a no-tricks hand except to the last trick."
        return ("All four suits have been led: the joker may not be led now, except to "
                "the last trick.")
    led_name = SUIT_WORDS.get(game.led, "the joker's suit")
    trump = game.strain.trump
    if trump is not None and game.led == trump:
        led_name = f"trumps ({SUIT_WORDS[trump]})"
    if hand & game.strain.follow_mask[game.led]:
        if card.is_joker and trump is None:
            return (f"{led_name.capitalize()} were led and you can follow: in no trumps "
                    "the joker may only be played when you cannot follow suit.")
        if card.is_joker:
            return (f"{led_name.capitalize()} were led and you hold some: the joker is "
                    "a trump, so it may only be played where a trump may.")
        return f"{led_name.capitalize()} were led and you hold some: you must follow suit."
    return (f"You cannot follow {led_name}, so you must play the joker "
            "(a no-tricks rule at this table).")


def play_card(game: State, seat: int, action: Action) -> list[dict[str, Any]]:
    """Play the card (``IllegalAction`` if ``seat`` may not); the trick is won once every
    seat in play has played to it. A claim is made here too (:mod:`.claims`)."""
    trick = game.trick
    if action.kind == PLAY:
        card = action.cards[0]
        index, mask = card.index, card.mask
    else:
        index = mask = -1
    hand = game.hands[seat]
    # Following suit, playing anything to a suit one does not hold (unless the joker must go)
    # and leading a plain card are always allowed: anything else is checked in full.
    if trick:
        strain = game.strain
        allowed = (strain.suit_of[index] == game.led
                   or not (hand & strain.follow_mask[game.led]
                           or (game.joker_forced and hand & JOKERS)))
    else:
        allowed = not mask & JOKERS
    if index < 0 or not allowed or action.nominated is not None or not hand & mask:
        if action.kind == CLAIM:
            return claims.claim(game, seat, action)
        check(game, seat, action)
        index, mask = action.cards[0].index, action.mask
    game.hands[seat] ^= mask
    trick.append(index)
    game.trick_seats.append(seat)
    event = PLAY_EVENTS[seat][index].copy()
    played = len(trick)
    if played == 1:
        nominated = action.nominated
        game.led = game.strain.led_suit(index, nominated)
        if game.led < 4:
            game.suits_led |= 1 << game.led
        game.nominated = nominated
        if nominated is not None:
            event["nominated"] = nominated.letter
    if game.called and index in game.called and seat not in game.revealed:
        game.revealed.append(seat)
        partner = {"type": "partner", "seat": seat, "card": CARD_TEXT[index]}
        if played < len(game.active):
            game._to_act = game.next_in_play[seat]
            return [event, partner]
        return [event, partner, *finish_trick(game)]
    if played < len(game.active):
        game._to_act = game.next_in_play[seat]
        return [event]
    return [event, *finish_trick(game)]


def finish_trick(game: State) -> list[dict[str, Any]]:
    """Give the trick to its winner, who leads next; after the last trick, score the hand."""
    seats = game.trick_seats
    trick = game.trick
    winner = seats[game.strain.winner(trick, game.led)]
    game.tricks_won[winner] += 1
    cards = [CARD_TEXT[i] for i in trick]
    event = {"type": "trick", "leader": seats[0], "seats": seats, "cards": cards,
             "winner": winner}
    done: TrickView = {"leader": seats[0], "seats": list(seats), "cards": list(cards),
                       "winner": winner}
    if game.nominated is not None:
        event["nominated"] = done["nominated"] = game.nominated.letter
        game.nominated = None
    game.completed.append(done)
    events: list[dict[str, Any]] = [event]
    game.trick = []
    game.trick_seats = []
    contract = game.contract
    tricks = len(game.completed)
    game.claim_barred = 0
    if contract is not None and contract.is_misere_type:
        if tricks == 1:
            opened = opened_after_first_trick(game)
            shown = game.open_seats  # a claimant's, shown already, stays so
            game.open_seats = (*opened, *(s for s in shown if s not in opened))
            events.extend({"type": "hand_shown", "seat": s} for s in opened if s not in shown)
        if game.rules.misere_failure == "stop" and winner in game.makers():
            return events + end_hand(game)
    if tricks == TRICKS_PER_HAND:
        return events + end_hand(game)
    game._to_act = winner
    return events


def opened_after_first_trick(game: State) -> tuple[int, ...]:
    """Seats whose hands the contract shows to all once the first trick is over."""
    kind = game.contract.contract  # type: ignore[union-attr]
    contractor: int = game.contractor  # type: ignore[assignment]
    if kind is Contract.OPEN_MISERE or (kind is Contract.MISERE
                                        and game.rules.wilkinson_misere):
        return (contractor,)
    if kind is Contract.SHIELDS_DOUBLE:
        return (game.partner_of(contractor),)
    if kind is Contract.PATASTROPHE:
        return (contractor, game.partner_of(contractor))
    return ()
