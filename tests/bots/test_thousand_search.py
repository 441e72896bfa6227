"""The 1000 search bot searches every table: each preset and the house rules that change the
play (a fourth player sitting out, must-trump with marriages on any lead, a blind contract),
from the first card of a deal to the last, solving its sampled deals double-dummy; it plays
by rule only when no deal can be sampled and says why; and it reads nothing but its view.

There is one kind of contract in 1000 (a bet of card points, marriages changing trumps), so
the tables below and every point of the deal are the cases."""

from __future__ import annotations

import logging

import pytest

from cardroom.bots.thousand.knowledge import Seen
from cardroom.bots.thousand.rules_bot import ThousandRulesBot
from cardroom.bots.thousand.search import (
    BET_SAMPLES,
    CAUTION,
    LEVELS,
    SolverLevel,
    ThousandSearchBot,
    best_bet,
)
from cardroom.games.thousand import PRESET_NAMES, Game, Rules
from cardroom.tables.hints import explain

TABLES: dict[str, Rules] = {
    **{name: Rules.preset(name) for name in PRESET_NAMES},
    "four players": Rules.preset("russian").replace(players=4),
    "must trump, marriages on any lead": Rules.preset("seed").replace(must_trump=True),
}
"""Every preset, and tables only house rules make."""

PATIENT = SolverLevel(budget=60.0, samples=2, ending=6)
"""A level that solves whatever it is given, however loaded the machine: the test asks
whether the bot searches, not how fast."""


def in_play(rules: Rules, seed: int, tricks_left: int, blind: bool = False) -> Game:
    """A game of ``rules`` in its first deal's play, at the start of a trick with
    ``tricks_left`` tricks to play, reached by the rules bot (bidding blind if asked and
    allowed)."""
    game = Game.new(rules, seed=seed)
    bot = ThousandRulesBot(seed)
    while True:
        seat = game.to_act
        assert seat is not None and game.hand_number == 1
        legal = [str(a) for a in game.legal_actions()]
        if game.phase == "play" and not game.trick and game.hands[seat].bit_count() == tricks_left:
            return game
        blind_bid = [a for a in legal if a.startswith("bid") and blind]
        action = blind_bid[0] if blind_bid and game.high_bid is None else bot.choose(
            game.view(seat))
        game.apply(action, seat=seat)


def full_deal(rules: Rules) -> int:
    """Tricks in a deal: seven with three discards, eight when the contractor gives."""
    return 7 if rules.bank_use == "discard" else 8


@pytest.mark.parametrize("table", list(TABLES))
def test_every_table_is_searched_from_the_first_card(table: str) -> None:
    """At its own level the bot searches the first lead of a whole deal (no play by rule)."""
    rules = TABLES[table]
    game = in_play(rules, 3, full_deal(rules))
    bot = ThousandSearchBot(seed=1)
    view = game.view(game.to_act)
    assert bot.choose(view) in view["legal_actions"]
    assert bot.last_samples >= 1
    assert bot.last_reason is None or "rule" not in bot.last_reason


@pytest.mark.parametrize("table", list(TABLES))
def test_every_table_is_solved_exactly(table: str) -> None:
    """Given the time, every sampled deal is solved whole, from the second trick on (a whole
    deal of eight tricks can take seconds: bench/thousand_solver.py)."""
    rules = TABLES[table]
    for tricks_left in range(2, full_deal(rules)):
        game = in_play(rules, 5, tricks_left)
        bot = ThousandSearchBot(seed=1)
        bot.level = PATIENT
        view = game.view(game.to_act)
        if len(view["legal_actions"]) < 2:
            continue
        assert bot.choose(view) in view["legal_actions"]
        assert bot.last_reason is None, bot.last_reason
        assert bot.last_exact == bot.last_samples == PATIENT.samples


def test_a_blind_contract_is_searched() -> None:
    game = in_play(TABLES["seed"], 2, 5, blind=True)
    assert game.blind
    bot = ThousandSearchBot(seed=1)
    bot.level = PATIENT
    view = game.view(game.to_act)
    assert bot.choose(view) in view["legal_actions"]
    assert bot.last_exact == bot.last_samples == PATIENT.samples


def test_a_deal_out_of_time_is_played_out_to_an_ending_and_says_so(
        caplog: pytest.LogCaptureFixture) -> None:
    """With no time at all the first sampled deal is still searched: played out greedily to
    the level's ending and solved from there, which the debug log tells."""
    rules = TABLES["russian"]
    game = in_play(rules, 3, 8)
    bot = ThousandSearchBot(seed=1)
    bot.level = SolverLevel(budget=0.0, samples=1, ending=4)
    view = game.view(game.to_act)
    with caplog.at_level(logging.DEBUG, logger="cardroom.bots.thousand.search"):
        assert bot.choose(view) in view["legal_actions"]
    assert bot.last_samples == 1 and bot.last_exact == 0
    assert bot.last_reason is not None and "played out greedily" in bot.last_reason
    assert bot.last_reason in caplog.text


def test_the_bot_never_sees_a_hidden_card() -> None:
    """Two games that differ only in the cards the seat cannot see give it the same view,
    and the bot (seeded alike) plays the same card in both: it reads the view alone."""
    rules = TABLES["seed"]
    for seed in range(4):
        game = in_play(rules, seed, 5)
        seat = game.to_act
        assert seat is not None
        others = [s for s in game.active if s != seat]
        twin = game.copy()
        a, b = (twin.hands[s] for s in others)
        suit = next(s for s in range(4) if a >> (16 * s) & 0xFFFF and b >> (16 * s) & 0xFFFF)
        card_a = (a >> (16 * suit) & 0xFFFF).bit_length() - 1 + 16 * suit
        card_b = (b >> (16 * suit) & 0xFFFF).bit_length() - 1 + 16 * suit
        if card_a == card_b:
            continue
        twin.hands[others[0]] ^= 1 << card_a | 1 << card_b
        twin.hands[others[1]] ^= 1 << card_a | 1 << card_b
        assert twin.hands != game.hands and twin.view(seat) == game.view(seat)
        level = SolverLevel(budget=60.0, samples=3, ending=6)
        choices = []
        for state in (game, twin):
            bot = ThousandSearchBot(seed=seed)
            bot.level = level
            choices.append(bot.choose(state.view(seat)))
        assert choices[0] == choices[1]



def test_the_search_bot_bids_with_caution() -> None:
    """The search bot's defence beats the contracts it lets others win, so it bids CAUTION
    points under the rules bot's valuation: never higher than the rules bot on the same
    view, and lower (a pass) on some."""
    assert CAUTION > 0
    rules = Rules.preset("seed")
    rules_bot, search_bot = ThousandRulesBot(1), ThousandSearchBot(1)
    lower = 0
    for seed in range(150):
        game = Game.new(rules, seed=seed)
        while game.phase == "bidding" and game.hand_number == 1:
            seat = game.to_act
            assert seat is not None
            view = game.view(seat)
            careful = rules_bot.choose(view)
            if careful.startswith("bid "):
                cautious = search_bot.choose(view)
                cautious_points = int(cautious.split()[1]) if cautious != "pass" else 0
                assert cautious_points <= int(careful.split()[1]), (seed, careful, cautious)
                lower += cautious != careful
            game.apply(careful, seat=seat)
    assert lower >= 2, lower


# -- the final bet ----------------------------------------------------------------------------


BETTING = SolverLevel(budget=60.0, samples=12, ending=6)
"""A level that solves a dozen deals for the final bet however loaded the machine."""

STRONG = (["AS", "KS", "JS", "10C", "QC", "9C", "JD"],
          ["AH", "10H", "KH", "QH", "JH", "9H", "AD"],
          ["10S", "QS", "9S", "AC", "KC", "JC", "9D"])
"""Seat 1 opens and holds every heart and the ace of diamonds; the bank brings the rest of
the diamonds' marriage: both marriages and every trick are its own, whatever the others do."""
WEAK = (["AS", "10S", "KS", "AC", "10C", "KD", "QH"],
        ["9S", "9C", "9D", "9H", "JS", "JC", "JD"],
        ["AD", "10D", "QD", "AH", "10H", "KH", "KC"])
"""Seat 1 must open at 100 with nines and jacks, the others pass, and the bank adds a jack and
two queens: it cannot make even the lowest bet."""


def at_final_bet(hands: tuple[list[str], ...], bank: list[str]) -> Game:
    """A first deal of ``seed`` rules (seat 0 deals) brought by the rules bot to seat 1's
    final bet."""
    game = Game.from_deal(Rules.preset("seed"), 0, hands, bank)
    bot = ThousandRulesBot(1)
    while game.phase != "bet":
        seat = game.to_act
        assert seat is not None
        game.apply(bot.choose(game.view(seat)), seat=seat)
    assert game.to_act == 1
    return game


def final_bet(game: Game, level: SolverLevel = BETTING,
              seed: int = 1) -> tuple[int, ThousandSearchBot]:
    """The search bot's final bet for the contractor of ``game``, and the bot."""
    bot = ThousandSearchBot(seed=seed)
    bot.level = level
    choice = bot.choose(game.view(game.to_act))
    return int(choice.split()[1]), bot


def test_a_hand_that_takes_every_trick_bets_high() -> None:
    """Every sampled deal makes the highest bets, so the bot names far more than the bid."""
    game = at_final_bet(STRONG, ["10D", "KD", "QD"])
    bet, bot = final_bet(game)
    assert bet >= 160 and bet > game.bid
    assert bot.last_samples == BETTING.samples and bot.last_reason is None
    hint = explain(game.view(1), f"bet {bet}", bot)
    assert f"the best average score over {BETTING.samples} deals" in hint


def test_a_hand_that_cannot_make_the_bid_bets_no_more() -> None:
    game = at_final_bet(WEAK, ["JH", "QS", "QC"])
    assert game.bid == 100
    bet, bot = final_bet(game)
    assert bet == 100
    assert bot.last_samples == BETTING.samples


def test_the_final_bet_is_the_same_for_the_same_seed() -> None:
    """At the steady level (no clock) two bots seeded alike bet alike on the same view, over
    the same number of solved deals."""
    for seed in range(6):
        game = Game.new(Rules.preset("seed"), seed=seed)
        bot = ThousandRulesBot(1)
        while game.phase != "bet":
            game.apply(bot.choose(game.view(game.to_act)), seat=game.to_act)
        first, a = final_bet(game, LEVELS["steady"], seed)
        second, b = final_bet(game, LEVELS["steady"], seed)
        assert first == second and a.last_samples == b.last_samples > 0


def test_without_time_to_solve_the_rules_bot_names_the_bet(
        caplog: pytest.LogCaptureFixture) -> None:
    game = at_final_bet(STRONG, ["10D", "KD", "QD"])
    view = game.view(1)
    bot = ThousandSearchBot(seed=1)
    bot.level = SolverLevel(budget=0.0, samples=12)
    with caplog.at_level(logging.DEBUG, logger="cardroom.bots.thousand.search"):
        choice = bot.choose(view)
    assert choice == bot.heuristic.bet(Seen(view), view["legal_actions"])
    assert bot.last_reason is not None and bot.last_reason in caplog.text
    assert "rules of thumb" in explain(view, choice, bot)
    # fewer deals than a bet needs, solved in time: still a bet by rule, and said so
    bot.level = SolverLevel(budget=60.0, samples=BET_SAMPLES - 1)
    choice = bot.choose(view)
    assert choice == bot.heuristic.bet(Seen(view), view["legal_actions"])
    assert bot.last_samples == 0 and "rules of thumb" in explain(view, choice, bot)


def test_a_bet_is_raised_only_while_it_pays_on_average() -> None:
    """A made bet scores itself and a failed one loses itself: the best average wins."""
    bets = [100, 110, 120, 130, 140, 150, 160]
    assert bets[best_bet([6] * 8, bets)] == 160
    assert bets[best_bet([-1] * 8, bets)] == 100
    # three in four make 150, the fourth not even 100: 150 is worth 75 a deal, 100 only 50
    assert bets[best_bet([5, 5, 5, -1], bets)] == 150
    # three in five make 160, the rest only 100: 160 averages 32, 100 averages 100
    assert bets[best_bet([6, 6, 6, 0, 0], bets)] == 100
