"""What weighing Across The Corner and Across The Table on sampled deals is worth at the table.

Deals of ``online`` (where both are allowed) are bid by the rules bot until a seat may bid
one of them, that is, after a misère call (the opponent's, or the partner's). From there the
hand is played out twice by the search bot in every seat (duplicate: the same cards, the same
seeds): once with the seat choosing among every legal call, once as it called before it
weighed these two (the rules bot's answer where the rules bot made one, else its own call
with both taken out of its choice). Where the two choices differ, the difference in the
hand's points for the seat's side is what the new choice earned. Printed: how often each kind
of call was made (before: in brackets), and the mean gain with a 95% interval over the deals
that differ and over all.

Run: ``python -m bench.no_tricks [--deals 80] [--seed 1] [--bot search] [--answer table]``
(``--answer table``: the first seat that may bid Across The Table, where ``corner``, the
default, takes the first that may bid Across The Corner).
"""

from __future__ import annotations

import json
import statistics
from collections import Counter
from collections.abc import Iterator

import typer
from rich.console import Console
from rich.progress import track
from rich.table import Table

from cardroom.bots import make_bot
from cardroom.games.five_hundred import Game

ANSWERS = ("bid across-the-corner", "bid across-the-table")
"""The calls that answer a misère."""


def json_view(game: Game, seat: int) -> dict:
    """A seat's view as it would arrive over the wire."""
    return json.loads(json.dumps(game.view(seat)))


def answerable_deals(deals: int, seed: int, answer: str) -> Iterator[Game]:
    """Deals bid by the rules bot up to the first seat that may make the call ``answer`` (from
    up to four hundred times as many deals)."""
    kept = 0
    for number in range(deals * 400):
        game = Game.new("online", seed=seed * 100_003 + number)
        bots = [make_bot("rules", seed + seat) for seat in range(4)]
        while game.phase == "bidding" and not game.is_over:
            seat = game.to_act
            assert seat is not None
            view = json_view(game, seat)
            if answer in view["legal_actions"]:
                yield game
                kept += 1
                if kept == deals:
                    return
                break
            game.apply(bots[seat].choose(view))


def choice(game: Game, bot_name: str, seed: int, answers: bool) -> str:
    """The seat to act's call: with the answers to a misère weighed, or as the bot called
    before it weighed them (the rules bot's answer where it made one, else the bot's call
    with the answers out of its choices)."""
    seat = game.to_act
    assert seat is not None
    view = json_view(game, seat)
    if not answers:
        by_rule = make_bot("rules", seed + seat).choose(view)
        if by_rule in ANSWERS:
            return by_rule
        view["legal_actions"] = [a for a in view["legal_actions"] if a not in ANSWERS]
    return make_bot(bot_name, seed + seat).choose(view)


def kind_of(call: str) -> str:
    """A call as counted: an answer to a misère by name, else a pass or another bid."""
    return call if call in ANSWERS or call == "pass" else "another bid"


def hand_points(game: Game, first: str, bot_name: str, seed: int) -> int:
    """The points the seat to act's side gains over the other in the rest of the hand, after
    ``first`` (its call), every seat then played by the bot."""
    game = game.copy()
    seat = game.to_act
    assert seat is not None
    side = game.view(seat)["side_of"][seat]
    before = list(game.view(None)["scores"])
    hand = game.view(None)["hand_number"]
    game.apply(first, seat)
    bots = [make_bot(bot_name, seed + other) for other in range(4)]
    while not game.is_over and game.view(None)["hand_number"] == hand:
        actor = game.to_act
        assert actor is not None
        game.apply(bots[actor].choose(json_view(game, actor)), actor)
    after = game.view(None)["scores"]
    gains = [new - old for new, old in zip(after, before, strict=True)]
    return gains[side] - gains[1 - side]


def interval(values: list[float]) -> str:
    """Mean and 95% interval."""
    if len(values) < 2:
        return f"{values[0]:+.1f}" if values else "–"
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / len(values) ** 0.5
    return f"{mean:+.1f} [{mean - half:+.1f}, {mean + half:+.1f}]"


def main(deals: int = 80, seed: int = 1, bot: str = "search",
         answer: str = "corner") -> None:
    """Play each deal where the seat may answer a misère (``answer``: ``corner``, an
    opponent's; ``table``, the partner's) out with and without the answers weighed."""
    console = Console()
    made: Counter[str] = Counter()
    before: Counter[str] = Counter()
    gains: list[float] = []
    differing: list[float] = []
    call = f"bid across-the-{answer}"
    for game in track(list(answerable_deals(deals, seed, call)), description="deals",
                      console=console):
        new = choice(game, bot, seed, answers=True)
        old = choice(game, bot, seed, answers=False)
        made[kind_of(new)] += 1
        before[kind_of(old)] += 1
        gain = 0.0
        if new != old:
            gain = float(hand_points(game, new, bot, seed) - hand_points(game, old, bot, seed))
            differing.append(gain)
        gains.append(gain)
    table = Table(title=f"online, {len(gains)} deals where the seat may {call} ({bot})")
    table.add_column("figure")
    table.add_column("value", justify="right")
    for call in sorted(set(made) | set(before)):
        table.add_row(f"calls: {call} (before)", f"{made[call]} ({before[call]})")
    table.add_row("deals where the call differs", str(len(differing)))
    table.add_row("gain per differing deal", interval(differing))
    table.add_row("gain per deal", interval(gains))
    console.print(table)


if __name__ == "__main__":
    typer.run(main)
