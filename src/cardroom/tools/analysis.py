"""After the fact: what was makeable with all cards visible, and which plays cost tricks.

For each hand of a record, the double-dummy solver answers, at the start of the play, how many
tricks the contract's makers take with best play by everybody, and, before every card, what
each legal card would lead to. A card that gives away tricks compared with the best one is a
*slip*. The analysis reads every hand (it is after the match), which no bot ever may.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from cardroom.bots.five_hundred.aims import Aims, game_aims
from cardroom.bots.five_hundred.solver import Position, move_values, solve
from cardroom.games.cards import CARDS, Suit
from cardroom.games.five_hundred import Game, Record
from cardroom.games.five_hundred.actions import PLAY, Action
from cardroom.tools.terminal import Renderer, bid_text, card_text


@dataclass(frozen=True)
class Slip:
    """A card that cost its side ``lost`` tricks against the best card(s) in ``best``."""

    trick: int
    seat: int
    played: str
    best: tuple[str, ...]
    lost: int


@dataclass
class HandAnalysis:
    """One hand: the contract, what was makeable double dummy, what was taken, the slips.

    ``makers`` are the seats whose tricks the contract counts, as
    :func:`~cardroom.bots.five_hundred.aims.game_aims` decides (for no-tricks contracts they
    aim at none);
    ``makeable`` and ``taken`` count those seats' tricks. A Hi/Lo hand, whose bidder must take
    exactly five tricks, has no count the solver can aim at: ``makers`` is empty and
    ``makeable`` ``None``.
    """

    number: int
    contract: str | None
    contractor: int | None
    makers: tuple[int, ...]
    makeable: int | None = None
    taken: int = 0
    slips: list[Slip] = field(default_factory=list)


def _slip(game: Game, action: Action, aims: Aims) -> Slip | None:
    """Solve every legal card of the seat to play; a slip if the card played was worse."""
    position = Position.from_game(game)
    values = move_values(position, aims.counted, maximisers=aims.maximisers)
    seat = game.to_act
    pick = max if seat in aims.maximisers else min
    best = pick(values.values())
    nominated = int(action.nominated) if action.nominated is not None else None
    played = values[(action.card.index, nominated)]
    if played == best:
        return None
    best_cards = tuple(_notation(card, named) for (card, named), value in sorted(values.items())
                       if value == best)
    return Slip(trick=len(game.completed) + 1, seat=seat, played=action.text[5:],  # type: ignore[arg-type]
                best=best_cards, lost=abs(best - played))


def _notation(card: int, nominated: int | None) -> str:
    """A card as the play action writes it: ``JH``, or ``JK:H`` for a joker naming a suit."""
    text = CARDS[card].text
    return text if nominated is None else f"{text}:{Suit(nominated).letter}"


MAX_SOLVED_PLAYERS = 4
"""The analysis solves at most four hands (two-, three- and four-handed 500: two players'
dead hands are out of play, so their hands alone are solved)."""


def check_solvable(game: Game) -> None:
    """``ValueError`` saying why if the solver cannot play this match's hands."""
    if game.players > MAX_SOLVED_PLAYERS:
        raise ValueError(f"the double-dummy solver plays at most {MAX_SOLVED_PLAYERS} hands; "
                         f"this match has {game.players} players")


def analyse(record: Record, max_hands: int | None = None,
            progress: Callable[[HandAnalysis], None] | None = None) -> list[HandAnalysis]:
    """The analysis of every hand played in ``record`` (the first ``max_hands`` if given);
    ``progress(hand)`` with each hand as soon as it is analysed."""
    blank = Record(game=record.game, rules=record.rules, seed=record.seed,
                   dealer=record.dealer, deal=record.deal)
    game = Game.replay(blank)
    check_solvable(game)
    hands: list[HandAnalysis] = []
    current: HandAnalysis | None = None
    for text in record.actions:
        action = Action.parse(text)
        if game.phase == "play" and action.kind == PLAY:
            if current is None or current.number != game.hand_number:
                if max_hands is not None and len(hands) == max_hands:
                    break
                current = _start_hand(game)
                hands.append(current)
            aims = game_aims(game)
            slip = None if aims is None else _slip(game, action, aims)
            if slip is not None:
                current.slips.append(slip)
        scored = len(game.history)
        game.apply(action)
        if current is not None and len(game.history) > scored:
            result = game.history[-1]
            if result.number == current.number:
                current.taken = sum(result.tricks[s] for s in current.makers)
                if progress is not None:
                    progress(current)
    return hands


def _start_hand(game: Game) -> HandAnalysis:
    """A hand whose play begins now: the double-dummy result of its contract."""
    aims = game_aims(game)
    contract = game.contract
    analysis = HandAnalysis(number=game.hand_number,
                            contract=contract.text if contract is not None else None,
                            contractor=game.contractor,
                            makers=() if aims is None else aims.counted)
    if aims is not None:
        analysis.makeable = solve(Position.from_game(game), aims.counted,
                                  maximisers=aims.maximisers)
    return analysis


def hands_to_analyse(record: Record, max_hands: int | None = None) -> int:
    """How many hands :func:`analyse` will report: those with cards played (an all-pass
    redeal has none), the first ``max_hands`` if given."""
    game = Game.replay(record)
    check_solvable(game)
    played = sum(1 for hand in game.history if any(hand.tricks))
    unfinished = int(game.phase == "play" and bool(game.completed or game.trick))
    total = played + unfinished
    return total if max_hands is None else min(total, max_hands)


# -- the review as people read it ---------------------------------------------------------------


def hand_report(hand: HandAnalysis, renderer: Renderer) -> RenderableType:
    """One hand of the review: its contract and what was makeable and made, then each slip on
    a line of its own, wrapped under its own indent."""
    names = renderer.names
    title = Text()
    if hand.contract is None or hand.contractor is None:
        title.append("nobody bid; played in no trumps.")
    else:
        title.append_text(bid_text(renderer.style, hand.contract)).append(
            f" by {names[hand.contractor]}.")
    if hand.makeable is not None:
        counted = " & ".join(names[seat] for seat in hand.makers)
        take, they = ("takes", "") if len(hand.makers) == 1 else ("take", "they ")
        title.append(f" Double dummy {counted} {take} {hand.makeable}; {they}took {hand.taken}.")
    slips = Table.grid(padding=(0, 1))
    slips.add_column(width=1)
    slips.add_column(no_wrap=True)
    slips.add_column()
    for slip in hand.slips:
        slips.add_row("", f"trick {slip.trick}:", _slip_text(slip, names))
    if not hand.slips:
        slips.add_row("", "no card cost a trick.")
    heading = Table.grid(padding=(0, 1))
    heading.add_column(no_wrap=True, style="bold")
    heading.add_column()
    heading.add_row(f"Hand {hand.number}:", title)
    return Group(heading, slips)


def _slip_text(slip: Slip, names: tuple[str, ...]) -> Text:
    """``West played 6♥, 1 trick worse than A♥ or K♥``."""
    line = Text(f"{names[slip.seat]} played ").append_text(card_text(slip.played))
    line.append(f", {slip.lost} trick{'s' * (slip.lost != 1)} worse than ")
    best = [card_text(card) for card in slip.best]
    return line.append_text(Text(" or ").join(best))
