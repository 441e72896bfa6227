"""The random bot: a legal action chosen uniformly at random, reproducibly from its seed.

It is the yardstick the other bots must beat, and a fuzzer for the engines: over many games
it wanders into every corner of the rules (odd bids, special contracts, strange discards).
"""

from __future__ import annotations

import random

from cardroom.bots.base import AnyView
from cardroom.bots.seen import hand_of


class RandomBot:
    """Plays any legal action, uniformly at random; for a kitty exchange, random cards."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = random.Random(f"cardroom-bot:random:{seed}")

    def choose(self, view: AnyView) -> str:
        """A random legal action of the seat to act (see :class:`cardroom.bots.base.Bot`)."""
        count = view.get("discard_count")
        if count:
            return "discard " + " ".join(self.rng.sample(hand_of(view), count))
        return self.rng.choice(view["legal_actions"])
