"""1000 engine speed: random deals per second on one core, per preset; and, optionally, how
long the search bot takes per card played.

Random players look at their cards, pass 60% of the time and bid low (uniform bidding runs
to 300 and every contract fails), bet the lowest bet and play any legal card. A *deal* is
everything from the deal to its score.

Run: ``python bench/thousand.py [--seconds 3] [--search-decisions 0]``. Prints figures; copy
them to bench/RESULTS.md.
"""

from __future__ import annotations

import platform
import random
import statistics
import time

import typer

from cardroom.bots.thousand.rules_bot import ThousandRulesBot
from cardroom.bots.thousand.search import ThousandSearchBot
from cardroom.games.thousand import PRESET_NAMES, Action, Game


def random_action(rng: random.Random, game: Game) -> Action:
    """A legal action: look, mostly pass, bid low, bet low, play anything."""
    legal = list(game.legal_actions())
    if game.phase == "bidding":
        if legal[0].kind == "look":
            return legal[0]
        if legal[0].kind == "pass" and (len(legal) == 1 or rng.random() < 0.6):
            return legal[0]
        return rng.choice([a for a in legal if a.kind == "bid"][:2])
    return legal[0] if game.phase == "bet" else rng.choice(legal)


def deals_per_second(preset: str, seconds: float) -> tuple[float, float]:
    """Deals and actions per second of random play over ``seconds``."""
    rng = random.Random(1)
    deals = actions = seed = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        game = Game.new(preset, seed=seed)
        seed += 1
        while not game.is_over and len(game.history) < 50:
            game.apply(random_action(rng, game))
            actions += 1
        deals += len(game.history)
    elapsed = time.perf_counter() - started
    return deals / elapsed, actions / elapsed


def search_times(preset: str, decisions: int, level: str) -> list[float]:
    """Seconds the search bot takes per card it plays, against the rules bot."""
    times: list[float] = []
    seed = 0
    while len(times) < decisions:
        game = Game.new(preset, seed=seed)
        search, rules = ThousandSearchBot(seed, level), ThousandRulesBot(seed)
        seed += 1
        while not game.is_over and len(game.history) < 3 and len(times) < decisions:
            seat = game.to_act
            view = game.view(seat)
            if seat == 0 and game.phase == "play" and len(view["legal_actions"]) > 1:
                started = time.perf_counter()
                action = search.choose(view)
                times.append(time.perf_counter() - started)
            else:
                action = rules.choose(view)
            game.apply(action)
    return times


def main(seconds: float = 3.0, search_decisions: int = 0, level: str = "default") -> None:
    """Print deals/s per preset and, if asked, the search bot's time per decision."""
    print(f"CPython {platform.python_version()} on {platform.machine()}")
    for preset in PRESET_NAMES:
        deals, actions = deals_per_second(preset, seconds)
        print(f"{preset:8} random play: {deals:8,.0f} deals/s  {actions:10,.0f} actions/s")
    if search_decisions:
        print_search_times(search_decisions, level)


def print_search_times(decisions: int, level: str) -> None:
    """Print the search bot's time per card play on every preset: median, p99 and max."""
    for preset in PRESET_NAMES:
        times = sorted(search_times(preset, decisions, level))
        p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
        print(f"{preset:8} search ({level}): median {statistics.median(times):.3f} s, "
              f"p99 {p99:.3f} s, max {times[-1]:.3f} s over {len(times)} card plays")


if __name__ == "__main__":
    typer.run(main)
