"""Double-dummy analysis of recorded hands: makeable tricks and the plays that cost tricks."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from cardroom.cli import app
from cardroom.games.five_hundred import Game, Record, Rules
from cardroom.tools.analysis import analyse
from cardroom.tools.arena import play_match

TOP_HAND = ["JK JH JD AH KH QH 10H 9H 8H 7H", "4S 5S 6S 7S 8S 9S 10S JS QS KS",
            "AS 4C 5C 6C 7C 8C 9C 10C JC QC", "KC AC 4D 5D 6D 7D 8D 9D 10D QD"]
KITTY = ["KD", "AD", "4H", "5H", "6H"]


def hearts_hand_with_a_slip() -> Game:
    """South holds every top heart and bids 10H; then North throws away a trick it could win."""
    game = Game.from_deal("online", dealer=3, hands=[h.split() for h in TOP_HAND], kitty=KITTY)
    for action in ("bid 10H", "pass", "pass", "pass", "discard KD AD 4H 5H 6H"):
        game.apply(action)
    return game


def test_a_hand_of_top_trumps_is_makeable_in_full() -> None:
    game = hearts_hand_with_a_slip()
    while game.hand_number == 1 and not game.is_over:
        game.apply(game.legal_actions()[0])
    report = analyse(game.record, max_hands=1)
    assert len(report) == 1
    hand = report[0]
    assert (hand.contract, hand.contractor, hand.makers) == ("10H", 0, (0, 2))
    assert hand.makeable == 10
    assert hand.taken == sum(game.history[0].tricks[s] for s in (0, 2))


def test_cards_that_give_tricks_away_are_slips() -> None:
    """Random players give tricks away; every slip names a better card and what it cost."""
    record = Record.from_text(play_match(Rules.preset("classic"), 8, "random", "random", 0,
                                         keep_record=True).record)
    slips = [slip for hand in analyse(record, max_hands=2) for slip in hand.slips]
    assert slips
    for slip in slips:
        assert slip.lost >= 1 and slip.played not in slip.best
        assert 1 <= slip.trick <= 10


def test_bots_matches_are_analysed_hand_by_hand() -> None:
    text = play_match(Rules.preset("classic"), 5, "simple", "random", 0,
                      keep_record=True).record
    record = Record.from_text(text)
    report = analyse(record, max_hands=2)
    played = [h for h in Game.replay(record).history if any(h.tricks)]
    assert [h.number for h in report] == [h.number for h in played[:2]]
    for hand, result in zip(report, played, strict=False):
        assert hand.makeable is not None and 0 <= hand.makeable <= 10
        assert hand.taken == sum(result.tricks[s] for s in hand.makers)


def test_analyse_command_prints_each_hand(tmp_path) -> None:
    game = hearts_hand_with_a_slip()
    while game.hand_number == 1 and not game.is_over:
        game.apply(game.legal_actions()[0])
    path = tmp_path / "match.txt"
    game.record.save(path)
    result = CliRunner().invoke(app, ["analyse", str(path), "--hands", "1"])
    assert result.exit_code == 0, result.output
    assert "Hand 1" in result.output and "take 10" in result.output
    bad = CliRunner().invoke(app, ["analyse", str(tmp_path / "missing.txt")])
    assert bad.exit_code == 1


def test_the_command_prints_each_hand_as_it_is_solved_in_the_cards_of_replay(
        tmp_path, monkeypatch) -> None:
    """Each hand is printed by the progress callback, as soon as it is solved; cards read as in
    replay (6♥), a slip's better cards never include the card played, wrapped lines keep their
    indent."""
    import cardroom.tools.analysis as analysis

    record_text = play_match(Rules.preset("classic"), 8, "random", "random", 0,
                             keep_record=True).record
    path = tmp_path / "match.txt"
    path.write_text(record_text)
    printed_by_progress: list[int] = []
    solve_hands = analysis.analyse

    def watched(record, max_hands=None, progress=None):
        def seen(hand):
            printed_by_progress.append(hand.number)
            progress(hand)
        return solve_hands(record, max_hands, seen)

    monkeypatch.setattr(analysis, "analyse", watched)
    result = CliRunner().invoke(app, ["analyse", str(path), "--hands", "2"],
                                env={"COLUMNS": "60"})
    assert result.exit_code == 0, result.output
    played = Game.replay(Record.from_text(record_text)).history
    assert printed_by_progress == [hand.number for hand in played if any(hand.tricks)][:2]
    assert any(symbol in result.output for symbol in "♠♣♦♥")
    assert " 10H" not in result.output and " 6H," not in result.output
    for line in result.output.splitlines():
        if line.startswith("  trick"):
            played = line.split(" played ")[1].split(",")[0]
            assert played not in line.split(" worse than ")[1].split(" or ")
        elif line and not line.startswith("Hand "):
            assert line.startswith("  "), line  # a wrapped line keeps its indent


def test_a_joker_named_into_another_suit_is_written_with_its_suit() -> None:
    from cardroom.games.cards import Card, Suit

    joker = Card.parse("JK").index
    assert analysis_notation(joker, int(Suit.HEARTS)) == "JK:H"
    assert analysis_notation(joker, None) == "JK"


def analysis_notation(card: int, named: int | None) -> str:
    from cardroom.bots.five_hundred.analysis import _notation

    return _notation(card, named)


def test_an_all_pass_hand_is_said_to_have_no_bid() -> None:
    from rich.console import Console

    from cardroom.games.registry import GAMES
    from cardroom.tools.analysis import HandAnalysis, hand_report
    from cardroom.tools.terminal import Renderer, Seating

    renderer = Renderer(Seating(("South", "West", "North", "East"), ((0, 2), (1, 3))),
                        GAMES["500"].card_words)
    console = Console(width=100, record=True)
    console.print(hand_report(HandAnalysis(3, None, None, (0, 2), 4, 5), renderer))
    text = console.export_text()
    assert "nobody bid; played in no trumps" in text and "by nobody" not in text


def test_a_five_handed_record_is_refused_with_the_reason(tmp_path) -> None:
    game = Game.new("five-handed", seed=2)
    path = tmp_path / "five.txt"
    game.record.save(path)
    result = CliRunner().invoke(app, ["analyse", str(path)])
    assert result.exit_code == 1 and "at most 4 hands" in result.output


@pytest.mark.parametrize("deck", ["33", "45"])
def test_a_two_handed_record_is_analysed(tmp_path, deck: str) -> None:
    """Two players: the contractor alone is counted, the dead hands stay out of play, and
    the command names the two seats."""
    rules = Rules.preset("two-handed").replace(deck=deck)
    text = play_match(rules, 3, "random", "rules", 0, keep_record=True).record
    record = Record.from_text(text)
    report = analyse(record, max_hands=3)
    played = [h for h in Game.replay(record).history if any(h.tricks)]
    assert [h.number for h in report] == [h.number for h in played[:3]]
    for hand, result in zip(report, played, strict=False):
        assert hand.makers == (hand.contractor,)
        assert hand.makeable is not None and 0 <= hand.makeable <= 10
        assert hand.taken == result.tricks[hand.contractor]
        for slip in hand.slips:
            assert slip.seat in (0, 1) and slip.played not in slip.best
    path = tmp_path / "two.txt"
    path.write_text(text)
    result = CliRunner().invoke(app, ["analyse", str(path), "--hands", "1"])
    assert result.exit_code == 0, result.output
    assert "Hand " in result.output and ("by South" in result.output
                                         or "by North" in result.output)


def test_a_joker_led_naming_a_suit_the_search_merged_is_still_judged() -> None:
    """A misère joker led naming a suit nobody else holds is one move to the search (the
    named suits are equivalent); the card played still gets its verdict, as good as the one
    it was merged with."""
    from cardroom.bots.five_hundred.analysis import review_hand

    record_text = play_match(Rules.preset("online"), 5, "rules", "rules", 0,
                             keep_record=True).record
    assert record_text is not None
    record = Record.from_text(record_text)
    index = record.actions.index("play JK:H")  # the search merged hearts with another suit
    game = Game.replay(Record(game=record.game, rules=record.rules, seed=record.seed,
                              dealer=record.dealer, deal=record.deal,
                              actions=record.actions[:index], seats=record.seats[:index]))
    review = review_hand(record_text, game.hand_number)
    verdict = next(card for card in review["cards"] if card["action"] == index)
    assert verdict["played"] == "JK:H" and 0 <= verdict["after"] <= verdict["before"]
