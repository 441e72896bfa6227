"""What a match of 500 remembers: the match's scores and history, and the state of the hand in
progress, as plain attributes that the phase modules read and change.

:class:`State` is the data of :class:`~cardroom.games.five_hundred.game.Game` without its
rules of play: the phase modules (:mod:`.bidding`, :mod:`.exchange`, :mod:`.play`,
:mod:`.scoring`, :mod:`.view`) are functions of a ``State``, and ``Game`` puts them together.
Hands, the kitty, discards and tricks are bit masks and lists of card indexes (see
:mod:`cardroom.games.cards`); the trick tables come from :mod:`.tricks`.
"""

from __future__ import annotations

from functools import cache
from typing import Self

from cardroom.games.cards import Suit
from cardroom.games.five_hundred.actions import BID_ACTIONS, Action
from cardroom.games.five_hundred.bids import SPECIAL_BIDS, Bid, Contract
from cardroom.games.five_hundred.deal import deal_cards
from cardroom.games.five_hundred.rules import Rules
from cardroom.games.five_hundred.scoring import HandResult
from cardroom.games.five_hundred.shapes import TrickView
from cardroom.games.five_hundred.tricks import Strain, strain_for
from cardroom.games.match import Match
from cardroom.games.phases import next_seat

TRICKS_PER_HAND = 10

BIDDING = "bidding"
GIVE_PHASE = "give"
DISCARD_PHASE = "discard"
PARTNER_DISCARD = "partner_discard"
CALL_PHASE = "call"
JOKER_PHASE = "joker"
PLAYING = "play"
CLAIM_PHASE = "claim"
"""A claim not proven waits for the opponents' answers (:mod:`.claims`)."""

PAIR_NULLOS = frozenset({Contract.ACROSS_THE_TABLE, Contract.DOUBLE_NULLO,
                         Contract.SHIELDS_DOUBLE, Contract.PATASTROPHE})
"""No-tricks contracts both partners play; the bidder's kitty discards go to partner."""
PAIR_NULLO_BIDS = frozenset(SPECIAL_BIDS[contract] for contract in PAIR_NULLOS)
"""The bids of :data:`PAIR_NULLOS` (a bid is hashed quicker than its contract)."""
NO_TRUMPS = strain_for(None)


@cache
def ladder_actions(ladder: tuple[Bid, ...]) -> tuple[Action, ...]:
    """The action of each bid of a bid ladder, lowest first."""
    return tuple(BID_ACTIONS[bid] for bid in ladder)


@cache
def mates_of(teams: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
    """For each seat, the other seats of its side."""
    side_of = {seat: team for team in teams for seat in team}
    return tuple(tuple(s for s in side_of[seat] if s != seat) for seat in sorted(side_of))


class State(Match):
    """The attributes of a match of 500 and of the hand being played.

    Scores are kept per *side*: ``teams`` lists the seats of each side (one seat per side
    when players keep own scores) and ``team_of`` gives each seat's side.
    """

    COPIED = ("scores", "history", "actions", "action_seats", "notes", "hands", "discards",
              "bids", "tricks_won", "trick", "trick_seats", "completed", "called", "revealed")

    rules: Rules
    history: list[HandResult]
    """The results of the hands played, oldest first."""
    actions: list[Action]

    is_over: bool = False
    """True once the match has a winner: a plain attribute, set by :meth:`finish`, because
    every driver of a game reads it before every action."""

    # The hand in progress; :meth:`_deal` sets every one of these afresh.
    kitty: int
    dead: int
    """The cards of the dead hands (two players): out of play all hand, in no view."""
    discards: list[int]
    exchange: int
    """Cards the seat exchanging may see besides its hand (the kitty, discards passed over)."""
    exchange_count: int
    slam_kitty: int
    """After a slam call: the kitty, kept from partner's view."""
    given: int
    handed_over: int
    """Pair no-tricks contracts: the contractor's discards, passed to partner."""
    bids: list[tuple[int, Bid | None]]
    spoken: int
    """Mask of the seats that have called this hand."""
    high_bid: Bid | None
    high_bidder: int | None
    high_rank: int
    passed: int
    contract: Bid | None
    contractor: int | None
    contract_side: tuple[int, ...]
    called: list[int]
    """Five players: the cards the contractor named."""
    partners: tuple[int, ...]
    """Five players: the holders of the called cards (secret until they play them)."""
    revealed: list[int]
    """Five players: the partners whose called card has been played."""
    slam: bool
    corner_opponent: int | None
    active: tuple[int, ...]
    strain: Strain
    joker_suit: Suit | None
    joker_forced: bool
    joker_any_time: bool
    open_seats: tuple[int, ...]
    tricks_won: list[int]
    trick: list[int]
    trick_seats: list[int]
    led: int
    suits_led: int
    nominated: Suit | None
    completed: list[TrickView]
    next_in_play: tuple[int, ...]
    claimant: int | None
    """The seat whose claim waits for answers (:mod:`.claims`)."""
    claimed: int
    """The tricks of those left that the waiting claim gives the claimant's side."""
    claim_waiting: tuple[int, ...]
    """The opponents yet to answer the waiting claim, in the order they answer."""
    claim_accepted: tuple[int, ...]
    """The opponents who accepted the waiting claim."""
    claim_barred: int
    """Mask of the seats whose claim was refused: they may claim again once the trick in
    progress is over."""

    def __init__(self, rules: Rules, seed: int, dealer: int,
                 first_deal: tuple[list[int], int] | None = None) -> None:
        super().__init__(rules, seed, dealer, first_deal)
        self.teams = rules.teams
        self.team_of = rules.side_of
        self.scores = [0] * len(self.teams)
        self.redeals = 0
        self.barred: int | None = None  # ralphing: the seat that may not bid this hand
        self.ladder_actions = ladder_actions(rules.bid_ladder)
        self.mates = mates_of(self.teams)
        self.next_in_play = ()
        self._deal()

    def _deal(self) -> None:
        """Deal the next hand (the given first deal, else from the seed) and start its bidding."""
        n = self.players
        self.kitty = self._next_hands(lambda rng: deal_cards(self.rules, rng, self.dealer))
        self.dead = 0
        if len(self.hands) > n:  # the dead hands come after the players' (two players)
            for mask in self.hands[n:]:
                self.dead |= mask
            del self.hands[n:]
        self.notes[len(self.actions)] = f"hand {self.hand_number}, dealer {self.dealer}"
        self.discards = [0] * n
        self.exchange = 0
        self.exchange_count = 0
        self.slam_kitty = 0
        self.given = 0
        self.handed_over = 0
        self.bids = []
        self.spoken = 0
        self.high_bid = None
        self.high_bidder = None
        self.high_rank = -1
        self.passed = 0
        self.contract = None
        self.contractor = None
        self.contract_side = ()
        self.called = []
        self.partners = ()
        self.revealed = []
        self.slam = False
        self.corner_opponent = None
        self.active = tuple(range(n))
        self.strain = NO_TRUMPS
        self.joker_suit = None
        self.joker_forced = False
        self.joker_any_time = False
        self.open_seats = ()
        self.tricks_won = [0] * n
        self.trick = []
        self.trick_seats = []
        self.led = 0
        self.suits_led = 0
        self.nominated = None
        self.completed = []
        self.claimant = None
        self.claimed = 0
        self.claim_waiting = ()
        self.claim_accepted = ()
        self.claim_barred = 0
        self._phase = BIDDING
        self._to_act = (self.dealer + 1) % n

    def copy(self) -> Self:
        """An independent copy (for search, and for undoing a change that fails to commit):
        mutating it leaves this game alone. The attributes are copied in one go; the lists
        and dicts of :attr:`COPIED` get copies of their own."""
        twin = object.__new__(type(self))
        attributes = self.__dict__.copy()
        for name in self.COPIED:
            attributes[name] = attributes[name].copy()
        twin.__dict__ = attributes
        return twin

    # -- seats and sides -------------------------------------------------------------------------

    def teammates(self, seat: int) -> tuple[int, ...]:
        """The other seats of ``seat``'s side (none when players keep own scores)."""
        return self.mates[seat]

    def partner_of(self, seat: int) -> int:
        """The partner of ``seat`` where each player has exactly one (four players, or six in
        three teams of two); ``ValueError`` otherwise."""
        mates = self.mates[seat]
        if len(mates) != 1:
            raise ValueError(f"seat {seat} has {len(mates)} partners at this table")
        return mates[0]

    def next_of(self, seat: int, seats: tuple[int, ...] | list[int]) -> int:
        """The first of ``seats`` clockwise after ``seat``."""
        return next_seat(seat, seats, self.players)

    def makers(self) -> tuple[int, ...]:
        """Seats that must take no tricks in a no-tricks contract (empty otherwise)."""
        contract = self.contract
        if contract is None or not contract.is_misere_type:
            return ()
        contractor: int = self.contractor  # type: ignore[assignment]
        if contract in PAIR_NULLO_BIDS:
            return (contractor, self.partner_of(contractor))
        if contract.contract is Contract.ACROSS_THE_CORNER:
            return ()
        return (contractor,)

    def side_tricks(self, seats: tuple[int, ...] | list[int]) -> int:
        """Tricks taken this hand by ``seats`` together."""
        return sum(map(self.tricks_won.__getitem__, seats))

    @property
    def open_hand(self) -> int | None:
        """The first seat whose hand is shown to all (open misère), or ``None``."""
        return self.open_seats[0] if self.open_seats else None

    def finish(self, winner: int) -> None:
        """The match is over: side ``winner`` has won it (and :attr:`is_over` says so)."""
        super().finish(winner)
        self.is_over = True
