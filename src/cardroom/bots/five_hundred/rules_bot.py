"""The rules bot: the careful heuristic 500 a club player plays, from the seat's view only.

It remembers the hand (cards played, who showed out of which suit, which cards are now top of
their suit), values its hand for every strain and for the no-tricks contracts before bidding,
supports its partner, exchanges with the kitty to keep trumps and make voids, and plays the
cards by the classic rules: win cheaply, never overtake a partner's certain winner, draw trumps
with the majority, cash winners, ruff what partner cannot win; in no-tricks contracts it ducks
with the highest losing card or, defending, leads low into the bidder's suits.

Its hand valuation and kitty discard rule, which read cards rather than a view, are in
:mod:`cardroom.bots.five_hundred.valuation`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from cardroom.bots.five_hundred.knowledge import (
    ONE_EACH,
    PartnerWorth,
    expected_partners,
    legal_trick_bids,
    plays_by_card,
)
from cardroom.bots.five_hundred.simple import (
    SeatView,
    SimpleBot,
    highest,
    lowest,
    suit_lengths,
    worth,
)
from cardroom.bots.five_hundred.tactics import MatchCall, Tactic, match_bid
from cardroom.bots.five_hundred.valuation import (
    MISERE_ALLOWANCE,
    PARTNER_TRICKS,
    count_below,
    hand_levels,
    in_suit,
    keep_value,
    kitty_discards,
    misere_danger,
    misere_risks,
    shed_for_misere,
    suit_of,
    support_tricks,
)
from cardroom.bots.seen import mask_of_texts
from cardroom.games.cards import JOKER, JOKER_INDEX, Card, Rank, Suit, cards_of
from cardroom.games.five_hundred import Bid, Contract
from cardroom.games.five_hundred.exchange import TWO_PARTNERS_FROM
from cardroom.games.five_hundred.rules import DECKS
from cardroom.games.five_hundred.shapes import FiveHundredView, SeatBid

# -- the seat's knowledge of the hand --------------------------------------------------------


class Table(SeatView):
    """A seat's view with memory of the hand: cards gone, suits players showed out of, what
    the other seats may still hold, who is on which side and how the trick stands."""

    def __init__(self, view: FiveHundredView) -> None:
        super().__init__(view)
        rules = view["rules"]
        self.rules = rules
        self.deck = DECKS[rules["deck"]].mask
        self.kitty_size = DECKS[rules["deck"]].kitty
        contract = view["contract"]
        playing = contract.get("playing") if contract else None
        self.active: list[int] = playing or list(range(self.players))
        no_trumps = self.trump is None and not self.no_tricks
        self.joker_any_time = no_trumps and rules["nt_joker"] == "play_any_time"
        self.known = {int(seat): mask_of_texts(cards)
                      for seat, cards in view["open_hands"].items()}
        self.voids: dict[int, set[int]] = {seat: set() for seat in range(self.players)}
        for trick in view["tricks"]:
            self._note_voids([Card.parse(c).index for c in trick["cards"]], trick["seats"],
                             trick.get("nominated"))
        if self.trick:
            self._note_voids(self.trick, self.trick_seats, view["led"])
        self.unseen = self.outstanding()
        self.hand_mask = sum(card.mask for card in self.hand)

    def _note_voids(self, cards: list[int], seats: list[int], named: str | None) -> None:
        """Record who did not follow the suit led to a trick."""
        nominated = Suit.parse(named) if named and named in "SCDH" else None
        led = self.strain.led_suit(cards[0], nominated)
        for index, seat in zip(cards[1:], seats[1:], strict=False):
            if self.strain.suit_of[index] == led:
                continue
            if index == JOKER_INDEX and self.joker_any_time:
                continue
            self.voids[seat].add(led)

    # sides

    def side_of(self, seat: int) -> int:
        """The scoring side of a seat (index into the view's teams)."""
        return self.team(seat)

    @property
    def attacking(self) -> bool:
        """True when this seat's side must make the contract (or nobody bid)."""
        return self.contractor is None or self.friend(self.contractor)

    def opponents_after(self) -> list[int]:
        """Opponents still to play to the current trick after this seat."""
        return [seat for seat in self.later_seats() if not self.friend(seat)]

    def later_seats(self) -> list[int]:
        """Seats still to play to the current trick after this seat, in order."""
        remaining = len(self.active) - len(self.trick) - 1
        seats: list[int] = []
        seat = self.seat
        while len(seats) < remaining:
            seat = (seat + 1) % self.players
            if seat in self.active:
                seats.append(seat)
        return seats

    # what others may hold

    def could_hold(self, seat: int) -> int:
        """Mask of the cards ``seat`` may hold: its open hand, else the unseen cards less the
        suits it showed out of and the cards of open hands."""
        if seat in self.known:
            return self.known[seat]
        mask = self.unseen
        for other, cards in self.known.items():
            if other != seat:
                mask &= ~cards
        for suit in self.voids[seat]:
            mask &= ~self.strain.follow_mask[suit]
        return mask

    def may_be_void(self, seat: int, suit: int) -> bool:
        """Could ``seat`` be out of ``suit``: it showed out, or few of the suit are unseen."""
        holding = self.could_hold(seat) & self.strain.follow_mask[suit]
        if seat in self.known or suit in self.voids[seat]:
            return not holding
        return holding.bit_count() <= 3

    def can_beat(self, seat: int, key: int) -> bool:
        """Could ``seat``, still to play, beat a card with winning key ``key``?"""
        keys = self.strain.keys[self.led]
        cards = self.could_hold(seat)
        following = cards & self.strain.follow_mask[self.led]
        if any(keys[c.index] > key for c in cards_of(following)):
            return True
        if self.joker_any_time and cards & JOKER.mask:
            return True
        if not self.may_be_void(seat, self.led):
            return False
        return any(keys[c.index] > key for c in cards_of(cards & ~following))

    def sure_winner(self, card: Card) -> bool:
        """Would ``card`` win the trick now, with no later opponent able to beat it?"""
        if not self.wins(card):
            return False
        key = self.strain.keys[self.led][card.index]
        return not any(self.can_beat(seat, key) for seat in self.opponents_after())

    def trick_is_safe(self) -> bool:
        """Is the card winning the trick now beyond the reach of every later opponent?"""
        winning = self.trick[self.strain.winner(self.trick, self.led)]
        key = self.strain.keys[self.led][winning]
        return not any(self.can_beat(seat, key) for seat in self.opponents_after())

    def boss(self, card: Card) -> bool:
        """Is ``card`` the top card left in its effective suit?"""
        return self.is_boss(card, self.unseen)

    def trumps_held(self, cards: Iterable[Card]) -> list[Card]:
        """The trumps among ``cards`` (none in no trumps)."""
        trump = self.strain.trump
        return [] if trump is None else in_suit(self.strain, cards, trump)

    def enemy_trumps(self) -> int:
        """Mask of the unseen trumps the opponents may hold."""
        trump = self.strain.trump
        if trump is None:
            return 0
        mask = 0
        for seat in self.active:
            if not self.friend(seat):
                mask |= self.could_hold(seat) & self.strain.follow_mask[trump]
        return mask


# -- the bot ---------------------------------------------------------------------------------


class RulesBot:
    """Careful heuristic 500: valued bids, sound kitty exchanges and textbook card play."""

    name = "rules"

    def __init__(self, seed: int = 0, match_tactics: bool = False,
                 partner_worth: PartnerWorth = ONE_EACH) -> None:
        self.seed = seed  # deterministic; the seed keeps the registry uniform
        self.helper = SimpleBot(seed)
        self.match_tactics = match_tactics
        """Bid with the match score in mind
        (:func:`~cardroom.bots.five_hundred.tactics.match_bid`): the search bot does; the rules
        bot itself bids on the hand alone."""
        self.partner_worth = partner_worth
        """How many partners it counts its teammates of a team of three and its called
        partners as when it values its hand (the rules bot: one each; the search bot, as
        measured at five and six players:
        :data:`~cardroom.bots.five_hundred.search.PARTNER_WORTH`)."""
        self.call_tactic: Tactic | None = None
        """The match tactic that made the bot's last call, ``None`` when the hand's own
        worth made it. Card play leaves it alone, so at a hand's end it still names the
        tactic of the contractor's winning call (:mod:`cardroom.tools.arena` tells stop bids
        apart by it)."""

    def choose(self, view: FiveHundredView) -> str:
        """The action for the seat to act (see :class:`cardroom.bots.base.Bot`)."""
        if view["phase"] in ("give", "call", "joker"):
            return self.helper.choose(view)  # Nello's lowest card, slam's best; a top card
        if "misdeal" in view["legal_actions"]:
            return "misdeal"  # no face card: too weak to play, and the rules let it go
        table = Table(view)
        count = view.get("discard_count")
        if count:
            return "discard " + " ".join(map(str, self.discard(table, count)))
        legal: list[str] = view["legal_actions"]
        if view["phase"] == "bidding":
            return self.bid(table, legal)
        return self.play(table, legal)

    # -- bidding ---------------------------------------------------------------------------

    def bid(self, table: Table, legal: list[str]) -> str:
        """The most valuable trick bid the hand (with partner's bids) can make, a no-tricks
        bid with a low enough hand, else pass; then, with ``match_tactics``, what the match
        score makes of that."""
        levels = self.levels(table)
        choice = self._hand_bid(table, legal, levels)
        call = (match_bid(table.view, levels, choice,
                          one_partner_levels=self._one_partner_levels(table))
                if self.match_tactics else MatchCall(choice))
        self.call_tactic = call.tactic
        return call.action

    def _hand_bid(self, table: Table, legal: list[str], levels: dict[Suit | None, int]) -> str:
        offers = [bid for bid in legal_trick_bids(legal) if bid.tricks <= levels[bid.trump]]
        if offers:
            return f"bid {max(offers, key=lambda bid: bid.value)}"
        special = self._special_bid(table, legal)
        if special:
            return special
        if "pass" in legal:
            return "pass"
        forced = legal_trick_bids(legal)
        return f"bid {forced[0]}" if forced else legal[0]

    def levels(self, table: Table) -> dict[Suit | None, int]:
        """The highest level worth bidding in each strain, counting partner's support."""
        view = table.view
        levels = self._own_levels(table)
        high = view["high_bid"]
        mates = sorted(table.friends - {table.seat})
        partner_bid = next((bid for bid in (_last_trick_bid(view["bidding"], mate)
                                            for mate in mates) if bid is not None), None)
        if high is not None and high["seat"] in mates:
            levels = {strain: level - 1 for strain, level in levels.items()}
        if partner_bid is not None and _last_trick_bid(view["bidding"], table.seat) is None:
            extra = support_tricks(table.hand, partner_bid.trump) - PARTNER_TRICKS
            raised = partner_bid.tricks + math.floor(extra)
            levels[partner_bid.trump] = max(levels[partner_bid.trump], raised)
        return levels

    def _partners(self, table: Table) -> tuple[float, float]:
        """The partners a contract below eight and one from eight up count on (they differ
        at five players, where eight and up calls two)."""
        worth = self.partner_worth
        return (expected_partners(table.view, table.seat, worth),
                expected_partners(table.view, table.seat, worth, two_called=True))

    def _one_partner_levels(self, table: Table) -> dict[Suit | None, int] | None:
        """At a table whose contractor calls two partners from eight up (five players), the
        hand's levels with one called partner's worth: what a bid below eight, which calls
        one, is worth; ``None`` elsewhere."""
        one, two = self._partners(table)
        return None if two == one else hand_levels(table.hand, table.deck, table.kitty_size,
                                                   one)

    def _own_levels(self, table: Table) -> dict[Suit | None, int]:
        """The hand's levels with the usual allowance for partners: at five players one
        called partner's worth, and from the level that calls two partners up the two
        partners' worth wherever it reaches that level."""
        one, two = self._partners(table)
        levels = hand_levels(table.hand, table.deck, table.kitty_size, one)
        if two == one:
            return levels
        high = hand_levels(table.hand, table.deck, table.kitty_size, two)
        return {strain: high[strain] if high[strain] >= TWO_PARTNERS_FROM else level
                for strain, level in levels.items()}

    def _special_bid(self, table: Table, legal: list[str]) -> str | None:
        """A no-tricks contract this hand is low enough for, if one is legal."""
        high = table.view["high_bid"]
        if high is not None and high["seat"] != table.seat and table.friend(high["seat"]):
            return "bid across-the-table" if ("bid across-the-table" in legal
                                              and self._low_enough(table, -2)) else None
        for action, slack in (("bid open-misere", -2), ("bid misere", 0), ("bid nello", 1),
                              ("bid across-the-corner", 1 - table.kitty_size)):
            if action in legal and self._low_enough(table, slack):
                return action
        return None

    def _low_enough(self, table: Table, slack: int) -> bool:
        """Is the hand fit for a no-tricks contract, allowing ``slack`` more (or fewer)
        dangerous cards than the kitty exchange can usually remove?"""
        joker_low = table.rules["joker_low_in_misere"]
        danger = misere_danger(table.hand, table.deck, joker_low)
        return danger <= max(0, MISERE_ALLOWANCE.get(table.kitty_size, 1) + slack)

    # -- kitty exchange --------------------------------------------------------------------

    def discard(self, table: Table, count: int) -> list[Card]:
        """Put back ``count`` cards: the dangerous ones in a no-tricks contract, else rubbish
        that keeps trumps, the joker and aces and makes voids."""
        if table.no_tricks:
            return shed_for_misere(table.hand, count, table.deck,
                                   table.rules["joker_low_in_misere"])
        return kitty_discards(table, count)

    # -- card play -------------------------------------------------------------------------

    def play(self, table: Table, legal: list[str]) -> str:
        """Choose a card by the seat's aim, then write the action for it."""
        options = plays_by_card(legal)
        cards = list(options)
        if table.no_tricks:
            if table.seat in table.makers:
                card = self._duck(table, cards)
            else:
                card = self._feed(table, cards)
        elif table.trick:
            card = self._follow(table, cards)
        else:
            card = self._lead(table, cards)
        return _action_for(table, card, options[card])

    # trick contracts: following

    def _follow(self, table: Table, cards: list[Card]) -> Card:
        """Leave partner's safe trick alone, else take the trick as cheaply as is sure."""
        winners = [card for card in cards if table.wins(card)]
        if table.friend(table.current_winner()):
            if not table.opponents_after() or table.trick_is_safe():
                return _shed(table, cards)
            sure = [c for c in winners if table.sure_winner(c)
                    and suit_of(table.strain, c) == table.led]
            return lowest(table.strain, sure) if sure else _shed(table, cards)
        sure = [card for card in winners if table.sure_winner(card)]
        if sure:
            return lowest(table.strain, sure)
        if not winners:
            return _shed(table, cards)
        cheapest = lowest(table.strain, winners)
        ruffing = suit_of(table.strain, cheapest) != table.led
        if any(table.friend(seat) for seat in table.later_seats()) and not ruffing:
            return _shed(table, cards)  # second hand low: a partner plays later
        return cheapest

    # trick contracts: leading

    def _lead(self, table: Table, cards: list[Card]) -> Card:
        """Draw trumps with the majority, cash sure winners, then lead the best suit low."""
        trumps = table.trumps_held(cards)
        if table.attacking and trumps:
            drawing = self._trump_lead(table, trumps)
            if drawing is not None:
                return drawing
        side = [card for card in cards if card not in trumps]
        cash = [card for card in side if self._cashable(table, card)]
        if cash:
            lengths = suit_lengths(table.strain, side)
            return max(cash, key=lambda c: (lengths[suit_of(table.strain, c)],
                                            worth(table.strain, c)))
        if JOKER in cards and table.strain.trump is None and _long_suit(table, cards):
            return JOKER
        plain = [card for card in side if not card.is_joker]
        if not plain:
            return lowest(table.strain, trumps or cards)
        suit = max({suit_of(table.strain, c) for c in plain},
                   key=lambda s: self._lead_score(table, s, plain))
        return lowest(table.strain, in_suit(table.strain, plain, suit))

    def _trump_lead(self, table: Table, trumps: list[Card]) -> Card | None:
        """A trump to lead while the opponents still hold trumps and it pays: the top trump
        when it is the boss, a low one when this hand holds the majority."""
        enemy = table.enemy_trumps().bit_count()
        if not enemy:
            return None
        top = highest(table.strain, trumps)
        if table.boss(top):
            return top
        if len(trumps) > enemy or (len(trumps) >= 4 and len(trumps) >= enemy):
            return lowest(table.strain, trumps)
        return None

    def _cashable(self, table: Table, card: Card) -> bool:
        """A side card that is the boss of its suit and that no opponent can ruff."""
        if card.is_joker or not table.boss(card):
            return False
        suit = suit_of(table.strain, card)
        trump = table.strain.trump
        for seat in table.active:
            if table.friend(seat) or trump is None:
                continue
            if table.may_be_void(seat, suit) and table.could_hold(seat) & table.strain.follow_mask[
                    trump]:
                return False
        return True

    def _lead_score(self, table: Table, suit: int, plain: list[Card]) -> float:
        """How good a suit is to lead low: long suits for the makers and in no trumps; short
        suits for defenders in a trump contract; suits partner can ruff; not away from an
        unsupported honour."""
        strain = table.strain
        mine = in_suit(strain, plain, suit)
        long_suits_pay = table.attacking or strain.trump is None
        score = float(len(mine)) if long_suits_pay else -float(len(mine)) / 2
        trump = strain.trump
        for seat in table.active:
            if seat == table.seat or not table.may_be_void(seat, suit):
                continue
            if trump is not None and table.could_hold(seat) & strain.follow_mask[trump]:
                score += 3 if table.friend(seat) else -4
        honours = [c for c in mine if c.rank in (Rank.KING, Rank.QUEEN) and not table.boss(c)]
        if honours and len(mine) <= 3:
            score -= 2
        return score

    # no-tricks contracts

    def _duck(self, table: Table, cards: list[Card]) -> Card:
        """As a no-tricks maker: lead the safest low card; follow with the highest card that
        still loses; when sure to win anyway, throw the most dangerous card."""
        risks = misere_risks(table.hand, table.deck, table.rules["joker_low_in_misere"])
        if not table.trick:
            return min(cards, key=lambda c: (self._lead_danger(table, c), c.rank or 99))
        losers = [card for card in cards if not table.wins(card)]
        if losers:
            following = [c for c in losers if suit_of(table.strain, c) == table.led]
            if following:
                return highest(table.strain, following)
            return max(losers, key=lambda c: (risks.get(c, 0), c.rank or 0))
        if table.later_seats():
            return lowest(table.strain, cards)
        return max(cards, key=lambda c: (risks.get(c, 0), c.rank or 0))

    def _lead_danger(self, table: Table, card: Card) -> tuple[int, int]:
        """How likely a maker's lead of ``card`` is to win: no rival (a defender, or the other
        side's maker Across The Corner) able to follow with a higher card is worst, then the
        number of lower cards rivals may duck with."""
        if card.is_joker:
            return (99, 0)
        strain = table.strain
        suit = suit_of(strain, card)
        keys = strain.keys[suit]
        rivals = [s for s in table.later_seats() if not (s in table.makers and table.friend(s))]
        above = below = 0
        for seat in rivals:
            held = cards_of(table.could_hold(seat) & strain.follow_mask[suit])
            above += sum(keys[c.index] > keys[card.index] for c in held)
            below += sum(keys[c.index] < keys[card.index] for c in held)
        return (0 if above else 1, below)

    def _feed(self, table: Table, cards: list[Card]) -> Card:
        """Defending a no-tricks contract: lead low into the makers' suits, keep the trick
        low until a maker has played, then duck under a maker's winning card."""
        strain = table.strain
        plain = [c for c in cards if not c.is_joker] or cards
        if not table.trick:
            return min(plain, key=lambda c: self._feed_lead_score(table, c))
        makers_after = [s for s in table.later_seats() if s in table.makers]
        if table.current_winner() in table.makers:
            under = [c for c in plain if not table.wins(c)]
            if under:
                return highest(strain, under)
        elif makers_after:
            return lowest(strain, plain)
        return max(plain, key=lambda c: (suit_of(strain, c) != table.led, worth(strain, c)))

    def _feed_lead_score(self, table: Table, card: Card) -> tuple[int, int, int]:
        """Lower is better for a defender's lead against a no-tricks maker: a suit the makers
        hold, where they have fewest cards to duck under ours, led as low as we can."""
        strain = table.strain
        suit = suit_of(strain, card)
        makers = [s for s in table.makers if s in table.active]
        holding = 0
        for seat in makers:
            holding |= table.could_hold(seat) & strain.follow_mask[suit]
        if not holding:
            return (1, 0, worth(strain, card))
        duck = count_below(strain, holding, card)
        forced = duck == 0 and any(seat in table.known for seat in makers)
        return (0, duck - 5 * forced, worth(strain, card))


# -- helpers -------------------------------------------------------------------------------


def _last_trick_bid(bidding: list[SeatBid], seat: int) -> Bid | None:
    """The last trick bid ``seat`` made this hand, if any."""
    for entry in reversed(bidding):
        if entry["seat"] == seat and entry["bid"] != "pass":
            bid = Bid.parse(entry["bid"])
            return bid if bid.contract is Contract.TRICKS else None
    return None


def _shed(table: Table, cards: list[Card]) -> Card:
    """The card to throw on a trick this seat will not win."""
    return min(cards, key=lambda c: (keep_value(table, c, table.hand), c))


def _long_suit(table: Table, cards: list[Card]) -> Suit | None:
    """The suit to name when leading the joker in no trumps: the longest one of four or more
    cards (the joker pulls a round of it, setting up its small cards), else ``None``."""
    best = None
    for suit in Suit:
        mine = in_suit(table.strain, cards, suit)
        if len(mine) >= 4 and (best is None or len(mine) > len(in_suit(
                table.strain, cards, best))):
            best = suit
    return best


def _action_for(table: Table, card: Card, actions: list[str]) -> str:
    """The action playing ``card``; a joker led in no trumps names this hand's longest suit."""
    if len(actions) == 1:
        return actions[0]
    named = _long_suit(table, table.hand)
    if named is None:
        lengths = suit_lengths(table.strain, [c for c in table.hand if not c.is_joker])
        named = Suit(max(range(4), key=lambda s: (lengths[s], s)))
    wanted = f"play {card}:{named.letter}"
    return wanted if wanted in actions else actions[0]


__all__ = ["RulesBot", "Table"]
