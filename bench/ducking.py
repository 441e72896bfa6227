"""What ducking under a no-tricks maker's winning card is worth (the search bot's
:func:`~cardroom.bots.five_hundred.search.takes_trick_from_maker`).

Deals of ``online`` are bid by the rules bot; those that end in a misère-type contract are
played out twice by the default bot in every seat (its default level's sample caps with no
clock, so that the machine's load changes nothing): once as it plays, leaving the maker's
winning card alone when a duck scores as well within the sampling noise, and once with the
duck given no preference. The two playouts share every seed, so they differ only from the
first defender's choice the preference changed. At each choice of the first, a copy of the
bot (the same sampled deals) chooses without the preference too.

Printed for the choices the preference changed: how each would have fared by the exact solver
on the whole deal (the maker's tricks from there on with best play by everybody: the duck
gains where the maker then takes a trick it would not have, loses in the other case), and for
the hands: how often the maker was set each way, and the defence's points.

Run: ``python -m bench.ducking [--deals 150] [--seed 1] [--jobs 2] [--noise 2.0]``.
"""

from __future__ import annotations

import copy
import json
import math
import multiprocessing
from collections import Counter
from collections.abc import Iterator
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field, replace
from unittest import mock

import typer
from rich.console import Console
from rich.progress import track
from rich.table import Table

from cardroom.bots import Bot, make_bot
from cardroom.bots.five_hundred import search
from cardroom.bots.five_hundred.aims import game_aims
from cardroom.bots.five_hundred.analysis import _value_after
from cardroom.bots.five_hundred.search import SearchBot
from cardroom.games.five_hundred import Game
from cardroom.games.five_hundred.actions import Action
from cardroom.tools.arena import mean


def json_view(game: Game, seat: int) -> dict:
    """A seat's view as it would arrive over the wire."""
    return json.loads(json.dumps(game.view(seat)))


def misere_deals(deals: int, seed: int) -> Iterator[Game]:
    """Deals bid by the rules bot to a misère-type contract, at its first card."""
    kept = 0
    number = 0
    while kept < deals:
        game = Game.new("online", seed=seed * 100_003 + number)
        number += 1
        bots = [make_bot("rules", seed + seat) for seat in range(4)]
        while game.phase not in ("play", "over"):
            seat = game.to_act
            assert seat is not None
            game.apply(bots[seat].choose(json_view(game, seat)))
        bid = game.contract
        if game.phase == "play" and bid is not None and bid.is_misere_type:
            kept += 1
            yield game


def ducks(ducking: bool) -> AbstractContextManager[object]:
    """The search bot as it plays (``ducking``), or with only a partner's sure winner left
    alone."""
    if ducking:
        return nullcontext()
    return mock.patch.object(search, "LEFT_ALONE", search.LEFT_ALONE[:1])


def set_noise(noise: float) -> None:
    """Give the duck ``noise`` standard errors (in this process)."""
    search.LEFT_ALONE = (search.LEFT_ALONE[0], (search.takes_trick_from_maker, noise))


@dataclass
class Tally:
    """What the preference changed."""

    verdicts: Counter[str] = field(default_factory=Counter)
    """Changed choices by the exact solver: ``gained``, ``lost``, ``same``."""
    set_by: Counter[str] = field(default_factory=Counter)
    """Hands by who set the maker: ``both``, ``neither``, ``ducking``, ``not ducking``."""
    points: list[int] = field(default_factory=list)
    """The defence's points per hand, ducking less not ducking."""


def default_bot(seed: int) -> Bot:
    """The default bot at its default level's caps on samples, with no clock: the machine's
    load changes none of its choices, and a copy of it chooses as it would."""
    bot = SearchBot(seed=seed)
    bot.level = replace(search.LEVELS["default"], budget=math.inf)
    return bot


def playout(game: Game, seed: int, ducking: bool, tally: Tally | None) -> Game:
    """The hand played out by the default bot in every seat; with ``tally``, every choice
    the duck's preference changes is judged by the exact solver."""
    game = game.copy()
    bots = [default_bot(seed + seat) for seat in range(4)]
    hands = len(game.history)
    while len(game.history) == hands and not game.is_over:
        seat = game.to_act
        assert seat is not None
        view = json_view(game, seat)
        twin = copy.deepcopy(bots[seat]) if tally is not None else None
        with ducks(ducking):
            action = bots[seat].choose(view)
        if twin is not None and tally is not None:
            with ducks(False):
                plain = twin.choose(view)
            if plain != action:
                tally.verdicts[_verdict(game, action, plain)] += 1
        game.apply(action)
    return game


def _verdict(game: Game, action: str, plain: str) -> str:
    """``gained``, ``same`` or ``lost``: the duck ``action`` against the ``plain`` choice the
    same bot made without the preference, by the exact solver on the whole deal."""
    aims = game_aims(game)
    assert aims is not None
    ducked = _value_after(game, Action.parse(action), aims)
    taken = _value_after(game, Action.parse(plain), aims)
    return "gained" if ducked > taken else "lost" if ducked < taken else "same"


def defence_points(game: Game) -> tuple[bool, int]:
    """Whether the last hand's maker was set, and the defence's points for it."""
    hand = game.history[-1]
    defence = next(side for side, seats in enumerate(game.teams)
                   if hand.contractor not in seats)
    return hand.made is False, hand.points[defence]


def measure(work: tuple[int, Game, int, float]) -> Tally:
    """One hand played out both ways (in a worker process): its tally alone."""
    number, game, seed, noise = work
    set_noise(noise)
    tally = Tally()
    hand_seed = seed * 1000 + number
    (set_ducking, points_ducking), (set_plain, points_plain) = (
        defence_points(playout(game, hand_seed, ducking, tally if ducking else None))
        for ducking in (True, False))
    tally.set_by[{(True, True): "both", (False, False): "neither",
                  (True, False): "ducking", (False, True): "not ducking"}[
                      (set_ducking, set_plain)]] += 1
    tally.points.append(points_ducking - points_plain)
    return tally


def main(deals: int = typer.Option(150, help="Misère-type hands to play."),
         seed: int = typer.Option(1), jobs: int = typer.Option(2, help="Worker processes."),
         noise: float = typer.Option(search.DUCK_NOISE, help="The duck's standard errors.")
         ) -> None:
    """Play the hands both ways and print the tallies."""
    tally = Tally()
    work = [(number, game, seed, noise) for number, game in enumerate(misere_deals(deals, seed))]
    with multiprocessing.Pool(jobs) as pool:
        for one in track(pool.imap_unordered(measure, work), total=deals,
                         description="misère hands"):
            tally.verdicts += one.verdicts
            tally.set_by += one.set_by
            tally.points += one.points
    table = Table(title=f"Ducking under the maker within {noise} standard errors, "
                        f"{deals} misère-type hands of online")
    table.add_column("figure")
    table.add_column("count", justify="right")
    for verdict in ("gained", "same", "lost"):
        table.add_row(f"changed choices, exact solver: {verdict}",
                      str(tally.verdicts[verdict]))
    for who in ("both", "ducking", "not ducking", "neither"):
        table.add_row(f"hands, maker set by: {who}", str(tally.set_by[who]))
    changed = [points for points in tally.points if points]
    gain = mean([float(points) for points in tally.points])
    table.add_row("defence's points a hand, ducking less not",
                  f"{gain} ({len(changed)} hands differ)")
    Console().print(table)


if __name__ == "__main__":
    typer.run(main)
