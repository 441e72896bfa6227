"""Bidding, the bank, marriages, trumps and trick play of 1000, preset by preset."""

from __future__ import annotations

import pytest

from cardroom.games.cards import Card, mask_of
from cardroom.games.thousand import Game, IllegalAction, Record, Rules, trick_winner
from cardroom.games.thousand.deck import POINTS, playable
from tests.thousand.helpers import new_game, run, texts, win_bidding

MARRIED = {1: "KH QH KD QD AS 9C 9D"}
"""Seat 1 (first to bid when seat 0 deals) holds the heart and diamond marriages."""


def idx(text: str) -> list[int]:
    return [Card.parse(word).index for word in text.split()]


# -- tricks ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("cards", "trump", "winner"), [
    ("KS 10S AS", None, 2), ("10S KS QS", None, 0), ("9S AH AD", None, 0),
    ("9S AH 9H", 3, 1), ("AS 9H 10H", 3, 2), ("10D JD AC", 1, 2), ("JC QC KC", 0, 2),
])
def test_trick_winner(cards: str, trump: int | None, winner: int) -> None:
    assert trick_winner(idx(cards), trump) == winner


def test_card_points_total_120() -> None:
    from cardroom.games.thousand import PACK_MASK, points_of

    assert PACK_MASK.bit_count() == 24 and points_of(PACK_MASK) == 120
    assert [POINTS[i] for i in idx("AS 10S KS QS JS 9S")] == [11, 10, 4, 3, 2, 0]


def test_following_and_must_trump() -> None:
    hand = mask_of(["9S", "AH", "KD", "10D"])
    assert playable(hand, 0, 3, must_trump=False) == mask_of(["9S"])
    assert playable(hand, 1, 3, must_trump=False) == hand
    assert playable(hand, 1, 3, must_trump=True) == mask_of(["AH"])
    assert playable(hand, 1, None, must_trump=True) == hand


# -- bidding -----------------------------------------------------------------------------------


def test_seed_first_bidder_must_bid_and_dealer_is_the_host() -> None:
    game = Game.new("seed", seed=5)
    assert game.dealer == 0 and game.to_act == 1
    game.apply("look")
    legal = texts(game.legal_actions())
    assert "pass" not in legal and legal[0] == "bid 100" and legal[-1] == "bid 300"
    with pytest.raises(IllegalAction, match="must bid at least 100"):
        game.apply("pass")


def test_first_dealer_parameter_and_random_preset() -> None:
    assert Game.new("seed", seed=5, first_dealer=2).to_act == 0
    dealers = {Game.new("russian", seed=s).dealer for s in range(30)}
    assert dealers == {0, 1, 2}
    assert Game.new("russian", seed=4).dealer == Game.new("russian", seed=4).dealer


def test_bidding_rounds_until_all_but_one_pass() -> None:
    game = new_game("russian", MARRIED)
    run(game, "bid 100", "bid 105", "pass", "bid 110")
    assert game.to_act == 2 and game.high_bid == 110
    with pytest.raises(IllegalAction, match="at least 115"):
        game.apply("bid 110")
    with pytest.raises(IllegalAction, match="steps of 5"):
        game.apply("bid 117")
    game.apply("pass")
    assert game.phase == "give" and game.contractor == 1
    assert [b["bid"] for b in game.view(0)["bidding"]] == [100, 105, "pass", 110, "pass"]


def test_russian_cap_without_a_marriage() -> None:
    game = new_game("russian", {1: "AS 10S AC 10C AD 9H 9D"})
    assert texts(game.legal_actions())[-1] == "bid 120"
    with pytest.raises(IllegalAction, match="Without a marriage"):
        game.apply("bid 125")
    married = new_game("russian", MARRIED)
    assert texts(married.legal_actions())[-1] == "bid 300"


def test_blind_bids_never_pass_the_cap_and_need_no_look() -> None:
    game = new_game(Rules(marriage_cap=120), MARRIED)
    assert game.view(1)["hand"] is None
    assert texts(game.legal_actions())[-1] == "bid 120 blind"
    with pytest.raises(IllegalAction, match="Look at your cards first"):
        game.apply("bid 100")
    game.apply("look")
    assert game.view(1)["hand"] is not None and texts(game.legal_actions())[-1] == "bid 300"
    with pytest.raises(IllegalAction, match="bids are open now"):
        game.apply("bid 100 blind")


def test_all_pass_is_a_void_deal_when_nobody_must_bid() -> None:
    game = new_game(Rules(first_bidder_must_bid=False, blind_bidding=False), MARRIED)
    run(game, "pass", "pass", "pass")
    assert game.hand_number == 2 and game.dealer == 1 and game.history[0].contractor is None


# -- the bank ----------------------------------------------------------------------------------


def test_seed_bank_is_shown_then_three_discards_then_final_bet() -> None:
    game = win_bidding(new_game("seed", MARRIED, bank="AH 10H 9H"), 120)
    assert game.phase == "discard"
    assert game.view(0)["bank"] == game.view(2)["bank"] == ["9H", "10H", "AH"]
    assert game.view(None)["bank"] is not None and game.view(1)["hand_sizes"][1] == 10
    assert game.view(1)["discard_count"] == 3 and game.view(0)["discard_count"] is None
    assert len(game.legal_actions()) == 120
    with pytest.raises(IllegalAction, match="discard 3 cards"):
        game.apply("discard 9H 9D")
    game.apply("discard 9H 9C 9D")
    assert sorted(game.view(1)["discards"]) == ["9C", "9D", "9H"]
    assert game.view(0)["discards"] == [] and game.phase == "bet"
    assert texts(game.legal_actions())[0] == "bet 120"
    with pytest.raises(IllegalAction, match="may not be lowered"):
        game.apply("bet 110")
    game.apply("bet 160")
    assert game.bet == 160 and game.phase == "play" and game.to_act == 1


def test_hidden_bank_is_seen_only_by_its_taker() -> None:
    game = win_bidding(new_game(Rules(bank_shown=False), MARRIED), 100)
    assert game.view(0)["bank"] is None and game.view(None)["bank"] is None
    assert game.view(1)["bank"] is not None


def test_russian_gives_one_card_to_each_opponent() -> None:
    game = win_bidding(new_game("russian", MARRIED, bank="AH 10H 9H"), 100)
    assert game.phase == "give" and len(game.legal_actions()) == 10 * 9
    with pytest.raises(IllegalAction, match="You do not hold"):
        game.apply("give JS 9H")
    game.apply("give 9H 9C")
    assert [game.hands[s].bit_count() for s in range(3)] == [8, 8, 8]
    assert game.view(2)["gifts"] == [{"to": 2, "card": "9H"}]
    assert game.view(0)["gifts"] == [{"to": 0, "card": "9C"}]
    assert len(game.view(1)["gifts"]) == 2
    assert "9H" in game.view(2)["hand"] and "9H" not in (game.view(0)["hand"] or [])


def test_final_bet_cap_without_a_marriage() -> None:
    game = win_bidding(new_game("russian", MARRIED, bank="AH 10H 9H"), 100)
    game.apply("give KH 9H")  # breaks the heart marriage, keeps diamonds
    assert texts(game.legal_actions())[-1] == "bet 300"
    game = win_bidding(new_game("russian", MARRIED, bank="AH 10H 9H"), 100)
    game.apply("give KH KD")
    assert texts(game.legal_actions())[-1] == "bet 120"


# -- marriages and trumps ----------------------------------------------------------------------


def seed_play(bank: str = "AH 10H 9H") -> Game:
    game = win_bidding(new_game("seed", MARRIED, bank=bank), 120)
    return run(game, "discard 9H 9C 9D", "bet 120")


def test_seed_marriage_on_the_first_lead_makes_trumps_and_scores_at_once() -> None:
    game = seed_play()
    legal = texts(game.legal_actions())
    assert {"play KH marriage", "play QH marriage", "play KD marriage",
            "play QD marriage"} <= set(legal)
    assert "play AS marriage" not in legal
    events = game.apply("play QD marriage")
    assert {"type": "marriage", "seat": 1, "suit": "D", "points": 80} in events
    view = game.view(0)
    assert view["trump"] == "D" and view["marriage_points"] == [0, 80, 0]
    assert view["marriages"] == [{"seat": 1, "suit": "D", "points": 80}]


def test_a_second_marriage_changes_trumps() -> None:
    game = seed_play()
    game.apply("play KH marriage")
    play_first_legal(game, 2)  # the king of trumps wins: the bank brought the ace and ten
    game.apply("play QD marriage")
    assert game.trump == 2 and game.marriage_points[1] == 180


def test_marriage_refusals() -> None:
    game = seed_play()
    with pytest.raises(IllegalAction, match="leading its king or queen"):
        game.apply("play AS marriage")
    game.apply("play AS")
    with pytest.raises(IllegalAction, match="leading its king or queen"):
        game.apply(f"{texts(game.legal_actions())[0]} marriage")


def test_russian_marriage_not_on_the_first_trick() -> None:
    game = win_bidding(new_game("russian", MARRIED, bank="AH 10H 9H"), 100)
    run(game, "give 9H 9C", "bet 100")
    assert not any(a.endswith("marriage") for a in texts(game.legal_actions()))
    with pytest.raises(IllegalAction, match="not be declared on the first trick"):
        game.apply("play KH marriage")
    game.apply("play AH")
    play_first_legal(game, 2)
    assert game.to_act == 1 and "play KH marriage" in texts(game.legal_actions())


def play_first_legal(game: Game, count: int) -> None:
    """The next ``count`` players play their first legal card."""
    for _ in range(count):
        game.apply(texts(game.legal_actions())[0])


def test_russian_must_trump_when_void() -> None:
    game = new_game("russian", {1: "KH QH AH 10H AS 9D KD", 2: "KS QS JS 9S KC 9H JH"},
                    bank="10S QC 10C")
    win_bidding(game, 100)
    run(game, "give 10S 10C", "bet 100", "play AS")
    play_first_legal(game, 2)
    game.apply("play KH marriage")  # hearts are trumps from now on
    play_first_legal(game, 2)
    assert game.to_act == 1 and game.trump == 3
    game.apply("play 9D")
    assert texts(game.legal_actions()) == ["play JH"]  # void in diamonds: must trump
    with pytest.raises(IllegalAction, match="must play a trump"):
        game.apply("play KS")
    free = Rules.preset("russian").replace(must_trump=False)
    game = Game.replay(Record.from_dict({**game.record.to_dict(), "rules": free.to_dict()}))
    assert "play KS" in texts(game.legal_actions())


def test_must_follow_suit_refusal_names_the_suit() -> None:
    game = new_game("seed", {**MARRIED, 2: "9S 10C AC KC QC JC 10D"}, bank="AH 10H 9H")
    run(win_bidding(game, 120), "discard 9H 9C 9D", "bet 120", "play AS")
    assert texts(game.legal_actions()) == ["play 9S"]
    with pytest.raises(IllegalAction, match="Spades were led"):
        game.apply("play 10C")


# -- four players ------------------------------------------------------------------------------


def test_four_players_the_dealer_sits_out() -> None:
    game = Game.new(Rules(players=4), seed=3)
    assert game.sitting_out == 0 and game.active == (1, 2, 3) and game.to_act == 1
    assert game.view(0)["hand_sizes"] == [0, 7, 7, 7]
    while game.hand_number == 1:
        legal = texts(game.legal_actions())
        game.apply("pass" if "pass" in legal and game.phase == "bidding" else legal[0])
    assert game.history[0].points[0] == 0 and game.dealer == 1 and game.active == (0, 2, 3)


# -- refusals leave the game unchanged -----------------------------------------------------------


@pytest.mark.parametrize("text", ["bid 105", "bet 120", "play AS", "hello", "discard AS",
                                  "bid 100 blind blind"])
def test_illegal_actions_change_nothing(text: str) -> None:
    game = Game.new("seed", seed=9)
    game.apply("look")
    before = game.view(1)
    with pytest.raises(IllegalAction):
        game.apply(text)
    assert game.view(1) == before and len(game.record.actions) == 1


def test_out_of_turn_is_refused() -> None:
    game = Game.new("seed", seed=9)
    with pytest.raises(IllegalAction, match="seat 1's turn"):
        game.apply("look", seat=2)
