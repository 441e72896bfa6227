"""Bidding with the match score in mind, as a good player does near the end of a match.

A hand's bid is worth what it does to the chance of winning the match, not its points alone:

- **Stop them.** When the other side holds a bid that wins them the match if they make it,
  passing loses the match most of the time, and going down costs only points. So outbid
  them, in the strain the hand is nearest to making, up to :data:`STOP_STRETCH` tricks past
  what the hand is worth, unless going down would put this side at the losing score.
- **Win safely.** When a made contract wins the match for this side, its size no longer
  matters: of the bids the hand is worth, take the one with most tricks to spare rather than
  the most valuable.

The hand valuation (a level per strain) comes from the caller: the rules bot's.

A call the tactics changed says which tactic changed it (:class:`MatchCall`), so that a
measurement can tell a contract bid on the hand's worth from a stop bid, which is bid expecting
to go down more often than not (``python -m cardroom.tools.arena`` reports them apart).
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from cardroom.bots.five_hundred.knowledge import legal_trick_bids
from cardroom.bots.seen import seat_of
from cardroom.games.cards import Suit
from cardroom.games.five_hundred import Bid
from cardroom.games.five_hundred.exchange import partners_called
from cardroom.games.five_hundred.shapes import FiveHundredView, HighBid

STOP_STRETCH = 3
"""Most tricks past a hand's worth that it bids to stop the other side winning the match.
Between the rules bot with these tactics and without, over 2,000 duplicate `online` matches: a
stretch of 1 won 56.1%, 2 won 62.0%, 3 won 65.2%, and 4 or no limit the same as 3
(bench/RESULTS.md)."""


Tactic = Literal["stop", "safe"]
"""Which tactic made a call: ``stop``, a bid over the other side's match-winning bid;
``safe``, the match-winning bid with most tricks to spare."""


class MatchCall(NamedTuple):
    """A call with the match score in mind, and the tactic that made it (``None``: the
    hand's own call, unchanged)."""

    action: str
    tactic: Tactic | None = None


def match_bid(view: FiveHundredView, levels: dict[Suit | None, int], choice: str,
              safe_levels: dict[Suit | None, int] | None = None,
              one_partner_levels: dict[Suit | None, int] | None = None) -> MatchCall:
    """``choice`` (the hand's own bid or pass), changed where the match score calls for it:
    a stop bid stretches from ``levels``; a safe winning bid stays within ``safe_levels``
    (``levels`` when not given: the rules bot's levels are made nine times in ten, a learned
    evaluator's level may be a coin flip), and, at five players, a safe bid below
    :data:`~cardroom.games.five_hundred.exchange.TWO_PARTNERS_FROM` within
    ``one_partner_levels``: it calls one partner where the levels from eight up count two
    (stepping an eight down to a "safe" seven lost that partner, and 42% of those sevens
    over 400 five-handed matches: bench/RESULTS.md)."""
    if view["phase"] != "bidding" or view.get("game", "500") != "500":
        return MatchCall(choice)
    side = view["side_of"][seat_of(view)]
    rules = view["rules"]
    high = view["high_bid"]
    legal = legal_trick_bids(view["legal_actions"])
    if not legal:
        return MatchCall(choice)
    bidding = choice.startswith("bid ")
    if not bidding and high is not None and view["side_of"][high["seat"]] != side:
        stop = _stopping_bid(view, levels, legal, high, side)
        return MatchCall(choice) if stop is None else MatchCall(stop, "stop")
    if bidding and rules["target"] is not None:
        safe = _safe_winning_bid(view, levels if safe_levels is None else safe_levels,
                                 legal, side, one_partner_levels)
        if safe is not None and safe != choice:
            return MatchCall(safe, "safe")
    return MatchCall(choice)


def _value(view: FiveHundredView, text: str) -> int:
    """The ladder value of a bid's text (0 for a bid the ladder does not list)."""
    return next((rung["value"] for rung in view["ladder"] if rung["bid"] == text), 0)


def _reaches(view: FiveHundredView, score: int) -> bool:
    """Whether a side's score wins the match (the rules' target, strict or not)."""
    rules = view["rules"]
    target = rules["target"]
    if target is None:
        return False
    return score > target if rules["target_strict"] else score >= target


def _survives(view: FiveHundredView, side: int, value: int) -> bool:
    """Whether this side stays above the losing score if a contract of ``value`` goes down."""
    lose_at = view["rules"]["lose_at"]
    return lose_at is None or view["scores"][side] - value > lose_at


def _stopping_bid(view: FiveHundredView, levels: dict[Suit | None, int], legal: list[Bid],
                  high: HighBid, side: int) -> str | None:
    """The bid that stops the other side's match-winning contract at the least stretch (then
    the least value), or ``None`` when their bid would not win the match or no bid is
    within :data:`STOP_STRETCH` of what the hand is worth."""
    theirs = view["side_of"][high["seat"]]
    if not _reaches(view, view["scores"][theirs] + _value(view, high["bid"])):
        return None
    options = []
    for bid in legal:
        level = levels.get(bid.trump, 0)
        stretch = bid.tricks - level
        if level and stretch <= STOP_STRETCH and _survives(view, side, bid.value):
            options.append((stretch, bid.value, bid))
    if not options:
        return None
    return f"bid {min(options, key=lambda option: option[:2])[2]}"


def _safe_winning_bid(view: FiveHundredView, levels: dict[Suit | None, int],
                      legal: list[Bid], side: int,
                      one_partner_levels: dict[Suit | None, int] | None = None) -> str | None:
    """Of the bids the hand is worth that win the match when made, the one with most tricks
    to spare (then the fewest tricks), or ``None`` if none wins the match; a bid that calls
    one partner judged by ``one_partner_levels`` when given."""
    options = []
    for bid in legal:
        worth = (one_partner_levels if one_partner_levels is not None
                 and partners_called(bid.tricks) == 1 else levels)
        spare = worth.get(bid.trump, 0) - bid.tricks
        if spare >= 0 and _reaches(view, view["scores"][side] + bid.value):
            options.append((spare, -bid.tricks, bid))
    if not options:
        return None
    return f"bid {max(options, key=lambda option: option[:2])[2]}"
