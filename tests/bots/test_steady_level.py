"""The daily challenge's bot, ``search:steady``, decides the same whatever the machine's speed:
its sample caps (and, in 1000, a fixed node limit per sampled deal) end a decision, not the
clock, so two players who play the same cards meet the same replies."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from cardroom.bots import make_bot
from cardroom.bots.levels import CHALLENGE_BOT
from cardroom.games.registry import GAMES

SLOWER = 2.0
"""How many times slower than this one the loaded machine is that the clock pretends."""


def play_views(game: str, preset: str, seed: int, count: int) -> list[dict[str, Any]]:
    """``count`` views of a random match's first tricks where the seat has a choice."""
    spec = GAMES[game]
    match = spec.new(spec.rules(preset), seed)
    rng = random.Random(seed)
    found: list[dict[str, Any]] = []
    while not match.is_over and len(found) < count:
        legal = list(match.legal_actions())
        view = dict(match.view(match.to_act))
        if view["phase"] == "play" and len(legal) > 1:
            found.append(view)
        match.apply(rng.choice(legal))
    return found


def decide(views: list[dict[str, Any]]) -> list[tuple[str, int, int]]:
    """The challenge bot's card for each view, with the deals it sampled and (1000) solved
    whole."""
    decided = []
    for view in views:
        bot = make_bot(CHALLENGE_BOT, seed=11)
        action = bot.choose(view)
        inner = bot._bots[view.get("game", "500")]  # type: ignore[attr-defined]
        decided.append((action, inner.last_samples, getattr(inner, "last_exact", 0)))
    return decided


@pytest.fixture
def slow_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """The clock runs :data:`SLOWER` times fast: as if every search took that much longer."""
    real = time.perf_counter
    start = real()
    monkeypatch.setattr(time, "perf_counter", lambda: start + (real() - start) * SLOWER)


@pytest.mark.parametrize(("game", "preset", "seed"), [("500", "online", 3), ("1000", "seed", 4)])
def test_the_challenge_bot_decides_alike_on_a_slower_machine(
        game: str, preset: str, seed: int, request: pytest.FixtureRequest) -> None:
    views = play_views(game, preset, seed, 2)
    assert len(views) == 2
    make_bot(CHALLENGE_BOT).choose(views[0])  # the solver compiled before anything is timed
    quick = decide(views)
    request.getfixturevalue("slow_clock")
    slow = decide(views)
    assert slow == quick
    # Its sample cap, not the clock, ended each decision (the default level, 0.4 s a card,
    # solves fewer deals on the first tricks when the clock runs fast).
    assert all(samples > 8 for _, samples, _ in quick)
