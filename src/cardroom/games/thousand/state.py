"""What a match of 1000 remembers: the match's scores, barrels, bolts and history, and the state
of the deal in progress, as plain attributes that the phase modules read and change; and the
deal itself.

:class:`State` is the data of :class:`~cardroom.games.thousand.game.Game` without its rules of
play: the phase modules (:mod:`.bidding`, :mod:`.bank`, :mod:`.play`, :mod:`.scoring`,
:mod:`.view`) are functions of a ``State``, and ``Game`` puts them together. Hands, the bank
and discards are bit masks of card indexes (see :mod:`cardroom.games.cards`); the pack's tables
come from :mod:`.deck`.
"""

from __future__ import annotations

import random
from functools import cache

from cardroom.games.cards import shuffle
from cardroom.games.match import Match
from cardroom.games.phases import next_seats, seat_mask
from cardroom.games.thousand.actions import Action
from cardroom.games.thousand.deck import PACK_ORDER
from cardroom.games.thousand.rules import Rules
from cardroom.games.thousand.scoring import HandResult
from cardroom.games.thousand.shapes import TrickView

HAND_SIZE = 7
BANK_SIZE = 3

BIDDING = "bidding"
DISCARD_PHASE = "discard"
GIVE_PHASE = "give"
BET_PHASE = "bet"
PLAYING = "play"


def active_seats(players: int, dealer: int) -> tuple[int, ...]:
    """The seats that play a deal: all three, or all but the dealer of four."""
    return tuple(s for s in range(players) if players == 3 or s != dealer)


@cache
def deal_layout(dealer: int, active: tuple[int, ...], players: int) -> tuple[int, ...]:
    """Where each card of the shuffled pack goes, in order: a seat, or ``players`` for the
    bank. One card at a time from the dealer's left, a card to the bank after each of the
    first three rounds. Replays rely on this pattern staying the same."""
    seats = sorted(active, key=lambda seat: (seat - dealer - 1) % players)
    places: list[int] = []
    for round_number in range(HAND_SIZE):
        places.extend(seats)
        if round_number < BANK_SIZE:
            places.append(players)
    return tuple(places)


def deal_cards(rng: random.Random, dealer: int, active: tuple[int, ...],
               players: int) -> tuple[list[int], int]:
    """Shuffle the pack and deal it (:func:`deal_layout`). Returns the hands (by seat; a
    dealer who sits out holds nothing) and the bank."""
    deck = list(PACK_ORDER)
    shuffle(deck, rng)
    masks = [0] * (players + 1)
    for place, index in zip(deal_layout(dealer, active, players), deck, strict=True):
        masks[place] |= 1 << index
    bank = masks.pop()
    return masks, bank


class State(Match):
    """The attributes of a match of 1000 and of the deal being played."""

    COPIED = ("scores", "on_barrel", "barrel_deals", "bolts", "history", "actions",
              "action_seats", "notes", "hands", "bids", "gifts", "marriages",
              "marriage_points", "card_points", "tricks_won", "trick", "trick_seats",
              "completed")

    rules: Rules
    history: list[HandResult]
    """The results of the hands played, oldest first."""
    actions: list[Action]

    # The deal in progress; :meth:`_deal` sets every one of these afresh.
    active: tuple[int, ...]
    """The seats that play this deal (a fourth player deals and sits out)."""
    _next: tuple[int, ...]
    """For each seat, the next seat clockwise that plays this deal."""
    bank: int
    """The bank still on the table (empty once the contractor takes it)."""
    dealt_bank: int
    """The bank as dealt, for those who may see it after it is taken."""
    bank_public: bool
    looked: int
    """Mask of the seats that have looked at their cards."""
    bids: list[tuple[int, int | None, bool]]
    """Each call of the bidding: (seat, bid or ``None`` for a pass, blind)."""
    high_bid: int | None
    high_bidder: int | None
    high_blind: bool
    passed: int
    """Mask of the seats that have passed."""
    contractor: int | None
    bid: int | None
    bet: int | None
    blind: bool
    discards: int
    gifts: list[tuple[int, int]]
    """The cards the contractor gave: (receiver, card index), in order."""
    trump: int | None
    marriages: list[tuple[int, int]]
    """The marriages declared: (seat, suit)."""
    marriage_points: list[int]
    card_points: list[int]
    tricks_won: list[int]
    trick: list[int]
    trick_seats: list[int]
    completed: list[TrickView]

    def __init__(self, rules: Rules, seed: int, dealer: int,
                 first_deal: tuple[list[int], int] | None = None) -> None:
        super().__init__(rules, seed, dealer, first_deal)
        self.scores = [0] * self.players
        self.on_barrel = [False] * self.players
        self.barrel_deals = [0] * self.players
        self.bolts = [0] * self.players
        self._deal()

    def _deal(self) -> None:
        """Deal the next hand (the given first deal, else from the seed) and start its
        bidding."""
        players = self.players
        self.active = active_seats(players, self.dealer)
        self._next = next_seats(self.active, players)
        self.bank = self._next_hands(
            lambda rng: deal_cards(rng, self.dealer, self.active, players))
        self.notes[len(self.actions)] = f"deal {self.hand_number}, dealer {self.dealer}"
        self.dealt_bank = self.bank
        self.bank_public = False
        self.looked = 0 if self.rules.blind_bidding else seat_mask(self.active)
        self.bids = []
        self.high_bid = None
        self.high_bidder = None
        self.high_blind = False
        self.passed = 0
        self.contractor = None
        self.bid = None
        self.bet = None
        self.blind = False
        self.discards = 0
        self.gifts = []
        self.trump = None
        self.marriages = []
        self.marriage_points = [0] * players
        self.card_points = [0] * players
        self.tricks_won = [0] * players
        self.trick = []
        self.trick_seats = []
        self.completed = []
        self._phase = BIDDING
        self._to_act = self._next[self.dealer]

    # -- seats -----------------------------------------------------------------------------------

    @property
    def sitting_out(self) -> int | None:
        """The dealer, in a four-player game (takes no part in the deal); else ``None``."""
        return self.dealer if self.players == 4 else None

    def next_active(self, seat: int) -> int:
        """The next seat clockwise that plays this deal."""
        return self._next[seat]
