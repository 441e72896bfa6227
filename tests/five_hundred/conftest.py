"""Shared helpers for the 500 engine tests: crafted deals and quick ways to play them."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import pytest

from cardroom.games.cards import cards_of
from cardroom.games.five_hundred import Game, IllegalAction, Rules


def rules_of(preset: str, **changes: object) -> Rules:
    """A preset with some house rules on top."""
    return Rules.from_dict({"preset": preset, **changes})


def fill_deal(
    rules: Rules | str, fixed: dict[int, str], kitty: str | None = None
) -> tuple[list[list[str]], list[str]]:
    """A full deal where the ``fixed`` seats hold exactly the given cards.

    The cards nobody was given go, lowest index first, to the seats not in ``fixed`` and then
    to the kitty (unless the kitty is given too).
    """
    rules = Rules.preset(rules) if isinstance(rules, str) else rules
    hands = {seat: text.split() for seat, text in fixed.items()}
    taken = {card for cards in hands.values() for card in cards}
    kitty_cards = kitty.split() if kitty is not None else None
    if kitty_cards:
        taken.update(kitty_cards)
    spare = [str(card) for card in cards_of(rules.deck_spec.mask) if str(card) not in taken]
    for seat in range(rules.players):
        if seat not in hands:
            hands[seat], spare = spare[:10], spare[10:]
    if kitty_cards is None:
        kitty_cards, spare = spare, []
    assert not spare, f"cards left over: {spare}"
    return [hands[seat] for seat in range(rules.players)], kitty_cards


def new_game(
    rules: Rules | str, fixed: dict[int, str], kitty: str | None = None, dealer: int = 3
) -> Game:
    """A game whose first deal is :func:`fill_deal` of these cards."""
    rules = Rules.preset(rules) if isinstance(rules, str) else rules
    hands, kitty_cards = fill_deal(rules, fixed, kitty)
    return Game.from_deal(rules, dealer=dealer, hands=hands, kitty=kitty_cards)


def run(game: Game, *actions: str) -> None:
    """Apply some actions in order."""
    for action in actions:
        game.apply(action)


def won_bid(game: Game, bid: str, discard: str | None = None) -> Game:
    """The player left of the dealer bids ``bid``, everybody else passes, and (when there is a
    kitty exchange) the contractor puts back ``discard``, by default the kitty as dealt."""
    kitty = " ".join(str(card) for card in cards_of(game.kitty))
    game.apply(f"bid {bid}")
    while game.phase == "bidding":
        game.apply("pass")
    if game.phase == "discard":
        game.apply(f"discard {discard or kitty}")
    return game


def first_legal(game: Game) -> str:
    """The first legal action (in the engine's order: for plays, the lowest card)."""
    return str(game.legal_actions()[0])


def finish_hand(game: Game, choose: Callable[[Game], str] = first_legal) -> None:
    """Play on until the current hand is scored (or the match ends)."""
    hand = game.hand_number
    while not game.is_over and game.hand_number == hand:
        game.apply(choose(game))


def cards(text: str) -> list[str]:
    """Card texts of a space-separated list."""
    return text.split()


def texts(actions: Iterable[object]) -> list[str]:
    """Action texts, for comparing legal actions."""
    return [str(action) for action in actions]


# A 45-card deal where each seat holds one suit: hearts for seat 0 (so seat 0 holds every
# trump of a hearts contract once the left bower and the joker are out of play).
SUIT_EACH_45 = {
    0: "5H 6H 7H 8H 9H 10H JH QH KH AH",
    1: "5S 6S 7S 8S 9S 10S JS QS KS AS",
    2: "4D 5D 6D 7D 8D 9D 10D QD KD AD",
    3: "5C 6C 7C 8C 9C 10C JC QC KC AC",
}
SUIT_EACH_45_KITTY = "4S 4C 4H JD JK"

# The same for the 43-card deck (no black fours).
SUIT_EACH_43 = dict(SUIT_EACH_45)
SUIT_EACH_43_KITTY = "4H JD JK"

# A 45-card deal for no-tricks contracts: seat 0 holds low spades and clubs, seats 1 and 3
# hold the higher cards of those suits, so seat 0 takes no trick when everyone plays low.
MISERE_45 = {
    0: "4S 5S 6S 7S 8S 4C 5C 6C 7C 8C",
    1: "9S 10S JS QS KS AS 9C 10C JC QC",
    2: "QD KD AD 4H 5H 6H 7H 8H 9H 10H",
    3: "KC AC 4D 5D 6D 7D 8D 9D 10D JD",
}
MISERE_45_KITTY = "JH QH KH AH JK"


def assert_refused(game: Game, action: str, reason: str, seat: int | None = None) -> None:
    """``action`` (of ``seat``, when given) is refused with a message matching ``reason``."""
    with pytest.raises(IllegalAction, match=reason):
        game.apply(action, seat=seat)


def assert_legal_exactly_when_accepted(game: Game, candidates: Iterable[str]) -> None:
    """Each candidate action is listed by ``legal_actions()`` exactly when ``apply`` takes it."""
    legal = set(texts(game.legal_actions()))
    for action in candidates:
        twin = game.copy()
        try:
            twin.apply(action)
        except IllegalAction:
            assert action not in legal, action
        else:
            assert action in legal, action
