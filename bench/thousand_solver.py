"""The 1000 double-dummy solver's work per solve, and the search bot's time per decision.

Deals are bid, banked and played by the rules bot up to a number of tricks left; there every
hand is open and the solver finds the margin after each legal play (what the search bot asks
of every sampled deal). Prints, by preset and tricks left, the median and the largest number
of positions searched and milliseconds per solve; then, if asked, the search bot's time per
card it plays against the rules bot (``bench/thousand.py``'s measure).

Run: ``python bench/thousand_solver.py [--deals 20] [--decisions 0] [--level default]``.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import typer

from cardroom.bots.thousand.rules_bot import ThousandRulesBot
from cardroom.bots.thousand.solver import Position, Solver
from cardroom.games.thousand import PRESET_NAMES, Game

sys.path.insert(0, str(Path(__file__).parent))
from thousand import print_search_times


def endings(preset: str, tricks_left: int, deals: int) -> list[Position]:
    """Open positions of ``deals`` deals at a trick's start with ``tricks_left`` to play."""
    positions: list[Position] = []
    seed = 0
    while len(positions) < deals and seed < 5 * deals:  # a seed deal has only seven tricks
        game = Game.new(preset, seed=seed)
        bot = ThousandRulesBot(seed)
        seed += 1
        while game.hand_number == 1 and not game.is_over:
            seat = game.to_act
            assert seat is not None
            if (game.phase == "play" and not game.trick
                    and game.hands[seat].bit_count() == tricks_left):
                positions.append(Position.from_game(game))
                break
            game.apply(bot.choose(game.view(seat)), seat=seat)
    return positions


def solve_costs(positions: list[Position]) -> tuple[list[int], list[float]]:
    """Positions searched and seconds taken to value every legal play of each position."""
    nodes: list[int] = []
    seconds: list[float] = []
    for position in positions:
        solver = Solver(position)
        started = time.perf_counter()
        solver.move_values()
        seconds.append(time.perf_counter() - started)
        nodes.append(solver.nodes)
    return nodes, seconds


def main(deals: int = 20, decisions: int = 0, level: str = "default") -> None:
    """Print the solver's cost by preset and tricks left, and the bot's time per card."""
    solve_costs(endings("seed", 2, 1))  # compile (or load) the kernel first
    for preset in PRESET_NAMES:
        for tricks in range(3, 9):
            positions = endings(preset, tricks, deals)
            if not positions:
                continue
            nodes, seconds = solve_costs(positions)
            print(f"{preset:8} {tricks} tricks left: nodes median {statistics.median(nodes):>9,.0f}"
                  f" max {max(nodes):>10,}; ms median {1000 * statistics.median(seconds):8.1f}"
                  f" max {1000 * max(seconds):8.1f}  ({len(positions)} deals)")
    if decisions:
        print_search_times(decisions, level)


if __name__ == "__main__":
    typer.run(main)
