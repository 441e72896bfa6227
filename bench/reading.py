"""How close the search bot's sampled deals come to the real hands, by way of reading calls.

Deals are bid by a mix of bots (by default the search bot's partnership against the rules
bot's: the bots the arena pits against each other), and when the card play starts each seat's
view is sampled as the search bot samples it for its first card
(:meth:`~cardroom.bots.five_hundred.search.Knowledge.sample`), in each reading style and
with no reading at all. For every other seat that called, the share of its real hand the
sampled hand holds is averaged: the better a reading, the more the samples hold the cards
that are really there. Printed with 95% intervals, by the reader's relation to the calling
seat, and as paired differences (each style samples the same views).

Run: ``python -m bench.reading [--deals 200] [--samples 20] [--preset online]
[--team-a search:fast] [--team-b rules] [--seed 1] [--misere]`` (``--misere``: only deals
bid to a misère, where the "contractor" column is its maker's hand).
"""

from __future__ import annotations

import json
import random
import statistics
from collections import defaultdict
from collections.abc import Iterator

import typer
from rich.console import Console
from rich.progress import track
from rich.table import Table

from cardroom.bots import make_bot
from cardroom.bots.five_hundred.knowledge import team_of
from cardroom.bots.five_hundred.reading import RulesReader, reading_style
from cardroom.bots.five_hundred.search import Knowledge
from cardroom.games.five_hundred import Game


def json_view(game: Game, seat: int) -> dict:
    """A seat's view as it would arrive over the wire."""
    return json.loads(json.dumps(game.view(seat)))

STYLES = ("none", "rules", "learned")
"""No reading (every deal that fits the cards seen weighs the same), then the two styles."""


def sampled_share(knowledge: Knowledge, real: list[int], rng: random.Random,
                  samples: int) -> dict[int, float]:
    """For each hidden seat, the mean share of its real remaining cards its sampled hands
    hold."""
    shares: dict[int, list[float]] = defaultdict(list)
    for _ in range(samples):
        hands = knowledge.sample(rng)
        if hands is None:
            continue
        for seat, cards in hands.items():
            size = real[seat].bit_count()
            if size:
                shares[seat].append((cards & real[seat]).bit_count() / size)
    return {seat: statistics.fmean(values) for seat, values in shares.items()}


def knowledge_in(view: dict, style: str) -> Knowledge:
    """The seat's knowledge at its first card, reading the calls in ``style``."""
    with reading_style("rules" if style == "none" else style):  # type: ignore[arg-type]
        knowledge = Knowledge(view)
    if style == "none":
        knowledge.reader = RulesReader((), 0, 0)
    return knowledge


def bid_deals(deals: int, preset: str, team_a: str, team_b: str, seed: int,
              misere: bool) -> Iterator[Game]:
    """Deals bid to their contract (``misere``: only those that end in a misère or an open
    misère, from up to fifty times as many deals)."""
    kept = 0
    for number in range(deals * (50 if misere else 1)):
        game = Game.new(preset, seed=seed * 100_003 + number)
        bots = [make_bot(team_a if seat % 2 == 0 else team_b, seed + seat) for seat in range(4)]
        while game.phase != "play" and not game.is_over:
            seat = game.to_act
            assert seat is not None
            game.apply(bots[seat].choose(json_view(game, seat)))
        bid = (game.view(0)["contract"] or {}).get("bid") if game.phase == "play" else None
        if bid is None or (misere and bid not in ("misere", "open-misere")):
            continue
        yield game
        kept += 1
        if kept == deals:
            return


def main(deals: int = 200, samples: int = 20, preset: str = "online",
         team_a: str = "search:fast", team_b: str = "rules", seed: int = 1,
         misere: bool = False) -> None:
    """Bid ``deals`` deals (``--misere``: deals whose contract is a misère), then compare the
    styles' samples at every seat's first card."""
    rng = random.Random(seed)
    found: dict[tuple[str, str], list[float]] = defaultdict(list)
    for game in track(bid_deals(deals, preset, team_a, team_b, seed, misere), total=deals,
                      description="deals"):
        contract = game.view(0)["contract"]
        for seat in range(4):
            view = json_view(game, seat)
            if view["hand_sizes"][seat] != 10:
                continue  # not before its first card: the contractor after the exchange
            for style in STYLES:
                knowledge = knowledge_in(view, style)
                shares = sampled_share(knowledge, list(game.hands), random.Random(rng.random()),
                                       samples)
                for other, share in shares.items():
                    relation = ("partner" if other in team_of(view, seat)
                                else "contractor" if contract and other == contract["contractor"]
                                else "opponent")
                    found[(style, relation)].append(share)
    table = Table(title=f"share of the real hand in the sampled one ({preset}, {deals} deals, "
                        f"{team_a} with {team_b})")
    table.add_column("reading")
    relations = sorted({relation for _, relation in found})
    for relation in relations:
        table.add_column(relation, justify="right")
    for style in STYLES:
        table.add_row(style, *(interval(found[(style, relation)]) for relation in relations))
    for better, worse in (("learned", "rules"), ("learned", "none"), ("rules", "none")):
        table.add_row(f"{better} − {worse} (paired)", *(
            interval([a - b for a, b in zip(found[(better, relation)],
                                            found[(worse, relation)], strict=True)])
            for relation in relations))
    Console().print(table)


def interval(values: list[float]) -> str:
    """The mean with its 95% interval's half width, and the count."""
    half = 1.96 * statistics.stdev(values) / len(values) ** 0.5 if len(values) > 1 else 0.0
    return f"{statistics.fmean(values):+.3f} ± {half:.3f} ({len(values)})"


if __name__ == "__main__":
    typer.run(main)
