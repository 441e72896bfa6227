"""The search bot searches every table of 500 and every contract: each preset (two, three,
five and six players included) and the tables the presets leave out (two jokers, a nominated
joker, six players in three teams of two, the rarer no-tricks contracts), with every kind of
contract its ladder offers, plays its cards from solved sampled deals, never by rule. Two
players' dead hands (one of the 33-card deck, two of a deck for four) are unseen cards no
sample lets a seat play. With five players, the sampled deals place the called partner
where the seat cannot see it."""

from __future__ import annotations

import logging
import random
from typing import Any

import pytest

from cardroom.bots.five_hundred.aims import view_aims
from cardroom.bots.five_hundred.search import LEVELS, Knowledge, SearchBot, SolverLevel
from cardroom.games.five_hundred import ALL_PRESET_NAMES, Bid, Contract, Game, Rules

TABLES: dict[str, Rules] = {
    **{name: Rules.preset(name) for name in ALL_PRESET_NAMES},
    "two, a deck for four": Rules.preset("two-handed").replace(deck="45"),
    "46 cards": Rules.preset("online").replace(deck="46"),
    "joker nomination": Rules.preset("classic").replace(joker_suit_nomination=True),
    "six, three teams of two": Rules.preset("six-handed").replace(
        six_handed_teams="three_teams_of_two"),
    "pair and blind no-tricks contracts, J5": Rules.preset("australian").replace(
        double_nullo=True, blind_misere=True, shields_double=True, patastrophe=True,
        j5_no_trumps=True),
    "red trump four": Rules.preset("online").replace(deck="43-red-trump-4"),
    "joker lead limits": Rules.preset("online").replace(joker_lead_limits=True),
}
"""Every preset, and tables only house rules make."""

UNSEARCHED = {Contract.HI_LO.value}
"""Contracts the solver has no objective for: the bot plays them by rule and says why."""

PATIENT = SolverLevel(budget=20.0, samples=2, max_tricks={}, bid_budget=0.1, bid_samples=1)
"""A level that solves whatever it is given, however loaded the machine: the test asks
whether the bot searches, not how fast."""

TRICKS_LEFT = 4
"""Tricks left when the bot is asked to play."""


def contract_kind(bid: Bid) -> str:
    """A contract's kind as the solver sees it: a trick contract in a suit or in no trumps,
    or the special contract's own kind."""
    if bid.contract is Contract.TRICKS:
        return "no trumps" if bid.trump is None else "suit"
    return bid.contract.value


def kinds_offered(rules: Rules) -> set[str]:
    return {contract_kind(bid) for bid in rules.bid_ladder}


def reach_play(rules: Rules, kind: str, seed: int) -> Game | None:
    """A game of ``rules`` whose first hand is played under a contract of ``kind``, with
    :data:`TRICKS_LEFT` tricks left and at least two legal cards for the seat to play
    (``None`` when the random bidding did not reach such a contract)."""
    rng = random.Random(f"{kind}:{seed}")
    game = Game.new(rules, seed=seed)
    if kind == Contract.NELLO.value:  # only a side in the hole may bid it
        game.scores[:] = [-100] * len(game.scores)
    while game.phase != "play":
        if game.hand_number != 1 or game.is_over:
            return None
        game.apply(_setup_action(game, kind, rng))
    if game.contract is None or contract_kind(game.contract) != kind:
        return None
    while game.phase == "play" and game.hand_number == 1:
        view = game.view(game.to_act)
        left = len(view["hand"])
        if left <= TRICKS_LEFT and len(view["legal_actions"]) > 1:
            return game
        if left <= 1:
            return None
        game.apply(rng.choice(view["legal_actions"]))
    return None  # a no-tricks contract that stops at its first trick


LED_BY_MISERE = {Contract.OPEN_MISERE.value, Contract.ACROSS_THE_CORNER.value,
                 Contract.ACROSS_THE_TABLE.value}
"""Contracts some presets allow only after a misère bid (Across The Corner answers one)."""


def _setup_action(game: Game, kind: str, rng: random.Random) -> str:
    """Bid towards a contract of ``kind`` (take it when it may be bid, else pass or bid a
    cheap trick bid, which may open the way to a special one), and get through the kitty,
    calls and nomination with the first choices offered (naming a suit when it may)."""
    view = game.view(game.to_act)
    legal: list[str] = view["legal_actions"]
    if view["discard_count"]:
        return "discard " + " ".join(view["hand"][:view["discard_count"]])
    if view["phase"] != "bidding":
        named = [action for action in legal if action.startswith("joker ")]
        return rng.choice(named) if named else legal[0]
    wanted = [a for a in legal if a.startswith("bid ") and contract_kind(Bid.parse(a[4:])) == kind]
    if wanted:
        return wanted[0]
    misere = [a for a in legal if a.startswith("bid ") and Bid.parse(a[4:]).contract
              is Contract.MISERE]
    if misere and kind in LED_BY_MISERE:
        return misere[0]
    cheap = [a for a in legal if a.startswith("bid 7") or a.startswith("bid 6")]
    return rng.choice(cheap) if cheap and rng.random() < 0.4 else "pass" \
        if "pass" in legal else legal[0]


CASES = [(table, kind) for table, rules in TABLES.items() for kind in sorted(kinds_offered(rules))]


def test_every_kind_of_contract_is_listed() -> None:
    """The tables above offer every kind of contract of 500 but those played by rule."""
    offered = {contract_kind(bid) for rules in TABLES.values() for bid in rules.bid_ladder}
    every = {kind.value for kind in Contract} - UNSEARCHED - {Contract.TRICKS.value}
    assert offered == every | {"suit", "no trumps"}


@pytest.mark.parametrize(("table", "kind"), CASES)
def test_every_table_and_contract_is_searched(table: str, kind: str) -> None:
    rules = TABLES[table]
    game = next((game for seed in range(60) if (game := reach_play(rules, kind, seed))), None)
    assert game is not None, f"no {kind} contract reached at {table}"
    bot = SearchBot(seed=1)
    bot.level = PATIENT
    view = game.view(game.to_act)
    action = bot.choose(view)
    assert action in view["legal_actions"]
    assert bot.last_reason is None, bot.last_reason
    assert bot.last_samples == PATIENT.samples


def test_a_contract_without_an_objective_says_why(caplog: pytest.LogCaptureFixture) -> None:
    """Hi/Lo's bidder must take exactly five tricks: no count to maximise, so the bot plays
    it by rule and names the reason, in its debug log too."""
    rules = Rules.preset("online").replace(hi_lo=True)
    game = next((game for seed in range(60)
                 if (game := reach_play(rules, Contract.HI_LO.value, seed))), None)
    assert game is not None
    bot = SearchBot(seed=1)
    view = game.view(game.to_act)
    with caplog.at_level(logging.DEBUG, logger="cardroom.bots.five_hundred.search"):
        assert bot.choose(view) in view["legal_actions"]
    assert bot.last_samples == 0
    assert bot.last_reason is not None and "maximise" in bot.last_reason
    assert bot.last_reason in caplog.text


def test_every_level_solves_every_table_size() -> None:
    """Each level names how many tricks it solves for every number of players."""
    for level in LEVELS.values():
        assert {2, 3, 4, 5, 6} <= set(level.max_tricks)


def five_handed_after_the_call(seed: int) -> tuple[Game, Any]:
    """A five-player game in its first trick after a partner was called, with the view of
    a defender who does not hold the called card."""
    rules = Rules.preset("five-handed")
    for attempt in range(200):
        game = reach_play(rules, "suit", seed * 1000 + attempt)
        if game is None or not game.view(0)["called"]:
            continue
        viewer = next(seat for seat in game.active
                      if seat != game.contractor and seat not in game.partners)
        return game, game.view(viewer)
    raise AssertionError("no five-player contract with a partner still hidden")


def test_five_player_samples_place_the_called_partner() -> None:
    """Each sampled deal makes the holder of the called card the contractor's partner, and
    the partner varies over the deals as long as the card is unseen."""
    for seed in range(3):
        game, view = five_handed_after_the_call(seed)
        knowledge = Knowledge(view)
        if not knowledge.hidden_calls:
            continue
        aims = view_aims(view)
        assert aims is not None
        rng = random.Random(seed)
        partners = set()
        for _ in range(40):
            hands = knowledge.sample(rng)
            assert hands is not None
            sampled = knowledge.aims_in(hands, aims)
            holders = {seat for seat, cards in hands.items() if cards & knowledge.hidden_calls}
            assert set(sampled.counted) == ({game.contractor, *view["contract_side"], *holders}
                                            & set(game.active))
            partners.add(frozenset(holders))
        assert len(partners) > 1
        return
    raise AssertionError("no position with a hidden partner")
