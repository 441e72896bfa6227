"""1000 engine speed: random deals per CPU second on one core, per preset; and, optionally,
how long the search bot takes per card played and how many deals it samples for it.

Random players look at their cards, pass 60% of the time and bid low (uniform bidding runs
to 300 and every contract fails), bet the lowest bet and play any legal card. A *deal* is
everything from the deal to its score. Times are the process's CPU time
(``time.process_time``), so other jobs on a shared machine slow the figures less than they
would wall-clock ones; the search bot's own budget is wall-clock time, as in play.

Run: ``python bench/thousand.py [--seconds 3] [--search-decisions 0]``. Prints figures; copy
them to bench/RESULTS.md. ``--matches N`` plays a fixed amount of work instead (N random
matches of each preset), for an instruction counter such as ``valgrind --tool=callgrind``.

Side by side with another checkout's engine (the code before a change)::

    python bench/thousand.py --vs ../start/src --rounds 7 --seconds 3 --samples 60

runs each measurement in a fresh process (pinned to ``--core`` when given), this checkout's
engine (A) and the other (B) in turn, and prints both engines' deals per CPU second with the
median of the paired ratios; with ``--samples N``, also the search bot's median sampled deals
per decision over ``N`` card plays per preset (see :mod:`side_by_side`).
"""

from __future__ import annotations

import json
import platform
import random
import statistics
import time
from collections.abc import Iterator

import typer

from cardroom.bots.thousand.rules_bot import ThousandRulesBot
from cardroom.bots.thousand.search import LEVELS, ThousandSearchBot
from cardroom.games.thousand import PRESET_NAMES, Action, Game
from side_by_side import alternate, pin, run_child, summary


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


def play(preset: str, seconds: float, matches: int | None = None) -> tuple[int, int, float]:
    """Deals and actions of random play, and the CPU seconds they took: matches seeded 0, 1,
    … (each cut at 50 deals) for ``seconds`` of CPU time, or exactly ``matches`` of them when
    given (a fixed amount of work, for an instruction counter)."""
    rng = random.Random(1)
    deals = actions = seed = 0
    started = time.process_time()
    while (seed < matches if matches is not None
           else time.process_time() - started < seconds):
        game = Game.new(preset, seed=seed)
        seed += 1
        while not game.is_over and len(game.history) < 50:
            game.apply(random_action(rng, game))
            actions += 1
        deals += len(game.history)
    return deals, actions, time.process_time() - started


def deals_per_second(preset: str, seconds: float) -> tuple[float, float]:
    """Deals and actions per CPU second of random play over ``seconds`` of CPU time."""
    deals, actions, elapsed = play(preset, seconds)
    return deals / elapsed, actions / elapsed


def searched_cards(preset: str, decisions: int, level: str) -> Iterator[tuple[float, int]]:
    """The search bot's card plays against the rules bot, in the first three deals of
    matches seeded 0, 1, …: for each, the seconds it took and the deals it sampled."""
    played = seed = 0
    while played < decisions:
        game = Game.new(preset, seed=seed)
        search, rules = ThousandSearchBot(seed, level), ThousandRulesBot(seed)
        seed += 1
        while not game.is_over and len(game.history) < 3 and played < decisions:
            seat = game.to_act
            view = game.view(seat)
            if seat == 0 and game.phase == "play" and len(view["legal_actions"]) > 1:
                started = time.perf_counter()
                action = search.choose(view)
                played += 1
                yield time.perf_counter() - started, search.last_samples
            else:
                action = rules.choose(view)
            game.apply(action)


def search_times(preset: str, decisions: int, level: str) -> list[float]:
    """Seconds the search bot takes per card it plays, against the rules bot."""
    return [seconds for seconds, _ in searched_cards(preset, decisions, level)]


def main(seconds: float = typer.Option(3.0, help="CPU seconds per measurement."),
         search_decisions: int = typer.Option(0, help="Also time the search bot over this "
                                                      "many card plays per preset."),
         level: str = typer.Option("default", help="The search bot's level."),
         vs: str | None = typer.Option(None, help="Another checkout's src folder: measure "
                                                  "its engine side by side with this one."),
         rounds: int = typer.Option(5, help="With --vs: runs of each engine per preset."),
         samples: int = typer.Option(0, help="With --vs: also the search bot's sampled deals "
                                             "per card over this many card plays a preset."),
         sample_rounds: int = typer.Option(2, help="With --samples: runs of each engine per "
                                                   "preset."),
         core: int | None = typer.Option(None, help="With --vs: the CPU core every run is "
                                                    "pinned to."),
         presets: str = typer.Option(",".join(PRESET_NAMES), help="Comma-separated presets."),
         matches: int | None = typer.Option(None, help="Play exactly this many random "
                                                       "matches of each preset instead, and "
                                                       "print the deals they held (a fixed "
                                                       "amount of work, for an instruction "
                                                       "counter)."),
         child: str | None = typer.Option(None, hidden=True,
                                          help="Run one measurement, print JSON.")) -> None:
    """Print deals/s per preset and, if asked, the search bot's time per decision."""
    names = [name.strip() for name in presets.split(",") if name.strip()]
    if child is not None:
        _child(child, names[0], seconds, samples, level, core)
        return
    if matches is not None:
        for name in names:
            deals, actions, elapsed = play(name, seconds, matches)
            print(f"{name}: {matches} matches, {deals} deals, {actions} actions, "
                  f"{elapsed:.2f} CPU seconds")
        return
    print(f"CPython {platform.python_version()} on {platform.machine()}")
    if vs is not None:
        side_by_side(vs, names, seconds, rounds, samples, sample_rounds, level, core)
        return
    for name in names:
        deals, actions = deals_per_second(name, seconds)
        print(f"{name:8} random play: {deals:8,.0f} deals/s  {actions:10,.0f} actions/s")
    if search_decisions:
        print_search_times(search_decisions, level)


def _child(what: str, preset: str, seconds: float, decisions: int, level: str,
           core: int | None) -> None:
    """One measurement (``deals`` or ``samples``), printed as a JSON line (``--vs``'s
    worker)."""
    pin(core)
    import cardroom.games.thousand as engine

    if what == "deals":
        deals, actions = deals_per_second(preset, seconds)
        result = {"deals": deals, "actions": actions}
    else:
        counts = [count for _, count in searched_cards(preset, decisions, level)]
        result = {"samples": statistics.median(counts), "counts": counts}
    print(json.dumps({**result, "engine": engine.__file__}))


def side_by_side(other: str, presets: list[str], seconds: float, rounds: int, samples: int,
                 sample_rounds: int, level: str, core: int | None) -> None:
    """This checkout's engine (A) against the one under ``other`` (B), in alternating runs:
    deals per CPU second, then the search bot's median sampled deals per card."""
    engines: dict[str, str] = {}

    def child(side: str, what: str, preset: str) -> dict[str, float | str]:
        args = [what, "--presets", preset, "--seconds", str(seconds), "--samples",
                str(samples), "--level", level]
        result = run_child(__file__, None if side == "A" else other,
                           args + (["--core", str(core)] if core is not None else []))
        engines[side] = str(result["engine"])
        return result

    def deals(side: str, preset: str) -> float:
        return float(child(side, "deals", preset)["deals"])

    print(f"Random deals per CPU second, {rounds} rounds of {seconds:g} s, core {core}")
    for preset, runs in alternate(rounds, presets, deals).items():
        a, b, ratio, low, high = summary(runs)
        print(f"{preset:8} A {a:8,.0f}  B {b:8,.0f}  A/B median {ratio:.2f} "
              f"(pairs {low:.2f}-{high:.2f})  A runs {_figures(runs['A'])}  "
              f"B runs {_figures(runs['B'])}")
    if samples:
        counts: dict[tuple[str, str], list[int]] = {}

        def sampled(side: str, preset: str) -> float:
            result = child(side, "samples", preset)
            counts.setdefault((preset, side), []).extend(result["counts"])  # type: ignore[arg-type]
            return float(result["samples"])

        cap = LEVELS[level].samples
        print(f"Search bot ({level}, at most {cap} deals a card): sampled deals per card, "
              f"{sample_rounds} runs of {samples} cards per preset and engine")
        alternate(sample_rounds, presets, sampled)
        for preset in presets:
            line = [f"{preset:8}"]
            for side in ("A", "B"):
                mine = counts[preset, side]
                line.append(f"{side} median {statistics.median(mine):g} mean "
                            f"{statistics.mean(mine):.1f} at the cap "
                            f"{sum(count >= cap for count in mine) / len(mine):.0%}")
            print("  ".join(line))
    print(f"A: {engines.get('A')}\nB: {engines.get('B')}")


def _figures(values: list[float]) -> str:
    return " ".join(f"{value:,.0f}" for value in values)


def print_search_times(decisions: int, level: str) -> None:
    """Print the search bot's time per card play on every preset: median, p99 and max."""
    for preset in PRESET_NAMES:
        times = sorted(search_times(preset, decisions, level))
        p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
        print(f"{preset:8} search ({level}): median {statistics.median(times):.3f} s, "
              f"p99 {p99:.3f} s, max {times[-1]:.3f} s over {len(times)} card plays")


if __name__ == "__main__":
    typer.run(main)
