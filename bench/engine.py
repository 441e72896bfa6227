"""Engine speed: complete random hands and random actions per second on one core, per preset.

A "hand" is everything from the deal to the score: bidding, kitty exchange, ten tricks (fewer
when a no-tricks contract stops early) and scoring. Deals that everybody passed and that were
dealt again are not counted as hands (their actions are counted). Two policies drive the games:

- ``uniform``: every legal action equally likely (bidding runs up fast, hands are short);
- ``passive``: passes 80% of the time in the bidding, so more hands are all-pass or low
  contracts and matches run for many hands, like real play.

Run: ``python bench/engine.py [--seconds 3]``. Prints a table; copy it to bench/RESULTS.md.
"""

from __future__ import annotations

import platform
import random
import time
from collections.abc import Callable

import typer
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from cardroom.games.five_hundred import PRESET_NAMES, Game

Policy = Callable[[random.Random, Game], object]


def uniform(rng: random.Random, game: Game) -> object:
    """Any legal action, each equally likely."""
    return rng.choice(game.legal_actions())


def passive(rng: random.Random, game: Game) -> object:
    """Like ``uniform``, but pass 80% of the time when passing is allowed."""
    actions = game.legal_actions()
    if game.phase == "bidding" and rng.random() < 0.8 and actions[0].kind == "pass":
        return actions[0]
    return rng.choice(actions)


def measure(preset: str, policy: Policy, seconds: float) -> tuple[float, float]:
    """Hands per second and actions per second over ``seconds`` of random matches."""
    rng = random.Random(1)
    hands = actions = seed = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        game = Game.new(preset, seed=seed)
        seed += 1
        while not game.is_over:
            before = len(game.history)
            game.apply(policy(rng, game))
            actions += 1
            hands += sum(1 for result in game.history[before:] if any(result.tricks))
    elapsed = time.perf_counter() - started
    return hands / elapsed, actions / elapsed


def baseline_loop(seconds: float) -> float:
    """Calls per second of a trivial Python loop: the machine's speed right now, for ratios."""
    rng = random.Random(1)
    items = list(range(10))
    calls = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        for _ in range(1000):
            rng.choice(items)
        calls += 1000
    return calls / (time.perf_counter() - started)


def main(seconds: float = typer.Option(3.0, help="Seconds per measurement.")) -> None:
    """Measure every preset under both policies and print the table."""
    console = Console()
    policies = {"uniform": uniform, "passive": passive}
    rows = []
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("measuring", total=len(PRESET_NAMES) * len(policies) + 1)
        base = baseline_loop(seconds)
        progress.advance(task)
        for preset in PRESET_NAMES:
            for name, policy in policies.items():
                hands, actions = measure(preset, policy, seconds)
                rows.append((preset, name, hands, actions))
                progress.advance(task)
    table = Table(title=f"Engine speed, one core ({platform.python_implementation()} "
                        f"{platform.python_version()}, {platform.machine()})")
    for column in ("preset", "policy", "hands/s", "actions/s", "actions per random.choice"):
        table.add_column(column, justify="right")
    for preset, name, hands, actions in rows:
        table.add_row(preset, name, f"{hands:,.0f}", f"{actions:,.0f}", f"{actions / base:.3f}")
    console.print(table)
    console.print(f"baseline: {base:,.0f} random.choice calls/s (the last column divides by it, "
                  "so it compares runs on a noisy machine)")


if __name__ == "__main__":
    typer.run(main)
