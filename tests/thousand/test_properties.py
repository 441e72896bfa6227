"""Property tests of the 1000 engine over thousands of random games.

Each game comes from a seed: the rules (a preset with random house rules on top), the deal
(``Game.new``) and the moves (a ``random.Random`` seeded from the same number), so a failure
names a seed that reproduces it. The players are random but not uniform: uniform bidding runs
to 300 and every contract fails, so they pass often and bet low, which lets matches reach the
barrel and the (lowered) target.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from cardroom.games.cards import cards_of
from cardroom.games.thousand import PACK_MASK, Action, Game, IllegalAction, Record, Rules

OPTION_CHOICES: dict[str, tuple[Any, ...]] = {
    "players": (3, 4),
    "first_bidder_must_bid": (True, False),
    "marriage_cap": (None, 120),
    "blind_bidding": (True, False),
    "bank_shown": (True, False),
    "bank_use": ("discard", "give"),
    "raise_after_bank": (True, False),
    "must_trump": (True, False),
    "marriage_timing": ("when_leading", "after_first_trick"),
    "count_discards": (True, False),
    "opponent_rounding": ("tens", "fives", "none"),
    "barrel_hold": (True, False),
    "barrel_count": ("without_bank", "on_barrel"),
    "bolts": (None, 1, 3),
}
"""House rules the random games draw from (on top of a preset)."""
CARD_TOKEN = re.compile(r"\b(?:10|[9JQKA])[SCDH]\b")
ENGINE_GAMES = 1000
"""Random games played with the cheap checks after every action."""
VIEWED_GAMES = 100
"""Random games whose every view (each seat and a spectator) is checked for leaks."""


def random_rules(rng: random.Random) -> Rules:
    """A preset with about a third of the options changed, and a target low enough (with the
    barrel below it) that random players finish some matches."""
    rules = Rules.preset(rng.choice(("seed", "russian")))
    changes = {key: rng.choice(values) for key, values in OPTION_CHOICES.items()
               if rng.random() < 0.35}
    target = rng.choice((1000, 300, 200))
    changes.update(target=target, barrel=None if rng.random() < 0.2 else target - 120)
    return rules.replace(**changes)


def choose(game: Game, rng: random.Random) -> Action:
    """A random legal action; bidders look first, pass often and bid low; bets stay low."""
    legal = list(game.legal_actions())
    if game.phase == "bidding":
        if legal[0].kind == "look" and rng.random() < 0.8:
            return legal[0]
        passes = [a for a in legal if a.kind == "pass"]
        bids = [a for a in legal if a.kind == "bid"]
        if passes and (not bids or rng.random() < 0.6):
            return passes[0]
        return rng.choice(bids[:2])
    if game.phase == "bet":
        return rng.choice(legal[:2])
    return rng.choice(legal)


def played_mask(game: Game) -> int:
    mask = 0
    for trick in game.completed:
        for card in trick["cards"]:
            mask |= 1 << _index(card)
    for index in game.trick:
        mask |= 1 << index
    return mask


def _index(text: str) -> int:
    from cardroom.games.cards import Card

    return Card.parse(text).index


def check_cards_conserved(game: Game) -> None:
    """Every card of the pack is in exactly one place: a hand, the bank, the discards, or
    played."""
    places = [*game.hands, game.bank, game.discards, played_mask(game)]
    union = 0
    for mask in places:
        assert not union & mask, "a card is in two places"
        union |= mask
    assert union == PACK_MASK


def allowed_cards(game: Game, seat: int | None) -> set[str]:
    """The cards ``seat`` may know about: own hand (once looked), cards played, the bank when
    shown (or taken by ``seat``), own discards, and gifts given or received."""
    mask = played_mask(game)
    if seat is not None and game.looked >> seat & 1:
        mask |= game.hands[seat]
    if game.bank_public or (seat is not None and seat == game.contractor):
        mask |= game.dealt_bank
    if seat is not None and seat == game.contractor:
        mask |= game.discards
    for to, index in game.gifts:
        if seat in (to, game.contractor):
            mask |= 1 << index
    return {str(card) for card in cards_of(mask)}


def check_views(game: Game) -> None:
    for seat in (*range(game.players), None):
        view = game.view(seat)
        seen = set(CARD_TOKEN.findall(json.dumps(view)))
        assert seen <= allowed_cards(game, seat), (seat, seen - allowed_cards(game, seat))
        if seat == game.to_act:
            assert view["legal_actions"] == [a.text for a in game.legal_actions()]
    viewers = (*range(game.players), None)
    assert game.views(viewers) == {seat: game.view(seat) for seat in viewers}, \
        "the views built together for a table's viewers are each viewer's own view"


def check_history(game: Game) -> None:
    """Each scored deal shares out 120 card points (with the discards) and the scores are the
    sum of the deals' points and penalties."""
    totals = [0] * game.players
    for result in game.history:
        if result.contractor is not None:
            assert sum(result.card_points) + result.discard_points == 120
            assert result.made == (result.taken >= result.bet)
        for seat in range(game.players):
            totals[seat] += result.points[seat]
        for penalty in result.penalties:
            totals[penalty["seat"]] += penalty["points"]
        held = game.rules.barrel_hold and game.rules.barrel is not None
        if not held:
            assert totals == list(result.scores)
        totals = list(result.scores)
    assert totals == game.scores


def check_replay(game: Game) -> None:
    record = Record.from_text(game.record.to_text())
    twin = Game.replay(record)
    assert twin.view(None) == game.view(None) and twin.scores == game.scores
    assert Game.replay(Record.from_dict(game.record.to_dict())).history == game.history


def check_refusal(game: Game, rng: random.Random) -> None:
    """An action that is not legal is refused and changes nothing."""
    legal = {a.text for a in game.legal_actions()}
    candidates = ["pass", "look", "bid 300 blind", "bet 100", "play 9S", "play KH marriage",
                  "discard 9S 9C 9D", "give AS AH", "bid 105", "play AS"]
    text = rng.choice([c for c in candidates if c not in legal])
    before = (game.view(game.to_act), len(game.actions))
    with pytest.raises(IllegalAction):
        game.apply(text)
    assert (game.view(game.to_act), len(game.actions)) == before


def play_game(seed: int, max_deals: int, views: bool) -> Game:
    rng = random.Random(f"thousand-properties:{seed}")
    game = Game.new(random_rules(rng), seed=seed)
    while not game.is_over and len(game.history) < max_deals:
        legal = game.legal_actions()
        assert legal, "no legal action while the match is on"
        if views:
            check_views(game)
            if rng.random() < 0.1:
                check_refusal(game, rng)
        game.apply(choose(game, rng))
        check_cards_conserved(game)
    if game.is_over:
        assert game.winner is not None and game.scores[game.winner] >= game.rules.target
        assert game.legal_actions() == [] and game.to_act is None
    check_history(game)
    return game


def test_random_games_keep_the_invariants() -> None:
    finished = 0
    for seed in range(ENGINE_GAMES):
        game = play_game(seed, max_deals=3 if seed % 20 else 40, views=False)
        finished += game.is_over
        if seed % 25 == 0:
            check_replay(game)
    assert finished >= 10  # many of the long games (every twentieth) reach their target


def test_views_never_leak_and_refusals_change_nothing() -> None:
    for seed in range(VIEWED_GAMES):
        play_game(10_000 + seed, max_deals=2, views=True)
