"""The 500 engine behaves exactly as the engine it replaced: same views, legal actions, events.

A fixed set of seeded random matches (every rule set of :mod:`test_properties`, several bidding
policies) is replayed step by step. Before every action the test takes what the engine shows:
the view of every seat and of a spectator, the legal actions (for the thousands of kitty
discards: their number and a few of them), the turn, the phase and the cards in every place;
after it, the action's events; at the end, the record. All of it goes into a running SHA-256
whose value every :data:`CHUNK` steps is compared with ``engine_trace.json``.

That file was written once by the engine before its reshaping into phase modules (the class of
one ``game.py``), with::

    PYTHONPATH=<that checkout>/src python tests/five_hundred/test_engine_trace.py --write

Write it again only for a change of behaviour that is meant, and say so in the commit.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from test_properties import RULE_SETS, choose_action

from cardroom.games.five_hundred import DiscardChoices, Game

TRACE_FILE = Path(__file__).with_name("engine_trace.json")
STEP_LIMIT = 600
"""Actions replayed per match at most (most random matches end sooner)."""
CHUNK = 25
"""Steps between two digests kept in the file: a mismatch is placed within this many steps."""
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


def match_key(name: str, policy: str, seed: int) -> str:
    return f"{name}/{policy}/{seed}"


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
    """The digests of one replayed match: one every :data:`CHUNK` steps and one at the end."""
    game = Game.new(RULE_SETS[name], seed=seed)
    rng = random.Random(f"trace:{name}:{policy}:{seed}")
    digest = hashlib.sha256()
    digests = []

    def feed(value: Any) -> None:
        digest.update(json.dumps(value, sort_keys=True).encode())

    for step in range(STEP_LIMIT):
        feed(observe(game))
        if game.is_over:
            break
        action = choose_action(game, rng, policy)
        feed([action.text, game.apply(action)])
        if step % CHUNK == CHUNK - 1:
            digests.append(digest.hexdigest()[:16])
    feed([game.record.to_dict(), [result.to_dict() for result in game.history], game.scores])
    digests.append(digest.hexdigest()[:16])
    return digests


def expected() -> dict[str, list[str]]:
    return json.loads(TRACE_FILE.read_text())["matches"]


@pytest.mark.parametrize(("name", "policy", "seed"), matches(),
                         ids=[match_key(*match) for match in matches()])
def test_the_engine_shows_what_the_old_engine_showed(name: str, policy: str, seed: int) -> None:
    want = expected()[match_key(name, policy, seed)]
    got = trace(name, policy, seed)
    for number, (mine, theirs) in enumerate(zip(got, want, strict=False)):
        assert mine == theirs, (f"{match_key(name, policy, seed)} differs within steps "
                                f"{number * CHUNK + 1} to {(number + 1) * CHUNK} "
                                "(or at the end)")
    assert len(got) == len(want), "the match ended after a different number of actions"


def write() -> None:
    """Write :data:`TRACE_FILE` from the engine importable now."""
    import cardroom.games.five_hundred as engine

    data = {"made_by": "the 500 engine before its split into phase modules",
            "step_limit": STEP_LIMIT, "chunk": CHUNK,
            "matches": {match_key(*match): trace(*match) for match in matches()}}
    TRACE_FILE.write_text(json.dumps(data, indent=1) + "\n")
    print(f"wrote {TRACE_FILE} from {engine.__file__}")


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python tests/five_hundred/test_engine_trace.py --write")
    write()
