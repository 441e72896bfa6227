"""Shared helpers for the 1000 engine tests: crafted deals and quick ways to play them."""

from __future__ import annotations

from collections.abc import Callable

from cardroom.games.cards import cards_of
from cardroom.games.thousand import PACK_MASK, Game, Rules


def rules_of(preset: str, **changes: object) -> Rules:
    """A preset with some house rules on top."""
    return Rules.from_dict({"preset": preset, **changes})


def fill_deal(fixed: dict[int, str], bank: str | None = None, players: int = 3,
              dealer: int = 0) -> tuple[list[list[str]], list[str]]:
    """A full deal where the ``fixed`` seats hold exactly the given cards.

    The cards nobody was given go, lowest index first, to the other playing seats and then to
    the bank (unless it is given too). A four-player dealer holds nothing.
    """
    hands = {seat: text.split() for seat, text in fixed.items()}
    bank_cards = bank.split() if bank is not None else None
    taken = {card for cards in hands.values() for card in cards} | set(bank_cards or [])
    spare = [str(card) for card in cards_of(PACK_MASK) if str(card) not in taken]
    for seat in range(players):
        if seat not in hands:
            size = 0 if players == 4 and seat == dealer else 7
            hands[seat], spare = spare[:size], spare[size:]
    if bank_cards is None:
        bank_cards, spare = spare, []
    assert not spare, f"cards left over: {spare}"
    return [hands[seat] for seat in range(players)], bank_cards


def new_game(rules: Rules | str, fixed: dict[int, str], bank: str | None = None,
             dealer: int = 0) -> Game:
    """A game whose first deal is :func:`fill_deal` of these cards."""
    rules = Rules.preset(rules) if isinstance(rules, str) else rules
    hands, bank_cards = fill_deal(fixed, bank, rules.players, dealer)
    return Game.from_deal(rules, dealer=dealer, hands=hands, bank=bank_cards)


def run(game: Game, *actions: str) -> Game:
    """Apply some actions in order."""
    for action in actions:
        game.apply(action)
    return game


def win_bidding(game: Game, bid: int) -> Game:
    """The first bidder (looking first where blind bidding is allowed) bids ``bid``; everybody
    else looks if need be and passes."""
    first = game.to_act
    while game.phase == "bidding":
        if "look" in texts(game.legal_actions()):
            game.apply("look")
        game.apply(f"bid {bid}" if game.to_act == first and game.high_bid is None else "pass")
    return game


def first_legal(game: Game) -> str:
    """The first legal action (for plays: the lowest card by index)."""
    return str(game.legal_actions()[0])


def finish_deal(game: Game, choose: Callable[[Game], str] = first_legal) -> None:
    """Play on until the current deal is scored (or the match ends)."""
    deal = game.hand_number
    while not game.is_over and game.hand_number == deal:
        game.apply(choose(game))


def texts(actions: object) -> list[str]:
    """Action texts, for comparing legal actions."""
    return [str(action) for action in actions]  # type: ignore[attr-defined]
