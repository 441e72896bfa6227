"""1000's bids from expected score, with the learned hand evaluator
(:mod:`cardroom.bots.thousand.evaluator`).

The evaluator gives, for the seat's seven cards and the calls so far, the distribution of the
highest bet it makes as contractor once it has the bank. The cheapest bid the seat may make
is judged by what winning the deal there is worth against what passing is worth, each as the
seat's points less the mean of the others' (what a three-way match is won by):

- **winning at** ``b``: the bet is made when the highest bet made is ``b`` or more, and the
  final bet then goes up by :data:`RAISE_SHARE` of the room the cards leave (the final bet is
  named on sampled deals, which see less than the solved deal the evaluator learned from);
  otherwise ``b`` is lost. Each defender takes about :data:`DEFENCE` points (none on the
  barrel).
- **passing**: the standing high bid is played by its holder, made about
  :data:`FORCED_MADE` of the time when it is a forced opening and :data:`CHOSEN_MADE` when
  it was bid by choice (the rules bot's bids: bench/RESULTS.md); the seat defends. With no
  bid yet (and none forced) a pass is worth nothing either way.

The seat bids when winning is worth more; a forced opening is always bid. Only the cheapest
bid is weighed: a higher one wins nothing a later call could not, in an auction that goes up
one step at a time.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from cardroom.bots.seen import hand_of, mask_of_texts, seat_of
from cardroom.bots.thousand.evaluator import (
    BETS,
    Evaluator,
    context_of,
    is_forced_opening,
    opener_of,
    shipped,
    view_calls,
)
from cardroom.games.thousand.shapes import ThousandView

RAISE_SHARE = 0.6
"""Share of the points between the bid and the highest bet the cards make that the final bet
takes (on sampled deals its bets were made 98% of the time, a little under the solved highest:
bench/RESULTS.md)."""
DEFENCE = 30.0
"""Points a defender takes in a deal (rules bots, 300 first deals: 31 on ``seed``, 38 on
``russian``: bench/RESULTS.md)."""
FORCED_MADE = 0.33
"""How often a forced opening of the lowest bid is made when nobody bids over it."""
CHOSEN_MADE = 0.7
"""How often a bid made by choice is made."""


def winning_value(distribution: np.ndarray, bid: int, defence: Sequence[float]) -> float:
    """The seat's expected points less the others' mean when it wins the deal at ``bid``:
    made, the bid raised by :data:`RAISE_SHARE` of the room the cards leave; failed, the bid
    lost; ``defence``: what each other seat is expected to take as defender."""
    made_points = 0.0
    failed = 0.0
    for outcome, chance in enumerate(distribution):
        highest = BETS[outcome - 1] if outcome else None
        if highest is not None and highest >= bid:
            made_points += chance * (bid + RAISE_SHARE * (highest - bid))
        else:
            failed += chance
    return made_points - failed * bid - float(np.mean(defence))


def passing_value(high_bid: int, forced: bool, own_defence: float,
                  other_defence: float) -> float:
    """The seat's expected points less the others' mean when it passes and the high bid's
    holder plays it (made :data:`FORCED_MADE` of the time when it is a forced opening, else
    :data:`CHOSEN_MADE`) with the seat and the third player defending."""
    made = FORCED_MADE if forced else CHOSEN_MADE
    contractor = high_bid * (2 * made - 1)
    return own_defence - (contractor + other_defence) / 2


def open_bids(legal: Sequence[str]) -> list[str]:
    """The bids among ``legal`` made with the cards seen (not blind), cheapest first."""
    return [text for text in legal if text.startswith("bid ") and not text.endswith("blind")]


def defence_of(view: Mapping[str, Any], seat: int) -> float:
    """What ``seat`` is expected to take as a defender: nothing on the barrel."""
    barrel = view["barrel"][seat]
    return 0.0 if barrel["on"] else DEFENCE


def valued_bid(view: ThousandView, evaluator: Evaluator | None = None) -> str | None:
    """The call with the better expected score of the cheapest bid and a pass, for a seat
    that has looked at its cards (``None``: no bid or pass to weigh, as before looking)."""
    legal: list[str] = view["legal_actions"]
    bids = open_bids(legal)
    if not bids:
        return None
    if "pass" not in legal:
        return bids[0]
    evaluator = evaluator or shipped()
    seat = seat_of(view)
    calls = view_calls(view)
    context = context_of(view["rules"], seat, calls, seat == opener_of(view))
    distribution = evaluator.distribution(mask_of_texts(hand_of(view)), context)
    others = [other for other in view["active"] if other != seat]
    bid = int(bids[0].split()[1])
    win = winning_value(distribution, bid, [defence_of(view, other) for other in others])
    high = view["high_bid"]  # {"seat", "bid", "blind"}, or None
    rules = view["rules"]
    forced = _only_the_opening(rules, calls)
    passing = 0.0  # nobody has bid, and nobody must: a deal all pass is void
    if high:
        third = next(other for other in others if other != high["seat"])
        passing = passing_value(int(high["bid"]), forced, defence_of(view, seat),
                                defence_of(view, third))
    return bids[0] if win > passing else "pass"


def _only_the_opening(rules: Mapping[str, Any], calls: Sequence[tuple[int, int | None]]) -> bool:
    """Whether the only bid so far is a forced opening, or there is none."""
    bids = [(index, value) for index, (_, value) in enumerate(calls) if value is not None]
    return not bids or (len(bids) == 1 and is_forced_opening(rules, *bids[0]))
