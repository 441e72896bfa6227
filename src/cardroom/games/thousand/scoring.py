"""Scoring of a deal of 1000: the contract, the opponents' rounded points, blind doubling.

The match-level rules that come after a deal's points (bolts, the barrel, the winner) live in
the game; this module is the arithmetic of one deal, shared with the search bot so that its
play-outs score exactly as the engine does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from cardroom.games.thousand.rules import Rules


@dataclass(frozen=True)
class DealScore:
    """The points of one deal, per seat, and how the contract went."""

    points: tuple[int, ...]
    taken: int
    """The contractor's total: card points won (with counted discards) plus marriages."""
    made: bool


def score_deal(rules: Rules, contractor: int, bet: int, blind: bool,
               card_points: Sequence[int], marriage_points: Sequence[int], discard_points: int,
               active: Sequence[int], on_barrel: Sequence[bool]) -> DealScore:
    """Points of a played deal (RULES.md 2.1, 2.2).

    The contractor scores the bet if the cards won (plus counted discards) and marriages reach
    it, else loses it. Opponents score their card points, rounded, plus their marriages, or
    nothing while on the barrel. A blind contract doubles every player's points.
    """
    taken = card_points[contractor] + marriage_points[contractor]
    if rules.count_discards:
        taken += discard_points
    made = taken >= bet
    factor = 2 if blind else 1
    points = [0] * rules.players
    for seat in active:
        if seat == contractor:
            points[seat] = factor * (bet if made else -bet)
        elif not on_barrel[seat]:
            own = rules.round_opponent(card_points[seat]) + marriage_points[seat]
            points[seat] = factor * own
    return DealScore(tuple(points), taken, made)


@dataclass(frozen=True)
class HandResult:
    """How one deal ended: a line of the score history.

    ``contractor`` is ``None`` for a deal everybody passed (only possible when the first
    bidder need not bid). ``points`` are the deal's points before penalties; ``penalties``
    lists the bolt and barrel penalties it caused; ``scores`` are the totals after it.
    """

    number: int
    dealer: int
    contractor: int | None
    bid: int | None
    bet: int | None
    blind: bool
    made: bool | None
    taken: int | None
    card_points: tuple[int, ...]
    marriages: tuple[int, ...]
    discard_points: int
    tricks: tuple[int, ...]
    points: tuple[int, ...]
    scores: tuple[int, ...]
    summary: str
    penalties: tuple[dict[str, Any], ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"number": self.number, "dealer": self.dealer, "contractor": self.contractor,
                "bid": self.bid, "bet": self.bet, "blind": self.blind, "made": self.made,
                "taken": self.taken, "card_points": list(self.card_points),
                "marriages": list(self.marriages), "discard_points": self.discard_points,
                "tricks": list(self.tricks), "points": list(self.points),
                "scores": list(self.scores), "summary": self.summary,
                "penalties": [dict(p) for p in self.penalties]}
