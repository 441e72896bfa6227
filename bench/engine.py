"""Engine speed: complete random hands and random actions per CPU second on one core, per preset.

A "hand" is everything from the deal to the score: bidding, kitty exchange, ten tricks (fewer
when a no-tricks contract stops early) and scoring. Deals that everybody passed and that were
dealt again are not counted as hands (their actions are counted). Two policies drive the games:

- ``uniform``: every legal action equally likely (bidding runs up fast, hands are short);
- ``passive``: passes 80% of the time in the bidding, so more hands are all-pass or low
  contracts and matches run for many hands, like real play.

Times are the process's CPU time (``time.process_time``), so other jobs on a shared machine
slow the figures less than they would wall-clock ones.

Run: ``python bench/engine.py [--seconds 3]``. Prints a table; copy it to bench/RESULTS.md.
``--matches N`` plays a fixed amount of work instead (N matches of each preset and policy), for
an instruction counter such as ``valgrind --tool=callgrind``.

Side by side with another checkout's engine (the code before a change)::

    python bench/engine.py --vs ../start/src --presets online,classic --policies uniform

runs each measurement in a fresh process pinned to one core (``--core``), this checkout's
engine and the other (its ``src`` put first on ``PYTHONPATH``) in turn, A B then B A, for
``--rounds`` rounds, and prints both rates and the median of the paired ratios. The other
checkout needs no copy of this script: the child processes run this file.
"""

from __future__ import annotations

import json
import platform
import random
import time
from collections.abc import Callable

import typer
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from cardroom.games.five_hundred import PRESET_NAMES, Game
from side_by_side import alternate, pin, run_child, summary

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


POLICIES: dict[str, Policy] = {"uniform": uniform, "passive": passive}


def play(preset: str, policy: Policy, seconds: float,
         matches: int | None = None) -> tuple[int, int, float]:
    """Hands and actions played, and the CPU seconds they took: random matches (seeds 0, 1,
    …) for ``seconds``, or exactly ``matches`` of them when given.

    The clock is read between matches only, and hands are counted once a match is over, so
    the loop spends its time in the engine and in the policy's random choices.
    """
    rng = random.Random(1)
    hands = actions = seed = 0
    started = time.process_time()
    while (seed < matches if matches is not None
           else time.process_time() - started < seconds):
        game = Game.new(preset, seed=seed)
        seed += 1
        while not game.is_over:
            game.apply(policy(rng, game))
        actions += len(game.actions)
        hands += sum(1 for result in game.history if any(result.tricks))
    return hands, actions, time.process_time() - started


def measure(preset: str, policy: Policy, seconds: float) -> tuple[float, float]:
    """Hands per CPU second and actions per CPU second over ``seconds`` of random matches."""
    hands, actions, elapsed = play(preset, policy, seconds)
    return hands / elapsed, actions / elapsed


def baseline_loop(seconds: float) -> float:
    """Calls per second of a trivial Python loop: the machine's speed right now, for ratios."""
    rng = random.Random(1)
    items = list(range(10))
    calls = 0
    started = time.process_time()
    while time.process_time() - started < seconds:
        for _ in range(1000):
            rng.choice(items)
        calls += 1000
    return calls / (time.process_time() - started)


def _names(text: str, known: tuple[str, ...] | list[str], what: str) -> list[str]:
    names = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in known]
    if unknown:
        raise typer.BadParameter(f"unknown {what}: {', '.join(unknown)} "
                                 f"(known: {', '.join(known)})")
    return names


def _child(preset: str, policy: str, seconds: float, core: int | None) -> None:
    """One measurement, printed as a JSON line (the ``--vs`` mode's worker)."""
    pin(core)
    import cardroom.games.five_hundred as engine

    hands, actions = measure(preset, POLICIES[policy], seconds)
    print(json.dumps({"hands": hands, "actions": actions, "engine": engine.__file__}))


def side_by_side(console: Console, other: str, presets: list[str], policies: list[str],
                 seconds: float, rounds: int, core: int | None) -> None:
    """This checkout's engine (A) against the one under ``other`` (B), in alternating runs."""
    engines: dict[str, str] = {}
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("measuring", total=rounds * len(presets) * len(policies) * 2)

        def hands(side: str, key: tuple[str, str]) -> float:
            preset, policy = key
            args = ["--presets", preset, "--policies", policy, "--seconds", str(seconds)]
            if core is not None:
                args += ["--core", str(core)]
            result = run_child(__file__, None if side == "A" else other, args)
            engines[side] = str(result["engine"])
            progress.advance(task)
            return float(result["hands"])

        rates = alternate(rounds, [(p, q) for p in presets for q in policies], hands)
    table = Table(title=f"Complete hands per CPU second, side by side, {rounds} rounds of "
                        f"{seconds:g} s, core {core} ({platform.python_implementation()} "
                        f"{platform.python_version()}, {platform.machine()})")
    for column in ("preset", "policy", "A hands/s (median)", "B hands/s (median)",
                   "A/B (median of pairs)", "A/B min–max"):
        table.add_column(column, justify="right")
    for (preset, policy), runs in rates.items():
        a, b, ratio, low, high = summary(runs)
        table.add_row(preset, policy, f"{a:,.0f}", f"{b:,.0f}", f"{ratio:.2f}",
                      f"{low:.2f}–{high:.2f}")
    console.print(table)
    console.print(f"A: {engines.get('A')}\nB: {engines.get('B')}")


def main(
    seconds: float = typer.Option(3.0, help="CPU seconds per measurement."),
    presets: str = typer.Option(",".join(PRESET_NAMES), help="Comma-separated presets."),
    policies: str = typer.Option(",".join(POLICIES), help="Comma-separated policies."),
    vs: str | None = typer.Option(None, help="Another checkout's src folder: measure its "
                                             "engine side by side with this one."),
    rounds: int = typer.Option(5, help="With --vs: runs of each engine per preset and policy."),
    core: int | None = typer.Option(None, help="With --vs: the CPU core every run is pinned "
                                               "to."),
    matches: int | None = typer.Option(None, help="Play exactly this many matches of each "
                                                  "preset and policy instead, and print the "
                                                  "hands they held (a fixed amount of work, "
                                                  "for an instruction counter)."),
    child: bool = typer.Option(False, hidden=True, help="Run one measurement, print JSON."),
) -> None:
    """Measure the presets under the policies and print the table."""
    preset_names = _names(presets, PRESET_NAMES, "preset")
    policy_names = _names(policies, list(POLICIES), "policy")
    if child:
        _child(preset_names[0], policy_names[0], seconds, core)
        return
    if matches is not None:
        for preset in preset_names:
            for name in policy_names:
                hands, actions, elapsed = play(preset, POLICIES[name], seconds, matches)
                print(f"{preset} {name}: {matches} matches, {hands} hands, {actions} actions, "
                      f"{elapsed:.2f} CPU seconds")
        return
    console = Console()
    if vs is not None:
        side_by_side(console, vs, preset_names, policy_names, seconds, rounds, core)
        return
    rows = []
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("measuring", total=len(preset_names) * len(policy_names) + 1)
        base = baseline_loop(seconds)
        progress.advance(task)
        for preset in preset_names:
            for name in policy_names:
                hands, actions = measure(preset, POLICIES[name], seconds)
                rows.append((preset, name, hands, actions))
                progress.advance(task)
    table = Table(title=f"Engine speed per CPU second, one core "
                        f"({platform.python_implementation()} {platform.python_version()}, "
                        f"{platform.machine()})")
    for column in ("preset", "policy", "hands/s", "actions/s", "actions per random.choice"):
        table.add_column(column, justify="right")
    for preset, name, hands, actions in rows:
        table.add_row(preset, name, f"{hands:,.0f}", f"{actions:,.0f}", f"{actions / base:.3f}")
    console.print(table)
    console.print(f"baseline: {base:,.0f} random.choice calls/s (the last column divides by it, "
                  "so it compares runs on a noisy machine)")


if __name__ == "__main__":
    typer.run(main)
