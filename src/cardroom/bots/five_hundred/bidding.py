"""Bidding, the kitty exchange and the joker's nomination by sampling, for the search bot.

The decisions ask the same question: what would this contract score? The answer comes from
deals consistent with the seat's view (the hidden hands and the kitty dealt at random, the
other seats' calls read by :mod:`cardroom.bots.five_hundred.reading`), each solved double
dummy with the compiled solver after the contractor's kitty exchange, and scored by the
rules. The bid with the best average score is made when it beats passing; the discard with
the best average score is put back; the joker is given the suit (or none) with the best
average score. The rules bot's hand evaluation picks the candidates worth
solving, so the time goes on the contracts and discards that could be right.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from cardroom.bots.five_hundred.aims import contract_aims
from cardroom.bots.five_hundred.knowledge import (
    calls_of,
    contract_bid,
    dead_cards,
    first_leader,
    holds_joker,
    legal_trick_bids,
    players_of,
    team_of,
    view_strain,
)
from cardroom.bots.five_hundred.reading import HandPool, call_reader, misere_pool, pick_fitting
from cardroom.bots.five_hundred.simple import beats_all
from cardroom.bots.five_hundred.solver import FastSearch, Position, SolverTimeout
from cardroom.bots.five_hundred.valuation import (
    in_suit,
    kitty_discards,
    shed_for_misere,
)
from cardroom.bots.seen import hand_of, mask_of_texts, seat_of
from cardroom.games.cards import JOKERS_MASK, Card, Suit, cards_of
from cardroom.games.five_hundred import Bid, Contract, Strain, strain_for
from cardroom.games.five_hundred.rules import DECKS
from cardroom.games.five_hundred.shapes import FiveHundredView

TRICKS_PER_HAND = 10
STRAINS_TO_SOLVE = 3
"""How many of the hand's best strains (by the rules bot's estimate) each sample solves."""
DOUBLE_DUMMY_DISCOUNT = 1
"""Tricks taken off a contract's double-dummy result before scoring it: the contractor
cannot see the cards in real play, and the best of many noisy averages flatters the bid
it picks; without it the sampled bids lost about 140 points a deal to the rules bot's."""
PASS_MARGIN = 20.0
"""Points a bid's average must beat passing by: double dummy is a little kinder to the
contractor than real play, where the defenders cannot see the cards either."""


def contract_points(rules: dict[str, Any], bid: Bid, tricks: int) -> int:
    """What the contractors score taking ``tricks`` tricks in a trick contract (RULES.md
    1.4, with the table's all-tricks bonus)."""
    value = bid.value
    if tricks < bid.tricks:
        return -value
    if tricks == TRICKS_PER_HAND:
        bonus = rules["all_tricks_bonus"]
        if bonus == "slam_250":
            value = max(value, 250)
        elif bonus == "sweep_plus_50" and bid.tricks < TRICKS_PER_HAND:
            value += 50
    return value


def defence_per_trick(rules: dict[str, Any]) -> int:
    """Points the defenders of a trick contract score for each trick they take."""
    return 10 if rules["defender_points"] == "always" else 0


def hand_points(rules: dict[str, Any], bid: Bid, tricks: int) -> int:
    """The contractors' points less the defenders' trick points, from the contractors' side."""
    return (contract_points(rules, bid, tricks)
            - defence_per_trick(rules) * (TRICKS_PER_HAND - tricks))


@dataclass
class Deal:
    """One sampled deal: every hand as a mask (the seat's own included), the kitty and, with
    two players, the dead hands (out of play: no seat ever holds or plays them)."""

    hands: list[int]
    kitty: int
    dead: int = 0


@dataclass
class Averages:
    """Running totals of the points of several choices over the deals solved so far."""

    totals: dict[Any, float] = field(default_factory=dict)
    counts: dict[Any, int] = field(default_factory=dict)

    def add(self, choice: Any, points: float) -> None:
        """Count one more deal's points for ``choice``."""
        self.totals[choice] = self.totals.get(choice, 0.0) + points
        self.counts[choice] = self.counts.get(choice, 0) + 1

    def mean(self, choice: Any) -> float | None:
        """The average so far, or ``None`` before any deal."""
        count = self.counts.get(choice)
        return None if not count else self.totals[choice] / count

    def means(self) -> dict[Any, float]:
        """The average so far of every choice counted, in the order first counted."""
        return {choice: total / self.counts[choice] for choice, total in self.totals.items()}


class Holding:
    """A contractor's hand after taking the kitty, as the rules bot's discard rule reads it
    (the strain, the cards, which are the top of their suit, which are trumps)."""

    def __init__(self, strain: Strain, hand: int, deck: int) -> None:
        self.strain = strain
        self.hand = cards_of(hand)
        self.outstanding = deck & ~hand

    def boss(self, card: Card) -> bool:
        """No card outside the hand beats ``card`` in its effective suit."""
        return beats_all(self.strain, card, self.outstanding)

    def trumps_held(self, cards: Iterable[Card]) -> list[Card]:
        """The trumps among ``cards``."""
        trump = self.strain.trump
        return [] if trump is None else in_suit(self.strain, cards, trump)


def rules_discard(strain: Strain, hand: int, count: int, deck: int) -> int:
    """The rules bot's kitty discard for a trick contract, as a mask."""
    return sum(card.mask for card in kitty_discards(Holding(strain, hand, deck), count))


class WholeDealSampler:
    """Deals the cards the seat cannot see as whole hands, a kitty and the dead hands (two
    players: as many tens of cards as the deck has empty seats, out of play), as before any
    card is played, consistently with its view: the cards seen, and the other seats' calls
    (of a few deals, as many as the reader says, one is kept with a chance in proportion to
    how well it explains them: :mod:`cardroom.bots.five_hundred.reading`). The card play
    samples differently, only the cards still out and within the suits each seat showed out of
    (:meth:`~cardroom.bots.five_hundred.search.Knowledge.sample`), as 1000's search does
    (:class:`~cardroom.bots.thousand.search.Sampler`)."""

    def __init__(self, view: FiveHundredView, rng: random.Random) -> None:
        self.view = view
        self.rng = rng
        self.seat = seat_of(view)
        self.players: int = view["players"]
        deck = DECKS[view["rules"]["deck"]]
        self.deck = deck.mask
        self.kitty_size = deck.kitty
        self.dead_size = dead_cards(view)
        self.hand = mask_of_texts(hand_of(view))
        self.hidden = deck.mask & ~self.hand & ~mask_of_texts(view["discards"])
        self.reader = call_reader(view)

    def deal(self, kitty_size: int, pool: HandPool | None = None) -> Deal:
        """A random deal of the hidden cards: ``kitty_size`` to the kitty (0 once the seat
        holds it), ten to each other seat and the rest (as many as the rules deal to dead
        hands) out of play; the pool's seat, when one is given, holds a hand drawn from it."""
        held = {} if pool is None else {pool.seat: pool.draw(self.rng)}
        cards = list(cards_of(self.hidden & ~sum(held.values())))

        def draw() -> Deal:
            self.rng.shuffle(cards)
            return self._split(cards, kitty_size, held)

        deal = pick_fitting(draw, lambda deal: self.reader.weight(deal.hands),
                            self.reader.whole_deal_draws, self.rng)
        assert deal is not None, "a split of the hidden cards is always a deal"
        return deal

    def _split(self, cards: list[Card], kitty_size: int, held: dict[int, int]) -> Deal:
        hands = [0] * self.players
        hands[self.seat] = self.hand
        at = 0
        for seat in range(self.players):
            if seat == self.seat:
                continue
            if seat in held:
                hands[seat] = held[seat]
                continue
            hands[seat] = sum(card.mask for card in cards[at:at + TRICKS_PER_HAND])
            at += TRICKS_PER_HAND
        kitty = sum(card.mask for card in cards[at:at + kitty_size])
        dead = cards[at + kitty_size:]
        assert len(dead) == self.dead_size, "the hidden cards are the hands, kitty and dead"
        return Deal(hands, kitty, sum(card.mask for card in dead))


def solve_tricks(deal_hands: list[int], strain: Strain, leader: int, side: tuple[int, ...],
                 deadline: float, guess: float | None, joker_any_time: bool = False) -> int:
    """Tricks ``side`` takes in a full deal with best play (``SolverTimeout`` past the
    deadline); ``joker_any_time`` when a no-trumps joker may be played at any time."""
    position = Position(hands=tuple(deal_hands), strain=strain, to_play=leader,
                        active=tuple(range(len(deal_hands))), joker_any_time=joker_any_time)
    return FastSearch(position, side, deadline).value(
        guess=None if guess is None else round(guess))


def run_until(deadline: float, samples: int, step: Callable[[], None]) -> int:
    """Call ``step`` once per sampled deal until ``samples`` or the deadline; how many ran."""
    done = 0
    while done < samples and time.perf_counter() < deadline:
        try:
            step()
        except SolverTimeout:
            break
        done += 1
    return done


def choose_bid(view: FiveHundredView, rng: random.Random, deadline: float, samples: int,
               strain_order: list[Suit | None]) -> str | None:
    """The trick bid with the best average score over sampled deals, ``"pass"`` when none
    beats passing, or ``None`` when no deal could be solved in time (or there is nothing to
    weigh). ``strain_order`` ranks the strains worth solving, likeliest first."""
    legal: list[str] = view["legal_actions"]
    offers = legal_trick_bids(legal)
    if not offers:
        return None
    seat = seat_of(view)
    rules = view["rules"]
    sampler = WholeDealSampler(view, rng)
    kitty_size = sampler.kitty_size
    offered = {bid.trump for bid in offers}
    strains = [strain for strain in strain_order if strain in offered][:STRAINS_TO_SOLVE]
    high = high_trick_bid(view)
    ours = team_of(view, seat)
    contracts: list[tuple[int, Suit | None]] = [(seat, strain) for strain in strains]
    if high is not None and (high[0], high[1].trump) not in contracts:
        contracts.append((high[0], high[1].trump))
    outcomes: dict[tuple[int, Suit | None], list[int]] = {key: [] for key in contracts}

    def step() -> None:
        deal = sampler.deal(kitty_size)
        for key in contracts:
            contractor, strain = key
            made = play_contract(deal, contractor, strain_for(strain), view, sampler.deck,
                                 deadline, outcomes[key])
            outcomes[key].append(made)

    if not run_until(deadline, samples, step):
        return None
    solved = min(len(results) for results in outcomes.values())

    def average(contractor: int, bid: Bid) -> float:
        """The average points of a contract for the seat's side."""
        sign = 1 if contractor in ours else -1
        results = outcomes[(contractor, bid.trump)][:solved]
        return sign * sum(hand_points(rules, bid, max(made - DOUBLE_DUMMY_DISCOUNT, 0))
                          for made in results) / solved

    best = max((bid for bid in offers if bid.trump in strains),
               key=lambda bid: average(seat, bid), default=None)
    if best is None:
        return None
    # passing leaves the high bid to be played; a contract of the other side's that looks
    # likely to make is no reason to outbid it at a loss (they may well bid on, or go down)
    passing = max(average(*high), 0.0) if high is not None else 0.0
    if "pass" in legal and average(seat, best) < passing + PASS_MARGIN:
        return "pass"
    return f"bid {best}"


def high_trick_bid(view: FiveHundredView) -> tuple[int, Bid] | None:
    """The seat holding the high bid and that bid, when it is a trick bid."""
    high = view["high_bid"]
    if high is None:
        return None
    bid = Bid.parse(high["bid"])
    return (high["seat"], bid) if bid.contract is Contract.TRICKS else None


def play_contract(deal: Deal, contractor: int, strain: Strain, view: FiveHundredView,
                  deck: int, deadline: float, before: list[int]) -> int:
    """Tricks the contractor's side takes in a sampled deal: the contractor takes the kitty
    and puts back the rules bot's discard, then everyone plays double dummy. ``before``
    (earlier results of the same contract) gives the solver its first guess."""
    kitty_size = deal.kitty.bit_count()
    taken = deal.hands[contractor] | deal.kitty
    hands = list(deal.hands)
    hands[contractor] = taken & ~rules_discard(strain, taken, kitty_size, deck)
    guess = sum(before) / len(before) if before else None
    return solve_tricks(hands, strain, first_leader(view, contractor),
                        tuple(team_of(view, contractor)), deadline, guess)


def discard_candidates(view: FiveHundredView, strain: Strain, count: int) -> list[int]:
    """Discards worth comparing: the rules bot's, and for each side suit it could void, that
    suit and then the rules bot's least wanted cards."""
    deck = DECKS[view["rules"]["deck"]].mask
    held = hand_of(view)
    hand = mask_of_texts(held)
    base = rules_discard(strain, hand, count, deck)
    candidates = [base]
    order = [card.mask for card in kitty_discards(Holding(strain, hand, deck), len(held))]
    for suit in range(4):
        if strain.trump is not None and suit == int(strain.trump):
            continue
        cards = hand & strain.follow_mask[suit]
        if not cards or cards.bit_count() > count:
            continue
        chosen = cards
        for mask in order:
            if chosen.bit_count() == count:
                break
            if not chosen & mask and not (strain.trump is not None
                                          and mask & strain.follow_mask[int(strain.trump)]):
                chosen |= mask
        if chosen.bit_count() == count and chosen not in candidates:
            candidates.append(chosen)
    return candidates


DISCARD_PLAYERS = (2, 3, 4)
"""The tables whose kitty exchange is chosen by solving sampled whole deals (two players:
two hands of ten, the dead cards out of play, solve in milliseconds)."""


DiscardPrior = Callable[[list[int]], list[float]]
"""Values a list of candidate discards (masks) at once: higher is better (the learned
evaluator's expected score, :func:`~cardroom.bots.five_hundred.valued_bids.discard_values`)."""
PLAIN_SPARE = 3
"""A prior values every way to put back the kitty's count of cards from that many more of
the hand's least wanted side-suit cards (56 discards of five from eight)."""
SEARCHED_CANDIDATES = 3
"""Discards the sampled deals compare when a prior has ranked them (the best few)."""


def plain_discards(view: FiveHundredView, strain: Strain, count: int) -> list[int]:
    """Every way to put back ``count`` of the hand's :data:`PLAIN_SPARE` more least wanted
    side-suit cards (no trump, no joker; least wanted as the rules bot's discard orders
    them), or none when the hand has fewer side-suit cards than ``count``."""
    deck = DECKS[view["rules"]["deck"]].mask
    hand = mask_of_texts(hand_of(view))
    trumps = strain.follow_mask[int(strain.trump)] if strain.trump is not None else 0
    order = kitty_discards(Holding(strain, hand, deck), hand.bit_count())
    plain = [card.mask for card in order if card.mask & ~trumps & ~JOKERS_MASK]
    return [sum(chosen) for chosen in combinations(plain[:count + PLAIN_SPARE], count)]


def choose_discard(view: FiveHundredView, rng: random.Random, deadline: float,
                   samples: int, prior: DiscardPrior | None = None) -> str | None:
    """The kitty discard with the best average score over sampled deals of the other hands
    (``None`` when no deal could be solved in time and there is no ``prior``). Two to four
    players only: five players call their partner after the exchange, so the side is not
    known yet, and six full hands take seconds to solve.

    With a ``prior``, the candidates are also every plain discard (:func:`plain_discards`),
    the prior ranks them, the sampled deals compare its best
    :data:`SEARCHED_CANDIDATES`, and the prior's best is put back when no deal is solved in
    time."""
    contract = view["contract"]
    text = contract.get("bid") if contract else None
    bid = Bid.parse(text) if text else None
    if bid is None or bid.is_misere_type or view.get("players") not in DISCARD_PLAYERS:
        return None
    strain = view_strain(view)
    count = view["discard_count"]
    assert count is not None, "a kitty discard is chosen only while the view asks for one"
    candidates = discard_candidates(view, strain, count)
    if prior is not None:
        candidates += [mask for mask in plain_discards(view, strain, count)
                       if mask not in candidates]
        values = dict(zip(candidates, prior(candidates), strict=True))
        candidates.sort(key=lambda mask: -values[mask])
        candidates = candidates[:SEARCHED_CANDIDATES]
    best = candidates[0] if prior is not None or len(candidates) == 1 else None
    if len(candidates) > 1:
        best = _best_sampled_discard(view, bid, strain, candidates, rng, deadline,
                                     samples) or best
    return None if best is None else "discard " + " ".join(str(c) for c in cards_of(best))


def _best_sampled_discard(view: FiveHundredView, bid: Bid, strain: Strain,
                          candidates: list[int], rng: random.Random, deadline: float,
                          samples: int) -> int | None:
    """Of ``candidates``, the discard with the best average score over sampled deals (the
    first on a tie), or ``None`` when no deal was solved in time."""
    seat = seat_of(view)
    rules = view["rules"]
    sampler = WholeDealSampler(view, rng)
    side = tuple(team_of(view, seat))
    leader = first_leader(view, seat)
    scores = Averages()

    def step() -> None:
        deal = sampler.deal(0)
        for discard in candidates:
            hands = list(deal.hands)
            hands[seat] &= ~discard
            made = solve_tricks(hands, strain, leader, side, deadline, None)
            scores.add(discard, hand_points(rules, bid, made))

    if not run_until(deadline, samples, step):
        return None
    return max(candidates, key=lambda d: (scores.mean(d) or -10_000.0, d == candidates[0]))


def choose_joker_suit(view: FiveHundredView, rng: random.Random, deadline: float,
                      samples: int) -> str | None:
    """The no-trumps contractor's nomination of the joker's suit (``pass`` keeps it a
    joker) with the best average score over sampled deals, each solved once per choice:
    naming a suit makes the joker that suit's top card, which can follow suit at once but no
    longer wins a trick in a suit its holder lacks. Only the joker's holder names it (the
    rules give the choice to no one else), so without the joker it passes. ``None`` when no
    deal could be solved in time, or at tables whose whole deals are not solved
    (:data:`DISCARD_PLAYERS`)."""
    if not holds_joker(view):
        return "pass"
    bid = contract_bid(view)
    legal = [action for action in view["legal_actions"]
             if action == "pass" or action.startswith("joker ")]
    if bid is None or len(legal) < 2 or view.get("players") not in DISCARD_PLAYERS:
        return None
    seat = seat_of(view)
    rules = view["rules"]
    deck = DECKS[rules["deck"]]
    jack_high = bid.contract is Contract.J5
    strains = {action: strain_for(None, jack_high=jack_high, colour_four=deck.colour_four,
                                  joker_suit=None if action == "pass"
                                  else Suit.parse(action.split()[1]))
               for action in legal}
    any_time = rules["nt_joker"] == "play_any_time"
    sampler = WholeDealSampler(view, rng)
    side = tuple(team_of(view, seat))
    leader = first_leader(view, seat)
    scores = Averages()

    def step() -> None:  # every choice on the deal, or none (past the deadline)
        hands = sampler.deal(0).hands
        made = {action: solve_tricks(hands, strain, leader, side, deadline, None,
                                     joker_any_time=any_time and action == "pass")
                for action, strain in strains.items()}
        for action, tricks in made.items():
            scores.add(action, hand_points(rules, bid, tricks))

    if not run_until(deadline, samples, step):
        return None
    means = scores.means()
    return max(legal, key=lambda action: (means.get(action, float("-inf")), action == "pass"))


# -- bidding sanity: the search bot's check on the rules bot's bids ------------------------------

CHECKED_LEVEL = 9
"""Trick bids from this level up are checked before they are made: nothing past the hand's
worth (a bid to stop the other side's match-winning contract stretches no further than
eight), and on sampled deals where whole deals are solved."""
MAKE_SHARE = 0.6
"""Share of the sampled deals a checked bid must make, double dummy: real play is a little
harder for the contractor, and a failed nine or ten costs as much as a made one gains."""
TEN_SHARE = 0.8
"""Share of the sampled deals a ten must make, double dummy, where a nine needs
:data:`MAKE_SHARE`: no trick can be taken off a ten's count, and with three in five the
tens checked were made two times in eight with the rules bot's card play (800 duplicate
`online` matches) and the search bot's one failed (40; bench/RESULTS.md)."""
RAISE_SHARE = 0.8
"""Share of the sampled deals a raised bid must make with a trick taken off each (double
dummy flatters the contractor by about one): a raise from seven to eight pays only when the
eight is made about three times in four in real play."""
RAISE_LIMIT = 1
"""Most levels the sampled deals raise a bid above the hand's valuation: the valuation
underbids a four-handed hand (on 80 random `online` deals, first hands whose best strain
makes nine tricks or more on average double dummy were bid at six or seven as often as at
eight), while its sixes and sevens are made nine times in ten."""
WHOLE_DEAL_PLAYERS = DISCARD_PLAYERS
"""Tables whose whole deals are solved in time for a bid check (five or six full hands take
seconds)."""
CROWDED_STOP_STRETCH = 1
"""Most tricks past its worth a hand bids to stop a match-winning contract at five or six
players (three at smaller tables: :data:`~cardroom.bots.five_hundred.tactics.STOP_STRETCH`).
There the hand valuation already runs hot (the rules bot makes only about three in five of
its sevens and eights six-handed), and on 150 duplicate six-handed matches the rules bot
with a stretch of three lost 26 points a hand to itself without the tactics; with one,
1.9 (bench/RESULTS.md)."""
CROWDED_PLAYERS = 5
"""From this many players a stop bid stretches :data:`CROWDED_STOP_STRETCH` at most, and a
checked level needs tricks in hand over the valuation (:data:`CROWDED_SPARE`: no sampled
check is possible)."""

CROWDED_SPARE = {9: 2, 10: 2}
"""Tricks a nine or a ten needs in hand over the valuation at five or six players. With one,
the five-handed tens were made 9 times in 20 and the nines 65% (400 duplicate matches,
bench/RESULTS.md); with two, the hands that bid them bid eight instead, and the search bot
won more (head to head 82.6% against 79.0%, +57.3 points a hand against +47.4)."""


NO_TRICKS_SHARE = {Contract.MISERE: 0.5, Contract.OPEN_MISERE: 0.6}
"""Share of the sampled deals on which a misère or open misère bid by rule must take no
trick, double dummy, where whole deals are solved. At three players the rules bot made 6 of
its 16 misères and 52 of its 136 open misères (bench/RESULTS.md), each failure as costly as a
success gains. Double dummy is about fair to a closed misère (the defenders cannot see the
bidder's cards, nor it theirs) and kind to an open one (its bidder cannot see theirs), which
asks more of the deals."""
PAIR_NO_TRICKS = frozenset({Contract.ACROSS_THE_TABLE, Contract.DOUBLE_NULLO})
"""No-tricks contracts both partners play: the bidder takes the kitty and hands its discards
to its partner, who keeps what it likes and puts back as many (the engine's
``state.PAIR_NULLOS`` but Shields double, which the rules bot's choice decides)."""
SAMPLED_NO_TRICKS = frozenset({*NO_TRICKS_SHARE, *PAIR_NO_TRICKS, Contract.ACROSS_THE_CORNER})
"""The no-tricks contracts whose play :func:`sampled_no_tricks_outcomes` solves."""
Outcome = int
"""A no-tricks contract's result on one deal: the tricks its makers took, as far as the score
tells them apart (0: made; Across The Corner's maker: 4 for fewer than its opponent, 5 for
as many, 6 for more; a broken misère: its tricks where play goes on, up to a count the caller
chooses, else 1)."""
MISERE_BID = Bid.parse("misere")
"""The misère an answer (Across The Corner, Across The Table) takes over."""
HALF = TRICKS_PER_HAND // 2
"""Across The Corner's tie: five tricks each, when two seats play the ten tricks."""
STANDING_TRICKS_COUNTED = 3
"""The most tricks of a broken misère that stands (where play goes on) counted for the
defence's ten a trick: enough to weigh an answer against it, at a fraction of the cost of
counting every trick (an answer's own failure is counted as one trick: its value is most of
its loss, and counting every trick of Across The Table's four hands took seconds)."""


@dataclass(frozen=True)
class NoTricksPlay:
    """How a no-tricks contract would be played: its maker, who plays, who exchanges."""

    maker: int
    """The seat that would bid it (Across The Corner's: the seat answering the misère)."""
    active: tuple[int, ...]
    """The seats that play the hand."""
    exchangers: tuple[int, ...]
    """The seat taking the kitty and, for a pair of makers, the partner taking its discards
    (empty: the kitty stays out, as in Across The Corner and a Wilkinson open misère)."""
    answers: int | None = None
    """The seat whose misère call the contract answers (Across The Corner's opponent, Across
    The Table's partner), whose hand the contract's result turns on."""


@dataclass(frozen=True)
class NoTricksSample:
    """A no-tricks bid's results on sampled deals, and on the same deals those of the misère
    it answers when that misère is the high bid: what the bid gains over letting it stand is
    then measured deal by deal."""

    outcomes: list[Outcome]
    """The bid's result on each deal."""
    standing: list[Outcome]
    """The high bid's misère's result on each deal (empty when the bid answers none, or the
    misère it answers was outbid)."""
    caller: int | None = None
    """The seat whose misère ``standing`` plays."""


def no_tricks_play(view: FiveHundredView, bid: Bid, maker: int | None = None
                   ) -> NoTricksPlay | None:
    """Who plays ``bid`` (one of :data:`SAMPLED_NO_TRICKS`) if ``maker`` (default: the seat to
    act) wins with it, as the engine deals it out; ``None`` for another contract or a pair of
    makers without exactly one partner."""
    maker = seat_of(view) if maker is None else maker
    rules = view["rules"]
    team = team_of(view, maker)
    everyone = tuple(range(view["players"]))
    if bid.contract in NO_TRICKS_SHARE:
        exchange = not (bid.contract is Contract.OPEN_MISERE and rules["wilkinson_misere"])
        return NoTricksPlay(maker, tuple(other for other in everyone
                                         if other == maker or other not in team),
                            (maker,) if exchange else ())
    misere_callers = [caller for caller, call in reversed(calls_of(view))
                      if call is not None and call.contract is Contract.MISERE]
    if bid.contract in PAIR_NO_TRICKS:
        partners = [mate for mate in team if mate != maker]
        if len(partners) != 1:
            return None
        return NoTricksPlay(maker, everyone, (maker, *partners),
                            partners[0] if partners[0] in misere_callers else None)
    if bid.contract is Contract.ACROSS_THE_CORNER:
        opponent = next((caller for caller in misere_callers if caller not in team), None)
        if opponent is None:
            return None
        return NoTricksPlay(maker, tuple(sorted((maker, opponent))), (), opponent)
    return None


def no_tricks_outcome(view: FiveHundredView, bid: Bid, play: NoTricksPlay, deal: Deal,
                      deadline: float, most: int = 1) -> Outcome:
    """The result (:data:`Outcome`) of ``bid`` played as ``play`` says on ``deal``, a broken
    misère-type contract's tricks counted up to ``most`` where play goes on, double
    dummy: every exchanger in turn takes what it is handed (the kitty, then the
    partner's discards) and sheds its most dangerous cards (the rules bot's discard)."""
    rules = view["rules"]
    joker_low = rules["joker_low_in_misere"]
    spec = DECKS[rules["deck"]]
    hands = [hand if other in play.active else 0 for other, hand in enumerate(deal.hands)]
    handed = deal.kitty
    for exchanger in play.exchangers:
        taken = hands[exchanger] | handed
        handed = sum(card.mask for card in shed_for_misere(
            cards_of(taken), spec.kitty, spec.mask, joker_low))
        hands[exchanger] = taken & ~handed
    aims = contract_aims(bid, play.active, team_of(view, play.maker))
    assert aims is not None
    position = Position(tuple(hands), strain_for(None, joker_low),
                        first_leader(view, play.maker, play.active), active=play.active,
                        joker_forced=rules["misere_joker_forced"])
    search = FastSearch(position, aims.counted, deadline, maximisers=aims.maximisers)
    if bid.contract is Contract.ACROSS_THE_CORNER:
        return search.value(HALF - 1, HALF + 1)
    return search.value(0, most if rules["misere_failure"] == "play_on" else 1)


def sampled_no_tricks_outcomes(view: FiveHundredView, bid: Bid, rng: random.Random,
                               deadline: float, samples: int) -> NoTricksSample | None:
    """The results of the no-tricks contract ``bid`` (:data:`SAMPLED_NO_TRICKS`) bid by the
    seat, and of the misère it answers, on each of several sampled deals (as
    :class:`WholeDealSampler` deals them, the misère caller's hand drawn from its
    :func:`~cardroom.bots.five_hundred.reading.misere_pool`), by :func:`no_tricks_outcome`;
    ``None`` when no deal was solved in time, the table's whole deals are not solved
    (:data:`WHOLE_DEAL_PLAYERS`) or the bid is another contract."""
    play = no_tricks_play(view, bid) if view.get("players") in WHOLE_DEAL_PLAYERS else None
    if play is None:
        return None
    high = view["high_bid"]
    standing = (no_tricks_play(view, MISERE_BID, play.answers)
                if play.answers is not None and high is not None
                and high["seat"] == play.answers and high["bid"] == MISERE_BID.text else None)
    sampler = WholeDealSampler(view, rng)
    pool = (None if play.answers is None
            else misere_pool(view, play.answers, sampler.hidden, rng))
    found = NoTricksSample([], [], None if standing is None else standing.maker)

    def step() -> None:
        deal = sampler.deal(sampler.kitty_size, pool)
        outcome = no_tricks_outcome(view, bid, play, deal, deadline)
        if standing is not None:
            found.standing.append(no_tricks_outcome(view, MISERE_BID, standing, deal,
                                                    deadline, STANDING_TRICKS_COUNTED))
        found.outcomes.append(outcome)

    return found if run_until(deadline, samples, step) else None


def sampled_no_tricks(view: FiveHundredView, bid: Bid, rng: random.Random, deadline: float,
                      samples: int) -> float | None:
    """The share of sampled deals (:func:`sampled_no_tricks_outcomes`) on which the seat,
    playing the misère or open misère ``bid`` with its partners out, takes no trick double
    dummy; ``None`` when none was solved or ``bid`` is another contract."""
    if bid.contract not in NO_TRICKS_SHARE:
        return None
    sample = sampled_no_tricks_outcomes(view, bid, rng, deadline, samples)
    return None if sample is None else sample.outcomes.count(0) / len(sample.outcomes)


def sampled_tricks(view: FiveHundredView, bid: Bid, rng: random.Random, deadline: float,
                   samples: int) -> list[int] | None:
    """Tricks the seat takes as contractor in ``bid``'s strain on sampled deals (as
    :class:`WholeDealSampler` deals them, the other seats' calls read), double dummy, taking
    the kitty and putting back the rules bot's discard; ``None`` when no deal was solved in
    time, the table's whole deals are not solved (:data:`WHOLE_DEAL_PLAYERS`) or the bid is
    not a plain trick bid."""
    if view.get("players") not in WHOLE_DEAL_PLAYERS or bid.contract is not Contract.TRICKS:
        return None
    seat = seat_of(view)
    sampler = WholeDealSampler(view, rng)
    strain = strain_for(bid.trump)
    made: list[int] = []

    def step() -> None:
        deal = sampler.deal(sampler.kitty_size)
        made.append(play_contract(deal, seat, strain, view, sampler.deck, deadline, made))

    solved = run_until(deadline, samples, step)
    return made[:solved] or None


def bid_check(view: FiveHundredView, bid: Bid, rng: random.Random, deadline: float,
              samples: int) -> float | None:
    """The share of sampled deals (:func:`sampled_tricks`) in which the seat makes ``bid``
    double dummy, or ``None`` when none was solved."""
    tricks = sampled_tricks(view, bid, rng, deadline, samples)
    return None if tricks is None else made_share(tricks, bid.tricks)


def made_share(tricks: list[int], level: int, discount: int = 0) -> float:
    """The share of ``tricks`` (one result per sampled deal) reaching ``level`` with
    ``discount`` tricks taken off each."""
    return sum(taken - discount >= level for taken in tricks) / len(tricks)


def _match_won_by(view: FiveHundredView, bid: Bid) -> bool:
    """Whether making ``bid`` wins the match for the seat's side (then its size does not
    matter, and the match tactics chose it for the tricks it has to spare)."""
    rules = view["rules"]
    target = rules["target"]
    if target is None:
        return False
    score = view["scores"][view["side_of"][seat_of(view)]] + bid.value
    return score > target if rules["target_strict"] else score >= target


def raised_bid(view: FiveHundredView, bid: Bid, worth: int, tricks: list[int]) -> Bid:
    """``bid``, or a higher legal bid in its strain that the sampled deals justify: the
    highest level made on :data:`RAISE_SHARE` of them with a trick taken off each, at most
    :data:`RAISE_LIMIT` above the hand's valuation ``worth``, and never past a level that
    already wins the match."""
    if _match_won_by(view, bid):
        return bid
    justified = max((level for level in range(bid.tricks + 1, TRICKS_PER_HAND + 1)
                     if made_share(tricks, level, DOUBLE_DUMMY_DISCOUNT) >= RAISE_SHARE),
                    default=bid.tricks)
    ceiling = min(justified, worth + RAISE_LIMIT)
    higher = [offer for offer in legal_trick_bids(view["legal_actions"])
              if offer.contract is Contract.TRICKS and offer.trump == bid.trump
              and bid.tricks < offer.tricks <= ceiling]
    return max(higher, key=lambda offer: offer.value, default=bid)


def sane_bid(view: FiveHundredView, choice: str, levels: dict[Suit | None, int],
             rng: random.Random, deadline: float, samples: int,
             raise_bids: bool = True, check_no_tricks: bool = True) -> str:
    """``choice`` (the rules bot's bid, match tactics included), raised where the sampled
    deals justify more, or a lower bid or a pass where it is not sane.

    A bid within the hand's worth (``levels``: the rules bot's valuation, or the learned
    evaluator's) is solved on sampled deals where whole deals are solved, and raised in its
    strain as :func:`raised_bid` allows, unless ``raise_bids`` is off (bids valued by their
    expected score have weighed every level already). Not sane: a stop bid stretched past
    :data:`CROWDED_STOP_STRETCH` at five or six players; a bid of :data:`CHECKED_LEVEL` or
    more past the hand's worth; a nine or ten that the sampled deals do not make
    (:data:`MAKE_SHARE`, :data:`TEN_SHARE`); where no deal is solved, a ten without a joker
    at all, and at five or six players a nine or ten the valuation does not reach with
    :data:`CROWDED_SPARE` tricks to spare. A bid stepped down becomes the most valuable
    lower bid the hand is worth (checked again), else a pass. With ``check_no_tricks`` (off
    for bids whose misère chance was weighed already), a misère or open misère the sampled
    deals do not make often enough (:data:`NO_TRICKS_SHARE`) becomes the most valuable trick
    bid the hand is worth (checked as any other), else a pass."""
    if view["phase"] != "bidding" or not choice.startswith("bid "):
        return choice
    bid = Bid.parse(choice[4:])
    legal: list[str] = view["legal_actions"]
    if not bid.is_trick_bid:
        share = (sampled_no_tricks(view, bid, rng, deadline, samples) if check_no_tricks
                 else None)
        if share is None or share >= NO_TRICKS_SHARE[bid.contract]:
            return choice
        within = [offer for offer in legal_trick_bids(legal)
                  if offer.tricks <= levels.get(offer.trump, 0)]
        if not within:
            return "pass" if "pass" in legal else choice
        bid = max(within, key=lambda offer: offer.value)
    crowded = players_of(view) >= CROWDED_PLAYERS
    joker = holds_joker(view)
    solved: dict[Suit | None, list[int] | None] = {}

    def tricks_in(offer: Bid) -> list[int] | None:
        if offer.trump not in solved:
            solved[offer.trump] = sampled_tricks(view, offer, rng, deadline, samples)
        return solved[offer.trump]

    if raise_bids and bid.contract is Contract.TRICKS and bid.tricks <= levels.get(bid.trump, 0):
        tricks = tricks_in(bid)
        if tricks is not None:
            bid = raised_bid(view, bid, levels.get(bid.trump, 0), tricks)
    while True:
        worth = levels.get(bid.trump, 0)
        stretch = bid.tricks - worth
        sane = not (crowded and stretch > CROWDED_STOP_STRETCH)
        if sane and bid.tricks >= CHECKED_LEVEL:
            tricks = tricks_in(bid) if stretch <= RAISE_LIMIT else None
            if tricks is not None:
                need = TEN_SHARE if bid.tricks == TRICKS_PER_HAND else MAKE_SHARE
                sane = made_share(tricks, bid.tricks) >= need and (
                    stretch <= 0 or made_share(tricks, bid.tricks, DOUBLE_DUMMY_DISCOUNT)
                    >= RAISE_SHARE)
            elif stretch > 0 or (bid.tricks == TRICKS_PER_HAND and not joker):
                sane = False
            elif crowded:
                sane = worth >= bid.tricks + CROWDED_SPARE[bid.tricks]
        if sane:
            return f"bid {bid}"
        lower = [offer for offer in legal_trick_bids(legal)
                 if offer.value < bid.value and offer.tricks < bid.tricks
                 and offer.tricks <= levels.get(offer.trump, 0)]
        if not lower:
            return "pass" if "pass" in legal else choice
        bid = max(lower, key=lambda offer: offer.value)
