"""A match of 1000 as a pure state machine: deal after deal until someone reaches the target.

Use it like the 500 engine::

    game = Game.new(Rules.preset("seed"), seed=7)     # the host (seat 0) deals first
    game.to_act, game.phase            # (1, 'bidding')
    game.legal_actions()               # [Action('look'), Action('bid 100 blind'), ...]
    game.apply("look")                 # -> public events, or IllegalAction with the reason
    game.view(seat)                    # everything that seat may see, JSON-ready

Hands, the bank and discards are bit masks of card indexes; the trick rules come from
:mod:`.deck`, the deal's arithmetic from :mod:`.scoring`. Randomness is only the seeded shuffle
of each deal (and, under ``first_dealer: random``, the seeded choice of the first dealer).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations
from typing import Any, ClassVar

from cardroom.games.base import IllegalAction
from cardroom.games.cards import CARDS, Card, Suit, cards_of, iter_indexes, mask_of
from cardroom.games.match import OVER, Match, check_seat, check_whole_pack, hand_masks
from cardroom.games.thousand.actions import (
    BET,
    BID,
    DISCARD,
    GIVE,
    LOOK,
    LOOK_ACTION,
    MARRIAGE_ACTIONS,
    PASS,
    PASS_ACTION,
    PLAY,
    PLAY_ACTIONS,
    Action,
    bet_action,
    bid_action,
)
from cardroom.games.thousand.deck import (
    KING_QUEEN,
    MARRIAGE_POINTS,
    PACK_MASK,
    POINTS,
    STRENGTH,
    SUIT_IN_PACK,
    is_marriage_card,
    marriages_in,
    playable,
    points_of,
    trick_winner,
)
from cardroom.games.thousand.rules import Rules
from cardroom.games.thousand.scoring import HandResult, score_deal

GAME_NAME = "1000"
HAND_SIZE = 7
BANK_SIZE = 3
CARD_TEXT = tuple(card.text for card in CARDS)

BIDDING = "bidding"
DISCARD_PHASE = "discard"
GIVE_PHASE = "give"
BET_PHASE = "bet"
PLAYING = "play"


def deal_cards(rng: random.Random, dealer: int, active: Sequence[int],
               players: int) -> tuple[list[int], int]:
    """Shuffle the pack and deal it one card at a time from the dealer's left, a card to the
    bank after each of the first three rounds. Returns the hands (by seat; a dealer who sits
    out holds nothing) and the bank. Replays rely on this pattern staying the same."""
    deck = list(iter_indexes(PACK_MASK))
    rng.shuffle(deck)
    seats = sorted(active, key=lambda seat: (seat - dealer - 1) % players)
    hands = [0] * players
    cards = iter(deck)
    bank = 0
    for round_number in range(HAND_SIZE):
        for seat in seats:
            hands[seat] |= 1 << next(cards)
        if round_number < BANK_SIZE:
            bank |= 1 << next(cards)
    return hands, bank


class Game(Match):
    """A match of 1000 for three players (or four, the dealer sitting out each deal).

    Create one with :meth:`new` (seeded deals) or :meth:`from_deal` (a given first deal), or
    rebuild one with :meth:`replay`. The match goes on deal after deal by itself: after the last
    trick the deal is scored, the deal passes clockwise and the next one is dealt.
    """

    GAME_NAME = GAME_NAME
    RULES = Rules
    ACTION = Action
    SPARE_KEY = "bank"
    COPIED = ("scores", "on_barrel", "barrel_deals", "bolts", "history", "actions",
              "action_seats", "notes", "hands", "bids", "gifts", "marriages",
              "marriage_points", "card_points", "tricks_won", "trick", "trick_seats",
              "completed")

    def __init__(self, rules: Rules, seed: int, dealer: int,
                 first_deal: tuple[list[int], int] | None = None) -> None:
        super().__init__(rules, seed, dealer, first_deal)
        self.history: list[HandResult] = []
        self.actions: list[Action] = []
        self.scores = [0] * self.players
        self.on_barrel = [False] * self.players
        self.barrel_deals = [0] * self.players
        self.bolts = [0] * self.players
        self._deal()

    # -- construction ----------------------------------------------------------------------------

    @classmethod
    def new(cls, rules: Rules | str, seed: int, first_dealer: int | None = None) -> Game:
        """A new match with deals drawn from ``seed``. The first dealer is ``first_dealer``
        when given, else as the rules say: the host (seat 0) or a player drawn from the seed."""
        rules = Rules.preset(rules) if isinstance(rules, str) else rules
        if first_dealer is None:
            first_dealer = 0 if rules.first_dealer == "host" else random.Random(
                f"cardroom-1000:{seed}:first-dealer").randrange(rules.players)
        return cls(rules, seed, check_seat(first_dealer, rules.players))

    @classmethod
    def from_deal(cls, rules: Rules | str, dealer: int, hands: Sequence[Sequence[Card | str]],
                  bank: Sequence[Card | str], seed: int = 0) -> Game:
        """A match whose first deal is given (later deals come from ``seed``). ``hands`` has
        one list per seat (empty for a dealer who sits out).

        ``ValueError`` unless the active hands hold seven cards each and, with the bank, each
        card of the pack exactly once.
        """
        rules = Rules.preset(rules) if isinstance(rules, str) else rules
        dealer = check_seat(dealer, rules.players)
        active = active_seats(rules.players, dealer)
        masks, seen = hand_masks(hands, [HAND_SIZE if seat in active else 0
                                         for seat in range(rules.players)])
        bank_mask = mask_of(bank)
        if len(bank) != BANK_SIZE or bank_mask.bit_count() != BANK_SIZE or bank_mask & seen:
            raise ValueError(f"the bank must hold {BANK_SIZE} cards dealt to nobody else")
        check_whole_pack(seen | bank_mask, PACK_MASK, "the 1000 pack")
        return cls(rules, seed, dealer, (masks, bank_mask))

    @property
    def sitting_out(self) -> int | None:
        """The dealer, in a four-player game (takes no part in the deal); else ``None``."""
        return self.dealer if self.players == 4 else None

    def next_active(self, seat: int) -> int:
        """The next seat clockwise that plays this deal."""
        return self._next[seat]

    # -- dealing ---------------------------------------------------------------------------------

    def _deal(self) -> None:
        self.active = active_seats(self.players, self.dealer)
        self._next = tuple(next_of(seat, self.active, self.players)
                           for seat in range(self.players))
        self.bank = self._next_hands(
            lambda rng: deal_cards(rng, self.dealer, self.active, self.players))
        self.notes[len(self.actions)] = f"deal {self.hand_number}, dealer {self.dealer}"
        self.dealt_bank = self.bank
        self.bank_public = False
        self.looked = 0 if self.rules.blind_bidding else _bits(self.active)
        self.bids: list[tuple[int, int | None, bool]] = []
        self.high_bid: int | None = None
        self.high_bidder: int | None = None
        self.high_blind = False
        self.passed = 0
        self.contractor: int | None = None
        self.bid: int | None = None
        self.bet: int | None = None
        self.blind = False
        self.discards = 0
        self.gifts: list[tuple[int, int]] = []
        self.trump: int | None = None
        self.marriages: list[tuple[int, int]] = []
        self.marriage_points = [0] * self.players
        self.card_points = [0] * self.players
        self.tricks_won = [0] * self.players
        self.trick: list[int] = []
        self.trick_seats: list[int] = []
        self.completed: list[dict[str, Any]] = []
        self._phase = BIDDING
        self._to_act: int | None = self._next[self.dealer]

    # -- legal actions ---------------------------------------------------------------------------

    def legal_actions(self) -> Sequence[Action]:
        """Every action the seat to act may take now (empty only when the match is over)."""
        phase, seat = self._phase, self._to_act
        if phase == PLAYING:
            return self._legal_plays(seat)  # type: ignore[arg-type]
        if phase == BIDDING:
            return self._legal_bids(seat)  # type: ignore[arg-type]
        if phase == DISCARD_PHASE:
            return [Action(DISCARD, cards=cards_of(mask))
                    for mask in _subsets(self.hands[seat], BANK_SIZE)]  # type: ignore[index]
        if phase == GIVE_PHASE:
            held = list(iter_indexes(self.hands[seat]))  # type: ignore[index]
            return [Action(GIVE, cards=[CARDS[a], CARDS[b]]) for a in held for b in held
                    if a != b]
        if phase == BET_PHASE:
            return [bet_action(value) for value in self._bet_values(seat)]  # type: ignore[arg-type]
        return []

    def _legal_bids(self, seat: int) -> list[Action]:
        actions: list[Action] = []
        looked = bool(self.looked >> seat & 1)
        if not looked:
            actions.append(LOOK_ACTION)
        if not self._must_bid():
            actions.append(PASS_ACTION)
        actions.extend(bid_action(value, not looked) for value in self._bid_values(seat))
        return actions

    def _bid_values(self, seat: int) -> range:
        """The bids ``seat`` may make now: blind ones (not looked) never above the cap."""
        looked = self.looked >> seat & 1
        capped = not looked or not marriages_in(self.hands[seat])
        return self.rules.bid_values(self.high_bid, capped)

    def _bet_values(self, seat: int) -> range:
        """Final bets: the winning bid or more, within the cap without a marriage in hand."""
        rules = self.rules
        capped = not marriages_in(self.hands[seat])
        values = rules.bid_values(self.bid - rules.bid_step, capped)  # type: ignore[operator]
        return values if len(values) else range(self.bid, self.bid + 1)  # type: ignore[arg-type]

    def _must_bid(self) -> bool:
        return self.rules.first_bidder_must_bid and self.high_bid is None

    def _legal_plays(self, seat: int) -> list[Action]:
        mask = self._playable(seat)
        actions = [PLAY_ACTIONS[i] for i in iter_indexes(mask)]
        if self._may_declare():
            hand = self.hands[seat]
            actions.extend(MARRIAGE_ACTIONS[i] for i in iter_indexes(mask)
                           if is_marriage_card(i) and hand & KING_QUEEN[i >> 4]
                           == KING_QUEEN[i >> 4])
        return actions

    def _playable(self, seat: int) -> int:
        led = self.trick[0] >> 4 if self.trick else None
        return playable(self.hands[seat], led, self.trump, self.rules.must_trump)

    def _may_declare(self) -> bool:
        """Whether the player to lead may declare a marriage now (RULES.md 2.2)."""
        if self.trick:
            return False
        return self.rules.marriage_timing == "when_leading" or bool(self.completed)

    # -- applying actions ------------------------------------------------------------------------

    def apply(self, action: Action | str, seat: int | None = None) -> list[dict[str, Any]]:
        """Apply the action of the seat to act; return the public events it caused.

        ``seat``, when given, is who is trying to act: anyone else than the seat to act gets
        :class:`IllegalAction`. Any illegal action raises :class:`IllegalAction` with the reason
        and leaves the game exactly as it was.
        """
        actor, action = self._actor_and_action(action, seat)
        check, perform = self._HANDLERS[self._phase]
        check(self, actor, action)
        self._accept(actor, action)
        return perform(self, actor, action)

    # bidding

    def _check_bid(self, seat: int, action: Action) -> None:
        looked = self.looked >> seat & 1
        if action.kind == LOOK:
            if looked:
                raise IllegalAction("You have already looked at your cards.")
            return
        if action.kind == PASS:
            if self._must_bid():
                raise IllegalAction(f"The first bidder must bid at least {self.rules.min_bid}.")
            return
        if action.kind != BID:
            raise IllegalAction("It is time to bid: pass, or bid e.g. 'bid 120'.")
        if action.blind and looked:
            raise IllegalAction("You have looked at your cards: your bids are open now.")
        if not action.blind and not looked:
            raise IllegalAction("Look at your cards first ('look'), or bid blind, "
                                f"e.g. 'bid {self.rules.min_bid} blind'.")
        if action.value not in self._bid_values(seat):
            raise IllegalAction(self._bid_refusal(seat, action.value))  # type: ignore[arg-type]

    def _bid_refusal(self, seat: int, value: int) -> str:
        """A human explanation of why a bid of ``value`` may not be made now."""
        rules = self.rules
        lowest = rules.min_bid if self.high_bid is None else self.high_bid + rules.bid_step
        if value < lowest:
            return f"A bid must be at least {lowest}."
        if value % rules.bid_step:
            return f"Bids go up in steps of {rules.bid_step}."
        if value > rules.max_bid:
            return f"The highest bid is {rules.max_bid}."
        if not self.looked >> seat & 1:
            return f"A blind bid may not go above {rules.marriage_cap}."
        return f"Without a marriage in hand you may not bid above {rules.marriage_cap}."

    def _bid(self, seat: int, action: Action) -> list[dict[str, Any]]:
        if action.kind == LOOK:
            self.looked |= 1 << seat
            return [{"type": "look", "seat": seat}]
        if action.kind == PASS:
            self.passed |= 1 << seat
            self.bids.append((seat, None, False))
            events: list[dict[str, Any]] = [{"type": "pass", "seat": seat}]
        else:
            self.high_bid, self.high_bidder, self.high_blind = action.value, seat, action.blind
            self.bids.append((seat, action.value, action.blind))
            events = [{"type": "bid", "seat": seat, "bid": action.value, "blind": action.blind}]
        still_in = [s for s in self.active if not self.passed >> s & 1]
        if self.high_bid is None and not still_in:
            return events + self._all_passed()
        if self.high_bid is not None and still_in in ([], [self.high_bidder]):
            return events + self._start_contract()
        self._to_act = next_of(seat, still_in, self.players)
        return events

    def _all_passed(self) -> list[dict[str, Any]]:
        """Nobody bid (only when the first bidder need not): the deal is void."""
        self.looked = _bits(self.active)
        zero = (0,) * self.players
        self.history.append(HandResult(
            number=self.hand_number, dealer=self.dealer, contractor=None, bid=None, bet=None,
            blind=False, made=None, taken=None, card_points=zero, marriages=zero,
            discard_points=0, tricks=zero, points=zero, scores=tuple(self.scores),
            summary="Everybody passed: the deal passes to the left."))
        return [{"type": "all_passed"}, *self._next_deal()]

    def _start_contract(self) -> list[dict[str, Any]]:
        """The high bidder takes the bank (shown to all unless hidden or the bid was blind)."""
        contractor = self.contractor = self.high_bidder
        self.bid = self.bet = self.high_bid
        self.blind = self.high_blind
        self.looked = _bits(self.active)
        self.bank_public = self.rules.bank_shown and not self.blind
        events: list[dict[str, Any]] = [
            {"type": "contract", "seat": contractor, "bid": self.bid, "blind": self.blind}]
        if self.bank_public:
            events.append({"type": "bank", "cards": [str(c) for c in cards_of(self.bank)]})
        self.hands[contractor] |= self.bank  # type: ignore[index]
        self.bank = 0
        self._phase = DISCARD_PHASE if self.rules.bank_use == "discard" else GIVE_PHASE
        self._to_act = contractor
        return [*events, {"type": "bank_taken", "seat": contractor}]

    # the bank

    def _check_cards(self, seat: int, action: Action) -> None:
        kind, count = ((DISCARD, BANK_SIZE) if self._phase == DISCARD_PHASE else (GIVE, 2))
        what = (f"discard {count} cards, e.g. 'discard 9S JS 9C'" if kind == DISCARD else
                "give one card to each opponent, e.g. 'give 9S JC'")
        if action.kind != kind:
            raise IllegalAction(f"It is time to {what}.")
        if action.mask & ~self.hands[seat]:
            raise IllegalAction(f"You do not hold {cards_of(action.mask & ~self.hands[seat])[0]}.")
        if len(action.cards) != count or action.mask.bit_count() != count:
            raise IllegalAction(f"You must {what}.")

    def _discard(self, seat: int, action: Action) -> list[dict[str, Any]]:
        self.hands[seat] &= ~action.mask
        self.discards = action.mask
        return [{"type": "discard", "seat": seat, "count": BANK_SIZE}, *self._after_bank()]

    def _give(self, seat: int, action: Action) -> list[dict[str, Any]]:
        events: list[dict[str, Any]] = []
        receiver = seat
        for card in action.cards:
            receiver = self._next[receiver]
            self.hands[seat] &= ~card.mask
            self.hands[receiver] |= card.mask
            self.gifts.append((receiver, card.index))
            events.append({"type": "give", "seat": seat, "to": receiver})
        return events + self._after_bank()

    def _after_bank(self) -> list[dict[str, Any]]:
        if self.rules.raise_after_bank:
            self._phase = BET_PHASE
            return []
        return self._start_play()

    def _check_bet(self, seat: int, action: Action) -> None:
        if action.kind != BET:
            raise IllegalAction(f"It is time to name your final bet, e.g. 'bet {self.bid}'.")
        values = self._bet_values(seat)
        if action.value not in values:
            raise IllegalAction(f"The final bet must be one of {values[0]} to {values[-1]} "
                                f"in steps of {self.rules.bid_step} (it may not be lowered"
                                + (", nor go above the cap without a marriage)."
                                   if self.rules.marriage_cap is not None else ")."))

    def _bet(self, seat: int, action: Action) -> list[dict[str, Any]]:
        self.bet = action.value
        return [{"type": "bet", "seat": seat, "bet": self.bet}, *self._start_play()]

    def _start_play(self) -> list[dict[str, Any]]:
        self._phase, self._to_act = PLAYING, self.contractor
        return [{"type": "play_starts", "leader": self.contractor, "bet": self.bet}]

    # play

    def _check_play(self, seat: int, action: Action) -> None:
        if action.kind != PLAY:
            raise IllegalAction("It is time to play a card, e.g. 'play AS'.")
        index = action.card.index
        hand = self.hands[seat]
        if not hand >> index & 1:
            raise IllegalAction(f"You do not hold {action.card}.")
        if not self._playable(seat) >> index & 1:
            raise IllegalAction(self._play_refusal(seat))
        if action.marriage:
            reason = self._marriage_refusal(hand, index)
            if reason:
                raise IllegalAction(reason)

    def _play_refusal(self, seat: int) -> str:
        led = Suit(self.trick[0] >> 4)
        if self.hands[seat] & SUIT_IN_PACK[led]:
            return f"{led.name.capitalize()} were led and you hold some: you must follow suit."
        return (f"You cannot follow {led.name}, so you must play a trump "
                f"({Suit(self.trump).name}) while you hold one.")  # type: ignore[arg-type]

    def _marriage_refusal(self, hand: int, index: int) -> str | None:
        """Why leading card ``index`` may not declare its marriage now, or ``None``."""
        if self.trick:
            return "A marriage is declared by leading its king or queen."
        if not self._may_declare():
            return "Marriages may not be declared on the first trick."
        if not is_marriage_card(index):
            return "A marriage is declared by leading its king or queen."
        suit = index >> 4
        if hand & KING_QUEEN[suit] != KING_QUEEN[suit]:
            return f"You need both the king and queen of {Suit(suit).name} to declare them."
        return None

    def _play(self, seat: int, action: Action) -> list[dict[str, Any]]:
        index = action.card.index
        self.hands[seat] &= ~(1 << index)
        event: dict[str, Any] = {"type": "play", "seat": seat, "card": CARD_TEXT[index]}
        events = [event]
        if action.marriage:
            events.append(self._declare(seat, index >> 4))
        self.trick.append(index)
        self.trick_seats.append(seat)
        if len(self.trick) < len(self.active):
            self._to_act = self._next[seat]
            return events
        return events + self._finish_trick()

    def _declare(self, seat: int, suit: int) -> dict[str, Any]:
        value = MARRIAGE_POINTS[suit]
        self.trump = suit
        self.marriages.append((seat, suit))
        self.marriage_points[seat] += value
        return {"type": "marriage", "seat": seat, "suit": Suit(suit).letter, "points": value}

    def _finish_trick(self) -> list[dict[str, Any]]:
        winner = self.trick_seats[trick_winner(self.trick, self.trump)]
        points = sum(POINTS[i] for i in self.trick)
        self.card_points[winner] += points
        self.tricks_won[winner] += 1
        done = {"leader": self.trick_seats[0], "seats": list(self.trick_seats),
                "cards": [CARD_TEXT[i] for i in self.trick], "winner": winner,
                "points": points,
                "trump": None if self.trump is None else Suit(self.trump).letter}
        self.completed.append(done)
        self.trick, self.trick_seats = [], []
        events: list[dict[str, Any]] = [{"type": "trick", **done, "seats": list(done["seats"]),
                                         "cards": list(done["cards"])}]
        if self.hands[winner]:
            self._to_act = winner
            return events
        return events + self._end_deal()

    # scoring

    def _end_deal(self) -> list[dict[str, Any]]:
        contractor: int = self.contractor  # type: ignore[assignment]
        discard_points = points_of(self.discards)
        deal = score_deal(self.rules, contractor, self.bet, self.blind,  # type: ignore[arg-type]
                          self.card_points, self.marriage_points, discard_points, self.active,
                          self.on_barrel)
        for seat, points in enumerate(deal.points):
            self.scores[seat] += points
        penalties = self._bolts() + self._barrel(deal.made)
        verdict = "made" if deal.made else "failed"
        result = HandResult(
            number=self.hand_number, dealer=self.dealer, contractor=contractor, bid=self.bid,
            bet=self.bet, blind=self.blind, made=deal.made, taken=deal.taken,
            card_points=tuple(self.card_points), marriages=tuple(self.marriage_points),
            discard_points=discard_points, tricks=tuple(self.tricks_won), points=deal.points,
            scores=tuple(self.scores), penalties=tuple(penalties),
            summary=(f"Seat {contractor} bet {self.bet}{' blind' if self.blind else ''}, "
                     f"took {deal.taken}: {verdict}."))
        self.history.append(result)
        events: list[dict[str, Any]] = [{"type": "hand_scored", **result.to_dict()}]
        winner = self._match_winner()
        if winner is not None:
            self.winner = winner
            self._phase, self._to_act = OVER, None
            return [*events, {"type": "match_over", "winner": winner,
                              "scores": list(self.scores)}]
        return events + self._next_deal()

    def _next_deal(self) -> list[dict[str, Any]]:
        self.dealer = (self.dealer + 1) % self.players
        self._deal()
        return [{"type": "deal", "hand": self.hand_number, "dealer": self.dealer}]

    def _bolts(self) -> list[dict[str, Any]]:
        """Count a bolt for each player who took no trick; a full set costs the penalty."""
        rules = self.rules
        if rules.bolts is None:
            return []
        penalties = []
        for seat in self.active:
            if self.tricks_won[seat]:
                continue
            self.bolts[seat] += 1
            if self.bolts[seat] >= rules.bolts:
                self.bolts[seat] = 0
                self.scores[seat] -= rules.bolt_penalty
                penalties.append({"seat": seat, "kind": "bolts", "points": -rules.bolt_penalty})
        return penalties

    def _barrel(self, made: bool) -> list[dict[str, Any]]:
        """Hold scores at the barrel, count barrel deals, and charge those who ran out."""
        rules = self.rules
        if rules.barrel is None:
            return []
        penalties = []
        for seat in range(self.players):
            contract_won = seat == self.contractor and made
            if (rules.barrel_hold and self.scores[seat] > rules.barrel
                    and not (contract_won and self.scores[seat] >= rules.target)):
                self.scores[seat] = rules.barrel
            if self._count_barrel_deal(seat):
                self.scores[seat] -= rules.barrel_penalty
                self.on_barrel[seat] = False
                self.barrel_deals[seat] = 0
                penalties.append({"seat": seat, "kind": "barrel",
                                  "points": -rules.barrel_penalty})
        return penalties

    def _count_barrel_deal(self, seat: int) -> bool:
        """Update ``seat``'s barrel state after a deal; True when its barrel deals ran out."""
        rules = self.rules
        score, barrel = self.scores[seat], rules.barrel
        if not self.on_barrel[seat]:
            self.on_barrel[seat] = barrel <= score < rules.target  # type: ignore[operator]
            self.barrel_deals[seat] = 0
            return False
        if score < barrel:  # type: ignore[operator]
            self.on_barrel[seat] = False
            self.barrel_deals[seat] = 0
            return False
        if rules.barrel_count == "without_bank" and seat == self.contractor:
            self.barrel_deals[seat] = 0
            return False
        self.barrel_deals[seat] += 1
        return self.barrel_deals[seat] >= rules.barrel_deals

    def _match_winner(self) -> int | None:
        """The player who reached the target this deal: the contractor if among them, else
        the highest score (ties to the earlier seat)."""
        reached = [s for s in range(self.players) if self.scores[s] >= self.rules.target]
        if not reached:
            return None
        if self.contractor in reached:
            return self.contractor
        return max(reached, key=lambda s: (self.scores[s], -s))

    _HANDLERS: ClassVar[dict[str, tuple[Any, Any]]] = {
        BIDDING: (_check_bid, _bid),
        DISCARD_PHASE: (_check_cards, _discard),
        GIVE_PHASE: (_check_cards, _give),
        BET_PHASE: (_check_bet, _bet),
        PLAYING: (_check_play, _play),
    }

    # -- what a seat sees ------------------------------------------------------------------------

    def sort_hand(self, mask: int) -> list[Card]:
        """Cards for display: trumps first, then by suit, highest first."""
        trump = self.trump

        def order(card: Card) -> tuple[int, int, int]:
            return (card.suit != trump, -card.suit, -STRENGTH[card.index])  # type: ignore[operator]

        return sorted(cards_of(mask), key=order)

    def visible_bank(self, seat: int | None) -> list[str] | None:
        """The bank as dealt, if ``seat`` may see it: everyone once shown, the contractor once
        taken; ``None`` otherwise."""
        shown = self.bank_public or (seat is not None and seat == self.contractor)
        return [str(c) for c in cards_of(self.dealt_bank)] if shown else None

    def view(self, seat: int | None) -> dict[str, Any]:
        """Everything ``seat`` may see (``None``: a spectator), JSON-ready, with legal actions.

        Hidden: the other hands, one's own hand until looked at (blind bidding), the bank
        (unless shown, or to its taker), the discards and gifts (but to those who handled
        them), the seed and the deals to come.
        """
        seat = None if seat is None else check_seat(seat, self.players)
        rules = self.rules
        own = seat is not None and bool(self.looked >> seat & 1)
        view: dict[str, Any] = {
            "game": GAME_NAME,
            "rules": rules.to_dict(),
            "preset": rules.preset_name,
            "seat": seat,
            "players": self.players,
            "phase": self._phase,
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "sitting_out": self.sitting_out,
            "active": list(self.active),
            "to_act": self._to_act,
            "hand": [str(c) for c in self.sort_hand(self.hands[seat])] if own else None,  # type: ignore[index]
            "looked": [s for s in self.active if self.looked >> s & 1],
            "hand_sizes": [self.hands[s].bit_count() for s in range(self.players)],
            "bidding": [{"seat": s, "bid": "pass" if v is None else v, "blind": b}
                        for s, v, b in self.bids],
            "high_bid": (None if self.high_bid is None else
                         {"seat": self.high_bidder, "bid": self.high_bid,
                          "blind": self.high_blind}),
            "bid_range": {"min": rules.min_bid, "max": rules.max_bid, "step": rules.bid_step,
                          "cap_without_marriage": rules.marriage_cap},
            "passed": [s for s in self.active if self.passed >> s & 1],
            "contract": None if self.contractor is None else {
                "contractor": self.contractor, "bid": self.bid, "bet": self.bet,
                "blind": self.blind, "doubled": self.blind},
            "bank": self.visible_bank(seat),
            "bank_size": self.bank.bit_count(),
            "discards": self._own_discards(seat),
            "discard_count": (BANK_SIZE if self._phase == DISCARD_PHASE
                              and seat == self._to_act else None),
            "gifts": self._own_gifts(seat),
            "trump": None if self.trump is None else Suit(self.trump).letter,
            "marriages": [{"seat": s, "suit": Suit(suit).letter,
                           "points": MARRIAGE_POINTS[suit]} for s, suit in self.marriages],
            "card_points": list(self.card_points),
            "marriage_points": list(self.marriage_points),
            "trick": [{"seat": s, "card": CARD_TEXT[i]}
                      for s, i in zip(self.trick_seats, self.trick, strict=True)],
            "led": Suit(self.trick[0] >> 4).letter if self.trick else None,
            "tricks": [{**t, "cards": list(t["cards"]), "seats": list(t["seats"])}
                       for t in self.completed],
            "tricks_won": list(self.tricks_won),
            "scores": list(self.scores),
            "barrel": [{"on": self.on_barrel[s], "deals": self.barrel_deals[s]}
                       for s in range(self.players)],
            "bolts": list(self.bolts),
            "history": [result.to_dict() for result in self.history],
            "winner": self.winner,
            "legal_actions": [],
        }
        if seat is not None and seat == self._to_act:
            view["legal_actions"] = [a.text for a in self.legal_actions()]
        return view

    def _own_discards(self, seat: int | None) -> list[str]:
        if seat is None or seat != self.contractor:
            return []
        return [str(c) for c in cards_of(self.discards)]

    def _own_gifts(self, seat: int | None) -> list[dict[str, Any]]:
        """The gifts ``seat`` gave (as contractor) or received, each ``{to, card}``."""
        if seat is None:
            return []
        return [{"to": to, "card": CARD_TEXT[index]} for to, index in self.gifts
                if seat in (to, self.contractor)]

    def __repr__(self) -> str:
        return (f"<1000 Game deal {self.hand_number} phase={self._phase} to_act={self._to_act} "
                f"scores={self.scores}>")


# -- seats --------------------------------------------------------------------------------------


def active_seats(players: int, dealer: int) -> tuple[int, ...]:
    """The seats that play a deal: all three, or all but the dealer of four."""
    return tuple(s for s in range(players) if players == 3 or s != dealer)


def next_of(seat: int, seats: Sequence[int], players: int) -> int:
    """The first of ``seats`` clockwise after ``seat``."""
    for offset in range(1, players + 1):
        candidate = (seat + offset) % players
        if candidate in seats:
            return candidate
    raise AssertionError("no seat to move to")


def _bits(seats: Sequence[int]) -> int:
    mask = 0
    for seat in seats:
        mask |= 1 << seat
    return mask


def _subsets(mask: int, count: int) -> list[int]:
    """Every ``count``-card subset of ``mask``, as masks, in lexicographic order of cards."""
    return [sum(1 << i for i in chosen) for chosen in combinations(iter_indexes(mask), count)]

