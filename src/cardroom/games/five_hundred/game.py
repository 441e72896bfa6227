"""A match of 500 as a pure state machine: deal after deal until a side wins.

Use it like a chess board::

    game = Game.new(Rules.preset("online"), seed=7)
    game.to_act, game.phase            # (1, 'bidding')
    game.legal_actions()               # [Action('pass'), Action('bid 6S'), ...]
    game.apply("bid 7H")               # -> public events, or IllegalAction with the reason
    game.view(seat)                    # everything that seat may see, JSON-ready

Three to six players: four in two partnerships, six in two teams of three or three teams of
two, three and five each for themselves (cut-throat; five call partners for each hand by
naming a card). Scores are kept per *side*: ``game.teams`` lists the seats of each side (one
seat per side when players keep own scores) and ``game.team_of`` gives each seat's side.

Hands, the kitty and discards are bit masks of card indexes (see :mod:`cardroom.games.cards`);
the trick tables come from :mod:`.tricks`. Randomness is only the seeded shuffle of each deal.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cardroom.games.base import IllegalAction
from cardroom.games.cards import (
    CARDS,
    JOKER_INDEX,
    JOKERS_MASK,
    Card,
    Rank,
    Suit,
    cards_of,
    iter_indexes,
    mask_of,
)
from cardroom.games.five_hundred.actions import (
    BID,
    BID_ACTIONS,
    BLACK_JOKER_LEADS,
    CALL,
    CALL_ACTIONS,
    DISCARD,
    GIVE,
    GIVE_ACTIONS,
    JOKER,
    JOKER_LEADS,
    JOKER_SUIT_ACTIONS,
    MISDEAL,
    MISDEAL_ACTION,
    PASS,
    PASS_ACTION,
    PLAY,
    PLAY_ACTIONS,
    SLAM,
    SLAM_ACTION,
    Action,
    DiscardChoices,
)
from cardroom.games.five_hundred.bids import TRICK_BIDS, Bid, Contract
from cardroom.games.five_hundred.rules import Rules
from cardroom.games.five_hundred.tricks import JOKER_SUIT, Strain, strain_for
from cardroom.games.match import OVER, Match, check_seat, check_whole_pack, hand_masks

GAME_NAME = "500"
PLAYERS = 4
"""Players of the classic game (and of every four-player preset)."""
TRICKS_PER_HAND = 10
JOKER_BIT = 1 << JOKER_INDEX
JOKERS = JOKERS_MASK
CARD_TEXT = tuple(card.text for card in CARDS)
FACE_MASK = JOKERS | mask_of(Card.of(rank, suit) for suit in Suit
                             for rank in (Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE))
"""Face cards for the misdeal rule: jacks, queens, kings, aces and the jokers."""

BIDDING = "bidding"
GIVE_PHASE = "give"
DISCARD_PHASE = "discard"
PARTNER_DISCARD = "partner_discard"
CALL_PHASE = "call"
JOKER_PHASE = "joker"
PLAYING = "play"

SUIT_WORDS = {0: "spades", 1: "clubs", 2: "diamonds", 3: "hearts"}

SOLO_CONTRACTS = frozenset({Contract.MISERE, Contract.OPEN_MISERE, Contract.NELLO,
                            Contract.BLIND_MISERE, Contract.HI_LO})
"""Contracts the bidder plays alone while its partners fold."""
PAIR_NULLOS = frozenset({Contract.ACROSS_THE_TABLE, Contract.DOUBLE_NULLO,
                         Contract.SHIELDS_DOUBLE, Contract.PATASTROPHE})
"""No-tricks contracts both partners play; the bidder's kitty discards go to partner."""


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

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"number": self.number, "dealer": self.dealer, "contract": self.contract,
                "contractor": self.contractor, "made": self.made, "tricks": list(self.tricks),
                "points": list(self.points), "scores": list(self.scores),
                "summary": self.summary, "contract_side": list(self.contract_side)}


KITTY_BUNDLES = {2: (1, 1, 0), 3: (1, 1, 1), 5: (3, 2, 0), 6: (2, 2, 2)}
"""Kitty cards dealt after each round of bundles (3, 4, 3 to each player), by kitty size."""


def deal_cards(rules: Rules, rng: random.Random, dealer: int) -> tuple[list[int], int]:
    """Shuffle the deck and deal it in bundles of 3-4-3 from the dealer's left, kitty between.

    Returns the hands as masks (by seat) and the kitty mask. Any fixed pattern would do; this
    one is the traditional deal, and replays rely on it staying the same.
    """
    deck = list(iter_indexes(rules.deck_spec.mask))
    rng.shuffle(deck)
    players = rules.players
    kitty_bundles = KITTY_BUNDLES[rules.kitty_size]
    hands = [0] * players
    kitty = 0
    position = 0
    for bundle, to_kitty in zip((3, 4, 3), kitty_bundles, strict=True):
        for offset in range(1, players + 1):
            seat = (dealer + offset) % players
            for index in deck[position:position + bundle]:
                hands[seat] |= 1 << index
            position += bundle
        for index in deck[position:position + to_kitty]:
            kitty |= 1 << index
        position += to_kitty
    return hands, kitty


class Game(Match):
    """A match of 500 for three to six players (four in two partnerships by default).

    Create one with :meth:`new` (seeded deal) or :meth:`from_deal` (a given first deal), or
    rebuild one with :meth:`replay`. The match goes on deal after deal by itself: after the last
    trick the hand is scored, the deal passes clockwise and the next hand is dealt.
    """

    players = PLAYERS
    GAME_NAME = GAME_NAME
    RULES = Rules
    ACTION = Action
    SPARE_KEY = "kitty"
    COPIED = ("scores", "history", "actions", "action_seats", "notes", "hands", "discards",
              "bids", "tricks_won", "trick", "trick_seats", "completed", "called", "revealed")

    def __init__(self, rules: Rules, seed: int, dealer: int,
                 first_deal: tuple[list[int], int] | None = None) -> None:
        super().__init__(rules, seed, dealer, first_deal)
        self.history: list[HandResult] = []
        self.actions: list[Action] = []
        self.teams = rules.teams
        self.team_of = rules.side_of
        self.scores = [0] * len(self.teams)
        self.redeals = 0
        self.barred: int | None = None  # ralphing: the seat that may not bid this hand
        self._ladder_actions = tuple(BID_ACTIONS[bid] for bid in rules.bid_ladder)
        self.next_in_play: tuple[int, ...] = ()
        self._deal()

    # -- construction ----------------------------------------------------------------------------

    @classmethod
    def new(cls, rules: Rules | str, seed: int, dealer: int | None = None) -> Game:
        """A new match with deals drawn from ``seed``; a random first dealer unless given."""
        rules = Rules.preset(rules) if isinstance(rules, str) else rules
        if dealer is None:
            dealer = random.Random(f"cardroom-500:{seed}:first-dealer").randrange(rules.players)
        return cls(rules, seed, check_seat(dealer, rules.players))

    @classmethod
    def from_deal(cls, rules: Rules | str, dealer: int, hands: Sequence[Sequence[Card | str]],
                  kitty: Sequence[Card | str], seed: int = 0) -> Game:
        """A match whose first deal is given (later deals come from ``seed``).

        ``ValueError`` unless the hands and kitty hold each card of the deck exactly once.
        """
        rules = Rules.preset(rules) if isinstance(rules, str) else rules
        masks, seen = hand_masks(hands, [TRICKS_PER_HAND] * rules.players)
        kitty_mask = mask_of(kitty)
        if len(kitty) != rules.kitty_size or kitty_mask.bit_count() != rules.kitty_size:
            raise ValueError(f"the kitty must hold {rules.kitty_size} different cards")
        if kitty_mask & seen:
            raise ValueError(f"a card is dealt twice: {cards_of(kitty_mask & seen)[0]}")
        check_whole_pack(seen | kitty_mask, rules.deck_spec.mask, f"the {rules.deck} deck")
        return cls(rules, seed, check_seat(dealer, rules.players), (masks, kitty_mask))

    # -- public state ----------------------------------------------------------------------------

    @property
    def open_hand(self) -> int | None:
        """The first seat whose hand is shown to all (open misère), or ``None``."""
        return self.open_seats[0] if self.open_seats else None

    def teammates(self, seat: int) -> tuple[int, ...]:
        """The other seats of ``seat``'s side (none when players keep own scores)."""
        return tuple(s for s in self.teams[self.team_of[seat]] if s != seat)

    def partner_of(self, seat: int) -> int:
        """The partner of ``seat`` where each player has exactly one (four players, or six in
        three teams of two); ``ValueError`` otherwise."""
        mates = self.teammates(seat)
        if len(mates) != 1:
            raise ValueError(f"seat {seat} has {len(mates)} partners at this table")
        return mates[0]

    # -- dealing ---------------------------------------------------------------------------------

    def _deal(self) -> None:
        n = self.players
        self.kitty = self._next_hands(lambda rng: deal_cards(self.rules, rng, self.dealer))
        self.notes[len(self.actions)] = f"hand {self.hand_number}, dealer {self.dealer}"
        self.discards = [0] * n
        self.exchange = 0  # cards the seat exchanging may see besides its hand
        self.exchange_count = 0
        self.slam_kitty = 0  # after a slam call: the kitty, kept from partner's view
        self.given = 0
        self.handed_over = 0  # pair nullos: the contractor's discards, passed to partner
        self.bids: list[tuple[int, Bid | None]] = []
        self.spoken = 0  # mask of the seats that have called this hand
        self.high_bid: Bid | None = None
        self.high_bidder: int | None = None
        self.high_rank = -1
        self.passed = 0
        self.contract: Bid | None = None
        self.contractor: int | None = None
        self.contract_side: tuple[int, ...] = ()
        self.called: list[int] = []  # five players: the cards the contractor named
        self.partners: tuple[int, ...] = ()  # five players: their holders (secret at first)
        self.revealed: list[int] = []  # five players: partners whose card has been played
        self.slam = False
        self.corner_opponent: int | None = None
        self.active: tuple[int, ...] = tuple(range(n))
        self.strain: Strain = strain_for(None)
        self.joker_suit: Suit | None = None
        self.joker_forced = False
        self.joker_any_time = False
        self.open_seats: tuple[int, ...] = ()
        self.tricks_won = [0] * n
        self.trick: list[int] = []
        self.trick_seats: list[int] = []
        self.led = 0
        self.suits_led = 0
        self.nominated: Suit | None = None
        self.completed: list[dict[str, Any]] = []
        self._phase = BIDDING
        self._to_act: int | None = (self.dealer + 1) % n

    # -- legal actions ---------------------------------------------------------------------------

    def legal_actions(self) -> Sequence[Action]:
        """Every action the seat to act may take (a lazy sequence for kitty discards)."""
        phase = self._phase
        if phase == PLAYING:
            return self._legal_plays()
        if phase == BIDDING:
            return self._legal_bids()
        seat: int = self._to_act  # type: ignore[assignment]
        if phase in (DISCARD_PHASE, PARTNER_DISCARD):
            extra = (SLAM_ACTION,) if self._may_call_slam() else ()
            return DiscardChoices(self.hands[seat], self.exchange_count, extra)
        if phase == GIVE_PHASE:
            return [GIVE_ACTIONS[i] for i in iter_indexes(self.hands[seat])]
        if phase == CALL_PHASE:
            return [CALL_ACTIONS[i] for i in iter_indexes(self._callable())]
        if phase == JOKER_PHASE:
            return [PASS_ACTION, *JOKER_SUIT_ACTIONS.values()]
        return []

    def _legal_plays(self) -> list[Action]:
        seat = self._to_act
        playable = self._playable(seat)  # type: ignore[arg-type]
        actions = []
        while playable:
            low = playable & -playable
            index = low.bit_length() - 1
            playable ^= low
            if not self.trick and self.strain.suit_of[index] == JOKER_SUIT:
                leads = JOKER_LEADS if index == JOKER_INDEX else BLACK_JOKER_LEADS
                allowed = self._joker_lead_suits(self.hands[seat])  # type: ignore[index]
                actions.extend(leads[suit] for suit in allowed)
            else:
                actions.append(PLAY_ACTIONS[index])
        return actions

    def _joker_lead_suits(self, hand: int) -> tuple[Suit, ...]:
        """The suits a joker led now may name (pagat's limits, when the rules have them)."""
        if not self.rules.joker_lead_limits or len(self.completed) == TRICKS_PER_HAND - 1:
            return tuple(Suit)
        fresh = tuple(suit for suit in Suit if not self.suits_led >> suit & 1)
        return fresh or (tuple(Suit) if not hand & ~JOKERS else ())

    def _playable(self, seat: int) -> int:
        """Mask of the cards ``seat`` may play to the current trick."""
        hand = self.hands[seat]
        if not self.trick:
            if hand & JOKERS and hand & ~JOKERS:
                if self.joker_forced:
                    return hand & ~JOKERS
                if (self.rules.joker_lead_limits and self.strain.suit_of[JOKER_INDEX] == JOKER_SUIT
                        and not self._joker_lead_suits(hand)):
                    return hand & ~JOKERS
            return hand
        follow = hand & self.strain.follow_mask[self.led]
        if follow:
            if self.joker_any_time and hand & JOKERS:
                follow |= hand & JOKERS
            return follow
        if self.joker_forced and hand & JOKERS:
            return hand & JOKERS
        return hand

    def _legal_bids(self) -> list[Action]:
        seat: int = self._to_act  # type: ignore[assignment]
        actions = [] if self._must_bid() else [PASS_ACTION]
        if self.barred != seat:
            start = self.high_rank + 1
            ladder = self._ladder_actions
            refused = {rank for rank in self.rules.gated_bids
                       if rank >= start and self._bid_refusal(seat, ladder[rank].bid)}  # type: ignore[arg-type]
            if refused:
                actions.extend(a for rank, a in enumerate(ladder[start:], start)
                               if rank not in refused)
            else:
                actions.extend(ladder[start:])
        if self._may_misdeal(seat):
            actions.append(MISDEAL_ACTION)
        return actions

    def _must_bid(self) -> bool:
        return (self.rules.all_pass == "dealer_must_bid" and self.high_bid is None
                and self.passed.bit_count() == self.players - 1 and self.barred != self._to_act)

    def _may_misdeal(self, seat: int) -> bool:
        """A seat holding no face card may call a misdeal on its first turn to speak."""
        return (self.rules.misdeal_no_face and not self.spoken >> seat & 1
                and not self.hands[seat] & FACE_MASK)

    def _may_call_slam(self) -> bool:
        """A seven-bid contractor holding the kitty may call slam instead of discarding."""
        contract = self.contract
        return (self.rules.slam_call and self._phase == DISCARD_PHASE and not self.slam
                and contract is not None and contract.is_trick_bid and contract.tricks == 7)

    def _callable(self) -> int:
        """Five players: the cards the contractor may name (any it does not hold)."""
        called = 0
        for index in self.called:
            called |= 1 << index
        return self.rules.deck_spec.mask & ~self.hands[self.contractor] & ~called  # type: ignore[index]

    def _bid_refusal(self, seat: int, bid: Bid) -> str | None:
        """Why ``seat`` may not make ``bid`` now, or ``None`` if it may."""
        rules = self.rules
        rank = rules.bid_rank.get(bid)
        if rank is None:
            return f"{bid.name} is not a bid under these rules."
        if self.barred == seat:
            return "You were set by three tricks or more last hand: you may not bid this hand."
        if rank <= self.high_rank:
            return f"A bid must beat {self.high_bid.name}, and {bid.name} does not."  # type: ignore[union-attr]
        contract = bid.contract
        if contract is Contract.TRICKS or contract is Contract.J5:
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
        elif contract is Contract.BLIND_MISERE and self.spoken >> seat & 1:
            return "Blind misère may only be your first call of the hand, before you look."
        return None

    # -- applying actions ------------------------------------------------------------------------

    def apply(self, action: Action | str, seat: int | None = None) -> list[dict[str, Any]]:
        """Apply the action of the seat to act; return the public events it caused.

        ``seat``, when given, is who is trying to act: anyone else than the seat to act gets
        :class:`IllegalAction`. Any illegal action raises :class:`IllegalAction` with the reason
        and leaves the game exactly as it was.
        """
        actor, action = self._actor_and_action(action, seat)
        phase = self._phase
        if phase == PLAYING:
            self._check_play(actor, action)
        elif phase == BIDDING:
            self._check_bid(actor, action)
        elif phase == GIVE_PHASE:
            self._check_holding(actor, action, GIVE, 1, "give one card")
        elif phase == CALL_PHASE:
            self._check_call(action)
        elif phase == JOKER_PHASE:
            if action.kind not in (PASS, JOKER):
                raise IllegalAction("Name the joker's suit, e.g. 'joker H', or 'pass'.")
        elif action.kind == SLAM:
            if not self._may_call_slam():
                raise IllegalAction("Only a contractor of a seven bid may call slam, before "
                                    "discarding.")
        else:
            self._check_holding(actor, action, DISCARD, self.exchange_count,
                                f"discard {self.exchange_count} cards")
        self._accept(actor, action)
        if phase == PLAYING:
            return self._play(actor, action)
        if phase == BIDDING:
            if action.kind == MISDEAL:
                return self._misdeal(actor)
            return self._bid(actor, action)
        if phase == GIVE_PHASE:
            return self._give(actor, action)
        if phase == CALL_PHASE:
            return self._call(actor, action)
        if phase == JOKER_PHASE:
            return self._name_joker(actor, action)
        if action.kind == SLAM:
            return self._call_slam(actor)
        return self._discard(actor, action)

    # bidding

    def _check_bid(self, seat: int, action: Action) -> None:
        if action.kind == PASS:
            if self._must_bid():
                raise IllegalAction("Everybody else has passed: the dealer must bid.")
            return
        if action.kind == MISDEAL:
            if not self._may_misdeal(seat):
                raise IllegalAction("A misdeal may only be called by a player holding no face "
                                    "card, on its first turn to speak, where the rules allow.")
            return
        if action.kind != BID:
            raise IllegalAction("It is time to bid: pass, or bid e.g. 'bid 7H'.")
        reason = self._bid_refusal(seat, action.bid)  # type: ignore[arg-type]
        if reason:
            raise IllegalAction(reason)

    def _bid(self, seat: int, action: Action) -> list[dict[str, Any]]:
        bid = action.bid
        self.bids.append((seat, bid))
        self.spoken |= 1 << seat
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
        n = self.players
        if self.rules.bidding == "single":
            return (seat + 1) % n if len(self.bids) < n else None
        still_in = [s for s in range(n) if not self.passed >> s & 1]
        if self.high_bid is None:
            return self._next_of(seat, still_in) if still_in else None
        others = [s for s in still_in if s != self.high_bidder]
        if others:
            return self._next_of(seat, still_in)
        if self.rules.rebid == "any_time" and self.high_bidder in still_in:
            return self.high_bidder
        return None

    def _next_of(self, seat: int, seats: Sequence[int]) -> int:
        """The first of ``seats`` clockwise after ``seat``."""
        n = self.players
        for offset in range(1, n + 1):
            candidate = (seat + offset) % n
            if candidate in seats:
                return candidate
        raise AssertionError("no seat to move to")

    def _misdeal(self, seat: int) -> list[dict[str, Any]]:
        self._record_hand(None, [0] * len(self.teams),
                          f"Misdeal: seat {seat} held no face card; the same dealer deals again.")
        self._deal()
        return [{"type": "misdeal", "seat": seat},
                {"type": "deal", "hand": self.hand_number, "dealer": self.dealer}]

    def _all_passed(self) -> list[dict[str, Any]]:
        rule = self.rules.all_pass
        if rule == "play_no_trump":
            events: list[dict[str, Any]] = [{"type": "all_passed", "outcome": "play_no_trump"}]
            return events + self._start_play()
        if rule == "dealer_must_bid":
            rule = "next_dealer"  # the dealer was barred from bidding (ralphing)
        self._record_hand(None, [0] * len(self.teams), "Everybody passed: " + {
            "redeal": "the same dealer deals again.",
            "redeal_then_pass_deal": "the cards are dealt again.",
            "next_dealer": "the deal passes to the left.",
        }[rule])
        if rule == "next_dealer" or (rule == "redeal_then_pass_deal" and self.redeals >= 2):
            self.redeals = 0
            self.dealer = (self.dealer + 1) % self.players
        else:
            self.redeals += 1
        self._deal()
        return [{"type": "all_passed", "outcome": rule},
                {"type": "deal", "hand": self.hand_number, "dealer": self.dealer}]

    def _start_contract(self, bid: Bid, contractor: int) -> list[dict[str, Any]]:
        """Set up the contract won in the bidding and move on to the kitty or the play."""
        rules = self.rules
        self.contract, self.contractor = bid, contractor
        self.redeals = 0
        mates = self.teammates(contractor)
        self.contract_side = tuple(sorted((contractor, *mates)))
        kind = bid.contract
        misere_type = bid.is_misere_type
        self.strain = strain_for(bid.trump, misere_type and rules.joker_low_in_misere,
                                 jack_high=kind is Contract.J5,
                                 colour_four=rules.deck_spec.colour_four)
        self.joker_forced = misere_type and rules.misere_joker_forced
        events: list[dict[str, Any]] = [
            {"type": "contract", "seat": contractor, "bid": bid.text, "value": bid.value}]
        if kind in SOLO_CONTRACTS:
            self.active = tuple(s for s in range(self.players) if s not in mates)
        elif kind is Contract.ACROSS_THE_CORNER:
            self.corner_opponent = next(s for s, b in reversed(self.bids) if b is not None
                                        and b.contract is Contract.MISERE
                                        and self.team_of[s] != self.team_of[contractor])
            self.active = tuple(sorted((contractor, self.corner_opponent)))
            return events + self._start_play()
        if kind is Contract.NELLO:
            self._phase, self._to_act = GIVE_PHASE, mates[0]
            return events
        if kind is Contract.OPEN_MISERE and rules.wilkinson_misere:
            return events + self._after_exchange()
        return events + self._take_kitty(rules.kitty_size)

    def _take_kitty(self, count: int) -> list[dict[str, Any]]:
        """The contractor picks up the kitty and must put ``count`` cards back."""
        contractor = self.contractor
        self.exchange = self.kitty
        self.hands[contractor] |= self.kitty  # type: ignore[index]
        self.kitty = 0
        self.exchange_count = count
        self._phase, self._to_act = DISCARD_PHASE, contractor
        return [{"type": "kitty_taken", "seat": contractor}]

    # kitty, slam, partner call, joker

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
        if self.slam:
            contractor: int = self.contractor  # type: ignore[assignment]
            self.hands[contractor] |= action.mask
            self.exchange = self.slam_kitty | action.mask
            self.slam_kitty = 0
            self.exchange_count = self.rules.kitty_size + 1
            self._phase, self._to_act = DISCARD_PHASE, contractor
            return [{"type": "give", "seat": seat, "to": contractor}]
        self.kitty |= action.mask
        return [{"type": "give", "seat": seat}, *self._take_kitty(self.rules.kitty_size + 1)]

    def _call_slam(self, seat: int) -> list[dict[str, Any]]:
        """Slam: partner passes a card to the contractor and folds."""
        partner = self.partner_of(seat)
        self.slam = True
        self.slam_kitty, self.exchange = self.exchange, 0
        self.active = tuple(s for s in range(self.players) if s != partner)
        self._phase, self._to_act = GIVE_PHASE, partner
        return [{"type": "slam", "seat": seat}]

    def _discard(self, seat: int, action: Action) -> list[dict[str, Any]]:
        self.hands[seat] &= ~action.mask
        events: list[dict[str, Any]] = [
            {"type": "discard", "seat": seat, "count": len(action.cards)}]
        if self._phase == DISCARD_PHASE and self.contract.contract in PAIR_NULLOS:  # type: ignore[union-attr]
            partner = self.partner_of(seat)
            self.hands[partner] |= action.mask
            self.exchange = self.handed_over = action.mask
            self._phase, self._to_act = PARTNER_DISCARD, partner
            return [*events, {"type": "discards_passed", "seat": seat, "to": partner}]
        self.discards[seat] |= action.mask
        self.exchange = 0
        return events + self._after_exchange()

    def _after_exchange(self) -> list[dict[str, Any]]:
        """After the kitty: five players call partners, then the joker may be named."""
        contract: Bid = self.contract  # type: ignore[assignment]
        if self.players == 5 and contract.is_trick_bid and not self.called:
            self._phase, self._to_act = CALL_PHASE, self.contractor
            return [{"type": "calling", "seat": self.contractor,
                     "count": 2 if contract.tricks >= 8 else 1}]
        if (self.rules.joker_suit_nomination and contract.is_trick_bid
                and contract.trump is None and self.joker_suit is None
                and self.rules.deck_spec.jokers):
            self._phase, self._to_act = JOKER_PHASE, self.contractor
            return []
        return self._start_play()

    def _check_call(self, action: Action) -> None:
        if action.kind != CALL:
            raise IllegalAction("Name a card to call your partner, e.g. 'call AS'.")
        card = action.cards[0]
        if not self.rules.deck_spec.mask & card.mask:
            raise IllegalAction(f"{card} is not in the {self.rules.deck} deck.")
        if card.index in self.called:
            raise IllegalAction(f"You have already called {card}.")
        if self.hands[self.contractor] & card.mask:  # type: ignore[index]
            raise IllegalAction(f"You hold {card} yourself: name a card you do not hold.")

    def _call(self, seat: int, action: Action) -> list[dict[str, Any]]:
        card = action.cards[0]
        self.called.append(card.index)
        events: list[dict[str, Any]] = [{"type": "call", "seat": seat, "card": card.text}]
        if self.contract.tricks >= 8 and len(self.called) < 2:  # type: ignore[union-attr]
            return events
        holders = {s for s in range(self.players) for i in self.called
                   if self.hands[s] >> i & 1}
        self.partners = tuple(sorted(holders))
        self.contract_side = tuple(sorted((seat, *self.partners)))
        return events + self._after_exchange()

    def _name_joker(self, seat: int, action: Action) -> list[dict[str, Any]]:
        if action.kind == PASS:
            return [{"type": "joker_suit", "seat": seat, "suit": None}, *self._start_play()]
        contract: Bid = self.contract  # type: ignore[assignment]
        self.joker_suit = action.nominated
        self.strain = strain_for(None, jack_high=contract.contract is Contract.J5,
                                 joker_suit=action.nominated)
        return [{"type": "joker_suit", "seat": seat, "suit": action.nominated.letter},  # type: ignore[union-attr]
                *self._start_play()]

    # play

    def _start_play(self) -> list[dict[str, Any]]:
        self._phase = PLAYING
        self.next_in_play = tuple(self._next_of(seat, self.active)
                                  for seat in range(self.players))
        contract = self.contract
        no_trumps = contract is None or (contract.is_trick_bid and contract.trump is None)
        self.joker_any_time = (no_trumps and self.joker_suit is None
                               and self.rules.nt_joker == "play_any_time")
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
        names_suit = not self.trick and self.strain.suit_of[card.index] == JOKER_SUIT
        if names_suit and action.nominated is None:
            raise IllegalAction("Leading the joker in no trumps, you must name the suit the "
                                "others must follow, e.g. 'play JK:H'.")
        if not names_suit and action.nominated is not None:
            raise IllegalAction("Only the joker led in no trumps names a suit.")
        if names_suit and action.nominated not in self._joker_lead_suits(self.hands[seat]):
            raise IllegalAction("A led joker may not name a suit already led this hand.")

    def _play_refusal(self, seat: int, card: Card) -> str:
        """A human explanation of why ``card`` may not be played now."""
        hand = self.hands[seat]
        joker = card.is_joker
        if not self.trick:
            if self.joker_forced:
                return "The joker may not be led in a no-tricks hand except to the last trick."
            return ("All four suits have been led: the joker may not be led now, except to "
                    "the last trick.")
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
        events = [event]
        if len(trick) == 1:
            self.led = self.strain.led_suit(index, action.nominated)
            if self.led < 4:
                self.suits_led |= 1 << self.led
            self.nominated = action.nominated
            if action.nominated is not None:
                event["nominated"] = action.nominated.letter
        if self.called and index in self.called and seat not in self.revealed:
            self.revealed.append(seat)
            events.append({"type": "partner", "seat": seat, "card": CARD_TEXT[index]})
        if len(trick) < len(self.active):
            self._to_act = self.next_in_play[seat]
            return events
        return events + self._finish_trick()

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
        if len(self.completed) == 1 and self.contract is not None:
            self.open_seats = self._opened_after_first_trick()
            events.extend({"type": "hand_shown", "seat": s} for s in self.open_seats)
        if len(self.completed) == TRICKS_PER_HAND or self._makers_failed_and_stop(winner):
            return events + self._end_hand()
        self._to_act = winner
        return events

    def _opened_after_first_trick(self) -> tuple[int, ...]:
        """Seats whose hands the contract shows to all once the first trick is over."""
        kind = self.contract.contract  # type: ignore[union-attr]
        contractor: int = self.contractor  # type: ignore[assignment]
        if kind is Contract.OPEN_MISERE or (kind is Contract.MISERE
                                            and self.rules.wilkinson_misere):
            return (contractor,)
        if kind is Contract.SHIELDS_DOUBLE:
            return (self.partner_of(contractor),)
        if kind is Contract.PATASTROPHE:
            return (contractor, self.partner_of(contractor))
        return ()

    def makers(self) -> tuple[int, ...]:
        """Seats that must take no tricks in a no-tricks contract (empty otherwise)."""
        contract = self.contract
        if contract is None or not contract.is_misere_type:
            return ()
        if contract.contract in PAIR_NULLOS:
            return (self.contractor, self.partner_of(self.contractor))  # type: ignore[arg-type, return-value]
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
        barred = self.contractor if self._ralphed(made) else None
        if barred is not None:
            events.append({"type": "ralphed", "seat": barred})
        winner = self._match_winner(made)
        if winner is not None:
            self.winner = winner
            self._phase, self._to_act = OVER, None
            return [*events, {"type": "match_over", "winner": winner, "scores": list(self.scores)}]
        self.barred = barred
        self.dealer = (self.dealer + 1) % self.players
        self._deal()
        return [*events, {"type": "deal", "hand": self.hand_number, "dealer": self.dealer}]

    def _side_tricks(self, seats: Sequence[int]) -> int:
        return sum(self.tricks_won[s] for s in seats)

    def _defence(self, side: int, points: int) -> int:
        """Defence points of a side after the ``defender_points`` option (and its caps)."""
        rule = self.rules.defender_points
        if rule == "always":
            return points
        if rule == "none":
            return 0
        cap = 490 if rule == "not_over_490" else 400
        return max(0, min(points, cap - self.scores[side]))

    def _hand_points(self) -> tuple[list[int], bool | None, str]:
        """Points per side for the hand just played, whether the contract was made, a summary."""
        n_sides = len(self.teams)
        team_tricks = [self._side_tricks(team) for team in self.teams]
        points = [0] * n_sides
        contract = self.contract
        if contract is None:
            return ([10 * t for t in team_tricks], None,
                    "Nobody bid: played in no trumps at 10 points a trick.")
        contractor: int = self.contractor  # type: ignore[assignment]
        side = self.team_of[contractor]
        makers_sides = sorted({self.team_of[s] for s in self.contract_side})
        defenders = [t for t in range(n_sides) if t not in makers_sides]
        kind = contract.contract
        if kind is Contract.ACROSS_THE_CORNER:
            mine = self.tricks_won[contractor]
            theirs = self.tricks_won[self.corner_opponent]  # type: ignore[index]
            if mine == theirs:
                return points, None, f"Across The Corner: {mine} tricks each, nobody scores."
            fewer = side if mine < theirs else self.team_of[self.corner_opponent]  # type: ignore[index]
            points[fewer] = contract.value
            return points, mine < theirs, (f"Across The Corner: {min(mine, theirs)} tricks to "
                                           f"{max(mine, theirs)}; {contract.value} to side "
                                           f"{fewer}.")
        if contract.is_misere_type:
            taken = self._side_tricks(self.makers())
            made = taken == 0
            for t in makers_sides:
                points[t] = contract.value if made else -contract.value
            for t in defenders:
                points[t] = self._defence(t, 10 * taken)
            verdict = "made" if made else f"failed ({taken} trick{'s' * (taken != 1)} taken)"
            return points, made, f"{contract.name} {verdict}."
        if kind is Contract.HI_LO:
            taken = self.tricks_won[contractor]
            made = taken == 5
            for t in makers_sides:
                points[t] = contract.value if made else -contract.value
            for t in defenders:
                points[t] = self._defence(t, 10 * team_tricks[t])
            verdict = "made" if made else "failed"
            return points, made, f"{contract.name}: {taken} tricks, {verdict}."
        taken = self._side_tricks(self.contract_side)
        if self.slam:
            made = taken == TRICKS_PER_HAND
            eight = 120 + 200 if contract.trump is None else TRICK_BIDS[(8, contract.trump)].value
            value = eight if made else contract.value + 100
        else:
            made = taken >= contract.tricks
            value = contract.value
            if made and taken == TRICKS_PER_HAND:
                bonus = self.rules.all_tricks_bonus
                if bonus == "slam_250":
                    value = max(value, 250)
                elif bonus == "sweep_plus_50" and contract.tricks < TRICKS_PER_HAND:
                    value += 50
        for t in makers_sides:
            points[t] = value if made else -value
        for t in defenders:
            points[t] = self._defence(t, 10 * team_tricks[t])
        verdict = "made it through" if made else "went back"
        name = f"{contract.name}, slam called" if self.slam else contract.name
        return points, made, f"{name}: {taken} tricks, {verdict}."

    def _ralphed(self, made: bool | None) -> bool:
        """Ralphing: did the contractor fall three or more tricks short?"""
        contract = self.contract
        if not self.rules.ralphing or contract is None or made is not False:
            return False
        if contract.contract is Contract.ACROSS_THE_CORNER:
            return False
        if contract.is_misere_type:
            return self._side_tricks(self.makers()) >= 3
        if contract.contract is Contract.HI_LO:
            return abs(self.tricks_won[self.contractor] - 5) >= 3  # type: ignore[index]
        needed = TRICKS_PER_HAND if self.slam else contract.tricks
        return needed - self._side_tricks(self.contract_side) >= 3

    def _record_hand(self, made: bool | None, points: list[int], summary: str) -> HandResult:
        for side, gained in enumerate(points):
            self.scores[side] += gained
        contract = self.contract
        result = HandResult(
            number=self.hand_number, dealer=self.dealer,
            contract=contract.text if contract is not None else None,
            contractor=self.contractor, made=made, tricks=tuple(self.tricks_won),
            points=tuple(points), scores=tuple(self.scores), summary=summary,
            contract_side=self.contract_side)
        self.history.append(result)
        return result

    def _match_winner(self, made: bool | None) -> int | None:
        """The side that has won the match after this hand, if any (RULES.md 1.4)."""
        rules = self.rules
        side = None if self.contractor is None else self.team_of[self.contractor]
        contract_sides = {self.team_of[s] for s in self.contract_side}
        scores = self.scores
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
            return self._best(reached, side)
        if rules.lose_at is not None:
            losers = [t for t in sides if scores[t] <= rules.lose_at]
            if not losers:
                return None
            others = [t for t in sides if t not in losers]
            if not others and rules.both_at_lose_at == "contractor_loses":
                others = [t for t in sides if t not in contract_sides]
            return self._best(others or list(sides), side)
        return None

    def _best(self, candidates: Sequence[int], contractor_side: int | None) -> int:
        """The highest-scoring of ``candidates``; on a tie the contractor's side, else the
        first."""
        top = max(self.scores[t] for t in candidates)
        tied = [t for t in candidates if self.scores[t] == top]
        return contractor_side if contractor_side in tied else tied[0]  # type: ignore[return-value]

    # -- what a seat sees ------------------------------------------------------------------------

    def visible_hand(self, viewer: int | None, seat: int) -> list[Card] | None:
        """The cards of ``seat`` that ``viewer`` may see: own hand, or a hand played open."""
        if viewer == seat or seat in self.open_seats:
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

    def known_side(self, viewer: int | None) -> list[int]:
        """The seats ``viewer`` knows to be playing for the contract: the contractor's team;
        with five players the contractor, the partners revealed so far and the viewer itself
        if it holds a called card."""
        if self.contractor is None:
            return []
        if self.players != 5:
            return list(self.contract_side)
        known = {self.contractor, *self.revealed}
        if viewer is not None and viewer in self.partners:
            known.add(viewer)
        return sorted(known)

    def view(self, seat: int | None) -> dict[str, Any]:
        """Everything ``seat`` may see (``None``: a spectator), JSON-ready, with legal actions.

        Hidden: the other hands (but hands played open), the kitty (but to the seat taking
        it), others' discards, the holders of called cards until they play them, the seed and
        the deal of later hands.
        """
        n = self.players
        seat = None if seat is None else check_seat(seat, n)
        hands = [self.visible_hand(seat, s) for s in range(n)]
        contract = self.contract
        view: dict[str, Any] = {
            "game": GAME_NAME,
            "rules": self.rules.to_dict(),
            "preset": self.rules.preset_name,
            "seat": seat,
            "players": n,
            "teams": [list(team) for team in self.teams],
            "side_of": list(self.team_of),
            "phase": self._phase,
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "to_act": self._to_act,
            "hand": [str(c) for c in hands[seat]] if seat is not None else None,  # type: ignore[union-attr]
            "hand_sizes": [self.hands[s].bit_count() for s in range(n)],
            "open_hands": {str(s): [str(c) for c in hands[s]]  # type: ignore[union-attr]
                           for s in range(n) if s != seat and hands[s] is not None},
            "bidding": [{"seat": s, "bid": b.text if b is not None else "pass"}
                        for s, b in self.bids],
            "high_bid": (None if self.high_bid is None else
                         {"seat": self.high_bidder, "bid": self.high_bid.text}),
            "ladder": self.rules.ladder_view,
            "passed": [s for s in range(n) if self.passed >> s & 1],
            "barred": self.barred,
            "contract": None if contract is None and self._phase == BIDDING else {
                "bid": contract.text if contract else None,
                "name": contract.name if contract else "no trumps (nobody bid)",
                "contractor": self.contractor,
                "trump": (self.strain.trump.letter if self.strain.trump is not None
                          else None),
                "value": contract.value if contract else None,
                "playing": list(self.active),
                "opponent": self.corner_opponent,
                "slam": self.slam,
                "joker_suit": self.joker_suit.letter if self.joker_suit is not None else None,
            },
            "contract_side": self.known_side(seat),
            "called": [CARD_TEXT[i] for i in self.called],
            "partners": [s for s in self.known_side(seat) if s != self.contractor]
                        if n == 5 else [],
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
                if self._may_call_slam():
                    view["legal_actions"] = [SLAM_ACTION.text]
            else:
                view["legal_actions"] = [a.text for a in self.legal_actions()]
        return view

    def __repr__(self) -> str:
        return (f"<500 Game hand {self.hand_number} phase={self._phase} to_act={self._to_act} "
                f"scores={self.scores}>")

