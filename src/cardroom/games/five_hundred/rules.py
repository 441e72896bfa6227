"""The rules of a game of 500: every option that differs between sources, and named presets.

A :class:`Rules` value is a frozen bundle of options. ``Rules.preset("online")`` gives a named
bundle (RULES.md 1.7); ``Rules.from_dict({"preset": "australian", "all_pass": "redeal"})``
builds house rules on top of a preset, refusing impossible combinations with a clear reason.
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import re
import textwrap
from dataclasses import dataclass
from functools import cache, cached_property
from itertools import pairwise
from typing import Any, ClassVar, Literal, get_args, get_type_hints

from cardroom.games.cards import CARDS, JOKER_INDEX, Rank, Suit
from cardroom.games.five_hundred.bids import SPECIAL_BIDS, TRICK_BIDS, Bid, Contract

DeckName = Literal["43", "45"]
BiddingStyle = Literal["until_passed", "single"]
RebidRule = Literal["after_intervening_bid", "any_time"]
AllPassRule = Literal["redeal", "redeal_then_pass_deal", "next_dealer", "play_no_trump",
                      "dealer_must_bid"]
FirstLead = Literal["contractor", "dealer_left"]
MiserePlacement = Literal["after_seven", "by_value"]
MisereFailure = Literal["stop", "play_on"]
NoTrumpJoker = Literal["play_any_time", "only_when_void"]
AllTricksBonus = Literal["none", "slam_250", "sweep_plus_50"]
DefenderPoints = Literal["always", "none"]
BothReachTarget = Literal["contractor", "higher_score"]


class RulesError(ValueError):
    """House rules that cannot be played (unknown option, bad value, impossible mix)."""


@dataclass(frozen=True)
class DeckSpec:
    """A four-player deck: which cards are in it and how many go to the kitty."""

    name: str
    lowest_rank: Rank
    red_fours_only: bool
    kitty: int
    description: str

    @cached_property
    def mask(self) -> int:
        """Bit mask of every card of the deck (including the joker)."""
        mask = 1 << JOKER_INDEX
        for suit in Suit:
            for rank in Rank:
                if rank < self.lowest_rank or rank in (Rank.ELEVEN, Rank.TWELVE, Rank.THIRTEEN):
                    continue
                if rank == Rank.FOUR and self.red_fours_only and not suit.is_red:
                    continue
                mask |= 1 << (suit * 16 + rank)
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
    "43": DeckSpec("43", Rank.FOUR, True, 3,
                   "43 cards: A to 5 in every suit, the red 4s and one joker; kitty of 3"),
    "45": DeckSpec("45", Rank.FOUR, False, 5,
                   "45 cards: A to 4 in every suit and one joker; kitty of 5"),
}


@dataclass(frozen=True)
class Rules:
    """Options of a four-player game of 500 (RULES.md section 1). Field docs say what each does."""

    deck: DeckName = "45"
    """Which deck (RULES.md 1.1): ``43`` (kitty 3) or ``45`` (kitty 5)."""
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
    misere_failure: MisereFailure = "stop"
    """When a no-tricks contract takes a trick: ``stop`` the hand there, or ``play_on`` so the
    defenders score 10 for every trick the makers take (seed 004)."""
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
    all_tricks_bonus: AllTricksBonus = "none"
    """Reward for taking all ten tricks: ``slam_250`` (a contract worth less than 250 scores
    250), ``sweep_plus_50`` (6–9 trick bids add 50), or ``none``."""
    defender_points: DefenderPoints = "always"
    """Defenders score 10 per trick they take (per trick the makers take, in no-tricks
    contracts), ``always`` or ``none``."""
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

    players: ClassVar[int] = 4
    teams: ClassVar[tuple[tuple[int, int], tuple[int, int]]] = ((0, 2), (1, 3))

    PRESETS: ClassVar[dict[str, dict[str, Any]]]

    def __post_init__(self) -> None:
        self._validate()

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def preset(cls, name: str) -> Rules:
        """A named preset: ``classic``, ``australian``, ``american`` or ``online``."""
        if name not in cls.PRESETS:
            raise RulesError(f"unknown preset {name!r}; choose one of: "
                             f"{', '.join(cls.PRESETS)}")
        return _preset(name)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """Rules from a dict of options; a ``preset`` key gives the starting point."""
        if not isinstance(data, dict):
            raise RulesError("rules must be a mapping of option names to values")
        data = dict(data)
        preset = data.pop("preset", "online")
        if not isinstance(preset, str) or preset not in cls.PRESETS:
            raise RulesError(f"unknown preset {preset!r}; choose one of: "
                             f"{', '.join(cls.PRESETS)}")
        base = cls.PRESETS[preset]
        unknown = sorted(set(data) - OPTION_TYPES.keys())
        if unknown:
            raise RulesError(f"unknown rules option(s): {', '.join(unknown)}; known options: "
                             f"{', '.join(OPTION_TYPES)}")
        for key, value in data.items():
            _check_option_type(key, value)
        return cls(**{**base, **data})

    def to_dict(self) -> dict[str, Any]:
        """Every option and its value (JSON-ready); ``from_dict`` of it gives back these rules."""
        return dict(self._options)

    @cached_property
    def _options(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def replace(self, **changes: Any) -> Rules:
        """These rules with some options changed (validated like any other)."""
        for key, value in changes.items():
            if key not in OPTION_TYPES:
                raise RulesError(f"unknown rules option: {key}")
            _check_option_type(key, value)
        return dataclasses.replace(self, **changes)

    @cached_property
    def preset_name(self) -> str | None:
        """The name of the preset these rules equal, if any."""
        return next((name for name in self.PRESETS if Rules.preset(name) == self), None)

    @cached_property
    def gated_bids(self) -> tuple[int, ...]:
        """Ladder positions of bids allowed only in some situations (specials, inkles)."""
        return tuple(rank for rank, bid in enumerate(self.bid_ladder)
                     if bid.contract is not Contract.TRICKS
                     or (self.inkle and bid.tricks == 6))

    # -- derived facts --------------------------------------------------------------------------

    @property
    def deck_spec(self) -> DeckSpec:
        """The deck in use."""
        return DECKS[self.deck]

    @property
    def kitty_size(self) -> int:
        """Cards in the kitty."""
        return DECKS[self.deck].kitty

    @cached_property
    def bid_ladder(self) -> tuple[Bid, ...]:
        """Every bid these rules allow, lowest first: a bid must be later than the current one."""
        return tuple(sorted(self._allowed_bids(), key=self._order_key))

    @property
    def ladder_view(self) -> list[dict[str, Any]]:
        """The bid ladder as views show it: each bid's text, name and value, lowest first
        (a bidding grid crosses out what lies below the current bid, shows values on hover)."""
        return [dict(entry) for entry in self._ladder_entries]

    @cached_property
    def _ladder_entries(self) -> tuple[dict[str, Any], ...]:
        return tuple({"bid": bid.text, "name": bid.name, "value": bid.value}
                     for bid in self.bid_ladder)

    @cached_property
    def bid_rank(self) -> dict[Bid, int]:
        """Position of each allowed bid in :attr:`bid_ladder`."""
        return {bid: rank for rank, bid in enumerate(self.bid_ladder)}

    def _allowed_bids(self) -> list[Bid]:
        bids = list(TRICK_BIDS.values())
        for flag, kind in ((self.misere, Contract.MISERE),
                           (self.open_misere, Contract.OPEN_MISERE),
                           (self.nello, Contract.NELLO),
                           (self.across_the_corner, Contract.ACROSS_THE_CORNER),
                           (self.across_the_table, Contract.ACROSS_THE_TABLE)):
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
        }[bid.contract]

    # -- validation -----------------------------------------------------------------------------

    def _validate(self) -> None:
        for key in OPTION_TYPES:
            _check_option_type(key, getattr(self, key))
        problems = []
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
        if problems:
            raise RulesError("; ".join(problems))


OPTION_TYPES: dict[str, Any] = {
    f.name: get_type_hints(Rules)[f.name] for f in dataclasses.fields(Rules)
}


def _field_docstrings(cls: type) -> dict[str, str]:
    """The docstring written under each field of a class (the single source of option help)."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    body = tree.body[0].body  # type: ignore[attr-defined]
    docs = {}
    for statement, following in pairwise(body):
        if (isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name)
                and isinstance(following, ast.Expr)
                and isinstance(following.value, ast.Constant)
                and isinstance(following.value.value, str)):
            docs[statement.target.id] = " ".join(following.value.value.split())
    return docs


def _for_players(doc: str) -> str:
    """A field docstring as players read it: no code quotes, no references to our sources."""
    doc = re.sub(r"``([^`]*)``", r"\1", doc)
    return re.sub(r"\s*\((?:RULES\.md [0-9.]+|seeds? [0-9, /]+)\)", "", doc)


def option_catalogue() -> list[dict[str, Any]]:
    """Every rules option with its kind, allowed values, default and explanation, for forms
    (the lobby's "New table") and documentation."""
    docs = _field_docstrings(Rules)
    defaults = Rules()
    catalogue = []
    for name, kind in OPTION_TYPES.items():
        choices = [c for c in get_args(kind) if c is not type(None)]
        entry: dict[str, Any] = {"name": name, "default": getattr(defaults, name),
                                 "doc": _for_players(docs.get(name, ""))}
        if kind is bool:
            entry["kind"] = "bool"
        elif kind is int or choices == [int]:
            entry["kind"] = "int"
            entry["nullable"] = kind is not int
        else:
            entry["kind"] = "choice"
            entry["choices"] = list(choices)
        catalogue.append(entry)
    return catalogue


def _check_option_type(key: str, value: Any) -> None:
    """Refuse a value that is not of the option's type, naming the allowed values."""
    expected = OPTION_TYPES[key]
    choices = get_args(expected)
    if expected is bool:
        ok = isinstance(value, bool)
        allowed = "true or false"
    elif expected is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
        allowed = "a whole number"
    elif type(None) in choices:
        ok = value is None or (isinstance(value, int) and not isinstance(value, bool))
        allowed = "a whole number or null"
    else:
        ok = value in choices
        allowed = "one of " + ", ".join(repr(c) for c in choices)
    if not ok:
        raise RulesError(f"rules option {key!r} must be {allowed}, not {value!r}")


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
    "australian": dict(deck="43", bidding="until_passed", rebid="after_intervening_bid",
                       misere=True, misere_placement="after_seven", open_misere=True,
                       misere_failure="stop", all_pass="next_dealer",
                       all_tricks_bonus="slam_250", nt_joker="only_when_void",
                       defender_points="always", target=500, lose_at=-500,
                       win_needs_bid=True, both_reach_target="contractor"),
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
}

PRESET_NAMES = tuple(Rules.PRESETS)


@cache
def _preset(name: str) -> Rules:
    """Presets are immutable, so each is built (and its bid ladder sorted) once."""
    return Rules(**Rules.PRESETS[name])
