"""The 1000 search bot searches every table: each preset and the house rules that change the
play (a fourth player sitting out, must-trump with marriages on any lead, a blind contract),
from the first card of a deal to the last, solving its sampled deals double-dummy; it plays
by rule only when no deal can be sampled and says why; and it reads nothing but its view.

There is one kind of contract in 1000 (a bet of card points, marriages changing trumps), so
the tables below and every point of the deal are the cases."""

from __future__ import annotations

import logging

import pytest

from cardroom.bots.thousand.rules_bot import ThousandRulesBot
from cardroom.bots.thousand.search import CAUTION, SolverLevel, ThousandSearchBot
from cardroom.games.thousand import PRESET_NAMES, Game, Rules

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



def test_the_search_bot_bids_and_bets_with_caution() -> None:
    """The search bot's defence beats the contracts it lets others win, so it bids and bets
    CAUTION points under the rules bot's valuation: never higher than the rules bot on the
    same view, and lower (a pass for a bid, a smaller bet) on some."""
    assert CAUTION > 0
    rules = Rules.preset("seed")
    rules_bot, search_bot = ThousandRulesBot(1), ThousandSearchBot(1)
    lower = {"bidding": 0, "bet": 0}
    for seed in range(150):
        game = Game.new(rules, seed=seed)
        while game.phase in ("bidding", "discard", "bet") and game.hand_number == 1:
            seat = game.to_act
            assert seat is not None
            view = game.view(seat)
            careful = rules_bot.choose(view)
            if game.phase in lower and careful.split()[0] in ("bid", "bet"):
                cautious = search_bot.choose(view)
                careful_points = int(careful.split()[1])
                cautious_points = int(cautious.split()[1]) if cautious != "pass" else 0
                assert cautious_points <= careful_points, (seed, careful, cautious)
                lower[game.phase] += cautious_points < careful_points
            game.apply(careful, seat=seat)
    assert lower["bidding"] >= 2 and lower["bet"] >= 30, lower
