"""The 500 engine behaves exactly as the engine it replaced: same views, legal actions, events.

A fixed set of seeded random matches (every rule set of :mod:`test_properties`, several bidding
policies) is replayed step by step. Before every action the test takes what the engine shows:
the view of every seat and of a spectator, the legal actions (for the thousands of kitty
discards: their number and a few of them), the turn, the phase and the cards in every place;
after it, the action's events; at the end, the record. All of it goes into a running SHA-256
whose value every :data:`~tests.engine_trace.CHUNK` steps is compared with ``engine_trace.json``.

That file was written once by the engine before its reshaping into phase modules (the class of
one ``game.py``), with::

    PYTHONPATH=<that checkout>/src:. python tests/five_hundred/test_engine_trace.py --write

The digests, the file and the comparison are :mod:`tests.engine_trace`'s, shared with 1000.

Write it again only for a change of behaviour that is meant, and say so in the commit.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from tests.engine_trace import assert_as_stored, digests, over_matches, write_when_asked
from tests.five_hundred.random_games import RULE_SETS, choose_action

from cardroom.games.five_hundred import DiscardChoices, Game

TRACE_FILE = Path(__file__).with_name("engine_trace.json")
STEP_LIMIT = 600
"""Actions replayed per match at most (most random matches end sooner)."""
FOUR_PLAYER_PRESETS = ("classic", "australian", "american", "online")


def matches() -> list[tuple[str, str, int]]:
    """(rule set, policy, seed) of every match replayed: four per rule set, six per
    four-player preset."""
    plan = []
    for number, name in enumerate(RULE_SETS):
        policies = ("special", "low", "passive", "uniform")
        if name in FOUR_PLAYER_PRESETS:
            policies += ("special", "low")
        plan.extend((name, policy, 100 * turn + number)
                    for turn, policy in enumerate(policies, start=1))
    return plan


def legal_summary(game: Game) -> Any:
    """The legal actions as texts; for kitty discards their number and a few of them."""
    legal = game.legal_actions()
    if isinstance(legal, DiscardChoices):
        size = len(legal)
        picks = sorted({0, 1, size // 3, size // 2, size - 2, size - 1} & set(range(size)))
        return {"count": size, "picks": [legal[i].text for i in picks]}
    return [action.text for action in legal]


def observe(game: Game) -> Any:
    """Everything the engine shows about the moment before the next action."""
    seats: list[int | None] = [*range(game.players), None]
    return {
        "views": [game.view(seat) for seat in seats],
        "legal": legal_summary(game) if not game.is_over else [],
        "turn": [game.phase, game.to_act, game.is_over, game.winner, game.hand_number],
        "cards": [list(game.hands), game.kitty, list(game.discards), list(game.trick),
                  list(game.trick_seats), list(game.tricks_won)],
    }


def trace(name: str, policy: str, seed: int) -> list[str]:
    """The digests of one replayed match (see :func:`tests.engine_trace.digests`)."""
    game = Game.new(RULE_SETS[name], seed=seed)
    rng = random.Random(f"trace:{name}:{policy}:{seed}")
    return digests(game, lambda: choose_action(game, rng, policy), lambda: observe(game),
                   STEP_LIMIT)


@over_matches(matches())
def test_the_engine_shows_what_the_old_engine_showed(name: str, policy: str, seed: int) -> None:
    assert_as_stored(TRACE_FILE, trace, name, policy, seed)


if __name__ == "__main__":
    import cardroom.games.five_hundred as engine

    write_when_asked(TRACE_FILE, "the 500 engine before its split into phase modules; the "
                     "matches where only the joker's holder may now name its suit re-recorded",
                     matches(), trace, STEP_LIMIT, engine.__file__,
                     usage="PYTHONPATH=. python tests/five_hundred/test_engine_trace.py")
