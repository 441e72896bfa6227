"""A scenario: a position of 500's card play, reached through the engine, with the actions a
strong player would choose there and why.

A position is either a whole deal (``hands``, ``kitty`` and every action from the first
bid on) or, shorter, an ending reached with :func:`tests.bots.endings.reach_ending`: the
bidding, the seats that play, each seat's last cards, who wins each filler trick, and the
cards of the ending already played.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from tests.bots.endings import reach_ending

from cardroom.games.five_hundred import Game, Rules


@dataclass(frozen=True)
class Scenario:
    """One position, the acceptable actions there (``expect``) and the reason (``why``).

    Whole deals give ``hands`` (seat 0 first), ``kitty`` and ``actions``; endings give
    ``bids``, ``active``, ``first`` (the seat that leads the first trick), ``cards`` (each
    active seat's last cards), ``winners`` (of the filler tricks) and ``opening`` (cards of
    the ending played before the decision). The match is played to a score no hand reaches
    unless ``scores`` say otherwise."""

    name: str
    theme: str
    expect: frozenset[str]
    why: str
    preset: str = "online"
    options: tuple[tuple[str, Any], ...] = ()
    dealer: int = 3
    hands: tuple[str, ...] = ()
    kitty: str = ""
    actions: tuple[str, ...] = ()
    bids: tuple[str, ...] = ()
    active: tuple[int, ...] = (0, 1, 2, 3)
    first: int = 0
    cards: tuple[tuple[int, str], ...] = ()
    winners: tuple[int, ...] = ()
    opening: tuple[str, ...] = ()
    scores: tuple[int, ...] | None = field(default=None)

    def rules(self) -> Rules:
        return Rules.preset(self.preset).replace(target=100_000, lose_at=None,
                                                 **dict(self.options))

    def game(self) -> Game:
        """The game at the decision."""
        rules = self.rules()
        if self.hands:
            game = Game.from_deal(rules, self.dealer, [hand.split() for hand in self.hands],
                                  self.kitty.split())
            if self.scores is not None:
                game.scores[:] = list(self.scores)
            for action in self.actions:
                game.apply(action)
            return game
        return reach_ending(rules, self.dealer, self.bids, self.active, self.first,
                            dict(self.cards), self.winners, self.opening, self.scores)


def plays(*cards: str) -> frozenset[str]:
    """The play actions of ``cards`` (``"JK:H"`` leads the joker naming hearts)."""
    return frozenset(f"play {card}" for card in cards)


def ending(name: str, theme: str, expect: Sequence[str], why: str, *, bids: Sequence[str],
           active: Sequence[int], first: int, cards: dict[int, str], winners: Sequence[int],
           opening: Sequence[str] = (), preset: str = "online", dealer: int = 3,
           **options: Any) -> Scenario:
    """A scenario reached as an ending (see :class:`Scenario`)."""
    return Scenario(name, theme, plays(*expect), why, preset=preset,
                    options=tuple(options.items()), dealer=dealer, bids=tuple(bids),
                    active=tuple(active), first=first, cards=tuple(cards.items()),
                    winners=tuple(winners), opening=tuple(opening))


def deal(name: str, theme: str, expect: Sequence[str], why: str, *, hands: Sequence[str],
         kitty: str, actions: Sequence[str], preset: str = "online", dealer: int = 3,
         **options: Any) -> Scenario:
    """A scenario reached from a whole deal (see :class:`Scenario`)."""
    return Scenario(name, theme, plays(*expect), why, preset=preset,
                    options=tuple(options.items()), dealer=dealer, hands=tuple(hands),
                    kitty=kitty, actions=tuple(actions))
