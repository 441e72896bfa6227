"""The search bot: Perfect Information Monte Carlo over the double-dummy solver.

To play a card it deals the cards it cannot see at random, consistently with everything its
seat's view shows (cards played, suits a player showed out of, its own kitty discards, open
hands) and, while enough tricks are left, fitted to the other seats' calls
(:mod:`cardroom.bots.five_hundred.reading`: by the learned evaluator where it learned the
table), solves each such deal exactly with :mod:`cardroom.bots.five_hundred.solver` (its compiled
search), scores every legal card by the points the hand would end with, and plays the best
average. It does so at every table of 500: two to six players (with two, the dead hands
are more unseen cards, dealt out of play in every sample; with five, each sample also places
the called cards, and so the partners the seat cannot see yet), one or two
jokers, a nominated joker, every contract but Hi/Lo. It works against a clock: when the deal
is still too big to solve in time, or no sample finishes, it plays as the rules bot does, and
says why (:attr:`SearchBot.last_reason`, logged at debug level). The kitty exchange and the
joker's nomination compare their choices the same way, over whole deals
(:mod:`cardroom.bots.five_hundred.bidding`, which can bid by sampling as well). At
four- and three-handed tables with a deck an evaluator learned it bids by the expected score
of each bid and ranks its kitty discards with the learned hand evaluator of its table size
(:mod:`cardroom.bots.five_hundred.valued_bids`); elsewhere its bids are the rules bot's;
either way with the match score in mind, checked and raised on solved sampled deals
(:func:`~cardroom.bots.five_hundred.bidding.sane_bid`). Nello's gift is the rules bot's.

It reads nothing but the view dict it is given, so it never sees a hidden card.
"""

from __future__ import annotations

import logging
import math
import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from typing import Literal

from cardroom.bots.five_hundred.aims import Aims, contract_aims, view_aims
from cardroom.bots.five_hundred.bidding import (
    Averages,
    DiscardPrior,
    choose_bid,
    choose_discard,
    choose_joker_suit,
    contract_points,
    defence_per_trick,
    sampled_no_tricks_outcomes,
    sane_bid,
)
from cardroom.bots.five_hundred.evaluator import learned
from cardroom.bots.five_hundred.knowledge import (
    PartnerWorth,
    contract_bid,
    dead_cards,
    makers_of,
    players_of,
)
from cardroom.bots.five_hundred.reading import (
    MISS_WEIGHT,
    ReadingStyle,
    call_reader,
    pick_fitting,
    reading_style,
)
from cardroom.bots.five_hundred.rules_bot import RulesBot, Table
from cardroom.bots.five_hundred.simple import SeatView
from cardroom.bots.five_hundred.solver import JOKERS, FastSearch, Position, SolverTimeout
from cardroom.bots.five_hundred.tactics import MatchCall, Tactic, match_bid
from cardroom.bots.five_hundred.valuation import misere_danger
from cardroom.bots.five_hundred.valued_bids import (
    discard_values,
    hand_strains,
    sure_levels,
    valued_bid,
    view_levels,
)
from cardroom.bots.levels import Level, search_bot_name
from cardroom.bots.seen import hand_of, mask_of_texts, played_cards, unseen_cards
from cardroom.games.cards import Card, Suit, cards_of, iter_indexes
from cardroom.games.five_hundred import Bid, Contract, Strain
from cardroom.games.five_hundred.rules import DECKS
from cardroom.games.five_hundred.shapes import FiveHundredView

TRICKS_PER_HAND = 10
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SolverLevel(Level):
    """A search level for 500, where each sampled deal is solved exactly: besides the time
    budget and the cap on deals of the card play, how far the solver is trusted (the most
    tricks left, per player count, it will try to solve rather than play by rule) and the
    budget of the sampled kitty exchange (and bidding), which solve whole deals."""

    max_tricks: dict[int, int]
    """The most tricks left, by number of players, at which the card play is solved."""
    bid_budget: float
    """Seconds for a bid or a kitty exchange (each sample solves whole deals)."""
    bid_samples: int
    """Most deals sampled for a bid or a kitty exchange."""


Bidding = Literal["valued", "rules", "sampled"]
"""How the search bot bids: ``valued``, by the expected score of each bid from the learned
hand evaluator (:mod:`cardroom.bots.five_hundred.valued_bids`); ``rules``, the rules bot's
bids; ``sampled``, by solving sampled deals for each bid
(:func:`~cardroom.bots.five_hundred.bidding.choose_bid`: on 60 duplicate deals it lost about
30 points a deal to the rules bot's bidding, bench/RESULTS.md). The valued and the rules
bids then go through the match tactics and the sampled sanity check; the sampled ones are
made as found."""
PARTNER_WORTH = PartnerWorth(teammate_of_three=0.75, called=2.5, two_called=5.0)
"""How many partners the search bot counts its teammates of a team of three and its called
partners as when it values its hand by the rules bot's reckoning (as it does at five and six
players, where it has no learned evaluator; four-handed partners count one, as the rules
bot counts them).

- Five players: a called partner holds a card the contractor names, so a top card it lacks,
  and from eight up the contractor calls two. Counted as one partner, as the rules bot does,
  both bots made 92-94% of their five-handed contracts, sixes three times in four, and search
  finished ahead of a rules bot in 54% of head to head pairs; as three at every level, 81%,
  but its sixes and sevens were made 63-68% and its eights 89%. Counting two partners from
  eight up as five (2.5 each), it bids eight on most hands it opens and makes 78% of them,
  at 82% head to head.
- Six players, teams of three: each of the two teammates counted as a whole partner, search
  made 70% of its sevens and 62% of its eights and won 69% of the matches; counted as three
  quarters, 73% and 71%, and won 74% (a half: 66% of 70 matches).

100-match pilots each, bench/RESULTS.md."""
VALUED_SPECIALS = ("pass", "bid misere", "bid open-misere", "bid across-the-corner",
                   "bid across-the-table", "bid double-nullo")
"""The calls besides trick bids that the valued bidding weighs (the last three by their play
on sampled deals); the rules bot's choice of any other no-tricks bid (Nello with the
partner's card, blind misère, Shields double …) stands."""


STEADY_BUDGET = math.inf
"""The ``steady`` level has no clock: its sample caps alone end its decisions (a full deal of
four hands solves in tens of milliseconds; the bot workers' own budget still stops a
runaway search)."""

LEVELS: dict[str, SolverLevel] = {
    "fast": SolverLevel(budget=0.12, samples=10, max_tricks={6: 5, 5: 6, 4: 7, 3: 8, 2: 10},
                  bid_budget=0.1, bid_samples=3),
    "default": SolverLevel(budget=0.4, samples=24,
                           max_tricks={6: 6, 5: 7, 4: 10, 3: 10, 2: 10},
                     bid_budget=0.5, bid_samples=10),
    "steady": SolverLevel(budget=STEADY_BUDGET, samples=16,
                          max_tricks={6: 6, 5: 7, 4: 10, 3: 10, 2: 10},
                          bid_budget=STEADY_BUDGET, bid_samples=8),
    "strong": SolverLevel(budget=1.5, samples=64, max_tricks={6: 7, 5: 8, 4: 10, 3: 10, 2: 10},
                    bid_budget=3.0, bid_samples=48),
}
"""The bot's levels by registry suffix (``search:fast``, ``search``, ``search:steady``,
``search:strong``; ``steady`` is the default's search with sample caps in place of its clock,
:data:`cardroom.bots.levels.LEVEL_NAMES`). The
compiled solver takes a few milliseconds on six tricks and tens on a full deal of four
hands: the default level solves about 8 sampled deals for the opening lead, 18 at the second
trick and its full 24 from the third trick on (bench/bots.py). More hands grow the tree
fast: all the moves of a random deal take a median 5 ms with five hands of seven cards or six
of six, 25 ms with five of eight or six of seven, a second or more with five or six full
hands, hence the smaller limits for five and six players (three full hands take 5 ms, two
well under that)."""


class SearchBot:
    """PIMC card play and kitty exchange over exact double-dummy solutions; bids in its
    :data:`Bidding` style (valued by the learned evaluator unless told otherwise), with the
    match score in mind (:mod:`cardroom.bots.five_hundred.tactics`), checked on solved
    sampled deals."""

    name = "search"

    def __init__(self, seed: int = 0, level: str = "default", bidding: Bidding = "valued",
                 reading: ReadingStyle = "learned") -> None:
        self.seed = seed
        self.level = LEVELS[level]
        self.bidding: Bidding = bidding
        self.reading: ReadingStyle = reading
        """How the sampled deals read the other seats' calls
        (:mod:`cardroom.bots.five_hundred.reading`)."""
        self.name = search_bot_name(level)
        self.rng = random.Random(f"cardroom-bot:search:{level}:{seed}")
        self.heuristic = RulesBot(seed, match_tactics=True, partner_worth=PARTNER_WORTH)
        """Decides where the search does not reach: the bidding (with the match score in
        mind), contracts the solver has no objective for, positions too big to solve in
        time."""
        self.last_samples = 0
        """Deals solved for the last card played (0: the rules bot chose it)."""
        self.last_reason: str | None = None
        """Why the last card was not searched (``None`` when it was): also logged at debug
        level, so that a table the search does not cover says so."""
        self.call_tactic: Tactic | None = None
        """The match tactic that made the bot's last call (``None``: the hand's worth made
        it, or the sanity check stepped the tactic's bid down). Only calls set it: at a
        hand's end it names the tactic of the contractor's winning call."""

    def choose(self, view: FiveHundredView) -> str:
        """The action for the seat to act (see :class:`cardroom.bots.base.Bot`), its sampled
        deals reading the calls in the bot's :attr:`reading` style."""
        with reading_style(self.reading):
            return self._choose(view)

    def _choose(self, view: FiveHundredView) -> str:
        if view.get("discard_count") or view["phase"] != "play":
            return self.exchange_or_bid(view)
        deadline = time.perf_counter() + self.level.budget
        self.last_samples, self.last_reason = 0, None
        action = self.play(view, deadline)
        if action is None or action not in view["legal_actions"]:
            self.last_reason = self.last_reason or "no sampled deal gave a legal play"
            log.debug("%s plays by rule at seat %s: %s", self.name, view.get("seat"),
                      self.last_reason)
            return self.heuristic.choose(view)
        return action

    def exchange_or_bid(self, view: FiveHundredView) -> str:
        """Kitty discards, the joker's nomination (and, where the level says so, bids) by
        sampling (:mod:`cardroom.bots.five_hundred.bidding`); the rules bot's bid checked
        for sanity (:func:`~cardroom.bots.five_hundred.bidding.sane_bid`: no stop bid past
        eight or, at five or six players, past one trick over the hand's worth; nines and
        tens the sampled deals make); the rules bot's choice for special contracts, other
        phases, tables whose whole deals take too long to solve and whenever the sampling
        finds nothing in time."""
        fallback = self.heuristic.choose(view)
        if view["phase"] == "bidding":  # the fallback's, unless the bidding below says else
            self.call_tactic = self.heuristic.call_tactic
        if not searchable(view) or not self.level.bid_samples:
            return fallback
        deadline = time.perf_counter() + self.level.bid_budget
        samples = self.level.bid_samples
        action = None
        if view.get("discard_count"):
            action = choose_discard(view, self.rng, deadline, samples,
                                    self._discard_prior(view))
        elif view["phase"] == "joker":
            action = choose_joker_suit(view, self.rng, deadline, samples)
        elif view["phase"] == "bidding":
            action = self.bid(view, fallback, deadline, samples)
        if action is None and (view.get("discard_count") or view["phase"] == "joker"):
            log.debug("%s chose %r by rule at seat %s: no sampled whole deal was solved "
                      "(none in time, or five or six hands, too many to solve whole)",
                      self.name, fallback, view.get("seat"))
        return action or fallback

    def _valued(self, view: FiveHundredView) -> bool:
        """Whether the bot bids (and exchanges) by the learned evaluator at this table."""
        return self.bidding == "valued" and learned(players_of(view), view["rules"]["deck"])

    def _discard_prior(self, view: FiveHundredView) -> DiscardPrior | None:
        """The evaluator's ranking of the kitty discards of a trick contract, for the
        valued style (``None`` otherwise)."""
        bid = contract_bid(view)
        if not self._valued(view) or bid is None or bid.contract is not Contract.TRICKS:
            return None
        trump = bid.trump
        return lambda candidates: discard_values(view, bid, trump, candidates)

    def bid(self, view: FiveHundredView, fallback: str, deadline: float,
            samples: int) -> str | None:
        """A call in the bot's :data:`Bidding` style (the rules bot's ``fallback`` where the
        style has nothing to say), through the match tactics and the sanity check."""
        style = "rules" if self.bidding == "valued" and not self._valued(view) else self.bidding
        by_rule = MatchCall(fallback, self.heuristic.call_tactic)
        if style == "rules" or fallback not in view["legal_actions"] or not (
                fallback in VALUED_SPECIALS or _is_trick_bid(fallback)):
            return self._checked(view, by_rule, self.heuristic.levels(Table(view)), deadline,
                                 samples)
        if style == "sampled":
            levels = self.heuristic.levels(Table(view))
            order = sorted(levels, key=lambda strain: -levels[strain])
            action = choose_bid(view, self.rng, deadline, samples, order)
            if action is not None:
                self.call_tactic = None
            return action
        strains = hand_strains(view)
        levels = view_levels(view, strains=strains)
        valued = valued_bid(view, strains=strains, sampled=partial(
            sampled_no_tricks_outcomes, view, rng=self.rng, deadline=deadline,
            samples=samples))
        if valued is None:  # the seat may not pass and values no bid: the rules bot's call
            return self._checked(view, by_rule, self.heuristic.levels(Table(view)), deadline,
                                 samples)
        return self._checked(view, match_bid(view, levels, valued,
                                             sure_levels(view, strains=strains)),
                             levels, deadline, samples, valued=True)

    def _checked(self, view: FiveHundredView, call: MatchCall, levels: dict[Suit | None, int],
                 deadline: float, samples: int, valued: bool = False) -> str:
        """``call`` through the sanity check (:func:`sane_bid`; a valued call is neither
        raised nor has its misère checked again: its expected score weighed both), keeping
        the call's tactic as :attr:`call_tactic` when the check lets the call stand."""
        action = sane_bid(view, call.action, levels, self.rng, deadline, samples,
                          raise_bids=not valued, check_no_tricks=not valued)
        self.call_tactic = call.tactic if action == call.action else None
        return action

    # card play

    def play(self, view: FiveHundredView, deadline: float) -> str | None:
        """The play with the best average score over sampled deals, or ``None`` when no
        sample could be solved in time. When that play takes a trick a strong player would
        leave where it is (:data:`LEFT_ALONE`: a partner's card sure to win it, or in the
        defence of a no-tricks contract the maker's card winning it), the best play that
        leaves it is taken instead if it scores as well within the sampling noise
        (:func:`within_noise`): the overtaking card may still take a trick of its own, and
        a maker left on a trick may yet have to take it."""
        legal: list[str] = view["legal_actions"]
        if len(legal) == 1:
            return legal[0]
        self.last_reason = unsearchable_reason(view)
        if self.last_reason is not None:
            return None
        knowledge = Knowledge(view)
        level = self.level
        players = len(knowledge.active)
        most = level.max_tricks.get(players, TRICKS_PER_HAND)
        if knowledge.tricks_left > most:
            self.last_reason = (f"{knowledge.tricks_left} tricks left: this level solves "
                                f"{players} hands from {most} tricks")
            return None
        aims = view_aims(view)
        assert aims is not None, "unsearchable_reason turns away contracts without aims"
        aim = Aim(knowledge, aims)
        totals: dict[str, float] = {}
        deals: list[dict[str, float]] = []
        solved = 0
        while solved < level.samples and time.perf_counter() < deadline:
            hands = knowledge.sample(self.rng)
            if hands is None:
                self.last_reason = "no deal fits what the seat has seen"
                break
            try:
                scores = aim.score_moves(knowledge.position(hands), deadline,
                                         knowledge.aims_in(hands, aims))
            except SolverTimeout:
                self.last_reason = "no sampled deal solved before the deadline"
                break
            for action, score in scores.items():
                totals[action] = totals.get(action, 0.0) + score
            deals.append(scores)
            solved += 1
        self.last_samples = solved
        candidates = {action: total for action, total in totals.items() if action in legal}
        if not candidates:
            return None

        def best_of(actions: Iterable[str]) -> str:
            return max(actions, key=lambda action: (candidates[action],
                                                    not plays_a_joker(action), action))

        best = best_of(candidates)
        for taking, noise in LEFT_ALONE:
            overtaking = taking(knowledge, aims, candidates)
            if best in overtaking:
                keeping = [action for action in candidates if action not in overtaking]
                if keeping and within_noise(deals, best, keep := best_of(keeping), noise):
                    return keep
        return best


def plays_a_joker(action: str) -> bool:
    """Whether a play action plays a joker: between plays that score the same, the bot
    keeps its joker, which wins whatever trick it is played to, as its last trump. In a
    solved deal a joker and the trumps just below it are worth the same, but the deal
    the bot cannot see may still need the joker later."""
    return bool(_card_played(action).mask & JOKERS)


def _card_played(action: str) -> Card:
    """The card a play action plays (``play JK:H`` plays the joker)."""
    return Card.parse(action.split()[1].split(":")[0])


NOISE = 0.75
"""How many standard errors of the sampled difference may separate the best play from the
best one that leaves a partner's sure winner alone, for the bot to leave it
(:func:`within_noise`). On 3,000 positions of the `online` preset where the bot could
overtake such a winner, 0.75 changed 421 choices: by the exact solver on the full deal 404
lost nothing, 9 gained a trick and 8 lost one; 1.0 changed 45 more, of which 5 lost a trick
and 1 gained one."""
DUCK_NOISE = 2.0
"""The same for a defender of a no-tricks contract ducking under the maker's winning card
(:func:`takes_trick_from_maker`): the sampled deals are solved double dummy, where the maker
never misplays, so they undervalue leaving it a trick it might have to take; at the default
level's 24 deals the duck's sampled gap to a card that wins the trick reached 1.86 standard
errors (one seed of 16) at the scenario position "second hand ducks under the maker's lead",
where 400 deals put the duck first (bench/RESULTS.md; what the duck changes at the table is
measured by bench/ducking.py)."""


@dataclass(frozen=True)
class TrickSoFar:
    """The trick in progress as the seat to play finds it."""

    winner: int
    """The seat whose card is winning it."""
    cards: tuple[int, ...]
    strain: Strain
    led: int
    """The suit led, as the strain numbers it (its own, for the joker)."""

    @classmethod
    def of(cls, knowledge: Knowledge) -> TrickSoFar | None:
        """The trick the seat is to play to (``None``: the seat leads)."""
        if not knowledge.trick:
            return None
        strain, led = knowledge.strain, knowledge.seen.led
        cards = tuple(card for _, card in knowledge.trick)
        return cls(knowledge.trick[strain.winner(list(cards), led)][0], cards, strain, led)

    def beaten_by(self, card: int) -> bool:
        """Whether ``card`` played now would win the trick so far."""
        return self.strain.winner([*self.cards, card], self.led) == len(self.cards)

    def taken_by(self, actions: Iterable[str]) -> frozenset[str]:
        """The plays of ``actions`` that would win the trick so far."""
        return frozenset(action for action in actions
                         if self.beaten_by(_card_played(action).index))


def overtakes_sure_winner(knowledge: Knowledge, aims: Aims,
                          actions: Iterable[str]) -> frozenset[str]:
    """The plays of ``actions`` that would take a trick from a partner whose card is sure to
    win it: empty unless the seat's side wants tricks, a partner's card leads the trick, and
    no card a seat still to play may hold (an unseen card of a suit it has not shown out of,
    or a card of its open hand) beats that card. Such a trick is the side's already, and the
    card that overtakes it may take a trick of its own later. With five players while a
    called card is unseen (partners unknown) there are none."""
    seat = knowledge.seat
    trick = TrickSoFar.of(knowledge)
    if (trick is None or knowledge.hidden_calls
            or (seat in aims.counted) != (seat in aims.maximisers)
            or (trick.winner in aims.counted) != (seat in aims.counted)):
        return frozenset()
    played = {player for player, _ in knowledge.trick}
    for later in knowledge.active:
        if later == seat or later in played:
            continue
        held = knowledge.open.get(later, knowledge.unseen & ~knowledge.voids[later])
        if any(trick.beaten_by(card) for card in iter_indexes(held)):
            return frozenset()
    return trick.taken_by(actions)


def takes_trick_from_maker(knowledge: Knowledge, aims: Aims,
                           actions: Iterable[str]) -> frozenset[str]:
    """The plays of ``actions`` that would beat a no-tricks maker's card winning the trick,
    for a seat of the defence: a strong defender ducks under it, so that the maker takes
    the trick unless a card still to come overtakes it, where beating it lets the maker
    off at once. Empty for the makers, in trick contracts, and while the trick is not the
    maker's; empty in Across The Corner too, where the contractor's opponent must take no
    tricks either (:func:`makers_of`) and neither side is the defence."""
    seat = knowledge.seat
    trick = TrickSoFar.of(knowledge)
    if (trick is None or seat in aims.counted or seat not in aims.maximisers
            or trick.winner not in aims.counted or seat in makers_of(knowledge.view)):
        return frozenset()
    return trick.taken_by(actions)


LEFT_ALONE: tuple[tuple[Callable[[Knowledge, Aims, Iterable[str]], frozenset[str]], float],
                  ...] = ((overtakes_sure_winner, NOISE), (takes_trick_from_maker, DUCK_NOISE))
"""The plays that take a trick a strong player leaves where it is, each with how many standard
errors of sampled score (:func:`within_noise`) the bot gives up to leave it."""


def within_noise(deals: list[dict[str, float]], best: str, other: str,
                 noise: float = NOISE) -> bool:
    """Whether ``other`` scores as well as ``best`` within the sampling noise: the mean of
    their differences, deal by deal, is at most ``noise`` standard errors of it (or not
    above zero). A difference that a few of 24 sampled deals make, as often the other way,
    is the luck of the deals drawn."""
    gaps = [deal[best] - deal[other] for deal in deals if best in deal and other in deal]
    if not gaps:
        return False
    mean = sum(gaps) / len(gaps)
    if mean <= 0:
        return True
    if len(gaps) < 2:
        return False
    spread = sum((gap - mean) ** 2 for gap in gaps) / (len(gaps) - 1)
    return mean <= noise * math.sqrt(spread / len(gaps))


READ_CALLS_FROM = 6
"""Fewest tricks left for the card play's samples to be fitted to the bidding: later, the
cards played say more than the calls, and each fit costs a hand valuation per seat."""
CALL_TRIES = 6
"""Deals tried per sample when fitting them to the bidding."""
STRICT_DRAWS = 30
"""Deals tried per sample within the voids the seats showed, before they are relaxed (a
deal that fits none is then tried :data:`RELAXED_DRAWS` times without them)."""
RELAXED_DRAWS = 10
MISERE_CALL_TRIES = 18
"""Deals tried per sample against a no-tricks contract, whose maker's hand is far lower than
a random one: with six, the samples of the maker's hand in a misère defence averaged a 0.45
chance of taking no trick (the real hand's 0.90, 0.23 unread) and ducking under its lead
scored worse than winning the trick; with eighteen, 0.54, and the duck scores best
(bench/RESULTS.md)."""


def _is_trick_bid(action: str) -> bool:
    """Whether an action bids a number of tricks in a strain."""
    return action.startswith("bid ") and Bid.parse(action[4:]).contract is Contract.TRICKS


def unsearchable_reason(view: FiveHundredView) -> str | None:
    """Why the solver cannot play this hand, or ``None`` when it can. It models every table
    of 500 (two to six players, one or two jokers, a nominated joker, every contract with
    an objective); what remains is a contract no seat simply wants more or fewer tricks in
    (Hi/Lo, whose bidder must take exactly five). Under pagat's limits on the suit a led
    joker may name (``joker_lead_limits``) the bot's own choices are the legal ones, while
    deeper in the tree the solver lets a led joker name any suit."""
    bid = contract_bid(view)
    if view["contract"] is not None and bid is not None and view_aims(view) is None:
        return f"{bid} has no trick count for the solver to maximise"
    return None


def searchable(view: FiveHundredView) -> bool:
    """Whether the solver models this hand's play (see :func:`unsearchable_reason`)."""
    return unsearchable_reason(view) is None


# -- what the seat knows ------------------------------------------------------------------------


class Knowledge:
    """Everything the view tells about where the unseen cards can be.

    ``places`` are the active seats whose hands are hidden, each with its number of cards;
    the rest of the unseen cards are "elsewhere", where no seat plays them: the kitty,
    others' discards, a folded hand, and with two players the dead hands (``dead`` cards, as
    the rules deal them), so that a sample gives the opponent ten of the cards the seat has
    not seen, never all of them.
    ``voids[seat]`` is the mask of cards a seat cannot hold, from the tricks it failed to
    follow (and, under the forced-joker rule, the joker it would have had to play).
    ``hidden_calls`` are the cards a five-player contractor called whose holders the seat
    does not know yet: each sampled deal places them, and with them the partners
    (:meth:`aims_in`).
    """

    def __init__(self, view: FiveHundredView) -> None:
        seen = SeatView(view)
        self.view = view
        self.seen = seen
        self.seat: int = seen.seat
        contract = view["contract"]
        playing = contract.get("playing") if contract else None
        self.players = players_of(view)
        self.active: tuple[int, ...] = tuple(playing or range(self.players))
        rules = view["rules"]
        strain = seen.strain
        self.strain = strain
        self.joker_forced = seen.no_tricks and rules["misere_joker_forced"]
        no_trumps = seen.bid is None or (seen.bid.contract is Contract.TRICKS
                                         and seen.bid.trump is None)
        self.joker_any_time = (no_trumps and rules["nt_joker"] == "play_any_time"
                               and not (contract and contract.get("joker_suit")))
        self.hand = mask_of_texts(hand_of(view))
        self.open = {int(seat): mask_of_texts(cards)
                     for seat, cards in view["open_hands"].items()}
        played = played_cards(view)
        self.trick = tuple((play["seat"], Card.parse(play["card"]).index)
                           for play in view["trick"])
        self.to_play = self.seat
        self.tricks_left = self.hand.bit_count()
        self.unseen = unseen_cards(view, DECKS[rules["deck"]].mask)
        for cards in self.open.values():
            self.unseen &= ~cards
        self.places = {seat: view["hand_sizes"][seat] for seat in self.active
                       if seat != self.seat and seat not in self.open}
        self.dead = dead_cards(view)
        self.voids = self._voids()
        self.only_partner = self._handed_over(played)
        self.hidden_calls = mask_of_texts(view.get("called") or []) & self.unseen
        self.deck = DECKS[rules["deck"]]
        contractor = contract.get("contractor") if contract else None
        self.reader = call_reader(view, tuple(self.places),
                                  exchanged=() if contractor is None else (contractor,))
        self.low_hands = self._hidden_no_trick_makers()
        self.played_by = {seat: 0 for seat in self.places}
        plays = [(trick["seats"], trick["cards"]) for trick in view["tricks"]]
        plays.append(([p["seat"] for p in view["trick"]], [p["card"] for p in view["trick"]]))
        for trick_seats, trick_cards in plays:
            for seat, card in zip(trick_seats, trick_cards, strict=True):
                if seat in self.played_by:
                    self.played_by[seat] |= Card.parse(card).mask

    def _voids(self) -> dict[int, int]:
        """Cards each seat cannot hold, from the suits it showed out of."""
        strain = self.strain
        voids = {seat: 0 for seat in range(self.players)}
        tricks = [(t["cards"], t["seats"], t.get("nominated")) for t in self.view["tricks"]]
        if self.view["trick"]:
            tricks.append(([p["card"] for p in self.view["trick"]],
                           [p["seat"] for p in self.view["trick"]], self.view["led"]))
        for cards, seats, nominated in tricks:
            indexes = [Card.parse(text).index for text in cards]
            named = Suit.parse(nominated) if nominated and nominated != "J" else None
            led = strain.led_suit(indexes[0], named)
            for seat, card in zip(seats[1:], indexes[1:], strict=True):
                if strain.suit_of[card] == led:
                    continue
                if 1 << card & JOKERS and self.joker_any_time:
                    continue
                voids[seat] |= strain.follow_mask[led]
                if self.joker_forced and not 1 << card & JOKERS:
                    voids[seat] |= JOKERS
        return voids

    def _hidden_no_trick_makers(self) -> tuple[int, ...]:
        """The hidden seats playing a no-tricks contract against this seat: a maker bid
        it, and exchanged the kitty, because its hand was low, which a random deal seldom
        is."""
        bid = contract_bid(self.view)
        aims = view_aims(self.view)
        if (bid is None or not bid.is_misere_type or aims is None
                or bid.contract is Contract.ACROSS_THE_CORNER or self.seat in aims.counted):
            return ()
        return tuple(seat for seat in aims.counted if seat in self.places)

    def _handed_over(self, played: int) -> int:
        """Across The Table: the cards this seat passed to its partner are with the partner
        (or in the partner's discards), never with an opponent."""
        contract = self.view["contract"]
        if contract is None or contract.get("contractor") != self.seat:
            return 0
        return mask_of_texts(self.view["handed_over"]) & ~played

    def sample(self, rng: random.Random) -> dict[int, int] | None:
        """Deal the unseen cards to the hidden hands at random, within what is known (a
        shown void is relaxed only if no deal fits it). While enough tricks are left for it
        to matter, the deal is fitted to the other seats' calls
        (:mod:`cardroom.bots.five_hundred.reading`), and against a no-tricks contract, at
        every trick, to its hidden makers' hands (with the cards they played), which hold
        few cards that may take a trick: of up to :data:`CALL_TRIES` deals one is kept, with
        a chance in proportion to how well it fits (of :data:`MISERE_CALL_TRIES` against a
        no-tricks contract)."""
        reading = self.tricks_left >= READ_CALLS_FROM or bool(self.low_hands)
        tries = MISERE_CALL_TRIES if self.low_hands else CALL_TRIES if reading else 1
        for strict, draws in ((True, STRICT_DRAWS), (False, RELAXED_DRAWS)):
            found = pick_fitting(partial(self._try_deal, rng, strict), self._weight, tries,
                                 rng, most_draws=max(draws, 2 * tries))
            if found is not None:
                return found
        return None

    def _weight(self, hands: dict[int, int]) -> float:
        """How well a deal fits what the other seats bid, each hand judged with the cards
        its seat has played back in it: their calls (while enough tricks are left), and the
        cards of hidden no-tricks makers that may take a trick (each taking
        :data:`~cardroom.bots.five_hundred.reading.MISS_WEIGHT` off)."""
        whole = {seat: cards | self.played_by[seat] for seat, cards in hands.items()}
        weight = 1.0
        if self.tricks_left >= READ_CALLS_FROM:
            weight = self.reader.weight(whole)
        joker_low = self.view["rules"]["joker_low_in_misere"]
        for seat in self.low_hands:
            weight *= MISS_WEIGHT ** misere_danger(cards_of(whole[seat]), self.deck.mask,
                                                   joker_low)
        return weight

    def _try_deal(self, rng: random.Random, strict: bool) -> dict[int, int] | None:
        partner = (self.seat + 2) % 4
        room = dict(self.places)
        elsewhere = self.unseen.bit_count() - sum(room.values())
        if elsewhere < 0:
            return None
        hands = {seat: 0 for seat in room}
        cards = list(iter_indexes(self.unseen))
        rng.shuffle(cards)

        def allowed(card: int) -> list[int]:
            bit = 1 << card
            seats = [s for s in room if not (strict and self.voids[s] & bit)]
            if self.only_partner & bit:
                seats = [s for s in seats if s == partner]
            return seats

        options = {card: allowed(card) for card in cards}
        cards.sort(key=lambda c: len(options[c]))
        for card in cards:
            choices = [s for s in options[card] if room[s]]
            weights = [room[s] for s in choices]
            if elsewhere:
                choices.append(-1)
                weights.append(elsewhere)
            if not choices:
                return None
            seat = rng.choices(choices, weights)[0]
            if seat < 0:
                elsewhere -= 1
            else:
                room[seat] -= 1
                hands[seat] |= 1 << card
        return hands

    def aims_in(self, hidden: dict[int, int], aims: Aims) -> Aims:
        """The aims in a sampled deal: those the view tells, unless a five-player contractor
        called cards the seat has not seen played, whose holders in this deal (if any: a
        called card may lie in the kitty) are then the contractor's partners."""
        if not self.hidden_calls:
            return aims
        contractor = self.seen.contractor
        assert contractor is not None, "only a contract calls partners"
        side = set(self.view.get("contract_side") or [contractor])
        side.update(seat for seat, cards in hidden.items() if cards & self.hidden_calls)
        sampled = contract_aims(contract_bid(self.view), self.active, side)
        assert sampled is not None, "partners are called only in trick contracts"
        return sampled

    def position(self, hidden: dict[int, int]) -> Position:
        """The solver's position for one sampled deal."""
        hands = [0] * max(4, self.players)
        hands[self.seat] = self.hand
        for seat, cards in {**self.open, **hidden}.items():
            hands[seat] = cards
        return Position(hands=tuple(hands), strain=self.strain, to_play=self.seat,
                        active=self.active, trick=self.trick,
                        led=self.seen.led if self.trick else None,
                        joker_forced=self.joker_forced, joker_any_time=self.joker_any_time)


# -- what the seat wants ------------------------------------------------------------------------


class Aim:
    """Turns a solved deal into points for the bot's side: the solver counts the tricks of
    the seats :func:`~cardroom.bots.five_hundred.aims.view_aims` names, with the seats it
    names wanting them high, and the hand then scores (the bot's side minus the other) by the
    count."""

    def __init__(self, knowledge: Knowledge, aims: Aims) -> None:
        view = knowledge.view
        seen = knowledge.seen
        self.knowledge = knowledge
        self.aims = aims
        self.rules = view["rules"]
        self.bid = seen.bid
        self.won = list(view["tricks_won"])
        self.ours = seen.contractor is None or seen.friend(seen.contractor)
        """Whether the bot's seat is on the side whose points :meth:`points` counts first:
        the contract's side (with no contract, the counted side is the bot's own)."""
        self.maximising = knowledge.seat in aims.maximisers
        self.solved = Averages()
        """Counted tricks after each move over the deals solved so far: their averages are
        the solver's first guesses on the next deal."""

    def score_moves(self, position: Position, deadline: float,
                    aims: Aims | None = None) -> dict[str, float]:
        """Points for the bot's side after each legal play, in one sampled deal (whose aims,
        when the deal decides them, are ``aims``)."""
        aims = aims or self.aims
        search = FastSearch(position, aims.counted, deadline, aims.maximisers)
        left = position.tricks_left
        hi = None
        bid = self.bid
        if (bid is not None and bid.is_misere_type
                and bid.contract is not Contract.ACROSS_THE_CORNER
                and self.rules["misere_failure"] == "stop"):
            hi = 1  # only whether the makers take a trick matters
        guesses = self.solved.means()
        scores: dict[str, float] = {}
        for move, counted in search.move_values(0, hi, guesses=guesses).items():
            self.solved.add(move, counted)
            card, named = move
            text = f"play {Card.from_index(card)}"
            if named is not None:
                text += f":{Suit(named).letter}"
            scores[text] = (self.points(counted, left, aims)
                            + 0.01 * counted * (1 if self.maximising else -1))
        return scores

    def points(self, counted: int, left: int, aims: Aims) -> float:
        """The hand's points, the bot's side minus the other, when the counted seats of
        ``aims`` take ``counted`` of the ``left`` remaining tricks."""
        won = self.won
        taken = sum(won[seat] for seat in aims.counted) + counted
        bid = self.bid
        if bid is None:  # everybody passed: 10 a trick, and the bot's side is counted
            return 10.0 * (taken - (TRICKS_PER_HAND - taken))
        sign = 1 if self.ours else -1
        if bid.contract is Contract.ACROSS_THE_CORNER:
            theirs = sum(won[seat] for seat in aims.maximisers) + left - counted
            return 0.0 if taken == theirs else sign * (bid.value if taken < theirs
                                                       else -bid.value)
        defence = defence_per_trick(self.rules)
        if bid.is_misere_type:
            if self.rules["misere_failure"] == "stop":
                taken = min(taken, 1)
            makers = bid.value if taken == 0 else -bid.value
            return sign * (makers - defence * taken)
        return sign * (contract_points(self.rules, bid, taken)
                       - defence * (TRICKS_PER_HAND - taken))

