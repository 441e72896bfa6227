"""Two-handed 500 (issue 25), worked from the US card makers' two-hand game: the pack and the
deal of the three-hand game (33 cards), the hand on the dealer's left dealt face down and dead,
ten cards each, a widow of three; the two bid against each other, the contractor exchanges
with the widow and plays alone, tricks have two cards, each keeps an own score, a player at
-500 loses. Bidding, misère and scoring are the three-handed preset's (Avondale values)."""

from __future__ import annotations

import json

import pytest
from tests.five_hundred.random_games import (
    POLICIES,
    cards_in_view,
    check_view,
    conservation_problems,
    random_game,
)

from cardroom.games.cards import cards_of, mask_of
from cardroom.games.five_hundred import Game, Rules, RulesError
from cardroom.games.five_hundred.deal import layout
from cardroom.games.registry import GAMES

# The worked deal. Seat 0 deals; seat 1, the dealer's opponent, speaks first.
ONE = "JK JH JD AH KH QH 10H AS KS AC"
"""Seat 1: every top heart and both bowers."""
ZERO = "AD KD QD 10D 9D 8D KC QC JC 10C"
"""Seat 0: six diamonds and four clubs, no heart, no spade."""
KITTY = "9H 8H 7S"
DEAD = "QS JS 10S 9S 8S 9C 8C 7C 7D 7H"
"""The dead hand: ten cards nobody sees or plays."""


def worked_game(rules: Rules | str = "two-handed") -> Game:
    """The worked deal, seat 0 dealing."""
    return Game.from_deal(rules, dealer=0, hands=[ZERO.split(), ONE.split(), DEAD.split()],
                          kitty=KITTY.split())


def play_hand(game: Game, leads: list[str]) -> list[dict]:
    """Seat 1 leads ``leads`` in turn (winning each trick it leads); seat 0 plays its first
    legal card each time. Returns every event."""
    events: list[dict] = []
    for lead in leads:
        assert game.to_act == 1, game.completed[-1]
        events += game.apply(lead)
        events += game.apply(game.legal_actions()[0])
    return events




def test_the_preset() -> None:
    rules = Rules.preset("two-handed")
    assert (rules.players, rules.deck, rules.kitty_size, rules.dead_hands) == (2, "33", 3, 1)
    assert rules.teams == ((0,), (1,))
    assert rules.misere and rules.open_misere and rules.misere_placement == "after_seven"
    assert (rules.target, rules.lose_at, rules.win_needs_bid) == (500, -500, False)
    assert rules.deck_spec.size == 2 * 10 + 10 + 3


def test_the_deal_three_hands_of_ten_and_a_widow() -> None:
    game = Game.new("two-handed", seed=25, dealer=0)
    assert [hand.bit_count() for hand in game.hands] == [10, 10]
    assert game.kitty.bit_count() == 3 and game.dead.bit_count() == 10
    everything = game.hands[0] | game.hands[1] | game.kitty | game.dead
    assert everything == Rules.preset("two-handed").deck_spec.mask
    assert game.to_act == 1  # the dealer's opponent speaks first
    # 3-4-3 round three places, the dealer's left (the dead hand, 3) first, then the
    # opponent (1), then the dealer (0), with a card to the kitty (2) after each round.
    assert layout(2, 3, 0, 1)[:10] == (3, 3, 3, 1, 1, 1, 0, 0, 0, 2)


def test_a_made_contract_bidding_exchange_tricks_and_score() -> None:
    game = worked_game()
    # The bidding goes to and fro between the two until one passes.
    assert game.apply("bid 6H") == [{"type": "bid", "seat": 1, "bid": "6H"}]
    assert game.to_act == 0
    game.apply("bid 7D")
    game.apply("bid 8H")
    events = game.apply("pass")
    assert [e["type"] for e in events] == ["pass", "contract", "kitty_taken"]
    assert (game.contractor, str(game.contract), game.active) == (1, "8H", (0, 1))
    # The contractor takes the widow and puts three cards back.
    assert game.phase == "discard" and game.to_act == 1
    assert mask_of(game.view(1)["exchange"]) == mask_of(KITTY.split())
    game.apply("discard 7S KS AC")
    assert game.phase == "play" and game.to_act == 1
    # Tricks of two cards: nine trumps and the ace of spades take all ten.
    play_hand(game, ["play JK"])
    assert game.completed[0]["cards"] == ["JK", "10C"] and game.completed[0]["winner"] == 1
    events = play_hand(game, ["play JH", "play JD", "play AH", "play KH", "play QH",
                              "play 10H", "play 9H", "play 8H", "play AS"])
    result = game.history[0]
    assert result.tricks == (0, 10) and result.made
    # 8 hearts is worth 300, more than the slam's 250; the defender took no trick.
    assert result.points == (0, 300) and game.scores == [0, 300]
    assert [e["type"] for e in events[-2:]] == ["hand_scored", "deal"]
    assert game.dealer == 1 and game.to_act == 0  # the deal passes to the other player


def test_a_failed_contract_costs_its_value_and_the_defender_scores_its_trick() -> None:
    game = worked_game()
    game.apply("bid 10NT")
    game.apply("pass")
    game.apply("discard 7S KS AC")
    # Seven hearts, the joker (led naming spades) and the ace of spades: nine tricks; then the
    # jack of diamonds, led last, falls to seat 0's ace.
    play_hand(game, ["play AH", "play KH", "play QH", "play JH", "play 10H", "play 9H",
                     "play 8H", "play JK:S", "play AS"])
    game.apply("play JD")
    game.apply("play AD")
    result = game.history[0]
    assert result.tricks == (1, 9) and result.made is False
    assert result.points == (10, -520) and game.scores == [10, -520]
    # -520 is below -500: the other player wins the match.
    assert game.is_over and game.winner == 0


def test_the_first_to_500_wins() -> None:
    game = worked_game()
    game.scores = [450, 250]  # a match well on (defence points count towards 500 here)
    game.apply("bid 8H")
    game.apply("pass")
    game.apply("discard 7S KS AC")
    events = play_hand(game, ["play JK", "play JH", "play JD", "play AH", "play KH",
                              "play QH", "play 10H", "play 9H", "play 8H", "play AS"])
    assert game.scores == [450, 550]
    assert events[-1] == {"type": "match_over", "winner": 1, "scores": [450, 550]}
    assert game.is_over and game.winner == 1 and game.phase == "over"


def test_when_both_pass_the_deal_moves_on() -> None:
    game = worked_game()
    game.apply("pass")
    events = game.apply("pass")
    assert events[1] == {"type": "all_passed", "outcome": "next_dealer"}
    assert (game.hand_number, game.dealer, game.to_act) == (2, 1, 0)
    assert game.scores == [0, 0]


def test_misere_the_contractor_alone_against_the_other() -> None:
    game = worked_game()
    game.apply("bid 7S")
    assert "bid misere" in [str(a) for a in game.legal_actions()]  # misère after a seven
    game.apply("bid misere")
    game.apply("pass")
    assert (game.contractor, game.active) == (0, (0, 1))
    game.apply("discard AD KD QD")
    game.apply(game.legal_actions()[0])
    game.apply(game.legal_actions()[0])
    assert len(game.completed) == 1 and len(game.completed[0]["cards"]) == 2


def test_the_dead_hand_is_in_no_view_no_event_and_the_record_replays() -> None:
    game = worked_game()
    dead = set(DEAD.split())
    shown: set[str] = set()

    def look(events: list[dict]) -> None:
        shown.update(cards_in_view(json.dumps(events)))
        if game.hand_number > 1:
            return  # the next hand is dealt: its cards are new
        for seat in (0, 1, None):
            view = game.view(seat)
            assert "dead" not in json.dumps(view)
            shown.update(cards_in_view(json.dumps(view)))

    look([])
    for action in ["bid 6H", "bid 7D", "bid 8H", "pass", "discard 7S KS AC"]:
        look(game.apply(action))
    while game.hand_number == 1:
        look(game.apply(game.legal_actions()[0]))
    assert not shown & dead
    assert game.record.deal is not None and len(game.record.deal["hands"]) == 3
    twin = Game.replay(game.record)
    assert twin.record.to_text() == game.record.to_text()
    assert (twin.scores, twin.hands, twin.kitty, twin.dead) == (
        game.scores, game.hands, game.kitty, game.dead)


def test_a_deck_for_four_is_dealt_as_for_four_with_two_dead_hands() -> None:
    rules = Rules.from_dict({"preset": "two-handed", "deck": "45"})
    assert (rules.dead_hands, rules.kitty_size) == (2, 5)
    game = Game.new(rules, seed=3, dealer=1)
    assert [hand.bit_count() for hand in game.hands] == [10, 10]
    assert game.dead.bit_count() == 20 and game.kitty.bit_count() == 5
    # Round the four places: dead (3), the opponent (0), dead (4), the dealer (1).
    assert layout(2, 5, 1, 2)[:15] == (3, 3, 3, 0, 0, 0, 4, 4, 4, 1, 1, 1, 2, 2, 2)
    hands = [[str(c) for c in cards_of(mask)] for mask in game.hands]
    dead = [str(c) for c in cards_of(game.dead)]
    given = Game.from_deal(rules, 1, [*hands, dead[:10], dead[10:]],
                           [str(c) for c in cards_of(game.kitty)])
    assert (given.hands, given.dead, given.kitty) == (game.hands, game.dead, game.kitty)
    with pytest.raises(ValueError, match="a deal needs 4 hands"):
        Game.from_deal(rules, 1, [*hands, dead[:10]], [str(c) for c in cards_of(game.kitty)])


@pytest.mark.parametrize(("options", "words"), [
    ({"deck": "53"}, "33 deck or a deck for four"),
    ({"nello": True, "misere": False}, "partner"),
    ({"across_the_corner": True}, "partner"),
    ({"players": 1}, "2 to 6 players"),
])
def test_impossible_two_player_rules_are_refused(options: dict, words: str) -> None:
    with pytest.raises(RulesError, match=words):
        Rules.from_dict({"preset": "two-handed", **options})


def test_the_registry_and_the_rules_page_present_it_like_any_preset() -> None:
    spec = GAMES["500"]
    assert "two-handed" in spec.presets
    assert spec.preset_details("two-handed") == {
        "name": "two-handed", "title": "Two-handed",
        "blurb": "2 players face to face; 33 cards, a dead hand of 10 nobody sees",
        "players": 2, "teams": [[0], [1]]}
    catalogue = spec.catalogue()
    assert catalogue["presets"]["two-handed"]["players"] == 2
    page = json.dumps(spec.text.explain(Rules.preset("two-handed")), default=str)
    assert "dead hand" in page and "Two players sit face to face" in page
    assert spec.text.summary(Rules.preset("two-handed"))[0] == (
        "2 players, 33 cards, kitty of 3, 10 cards dead")


@pytest.mark.parametrize("preset", ["two-handed", "two-everything-45"])
def test_five_hundred_random_two_handed_matches(preset: str) -> None:
    """Whole random matches (besides the property tests' share): the cards, the dead hand
    included, are all in one place after every action; no view shows the dead hand (checked at
    every change of phase of one match in twenty); the scores are the sum of the hands' results;
    the record replays to the same match."""
    for number in range(500):
        policy = POLICIES[number % len(POLICIES)]
        moment = ""
        for game in random_game(preset, 2500 + number, policy):
            assert not conservation_problems(game), conservation_problems(game)
            if number % 20 == 0 and f"{game.hand_number}:{game.phase}" != moment:
                moment = f"{game.hand_number}:{game.phase}"
                for viewer in (0, 1, None):
                    check_view(game, viewer)
        assert game.is_over
        assert game.scores == [sum(hand.points[side] for hand in game.history)
                               for side in (0, 1)]
        twin = Game.replay(game.record)
        assert (twin.scores, twin.winner, twin.history) == (game.scores, game.winner,
                                                            game.history)
