"""Bids from expected score: each bid judged by the points it leads to, with the learned hand
evaluator (:mod:`cardroom.bots.five_hundred.evaluator`).

For every legal trick bid the evaluator gives the distribution of the tricks the seat's side
takes in its strain after the kitty exchange (reading the partner's and opponents' calls so
far); a no-tricks bid gets the chance that the hand, after its exchange, takes no trick. The
distribution is moved by :data:`~cardroom.bots.five_hundred.evaluator.TABLE_PLAY_LOSS` (it
was learned from double-dummy play, which is kinder to a contractor with a partner than a
table where nobody sees the cards, and less kind to a lone one against two defenders who
cannot see each other's: down at four players, up in suits at three), bids it makes less
than :data:`MIN_MAKE_CHANCE` of the time (more at eight and up:
:data:`HIGH_LEVEL_MAKE_CHANCE`) are left out, and the rest are scored with the table's
rules: the contract's value made or lost, the defenders' ten a trick, the all-tricks bonus.
Passing is worth what the high bid is expected to do for or against the seat's side. The bot
makes the bid with the best expected score when it beats passing; the match tactics then
weigh the match score as they do for the rules bot's bids.

The same evaluator gives the levels the match tactics and the sanity check weigh
(:func:`view_levels`), and ranks the kitty discards (:func:`discard_values`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from cardroom.bots.five_hundred.bidding import (
    HALF,
    MISERE_BID,
    NO_TRICKS_SHARE,
    SAMPLED_NO_TRICKS,
    NoTricksSample,
    Outcome,
    defence_per_trick,
    hand_points,
)
from cardroom.bots.five_hundred.evaluator import (
    Context,
    Evaluator,
    Kind,
    at_least,
    context_from_bids,
    features,
    shipped,
)
from cardroom.bots.five_hundred.knowledge import (
    TRICKS_PER_HAND,
    calls_of,
    first_leader,
    players_of,
    team_of,
)
from cardroom.bots.seen import hand_of, mask_of_texts, seat_of
from cardroom.games.cards import Suit
from cardroom.games.five_hundred import Bid, Contract
from cardroom.games.five_hundred.rules import DECKS
from cardroom.games.five_hundred.shapes import FiveHundredView

OPEN_MISERE_SHARE = 0.8
"""The evaluator's (double-dummy) chance of a misère is taken times this for an open misère:
the defenders see the bidder's cards as double dummy does, but the bidder does not see
theirs."""
CLOSED_MISERE_BONUS = 0.05
"""Added to the chance of a closed misère: the defenders cannot see the bidder's cards."""
HIGH_BID_MADE = 0.6
"""How often a contract someone else holds is taken to be made when passing is weighed (the
evaluator cannot see their cards; the bots make seven in ten, bench/RESULTS.md, but fearing
that made the valued bidding overcall too often: 200 duplicate deals)."""
MIN_MAKE_CHANCE = 0.65
"""A bid the hand makes less often than this is not made, however bad passing looks: without
it, about half of the valued bids' eights were overcalls of the other side that failed
(200 duplicate deals, bench/RESULTS.md)."""
HIGH_LEVEL_MAKE_CHANCE = {8: 0.72, 9: 0.8, 10: 0.8}
"""The chance a trick bid of these levels must reach instead of :data:`MIN_MAKE_CHANCE`: at
0.65 the valued eights were made 65-70% of the time at the table and its nines under half
(400 matches each of `online` and `classic`, bench/RESULTS.md), below the sevens' 71-73%:
the higher the contract, the more its card play needs what double dummy sees."""
SAMPLED_SPECIALS = frozenset(SAMPLED_NO_TRICKS - NO_TRICKS_SHARE.keys())
"""The no-tricks contracts the evaluator did not learn, valued by their play on sampled
deals: Across The Corner (the bidder against the opponent who bid misère) and the contracts
both partners play."""
SampledOutcomes = Callable[[Bid], NoTricksSample | None]
"""A no-tricks bid's results on sampled deals
(:func:`~cardroom.bots.five_hundred.bidding.sampled_no_tricks_outcomes` for the seat's view),
``None`` when none was solved."""
OVER_PARTNER_MARGIN = 30.0
"""Points a bid must gain over passing to take the contract from the seat's partner."""


def bidding_context(view: FiveHundredView, kitty: int | None = None) -> Context:
    """The evaluator's context for the seat to act: its table's deck, the kitty it would take
    (``kitty`` when given), whether it would lead, and the opponents' calls so far.

    The partner's calls are not read: the evaluator learned them from the rules bot's bids,
    and a partner bidding by expected score bids the same hand higher. Reading them, the
    valued bidding expected its contracts to make 85% of the time double dummy when they made
    49% (47 contracts on 50 duplicate deals); without them, as expected (bench/RESULTS.md)."""
    seat = seat_of(view)
    deck = view["rules"]["deck"]
    leads = first_leader(view, seat) == seat
    bids = calls_of(view)
    partners = [mate for mate in team_of(view, seat) if mate != seat]
    return context_from_bids(deck, DECKS[deck].kitty if kitty is None else kitty, leads, seat,
                             partners, bids, read_partners=False)


Strains = dict[Suit | None, np.ndarray]
"""The evaluator's trick distribution of a hand in each strain (:meth:`Evaluator.strains`)."""


def evaluator_for(view: FiveHundredView) -> Evaluator:
    """The shipped evaluator of the view's table size."""
    return shipped(players_of(view))


def hand_strains(view: FiveHundredView, evaluator: Evaluator | None = None) -> Strains:
    """The seat's hand valued in every strain in the bidding as it stands: computed once a
    decision and handed to :func:`bid_points`, :func:`view_levels` and :func:`sure_levels`,
    which would each compute it again."""
    return (evaluator or evaluator_for(view)).strains(mask_of_texts(hand_of(view)),
                                                      bidding_context(view))


def trick_bid_points(rules: dict[str, Any], bid: Bid, distribution: np.ndarray) -> float:
    """The expected points for the contractor's side of ``bid`` with its tricks distributed
    as ``distribution`` (the defenders' points count against it)."""
    return float(sum(chance * hand_points(rules, bid, tricks)
                     for tricks, chance in enumerate(distribution)))


def misere_points(rules: dict[str, Any], bid: Bid, chance: float) -> float:
    """The expected points of a no-tricks bid made with probability ``chance`` (a failure
    also gives the defenders ten for the trick that broke it, where the rules pay them)."""
    return (chance * no_tricks_points(rules, bid, 0)
            + (1.0 - chance) * no_tricks_points(rules, bid, 1))


def broken_defence(rules: dict[str, Any], taken: int) -> int:
    """What the defenders of a broken no-tricks contract score for the makers' ``taken``
    tricks: ten each, unless the rules pay no defence (as the engine scores it)."""
    if not rules["misere_trick_points"] or rules["defender_points"] == "none":
        return 0
    return 10 * taken


def no_tricks_points(rules: dict[str, Any], bid: Bid, taken: Outcome) -> int:
    """The points, for the bidder's side, of the no-tricks bid ``bid`` on a deal where its
    makers took ``taken`` tricks (:data:`~cardroom.bots.five_hundred.bidding.Outcome`):
    Across The Corner's value to the side of the seat that took fewer (none when both took
    five); a misère-type contract's value made, or lost with the defence's ten a trick."""
    if bid.contract is Contract.ACROSS_THE_CORNER:
        return bid.value if taken < HALF else -bid.value if taken > HALF else 0
    return bid.value if taken == 0 else -bid.value - broken_defence(rules, taken)


def made_share(bid: Bid, outcomes: Sequence[Outcome]) -> float:
    """The share of the sampled deals on which ``bid`` is made (Across The Corner: won)."""
    limit = HALF if bid.contract is Contract.ACROSS_THE_CORNER else 1
    return sum(taken < limit for taken in outcomes) / len(outcomes)


def answer_points(view: FiveHundredView, bid: Bid, sample: NoTricksSample) -> float:
    """The expected points of the no-tricks bid ``bid`` from its play on sampled deals. A bid
    answering the misère that is the high bid is counted as passing's points
    (:func:`pass_points`) plus what it gains over letting that misère stand on the same
    deals, so that :func:`valued_bid` compares the two deal by deal: the hands that win Across
    The Corner are mostly those whose defence breaks the misère anyway, which then pays ten a
    trick (weighed against passing's nominal points alone, the answers lost about 40 points a
    deal where they were made, over 400 deals: bench/RESULTS.md)."""
    rules = view["rules"]
    points = sampled_points(rules, bid, sample.outcomes)
    if sample.caller is None or not sample.standing:
        return points
    standing = sampled_points(rules, MISERE_BID, sample.standing)
    if sample.caller not in team_of(view, seat_of(view)):
        standing = -standing
    return pass_points(view) + points - standing


def sampled_points(rules: dict[str, Any], bid: Bid, outcomes: Sequence[Outcome]) -> float:
    """The expected points of the no-tricks bid ``bid`` from its results on sampled deals
    (:func:`~cardroom.bots.five_hundred.bidding.sampled_no_tricks_outcomes`)."""
    return sum(no_tricks_points(rules, bid, taken) for taken in outcomes) / len(outcomes)


def misere_chance(bid: Bid, chance: float) -> float:
    """The evaluator's (open, double-dummy) chance turned into the chance of ``bid``."""
    if bid.contract is Contract.OPEN_MISERE:
        return chance * OPEN_MISERE_SHARE
    return min(1.0, chance + CLOSED_MISERE_BONUS)


def pass_points(view: FiveHundredView) -> float:
    """The expected points of passing for the seat's side: the high bid's contract, made
    :data:`HIGH_BID_MADE` of the time, for the side that holds it, less the defenders' ten a
    trick where they score (about the tricks the contract leaves them); nothing when nobody
    bid."""
    high = view["high_bid"]
    if high is None:
        return 0.0
    bid = Bid.parse(high["bid"])
    expected = (2 * HIGH_BID_MADE - 1) * bid.value
    if bid.is_trick_bid:
        expected -= defence_per_trick(view["rules"]) * (TRICKS_PER_HAND - bid.tricks)
    mine = high["seat"] in team_of(view, seat_of(view))
    return expected if mine else -expected


def make_chance_needed(bid: Bid) -> float:
    """The chance the hand must make ``bid`` with for the bid to be made at all."""
    if bid.contract is Contract.TRICKS:
        return level_chance_needed(bid.tricks)
    return MIN_MAKE_CHANCE


def level_chance_needed(tricks: int) -> float:
    """The chance a trick bid of ``tricks`` must be made with for the bid to be made."""
    return HIGH_LEVEL_MAKE_CHANCE.get(tricks, MIN_MAKE_CHANCE)


def bid_points(view: FiveHundredView, evaluator: Evaluator | None = None,
               strains: Strains | None = None,
               sampled: SampledOutcomes | None = None) -> dict[str, float]:
    """The expected points of passing and of every legal bid the hand makes often enough
    (:func:`make_chance_needed`), by action: trick bids, misère and open misère by the
    evaluator (``strains``: :func:`hand_strains`, when the caller has it); the no-tricks bids
    it did not learn (Across The Corner and The Table, double nullo) by their results on
    sampled deals, when ``sampled`` gives them."""
    evaluator = evaluator or evaluator_for(view)
    rules = view["rules"]
    hand = mask_of_texts(hand_of(view))
    context = bidding_context(view)
    strains = strains or evaluator.strains(hand, context)
    misere: float | None = None
    points: dict[str, float] = {}
    for action in view["legal_actions"]:
        if action == "pass":
            points[action] = pass_points(view)
            continue
        if not action.startswith("bid "):
            continue
        bid = Bid.parse(action[4:])
        if bid.contract is Contract.TRICKS:
            distribution = evaluator.discounted(strains[bid.trump], bid.trump)
            if at_least(distribution, bid.tricks) >= level_chance_needed(bid.tricks):
                points[action] = trick_bid_points(rules, bid, distribution)
        elif bid.contract in (Contract.MISERE, Contract.OPEN_MISERE):
            misere = evaluator.misere(hand, context) if misere is None else misere
            chance = misere_chance(bid, misere)
            if chance >= make_chance_needed(bid):
                points[action] = misere_points(rules, bid, chance)
        elif bid.contract in SAMPLED_SPECIALS and sampled is not None:
            sample = sampled(bid)
            if sample is not None and made_share(bid, sample.outcomes) >= make_chance_needed(
                    bid):
                points[action] = answer_points(view, bid, sample)
    return points


def valued_bid(view: FiveHundredView, evaluator: Evaluator | None = None,
               strains: Strains | None = None,
               sampled: SampledOutcomes | None = None) -> str | None:
    """The bid with the best expected score (:func:`bid_points`), ``"pass"`` when none beats
    passing (by :data:`OVER_PARTNER_MARGIN` when the partner holds the high bid) or none is
    made often enough (:func:`make_chance_needed`), or ``None`` when the seat may not pass
    and no bid is made often enough."""
    points = bid_points(view, evaluator, strains, sampled)
    bids = {action: value for action, value in points.items() if action != "pass"}
    if not bids:
        return "pass" if "pass" in points else None
    best = max(bids, key=lambda action: bids[action])
    if "pass" not in points:
        return best
    high = view["high_bid"]
    margin = (OVER_PARTNER_MARGIN if high is not None
              and high["seat"] in team_of(view, seat_of(view)) else 0.0)
    return best if bids[best] > points["pass"] + margin else "pass"


def view_levels(view: FiveHundredView, evaluator: Evaluator | None = None,
                strains: Strains | None = None) -> dict[Suit | None, int]:
    """The evaluator's levels (:meth:`~cardroom.bots.five_hundred.evaluator.Evaluator.levels`)
    of the seat's own hand, in the bidding as it stands."""
    evaluator = evaluator or evaluator_for(view)
    return evaluator.levels_of(strains or hand_strains(view, evaluator))


def sure_levels(view: FiveHundredView, evaluator: Evaluator | None = None,
                strains: Strains | None = None) -> dict[Suit | None, int]:
    """The highest level (6 to 10) in each strain that the hand makes at least
    :data:`MIN_MAKE_CHANCE` of the time, after the table-play discount (0: not even six). The
    match tactics win safely within these: :func:`view_levels` counts a level the hand makes
    half the time, and a match-winning eight bid on it was made 9 times in 26 at the table
    (bench/RESULTS.md). The surer chance an eight or nine needs as the hand's own bid
    (:data:`HIGH_LEVEL_MAKE_CHANCE`) is not asked: a contract that wins the match at once is
    worth a little more risk than one that only scores."""
    evaluator = evaluator or evaluator_for(view)
    return evaluator.levels_of(strains or hand_strains(view, evaluator),
                               lambda level: MIN_MAKE_CHANCE)


def discard_values(view: FiveHundredView, bid: Bid, trump: Suit | None,
                   candidates: Sequence[int], evaluator: Evaluator | None = None
                   ) -> list[float]:
    """The expected points of the contract ``bid`` after each candidate discard (a mask of
    the cards put back), the ten cards kept valued with the kitty taken."""
    evaluator = evaluator or evaluator_for(view)
    hand = mask_of_texts(hand_of(view))
    context = bidding_context(view, kitty=0)
    kind: Kind = "suit" if trump is not None else "no_trumps"
    rows = np.asarray([features(hand & ~discard, kind, trump, context)
                       for discard in candidates])
    return [trick_bid_points(view["rules"], bid, evaluator.discounted(distribution, trump))
            for distribution in evaluator.trick_distributions(kind, rows)]

