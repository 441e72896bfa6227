"""After the fact, for 1000: whether the bet could be made with all cards visible, and what
every card cost.

1000's double-dummy solver (:mod:`cardroom.bots.thousand.solver`) answers a deal's *margin*:
twice the contractor's points of the deal less the defenders'. The contractor scores its bet
made or lost, so a margin says both things a player asks (:class:`Outcome`): whether the bet
is made, and what the defenders score. For each deal the analysis solves the position as the
play begins and, before every card, every legal play of the seat to act: a card whose margin
is worse for its side than the best play's is a slip, and the better plays are listed.

A whole deal of eight tricks can take the solver seconds, so every solve is bounded by
:data:`NODE_LIMIT` positions; a card (or a deal's start) the solver does not finish within it
has no verdict, and says so. The analysis reads every hand, as 500's does (after the match,
in the bot workers); the bidding review sets each call beside the search bot's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cardroom.bots.reviews import call_review
from cardroom.bots.thousand.search import ThousandSearchBot
from cardroom.bots.thousand.solver import (
    Deal,
    Position,
    Solver,
    SolverTimeout,
    score_tables,
)
from cardroom.bots.thousand.solver_kernel import T_CONTRACTOR
from cardroom.games.cards import CARDS
from cardroom.games.record import Record
from cardroom.games.thousand import Game
from cardroom.games.thousand.actions import PLAY, Action

NODE_LIMIT = 3_000_000
"""Positions one solve may search (about a second) before it gives up."""
UNIT = "points"
"""What 1000's verdicts count (500's count tricks)."""


@dataclass(frozen=True)
class Outcome:
    """What a margin means: whether the contractor makes its bet, and the defenders' points
    of the deal."""

    made: bool
    defenders: int


def outcome(deal: Deal, margin: int) -> Outcome:
    """The outcome behind ``margin``: the contractor's deal score is its bet won or lost
    (the score table's two values), so the margin tells which, and the rest of it is the
    defenders' points."""
    row = score_tables(deal)[T_CONTRACTOR]
    lost, won = int(row[0]), int(row.max())
    made = margin > 2 * lost
    return Outcome(made, 2 * (won if made else lost) - margin)


@dataclass(frozen=True)
class PointsVerdict:
    """One card: the margin its side could keep with best play before it and after it (the
    contractor's margin, or the defenders' negated), their outcomes, and the better plays."""

    action: int
    trick: int
    seat: int
    played: str
    before: int
    after: int
    was: Outcome
    became: Outcome
    best: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``lost`` is the margin the card gave away."""
        return {"action": self.action, "trick": self.trick, "seat": self.seat,
                "played": self.played, "before": self.before, "after": self.after,
                "lost": self.before - self.after, "best": list(self.best),
                "made_before": self.was.made, "made_after": self.became.made,
                "defenders_before": self.was.defenders,
                "defenders_after": self.became.defenders}


@dataclass
class DealAnalysis:
    """One deal: the bet, whether it could be made double dummy (``None``: not solved within
    the limit) and what the defenders would score, what happened, every card's verdict
    (``unsolved`` counts the cards without one) and the bidding review."""

    number: int
    contract: str
    contractor: int
    makeable: Outcome | None = None
    made: bool | None = None
    taken: int | None = None
    cards: list[PointsVerdict] = field(default_factory=list)
    unsolved: int = 0
    bidding: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, in the shape of 500's hand analysis where the two agree."""
        start = self.makeable
        return {"number": self.number, "unit": UNIT, "contract": self.contract,
                "contractor": self.contractor, "makers": [self.contractor],
                "makeable": None if start is None else start.made,
                "defenders_makeable": None if start is None else start.defenders,
                "made": self.made, "taken": self.taken, "par": {},
                "cards": [card.to_dict() for card in self.cards],
                "unsolved": self.unsolved, "bidding": self.bidding}


def _margins(game: Game) -> tuple[Deal, dict[tuple[int, bool], int]] | None:
    """Every legal play's margin from the position on show, or ``None`` past the limit."""
    position = Position.from_game(game)
    try:
        return position.deal, Solver(position, NODE_LIMIT).move_values()
    except SolverTimeout:
        return None


def _verdict(game: Game, action: Action, index: int) -> PointsVerdict | None:
    """The card's verdict from its side's point of view, or ``None`` when not solved."""
    solved = _margins(game)
    if solved is None:
        return None
    deal, values = solved
    seat = game.to_act
    assert seat is not None
    sign = 1 if seat == deal.contractor else -1
    card = action.cards[0]
    move = (card.index, action.marriage)
    best = max(sign * value for value in values.values())
    played = sign * values[move]
    better = () if played == best else tuple(
        f"{CARDS[option].text}{' marriage' if declares else ''}"
        for (option, declares), value in sorted(values.items()) if sign * value == best)
    return PointsVerdict(action=index, trick=len(game.completed) + 1, seat=seat,
                         played=action.text[5:], before=best, after=played,
                         was=outcome(deal, sign * best), became=outcome(deal, sign * played),
                         best=better)


def analyse_deal(record: Record, number: int, review_bids: bool = True) -> DealAnalysis:
    """The analysis of deal ``number`` of ``record`` (``ValueError`` if it had no play)."""
    game = Game.replay(Record(game=record.game, rules=record.rules, seed=record.seed,
                              dealer=record.dealer, deal=record.deal))
    analysis: DealAnalysis | None = None
    calls: list[dict[str, Any]] = []
    for index, text in enumerate(record.actions):
        if game.hand_number > number:
            break
        action = Action.parse(text)
        here = game.hand_number == number
        if here and review_bids and game.phase == "bidding":
            calls.append(call_review(ThousandSearchBot(seed=index), game, text, index))
        if here and game.phase == "play" and action.kind == PLAY:
            if analysis is None:
                analysis = _start(game, calls)
            verdict = _verdict(game, action, index)
            if verdict is None:
                analysis.unsolved += 1
            else:
                analysis.cards.append(verdict)
        scored = len(game.history)
        game.apply(action)
        if analysis is not None and len(game.history) > scored:
            result = game.history[-1]
            analysis.made, analysis.taken = result.made, result.taken
            break
    if analysis is None:
        raise ValueError(f"deal {number} had no cards played")
    return analysis


def _start(game: Game, calls: list[dict[str, Any]]) -> DealAnalysis:
    """A deal whose play begins now: its bet, and its outcome double dummy."""
    contractor = game.contractor
    assert contractor is not None
    analysis = DealAnalysis(number=game.hand_number,
                            contract=f"{game.bet}{' blind' if game.blind else ''}",
                            contractor=contractor, bidding=calls)
    position = Position.from_game(game)
    try:
        analysis.makeable = outcome(position.deal, Solver(position, NODE_LIMIT).value())
    except SolverTimeout:
        analysis.makeable = None
    return analysis


def review_deal(record_text: str, number: int) -> dict[str, Any]:
    """The analysis of deal ``number`` of a record's match with its bidding review,
    JSON-ready (what a bot worker answers the room with)."""
    return analyse_deal(Record.from_text(record_text), number).to_dict()
