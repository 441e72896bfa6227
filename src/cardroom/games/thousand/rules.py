"""The rules of a game of 1000: every option that differs between sources, and named presets.

A :class:`Rules` value is a frozen bundle of options (RULES.md section 2). ``Rules.preset("seed")``
is the card site of seed 003 exactly; ``Rules.preset("russian")`` the Russian game as pagat
describes it; ``Rules.from_dict({"preset": "russian", "players": 4})`` builds house rules on
top of a preset, refusing impossible combinations with a clear reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from cardroom.games.options import PresetRules, option_catalogue, option_types

BankUse = Literal["discard", "give"]
MarriageTiming = Literal["when_leading", "after_first_trick"]
Rounding = Literal["tens", "fives", "none"]
BarrelCount = Literal["without_bank", "on_barrel"]
FirstDealer = Literal["host", "random"]


class RulesError(ValueError):
    """House rules that cannot be played (unknown option, bad value, impossible mix)."""


@dataclass(frozen=True)
class Rules(PresetRules):
    """Options of a game of 1000 (RULES.md section 2). The defaults are the ``seed`` preset."""

    players: int = 3
    """Players at the table: 3, or 4 with the dealer sitting out each deal (dealing only)."""
    bid_step: int = 10
    """Bids go up in steps of 10 (seed 003) or 5 (pagat)."""
    min_bid: int = 100
    """The lowest bid."""
    max_bid: int = 300
    """The highest bid (and final bet)."""
    first_bidder_must_bid: bool = True
    """The player after the dealer must open with at least the lowest bid; otherwise, when
    everybody passes, the deal is void and passes to the left."""
    marriage_cap: int | None = None
    """Bids (and final bets) above this need a marriage in hand (pagat: 120); null: no cap.
    A player bidding blind has not looked, so cannot go above it."""
    blind_bidding: bool = True
    """Players may bid before looking at their cards; when the winning bid was blind, every
    player's points of the deal are doubled and the bank is shown to nobody."""
    bank_shown: bool = True
    """The bank is turned face up for all to see when the bidding ends (not after a blind
    winning bid); otherwise only the player taking it sees it."""
    bank_use: BankUse = "discard"
    """After taking the bank the contractor ``discard``s three cards face down (seed 003), or
    ``give``s one card face down to each opponent (pagat), so that everyone holds eight."""
    raise_after_bank: bool = True
    """After taking the bank the contractor names a final bet: the winning bid or more, never
    less. Otherwise the winning bid is the contract."""
    must_trump: bool = False
    """A player who cannot follow suit must play a trump if holding one (pagat); otherwise any
    card may be played (seed 003)."""
    marriage_timing: MarriageTiming = "when_leading"
    """A marriage is declared by leading its king or queen: ``when_leading`` on any trick
    (seed 003), or ``after_first_trick``: only after winning a trick, never on the first (pagat)."""
    count_discards: bool = True
    """The card points of the contractor's discards count for the contractor."""
    opponent_rounding: Rounding = "tens"
    """Opponents' card points are rounded to the nearest ``tens`` (36 → 40, seed 003),
    ``fives`` (51 → 50, 53 → 55, pagat) or not at all (``none``); halves go up."""
    barrel: int | None = 880
    """At this score or more a player is "on the barrel" and scores nothing as an opponent;
    null: no barrel."""
    barrel_hold: bool = False
    """A score reaching the barrel is held there; it only goes on to the target with a
    contract made (pagat). Otherwise scores grow freely (seed 003)."""
    barrel_deals: int = 3
    """Deals a player may stay on the barrel before paying the barrel penalty."""
    barrel_count: BarrelCount = "without_bank"
    """Which deals on the barrel count: those ``without_bank`` (taking the bank starts the
    count again, seed 003) or every deal ``on_barrel`` (three deals to make it, pagat)."""
    barrel_penalty: int = 120
    """Points lost when the barrel deals run out; the player comes off the barrel."""
    bolts: int | None = None
    """Every this many deals in which a player takes no trick (a "bolt") cost the bolt
    penalty (pagat: 3); null: no bolts."""
    bolt_penalty: int = 120
    """Points lost for each full set of bolts."""
    target: int = 1000
    """The score that wins the game (reaching it is enough)."""
    first_dealer: FirstDealer = "host"
    """Who deals first: the ``host`` who opened the table (seat 0, seed 003) or a ``random``
    player (drawn from the game's seed). The deal then passes clockwise."""
    deals: int | None = None
    """The match ends after this many deals (a deal everybody passed counts) if nobody has
    reached the target by then: the highest score wins, an exact tie going to the contractor
    of the last deal if among the tied, else to the lowest seat (null: played to the target,
    as every preset does)."""

    DEFAULT_PRESET: ClassVar[str] = "seed"
    ERROR: ClassVar[type[Exception]] = RulesError

    # -- derived facts --------------------------------------------------------------------------

    def bid_values(self, above: int | None, capped: bool) -> range:
        """The bids allowed over ``above`` (``None``: no bid yet), in order; ``capped`` keeps
        them within :attr:`marriage_cap`."""
        low = self.min_bid if above is None else above + self.bid_step
        top = self.max_bid
        if capped and self.marriage_cap is not None:
            top = min(top, self.marriage_cap)
        return range(low, top + 1, self.bid_step)

    def round_opponent(self, points: int) -> int:
        """An opponent's card points as scored (see :attr:`opponent_rounding`)."""
        unit = {"tens": 10, "fives": 5, "none": 1}[self.opponent_rounding]
        return (points + unit // 2) // unit * unit

    # -- validation -----------------------------------------------------------------------------

    def _validate(self) -> None:
        problems = []
        if self.players not in (3, 4):
            problems.append("1000 is played by 3 players, or 4 with the dealer sitting out")
        if self.bid_step not in (5, 10):
            problems.append("bids go up in steps of 5 or 10")
        if self.min_bid <= 0 or self.min_bid % self.bid_step:
            problems.append("the lowest bid must be a positive multiple of the bid step")
        if self.max_bid < self.min_bid:
            problems.append("the highest bid must not be below the lowest")
        if self.marriage_cap is not None and self.marriage_cap < self.min_bid:
            problems.append("the cap without a marriage must allow the lowest bid")
        if self.target <= 0:
            problems.append("the target score must be positive")
        if self.barrel is not None and not 0 < self.barrel < self.target:
            problems.append("the barrel must lie between 0 and the target")
        if self.barrel_deals < 1 or (self.bolts is not None and self.bolts < 1):
            problems.append("barrel deals and bolts count at least 1")
        if self.deals is not None and self.deals < 1:
            problems.append("a match of a fixed number of deals (deals) is at least 1 deal "
                            "(or null: played to the target)")
        if problems:
            raise RulesError("; ".join(problems))


OPTION_TYPES: dict[str, Any] = option_types(Rules)
"""The type of every option, in order."""


def thousand_option_catalogue() -> list[dict[str, Any]]:
    """Every 1000 option with its kind, allowed values, default and help (for forms)."""
    return option_catalogue(Rules)


Rules.PRESETS = {
    # Seed 003 (a 1000 site's rules page), exactly: bids 100-300 by tens, the first bidder must
    # bid, blind bids double every player's points, the bank shown to all in open mode, three
    # discards that count for the contractor, a final bet at least the bid, any card when not
    # following, marriages declared when leading, opponents rounded to tens, the barrel at 880
    # (no points as an opponent, -120 after three deals without the bank), the host deals first.
    "seed": dict(players=3, bid_step=10, min_bid=100, max_bid=300, first_bidder_must_bid=True,
                 marriage_cap=None, blind_bidding=True, bank_shown=True, bank_use="discard",
                 raise_after_bank=True, must_trump=False, marriage_timing="when_leading",
                 count_discards=True, opponent_rounding="tens", barrel=880,
                 barrel_hold=False, barrel_deals=3, barrel_count="without_bank",
                 barrel_penalty=120, bolts=None, bolt_penalty=120, target=1000,
                 first_dealer="host"),
    # Pagat's Russian 1000: bids by fives from 100 (the first bidder must bid), nothing above
    # 120 without a marriage, no blind bids, the bank shown, one card given to each opponent,
    # a final bet that may raise but never lower, must trump when void, marriages only after
    # winning a trick, opponents rounded to the nearest 5, the barrel held at 880 with three
    # deals to make a contract, three bolts cost 120, a random first dealer. Pagat names no
    # highest bid; 300 is kept from seed 003.
    "russian": dict(players=3, bid_step=5, min_bid=100, max_bid=300, first_bidder_must_bid=True,
                    marriage_cap=120, blind_bidding=False, bank_shown=True, bank_use="give",
                    raise_after_bank=True, must_trump=True,
                    marriage_timing="after_first_trick", count_discards=True,
                    opponent_rounding="fives", barrel=880, barrel_hold=True, barrel_deals=3,
                    barrel_count="on_barrel", barrel_penalty=120, bolts=3, bolt_penalty=120,
                    target=1000, first_dealer="random"),
}

PRESET_NAMES = tuple(Rules.PRESETS)

