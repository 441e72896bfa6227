"""The bots: always legal, in every preset and every kind of contract; simple beats random;
the same seed gives the same game."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from cardroom.bots import BOT_NAMES, QUICK_BOTS, Bot, RandomBot, SimpleBot, make_bot
from cardroom.games.cards import cards_of
from cardroom.games.five_hundred import PRESET_NAMES, Bid, Game, Rules

SPECIALS_BY_PRESET = {
    "classic": set(),
    "australian": {"open-misere"},
    "american": {"nello"},
    "online": {"misere", "open-misere", "across-the-corner", "across-the-table"},
}
"""Special contracts each preset must have reached in the sweep below."""


def assert_legal(view: dict[str, Any], action: str) -> None:
    """The action is one the view offers (or a valid discard of the right size)."""
    count = view["discard_count"]
    if count:
        verb, *cards = action.split()
        assert verb == "discard"
        assert len(cards) == len(set(cards)) == count
        assert set(cards) <= set(view["hand"])
    else:
        assert action in view["legal_actions"]


def run(game: Game, bots: list[Bot], limit: int | None = None) -> Game:
    """Let the bots play (at most ``limit`` actions), checking every action is legal."""
    done = 0
    while not game.is_over and (limit is None or done < limit):
        seat: int = game.to_act  # type: ignore[assignment]
        view = game.view(seat)
        action = bots[seat].choose(view)
        assert_legal(view, action)
        game.apply(action)
        done += 1
    return game


class SpecialSeeker:
    """A test bidder that reaches special contracts often: bids them whenever it may (half
    the time), else passes or makes one of the cheapest bids; another bot does the rest."""

    name = "seeker"

    def __init__(self, seed: int, player: Bot) -> None:
        self.rng = random.Random(seed)
        self.player = player

    def choose(self, view: dict[str, Any]) -> str:
        if view["phase"] != "bidding":
            return self.player.choose(view)
        legal = view["legal_actions"]
        specials = [a for a in legal if a.startswith("bid ") and not a[4].isdigit()]
        if specials and self.rng.random() < 0.5:
            return self.rng.choice(specials)
        cheap = [a for a in legal if a != "pass"][:3]
        if "pass" in legal and (not cheap or self.rng.random() < 0.5):
            return "pass"
        return self.rng.choice(cheap or legal)


def long_rules(preset: str) -> Rules:
    """A preset whose match never ends by itself, for sweeps over many deals."""
    return Rules.preset(preset).replace(target=100_000, lose_at=None)


def contracts_played(game: Game) -> Counter[str]:
    """How many hands of each contract kind the game has had."""
    return Counter(Bid.parse(h.contract).contract.value for h in game.history if h.contract)


# -- legality --------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.parametrize("name", QUICK_BOTS)
def test_bots_play_whole_matches_legally(preset: str, name: str) -> None:
    for seed in range(6):
        game = run(Game.new(preset, seed=seed), [make_bot(name, seed * 4 + s) for s in range(4)])
        assert game.is_over and game.winner in (0, 1)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_bots_stay_legal_in_special_contracts(preset: str) -> None:
    kinds: Counter[str] = Counter()
    for seed in range(10):
        for name in QUICK_BOTS:
            bots: list[Bot] = [SpecialSeeker(seed * 4 + s, make_bot(name, seed))
                               for s in range(4)]
            kinds += contracts_played(run(Game.new(long_rules(preset), seed=seed), bots, 400))
    assert kinds["tricks"] > 0
    assert SPECIALS_BY_PRESET[preset] <= set(kinds), kinds


def test_simple_bot_handles_every_phase() -> None:
    """The sweep above reaches the kitty, Nello's gift and Across The Table's second discard."""
    phases: Counter[str] = Counter()
    for preset in ("american", "online"):
        for seed in range(4):
            game = Game.new(long_rules(preset), seed=seed)
            bots: list[Bot] = [SpecialSeeker(seed * 4 + s, SimpleBot()) for s in range(4)]
            for _ in range(400):
                phases[game.phase] += 1
                run(game, bots, 1)
    assert {"bidding", "discard", "play", "give", "partner_discard"} <= set(phases)


# -- strength --------------------------------------------------------------------------------


def test_simple_team_beats_random_team() -> None:
    wins = Counter()
    for seed in range(30):
        simple_side = seed % 2
        bots: list[Bot] = [SimpleBot(seed) if seat % 2 == simple_side else RandomBot(seed + seat)
                           for seat in range(4)]
        game = run(Game.new(PRESET_NAMES[seed % len(PRESET_NAMES)], seed=seed), bots)
        wins["simple" if game.winner == simple_side else "random"] += 1
    assert wins["simple"] >= 27, wins


def test_simple_bots_make_most_of_their_contracts() -> None:
    made = Counter()
    for seed in range(10):
        game = run(Game.new("classic", seed=seed), [SimpleBot() for _ in range(4)])
        made.update(h.made for h in game.history if h.contract)
    assert made[True] >= 3 * made[False], made


# -- determinism and the registry ------------------------------------------------------------


@pytest.mark.parametrize("name", QUICK_BOTS)
def test_same_seed_same_match(name: str) -> None:
    def record(seed: int) -> list[str]:
        game = Game.new("online", seed=7)
        return run(game, [make_bot(name, seed + s) for s in range(4)]).record.actions

    assert record(1) == record(1)


def test_random_bot_seed_matters() -> None:
    game = Game.new("online", seed=1)
    view = game.view(game.to_act)
    choices = {tuple(RandomBot(seed).choose(view) for _ in range(5)) for seed in range(5)}
    assert len(choices) > 1


def test_random_bot_discards_the_right_number() -> None:
    game = Game.new("online", seed=2)
    for action in ("bid 6S", "pass", "pass", "pass"):
        game.apply(action)
    view = game.view(game.to_act)
    action = RandomBot(3).choose(view)
    assert_legal(view, action)
    game.apply(action)
    assert game.phase == "play"


def test_make_bot_registry() -> None:
    assert BOT_NAMES == ("random", "simple", "rules", "search:fast", "search", "search:steady",
                         "search:strong")
    for name in BOT_NAMES:
        bot = make_bot(name, seed=5)
        assert isinstance(bot, Bot) and bot.name == name
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("grandmaster")


# -- simple bot decisions --------------------------------------------------------------------


def deal_with(preset: str, hand: list[str], kitty: list[str], weak: list[str]) -> Game:
    """An online-style deal where seat 0 holds ``hand``, seat 1 ``weak`` and the kitty is
    ``kitty``; the other cards go to seats 2 and 3. Seat 0 speaks first."""
    fixed = set(hand) | set(kitty) | set(weak)
    rest = [str(c) for c in cards_of(Rules.preset(preset).deck_spec.mask)
            if str(c) not in fixed]
    return Game.from_deal(preset, dealer=3, hands=[hand, weak, rest[:10], rest[10:]],
                          kitty=kitty)


WEAK = ["4S", "5S", "6C", "7C", "8D", "9D", "5H", "6H", "7S", "8C"]


def test_simple_bot_bids_a_strong_suit_and_passes_rubbish() -> None:
    strong = ["JK", "JH", "JD", "AH", "KH", "QH", "AS", "AC", "5C", "6S"]
    game = deal_with("online", strong, ["4D", "5D", "6D", "7D", "9S"], WEAK)
    assert SimpleBot().choose(game.view(0)) == "bid 6H"
    game.apply("bid 6H")
    assert SimpleBot().choose(game.view(1)) == "pass"


def test_simple_bot_keeps_trumps_and_makes_voids() -> None:
    hand = ["JK", "JH", "JD", "AH", "KH", "10H", "9H", "AS", "7C", "6C"]
    weak = ["4S", "5S", "8C", "9C", "8D", "7D", "5H", "6H", "7S", "10C"]
    game = deal_with("online", hand, ["5C", "4D", "8S", "6D", "9D"], weak)
    for action in ("bid 7H", "pass", "pass", "pass"):
        game.apply(action)
    discard = SimpleBot().choose(game.view(0)).split()[1:]
    assert set(discard) == {"7C", "6C", "5C", "4D", "6D"}


def test_simple_bot_ducks_in_misere_and_names_its_long_suit_with_the_joker() -> None:
    game = Game.new("online", seed=11)
    bot = SimpleBot()
    view = game.view(game.to_act)
    view["contract"] = {"bid": "misere", "contractor": view["seat"], "trump": None,
                        "opponent": None}
    view["phase"] = "play"
    view["hand"] = ["JK", "AS", "9H", "8H", "7H"]
    view["trick"] = [{"seat": (view["seat"] + 1) % 4, "card": "10H"}]
    view["led"] = "H"
    view["legal_actions"] = ["play 9H", "play 8H", "play 7H"]
    assert bot.choose(view) == "play 9H"
    view["contract"]["bid"] = "7NT"
    view["contract"]["contractor"] = (view["seat"] + 1) % 4
    view["trick"], view["led"] = [], None
    view["legal_actions"] = ["play JK:S", "play JK:C", "play JK:D", "play JK:H", "play AS",
                             "play 9H", "play 8H", "play 7H"]
    assert bot.choose(view) in ("play JK:H", "play AS")
    view["legal_actions"] = ["play JK:S", "play JK:C", "play JK:D", "play JK:H"]
    assert bot.choose(view) == "play JK:H"
