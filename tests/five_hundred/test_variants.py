"""Worked examples of the 500 variants: three, five and six players, the other four-player
decks, and every optional contract and rule (RULES.md 1.1–1.7, section 3)."""

from __future__ import annotations

import pytest

from cardroom.games.cards import Card, Suit, cards_of, parse_cards
from cardroom.games.five_hundred import Bid, Game, IllegalAction, Rules, RulesError, trick_winner
from cardroom.games.five_hundred.rules import ALL_PRESET_NAMES, DECKS, PRESET_NAMES
from cardroom.games.five_hundred.scoring import match_winner
from cardroom.games.five_hundred.tricks import strain_for
from conftest import finish_hand, first_legal, new_game, rules_of, run, texts

# -- decks ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("deck", "size", "kitty", "players"), [
    ("33", 33, 3, 3), ("43", 43, 3, 4), ("43-red-trump-4", 43, 3, 4), ("42", 42, 2, 4),
    ("45", 45, 5, 4), ("46", 46, 6, 4), ("53", 53, 3, 5), ("63", 63, 3, 6),
])
def test_deck_sizes_and_kitties(deck: str, size: int, kitty: int, players: int) -> None:
    spec = DECKS[deck]
    assert (spec.size, spec.kitty, spec.players) == (size, kitty, players)
    assert size == 10 * players + kitty


def test_deck_contents() -> None:
    assert "JK2" in {c.text for c in cards_of(DECKS["46"].mask)}
    assert not DECKS["42"].mask & Card.parse("JK").mask
    red4 = {c.text for c in cards_of(DECKS["43-red-trump-4"].mask)}
    assert {"4H", "4C"} <= red4 and not {"4S", "4D"} & red4
    assert min(c.rank for c in cards_of(DECKS["33"].mask) if c.rank is not None).label == "7"
    six = {c.text for c in cards_of(DECKS["63"].mask)}
    assert {"11S", "12S", "11H", "12H", "13H", "13D", "2C"} <= six
    assert not {"13S", "13C"} & six


@pytest.mark.parametrize("preset", ALL_PRESET_NAMES)
def test_every_preset_deals_ten_cards_each_and_the_kitty(preset: str) -> None:
    rules = Rules.preset(preset)
    game = Game.new(rules, seed=11)
    assert len(game.hands) == rules.players == game.players
    assert [h.bit_count() for h in game.hands] == [10] * rules.players
    assert game.kitty.bit_count() == rules.kitty_size
    view = game.view(0)
    assert view["players"] == rules.players and len(view["hand_sizes"]) == rules.players
    assert view["teams"] == [list(t) for t in rules.teams]


def test_six_handed_ranks_and_worked_example() -> None:
    assert trick_winner(["13H", "12H", "11H", "10H"], "NT") == 0
    assert trick_winner(["10H", "11H", "12H", "13H"], "NT") == 3
    assert trick_winner(["13H", "JH"], "NT") == 1
    strain = strain_for(Suit.HEARTS)
    hearts = [c for c in cards_of(DECKS["63"].mask) if strain.suit_of[c.index] == Suit.HEARTS]
    order = sorted(hearts, key=lambda c: -strain.keys[Suit.HEARTS][c.index])
    assert [c.text for c in order[:10]] == [
        "JK", "JH", "JD", "AH", "KH", "QH", "13H", "12H", "11H", "10H"]


def test_two_jokers_the_black_one_beats_the_other() -> None:
    assert trick_winner(["JK", "JK2"], "H") == 1
    assert trick_winner(["JK2", "JK"], "S") == 0
    assert trick_winner(["JK", "AH", "JK2"], "NT", nominated="H") == 2
    strain = strain_for(Suit.CLUBS)
    trumps = [c for c in cards_of(DECKS["46"].mask) if strain.suit_of[c.index] == Suit.CLUBS]
    assert len(trumps) == 14


@pytest.mark.parametrize("trump", list(Suit))
def test_red_trump_4_gives_thirteen_trumps_lowest_the_colour_four(trump: Suit) -> None:
    strain = strain_for(trump, colour_four=True)
    deck = DECKS["43-red-trump-4"].mask
    trumps = [c for c in cards_of(deck) if strain.suit_of[c.index] == trump]
    assert len(trumps) == 13
    lowest = min(trumps, key=lambda c: strain.keys[trump][c.index])
    assert lowest.text == ("4H" if trump.is_red else "4C")


def test_red_trump_4_worked_tricks() -> None:
    assert trick_winner(["AS", "4H"], "D", colour_four=True) == 1  # 4H ruffs in diamonds
    assert trick_winner(["5D", "4H"], "D", colour_four=True) == 0  # lowest trump
    assert trick_winner(["AC", "4C"], "S", colour_four=True) == 1
    assert trick_winner(["AS", "4H"], "D") == 0  # without the option 4H is a plain heart


def test_red_trump_4_game_makes_the_four_follow_trumps() -> None:
    rules = rules_of("classic", deck="43-red-trump-4")
    game = new_game(rules, {2: "4H AS KS QS JS 10S 9S 8S 7S 6S",
                            1: "5D 6D 7D 8D 9D 10D QD KD AD 5S"}, dealer=3)
    run(game, "pass", "bid 7D", "pass", "pass")
    run(game, f"discard {' '.join(c.text for c in cards_of(game.exchange))}")
    game.apply("play 5D")
    assert texts(game.legal_actions()) == ["play 4H"]  # seat 2 must follow trumps with it


# -- rules combinations ---------------------------------------------------------------------


@pytest.mark.parametrize(("options", "words"), [
    ({"preset": "classic", "deck": "63"}, "made for 6 players, not 4"),
    ({"preset": "classic", "players": 3}, "with 3 players use deck 33"),
    ({"preset": "classic", "players": 7}, "2 to 6 players"),
    ({"preset": "classic", "six_handed_teams": "three_teams_of_two"}, "only applies to six"),
    ({"preset": "five-handed", "double_nullo": True}, "one partner"),
    ({"preset": "six-handed", "slam_call": True}, "one partner"),
    ({"preset": "three-handed", "across_the_corner": True, "misere_placement": "by_value"},
     "one partner"),
    ({"preset": "classic", "deck": "42", "joker_lead_limits": True}, "has no joker"),
    ({"preset": "australian", "wilkinson_misere": True}, "any time"),
    ({"preset": "classic", "wilkinson_misere": True}, "allow one"),
])
def test_impossible_combinations_are_refused_with_a_reason(options: dict, words: str) -> None:
    with pytest.raises(RulesError, match=words):
        Rules.from_dict(options)


def test_six_players_in_three_pairs_may_play_partnership_contracts() -> None:
    rules = rules_of("six-handed", six_handed_teams="three_teams_of_two", slam_call=True,
                     double_nullo=True)
    assert rules.teams == ((0, 3), (1, 4), (2, 5))


def test_new_presets() -> None:
    three, five, six = (Rules.preset(n) for n in ("three-handed", "five-handed", "six-handed"))
    assert (three.players, three.deck, three.teams) == (3, "33", ((0,), (1,), (2,)))
    assert (five.players, five.deck) == (5, "53")
    assert (six.players, six.deck, six.teams) == (6, "63", ((0, 2, 4), (1, 3, 5)))
    for rules in (three, five, six):
        assert rules.misere and rules.open_misere and rules.all_pass == "next_dealer"
        assert rules.all_tricks_bonus == "slam_250"
    assert six.win_needs_bid and not three.win_needs_bid and not five.win_needs_bid
    assert set(PRESET_NAMES) == {"classic", "australian", "american", "online"}
    assert Rules.from_dict({"preset": "six-handed"}).preset_name == "six-handed"


# -- bids -----------------------------------------------------------------------------------


def test_new_contract_values_and_places_in_the_ladder() -> None:
    rules = rules_of("classic", misere=True, open_misere=True, blind_misere=True,
                     double_nullo=True, shields_double=True, patastrophe=True, hi_lo=True,
                     j5_no_trumps=True)
    values = {b.text: b.value for b in rules.bid_ladder}
    assert values["blind-misere"] == 1000 and values["patastrophe"] == 1000
    assert values["double-nullo"] == 500 and values["shields-double"] == 750
    assert values["hi-lo"] == 350 and values["7J5"] == 220 and values["10J5"] == 520
    ladder = [b.text for b in rules.bid_ladder]
    assert ladder.index("9C") < ladder.index("hi-lo") < ladder.index("9D")
    assert ladder.index("7NT") + 1 == ladder.index("7J5")
    assert ladder.index("open-misere") < ladder.index("double-nullo") < ladder.index("10H")
    assert ladder[-3:] == ["shields-double", "blind-misere", "patastrophe"]
    assert Bid.parse("5 and 5").text == "hi-lo" and Bid.parse("grand nullo").text == "double-nullo"


def test_j5_ranks_jacks_above_aces() -> None:
    assert trick_winner(["AH", "JH"], "7J5") == 1
    assert trick_winner(["AH", "JD"], "7J5") == 0  # no left bower: JD is a diamond
    assert trick_winner(["AH", "JH"], "7NT") == 0


# -- three players --------------------------------------------------------------------------


def test_three_handed_cut_throat_scores_each_player() -> None:
    game = Game.new("three-handed", seed=5, dealer=0)
    run(game, "bid 6S", "pass", "pass")
    assert game.phase == "discard" and game.to_act == 1
    assert game.active == (0, 1, 2) and game.contract_side == (1,)
    game.apply(game.legal_actions()[0])
    finish_hand(game)
    result = game.history[-1]
    value = 40 if result.made else -40
    if result.made and result.tricks[1] == 10:
        value = 250
    assert result.points[1] == value
    assert result.points[0] == 10 * result.tricks[0] and result.points[2] == 10 * result.tricks[2]
    assert len(game.scores) == 3


def test_three_handed_misere_nobody_folds() -> None:
    rules = rules_of("three-handed", misere_placement="by_value")
    game = Game.new(rules, seed=2, dealer=0)
    run(game, "bid misere", "pass", "pass")
    assert game.active == (0, 1, 2)


# -- five players ---------------------------------------------------------------------------


def five_handed_game() -> Game:
    return new_game("five-handed", {1: "JK JH JD AH KH QH 10H 9H 8H 7H",
                                    3: "AS KS QS 2C 3C 4C 5C 6C 7C 8C"}, dealer=0)


def test_five_handed_contractor_calls_a_partner_after_the_kitty() -> None:
    game = five_handed_game()
    run(game, "bid 7H", "pass", "pass", "pass", "pass")
    game.apply(f"discard {' '.join(c.text for c in cards_of(game.exchange))}")
    assert game.phase == "call" and game.to_act == 1
    legal = texts(game.legal_actions())
    assert "call AS" in legal and "call AH" not in legal and len(legal) == 43
    with pytest.raises(IllegalAction, match="hold"):
        game.apply("call AH")
    events = game.apply("call AS")
    assert {"type": "call", "seat": 1, "card": "AS"} in events
    assert game.phase == "play" and game.partners == (3,)
    assert game.view(2)["partners"] == [] and game.view(2)["called"] == ["AS"]
    assert game.view(3)["partners"] == [3]  # the holder knows
    assert game.view(2)["contract_side"] == [1]
    while 3 not in game.revealed:
        game.apply("play AS" if game.to_act == 3 and "play AS" in texts(game.legal_actions())
                   else first_legal(game))
    assert game.view(2)["partners"] == [3] and game.view(0)["contract_side"] == [1, 3]
    finish_hand(game)
    result = game.history[-1]
    assert result.contract_side == (1, 3)
    assert result.points[1] == result.points[3] == (200 if result.made else -200) or \
        result.points[1] == result.points[3] == 250
    for seat in (0, 2, 4):
        assert result.points[seat] == 10 * result.tricks[seat]


def test_five_handed_bid_of_eight_calls_two_partners() -> None:
    game = five_handed_game()
    run(game, "bid 8H", "pass", "pass", "pass", "pass")
    game.apply(f"discard {' '.join(c.text for c in cards_of(game.exchange))}")
    run(game, "call AS")
    assert game.phase == "call"
    with pytest.raises(IllegalAction, match="already"):
        game.apply("call AS")
    run(game, "call KS")
    assert game.phase == "play" and game.partners == (3,)  # both called cards with seat 3


def test_five_handed_misere_is_played_alone_without_a_call() -> None:
    game = Game.new(rules_of("five-handed", misere_placement="by_value"), seed=4, dealer=0)
    run(game, "bid misere", "pass", "pass", "pass", "pass")
    game.apply(game.legal_actions()[0])
    assert game.phase == "play" and game.active == (0, 1, 2, 3, 4)


# -- six players ----------------------------------------------------------------------------


def test_six_handed_misere_folds_both_partners() -> None:
    game = Game.new(rules_of("six-handed", misere_placement="by_value"), seed=8, dealer=0)
    run(game, "bid misere", *["pass"] * 5)
    assert game.contractor == 1 and game.active == (0, 1, 2, 4)


def test_six_handed_scores_per_team() -> None:
    game = Game.new("six-handed", seed=9)
    run(game, "bid 6NT", *["pass"] * 5)
    game.apply(game.legal_actions()[0])
    finish_hand(game)
    result = game.history[-1]
    assert len(result.points) == 2 and len(result.tricks) == 6
    side = game.team_of[result.contractor]
    assert result.contract_side == game.teams[side]


# -- slam call ------------------------------------------------------------------------------

SLAM_DEAL = {0: "5H 6H 7H 8H 9H 10H JH QH KH AH", 1: "5S 6S 7S 8S 9S 10S JS QS KS AS",
             2: "4D 5D 6D 7D 8D 9D 10D QD KD AD"}


def test_slam_made_scores_eight_of_the_suit() -> None:
    game = new_game(rules_of("classic", slam_call=True), SLAM_DEAL, kitty="4H JD JK", dealer=3)
    run(game, "bid 7H", "pass", "pass", "pass")
    assert "slam" in game.legal_actions() and game.view(0)["legal_actions"] == ["slam"]
    run(game, "slam")
    assert game.phase == "give" and game.to_act == 2 and game.view(2)["exchange"] is None
    run(game, "give 4D")
    assert game.phase == "discard" and game.exchange_count == 4 and game.active == (0, 1, 3)
    run(game, "discard 4H 5H 6H 4D")
    finish_hand(game)
    result = game.history[-1]
    assert result.made and result.points == (300, 0) and "slam" in result.summary


def test_slam_failed_costs_the_seven_plus_100() -> None:
    deal = {0: "5H 6H 7H 8H 9H 10H JH QH KH AH", 1: "JK 5S 6S 7S 8S 9S 10S JS QS KS"}
    game = new_game(rules_of("classic", slam_call=True), deal, kitty="4H JD AS", dealer=3)
    run(game, "bid 7H", "pass", "pass", "pass", "slam")
    game.apply(game.legal_actions()[0])
    given = cards_of(game.given)[0].text
    run(game, f"discard AS {given} 4H 5H")  # keeps ten trumps, but seat 1 holds the joker
    finish_hand(game)
    result = game.history[-1]
    assert result.made is False and result.points[0] == -300


def test_slam_only_after_a_seven() -> None:
    game = new_game(rules_of("classic", slam_call=True), SLAM_DEAL, kitty="4H JD JK", dealer=3)
    run(game, "bid 8H", "pass", "pass", "pass")
    assert "slam" not in game.legal_actions()
    with pytest.raises(IllegalAction):
        game.apply("slam")


# -- no-tricks contracts --------------------------------------------------------------------

LOW_45 = {0: "4S 5S 6S 7S 8S 4C 5C 6C 7C 8C", 1: "9S 10S JS QS KS AS 9C 10C JC QC",
          2: "QD KD AD 4H 5H 6H 7H 8H 9H 10H", 3: "KC AC 4D 5D 6D 7D 8D 9D 10D JD"}
LOW_45_KITTY = "JH QH KH AH JK"


def pair_game(**options: object) -> Game:
    return new_game(rules_of("classic", deck="45", **options), LOW_45, kitty=LOW_45_KITTY,
                    dealer=3)


def test_double_nullo_both_play_and_partner_picks_from_the_discards() -> None:
    game = pair_game(double_nullo=True)
    run(game, "bid double-nullo", "pass", "pass", "pass")
    assert game.active == (0, 1, 2, 3)
    run(game, "discard JH QH KH AH JK")
    assert game.phase == "partner_discard" and game.to_act == 2
    assert game.view(2)["handed_over"] == ["JH", "QH", "KH", "AH", "JK"]
    assert game.view(1)["handed_over"] == []
    run(game, "discard JH QH KH AH JK")
    assert game.makers() == (0, 2)
    finish_hand(game)
    result = game.history[-1]
    taken = result.tricks[0] + result.tricks[2]
    assert result.points == ((500, 0) if taken == 0 else (-500, 10 * taken))


def test_shields_double_shows_partners_hand_after_the_first_trick() -> None:
    game = pair_game(shields_double=True)
    run(game, "bid shields-double", "pass", "pass", "pass",
        "discard JH QH KH AH JK", "discard JH QH KH AH JK")
    for _ in range(4):
        assert "2" not in game.view(1)["open_hands"]
        game.apply(first_legal(game))
    if game.hand_number == 1:
        assert game.open_seats == (2,)
        assert set(game.view(1)["open_hands"]) == {"2"}
        assert "0" not in game.view(1)["open_hands"]


def test_patastrophe_shows_both_hands_and_is_worth_1000() -> None:
    game = pair_game(patastrophe=True)
    run(game, "bid patastrophe", "pass", "pass", "pass",
        "discard JH QH KH AH JK", "discard JH QH KH AH JK")
    for _ in range(4):
        game.apply(first_legal(game))
    if game.hand_number == 1:
        assert game.open_seats == (0, 2)
    finish_hand(game)
    assert abs(game.history[-1].points[0]) == 1000


def test_wilkinson_misere_is_played_open_and_open_misere_without_the_kitty() -> None:
    game = pair_game(misere=True, open_misere=True, wilkinson_misere=True)
    run(game, "bid misere", "pass", "pass", "pass", "discard JH QH KH AH JK")
    for _ in range(3):
        game.apply(first_legal(game))
    assert game.open_seats == (0,)
    spread = pair_game(misere=True, open_misere=True, wilkinson_misere=True)
    run(spread, "bid open-misere", "pass", "pass", "pass")
    assert spread.phase == "play" and spread.kitty.bit_count() == 5


def test_blind_misere_only_as_the_first_call() -> None:
    rules = rules_of("classic", deck="45", blind_misere=True, rebid="any_time")
    game = new_game(rules, LOW_45, kitty=LOW_45_KITTY, dealer=3)
    assert "bid blind-misere" in texts(game.legal_actions())
    run(game, "bid 6S", "bid 6C", "pass", "pass")
    assert game.to_act == 0
    assert "bid blind-misere" not in texts(game.legal_actions())
    with pytest.raises(IllegalAction, match="first call"):
        game.apply("bid blind-misere")
    assert "bid blind-misere" in texts(Game.new(rules, seed=1).legal_actions())


def test_hi_lo_needs_exactly_five_tricks_and_partner_folds() -> None:
    game = pair_game(hi_lo=True)
    run(game, "bid hi-lo", "pass", "pass", "pass", "discard JH QH KH AH JK")
    assert game.active == (0, 1, 3) and game.strain.trump is None
    finish_hand(game)
    result = game.history[-1]
    assert result.made == (result.tricks[0] == 5)
    assert result.points[0] == (350 if result.made else -350)
    assert result.points[1] == 10 * (result.tricks[1] + result.tricks[3])


# -- ralphing, misdeal ------------------------------------------------------------------------


def test_ralphing_bars_a_badly_set_contractor_from_the_next_bidding() -> None:
    game = pair_game(ralphing=True, lose_at=None)
    run(game, "bid 10NT", "pass", "pass", "pass", "discard JH QH KH AH JK")
    finish_hand(game)
    result = game.history[-1]
    assert result.tricks[0] + result.tricks[2] <= 7
    assert game.barred == 0 and game.view(1)["barred"] == 0
    while game.to_act != 0:
        game.apply("pass")
    assert texts(game.legal_actions()) == ["pass"]
    with pytest.raises(IllegalAction, match="may not bid"):
        game.apply("bid 6S")


def test_misdeal_for_a_hand_without_face_cards() -> None:
    game = pair_game(misdeal_no_face=True)
    assert game.to_act == 0 and "misdeal" in texts(game.legal_actions())
    assert "misdeal" not in texts(pair_game().legal_actions())
    events = game.apply("misdeal")
    assert events[0] == {"type": "misdeal", "seat": 0}
    assert game.hand_number == 2 and game.dealer == 3 and game.history[-1].contract is None
    assert game.history[-1].points == (0, 0)


def test_misdeal_refused_with_a_face_card() -> None:
    game = pair_game(misdeal_no_face=True)
    game.apply("pass")
    assert "misdeal" not in texts(game.legal_actions())  # seat 1 holds jacks and better
    with pytest.raises(IllegalAction, match="face card"):
        game.apply("misdeal")


# -- the joker ------------------------------------------------------------------------------

JOKER_DEAL = {0: "JK AS KS QS AC KC QC AD KD QD", 1: "JS 10S 9S JC 10C 9C JD 10D 9D AH"}


def test_contractor_names_the_jokers_suit_before_the_first_lead() -> None:
    game = new_game(rules_of("classic", joker_suit_nomination=True), JOKER_DEAL, dealer=3)
    run(game, "bid 7NT", "pass", "pass", "pass")
    game.apply("discard " + " ".join(c.text for c in cards_of(game.exchange)))
    assert game.phase == "joker" and texts(game.legal_actions())[:2] == ["pass", "joker S"]
    run(game, "joker H")
    assert game.phase == "play" and game.view(1)["contract"]["joker_suit"] == "H"
    assert "play JK" in texts(game.legal_actions())  # led as a plain heart: no suit to name
    strain = game.strain
    assert strain.suit_of[Card.parse("JK").index] == Suit.HEARTS
    assert strain.winner([Card.parse("AH").index, Card.parse("JK").index], 3) == 1
    assert strain.winner([Card.parse("AS").index, Card.parse("JK").index], 0) == 0


def test_a_contractor_without_the_joker_is_not_asked_to_name_its_suit() -> None:
    """Only the joker's holder names its suit: a no-trumps contractor without it could
    otherwise name a suit and force a defender's joker out on that suit's lead."""
    deal = {1: "JK AS KS QS AC KC QC AD KD QD", 0: "JS 10S 9S JC 10C 9C JD 10D 9D AH"}
    game = new_game(rules_of("classic", joker_suit_nomination=True), deal, dealer=3)
    run(game, "bid 7NT", "pass", "pass", "pass")
    game.apply("discard " + " ".join(c.text for c in cards_of(game.exchange)))
    assert not game.hands[0] & Card.parse("JK").mask
    assert game.phase == "play" and game.view(0)["contract"]["joker_suit"] is None
    assert not any(text.startswith("joker") for text in texts(game.legal_actions()))


def test_joker_lead_limits() -> None:
    game = new_game(rules_of("classic", joker_lead_limits=True), JOKER_DEAL, dealer=3)
    run(game, "bid 7NT", "pass", "pass", "pass")
    game.apply("discard " + " ".join(c.text for c in cards_of(game.exchange)))
    assert {"play JK:S", "play JK:H"} <= set(texts(game.legal_actions()))
    game.suits_led = 0b0001  # spades have been led this hand
    legal = texts(game.legal_actions())
    assert "play JK:S" not in legal and "play JK:H" in legal
    with pytest.raises(IllegalAction, match="already led"):
        game.apply("play JK:S")
    game.suits_led = 0b1111
    assert not any(text.startswith("play JK") for text in texts(game.legal_actions()))


def test_two_jokers_in_no_trumps_each_name_a_suit() -> None:
    rules = rules_of("classic", deck="46")
    game = new_game(rules, {0: "JK JK2 AS KS QS AC KC QC AD KD"}, dealer=3)
    run(game, "bid 7NT", "pass", "pass", "pass")
    game.apply("discard " + " ".join(c.text for c in cards_of(game.exchange)))
    legal = texts(game.legal_actions())
    assert "play JK2:H" in legal and "play JK:D" in legal
    assert str(parse_cards("JK2")[0]) == "JK2"


# -- defence caps and the end of the match ---------------------------------------------------


def test_defender_points_capped_at_490() -> None:
    game = pair_game(defender_points="not_over_490")
    game.scores = [0, 470]
    run(game, "bid 10NT", "pass", "pass", "pass", "discard JH QH KH AH JK")
    finish_hand(game)
    result = game.history[-1]
    assert result.points[1] == min(20, 10 * (result.tricks[1] + result.tricks[3]))


def test_defender_points_capped_at_400() -> None:
    game = pair_game(defender_points="not_over_400")
    game.scores = [0, 420]
    run(game, "bid 10NT", "pass", "pass", "pass", "discard JH QH KH AH JK")
    finish_hand(game)
    assert game.history[-1].points[1] == 0


def test_when_several_sides_fall_below_the_losing_score() -> None:
    game = Game.new("three-handed", seed=1)
    game.contractor, game.contract_side = 0, (0,)
    game.scores = [-600, -550, 100]
    assert match_winner(game, False) == 2
    four = Game.new(rules_of("classic", both_at_lose_at="contractor_loses"), seed=1)
    four.contractor, four.contract_side = 0, (0, 2)
    four.scores = [-500, -700]
    assert match_winner(four, False) == 1
    higher = Game.new("classic", seed=1)
    higher.contractor, higher.contract_side = 0, (0, 2)
    higher.scores = [-500, -700]
    assert match_winner(higher, False) == 0


def test_first_lead_by_the_dealers_left() -> None:
    game = pair_game(first_lead="dealer_left")
    run(game, "pass", "bid 7S", "pass", "pass")
    game.apply("discard " + " ".join(c.text for c in cards_of(game.exchange)))
    assert game.phase == "play" and game.to_act == 0


# -- what an outside referee read otherwise (issue 18) --------------------------------------


def _failed_misere(**options: object) -> Game:
    """An online misère whose maker leads the ace of hearts and so takes the first trick
    (then play stops or goes on, as the options say)."""
    deal = {0: "AS KS QS AC KC QC AD KD QD 9S", 1: "AH KH QH JH 10H 4S 5S 4C 5C 4D"}
    game = new_game(rules_of("online", **options), deal, dealer=0)
    run(game, "bid misere", "pass", "pass", "pass")
    game.apply("discard " + " ".join(c.text for c in cards_of(game.exchange)))
    game.apply("play AH")
    while game.phase == "play":
        game.apply(game.legal_actions()[-1])
    return game


@pytest.mark.parametrize(("options", "paid"), [
    ({"misere_failure": "stop"}, True),
    ({"misere_failure": "stop", "misere_trick_points": False}, False),
    ({"misere_failure": "play_on"}, True),
    ({"misere_failure": "play_on", "misere_trick_points": False}, False)])
def test_the_defence_is_paid_for_a_failed_misere_as_the_rules_say(
        options: dict, paid: bool) -> None:
    """The defenders score 10 for each trick the misère maker took (seeds 000 and 004), or
    nothing with ``misere_trick_points`` off, whether play stops or goes on."""
    game = _failed_misere(**options)
    result = game.history[-1]
    maker, defence = game.team_of[1], game.team_of[0]
    taken = result.tricks[1]
    assert result.made is False and result.points[maker] == -250 and taken >= 1
    assert taken == 1 or options["misere_failure"] == "play_on"
    assert result.points[defence] == (10 * taken if paid else 0)


@pytest.mark.parametrize(("target_tie", "both_reach", "contractor", "winner"), [
    ("contractor", "contractor", 2, None),   # the tied sides did not bid: another hand
    ("contractor", "higher_score", 0, 0),    # the contractor's side is one of the tied
    ("contractor", "higher_score", 2, None),
    ("play_on", "higher_score", 0, None),    # a tie is never settled by who bid
    ("play_on", "contractor", 0, 0),         # ... unless the contractor's side wins anyway
])
def test_an_exact_tie_at_the_winning_score_is_settled_as_the_rules_say(
        target_tie: str, both_reach: str, contractor: int, winner: int | None) -> None:
    """Two players of a three-handed game reach 500 with exactly the same score: the
    contractor's side takes it (``target_tie: contractor``) or another hand is dealt; never
    the first of them by seat, as before."""
    game = Game.new(rules_of("three-handed", target_tie=target_tie,
                             both_reach_target=both_reach), seed=1)
    game.scores = [510, 510, 100]
    game.contractor, game.contract_side = contractor, (contractor,)
    assert match_winner(game, made=False) == winner
