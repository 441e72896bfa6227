"""After the fact: what was makeable with all cards visible, and what every card cost.

For each hand of a record, the double-dummy solver answers, at the start of the play, how many
tricks the contract's makers take with best play by everybody, in the contract's strain and in
every other (the par table), and, before every card, what each legal card would lead to: the
tricks the playing seat's side can still take before the card and after it, and the cards that
keep the most. A card that gives tricks away is a *slip*. The analysis reads every hand (it is
after the match), which no bot ever may: `cardroom analyse` prints it and the room's replays
show it (computed in the bot workers).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from cardroom.bots.five_hundred.aims import Aims, game_aims
from cardroom.bots.five_hundred.search import SearchBot
from cardroom.bots.five_hundred.solver import Position, move_values, solve
from cardroom.bots.reviews import call_review
from cardroom.games.cards import CARDS, Suit
from cardroom.games.five_hundred import Game, Record
from cardroom.games.five_hundred.actions import PLAY, Action
from cardroom.games.five_hundred.tricks import strain_for

MAX_SOLVED_PLAYERS = 4
"""The analysis solves at most four hands (two-, three- and four-handed 500: two players'
dead hands are out of play, so their hands alone are solved)."""
PAR_STRAINS: tuple[tuple[str, Suit | None], ...] = (
    ("S", Suit.SPADES), ("C", Suit.CLUBS), ("D", Suit.DIAMONDS), ("H", Suit.HEARTS),
    ("NT", None))
"""The strains of the par table, as bids name them, lowest first."""


@dataclass(frozen=True)
class CardVerdict:
    """One card of the play: what the playing seat's side could still take with best play by
    everybody before it and after it, and the cards that kept the most (``best``, empty when
    the card played was one of them)."""

    action: int
    """The card's place among the record's actions (from 0)."""
    trick: int
    seat: int
    played: str
    before: int
    after: int
    best: tuple[str, ...] = ()

    @property
    def lost(self) -> int:
        """Tricks the card gave away."""
        return self.before - self.after

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {"action": self.action, "trick": self.trick, "seat": self.seat,
                "played": self.played, "before": self.before, "after": self.after,
                "best": list(self.best), "lost": self.lost}


Slip = CardVerdict
"""A card that cost tricks (``lost`` > 0)."""


@dataclass
class HandAnalysis:
    """One hand: the contract, what was makeable double dummy, what was taken, every card.

    ``makers`` are the seats whose tricks the contract counts, as
    :func:`~cardroom.bots.five_hundred.aims.game_aims` decides (for no-tricks contracts they
    aim at none); ``makeable`` and ``taken`` count those seats' tricks; ``par`` is what the
    contractor's side would take in each strain as the cards lay when the play began (empty
    for no-tricks contracts). A Hi/Lo hand, whose bidder must take exactly five tricks, has
    no count the solver can aim at: ``makers`` is empty and ``makeable`` ``None``.
    """

    number: int
    contract: str | None
    contractor: int | None
    makers: tuple[int, ...]
    makeable: int | None = None
    taken: int = 0
    par: dict[str, int] = field(default_factory=dict)
    cards: list[CardVerdict] = field(default_factory=list)
    bidding: list[dict[str, Any]] = field(default_factory=list)
    """With a bidding review: every call of the hand beside the one the search bot's default
    level (bidding by the learned hand evaluator) makes in the same seat with what that seat
    knew (``action``, ``seat``, ``call``, ``bot``)."""

    @property
    def slips(self) -> list[CardVerdict]:
        """The cards that cost tricks."""
        return [card for card in self.cards if card.lost > 0]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {"number": self.number, "contract": self.contract,
                "contractor": self.contractor, "makers": list(self.makers),
                "makeable": self.makeable, "taken": self.taken, "par": self.par,
                "cards": [card.to_dict() for card in self.cards], "bidding": self.bidding}


def _verdict(game: Game, action: Action, aims: Aims, index: int) -> CardVerdict:
    """Solve every legal card of the seat to play and judge the one played, from its side's
    point of view."""
    position = Position.from_game(game)
    values = move_values(position, aims.counted, maximisers=aims.maximisers)
    seat = game.to_act
    assert seat is not None
    makers_side = seat in aims.maximisers
    left = position.tricks_left

    def own(value: int) -> int:
        return value if makers_side else left - value

    best = max(own(value) for value in values.values())
    nominated = int(action.nominated) if action.nominated is not None else None
    move = (action.card.index, nominated)
    if move not in values:  # a joker's named suit the search merged with an equivalent one
        values[move] = _value_after(game, action, aims)
    played = own(values[move])
    best_cards = () if played == best else tuple(
        _notation(card, named) for (card, named), value in sorted(values.items())
        if own(value) == best)
    return CardVerdict(action=index, trick=len(game.completed) + 1, seat=seat,
                       played=action.text[5:], before=best, after=played, best=best_cards)


def _value_after(game: Game, action: Action, aims: Aims) -> int:
    """The tricks the makers take from here on if ``action`` is played: those it wins them at
    once and those best play gives them after it."""
    after = game.copy()
    after.apply(action)
    before = sum(game.tricks_won[s] for s in aims.counted)
    if len(after.history) > len(game.history):  # the card ended the hand
        return sum(after.history[-1].tricks[s] for s in aims.counted) - before
    won = sum(after.tricks_won[s] for s in aims.counted) - before
    return won + solve(Position.from_game(after), aims.counted, maximisers=aims.maximisers)


def _notation(card: int, nominated: int | None) -> str:
    """A card as the play action writes it: ``JH``, or ``JK:H`` for a joker naming a suit."""
    text = CARDS[card].text
    return text if nominated is None else f"{text}:{Suit(nominated).letter}"


def check_solvable(game: Game) -> None:
    """``ValueError`` saying why if the solver cannot play this match's hands."""
    if game.players > MAX_SOLVED_PLAYERS:
        raise ValueError(f"the double-dummy solver plays at most {MAX_SOLVED_PLAYERS} hands; "
                         f"this match has {game.players} players")


def analyse(record: Record, max_hands: int | None = None,
            progress: Callable[[HandAnalysis], None] | None = None,
            only: int | None = None, review_bids: bool = False) -> list[HandAnalysis]:
    """The analysis of every hand played in ``record`` (the first ``max_hands`` if given;
    with ``only``, the hand of that number alone); ``progress(hand)`` with each hand as soon
    as it is analysed. ``review_bids`` adds each hand's bidding review."""
    blank = Record(game=record.game, rules=record.rules, seed=record.seed,
                   dealer=record.dealer, deal=record.deal)
    game = Game.replay(blank)
    check_solvable(game)
    hands: list[HandAnalysis] = []
    current: HandAnalysis | None = None
    calls: list[dict[str, Any]] = []
    for index, text in enumerate(record.actions):
        action = Action.parse(text)
        wanted = only is None or game.hand_number == only
        if wanted and review_bids and game.phase == "bidding":
            calls.append(call_review(SearchBot(seed=index), game, text, index))
        if wanted and game.phase == "play" and action.kind == PLAY:
            if current is None or current.number != game.hand_number:
                if max_hands is not None and len(hands) == max_hands:
                    break
                current = _start_hand(game)
                current.bidding, calls = calls, []
                hands.append(current)
            aims = game_aims(game)
            if aims is not None:
                current.cards.append(_verdict(game, action, aims, index))
        scored = len(game.history)
        game.apply(action)
        if current is not None and len(game.history) > scored:
            result = game.history[-1]
            if result.number == current.number:
                current.taken = sum(result.tricks[s] for s in current.makers)
                if progress is not None:
                    progress(current)
                if only is not None:
                    break
    return hands


def _start_hand(game: Game) -> HandAnalysis:
    """A hand whose play begins now: the double-dummy result of its contract, and the par
    table of its contractor's side."""
    aims = game_aims(game)
    contract = game.contract
    analysis = HandAnalysis(number=game.hand_number,
                            contract=contract.text if contract is not None else None,
                            contractor=game.contractor,
                            makers=() if aims is None else aims.counted)
    if aims is not None:
        position = Position.from_game(game)
        analysis.makeable = solve(position, aims.counted, maximisers=aims.maximisers)
        if aims.maximisers == aims.counted:  # a trick contract: its side wants tricks
            analysis.par = par_table(game, position, aims.counted)
    return analysis


def par_table(game: Game, position: Position, side: tuple[int, ...]) -> dict[str, int]:
    """The tricks ``side`` takes double dummy in each strain, the cards as they lie when the
    play begins (the same leader, the exchange done)."""
    rules = game.rules
    par: dict[str, int] = {}
    for name, trump in PAR_STRAINS:
        strain = strain_for(trump, colour_four=rules.deck_spec.colour_four)
        trial = Position(position.hands, strain, position.to_play, position.active,
                         joker_any_time=trump is None and rules.nt_joker == "play_any_time")
        par[name] = solve(trial, side)
    return par


def hands_to_analyse(record: Record, max_hands: int | None = None) -> int:
    """How many hands :func:`analyse` will report: those with cards played (an all-pass
    redeal has none), the first ``max_hands`` if given."""
    game = Game.replay(record)
    check_solvable(game)
    played = sum(1 for hand in game.history if any(hand.tricks))
    unfinished = int(game.phase == "play" and bool(game.completed or game.trick))
    total = played + unfinished
    return total if max_hands is None else min(total, max_hands)


def review_hand(record_text: str, hand: int) -> dict[str, Any]:
    """The analysis of hand number ``hand`` of a record's match with its bidding review,
    JSON-ready (what a bot worker answers the room with); ``ValueError`` if the solver cannot
    play it or the hand had no play."""
    found = analyse(Record.from_text(record_text), only=hand, review_bids=True)
    if not found:
        raise ValueError(f"hand {hand} had no cards played")
    return found[0].to_dict()
