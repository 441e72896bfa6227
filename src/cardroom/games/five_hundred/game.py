"""A match of four-player 500 as a pure state machine: deal after deal until a side wins.

Use it like a chess board::

    game = Game.new(Rules.preset("online"), seed=7)
    game.to_act, game.phase            # (1, 'bidding')
    game.legal_actions()               # [Action('pass'), Action('bid 6S'), ...]
    game.apply("bid 7H")               # -> public events, or IllegalAction with the reason
    game.view(seat)                    # everything that seat may see, JSON-ready

Hands, the kitty and discards are bit masks of card indexes (see :mod:`cardroom.games.cards`);
the trick tables come from :mod:`.tricks`. Randomness is only the seeded shuffle of each deal.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cardroom.games.base import IllegalAction
from cardroom.games.cards import (
    CARDS,
    JOKER_INDEX,
    Card,
    Suit,
    cards_of,
    iter_indexes,
    mask_of,
)
from cardroom.games.five_hundred.actions import (
    BID,
    BID_ACTIONS,
    DISCARD,
    GIVE,
    GIVE_ACTIONS,
    JOKER_LEADS,
    PASS,
    PASS_ACTION,
    PLAY,
    PLAY_ACTIONS,
    Action,
    DiscardChoices,
)
from cardroom.games.five_hundred.bids import Bid, Contract
from cardroom.games.five_hundred.rules import Rules
from cardroom.games.five_hundred.tricks import JOKER_SUIT, Strain, strain_for
from cardroom.games.record import Record

GAME_NAME = "500"
PLAYERS = 4
TRICKS_PER_HAND = 10
JOKER_BIT = 1 << JOKER_INDEX
CARD_TEXT = tuple(card.text for card in CARDS)

BIDDING = "bidding"
GIVE_PHASE = "give"
DISCARD_PHASE = "discard"
PARTNER_DISCARD = "partner_discard"
PLAYING = "play"
OVER = "over"

SUIT_WORDS = {0: "spades", 1: "clubs", 2: "diamonds", 3: "hearts"}


@dataclass(frozen=True)
class HandResult:
    """How one deal ended: the line of the score history (seed 004's "Detailed" view).

    ``contract`` is the winning bid's text, or ``None`` when everyone passed; ``made`` is
    ``None`` for hands with no contract; ``points`` and ``scores`` are per side (team).
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

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"number": self.number, "dealer": self.dealer, "contract": self.contract,
                "contractor": self.contractor, "made": self.made, "tricks": list(self.tricks),
                "points": list(self.points), "scores": list(self.scores),
                "summary": self.summary}


def deal_cards(rules: Rules, rng: random.Random, dealer: int) -> tuple[list[int], int]:
    """Shuffle the deck and deal it in bundles of 3-4-3 from the dealer's left, kitty between.

    Returns the hands as masks (by seat) and the kitty mask. Any fixed pattern would do; this
    one is the traditional deal, and replays rely on it staying the same.
    """
    deck = list(iter_indexes(rules.deck_spec.mask))
    rng.shuffle(deck)
    kitty_size = rules.kitty_size
    kitty_bundles = {3: (1, 1, 1), 5: (3, 2, 0)}[kitty_size]
    hands = [0] * PLAYERS
    kitty = 0
    position = 0
    for bundle, to_kitty in zip((3, 4, 3), kitty_bundles, strict=True):
        for offset in range(1, PLAYERS + 1):
            seat = (dealer + offset) % PLAYERS
            for index in deck[position:position + bundle]:
                hands[seat] |= 1 << index
            position += bundle
        for index in deck[position:position + to_kitty]:
            kitty |= 1 << index
        position += to_kitty
    return hands, kitty


class Game:
    """A match of 500 for four players in two partnerships (seats 0 & 2 against 1 & 3).

    Create one with :meth:`new` (seeded deal) or :meth:`from_deal` (a given first deal), or
    rebuild one with :meth:`replay`. The match goes on deal after deal by itself: after the last
    trick the hand is scored, the deal passes clockwise and the next hand is dealt.
    """

    players = PLAYERS

    def __init__(self, rules: Rules, seed: int, dealer: int,
                 first_deal: tuple[list[int], int] | None = None) -> None:
        self.rules = rules
        self.seed = seed
        self.first_dealer = dealer
        self.first_deal = first_deal
        self.teams = rules.teams
        self.team_of = (0, 1, 0, 1)
        self.scores = [0, 0]
        self.history: list[HandResult] = []
        self.actions: list[Action] = []
        self.action_seats: list[int] = []
        self.notes: dict[int, str] = {}
        self.hand_number = 0
        self.dealer = dealer
        self.redeals = 0
        self.winner: int | None = None
        self._ladder_actions = tuple(BID_ACTIONS[bid] for bid in rules.bid_ladder)
        self.next_in_play: tuple[int, ...] = ()
        self._deal()

    # -- construction ----------------------------------------------------------------------------

    @classmethod
    def new(cls, rules: Rules | str, seed: int, dealer: int | None = None) -> Game:
        """A new match with deals drawn from ``seed``; a random first dealer unless given."""
        rules = Rules.preset(rules) if isinstance(rules, str) else rules
        if dealer is None:
            dealer = random.Random(f"cardroom-500:{seed}:first-dealer").randrange(PLAYERS)
        return cls(rules, seed, _check_seat(dealer))

    @classmethod
    def from_deal(cls, rules: Rules | str, dealer: int, hands: Sequence[Sequence[Card | str]],
                  kitty: Sequence[Card | str], seed: int = 0) -> Game:
        """A match whose first deal is given (later deals come from ``seed``).

        ``ValueError`` unless the hands and kitty hold each card of the deck exactly once.
        """
        rules = Rules.preset(rules) if isinstance(rules, str) else rules
        if len(hands) != PLAYERS:
            raise ValueError(f"a deal needs {PLAYERS} hands, got {len(hands)}")
        masks = []
        seen = 0
        for seat, hand in enumerate(hands):
            mask = mask_of(hand)
            if len(hand) != TRICKS_PER_HAND or mask.bit_count() != TRICKS_PER_HAND:
                raise ValueError(f"hand {seat} must hold {TRICKS_PER_HAND} different cards")
            if mask & seen:
                raise ValueError(f"a card is dealt twice: {cards_of(mask & seen)[0]}")
            seen |= mask
            masks.append(mask)
        kitty_mask = mask_of(kitty)
        if len(kitty) != rules.kitty_size or kitty_mask.bit_count() != rules.kitty_size:
            raise ValueError(f"the kitty must hold {rules.kitty_size} different cards")
        if kitty_mask & seen:
            raise ValueError(f"a card is dealt twice: {cards_of(kitty_mask & seen)[0]}")
        seen |= kitty_mask
        deck = rules.deck_spec.mask
        if seen != deck:
            strays = cards_of(seen & ~deck)
            if strays:
                raise ValueError(f"{strays[0]} is not in the {rules.deck} deck")
            raise ValueError(f"the deal leaves out {cards_of(deck & ~seen)[0]}")
        return cls(rules, seed, _check_seat(dealer), (masks, kitty_mask))

    @classmethod
    def replay(cls, record: Record) -> Game:
        """Rebuild a match from its record, applying every action again in order."""
        if record.game != GAME_NAME:
            raise ValueError(f"not a 500 record: game {record.game!r}")
        rules = Rules.from_dict(record.rules)
        if record.deal is not None:
            game = cls.from_deal(rules, record.dealer, record.deal["hands"],
                                 record.deal["kitty"], seed=record.seed)
        else:
            game = cls(rules, record.seed, _check_seat(record.dealer))
        for number, text in enumerate(record.actions):
            seat = record.seats[number] if number < len(record.seats) else None
            if seat is not None and seat != game.to_act:
                raise ValueError(f"record action {number + 1} ({text}) is by seat {seat}, "
                                 f"but seat {game.to_act} was to act")
            try:
                game.apply(text)
            except IllegalAction as error:
                raise ValueError(f"record action {number + 1} ({text}): {error}") from None
        return game

    @property
    def record(self) -> Record:
        """The record of the match so far (rules, seed or first deal, every action)."""
        deal = None
        if self.first_deal is not None:
            hands, kitty = self.first_deal
            deal = {"hands": [[str(c) for c in cards_of(h)] for h in hands],
                    "kitty": [str(c) for c in cards_of(kitty)]}
        return Record(game=GAME_NAME, rules=self.rules.to_dict(), seed=self.seed,
                      dealer=self.first_dealer, deal=deal,
                      actions=[action.text for action in self.actions],
                      seats=list(self.action_seats), notes=dict(self.notes))

    def copy(self) -> Game:
        """An independent copy (for search): mutating it leaves this game alone."""
        twin = copy.copy(self)
        twin.scores = self.scores.copy()
        twin.history = self.history.copy()
        twin.actions = self.actions.copy()
        twin.action_seats = self.action_seats.copy()
        twin.notes = self.notes.copy()
        twin.hands = self.hands.copy()
        twin.discards = self.discards.copy()
        twin.bids = self.bids.copy()
        twin.tricks_won = self.tricks_won.copy()
        twin.trick = self.trick.copy()
        twin.trick_seats = self.trick_seats.copy()
        twin.completed = self.completed.copy()
        return twin

    # -- public state ----------------------------------------------------------------------------

    @property
    def phase(self) -> str:
        """``bidding``, ``give``, ``discard``, ``partner_discard``, ``play`` or ``over``."""
        return self._phase

    @property
    def to_act(self) -> int | None:
        """The seat to act, or ``None`` once the match is over."""
        return self._to_act

    @property
    def is_over(self) -> bool:
        """True once a side has won the match."""
        return self._phase == OVER

    def partner_of(self, seat: int) -> int:
        """The seat opposite."""
        return (seat + 2) % PLAYERS

    # -- dealing ---------------------------------------------------------------------------------

    def _deal(self) -> None:
        self.hand_number += 1
        if self.hand_number == 1 and self.first_deal is not None:
            hands, self.kitty = self.first_deal
            self.hands = list(hands)
        else:
            rng = random.Random(f"cardroom-500:{self.seed}:deal:{self.hand_number}")
            self.hands, self.kitty = deal_cards(self.rules, rng, self.dealer)
        self.notes[len(self.actions)] = f"hand {self.hand_number}, dealer {self.dealer}"
        self.discards = [0] * PLAYERS
        self.exchange = 0  # cards the seat exchanging may see besides its hand
        self.exchange_count = 0
        self.given = 0
        self.handed_over = 0  # Across The Table: the contractor's discards, passed to partner
        self.bids: list[tuple[int, Bid | None]] = []
        self.high_bid: Bid | None = None
        self.high_bidder: int | None = None
        self.high_rank = -1
        self.passed = 0
        self.contract: Bid | None = None
        self.contractor: int | None = None
        self.corner_opponent: int | None = None
        self.active: tuple[int, ...] = tuple(range(PLAYERS))
        self.strain: Strain = strain_for(None)
        self.joker_forced = False
        self.joker_any_time = False
        self.open_hand: int | None = None
        self.tricks_won = [0] * PLAYERS
        self.trick: list[int] = []
        self.trick_seats: list[int] = []
        self.led = 0
        self.nominated: Suit | None = None
        self.completed: list[dict[str, Any]] = []
        self._phase = BIDDING
        self._to_act: int | None = (self.dealer + 1) % PLAYERS

    # -- legal actions ---------------------------------------------------------------------------

    def legal_actions(self) -> Sequence[Action]:
        """Every action the seat to act may take (a lazy sequence for kitty discards)."""
        phase = self._phase
        if phase == PLAYING:
            return self._legal_plays()
        if phase == BIDDING:
            return self._legal_bids()
        if phase in (DISCARD_PHASE, PARTNER_DISCARD):
            return DiscardChoices(self.hands[self._to_act], self.exchange_count)  # type: ignore[index]
        if phase == GIVE_PHASE:
            return [GIVE_ACTIONS[i] for i in iter_indexes(self.hands[self._to_act])]  # type: ignore[index]
        return []

    def _legal_plays(self) -> list[Action]:
        seat = self._to_act
        playable = self._playable(seat)  # type: ignore[arg-type]
        actions = []
        while playable:
            low = playable & -playable
            index = low.bit_length() - 1
            playable ^= low
            if index == JOKER_INDEX and not self.trick and self.strain.trump is None:
                actions.extend(JOKER_LEADS.values())
            else:
                actions.append(PLAY_ACTIONS[index])
        return actions

    def _playable(self, seat: int) -> int:
        """Mask of the cards ``seat`` may play to the current trick."""
        hand = self.hands[seat]
        if not self.trick:
            if self.joker_forced and hand & JOKER_BIT and hand != JOKER_BIT:
                return hand & ~JOKER_BIT
            return hand
        follow = hand & self.strain.follow_mask[self.led]
        if follow:
            if self.joker_any_time and hand & JOKER_BIT:
                follow |= JOKER_BIT
            return follow
        if self.joker_forced and hand & JOKER_BIT:
            return JOKER_BIT
        return hand

    def _legal_bids(self) -> list[Action]:
        seat = self._to_act
        actions = [] if self._must_bid() else [PASS_ACTION]
        start = self.high_rank + 1
        ladder = self._ladder_actions
        refused = {rank for rank in self.rules.gated_bids
                   if rank >= start and self._bid_refusal(seat, ladder[rank].bid)}  # type: ignore[arg-type]
        if refused:
            actions.extend(a for rank, a in enumerate(ladder[start:], start)
                           if rank not in refused)
        else:
            actions.extend(ladder[start:])
        return actions

    def _must_bid(self) -> bool:
        return (self.rules.all_pass == "dealer_must_bid" and self.high_bid is None
                and self.passed.bit_count() == PLAYERS - 1)

    def _bid_refusal(self, seat: int, bid: Bid) -> str | None:
        """Why ``seat`` may not make ``bid`` now, or ``None`` if it may."""
        rules = self.rules
        rank = rules.bid_rank.get(bid)
        if rank is None:
            return f"{bid.name} is not a bid under these rules."
        if rank <= self.high_rank:
            return f"A bid must beat {self.high_bid.name}, and {bid.name} does not."  # type: ignore[union-attr]
        contract = bid.contract
        if contract is Contract.TRICKS:
            if rules.inkle and bid.tricks == 6 and len(self.bids) >= 2:
                return "Only the first two players to speak may bid six (an inkle)."
            return None
        misere_bidders = [s for s, b in self.bids if b is not None
                          and b.contract is Contract.MISERE]
        if contract is Contract.MISERE and rules.misere_placement == "after_seven":
            if not any(b is not None and b.tricks == 7 for _, b in self.bids):
                return "Misère may only be bid once somebody has bid seven."
        elif contract is Contract.OPEN_MISERE and rules.open_misere_needs_misere:
            if not misere_bidders:
                return "Spread may only be bid after somebody has bid No Tricks this hand."
        elif contract is Contract.ACROSS_THE_CORNER:
            if not any(self.team_of[s] != self.team_of[seat] for s in misere_bidders):
                return "Across The Corner may only be bid after an opponent bid No Tricks."
        elif contract is Contract.ACROSS_THE_TABLE:
            if self.partner_of(seat) not in misere_bidders:
                return "Across The Table may only be bid after your partner bid No Tricks."
        elif contract is Contract.NELLO and self.scores[self.team_of[seat]] >= 0:
            return "Nello may only be bid by a side in the hole (with a score below zero)."
        return None

    # -- applying actions ------------------------------------------------------------------------

    def apply(self, action: Action | str, seat: int | None = None) -> list[dict[str, Any]]:
        """Apply the action of the seat to act; return the public events it caused.

        ``seat``, when given, is who is trying to act: anyone else than the seat to act gets
        :class:`IllegalAction`. Any illegal action raises :class:`IllegalAction` with the reason
        and leaves the game exactly as it was.
        """
        if self._phase == OVER:
            raise IllegalAction("The match is over.")
        actor = self._to_act
        if seat is not None and seat != actor:
            raise IllegalAction(f"It is seat {actor}'s turn, not seat {seat}'s.")
        if not isinstance(action, Action):
            try:
                action = Action.parse(action)
            except ValueError as error:
                raise IllegalAction(str(error)) from None
        phase = self._phase
        if phase == PLAYING:
            self._check_play(actor, action)  # type: ignore[arg-type]
        elif phase == BIDDING:
            self._check_bid(actor, action)  # type: ignore[arg-type]
        elif phase == GIVE_PHASE:
            self._check_holding(actor, action, GIVE, 1, "give one card to the widow")  # type: ignore[arg-type]
        else:
            self._check_holding(actor, action, DISCARD, self.exchange_count,  # type: ignore[arg-type]
                                f"discard {self.exchange_count} cards")
        self.actions.append(action)
        self.action_seats.append(actor)  # type: ignore[arg-type]
        if phase == PLAYING:
            return self._play(actor, action)  # type: ignore[arg-type]
        if phase == BIDDING:
            return self._bid(actor, action)  # type: ignore[arg-type]
        if phase == GIVE_PHASE:
            return self._give(actor, action)  # type: ignore[arg-type]
        return self._discard(actor, action)  # type: ignore[arg-type]

    # bidding

    def _check_bid(self, seat: int, action: Action) -> None:
        if action.kind == PASS:
            if self._must_bid():
                raise IllegalAction("Everybody else has passed: the dealer must bid.")
            return
        if action.kind != BID:
            raise IllegalAction("It is time to bid: pass, or bid e.g. 'bid 7H'.")
        reason = self._bid_refusal(seat, action.bid)  # type: ignore[arg-type]
        if reason:
            raise IllegalAction(reason)

    def _bid(self, seat: int, action: Action) -> list[dict[str, Any]]:
        bid = action.bid
        self.bids.append((seat, bid))
        if bid is None:
            self.passed |= 1 << seat
            events: list[dict[str, Any]] = [{"type": "pass", "seat": seat}]
        else:
            self.high_bid, self.high_bidder = bid, seat
            self.high_rank = self.rules.bid_rank[bid]
            events = [{"type": "bid", "seat": seat, "bid": bid.text}]
        next_seat = self._next_bidder(seat)
        if next_seat is not None:
            self._to_act = next_seat
            return events
        if self.high_bid is None:
            return events + self._all_passed()
        return events + self._start_contract(self.high_bid, self.high_bidder)  # type: ignore[arg-type]

    def _next_bidder(self, seat: int) -> int | None:
        """Who bids next, or ``None`` when the bidding is over."""
        if self.rules.bidding == "single":
            return (seat + 1) % PLAYERS if len(self.bids) < PLAYERS else None
        still_in = [s for s in range(PLAYERS) if not self.passed >> s & 1]
        if self.high_bid is None:
            return self._next_of(seat, still_in) if still_in else None
        others = [s for s in still_in if s != self.high_bidder]
        if others:
            return self._next_of(seat, still_in)
        if self.rules.rebid == "any_time" and self.high_bidder in still_in:
            return self.high_bidder
        return None

    @staticmethod
    def _next_of(seat: int, seats: Sequence[int]) -> int:
        """The first of ``seats`` clockwise after ``seat``."""
        for offset in range(1, PLAYERS + 1):
            candidate = (seat + offset) % PLAYERS
            if candidate in seats:
                return candidate
        raise AssertionError("no seat to move to")

    def _all_passed(self) -> list[dict[str, Any]]:
        rule = self.rules.all_pass
        if rule == "play_no_trump":
            events: list[dict[str, Any]] = [{"type": "all_passed", "outcome": "play_no_trump"}]
            return events + self._start_play()
        self._record_hand(None, [0, 0], "Everybody passed: " + {
            "redeal": "the same dealer deals again.",
            "redeal_then_pass_deal": "the cards are dealt again.",
            "next_dealer": "the deal passes to the left.",
        }[rule])
        if rule == "next_dealer" or (rule == "redeal_then_pass_deal" and self.redeals >= 2):
            self.redeals = 0
            self.dealer = (self.dealer + 1) % PLAYERS
        else:
            self.redeals += 1
        self._deal()
        return [{"type": "all_passed", "outcome": rule},
                {"type": "deal", "hand": self.hand_number, "dealer": self.dealer}]

    def _start_contract(self, bid: Bid, contractor: int) -> list[dict[str, Any]]:
        """Set up the contract won in the bidding and move on to the kitty or the play."""
        self.contract, self.contractor = bid, contractor
        self.redeals = 0
        partner = self.partner_of(contractor)
        kind = bid.contract
        misere_type = bid.is_misere_type
        self.strain = strain_for(bid.trump, misere_type and self.rules.joker_low_in_misere)
        self.joker_forced = misere_type and self.rules.misere_joker_forced
        events: list[dict[str, Any]] = [
            {"type": "contract", "seat": contractor, "bid": bid.text, "value": bid.value}]
        if kind in (Contract.MISERE, Contract.OPEN_MISERE, Contract.NELLO):
            self.active = tuple(s for s in range(PLAYERS) if s != partner)
        elif kind is Contract.ACROSS_THE_CORNER:
            self.corner_opponent = next(s for s, b in reversed(self.bids) if b is not None
                                        and b.contract is Contract.MISERE
                                        and self.team_of[s] != self.team_of[contractor])
            self.active = tuple(sorted((contractor, self.corner_opponent)))
            return events + self._start_play()
        if kind is Contract.NELLO:
            self._phase, self._to_act = GIVE_PHASE, partner
            return events
        return events + self._take_kitty(self.rules.kitty_size)

    def _take_kitty(self, count: int) -> list[dict[str, Any]]:
        """The contractor picks up the kitty and must put ``count`` cards back."""
        contractor = self.contractor
        self.exchange = self.kitty
        self.hands[contractor] |= self.kitty  # type: ignore[index]
        self.kitty = 0
        self.exchange_count = count
        self._phase, self._to_act = DISCARD_PHASE, contractor
        return [{"type": "kitty_taken", "seat": contractor}]

    # kitty

    def _check_holding(self, seat: int, action: Action, kind: str, count: int,
                       what: str) -> None:
        if action.kind != kind:
            raise IllegalAction(f"It is time to {what}.")
        if action.mask & ~self.hands[seat]:
            stray = cards_of(action.mask & ~self.hands[seat])[0]
            raise IllegalAction(f"You do not hold {stray}.")
        if len(action.cards) != count or action.mask.bit_count() != count:
            raise IllegalAction(f"You must {what}, not {len(action.cards)}.")

    def _give(self, seat: int, action: Action) -> list[dict[str, Any]]:
        self.hands[seat] &= ~action.mask
        self.given = action.mask
        self.kitty |= action.mask
        return [{"type": "give", "seat": seat}, *self._take_kitty(self.rules.kitty_size + 1)]

    def _discard(self, seat: int, action: Action) -> list[dict[str, Any]]:
        self.hands[seat] &= ~action.mask
        events: list[dict[str, Any]] = [
            {"type": "discard", "seat": seat, "count": len(action.cards)}]
        if self._phase == DISCARD_PHASE and self.contract.contract is Contract.ACROSS_THE_TABLE:  # type: ignore[union-attr]
            partner = self.partner_of(seat)
            self.hands[partner] |= action.mask
            self.exchange = self.handed_over = action.mask
            self._phase, self._to_act = PARTNER_DISCARD, partner
            return [*events, {"type": "discards_passed", "seat": seat, "to": partner}]
        self.discards[seat] |= action.mask
        self.exchange = 0
        return events + self._start_play()

    # play

    def _start_play(self) -> list[dict[str, Any]]:
        self._phase = PLAYING
        self.next_in_play = tuple(self._next_of(seat, self.active) for seat in range(PLAYERS))
        no_trumps = self.contract is None or (self.contract.contract is Contract.TRICKS
                                              and self.contract.trump is None)
        self.joker_any_time = no_trumps and self.rules.nt_joker == "play_any_time"
        if self.rules.first_lead == "contractor" and self.contractor is not None:
            self._to_act = self.contractor
        else:
            self._to_act = self._next_of(self.dealer, self.active)
        return [{"type": "play_starts", "leader": self._to_act}]

    def _check_play(self, seat: int, action: Action) -> None:
        if action.kind != PLAY:
            raise IllegalAction("It is time to play a card, e.g. 'play AS'.")
        card = action.cards[0]
        if not self.hands[seat] & card.mask:
            raise IllegalAction(f"You do not hold {card}.")
        if not self._playable(seat) & card.mask:
            raise IllegalAction(self._play_refusal(seat, card))
        names_suit = card.index == JOKER_INDEX and not self.trick and self.strain.trump is None
        if names_suit and action.nominated is None:
            raise IllegalAction("Leading the joker in no trumps, you must name the suit the "
                                "others must follow, e.g. 'play JK:H'.")
        if not names_suit and action.nominated is not None:
            raise IllegalAction("Only the joker led in no trumps names a suit.")

    def _play_refusal(self, seat: int, card: Card) -> str:
        """A human explanation of why ``card`` may not be played now."""
        hand = self.hands[seat]
        joker = card.index == JOKER_INDEX
        if not self.trick:
            return "The joker may not be led in a no-tricks hand except to the last trick."
        led_name = SUIT_WORDS.get(self.led, "the joker's suit")
        trump = self.strain.trump
        if trump is not None and self.led == trump:
            led_name = f"trumps ({SUIT_WORDS[trump]})"
        if hand & self.strain.follow_mask[self.led]:
            if joker and trump is None:
                return (f"{led_name.capitalize()} were led and you can follow: in no trumps "
                        "the joker may only be played when you cannot follow suit.")
            if joker:
                return (f"{led_name.capitalize()} were led and you hold some: the joker is "
                        "a trump, so it may only be played where a trump may.")
            return f"{led_name.capitalize()} were led and you hold some: you must follow suit."
        return (f"You cannot follow {led_name}, so you must play the joker "
                "(a no-tricks rule at this table).")

    def _play(self, seat: int, action: Action) -> list[dict[str, Any]]:
        index = action.cards[0].index
        self.hands[seat] &= ~(1 << index)
        trick = self.trick
        trick.append(index)
        self.trick_seats.append(seat)
        event: dict[str, Any] = {"type": "play", "seat": seat, "card": CARD_TEXT[index]}
        if len(trick) == 1:
            self.led = self.strain.led_suit(index, action.nominated)
            self.nominated = action.nominated
            if action.nominated is not None:
                event["nominated"] = action.nominated.letter
        if len(trick) < len(self.active):
            self._to_act = self.next_in_play[seat]
            return [event]
        return [event, *self._finish_trick()]

    def _finish_trick(self) -> list[dict[str, Any]]:
        winner = self.trick_seats[self.strain.winner(self.trick, self.led)]
        self.tricks_won[winner] += 1
        cards = [CARD_TEXT[i] for i in self.trick]
        done = {"leader": self.trick_seats[0], "seats": list(self.trick_seats), "cards": cards,
                "winner": winner}
        if self.nominated is not None:
            done["nominated"] = self.nominated.letter
        self.completed.append(done)
        events: list[dict[str, Any]] = [
            {"type": "trick", **done, "cards": list(cards), "seats": list(done["seats"])}]
        self.trick = []
        self.trick_seats = []
        self.nominated = None
        contract = self.contract
        if (contract is not None and contract.contract is Contract.OPEN_MISERE
                and self.open_hand is None):
            self.open_hand = self.contractor
            events.append({"type": "hand_shown", "seat": self.contractor})
        if len(self.completed) == TRICKS_PER_HAND or self._makers_failed_and_stop(winner):
            return events + self._end_hand()
        self._to_act = winner
        return events

    def makers(self) -> tuple[int, ...]:
        """Seats that must take no tricks in a no-tricks contract (empty otherwise)."""
        contract = self.contract
        if contract is None or not contract.is_misere_type:
            return ()
        if contract.contract is Contract.ACROSS_THE_TABLE:
            return (self.contractor, self.partner_of(self.contractor))  # type: ignore[arg-type]
        if contract.contract is Contract.ACROSS_THE_CORNER:
            return ()
        return (self.contractor,)  # type: ignore[return-value]

    def _makers_failed_and_stop(self, winner: int) -> bool:
        return self.rules.misere_failure == "stop" and winner in self.makers()

    # scoring

    def _end_hand(self) -> list[dict[str, Any]]:
        points, made, summary = self._hand_points()
        result = self._record_hand(made, points, summary)
        events: list[dict[str, Any]] = [{"type": "hand_scored", **result.to_dict()}]
        winner = self._match_winner(made)
        if winner is not None:
            self.winner = winner
            self._phase, self._to_act = OVER, None
            return [*events, {"type": "match_over", "winner": winner, "scores": list(self.scores)}]
        self.dealer = (self.dealer + 1) % PLAYERS
        self._deal()
        return [*events, {"type": "deal", "hand": self.hand_number, "dealer": self.dealer}]

    def _hand_points(self) -> tuple[list[int], bool | None, str]:
        """Points per side for the hand just played, whether the contract was made, a summary."""
        team_tricks = [sum(self.tricks_won[s] for s in team) for team in self.teams]
        contract = self.contract
        defence_pays = self.rules.defender_points == "always"
        if contract is None:
            return ([10 * t for t in team_tricks], None,
                    "Nobody bid: played in no trumps at 10 points a trick.")
        side = self.team_of[self.contractor]  # type: ignore[index]
        points = [0, 0]
        if contract.contract is Contract.ACROSS_THE_CORNER:
            mine = self.tricks_won[self.contractor]  # type: ignore[index]
            theirs = self.tricks_won[self.corner_opponent]  # type: ignore[index]
            if mine == theirs:
                return points, None, f"Across The Corner: {mine} tricks each, nobody scores."
            fewer = side if mine < theirs else 1 - side
            points[fewer] = contract.value
            return points, mine < theirs, (f"Across The Corner: {min(mine, theirs)} tricks to "
                                           f"{max(mine, theirs)}; {contract.value} to side "
                                           f"{fewer}.")
        if contract.is_misere_type:
            taken = sum(self.tricks_won[s] for s in self.makers())
            made = taken == 0
            points[side] = contract.value if made else -contract.value
            if defence_pays:
                points[1 - side] = 10 * taken
            verdict = "made" if made else f"failed ({taken} trick{'s' * (taken != 1)} taken)"
            return points, made, f"{contract.name} {verdict}."
        taken = team_tricks[side]
        made = taken >= contract.tricks
        value = contract.value
        if made and taken == TRICKS_PER_HAND:
            bonus = self.rules.all_tricks_bonus
            if bonus == "slam_250":
                value = max(value, 250)
            elif bonus == "sweep_plus_50" and contract.tricks < TRICKS_PER_HAND:
                value += 50
        points[side] = value if made else -value
        if defence_pays:
            points[1 - side] = 10 * team_tricks[1 - side]
        verdict = "made it through" if made else "went back"
        return points, made, f"{contract.name}: {taken} tricks, {verdict}."

    def _record_hand(self, made: bool | None, points: list[int], summary: str) -> HandResult:
        for side in (0, 1):
            self.scores[side] += points[side]
        contract = self.contract
        result = HandResult(
            number=self.hand_number, dealer=self.dealer,
            contract=contract.text if contract is not None else None,
            contractor=self.contractor, made=made, tricks=tuple(self.tricks_won),
            points=tuple(points), scores=tuple(self.scores), summary=summary)
        self.history.append(result)
        return result

    def _match_winner(self, made: bool | None) -> int | None:
        """The side that has won the match after this hand, if any (RULES.md 1.4)."""
        rules = self.rules
        side = None if self.contractor is None else self.team_of[self.contractor]
        scores = self.scores
        reached = [t for t in (0, 1) if (scores[t] > rules.target if rules.target_strict
                                         else scores[t] >= rules.target)]
        if rules.win_needs_bid:
            reached = [t for t in reached if t == side and made]
        if len(reached) == 1:
            return reached[0]
        if len(reached) == 2:
            return self._higher_side(side, prefer_contractor=rules.both_reach_target
                                     == "contractor")
        if rules.lose_at is not None:
            losers = [t for t in (0, 1) if scores[t] <= rules.lose_at]
            if len(losers) == 1:
                return 1 - losers[0]
            if len(losers) == 2:
                return self._higher_side(side, prefer_contractor=False)
        return None

    def _higher_side(self, contractor_side: int | None, prefer_contractor: bool) -> int | None:
        if prefer_contractor and contractor_side is not None:
            return contractor_side
        if self.scores[0] != self.scores[1]:
            return 0 if self.scores[0] > self.scores[1] else 1
        return contractor_side

    # -- what a seat sees ------------------------------------------------------------------------

    def visible_hand(self, viewer: int | None, seat: int) -> list[Card] | None:
        """The cards of ``seat`` that ``viewer`` may see: own hand, or a Spread hand once open."""
        if viewer == seat or self.open_hand == seat:
            return self.sort_hand(self.hands[seat])
        return None

    def sort_hand(self, mask: int) -> list[Card]:
        """Cards for display: grouped by effective suit (trumps first), highest first."""
        strain = self.strain if self._phase != BIDDING else strain_for(None)
        trump = strain.trump
        keys = strain.keys

        def order(card: Card) -> tuple[int, int]:
            suit = strain.suit_of[card.index]
            group = 5 if suit == trump else (4 if suit == JOKER_SUIT else suit)
            return (-group, -keys[suit if suit != JOKER_SUIT else 0][card.index])

        return sorted(cards_of(mask), key=order)

    def view(self, seat: int | None) -> dict[str, Any]:
        """Everything ``seat`` may see (``None``: a spectator), JSON-ready, with legal actions.

        Hidden: the other hands (but an open Spread hand), the kitty (but to the seat taking
        it), others' discards, the seed and the deal of later hands.
        """
        seat = None if seat is None else _check_seat(seat)
        hands = [self.visible_hand(seat, s) for s in range(PLAYERS)]
        contract = self.contract
        view: dict[str, Any] = {
            "game": GAME_NAME,
            "rules": self.rules.to_dict(),
            "preset": self.rules.preset_name,
            "seat": seat,
            "teams": [list(team) for team in self.teams],
            "phase": self._phase,
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "to_act": self._to_act,
            "hand": [str(c) for c in hands[seat]] if seat is not None else None,  # type: ignore[union-attr]
            "hand_sizes": [self.hands[s].bit_count() for s in range(PLAYERS)],
            "open_hands": {str(s): [str(c) for c in hands[s]]  # type: ignore[union-attr]
                           for s in range(PLAYERS) if s != seat and hands[s] is not None},
            "bidding": [{"seat": s, "bid": b.text if b is not None else "pass"}
                        for s, b in self.bids],
            "high_bid": (None if self.high_bid is None else
                         {"seat": self.high_bidder, "bid": self.high_bid.text}),
            "ladder": self.rules.ladder_view,
            "passed": [s for s in range(PLAYERS) if self.passed >> s & 1],
            "contract": None if contract is None and self._phase == BIDDING else {
                "bid": contract.text if contract else None,
                "name": contract.name if contract else "no trumps (nobody bid)",
                "contractor": self.contractor,
                "trump": (self.strain.trump.letter if self.strain.trump is not None
                          else None),
                "value": contract.value if contract else None,
                "playing": list(self.active),
                "opponent": self.corner_opponent,
            },
            "kitty_size": self.kitty.bit_count(),
            "exchange": ([str(c) for c in cards_of(self.exchange)]
                         if seat is not None and seat == self._to_act and self.exchange
                         else None),
            "discards": ([str(c) for c in cards_of(self.discards[seat])]
                         if seat is not None and self.discards[seat] else []),
            "trick": [{"seat": s, "card": CARD_TEXT[i]}
                      for s, i in zip(self.trick_seats, self.trick, strict=True)],
            "led": (None if not self.trick else
                    (self.nominated.letter if self.nominated is not None
                     else "SCDHJ"[self.led])),
            "tricks": [{**t, "cards": list(t["cards"]), "seats": list(t["seats"])}
                       for t in self.completed],
            "handed_over": ([str(c) for c in cards_of(self.handed_over)]
                            if seat is not None and self.contractor is not None
                            and self.team_of[seat] == self.team_of[self.contractor]
                            else []),
            "tricks_won": list(self.tricks_won),
            "scores": list(self.scores),
            "history": [result.to_dict() for result in self.history],
            "winner": self.winner,
            "legal_actions": [],
            "discard_count": None,
        }
        if seat is not None and seat == self._to_act:
            if self._phase in (DISCARD_PHASE, PARTNER_DISCARD):
                view["discard_count"] = self.exchange_count
            else:
                view["legal_actions"] = [a.text for a in self.legal_actions()]
        return view

    def __repr__(self) -> str:
        return (f"<500 Game hand {self.hand_number} phase={self._phase} to_act={self._to_act} "
                f"scores={self.scores}>")


def _check_seat(seat: int) -> int:
    if not isinstance(seat, int) or not 0 <= seat < PLAYERS:
        raise ValueError(f"seat must be 0 to {PLAYERS - 1}, not {seat!r}")
    return seat
