"""The search bot: only legal actions in every preset, phase and contract; decisions from
the view alone; sampled deals consistent with what the seat has seen."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from cardroom.bots import BOT_NAMES, make_bot
from cardroom.bots.five_hundred.search import Knowledge, SearchBot
from cardroom.games.cards import Card, mask_of
from cardroom.games.five_hundred import PRESET_NAMES, Game, Rules
from cardroom.games.five_hundred.rules import ALL_PRESET_NAMES


def assert_legal(view: dict[str, Any], action: str) -> None:
    """The action is one the view offers (or a discard of the right size)."""
    count = view["discard_count"]
    if count:
        verb, *cards = action.split()
        assert verb == "discard" and len(set(cards)) == count and set(cards) <= set(view["hand"])
    else:
        assert action in view["legal_actions"], (action, view["legal_actions"])


class Seeker:
    """Bids special contracts whenever it may (half the time), else plays as ``player``."""

    def __init__(self, seed: int, player: Any) -> None:
        self.rng = random.Random(seed)
        self.player = player

    def choose(self, view: dict[str, Any]) -> str:
        legal = view["legal_actions"]
        if view["phase"] == "bidding":
            specials = [a for a in legal if a.startswith("bid ") and not a[4].isdigit()]
            if specials and self.rng.random() < 0.5:
                return self.rng.choice(specials)
            cheap = [a for a in legal if a != "pass"][:3]
            return "pass" if "pass" in legal and (not cheap or self.rng.random() < 0.5) \
                else self.rng.choice(cheap or legal)
        return self.player.choose(view)


def json_view(game: Game) -> dict[str, Any]:
    """The view of the seat to act, as it would arrive over the wire."""
    return json.loads(json.dumps(game.view(game.to_act)))


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_search_bot_is_always_legal(preset: str) -> None:
    rules = Rules.preset(preset).replace(target=100_000, lose_at=None)
    phases: set[str] = set()
    kinds: set[str] = set()
    for seed in range(3):
        game = Game.new(rules, seed=seed)
        bots = [Seeker(seed * 4 + s, make_bot("search:fast", seed + s)) for s in range(4)]
        for _ in range(140):
            view = json_view(game)
            phases.add(view["phase"])
            if view["contract"] and view["contract"]["bid"]:
                kinds.add(view["contract"]["bid"])
            action = bots[game.to_act].choose(view)  # type: ignore[index]
            assert_legal(view, action)
            game.apply(action)
    assert "play" in phases and "discard" in phases


OTHER_TABLES = [Rules.preset(name) for name in ALL_PRESET_NAMES if name not in PRESET_NAMES] + [
    Rules.preset("classic").replace(deck=deck) for deck in ("46", "43-red-trump-4", "42")]


@pytest.mark.parametrize("rules", OTHER_TABLES, ids=lambda r: f"{r.players}p-{r.deck}")
def test_search_bot_plays_every_table_legally(rules: Rules) -> None:
    """Three to six players and the odd decks: the search plays four-player pairs with one
    joker itself and leaves the rest to the rules bot, legally either way."""
    rules = rules.replace(target=100_000, lose_at=None)
    game = Game.new(rules, seed=5)
    bots = [make_bot("search:fast", seat) for seat in range(rules.players)]
    for _ in range(120):
        view = json_view(game)
        action = bots[game.to_act].choose(view)  # type: ignore[index]
        assert_legal(view, action)
        game.apply(action)


def test_search_bot_plays_every_late_decision_legally() -> None:
    """Late in hands the bot really searches: many such decisions, each legal."""
    rng = random.Random(3)
    bot = SearchBot(1, "fast")
    searched = 0
    for seed in range(16):
        preset = PRESET_NAMES[seed % len(PRESET_NAMES)]
        game = Game.new(Rules.preset(preset).replace(target=100_000, lose_at=None), seed=seed)
        seekers = [Seeker(seed + s, make_bot("simple", s)) for s in range(4)]
        while not (game.phase == "play" and len(game.completed) >= 6):
            game.apply(seekers[game.to_act].choose(game.view(game.to_act)))  # type: ignore[index]
        while game.phase == "play" and len(game.completed) < 10:
            view = json_view(game)
            if game.hand_number > 1 and not game.completed:
                break
            action = bot.choose(view)
            assert_legal(view, action)
            game.apply(action)
            searched += 1
            if rng.random() < 0.3:
                break
    assert searched > 20


def test_search_bot_reads_only_the_view_and_leaves_it_alone() -> None:
    game = Game.new("online", seed=5)
    bots = [make_bot("simple", s) for s in range(4)]
    while not (game.phase == "play" and len(game.completed) >= 6):
        game.apply(bots[game.to_act].choose(game.view(game.to_act)))  # type: ignore[index]
    view = json_view(game)
    before = copy.deepcopy(view)
    first = SearchBot(2, "fast").choose(view)
    assert view == before
    # another deal of the hidden cards, same view: the same choice
    twin = game.copy()
    seat = game.to_act
    hidden = [s for s in range(4) if s != seat]
    twin.hands[hidden[0]], twin.hands[hidden[1]] = game.hands[hidden[1]], game.hands[hidden[0]]
    if twin.view(seat) == game.view(seat):
        assert SearchBot(2, "fast").choose(json_view(twin)) == first


def test_samples_agree_with_what_the_seat_has_seen() -> None:
    rng = random.Random(4)
    for seed in range(10):
        game = Game.new("classic", seed=seed)
        bots = [make_bot("simple", s) for s in range(4)]
        while not (game.phase == "play" and len(game.completed) >= 5):
            if game.is_over:
                break
            game.apply(bots[game.to_act].choose(game.view(game.to_act)))  # type: ignore[index]
        view = json_view(game)
        knowledge = Knowledge(view)
        for _ in range(20):
            hands = knowledge.sample(rng)
            assert hands is not None
            for seat, cards in hands.items():
                assert cards.bit_count() == view["hand_sizes"][seat]
                assert not cards & mask_of(view["hand"])
                assert not cards & knowledge.voids[seat]
                assert cards & ~knowledge.unseen == 0
        # the real hands fit the voids derived from the tricks
        for seat in range(4):
            assert not game.hands[seat] & knowledge.voids[seat], Card.from_index(0)


def test_registry_has_the_search_levels() -> None:
    assert {"search", "search:fast", "search:strong"} <= set(BOT_NAMES)
    assert make_bot("search:strong").name == "search:strong"
    assert make_bot("search").name == "search"
