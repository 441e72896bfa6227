"""Scoring of a deal of 1000 and deciding the match (RULES.md 2.1, 2.2).

:func:`score_deal` is the arithmetic of one deal (the contract, the opponents' rounded points,
blind doubling), shared with the search bot so that its play-outs score exactly as the engine
does. After the last trick :func:`end_hand` adds the deal's points to the scores, then the
match-level rules that come after them (bolts, the barrel), and either a player has won the
match or the next deal is dealt. A deal everybody passed leaves a line in the history too, and
counts among the deals of a match of so many deals (the ``deals`` option), which ends after its
last one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cardroom.games.thousand.deck import points_of
from cardroom.games.thousand.rules import Rules
from cardroom.games.thousand.shapes import HandView, Penalty

if TYPE_CHECKING:
    from cardroom.games.thousand.state import State


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
    penalties: tuple[Penalty, ...] = field(default=())

    def to_dict(self) -> HandView:
        """JSON-ready form."""
        return {"number": self.number, "dealer": self.dealer, "contractor": self.contractor,
                "bid": self.bid, "bet": self.bet, "blind": self.blind, "made": self.made,
                "taken": self.taken, "card_points": list(self.card_points),
                "marriages": list(self.marriages), "discard_points": self.discard_points,
                "tricks": list(self.tricks), "points": list(self.points),
                "scores": list(self.scores), "summary": self.summary,
                "penalties": [p.copy() for p in self.penalties]}


def contract_label(hand: HandView) -> str | None:
    """How a player's profile tallies the deal's contract: its final bet (``"120"``);
    ``None`` when nobody bid."""
    value = hand["bet"] if hand["bet"] is not None else hand["bid"]
    return None if hand["contractor"] is None or value is None else str(value)


def contract_kind(hand: HandView) -> str | None:
    """The kind of the deal's contract: ``"blind"`` for a bet made before seeing the talon,
    else ``"bet"``; ``None`` when nobody bid."""
    if hand["contractor"] is None:
        return None
    return "blind" if hand["blind"] else "bet"


CONTRACT_LEVELS: tuple[str, ...] = ()
"""Bets a table of contracts by level always lists: none (bets run in tens from 100, and
only those bid are shown)."""


# -- the end of a deal ---------------------------------------------------------------------------


def end_hand(game: State) -> list[dict[str, Any]]:
    """Score the deal just played (its points, then bolts and the barrel); then the match is
    over, or the next deal is dealt."""
    contractor: int = game.contractor  # type: ignore[assignment]
    bet: int = game.bet  # type: ignore[assignment]
    discard_points = points_of(game.discards)
    deal = score_deal(game.rules, contractor, bet, game.blind, game.card_points,
                      game.marriage_points, discard_points, game.active, game.on_barrel)
    for seat, points in enumerate(deal.points):
        game.scores[seat] += points
    penalties = bolts(game) + barrel(game, deal.made)
    verdict = "made" if deal.made else "failed"
    result = HandResult(
        number=game.hand_number, dealer=game.dealer, contractor=contractor, bid=game.bid,
        bet=bet, blind=game.blind, made=deal.made, taken=deal.taken,
        card_points=tuple(game.card_points), marriages=tuple(game.marriage_points),
        discard_points=discard_points, tricks=tuple(game.tricks_won), points=deal.points,
        scores=tuple(game.scores), penalties=tuple(penalties),
        summary=(f"The contractor bet {bet}{' blind' if game.blind else ''}, "
                 f"took {deal.taken}: {verdict}."))
    game.history.append(result)
    events: list[dict[str, Any]] = [{"type": "hand_scored", **result.to_dict()}]
    winner = match_winner(game)
    if winner is not None:
        return [*events, match_over(game, winner)]
    return events + next_deal(game)


def record_passed_deal(game: State) -> None:
    """A deal nobody bid in: its line in the history, with no points."""
    zero = (0,) * game.players
    game.history.append(HandResult(
        number=game.hand_number, dealer=game.dealer, contractor=None, bid=None, bet=None,
        blind=False, made=None, taken=None, card_points=zero, marriages=zero,
        discard_points=0, tricks=zero, points=zero, scores=tuple(game.scores),
        summary="Everybody passed: the deal passes to the left."))


def next_deal(game: State) -> list[dict[str, Any]]:
    """The deal passes clockwise and the next hand is dealt; or, when the deal just recorded
    was the last of a match of so many deals (``deals``), the match is over."""
    winner = deals_winner(game)
    if winner is not None:
        return [match_over(game, winner)]
    game.dealer = (game.dealer + 1) % game.players
    game._deal()
    return [{"type": "deal", "hand": game.hand_number, "dealer": game.dealer}]


def bolts(game: State) -> list[Penalty]:
    """Count a bolt for each player who took no trick; a full set costs the penalty."""
    rules = game.rules
    if rules.bolts is None:
        return []
    penalties: list[Penalty] = []
    for seat in game.active:
        if game.tricks_won[seat]:
            continue
        game.bolts[seat] += 1
        if game.bolts[seat] >= rules.bolts:
            game.bolts[seat] = 0
            game.scores[seat] -= rules.bolt_penalty
            penalties.append({"seat": seat, "kind": "bolts", "points": -rules.bolt_penalty})
    return penalties


def barrel(game: State, made: bool) -> list[Penalty]:
    """Hold scores at the barrel, count barrel deals, and charge those who ran out."""
    rules = game.rules
    if rules.barrel is None:
        return []
    penalties: list[Penalty] = []
    for seat in range(game.players):
        contract_won = seat == game.contractor and made
        if (rules.barrel_hold and game.scores[seat] > rules.barrel
                and not (contract_won and game.scores[seat] >= rules.target)):
            game.scores[seat] = rules.barrel
        if barrel_deals_ran_out(game, seat, rules.barrel):
            game.scores[seat] -= rules.barrel_penalty
            game.on_barrel[seat] = False
            game.barrel_deals[seat] = 0
            penalties.append({"seat": seat, "kind": "barrel", "points": -rules.barrel_penalty})
    return penalties


def barrel_deals_ran_out(game: State, seat: int, barrel: int) -> bool:
    """Update ``seat``'s barrel state after a deal; True when its barrel deals ran out."""
    rules = game.rules
    score = game.scores[seat]
    if not game.on_barrel[seat]:
        game.on_barrel[seat] = barrel <= score < rules.target
        game.barrel_deals[seat] = 0
        return False
    if score < barrel:
        game.on_barrel[seat] = False
        game.barrel_deals[seat] = 0
        return False
    if rules.barrel_count == "without_bank" and seat == game.contractor:
        game.barrel_deals[seat] = 0
        return False
    game.barrel_deals[seat] += 1
    return game.barrel_deals[seat] >= rules.barrel_deals


def match_over(game: State, winner: int) -> dict[str, Any]:
    """End the match with ``winner`` the winner; the event that says so."""
    game.finish(winner)
    return {"type": "match_over", "winner": winner, "scores": list(game.scores)}


def deals_winner(game: State) -> int | None:
    """The winner of a match of a fixed number of deals (the ``deals`` option) when the deal
    just recorded in the history was its last: the highest score, an exact tie to that deal's
    contractor if among the tied, else to the lowest seat. ``None`` while deals are left (or
    the match has no fixed number of them). Asked only when nobody reached the target."""
    limit = game.rules.deals
    if limit is None or len(game.history) < limit:
        return None
    top = max(game.scores)
    tied = [seat for seat in range(game.players) if game.scores[seat] == top]
    return game.contractor if game.contractor in tied else tied[0]


def match_winner(game: State) -> int | None:
    """The player who reached the target this deal: the contractor if among them, else the
    highest score (ties to the earlier seat)."""
    reached = [s for s in range(game.players) if game.scores[s] >= game.rules.target]
    if not reached:
        return None
    if game.contractor in reached:
        return game.contractor
    return max(reached, key=lambda s: (game.scores[s], -s))
