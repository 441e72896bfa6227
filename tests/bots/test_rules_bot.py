"""The rules bot: always legal, sound in textbook situations, and stronger than the others."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardroom.bots import RulesBot, make_bot
from cardroom.bots.five_hundred.rules_bot import Table
from cardroom.bots.five_hundred.valuation import misere_danger, no_trump_tricks, suit_tricks
from cardroom.games.cards import Card, Suit, cards_of
from cardroom.games.five_hundred import PRESET_NAMES, Bid, Game, Rules
from cardroom.games.five_hundred.rules import ALL_PRESET_NAMES
from cardroom.tools.arena import run_arena

SPECIAL_BIDS = ("bid misere", "bid open-misere", "bid nello", "bid across-the-corner",
                "bid across-the-table")


def check_legal(view: dict[str, Any], action: str) -> None:
    """The action is one the view offers, or a discard of the right number of held cards."""
    count = view["discard_count"]
    if not count:
        assert action in view["legal_actions"], (action, view["legal_actions"])
        return
    verb, *cards = action.split()
    assert verb == "discard" and len(set(cards)) == len(cards) == count
    assert set(cards) <= set(view["hand"])


class Gambler:
    """Drives the bidding towards special contracts (and odd trick bids) so the rules bot
    has to play them; every other decision is the rules bot's."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.bot = RulesBot(seed)

    def choose(self, view: dict[str, Any]) -> str:
        legal = view["legal_actions"]
        if view["phase"] != "bidding" or self.rng.random() < 0.3:
            return self.bot.choose(view)
        specials = [action for action in legal if action in SPECIAL_BIDS]
        return self.rng.choice(specials or legal[:4])


def play_checked(game: Game, bots: list[Any], limit: int) -> set[str]:
    """Play up to ``limit`` actions, checking each is legal; return the contracts played."""
    for _ in range(limit):
        if game.is_over:
            break
        seat: int = game.to_act  # type: ignore[assignment]
        view = game.view(seat)
        action = bots[seat].choose(view)
        check_legal(view, action)
        game.apply(action)
    return {Bid.parse(h.contract).contract.value for h in game.history if h.contract}


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_rules_bot_is_legal_in_whole_matches(preset: str) -> None:
    for seed in range(8):
        game = Game.new(preset, seed=seed)
        play_checked(game, [make_bot("rules", seed + s) for s in range(4)], 5000)
        assert game.is_over


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_rules_bot_is_legal_in_special_contracts(preset: str) -> None:
    rules = Rules.preset(preset).replace(target=100_000, lose_at=None)
    seen: set[str] = set()
    for seed in range(6):
        bots = [RulesBot(seed) if seat == seed % 4 else Gambler(seed * 4 + seat)
                for seat in range(4)]
        seen |= play_checked(Game.new(rules, seed=seed), bots, 600)
    expected = {"classic": set(), "australian": {"open-misere"}, "american": {"nello"},
                "online": {"misere", "across-the-corner", "across-the-table"}}[preset]
    assert {"tricks"} | expected <= seen, seen


# -- every table: three to six players, every deck and optional contract -------------------

_OPTIONAL = dict(misere=True, open_misere=True, misere_placement="by_value", blind_misere=True,
                 hi_lo=True, j5_no_trumps=True, ralphing=True, misdeal_no_face=True,
                 joker_suit_nomination=True, joker_lead_limits=True)
_PARTNERED = dict(double_nullo=True, shields_double=True, patastrophe=True, slam_call=True,
                  across_the_corner=True, across_the_table=True)
EVERY_TABLE = {
    **{name: Rules.preset(name) for name in ALL_PRESET_NAMES},
    "46-everything": Rules.from_dict({"preset": "online", "deck": "46", **_OPTIONAL,
                                      **_PARTNERED}),
    "red-trump-4-wilkinson": Rules.from_dict({"preset": "australian", "deck": "43-red-trump-4",
                                              **_OPTIONAL, "wilkinson_misere": True}),
    "42-everything": Rules.from_dict({"preset": "classic", "deck": "42", **_PARTNERED,
                                      **{k: v for k, v in _OPTIONAL.items()
                                         if not k.startswith("joker")}}),
    "six-in-pairs": Rules.from_dict({"preset": "six-handed", **_OPTIONAL, **_PARTNERED,
                                     "six_handed_teams": "three_teams_of_two"}),
    "five-everything": Rules.from_dict({"preset": "five-handed", **_OPTIONAL}),
    "three-everything": Rules.from_dict({"preset": "three-handed", **_OPTIONAL}),
}
"""Every preset and rule sets with (nearly) every option on, for every player count."""


@pytest.mark.parametrize("table", EVERY_TABLE)
def test_quick_bots_are_legal_at_every_table(table: str) -> None:
    """Random, simple and rules bots (and a gambler reaching for the special contracts) play
    whole matches legally, whatever the number of players, deck or contract."""
    rules = EVERY_TABLE[table]
    kinds = ("rules", "simple", "random")
    for seed in range(3):
        game = Game.new(rules, seed=seed)
        bots = [Gambler(seed + seat) if (seat + seed) % 4 == 3
                else make_bot(kinds[(seat + seed) % 3], seed + seat)
                for seat in range(game.players)]
        play_checked(game, bots, 1500)


def test_five_handed_contractor_calls_the_top_trump_it_lacks() -> None:
    game = deal("five-handed", {1: "JH JD AH KH QH 10H 9H 8H 7H 6H"}, kitty="2C 3C 4C",
                dealer=0)
    apply_all(game, "bid 7H", "pass", "pass", "pass", "pass", "discard 2C 3C 4C")
    assert game.phase == "call"
    assert rules_choice(game) == "call JK"


def test_three_handed_defenders_play_together() -> None:
    game = Game.new("three-handed", seed=3, dealer=0)
    apply_all(game, "bid 6S", "pass", "pass")
    game.apply(game.legal_actions()[0])
    view = game.view(2)
    table = Table(view)
    assert table.friends == {0, 2} and not table.friend(1) and not table.attacking
    assert Table(game.view(1)).friends == {1}


def test_six_handed_teams_of_three_are_friends() -> None:
    game = Game.new("six-handed", seed=3, dealer=0)
    assert Table(game.view(2)).friends == {0, 2, 4}


# -- situations ------------------------------------------------------------------------------


def deal(rules: Rules | str, fixed: dict[int, str], kitty: str = "", dealer: int = 3) -> Game:
    """A first deal where the ``fixed`` seats hold the given cards (and the kitty, if given);
    the rest of the deck goes, in index order, to the other seats and then the kitty."""
    rules = Rules.preset(rules) if isinstance(rules, str) else rules
    hands = {seat: text.split() for seat, text in fixed.items()}
    taken = {card for cards in hands.values() for card in cards} | set(kitty.split())
    spare = [str(c) for c in cards_of(rules.deck_spec.mask) if str(c) not in taken]
    for seat in range(rules.players):
        if seat not in hands:
            hands[seat], spare = spare[:10], spare[10:]
    return Game.from_deal(rules, dealer=dealer, hands=[hands[s] for s in range(rules.players)],
                          kitty=kitty.split() or spare)


def apply_all(game: Game, *actions: str) -> Game:
    """Apply some actions in order."""
    for action in actions:
        game.apply(action)
    return game


def rules_choice(game: Game) -> str:
    """What the rules bot does for the seat to act."""
    return RulesBot().choose(game.view(game.to_act))  # type: ignore[arg-type]


STRONG_HEARTS = "JK JH JD AH KH QH AS AC 6C 6S"
WEAK = "5S 6D 7C 8S 9D 10C 5D 7S 8C 9S"


def test_bids_a_strong_hand_and_passes_a_weak_one() -> None:
    game = deal("online", {0: STRONG_HEARTS, 1: WEAK}, "4D 5C 4C 4S 10D")
    bid = rules_choice(game)
    assert bid.startswith("bid ") and Bid.parse(bid[4:]).trump is Suit.HEARTS
    assert Bid.parse(bid[4:]).tricks >= 8
    apply_all(game, bid)
    assert rules_choice(game) == "pass"


CLASSIC_HANDS = {0: "JK JH JD AH KH QH KC 7C 6S 7S",
                 1: "5C 8S 9S 10S 5D 6D 7D 8D 9D 4H",
                 2: "AC 6C 8C JS KS 10D QD KD 5H 6H",
                 3: "QS AS 5S QC JC 10C 9C AD 7H 8H"}
"""A classic deal: seat 0 has a big heart hand; seats 2 and 3 hold the top spades and clubs."""


def hearts_by_seat_0() -> Game:
    """The classic deal above, seat 0 having won the bidding with 6 hearts and put the kitty
    back as dealt."""
    game = deal("classic", CLASSIC_HANDS)
    kitty = " ".join(str(card) for card in cards_of(game.kitty))
    return apply_all(game, "bid 6H", "pass", "pass", "pass", f"discard {kitty}")


def test_leads_trumps_with_a_strong_trump_holding() -> None:
    game = hearts_by_seat_0()
    action = rules_choice(game)
    assert action == "play JK"


def test_does_not_overtake_partners_winning_trick() -> None:
    game = apply_all(hearts_by_seat_0(), "play KC", "play 5C")
    assert rules_choice(game) == "play 6C"


def test_wins_as_cheaply_as_it_can() -> None:
    game = apply_all(hearts_by_seat_0(), "play 6S", "play 10S", "play JS")
    assert rules_choice(game) == "play QS"


def test_ruffs_cheaply_when_partners_card_is_beaten() -> None:
    hands = {0: CLASSIC_HANDS[0], 1: "QS 8S 9S 10S 5D 6D 7D 8D 9D 5C",
             2: "AC 6C 8C 4H 5H 6H 10D QD KD 9C"}
    game = deal("classic", hands)
    kitty = " ".join(str(card) for card in cards_of(game.kitty))
    apply_all(game, "bid 6H", "pass", "pass", "pass", f"discard {kitty}", "play 6S", "play QS")
    assert rules_choice(game) == "play 4H"


def test_misere_bidder_ducks_with_its_highest_losing_card() -> None:
    rules = Rules.preset("online").replace(first_lead="dealer_left")
    game = deal(rules, {1: "4S 7S 10S QS 4C 6C 4D 5D 4H 6H", 0: "9S 8S AS KS AC KC QC AD KD QD"})
    kitty = " ".join(str(card) for card in cards_of(game.kitty))
    apply_all(game, "pass", "bid misere", "pass", "pass", f"discard {kitty}", "play 9S")
    assert rules_choice(game) == "play 7S"


def test_misere_defender_leads_low_into_the_bidders_suits() -> None:
    rules = Rules.preset("online").replace(first_lead="dealer_left")
    game = deal(rules, {1: "4S 7S 10S QS 4C 6C 4D 5D 4H 6H", 0: "5S 8S AS KS AC KC QC AD KD QD"})
    kitty = " ".join(str(card) for card in cards_of(game.kitty))
    apply_all(game, "pass", "bid misere", "pass", "pass", f"discard {kitty}")
    assert rules_choice(game) == "play 5S"  # the bidder's 4S is its only spade below it


# -- evaluation and strength ------------------------------------------------------------------


def test_hand_evaluation_tells_strong_from_weak() -> None:
    deck = Rules.preset("online").deck_spec.mask
    strong = [Card.parse(text) for text in STRONG_HEARTS.split()]
    weak = [Card.parse(text) for text in WEAK.split()]
    assert suit_tricks(strong, Suit.HEARTS, deck) > 6 > suit_tricks(weak, Suit.SPADES, deck)
    assert suit_tricks(strong, Suit.CLUBS, deck) == 0  # two clubs are no trump suit
    assert no_trump_tricks(weak, deck) == 0  # nothing stops the suits
    low = [Card.parse(text) for text in ("4S", "5S", "7S", "4C", "6C", "8C", "4D", "6D", "4H",
                                         "5H")]
    assert misere_danger(low, deck) == 0 < misere_danger(strong, deck)


def test_rules_beats_simple_clearly() -> None:
    report = run_arena(Rules.preset("online"), "rules", "simple", sets=30, seed=500)
    assert report.win_rate("a").value >= 0.65, report.win_rate("a")


@pytest.mark.parametrize("preset", ["classic", "american"])
def test_rules_beats_random_nearly_always(preset: str) -> None:
    report = run_arena(Rules.preset(preset), "rules", "random", sets=10, seed=900)
    assert report.win_rate("a").value >= 0.9, report.win_rate("a")
