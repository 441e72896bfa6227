"""Getting the search ready before anyone waits for it.

500's double-dummy search is compiled by numba on its first use in a process and cached on
disk; with a stale or empty cache (a fresh checkout, a changed solver) that first use takes
about 8 s of a core, and with a warm one about half a second. A bot worker calls
:func:`compile_search` as it starts, so no player's first hint or bot card pays for it.

1000's solver is compiled on its first use in a worker instead: its recursive search proper
cannot be cached on disk, so compiling it costs about two seconds of a core in every process,
and at every worker's start that was most of what starting a server cost (the tests start
hundreds). The first 1000 search decision of a worker pays it once, well within the bots'
budget; :func:`compile_thousand_search` does it ahead when wanted.
"""

from __future__ import annotations

from cardroom.bots import make_bot
from cardroom.bots.five_hundred.solver import Position, solve
from cardroom.bots.thousand import ThousandRulesBot
from cardroom.bots.thousand import solver as thousand_solver
from cardroom.games import thousand
from cardroom.games.five_hundred import Game, Rules

ENDING_TRICKS = 3
"""Tricks left in the ending solved to compile the search (few: the answer is not the point)."""


def compile_search() -> None:
    """Play a seeded deal of 500 with the rules bot down to a short ending and solve it, which
    compiles the search (or loads it from numba's cache)."""
    game = Game.new(Rules.preset("online"), seed=1)
    bot = make_bot("rules", seed=1)
    while (seat := game.to_act) is not None:
        if (game.phase == "play" and not game.trick
                and game.hands[seat].bit_count() <= ENDING_TRICKS):
            solve(Position.from_game(game), side=game.teams[game.team_of[seat]])
            return
        game.apply(bot.choose(game.view(seat)), seat=seat)
    raise RuntimeError("the warm-up match ended before its ending was reached")


def compile_thousand_search() -> None:
    """Play a seeded deal of 1000 with the rules bot down to a short ending and solve it,
    which compiles 1000's solver."""
    game = thousand.Game.new("seed", seed=1)
    bot = ThousandRulesBot(seed=1)
    while (seat := game.to_act) is not None:
        if (game.phase == "play" and not game.trick
                and game.hands[seat].bit_count() <= ENDING_TRICKS):
            thousand_solver.solve(thousand_solver.Position.from_game(game))
            return
        game.apply(bot.choose(game.view(seat)), seat=seat)
    raise RuntimeError("the warm-up match of 1000 ended before its ending was reached")
