"""The simple bot: plain, sensible 500 from a seat's view, with no search and no memory.

It bids from a count of likely tricks, keeps its trumps and aces in the kitty exchange, wins
tricks as cheaply as it can (or ducks them in a no-tricks contract) and never wastes a card
on a trick its partner is already winning. It is the bot that fills empty seats and the
baseline any smarter bot has to beat; it only ever answers with a legal action.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from cardroom.bots.five_hundred.knowledge import (
    STRAINS,
    card_to_call,
    contract_bid,
    expected_partners,
    friends_of,
    legal_trick_bids,
    makers_of,
    players_of,
    plays_by_card,
    view_strain,
)
from cardroom.bots.seen import hand_of, seat_of, unseen_cards
from cardroom.games.cards import CARD_COUNT, Card, Rank, Suit
from cardroom.games.five_hundred import Bid, Strain, strain_for
from cardroom.games.five_hundred.rules import DECKS
from cardroom.games.five_hundred.shapes import FiveHundredView

PARTNER_TRICKS = 1.5
"""Tricks a partner is expected to bring to any contract."""
KITTY_TRICKS = {3: 0.5, 5: 1.0}
"""Tricks the kitty is expected to add, by kitty size."""
KEEP_JOKER = "pass"
"""The rule-based bots' answer when a no-trumps contractor may name the joker's suit: keep
it a joker. Left unnamed it wins any trick its holder leads it to or (at the latest once
void in the suit led) plays it to; named, it is only one suit's top card, which can follow
that suit but no longer wins in a suit its holder lacks. Solving sampled deals agrees: over
60 deals of a 7NT contractor with the joker (classic rules with nomination, 12 sampled deals
each), naming a suit scored 25 to 84 points a deal less than keeping the joker for every
kind of holding in the named suit (void to five cards, with or without its ace), and the
few deals where a name looked better by 30 points came out worse again with 60 samples.
The search bot weighs every nomination on sampled deals itself
(:func:`~cardroom.bots.five_hundred.bidding.choose_joker_suit`)."""

TRUMP_HONOURS = {"joker": 1.0, "right": 1.0, "left": 0.75, Rank.ACE: 0.75, Rank.KING: 0.5,
                 Rank.QUEEN: 0.25}
"""Likely tricks from each top trump held."""
LOW_TRUMP = 0.5
"""Likely tricks from each trump below the honours (ruffs and long trumps)."""
MIN_TRUMPS = 4
"""Fewest trumps to bid a suit with."""


def worth(strain: Strain, card: Card) -> int:
    """How strong a card is within its own effective suit (trumps and the joker above all)."""
    return strain.keys[strain.suit_of[card.index]][card.index]


def suit_lengths(strain: Strain, cards: Iterable[Card]) -> Counter[int]:
    """How many of ``cards`` belong to each effective suit."""
    return Counter(strain.suit_of[card.index] for card in cards)


def lowest(strain: Strain, cards: list[Card]) -> Card:
    """The cheapest card to give up: the weakest, from the shortest suit on a tie."""
    lengths = suit_lengths(strain, cards)
    return min(cards, key=lambda c: (worth(strain, c), lengths[strain.suit_of[c.index]], c))


def highest(strain: Strain, cards: list[Card]) -> Card:
    """The strongest card of ``cards``."""
    return max(cards, key=lambda c: (worth(strain, c), c))


# -- hand evaluation for the bidding -------------------------------------------------------


def trump_tricks(hand: list[Card], trump: Suit) -> float:
    """Likely tricks of ``hand`` with ``trump`` as trumps (0 if it is too short in trumps)."""
    strain = strain_for(trump)
    trumps = [card for card in hand if strain.suit_of[card.index] == trump]
    if len(trumps) < MIN_TRUMPS:
        return 0.0
    honours = 0.0
    honour_count = 0
    for card in trumps:
        value = TRUMP_HONOURS.get(_trump_role(card, trump), 0.0)
        honours += value
        honour_count += value > 0
    side_aces = sum(1 for card in hand if card.rank is Rank.ACE
                    and strain.suit_of[card.index] != trump)
    return honours + LOW_TRUMP * (len(trumps) - honour_count) + side_aces


def _trump_role(card: Card, trump: Suit) -> object:
    """``joker``, ``right``, ``left`` or the rank of a card of the trump suit."""
    if card.is_joker:
        return "joker"
    if card.rank is Rank.JACK:
        return "right" if card.suit is trump else "left"
    return card.rank


def no_trump_tricks(hand: list[Card]) -> float:
    """Likely tricks of ``hand`` in no trumps: the joker, aces, backed kings, long suits."""
    tricks = 0.0
    for suit in Suit:
        ranks = {card.rank for card in hand if card.suit is suit}
        if Rank.ACE in ranks:
            tricks += 1 + 0.5 * max(0, len(ranks) - 4)
            tricks += 0.5 * (Rank.KING in ranks)
    return tricks + any(card.is_joker for card in hand)


def capacity(hand: list[Card], trump: Suit | None, kitty_size: int,
             partners: float = 1.0) -> int:
    """How many tricks the side can hope for with ``trump`` (``None``: no trumps), with
    ``partners`` partners to help."""
    mine = no_trump_tricks(hand) if trump is None else trump_tricks(hand, trump)
    if mine == 0:
        return 0
    return int(mine + PARTNER_TRICKS * partners + KITTY_TRICKS.get(kitty_size, 1.0))


def clearly_low(hand: list[Card]) -> bool:
    """A hand fit for misère: no joker, nothing above a jack (one at most), a low card in
    every suit held."""
    if any(card.is_joker for card in hand):
        return False
    if any(card.rank is not None and card.rank > Rank.JACK for card in hand):
        return False
    if sum(card.rank is Rank.JACK for card in hand) > 1:
        return False
    return all(min(card.rank for card in hand if card.suit is suit) <= Rank.SIX  # type: ignore[type-var, operator]
               for suit in {card.suit for card in hand})


# -- what the seat sees ----------------------------------------------------------------------


class SeatView:
    """A 500 seat's view, parsed once into cards, the strain, the sides and the state of the
    trick (for any number of players: the sides come from the view). It knows nothing of
    earlier tricks beyond the cards still out; the rules bot's
    :class:`~cardroom.bots.five_hundred.rules_bot.Table` adds that memory. 1000's bots read
    their views into :class:`~cardroom.bots.thousand.knowledge.Seen` instead: the games share
    the counting of unseen cards (:mod:`cardroom.bots.seen`), not suits, sides or tricks."""

    def __init__(self, view: FiveHundredView) -> None:
        self.view = view
        self.seat = seat_of(view)
        self.players = players_of(view)
        self.friends = friends_of(view, self.seat)
        mates = sorted(self.friends - {self.seat})
        self.partner: int | None = mates[0] if mates else None
        """One partner (the first, where there are several), or ``None``."""
        self.hand = [Card.parse(text) for text in hand_of(view)]
        contract = view["contract"]
        self.contractor: int | None = contract.get("contractor") if contract else None
        self.bid = contract_bid(view)
        trump = contract.get("trump") if contract else None
        self.trump = Suit.parse(trump) if trump else None
        self.no_tricks = self.bid is not None and self.bid.is_misere_type
        self.strain = view_strain(view)
        self.opponent: int | None = contract.get("opponent") if contract else None
        self.trick = [Card.parse(play["card"]).index for play in view["trick"]]
        self.trick_seats = [play["seat"] for play in view["trick"]]
        led = view["led"]
        self.led = 4 if led == "J" else "SCDH".index(led) if led else 0

    def team(self, seat: int) -> int:
        """The scoring side of a seat (index into the view's teams)."""
        return int(self.view.get("side_of", [s % 2 for s in range(4)])[seat])

    def friend(self, seat: int) -> bool:
        """True for this seat and the seats playing on its side this hand."""
        return seat in self.friends

    @property
    def makers(self) -> tuple[int, ...]:
        """Seats that must take no tricks in a no-tricks contract (empty otherwise)."""
        return makers_of(self.view)

    def wins(self, card: Card) -> bool:
        """Would ``card``, played now, be winning the trick?"""
        return self.strain.winner([*self.trick, card.index], self.led) == len(self.trick)

    def current_winner(self) -> int:
        """The seat winning the trick so far."""
        return self.trick_seats[self.strain.winner(self.trick, self.led)]

    def outstanding(self) -> int:
        """Mask of the deck's cards this seat has not seen played, held or discarded."""
        return unseen_cards(self.view, DECKS[self.view["rules"]["deck"]].mask)

    def is_boss(self, card: Card, outstanding: int) -> bool:
        """True if no unseen card of the same effective suit beats ``card``."""
        return beats_all(self.strain, card, outstanding)


def beats_all(strain: Strain, card: Card, outstanding: int) -> bool:
    """True if no card of ``outstanding`` in ``card``'s effective suit beats it."""
    suit = strain.suit_of[card.index]
    keys = strain.keys[suit]
    rivals = strain.follow_mask[suit] & outstanding
    mine = keys[card.index]
    return not any(keys[i] > mine for i in range(CARD_COUNT) if rivals >> i & 1)


# -- the bot ---------------------------------------------------------------------------------


class SimpleBot:
    """Sensible, deterministic 500: counted bids, tidy discards, cheap winners, safe ducks."""

    name = "simple"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed  # the bot has no randomness; the seed keeps the registry uniform

    def choose(self, view: FiveHundredView) -> str:
        """The action for the seat to act (see :class:`cardroom.bots.base.Bot`)."""
        seen = SeatView(view)
        count = view.get("discard_count")
        if count:
            return self.discard(seen, count)
        legal: list[str] = view["legal_actions"]
        if view["phase"] == "bidding":
            return self.bid(seen, legal)
        if view["phase"] == "give":
            return give(seen, legal)
        if view["phase"] == "call":
            return card_to_call(view, seen.strain)
        if view["phase"] == "joker":
            return KEEP_JOKER
        return self.play(seen, legal)

    # bidding

    def bid(self, seen: SeatView, legal: list[str]) -> str:
        """The lowest legal bid in the strain the hand counts best, else pass (or misère)."""
        view = seen.view
        kitty = DECKS[view["rules"]["deck"]].kitty
        partners = expected_partners(view, seen.seat)
        counts = {strain: capacity(seen.hand, strain, kitty, partners) for strain in STRAINS}
        high = view["high_bid"]
        margin = 2 if (high is not None and high["seat"] != seen.seat
                       and seen.friend(high["seat"])) else 0
        offers = [bid for bid in legal_trick_bids(legal)
                  if bid.tricks <= counts[bid.trump] - margin]
        if offers:
            return f"bid {_cheapest_in_best_strain(offers, counts)}"
        if "bid misere" in legal and not margin and clearly_low(seen.hand):
            return "bid misere"
        if "pass" in legal:
            return "pass"
        forced = legal_trick_bids(legal)
        return f"bid {_cheapest_in_best_strain(forced, counts)}" if forced else legal[0]

    # kitty exchange

    def discard(self, seen: SeatView, count: int) -> str:
        """Put back ``count`` cards: the highest in a no-tricks contract, else the side rubbish."""
        strain = seen.strain
        if seen.no_tricks:
            chosen = sorted(seen.hand, key=lambda c: (worth(strain, c), c), reverse=True)[:count]
        else:
            chosen = _rubbish(seen, count)
        return "discard " + " ".join(str(card) for card in chosen)

    # card play

    def play(self, seen: SeatView, legal: list[str]) -> str:
        """Choose a card for the trick by the seat's aim, then write the action for it."""
        options = plays_by_card(legal)
        cards = list(options)
        if seen.no_tricks:
            card = self._duck(seen, cards) if seen.seat in seen.makers else self._feed(seen, cards)
        elif seen.trick:
            card = self._follow(seen, cards)
        else:
            card = self._lead(seen, cards)
        return _action_for(seen, card, options[card])

    def _follow(self, seen: SeatView, cards: list[Card]) -> Card:
        """Win as cheaply as possible unless partner already has the trick."""
        if seen.friend(seen.current_winner()):
            return lowest(seen.strain, cards)
        winners = [card for card in cards if seen.wins(card)]
        return lowest(seen.strain, winners or cards)

    def _lead(self, seen: SeatView, cards: list[Card]) -> Card:
        """Lead a boss trump to draw trumps (makers), else a boss card, else a low card."""
        strain = seen.strain
        outstanding = seen.outstanding()
        trump = strain.trump
        trumps = [c for c in cards if trump is not None and strain.suit_of[c.index] == trump]
        enemy_trumps = trump is not None and strain.follow_mask[trump] & outstanding
        attacking = seen.contractor is None or seen.friend(seen.contractor)
        if attacking and trumps and enemy_trumps:
            top = highest(strain, trumps)
            if seen.is_boss(top, outstanding):
                return top
        bosses = [c for c in cards if c not in trumps and seen.is_boss(c, outstanding)]
        if bosses:
            return highest(strain, bosses)
        side = [c for c in cards if c not in trumps] or cards
        lengths = suit_lengths(strain, side)
        longest = max(lengths.values())
        return lowest(strain, [c for c in side if lengths[strain.suit_of[c.index]] == longest])

    def _duck(self, seen: SeatView, cards: list[Card]) -> Card:
        """As a no-tricks maker: shed the highest card that loses the trick, else the lowest."""
        strain = seen.strain
        if not seen.trick:
            safe = [c for c in cards if not c.is_joker] or cards
            return lowest(strain, safe)
        losers = [card for card in cards if not seen.wins(card)]
        return highest(strain, losers) if losers else lowest(strain, cards)

    def _feed(self, seen: SeatView, cards: list[Card]) -> Card:
        """As a defender of a no-tricks contract: keep a maker winning, or play low under them."""
        strain = seen.strain
        if seen.trick and seen.current_winner() in seen.makers:
            keep = [card for card in cards if not seen.wins(card)]
            if keep:
                return highest(strain, keep)
        safe = [c for c in cards if not c.is_joker] or cards
        return lowest(strain, safe)


# -- helpers -------------------------------------------------------------------------------


def give(seen: SeatView, legal: list[str]) -> str:
    """The card to give: the lowest to the widow for partner's Nello, the best to a partner
    who called slam."""
    gifts = [Card.parse(text.split()[1]) for text in legal]
    contract = seen.view["contract"]
    if contract and contract.get("slam"):
        return f"give {highest(seen.strain, gifts)}"
    return f"give {lowest(strain_for(None), gifts)}"


def _cheapest_in_best_strain(bids: list[Bid], counts: dict[Suit | None, int]) -> Bid:
    """The first (cheapest) of ``bids`` in the strain with the best count (higher on ties)."""
    def strength(bid: Bid) -> tuple[int, int]:
        return counts[bid.trump], 4 if bid.trump is None else int(bid.trump)

    best = max(bids, key=strength)
    return next(bid for bid in bids if bid.trump == best.trump)


def _rubbish(seen: SeatView, count: int) -> list[Card]:
    """The side cards to throw in a trick contract: whole short suits first, to make voids,
    then the lowest cards left; trumps, the joker and aces (kings in no trumps) go last."""
    strain = seen.strain

    def keeper(card: Card) -> bool:
        suit = strain.suit_of[card.index]
        return (card.is_joker or suit == strain.trump or card.rank is Rank.ACE
                or (strain.trump is None and card.rank is Rank.KING))

    groups: dict[int, list[Card]] = {}
    for card in seen.hand:
        if not keeper(card):
            groups.setdefault(strain.suit_of[card.index], []).append(card)
    guarded = {strain.suit_of[c.index] for c in seen.hand if keeper(c)}
    chosen: list[Card] = []
    for suit in sorted(groups, key=lambda s: (s in guarded, len(groups[s]), s)):
        if suit not in guarded and len(chosen) + len(groups[suit]) <= count:
            chosen.extend(groups[suit])
    rest = sorted((c for c in seen.hand if c not in chosen),
                  key=lambda c: (keeper(c), worth(strain, c), c))
    return chosen + rest[:count - len(chosen)]


def _action_for(seen: SeatView, card: Card, actions: list[str]) -> str:
    """The action playing ``card``; a joker led in no trumps names the longest suit held."""
    if len(actions) == 1:
        return actions[0]
    lengths = Counter(c.suit for c in seen.hand if not c.is_joker)
    named = max(Suit, key=lambda suit: (lengths[suit], suit))
    wanted = f"play {card}:{named.letter}"
    return wanted if wanted in actions else actions[0]
