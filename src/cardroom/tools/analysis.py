"""After the fact: what was makeable with all cards visible, and which plays cost tricks.

For each hand of a record, the double-dummy solver answers, at the start of the play, how many
tricks the contract's makers take with best play by everybody, and, before every card, what
each legal card would lead to. A card that gives away tricks compared with the best one is a
*slip*. The analysis reads every hand (it is after the match), which no bot ever may.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from cardroom.bots.five_hundred.aims import Aims, game_aims
from cardroom.bots.five_hundred.solver import Position, move_values, solve
from cardroom.games.cards import CARDS
from cardroom.games.five_hundred import Game, Record
from cardroom.games.five_hundred.actions import PLAY, Action


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
    :func:`~cardroom.bots.aims.game_aims` decides (for no-tricks contracts they aim at none);
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
    best_cards = tuple(sorted({CARDS[card].text for (card, _), value in values.items()
                               if value == best}))
    return Slip(trick=len(game.completed) + 1, seat=seat, played=action.text[5:],  # type: ignore[arg-type]
                best=best_cards, lost=abs(best - played))


def analyse(record: Record, max_hands: int | None = None,
            progress: Callable[[int], None] | None = None) -> list[HandAnalysis]:
    """The analysis of every hand played in ``record`` (the first ``max_hands`` if given);
    ``progress(hand_number)`` after each hand."""
    blank = Record(game=record.game, rules=record.rules, seed=record.seed,
                   dealer=record.dealer, deal=record.deal)
    game = Game.replay(blank)
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
                    progress(current.number)
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
