"""Random 500 games for the property tests: the rule sets played, the policies that drive
the games (uniform, passive, low, special contracts), and the checks each property applies to
a game as it goes. ``test_properties.py`` holds the properties themselves."""

from __future__ import annotations

import json
import random
import re
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.shapes import check_shape

from cardroom.games.cards import CARDS, cards_of, mask_of
from cardroom.games.five_hundred import (
    Action,
    Contract,
    Game,
    Rules,
)
from cardroom.games.five_hundred.actions import (
    SLAM_ACTION,
)
from cardroom.games.five_hundred.rules import ALL_PRESET_NAMES
from cardroom.games.five_hundred.shapes import FiveHundredView

# -- the rules played --------------------------------------------------------------------------

_EVERYTHING: dict[str, Any] = dict(
    misere=True, open_misere=True, misere_placement="by_value", blind_misere=True,
    hi_lo=True, j5_no_trumps=True, ralphing=True, misdeal_no_face=True,
    joker_suit_nomination=True, joker_lead_limits=True, defender_points="not_over_490")
"""Options every rule set below switches on (those that need no fixed partner)."""
_PARTNERED: dict[str, Any] = dict(
    double_nullo=True, shields_double=True, patastrophe=True, slam_call=True,
    across_the_corner=True, across_the_table=True)
"""Options that need each player to have one partner."""
_JOKERLESS = {key: value for key, value in _EVERYTHING.items() if not key.startswith("joker")}

LATER_PRESETS = ("two-handed",)
"""Presets added after the trace test (``test_engine_trace.py``) numbered its matches' seeds by
the position of their rule set in :data:`RULE_SETS`: they and their rule sets come last, so
the seeds of the others stay as they were."""

RULE_SETS: dict[str, Rules] = {
    **{name: Rules.preset(name) for name in ALL_PRESET_NAMES if name not in LATER_PRESETS},
    "everything-46": Rules.from_dict({"preset": "online", "deck": "46", **_EVERYTHING,
                                      **_PARTNERED}),
    "wilkinson-red-trump-4": Rules.from_dict({
        "preset": "australian", "deck": "43-red-trump-4", **_EVERYTHING, **_PARTNERED,
        "wilkinson_misere": True, "first_lead": "dealer_left"}),
    "jokerless-42": Rules.from_dict({"preset": "classic", "deck": "42", **_JOKERLESS,
                                     **_PARTNERED, "all_pass": "dealer_must_bid",
                                     "defender_points": "not_over_400"}),
    "six-in-pairs": Rules.from_dict({"preset": "six-handed", **_EVERYTHING, **_PARTNERED,
                                     "six_handed_teams": "three_teams_of_two",
                                     "all_pass": "play_no_trump",
                                     "nt_joker": "play_any_time"}),
    "five-everything": Rules.from_dict({"preset": "five-handed", **_EVERYTHING,
                                        "first_lead": "dealer_left",
                                        "misere_failure": "play_on"}),
    "three-everything": Rules.from_dict({"preset": "three-handed", **_EVERYTHING,
                                         "both_at_lose_at": "contractor_loses",
                                         "all_pass": "redeal_then_pass_deal"}),
    **{name: Rules.preset(name) for name in LATER_PRESETS},
    "two-everything-45": Rules.from_dict({"preset": "two-handed", "deck": "45", **_EVERYTHING,
                                          "all_pass": "play_no_trump",
                                          "nt_joker": "play_any_time",
                                          "misere_failure": "play_on",
                                          "first_lead": "dealer_left"}),
}
"""Every preset, and rule sets with (nearly) every option on, by name."""
PRESET_NAMES = tuple(RULE_SETS)
"""The names the tests below are parametrized with (presets and the rule sets above)."""


def scaled(examples: int) -> int:
    """Hypothesis examples per rule set: the four-player presets' old budget shared out, so
    the module runs in about the same time with more rule sets."""
    return max(2, examples * 7 // len(RULE_SETS))


# -- driving random games ---------------------------------------------------------------------

POLICIES = ("uniform", "passive", "low", "special")
"""How a random player bids (card play and discards are always uniformly random):

- ``uniform``: any legal action, equally likely (matches end fast, usually on a 10NT);
- ``passive``: pass with probability 0.7, else any legal bid (many all-pass deals);
- ``low``: pass with probability 0.7, else one of the three lowest legal bids (long matches of
  many hands, scores drifting towards both the target and the losing score);
- ``special``: a special contract (misère, Spread, Nello, Across …) whenever one is legal, with
  probability 0.5; otherwise like ``low``.
"""

SEEDS = st.integers(min_value=0, max_value=2**40)


def on_every_rule_set(examples: int, **options: Any) -> Callable[[Callable[..., None]], Any]:
    """A property test run for every ``preset`` of :data:`PRESET_NAMES`, each with
    :func:`scaled` ``examples`` of ``seed`` drawn from :data:`SEEDS`, no deadline; ``options``
    are more Hypothesis settings."""

    def decorate(test: Callable[..., None]) -> Any:
        test = settings(max_examples=scaled(examples), deadline=None, **options)(
            given(seed=SEEDS)(test))
        return pytest.mark.parametrize("preset", PRESET_NAMES)(test)

    return decorate


MATCH_ACTION_LIMIT = 20_000
"""No match of random play may take more actions than this (they take about 50 to 2,000)."""

EXCHANGE_PHASES = ("discard", "partner_discard")
GAMES_PLAYED = [0]
"""How many random games the tests of this module have played (a tally for the curious)."""


def choose_action(game: Game, rng: random.Random, policy: str) -> Action:
    """A legal action for the seat to act, picked by ``policy`` (a slam call, where one may
    be made, a third of the time)."""
    legal = game.legal_actions()
    if game.phase in EXCHANGE_PHASES and SLAM_ACTION in legal and rng.random() < 0.33:
        return SLAM_ACTION
    if game.phase != "bidding" or policy == "uniform":
        return rng.choice(legal)
    passes = [action for action in legal if action.kind == "pass"]
    bids = [action for action in legal if action.kind == "bid"]
    if policy == "special":
        specials = [a for a in bids if a.bid.contract is not Contract.TRICKS]  # type: ignore[union-attr]
        if specials and rng.random() < 0.5:
            return rng.choice(specials)
    if passes and (not bids or rng.random() < 0.7):
        return passes[0]
    return rng.choice(bids[:3] if policy in ("low", "special") else bids)


def random_game(preset: str, seed: int, policy: str,
                max_actions: int = MATCH_ACTION_LIMIT) -> Iterator[Game]:
    """Play one random match, yielding the game before the first and after every action.

    The same game object is yielded each time (it changes in between); the generator stops when
    the match is over or after ``max_actions`` actions.
    """
    GAMES_PLAYED[0] += 1
    game = Game.new(RULE_SETS[preset], seed=seed)
    rng = random.Random(f"moves:{preset}:{seed}:{policy}")
    yield game
    while not game.is_over and len(game.actions) < max_actions:
        game.apply(choose_action(game, rng, policy))
        yield game


def play_out(preset: str, seed: int, policy: str, max_actions: int = MATCH_ACTION_LIMIT) -> Game:
    """The game after a whole random match (or ``max_actions`` actions of it)."""
    return deque(random_game(preset, seed, policy, max_actions), maxlen=1)[0]


def game_plan(seed: int, per_policy: dict[str, int]) -> list[tuple[str, int]]:
    """(policy, game seed) pairs for one hypothesis example: several games from one seed."""
    plan = []
    for policy, count in per_policy.items():
        plan.extend((policy, seed * 16 + number) for number in range(count))
    return plan


MIXED = {"uniform": 3, "passive": 2, "low": 1, "special": 2}
"""The games of a typical example: 8 matches, mostly short, one long."""
MANY = {"uniform": 6, "passive": 4, "low": 1, "special": 3}
"""The games of an example whose checks are cheap: 14 matches."""


# -- looking at a game ----------------------------------------------------------------------

CARD_TEXTS = frozenset(card.text for card in CARDS)
CARD_MASKS = {card.text: card.mask for card in CARDS}
WORD = re.compile(r"[0-9A-Za-z]+")


def played_mask(game: Game) -> int:
    """Cards played to this hand's tricks, the current one included."""
    mask = 0
    for index in game.trick:
        mask |= 1 << index
    for trick in game.completed:
        mask |= texts_mask(trick["cards"])
    return mask


def card_places(game: Game) -> list[tuple[str, int]]:
    """Every place a card can be in, with the mask of the cards there."""
    places = [(f"hand {seat}", mask) for seat, mask in enumerate(game.hands)]
    places.append(("kitty", game.kitty))
    places.append(("dead hands", game.dead))
    places.extend((f"discards {seat}", mask) for seat, mask in enumerate(game.discards))
    places.extend(("current trick", 1 << index) for index in game.trick)
    for number, trick in enumerate(game.completed, start=1):
        places.extend((f"trick {number}", CARD_MASKS[text]) for text in trick["cards"])
    return places


def conservation_problems(game: Game) -> list[str]:
    """What is wrong with where the cards are: duplicates, missing or stray cards."""
    union = count = 0
    for _, mask in card_places(game):
        union |= mask
        count += mask.bit_count()
    if union == game.rules.deck_spec.mask and count == union.bit_count():
        return []  # the quick answer; the slow one below says what is wrong
    seen: dict[int, str] = {}
    problems = []
    for place, mask in card_places(game):
        for card in cards_of(mask):
            if card.index in seen:
                problems.append(f"{card} is in {seen[card.index]} and in {place}")
            seen.setdefault(card.index, place)
    deck = game.rules.deck_spec.mask
    all_cards = mask_of(CARDS[i] for i in seen)
    problems += [f"{card} is missing" for card in cards_of(deck & ~all_cards)]
    problems += [f"{card} is not in the deck" for card in cards_of(all_cards & ~deck)]
    return problems


def check_turn(game: Game) -> None:
    """Property 1: somebody may act until the match is over, and then nobody."""
    if game.is_over:
        assert game.phase == "over"
        assert game.to_act is None
        assert len(game.legal_actions()) == 0
        assert game.winner in range(len(game.teams))
        return
    assert game.to_act in range(game.players)
    assert len(game.legal_actions()) > 0
    assert game.winner is None
    if game.phase == "play":
        assert game.to_act in game.active
        assert len(game.trick) < len(game.active)
    elif game.phase == "bidding" and game.rules.bidding == "until_passed":
        assert not game.passed >> game.to_act & 1, "a seat that passed is asked to bid"


def check_bidding(game: Game) -> None:
    """The bids of this hand rise, passed seats stay out, and the contract is the last bid."""
    rules = game.rules
    ranks = [rules.bid_rank[bid] for _, bid in game.bids if bid is not None]
    assert ranks == sorted(set(ranks)), f"bids do not rise: {game.bids}"
    if rules.bidding == "single":
        assert len(game.bids) <= game.players
    else:
        passed: set[int] = set()
        for seat, bid in game.bids:
            assert seat not in passed, f"seat {seat} bid after passing: {game.bids}"
            if bid is None:
                passed.add(seat)
    if rules.inkle:
        for position, (_, bid) in enumerate(game.bids):
            assert bid is None or bid.tricks != 6 or position < 2, f"late inkle: {game.bids}"
    if game.phase != "bidding" and game.contract is not None:
        last_seat, last_bid = next((s, b) for s, b in reversed(game.bids) if b is not None)
        assert (game.contractor, game.contract) == (last_seat, last_bid)


def check_hand_sizes(game: Game) -> None:
    """Ten cards each before the play; in the play, one fewer per trick for those who play."""
    sizes = [mask.bit_count() for mask in game.hands]
    assert game.dead.bit_count() == 10 * game.rules.dead_hands
    if game.phase == "bidding":
        assert sizes == [10] * game.players
        assert game.kitty.bit_count() == game.rules.kitty_size
    elif game.phase in EXCHANGE_PHASES:
        assert sizes[game.to_act] == 10 + game.exchange_count  # type: ignore[index]
    elif game.phase == "play":
        for seat in game.active:
            expected = 10 - len(game.completed) - (seat in game.trick_seats)
            assert sizes[seat] == expected, f"seat {seat} holds {sizes[seat]} cards"


NOT_CARDS = re.compile(r'"(?:bid|contract)": "[^"]*"|"(?:bid|call) [^"]*"|"rules": \{[^{}]*\}')
"""Parts of a view's JSON that hold no cards but look like some: bid texts (``7H``, also in
legal actions ``bid 7H`` and the contract of past hands), the rules options, and the cards a
five-player contractor may call (every card it does not hold: they say nothing hidden)."""


def cards_in_view(text: str) -> set[str]:
    """Card texts anywhere in a view's JSON text (values and keys alike), bids aside."""
    return set(WORD.findall(NOT_CARDS.sub("", text))) & CARD_TEXTS


def texts_mask(texts: Iterable[str]) -> int:
    """The mask of some card texts."""
    mask = 0
    for text in texts:
        mask |= CARD_MASKS[text]
    return mask


def check_view(game: Game, viewer: int | None) -> None:
    """Property 3: ``view(viewer)`` shows no card the viewer may not see, and is JSON."""
    view = game.view(viewer)
    check_shape(view, FiveHundredView)
    text = json.dumps(view)
    assert json.loads(text) == view
    allowed = played_mask(game) | called_mask(game)
    for seat in game.open_seats:
        allowed |= game.hands[seat]
    if viewer is not None:
        allowed |= game.hands[viewer] | game.discards[viewer]
        if (game.contractor is not None
                and game.team_of[viewer] == game.team_of[game.contractor]):
            allowed |= game.handed_over  # Across The Table: the discards passed to partner
        if viewer == game.to_act and game.phase in EXCHANGE_PHASES:
            allowed |= game.exchange
    shown = texts_mask(cards_in_view(text))
    leaked = shown & ~allowed
    assert not leaked, (f"view({viewer}) shows {cards_of(leaked)} in phase {game.phase} "
                        f"(hand {game.hand_number}, after {len(game.actions)} actions)")
    assert not shown & game.kitty, f"view({viewer}) shows the kitty"
    assert not shown & game.dead, f"view({viewer}) shows a dead hand"
    for seat in range(game.players):
        if seat != viewer and seat not in game.open_seats:
            assert not shown & game.hands[seat] & ~allowed, f"view({viewer}) shows hand {seat}"
    hidden = [s for s in game.partners if s not in game.revealed and s != viewer]
    assert not set(hidden) & set(view["contract_side"]), "a called partner is shown too soon"
    if viewer is None:
        assert view["hand"] is None
    else:
        assert mask_of(view["hand"]) == game.hands[viewer]
        assert len(view["hand"]) == game.hands[viewer].bit_count()
    if viewer is None or viewer != game.to_act:
        assert view["exchange"] is None
        assert view["legal_actions"] == []
    elif game.phase not in EXCHANGE_PHASES:
        assert view["legal_actions"] == [a.text for a in game.legal_actions()]
    assert view["hand_sizes"] == [mask.bit_count() for mask in game.hands]
    assert view["scores"] == game.scores
    assert_no_seed(text, game.seed)


def assert_no_seed(text: str, seed: int) -> None:
    """The seed would let a viewer recompute every deal: it must not be in any view."""
    assert '"seed"' not in text
    if seed >= 100_000:  # smaller numbers occur in views by chance (scores, values)
        assert str(seed) not in text


def called_mask(game: Game) -> int:
    """Cards the contractor named to call partners (their names are public, not their place)."""
    return sum(1 << index for index in game.called)


def viewers(game: Game) -> list[int | None]:
    """Every seat, and a spectator."""
    return [*range(game.players), None]


def check_all_views(game: Game) -> None:
    """Each viewer's view shows only what it may; the views a table builds together for
    all its viewers (sharing what they see alike) are exactly those views."""
    for viewer in viewers(game):
        check_view(game, viewer)
    together = game.views(viewers(game))
    assert together == {viewer: game.view(viewer) for viewer in viewers(game)}


def snapshot(game: Game) -> tuple[Any, ...]:
    """Everything observable about a game, to compare two games or a game before and after."""
    return (
        [json.dumps(game.view(viewer), sort_keys=True) for viewer in viewers(game)],
        game.record.to_text(),
        game.phase, game.to_act, game.winner, list(game.scores),
        [result.to_dict() for result in game.history],
        list(game.hands), game.kitty, game.dead, list(game.discards), list(game.trick),
        json.dumps(game.completed), [(seat, str(bid)) for seat, bid in game.bids],
        legal_summary(game),
    )


def legal_summary(game: Game) -> list[str] | int:
    """The legal actions as texts (only their number when they are the many kitty discards)."""
    legal = game.legal_actions()
    if game.phase in EXCHANGE_PHASES:
        return len(legal)
    return [action.text for action in legal]


def sampled(rng: random.Random, probability: float,
            phase_changes: bool = True) -> Callable[[Game], bool]:
    """A step filter: true at random steps, and at every change of phase or hand if asked."""
    last = [""]

    def wants(game: Game) -> bool:
        moment = f"{game.hand_number}:{game.phase}"
        changed = moment != last[0]
        last[0] = moment
        return (phase_changes and changed) or game.is_over or rng.random() < probability

    return wants
