"""Duplicate scoring of the daily challenge: each deal's result against everybody else's.

Everyone plays the same deals from the same seat, so luck of the cards cancels: a player's
score on a deal is the share of the other results on it that theirs beat, a tie counting half
(matchpoints, as duplicate bridge scores a board), as a percentage. The bots' own result on
the deal (every seat a bot) is one more result to beat. A day's total is the sum of the deals'
percentages (a deal not played scores nothing), so finishing the day matters; equal totals
are ordered by points and then share a rank only when those are equal too (an entrant who
finished no deal comes last).

Pure functions of plain numbers: the room's service (:mod:`cardroom.tables.challenge`) reads
the results, these work out the standings.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

NO_FIELD = 50.0
"""A deal's score when there is nobody else's result to compare with (yet): average."""
BOTS = "bots"
"""The id of the bots' own row in a leaderboard."""


def deal_points(scores: Sequence[int], side: int) -> float:
    """A deal's result for ``side``: its points less the others' average (in 500 the
    difference between the two sides; at 1000's three seats, the player's points less the
    mean of the other two), so that what the other side scored counts too."""
    others = [points for number, points in enumerate(scores) if number != side]
    return float(scores[side]) - (sum(others) / len(others) if others else 0.0)


def matchpoints(result: float, field: Sequence[float], own: bool = False) -> float:
    """The percentage of the ``field`` (the results on the deal, sorted ascending) that
    ``result`` beats, a tie counting half; :data:`NO_FIELD` with nobody to compare.
    ``own``: the field holds ``result`` itself once, which is not compared."""
    below = bisect_left(field, result)
    tied = bisect_right(field, result) - below - own
    others = len(field) - own
    if others <= 0:
        return NO_FIELD
    return 100.0 * (below + tied / 2) / others


@dataclass(frozen=True, slots=True)
class Entrant:
    """One row to score: a player (or the bots) and their result on each deal played."""

    id: str
    name: str
    results: dict[int, float]
    """Points by deal number (from 1); a deal not finished is missing."""


@dataclass(frozen=True, slots=True)
class Standing:
    """An entrant's place on the day: rank, totals and each deal's points and matchpoints."""

    rank: int
    id: str
    name: str
    total: float
    """The sum of the deals' matchpoint percentages."""
    points: float
    deals: list[tuple[float, float] | None]
    """Per deal (from deal 1): ``(points, matchpoints %)``, or ``None`` if not played."""

    @property
    def played(self) -> int:
        """How many deals the entrant finished."""
        return sum(deal is not None for deal in self.deals)


def standings(entrants: Sequence[Entrant], deals: int) -> list[Standing]:
    """Every entrant scored against all the others on each deal, best first, ranked (equal
    total and points share a rank; the next rank skips past them: 1, 2, 2, 4)."""
    fields = {deal: sorted(e.results[deal] for e in entrants if deal in e.results)
              for deal in range(1, deals + 1)}
    scored = []
    for entrant in entrants:
        per_deal: list[tuple[float, float] | None] = []
        for deal in range(1, deals + 1):
            result = entrant.results.get(deal)
            if result is None:
                per_deal.append(None)
                continue
            per_deal.append((result, round(matchpoints(result, fields[deal], own=True), 2)))
        total = round(sum(d[1] for d in per_deal if d is not None), 2)
        points = sum(d[0] for d in per_deal if d is not None)
        scored.append((total, points, entrant, per_deal))
    # Entrants who finished no deal come last, whatever the others' points.
    scored.sort(key=lambda row: (not row[2].results, -row[0], -row[1], row[2].name.casefold(),
                                 row[2].id))
    ranked: list[Standing] = []
    for place, (total, points, entrant, per_deal) in enumerate(scored, start=1):
        same = ranked and (ranked[-1].total, ranked[-1].points, ranked[-1].played) == (
            total, points, sum(d is not None for d in per_deal))
        rank = ranked[-1].rank if same else place
        ranked.append(Standing(rank, entrant.id, entrant.name, total, points, per_deal))
    return ranked

