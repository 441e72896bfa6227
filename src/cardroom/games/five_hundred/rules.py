"""The rules of a game of 500: every option that differs between sources, and named presets.

A :class:`Rules` value is a frozen bundle of options. ``Rules.preset("online")`` gives a named
bundle (RULES.md 1.7); ``Rules.from_dict({"preset": "australian", "all_pass": "redeal"})``
builds house rules on top of a preset, refusing impossible combinations with a clear reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any, ClassVar, Literal

from cardroom.games.cards import BLACK_JOKER_INDEX, CARDS, JOKER_INDEX, Card, Rank, Suit
from cardroom.games.five_hundred.bids import J5_BIDS, SPECIAL_BIDS, TRICK_BIDS, Bid, Contract
from cardroom.games.five_hundred.shapes import LadderRung
from cardroom.games.options import PresetRules, option_types
from cardroom.games.options import option_catalogue as _catalogue

DeckName = Literal["43", "45", "46", "43-red-trump-4", "42", "33", "53", "63"]
SixHandedTeams = Literal["two_teams_of_three", "three_teams_of_two"]
BothAtLoseAt = Literal["higher_score", "contractor_loses"]
BiddingStyle = Literal["until_passed", "single"]
RebidRule = Literal["after_intervening_bid", "any_time"]
AllPassRule = Literal["redeal", "redeal_then_pass_deal", "next_dealer", "play_no_trump",
                      "dealer_must_bid"]
FirstLead = Literal["contractor", "dealer_left"]
MiserePlacement = Literal["after_seven", "by_value"]
MisereFailure = Literal["stop", "play_on"]
NoTrumpJoker = Literal["play_any_time", "only_when_void"]
AllTricksBonus = Literal["none", "slam_250", "sweep_plus_50"]
DefenderPoints = Literal["always", "none", "not_over_490", "not_over_400"]
BothReachTarget = Literal["contractor", "higher_score"]
TargetTie = Literal["contractor", "play_on"]
ClaimRule = Literal["off", "lead", "turn"]
ClaimConsent = Literal["both", "one"]


class RulesError(ValueError):
    """House rules that cannot be played (unknown option, bad value, impossible mix)."""


@dataclass(frozen=True)
class DeckSpec:
    """A deck of 500: which cards are in it, for how many players, and the kitty's size.

    ``lowest_rank`` is the lowest rank of every suit; ``left_out`` names cards of those ranks
    that are not in the deck; ``six_handed`` adds the 11s and 12s of every suit and the red 13s;
    ``jokers`` is 0, 1 or 2; ``colour_four`` makes the four of the trump suit's colour partner
    the lowest trump (``43-red-trump-4``).
    """

    name: str
    lowest_rank: Rank
    kitty: int
    description: str
    players: int = 4
    left_out: tuple[str, ...] = ()
    jokers: int = 1
    six_handed: bool = False
    colour_four: bool = False

    @property
    def red_fours_only(self) -> bool:
        """True for the decks whose only fours are the red ones (43, 42)."""
        return set(self.left_out) == {"4S", "4C"}

    @cached_property
    def mask(self) -> int:
        """Bit mask of every card of the deck (including the jokers)."""
        mask = 0
        if self.jokers >= 1:
            mask |= 1 << JOKER_INDEX
        if self.jokers >= 2:
            mask |= 1 << BLACK_JOKER_INDEX
        extra = (Rank.ELEVEN, Rank.TWELVE, Rank.THIRTEEN)
        for suit in Suit:
            for rank in Rank:
                if rank < self.lowest_rank:
                    continue
                if rank in extra and not (self.six_handed and (
                        rank is not Rank.THIRTEEN or suit.is_red)):
                    continue
                mask |= 1 << (suit * 16 + rank)
        for text in self.left_out:
            mask &= ~Card.parse(text).mask
        return mask

    @property
    def size(self) -> int:
        """Number of cards in the deck."""
        return self.mask.bit_count()

    @property
    def ranks_in(self) -> dict[Suit, list[Rank]]:
        """The ranks present in each suit, highest first (for rules pages)."""
        return {suit: [CARDS[i].rank for i in range(suit * 16 + 15, suit * 16 - 1, -1)  # type: ignore[misc]
                       if self.mask >> i & 1] for suit in Suit}


DECKS: dict[str, DeckSpec] = {
    "43": DeckSpec("43", Rank.FOUR, 3,
                   "43 cards: A to 5 in every suit, the red 4s and one joker; kitty of 3",
                   left_out=("4S", "4C")),
    "45": DeckSpec("45", Rank.FOUR, 5,
                   "45 cards: A to 4 in every suit and one joker; kitty of 5"),
    "46": DeckSpec("46", Rank.FOUR, 6,
                   "46 cards: A to 4 in every suit and two jokers, the black one (JK2) above "
                   "the other; kitty of 6", jokers=2),
    "43-red-trump-4": DeckSpec(
        "43-red-trump-4", Rank.FOUR, 3,
        "43 cards: A to 5 in every suit, the 4♥ and 4♣ and one joker; the 4 of the trump "
        "suit's colour is the lowest trump (13 trumps); kitty of 3",
        left_out=("4S", "4D"), colour_four=True),
    "42": DeckSpec("42", Rank.FOUR, 2,
                   "42 cards: A to 5 in every suit and the red 4s, no joker; kitty of 2",
                   left_out=("4S", "4C"), jokers=0),
    "33": DeckSpec("33", Rank.SEVEN, 3,
                   "33 cards for three players (or two and a dead hand): A to 7 in every suit "
                   "and one joker; kitty of 3",
                   players=3),
    "53": DeckSpec("53", Rank.TWO, 3,
                   "53 cards for five players: the full pack and one joker; kitty of 3",
                   players=5),
    "63": DeckSpec("63", Rank.TWO, 3,
                   "63 cards for six players: the full pack, 11s and 12s in every suit, the "
                   "13♥ and 13♦ and one joker; kitty of 3", players=6, six_handed=True),
}
"""Every deck of RULES.md 1.1, by name."""

PARTNERSHIP_CONTRACTS = ("nello", "across_the_corner", "across_the_table", "double_nullo",
                         "shields_double", "patastrophe", "slam_call")
"""Options that need each player to have exactly one partner (four players, or six in three
teams of two)."""


@dataclass(frozen=True)
class Rules(PresetRules):
    """Options of a game of 500 (RULES.md section 1). Field docs say what each does."""

    players: int = 4
    """Number of players, 2 to 6 (RULES.md 1.2). Four play in two partnerships, six in teams
    (see ``six_handed_teams``). Two play against each other, each keeping an own score: the
    deck is dealt as for three players (deck ``33``) or four (a four-player deck), and the
    hands of the empty seats are dead, face down and out of play for the whole hand, seen by
    nobody. Three play cut-throat: each keeps an own score and the two
    defenders play together against the contractor for that hand. Five keep own scores too:
    after the kitty exchange (the US rule: the contractor knows the whole hand before
    choosing) the contractor of a trick contract names a card it does not hold, two cards on a
    bid of eight or more, and the holders become its partners for the hand, known to the
    others when the card is played; partners score what the contractor scores. Naming a card
    nobody holds (one of the discards) means playing alone. Misère contracts and Hi/Lo are
    played alone, without a call. With own scores each defender scores the tricks it took
    itself."""
    deck: DeckName = "45"
    """Which deck (RULES.md 1.1): four players ``43`` (kitty 3), ``45`` (kitty 5), ``46``
    (two jokers, the black one higher; kitty 6), ``43-red-trump-4`` (4♠ and 4♦ out; the 4 of
    the trump colour is the lowest trump; kitty 3) or ``42`` (no joker; kitty 2); three players
    ``33``, five ``53``, six ``63`` (with 11s, 12s and the red 13s), each with a kitty of 3.
    Two players: ``33`` (one dead hand) or any deck for four (two dead hands)."""
    six_handed_teams: SixHandedTeams = "two_teams_of_three"
    """Six players: two teams of three, alternating (seats 1, 3, 5 against 2, 4, 6), or three
    teams of two sitting opposite (seats 1 & 4, 2 & 5, 3 & 6)."""
    bidding: BiddingStyle = "until_passed"
    """``until_passed``: round and round until all but one have passed (a pass is final);
    ``single``: each player bids or passes once, dealer last (American)."""
    rebid: RebidRule = "after_intervening_bid"
    """``after_intervening_bid``: a bidder may raise only after another player's bid;
    ``any_time``: also the high bidder may raise their own bid once the others have passed
    (Trickster's "bid after pass")."""
    inkle: bool = False
    """Six-level bids ("inkles") only by the first two players to speak (American)."""
    all_pass: AllPassRule = "redeal"
    """What happens when every player passes (RULES.md 1.3). In ``play_no_trump`` the player
    left of the dealer leads, as the first bidder would have."""
    first_lead: FirstLead = "contractor"
    """Who leads to the first trick: the contractor, or the player left of the dealer."""
    misere: bool = False
    """Misère / No Tricks (250) may be bid."""
    misere_placement: MiserePlacement = "by_value"
    """Where misère sits in the bidding order: ``by_value`` (between 8♠ and 8♣) or
    ``after_seven`` (between 7NT and 8♠, and only once someone has bid a seven)."""
    open_misere: bool = False
    """Open misère / Spread (500, between 10♦ and 10♥) may be bid."""
    open_misere_needs_misere: bool = False
    """Spread may only be bid after somebody bid No Tricks in the same hand (seed 004)."""
    across_the_corner: bool = False
    """Across The Corner (250): only after an opponent bid No Tricks (the online site's rule)."""
    across_the_table: bool = False
    """Across The Table (500): only after partner bid No Tricks (the online site's rule)."""
    nello: bool = False
    """Nello (250, beats every bid below 8♠; American): only a side with a negative score;
    partner adds a card to the widow and folds, the contractor discards one more."""
    blind_misere: bool = False
    """Blind misère (1000, above Shields double, below patastrophe) may be bid, but only as a
    player's first call of the hand, since it is bid before looking at the cards (the engine
    cannot tell whether a player has looked; a table should offer it before showing the
    hand). Played as misère, partner folding, kitty exchange included."""
    double_nullo: bool = False
    """Double nullo / grand nullo (500, between open misère and 10♥) may be bid any time: both
    partners play and neither may take a trick; the bidder takes the kitty and passes the
    discards to partner, who keeps what it likes and discards as many."""
    shields_double: bool = False
    """Shields double (750, above 10 no trumps) may be bid: double nullo with the bidder's
    partner's hand shown to all after the first trick."""
    patastrophe: bool = False
    """Patastrophe (1000, the highest bid) may be bid: an open misère for both partners, both
    hands shown to all after the first trick; the kitty exchange is double nullo's."""
    wilkinson_misere: bool = False
    """Wilkinson misère: misère may be bid any time (even as the first bid) but is played open
    (the bidder's hand shown after the first trick), and open misère is played open and
    without the kitty."""
    hi_lo: bool = False
    """Hi/Lo, or 5 and 5 (350), may be bid: the bidder alone, partner folding, must take
    exactly five tricks, in no trumps with the joker played only when void. It outbids the
    black nines but not the red ones (between 9♣ and 9♦)."""
    j5_no_trumps: bool = False
    """J5 no trumps may be bid (``7J5``): no trumps in which each jack ranks above its ace (no
    bowers); the joker is the only trump, as in no trumps. Each J5 bid is worth no trumps of
    its level and ranks just above it."""
    slam_call: bool = False
    """After taking the kitty, a contractor of a seven-trick bid in a suit or no trumps may
    call slam instead of discarding: partner passes it one card and folds, the contractor
    discards down to ten and must take all ten tricks. Made: the value of eight in the same
    strain; failed: the seven bid's value plus 100 is lost."""
    ralphing: bool = False
    """Ralphing: a contractor who falls three or more tricks short (a no-tricks bidder who
    takes three or more) may not bid in the next hand that is dealt."""
    misdeal_no_face: bool = False
    """A player whose hand holds no face card (J, Q, K, A; a joker counts as one) may call a
    misdeal on its first turn to speak: the same dealer deals again."""
    claims: ClaimRule = "lead"
    """Who may claim tricks in the play (four players in two partnerships only): the player
    on ``lead`` before the first card of a trick, any player at their ``turn`` to play, or
    nobody (``off``). A claim names how many of the tricks left the claimant's side takes
    (a no-tricks contract's player may claim only that its side takes none); the claimant's
    hand is shown to all. A claim the room's double-dummy solver proves ends the hand at once;
    any other is put to the opponents (``claim_consent``)."""
    claim_consent: ClaimConsent = "both"
    """An unproven claim stands when ``both`` opponents accept it, or when ``one`` of them
    does; otherwise play goes on, and the claimant may not claim again until the trick is
    over."""
    misere_failure: MisereFailure = "stop"
    """When a no-tricks contract takes a trick: ``stop`` the hand there, or ``play_on`` so the
    defenders score 10 for every trick the makers take (seed 004)."""
    misere_trick_points: bool = True
    """When a no-tricks contract fails, its defenders score 10 for each trick the makers took:
    the one that stopped play, or every one when play goes on. Seeds 000 and 004 both pay the
    defenders so, and neither ties it to playing on, so every preset keeps it; off, a failed
    no-tricks contract scores nothing for the defence (the reading that ties the 10 a trick to
    playing on)."""
    nt_joker: NoTrumpJoker = "only_when_void"
    """In no trumps the joker, led, names a suit that the others must follow, and wins. Not led,
    it may be played ``only_when_void`` in the suit led (seed 000, pagat) or at
    ``play_any_time`` (seed 004 rule 5, which speaks of no-trump hands only: in no-tricks
    contracts the joker is played only when void, see ``misere_joker_forced``)."""
    misere_joker_forced: bool = False
    """In no-tricks contracts the joker must be played when its holder cannot follow suit, and
    may not be led except to the last trick (seed 004)."""
    joker_low_in_misere: bool = False
    """In no-tricks contracts the joker wins no trick unless nobody follows the suit it named
    when led (Trickster)."""
    joker_suit_nomination: bool = False
    """In a no-trumps contract a contractor holding the joker may, before the first lead, name
    a suit for it (pagat): it is then the highest card of that suit and nothing else. Only the
    joker's holder names it: a contractor without it is not asked."""
    joker_lead_limits: bool = False
    """In no trumps a led joker may not name a suit already led this hand, and once all four
    suits have been led the joker may not be led except to the last trick (pagat)."""
    all_tricks_bonus: AllTricksBonus = "none"
    """Reward for taking all ten tricks: ``slam_250`` (a contract worth less than 250 scores
    250), ``sweep_plus_50`` (6–9 trick bids add 50), or ``none``."""
    defender_points: DefenderPoints = "always"
    """Defenders score 10 per trick they take (per trick the makers take, in no-tricks
    contracts): ``always``, ``none``, or only up to a score of 490 (``not_over_490``: a side
    can reach 500 only by its own contract) or of 400 (``not_over_400``)."""
    target: int = 500
    """Score that wins the match."""
    target_strict: bool = False
    """Win only with a score *over* the target (seed 000) instead of reaching it."""
    lose_at: int | None = -500
    """A side at or below this score loses (``None``: never)."""
    win_needs_bid: bool = False
    """A side reaching the target wins only in a hand where it won the bid and made it
    (a side that fails its contract has gone back, not won)."""
    both_reach_target: BothReachTarget = "contractor"
    """When both sides reach the target in the same hand: the contractor's side wins, or the
    higher score (ties to the contractor's side)."""
    target_tie: TargetTie = "contractor"
    """When the sides that reach the target have exactly the same, highest, score: the
    contractor's side wins if it is one of them (``contractor``; if it is not, nobody has won
    yet), or nobody has won yet and another hand is dealt (``play_on``). Every preset plays
    ``contractor``."""
    both_at_lose_at: BothAtLoseAt = "higher_score"
    """When more than one side is at or below the losing score after the same hand (possible
    with own scores, or when defenders already in the hole fall further): the highest score
    wins (``higher_score``), or the contractor's side loses and the best other side wins
    (``contractor_loses``)."""
    deals: int | None = None
    """The match ends after this many deals (a deal everybody passed, or thrown in, counts)
    if no side has won or lost it by then: the highest score wins, an exact tie going to the
    contractor's side of the last deal if it is among the tied, else to the tied side of the
    lowest seat (``None``: played to the target, as every preset does)."""

    DEFAULT_PRESET: ClassVar[str] = "online"
    ERROR: ClassVar[type[Exception]] = RulesError

    @cached_property
    def gated_bids(self) -> tuple[int, ...]:
        """Ladder positions of bids allowed only in some situations (specials, inkles)."""
        return tuple(rank for rank, bid in enumerate(self.bid_ladder)
                     if bid.contract is not Contract.TRICKS
                     or (self.inkle and bid.tricks == 6))

    # -- derived facts --------------------------------------------------------------------------

    @cached_property
    def teams(self) -> tuple[tuple[int, ...], ...]:
        """The sides that keep a score, as seat tuples: partnerships for four and six players,
        one seat each for three and five (own scores)."""
        n = self.players
        if n == 4:
            return ((0, 2), (1, 3))
        if n == 6:
            if self.six_handed_teams == "two_teams_of_three":
                return ((0, 2, 4), (1, 3, 5))
            return ((0, 3), (1, 4), (2, 5))
        return tuple((seat,) for seat in range(n))

    @cached_property
    def side_of(self) -> tuple[int, ...]:
        """The side (index into :attr:`teams`) of each seat."""
        sides = [0] * self.players
        for side, seats in enumerate(self.teams):
            for seat in seats:
                sides[seat] = side
        return tuple(sides)

    @cached_property
    def dead_hands(self) -> int:
        """Hands of ten dealt to empty seats and out of play all hand (two players: the deck
        is dealt as for the players it is made for)."""
        return self.deck_spec.players - self.players

    @property
    def fixed_partners(self) -> bool:
        """True when every player has exactly one partner for the whole match."""
        return all(len(team) == 2 for team in self.teams)

    @cached_property
    def deck_spec(self) -> DeckSpec:
        """The deck in use."""
        return DECKS[self.deck]

    @cached_property
    def kitty_size(self) -> int:
        """Cards in the kitty."""
        return DECKS[self.deck].kitty

    @cached_property
    def bid_ladder(self) -> tuple[Bid, ...]:
        """Every bid these rules allow, lowest first: a bid must be later than the current one."""
        return tuple(sorted(self._allowed_bids(), key=self._order_key))

    @property
    def ladder_view(self) -> list[LadderRung]:
        """The bid ladder as views show it: each bid's text, name and value, lowest first
        (a bidding grid crosses out what lies below the current bid, shows values on hover)."""
        return [rung.copy() for rung in self._ladder_entries]

    @cached_property
    def shown_ladder(self) -> list[LadderRung]:
        """:attr:`ladder_view` built once: every view of these rules holds the same list (read
        it, never change it), as :attr:`shown_options`."""
        return self.ladder_view

    @cached_property
    def _ladder_entries(self) -> tuple[LadderRung, ...]:
        return tuple({"bid": bid.text, "name": bid.name, "value": bid.value}
                     for bid in self.bid_ladder)

    @cached_property
    def bid_rank(self) -> dict[Bid, int]:
        """Position of each allowed bid in :attr:`bid_ladder`."""
        return {bid: rank for rank, bid in enumerate(self.bid_ladder)}

    def _allowed_bids(self) -> list[Bid]:
        bids = list(TRICK_BIDS.values())
        if self.j5_no_trumps:
            bids.extend(J5_BIDS.values())
        for flag, kind in ((self.misere, Contract.MISERE),
                           (self.open_misere, Contract.OPEN_MISERE),
                           (self.nello, Contract.NELLO),
                           (self.across_the_corner, Contract.ACROSS_THE_CORNER),
                           (self.across_the_table, Contract.ACROSS_THE_TABLE),
                           (self.blind_misere, Contract.BLIND_MISERE),
                           (self.double_nullo, Contract.DOUBLE_NULLO),
                           (self.shields_double, Contract.SHIELDS_DOUBLE),
                           (self.patastrophe, Contract.PATASTROPHE),
                           (self.hi_lo, Contract.HI_LO)):
            if flag:
                bids.append(SPECIAL_BIDS[kind])
        return bids

    def _order_key(self, bid: Bid) -> tuple[int, int]:
        """Sort key of a bid: its value, with special contracts slotted per RULES.md 1.5."""
        after_sevens = (230, 0)  # between 7NT (220) and 8♠ (240)
        misere_slot = after_sevens if self.misere_placement == "after_seven" else (250, 0)
        return {
            Contract.TRICKS: (bid.value, 1),
            Contract.MISERE: misere_slot,
            Contract.NELLO: after_sevens,
            Contract.ACROSS_THE_CORNER: (misere_slot[0], 1),  # just above No Tricks
            Contract.OPEN_MISERE: (490, 0),  # between 10♦ (480) and 10♥ (500)
            Contract.ACROSS_THE_TABLE: (490, 1),  # just above Spread, below 10♥
            Contract.DOUBLE_NULLO: (490, 2),  # with Across The Table, its seed 004 twin
            Contract.SHIELDS_DOUBLE: (750, 0),
            Contract.BLIND_MISERE: (1000, 0),
            Contract.PATASTROPHE: (1000, 1),
            Contract.HI_LO: (370, 0),  # between 9♣ (360) and 9♦ (380)
            Contract.J5: (bid.value, 2),  # just above no trumps of the same level
        }[bid.contract]

    # -- validation -----------------------------------------------------------------------------

    def _validate(self) -> None:
        problems = []
        spec = DECKS[self.deck]
        if self.players not in (2, 3, 4, 5, 6):
            problems.append(f"500 is played by 2 to 6 players, not {self.players}")
        elif self.players == 2:
            if spec.players not in (3, 4):
                problems.append(f"two players use the 33 deck or a deck for four, not the "
                                f"{self.deck} deck (made for {spec.players} players)")
        elif spec.players != self.players:
            fitting = [name for name, d in DECKS.items() if d.players == self.players]
            problems.append(f"the {self.deck} deck is made for {spec.players} players, not "
                            f"{self.players}; with {self.players} players use deck "
                            f"{' or '.join(fitting)}")
        if self.six_handed_teams != "two_teams_of_three" and self.players != 6:
            problems.append("six_handed_teams only applies to six players")
        if self.players in (2, 3, 4, 5, 6) and not self.fixed_partners:
            partnered = [name for name in PARTNERSHIP_CONTRACTS if getattr(self, name)]
            if partnered:
                problems.append(f"{', '.join(partnered)} need every player to have one partner "
                                "(four players, or six in three teams of two)")
        if spec.jokers == 0:
            jokered = [name for name in ("joker_suit_nomination", "joker_lead_limits",
                                         "misere_joker_forced", "joker_low_in_misere")
                       if getattr(self, name)]
            if jokered:
                problems.append(f"the {self.deck} deck has no joker, so {', '.join(jokered)} "
                                "cannot apply")
        if self.wilkinson_misere:
            if not (self.misere or self.open_misere):
                problems.append("Wilkinson misère changes misère and open misère: allow one")
            if self.misere_placement == "after_seven" or self.open_misere_needs_misere:
                problems.append("under Wilkinson misère both misères may be bid any time: use "
                                "misere_placement 'by_value' and no open_misere_needs_misere")
        if self.open_misere_needs_misere and self.open_misere and not self.misere:
            problems.append("open misère that needs an earlier No Tricks bid requires misère")
        if (self.across_the_corner or self.across_the_table) and not self.misere:
            problems.append("Across The Corner and Across The Table follow a No Tricks bid, "
                            "so they require misère")
        if self.nello and self.misere:
            problems.append("Nello (seed 000) and misère are two forms of the same 250 "
                            "contract; allow one of them")
        if self.bidding == "single" and self.rebid == "any_time":
            problems.append("a single round of bidding has no re-bids; use rebid "
                            "'after_intervening_bid'")
        if self.target <= 0:
            problems.append("the target score must be positive")
        if self.lose_at is not None and self.lose_at >= 0:
            problems.append("lose_at must be negative (or null for no losing score)")
        if self.deals is not None and self.deals < 1:
            problems.append("a match of a fixed number of deals (deals) is at least 1 deal "
                            "(or null: played to the target)")
        if problems:
            raise RulesError("; ".join(problems))


OPTION_TYPES: dict[str, Any] = option_types(Rules)
"""The type of every option, in order."""


def option_catalogue() -> list[dict[str, Any]]:
    """Every rules option with its kind, allowed values, default and explanation, for forms
    (the lobby's "New table") and documentation."""
    return _catalogue(Rules)


_AUSTRALIAN_PLAY: dict[str, Any] = dict(
    bidding="until_passed", rebid="after_intervening_bid", misere=True,
    misere_placement="after_seven", open_misere=True, misere_failure="stop",
    all_pass="next_dealer", all_tricks_bonus="slam_250", nt_joker="only_when_void",
    defender_points="always", target=500, lose_at=-500, both_reach_target="contractor")
"""Pagat's Australian bidding and play, which the presets for two, three, five and six players keep
(whether a side must win its own bid to reach 500 differs)."""

Rules.PRESETS = {
    # Seed 002 (a 500 program's README): 43 cards, bidding until passed, re-bid only after an
    # intervening bid, redeal when all pass, 500 or more wins, -500 or less loses. Where the seed
    # is silent (defender points, the joker in no trumps, both sides reaching 500) the preset
    # follows the Australian standard rules.
    "classic": dict(deck="43", bidding="until_passed", rebid="after_intervening_bid",
                    all_pass="redeal", all_tricks_bonus="none", nt_joker="only_when_void",
                    defender_points="always", target=500, lose_at=-500, win_needs_bid=False,
                    both_reach_target="contractor"),
    # Pagat's Australian 500: 43 cards; misère (250) only after a seven is bid and placed
    # between 7NT and 8 spades; open misère (500) any time; deal passes when all pass; slam
    # bonus; a side reaches 500 only by winning its own bid. A misère that takes a trick ends
    # the hand there.
    "australian": dict(deck="43", **_AUSTRALIAN_PLAY, win_needs_bid=True),
    # Seed 000 (an American 500 page): 45 cards, 5-card widow, one round of bidding with the
    # dealer last, inkles by the first two players, Nello with partner's card for a side in the
    # hole (played on: opponents score 10 per trick the contractor takes), redeal when all
    # pass, grand slam 250, over 500 wins, 500 in the hole loses, contractor wins if both
    # sides pass 500 in the same hand; the joker in no trumps only when void.
    "american": dict(deck="45", bidding="single", rebid="after_intervening_bid", inkle=True,
                     nello=True, misere_failure="play_on", all_pass="redeal",
                     all_tricks_bonus="slam_250", nt_joker="only_when_void",
                     defender_points="always", target=500, target_strict=True, lose_at=-500,
                     win_needs_bid=False, both_reach_target="contractor"),
    # Seed 004 (the online site this card room follows): 45 cards, kitty of 5, bidding "bye"
    # until all but one have passed, No Tricks 250 at its value, Spread 500 only after a No
    # Tricks bid, Across The Corner 250 and Across The Table 500 (the seed's value table was
    # an image: 500 is taken from Grand nullo, placed just above Spread), all-pass hands played
    # in no trumps at 10 a trick, sweep +50, the joker playable any time in no trumps and
    # forced when void in no-tricks hands, 500 with the bid to win, -500 loses.
    "online": dict(deck="45", bidding="until_passed", rebid="after_intervening_bid",
                   misere=True, misere_placement="by_value", open_misere=True,
                   open_misere_needs_misere=True, across_the_corner=True,
                   across_the_table=True, misere_failure="play_on", all_pass="play_no_trump",
                   all_tricks_bonus="sweep_plus_50", nt_joker="play_any_time",
                   misere_joker_forced=True, defender_points="always", target=500,
                   lose_at=-500, win_needs_bid=True, both_reach_target="contractor"),
    # The US card makers' two-hand game (bicyclecards.com, "Two-Hand Five Hundred"): the pack
    # and the deal of the three-hand game, 33 cards, but the hand to the dealer's left is dealt
    # face down and is dead, out of play; 10 cards each, a widow of 3; the two play each for
    # themselves, a player at -500 loses. Bidding, misère and scoring as the three-handed
    # preset (the Australian rules for these); first to 500 wins, defence points count.
    "two-handed": dict(players=2, deck="33", **_AUSTRALIAN_PLAY, win_needs_bid=False),
    # RULES.md 1.7, from the US rules for three players: the 33-card deck, cut-throat (own
    # scores, the two defenders together against the contractor each hand), misère and open
    # misère as in the Australian game, deal passes when all pass, slam bonus, first player to
    # 500 wins (defence points count).
    "three-handed": dict(players=3, deck="33", **_AUSTRALIAN_PLAY, win_needs_bid=False),
    # RULES.md 1.7, from the US rules for five players: the 53-card deck, own scores, the
    # contractor calls a partner by naming a card after the kitty exchange (two partners on a
    # bid of eight or more), misère and open misère played alone, deal passes when all pass,
    # slam bonus, first to 500 wins.
    "five-handed": dict(players=5, deck="53", **_AUSTRALIAN_PLAY, win_needs_bid=False),
    # RULES.md 1.7: the 63-card deck, two teams of three alternating, otherwise the
    # Australian rules (misère after a seven, open misère any time, deal passes, slam bonus,
    # a side reaches 500 only on its own contract).
    "six-handed": dict(players=6, deck="63", six_handed_teams="two_teams_of_three",
                       **_AUSTRALIAN_PLAY, win_needs_bid=True),
}

ALL_PRESET_NAMES = tuple(Rules.PRESETS)
"""Every preset, the two-, three-, five- and six-handed ones included."""
PRESET_NAMES = tuple(name for name in ALL_PRESET_NAMES if Rules.PRESETS[name].get("players", 4)
                     == 4)
"""The four-player presets: what the tables (four seats today) and the rules pages offer.
:data:`ALL_PRESET_NAMES` adds the presets for two, three, five and six players."""

