"""Scoring a hand of 500 and deciding the match (RULES.md 1.4, 1.5).

After the last trick (or the trick that sinks a no-tricks contract that stops there) the hand
is scored: the contract's points to its side, the defenders' trick points under the
``defender_points`` option, ralphing; then either a side has won the match or the next hand is
dealt. Misdeals and deals everybody passed leave a line in the history too, and count among
the deals of a match of so many deals (the ``deals`` option), which ends after its last one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cardroom.games.five_hundred.bids import TRICK_BIDS, Bid, Contract, level_of
from cardroom.games.five_hundred.shapes import HandView

if TYPE_CHECKING:
    from cardroom.games.five_hundred.state import State

TRICKS_PER_HAND = 10
NO_TRUMPS_EIGHT = 120 + 200
"""The value of eight no trumps: what a slam called in no trumps scores when made."""


@dataclass(frozen=True)
class HandResult:
    """How one deal ended: the line of the score history (seed 004's "Detailed" view).

    ``contract`` is the winning bid's text, or ``None`` when everyone passed; ``made`` is
    ``None`` for hands with no contract; ``tricks`` is per seat; ``points`` and ``scores`` are
    per side (index into ``Game.teams``); ``contract_side`` lists the seats that played for
    the contract (the contractor, its team or its called partners).
    """

    number: int
    dealer: int
    contract: str | None
    contractor: int | None
    made: bool | None
    tricks: tuple[int, ...]
    points: tuple[int, ...]
    scores: tuple[int, ...]
    summary: str
    contract_side: tuple[int, ...] = ()

    def to_dict(self) -> HandView:
        """JSON-ready form."""
        return {"number": self.number, "dealer": self.dealer, "contract": self.contract,
                "contractor": self.contractor, "made": self.made, "tricks": list(self.tricks),
                "points": list(self.points), "scores": list(self.scores),
                "summary": self.summary, "contract_side": list(self.contract_side)}


def contract_label(hand: HandView) -> str | None:
    """How a player's profile tallies the hand's contract (:func:`level_of`: ``"7"``,
    ``"misere"`` …); ``None`` when nobody bid."""
    return None if hand["contract"] is None else level_of(Bid.parse(hand["contract"]))


def contract_kind(hand: HandView) -> str | None:
    """The kind of the hand's contract (``"tricks"``, ``"misere"``, ``"open-misere"`` …), by
    which the arena tallies contracts made; ``None`` when nobody bid."""
    return None if hand["contract"] is None else Bid.parse(hand["contract"]).contract.value


CONTRACT_LEVELS = ("6", "7", "8", "9", "10")
"""The trick levels a table of contracts by level always lists, even at none bid (a level a
bot never bids is worth seeing)."""


def end_hand(game: State) -> list[dict[str, Any]]:
    """Score the hand just played; then the match is over, or the next hand is dealt."""
    points, made, summary = hand_points(game)
    result = record_hand(game, made, points, summary)
    events: list[dict[str, Any]] = [{"type": "hand_scored", **result.to_dict()}]
    barred = game.contractor if ralphed(game, made) else None
    if barred is not None:
        events.append({"type": "ralphed", "seat": barred})
    winner = match_winner(game, made)
    if winner is None:
        winner = deals_winner(game)
    if winner is not None:
        return [*events, match_over(game, winner)]
    game.barred = barred
    game.dealer = (game.dealer + 1) % game.players
    game._deal()
    return [*events, {"type": "deal", "hand": game.hand_number, "dealer": game.dealer}]


def record_hand(game: State, made: bool | None, points: list[int],
                summary: str) -> HandResult:
    """Add the hand's points to the scores and its line to the history."""
    for side, gained in enumerate(points):
        game.scores[side] += gained
    contract = game.contract
    # Filled in one go: a frozen dataclass's __init__ sets each field through object.__setattr__.
    result = HandResult.__new__(HandResult)
    result.__dict__.update(
        number=game.hand_number, dealer=game.dealer,
        contract=contract.text if contract is not None else None,
        contractor=game.contractor, made=made, tricks=tuple(game.tricks_won),
        points=tuple(points), scores=tuple(game.scores), summary=summary,
        contract_side=game.contract_side)
    game.history.append(result)
    return result


def defence(game: State, side: int, points: int) -> int:
    """Defence points of a side after the ``defender_points`` option (and its caps)."""
    rule = game.rules.defender_points
    if rule == "always":
        return points
    if rule == "none":
        return 0
    cap = 490 if rule == "not_over_490" else 400
    return max(0, min(points, cap - game.scores[side]))


def hand_points(game: State) -> tuple[list[int], bool | None, str]:
    """Points per side for the hand just played, whether the contract was made, a summary."""
    n_sides = len(game.teams)
    team_tricks = [game.side_tricks(team) for team in game.teams]
    points = [0] * n_sides
    contract = game.contract
    if contract is None:
        return ([10 * t for t in team_tricks], None,
                "Nobody bid: played in no trumps at 10 points a trick.")
    contractor: int = game.contractor  # type: ignore[assignment]
    side = game.team_of[contractor]
    makers_sides = sorted({game.team_of[s] for s in game.contract_side})
    defenders = [t for t in range(n_sides) if t not in makers_sides]
    kind = contract.contract
    if kind is Contract.ACROSS_THE_CORNER:
        mine = game.tricks_won[contractor]
        opponent: int = game.corner_opponent  # type: ignore[assignment]
        theirs = game.tricks_won[opponent]
        if mine == theirs:
            return points, None, f"Across The Corner: {mine} tricks each, nobody scores."
        fewer = side if mine < theirs else game.team_of[opponent]
        points[fewer] = contract.value
        return points, mine < theirs, (f"Across The Corner: {min(mine, theirs)} tricks to "
                                       f"{max(mine, theirs)}; {contract.value} to side "
                                       f"{fewer}.")
    if contract.is_misere_type:
        taken = game.side_tricks(game.makers())
        made = taken == 0
        verdict = "made" if made else f"failed ({taken} trick{'s' * (taken != 1)} taken)"
        summary = f"{contract.name} {verdict}."
        # The defenders score the makers' tricks (unless the rules pay them nothing).
        defended = [10 * taken * game.rules.misere_trick_points] * n_sides
    elif kind is Contract.HI_LO:
        taken = game.tricks_won[contractor]
        made = taken == 5
        summary = f"{contract.name}: {taken} tricks, {'made' if made else 'failed'}."
        defended = [10 * t for t in team_tricks]
    else:
        return _trick_contract_points(game, points, makers_sides, defenders, team_tricks)
    for t in makers_sides:
        points[t] = contract.value if made else -contract.value
    for t in defenders:
        points[t] = defence(game, t, defended[t])
    return points, made, summary


def _trick_contract_points(game: State, points: list[int], makers_sides: list[int],
                           defenders: list[int],
                           team_tricks: list[int]) -> tuple[list[int], bool, str]:
    """:func:`hand_points` of a six-to-ten trick contract (a slam call included)."""
    contract = game.contract
    assert contract is not None
    taken = game.side_tricks(game.contract_side)
    if game.slam:
        made = taken == TRICKS_PER_HAND
        eight = (NO_TRUMPS_EIGHT if contract.trump is None
                 else TRICK_BIDS[(8, contract.trump)].value)
        value = eight if made else contract.value + 100
    else:
        made = taken >= contract.tricks
        value = contract.value
        if made and taken == TRICKS_PER_HAND:
            bonus = game.rules.all_tricks_bonus
            if bonus == "slam_250":
                value = max(value, 250)
            elif bonus == "sweep_plus_50" and contract.tricks < TRICKS_PER_HAND:
                value += 50
    for t in makers_sides:
        points[t] = value if made else -value
    for t in defenders:
        points[t] = defence(game, t, 10 * team_tricks[t])
    verdict = "made it through" if made else "went back"
    name = f"{contract.name}, slam called" if game.slam else contract.name
    return points, made, f"{name}: {taken} tricks, {verdict}."


def ralphed(game: State, made: bool | None) -> bool:
    """Ralphing: did the contractor fall three or more tricks short?"""
    contract = game.contract
    if not game.rules.ralphing or contract is None or made is not False:
        return False
    if contract.contract is Contract.ACROSS_THE_CORNER:
        return False
    if contract.is_misere_type:
        return game.side_tricks(game.makers()) >= 3
    if contract.contract is Contract.HI_LO:
        return abs(game.tricks_won[game.contractor] - 5) >= 3  # type: ignore[index]
    needed = TRICKS_PER_HAND if game.slam else contract.tricks
    return needed - game.side_tricks(game.contract_side) >= 3


def match_winner(game: State, made: bool | None) -> int | None:
    """The side that has won the match after this hand, if any (RULES.md 1.4)."""
    rules = game.rules
    side = None if game.contractor is None else game.team_of[game.contractor]
    contract_sides = {game.team_of[s] for s in game.contract_side}
    scores = game.scores
    sides = range(len(scores))
    reached = [t for t in sides if (scores[t] > rules.target if rules.target_strict
                                    else scores[t] >= rules.target)]
    if rules.win_needs_bid:
        reached = [t for t in reached if t in contract_sides and made]
    if len(reached) == 1:
        return reached[0]
    if reached:
        if rules.both_reach_target == "contractor" and side in reached:
            return side
        top = max(scores[t] for t in reached)
        tied = [t for t in reached if scores[t] == top]
        if len(tied) == 1:
            return tied[0]
        # An exact tie at the top: the contractor's side takes it, or another hand settles it.
        return side if rules.target_tie == "contractor" and side in tied else None
    if rules.lose_at is not None:
        losers = [t for t in sides if scores[t] <= rules.lose_at]
        if not losers:
            return None
        others = [t for t in sides if t not in losers]
        if not others and rules.both_at_lose_at == "contractor_loses":
            others = [t for t in sides if t not in contract_sides]
        return _best(scores, others or list(sides), side)
    return None


def deals_winner(game: State) -> int | None:
    """The side that wins a match of a fixed number of deals (the ``deals`` option) when the
    deal just recorded in the history was its last: the highest score, an exact tie to the
    contractor's side of that deal if it is among the tied, else to the first tied side.
    ``None`` while deals are left (or the match has no fixed number of them). Asked only after
    the usual end of a match (:func:`match_winner`) found no winner."""
    limit = game.rules.deals
    if limit is None or len(game.history) < limit:
        return None
    side = None if game.contractor is None else game.team_of[game.contractor]
    return _best(game.scores, range(len(game.scores)), side)


def match_over(game: State, winner: int) -> dict[str, Any]:
    """End the match with side ``winner`` the winner; the event that says so."""
    game.finish(winner)
    return {"type": "match_over", "winner": winner, "scores": list(game.scores)}


def _best(scores: Sequence[int], candidates: Sequence[int], contractor_side: int | None) -> int:
    """The highest-scoring of ``candidates``; on a tie the contractor's side, else the
    first."""
    top = max(scores[t] for t in candidates)
    tied = [t for t in candidates if scores[t] == top]
    return contractor_side if contractor_side in tied else tied[0]
