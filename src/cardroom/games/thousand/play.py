"""The card play of 1000: which cards may be played, marriages declared by a lead, and the end
of each trick.

The contractor leads the first trick; a player must follow suit if able and otherwise (under
``must_trump``) trump if able. Leading the king or queen of a marriage one holds may declare it
(``play KH marriage``): its suit becomes trump and its value scores at once. The winner of a
trick leads the next; after the last one the deal is scored (:func:`.scoring.end_hand`).
"""

from __future__ import annotations

from typing import Any

from cardroom.games.base import IllegalAction
from cardroom.games.cards import Suit
from cardroom.games.thousand.actions import (
    MARRIAGE_LEADS,
    PLAY,
    PLAYS_BY_SUIT,
    Action,
)
from cardroom.games.thousand.deck import (
    CARD_TEXT,
    KING_QUEEN,
    MARRIAGE_POINTS,
    POINTS,
    SUIT_IN_PACK,
    SUIT_LETTERS,
    is_marriage_card,
    playable,
    trick_winner,
)
from cardroom.games.thousand.scoring import end_hand
from cardroom.games.thousand.shapes import TrickView
from cardroom.games.thousand.state import PLAYING, State


def start_play(game: State) -> list[dict[str, Any]]:
    """The bank and the bet are done: the contractor leads the first trick."""
    game.move_to(PLAYING, game.contractor)
    return [{"type": "play_starts", "leader": game.contractor, "bet": game.bet}]


def playable_cards(game: State, seat: int) -> int:
    """Mask of the cards ``seat`` may play to the current trick."""
    led = game.trick[0] >> 4 if game.trick else None
    return playable(game.hands[seat], led, game.trump, game.rules.must_trump)


def may_declare(game: State) -> bool:
    """Whether the player to lead may declare a marriage now (RULES.md 2.2)."""
    if game.trick:
        return False
    return game.rules.marriage_timing == "when_leading" or bool(game.completed)


def holds_marriage(hand: int, index: int) -> bool:
    """Whether ``hand`` holds both the king and queen of card ``index``'s suit."""
    pair = KING_QUEEN[index >> 4]
    return hand & pair == pair


def plays_of(hand: int) -> list[Action]:
    """The plays of every card of ``hand``, in index order."""
    plays = PLAYS_BY_SUIT
    s0, s1, s2, s3 = SUIT_IN_PACK
    return [*plays[hand & s0], *plays[hand & s1], *plays[hand & s2], *plays[hand & s3]]


def legal(game: State) -> list[Action]:
    """The legal plays of the seat to act, and, when it may declare, a marriage lead for each
    king or queen of a marriage it holds (interned actions, in index order)."""
    seat: int = game._to_act  # type: ignore[assignment]
    hand = game.hands[seat]
    trick = game.trick
    mask = playable(hand, trick[0] >> 4, game.trump, game.rules.must_trump) if trick else hand
    if mask != hand:
        return list(PLAYS_BY_SUIT[mask])  # the cards of one suit: followed, or trumps
    actions = plays_of(hand)
    if may_declare(game):
        for suit, pair in enumerate(KING_QUEEN):
            if hand & pair == pair:
                actions.extend(MARRIAGE_LEADS[suit])
    return actions


def check(game: State, seat: int, action: Action) -> None:
    """``IllegalAction`` unless ``action`` is a card ``seat`` may play now (and a marriage it
    may declare with it)."""
    if action.kind != PLAY:
        raise IllegalAction("It is time to play a card, e.g. 'play AS'.")
    bit = action.mask
    hand = game.hands[seat]
    if not hand & bit:
        raise IllegalAction(f"You do not hold {action.card}.")
    if game.trick and not bit & playable_cards(game, seat):
        raise IllegalAction(refusal(game, seat))
    if action.marriage:
        reason = marriage_refusal(game, hand, bit.bit_length() - 1)
        if reason:
            raise IllegalAction(reason)


def refusal(game: State, seat: int) -> str:
    """A human explanation of why the card ``seat`` tried may not be played to this trick."""
    led = Suit(game.trick[0] >> 4)
    if game.hands[seat] & SUIT_IN_PACK[led]:
        return f"{led.name.capitalize()} were led and you hold some: you must follow suit."
    return (f"You cannot follow {led.name}, so you must play a trump "
            f"({Suit(game.trump).name}) while you hold one.")  # type: ignore[arg-type]


def marriage_refusal(game: State, hand: int, index: int) -> str | None:
    """Why leading card ``index`` may not declare its marriage now, or ``None``."""
    if game.trick:
        return "A marriage is declared by leading its king or queen."
    if not may_declare(game):
        return "Marriages may not be declared on the first trick."
    if not is_marriage_card(index):
        return "A marriage is declared by leading its king or queen."
    if not holds_marriage(hand, index):
        return f"You need both the king and queen of {Suit(index >> 4).name} to declare them."
    return None


def play_card(game: State, seat: int, action: Action) -> list[dict[str, Any]]:
    """Play the card (``IllegalAction`` if ``seat`` may not), declaring its marriage if asked;
    the trick is won once every seat in play has played to it."""
    bit = action.mask
    trick = game.trick
    if not (action.kind == PLAY and game.hands[seat] & bit and not action.marriage
            and (not trick or bit & SUIT_IN_PACK[trick[0] >> 4])):
        check(game, seat, action)  # not a plain lead or a card that follows suit
    index = bit.bit_length() - 1
    game.hands[seat] ^= bit
    events: list[dict[str, Any]] = [{"type": "play", "seat": seat, "card": CARD_TEXT[index]}]
    if action.marriage:
        events.append(declare(game, seat, index >> 4))
    trick.append(index)
    game.trick_seats.append(seat)
    if len(trick) < len(game.active):
        game._to_act = game._next[seat]
        return events
    events.extend(finish_trick(game))
    return events


def declare(game: State, seat: int, suit: int) -> dict[str, Any]:
    """``seat`` declares the marriage of ``suit``: it becomes trump and scores at once."""
    value = MARRIAGE_POINTS[suit]
    game.trump = suit
    game.marriages.append((seat, suit))
    game.marriage_points[seat] += value
    return {"type": "marriage", "seat": seat, "suit": SUIT_LETTERS[suit], "points": value}


def finish_trick(game: State) -> list[dict[str, Any]]:
    """Give the trick and its card points to its winner, who leads next; after the last
    trick, score the deal."""
    trick, seats, trump = game.trick, game.trick_seats, game.trump
    winner = seats[trick_winner(trick, trump)]
    points = sum([POINTS[i] for i in trick])
    game.card_points[winner] += points
    game.tricks_won[winner] += 1
    cards = [CARD_TEXT[i] for i in trick]
    done: TrickView = {"leader": seats[0], "seats": seats, "cards": cards, "winner": winner,
                       "points": points, "trump": None if trump is None else SUIT_LETTERS[trump]}
    game.completed.append(done)  # keeps the trick's seats: the next trick gets a new list
    game.trick, game.trick_seats = [], []
    events: list[dict[str, Any]] = [{"type": "trick", **done, "seats": seats.copy(),
                                     "cards": cards.copy()}]
    if game.hands[winner]:
        game._to_act = winner
        return events
    events.extend(end_hand(game))
    return events
