"""The ``cardroom`` command: bot matches, a human at the prompt, records and replays."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from cardroom.bots import SimpleBot
from cardroom.cli import app
from cardroom.games.five_hundred import Game, Record
from cardroom.tools.terminal import TerminalMatch, interpret

runner = CliRunner()


def test_auto_match_finishes_with_a_winner() -> None:
    result = runner.invoke(app, ["play", "--auto", "--seed", "3"])
    assert result.exit_code == 0, result.output
    assert "win the match" in result.output
    assert "Hand 1:" in result.output
    assert "Trick" not in result.output  # concise unless --verbose


def test_auto_verbose_shows_bids_and_tricks() -> None:
    result = runner.invoke(app, ["play", "--auto", "--seed", "4", "--preset", "classic",
                                 "--verbose"])
    assert result.exit_code == 0, result.output
    assert "Trick  1:" in result.output and "wins the bidding" in result.output


def test_unknown_preset_is_refused() -> None:
    result = runner.invoke(app, ["play", "--auto", "--preset", "martian"])
    assert result.exit_code == 1
    assert "unknown preset" in result.output


def test_illegal_input_gets_the_reason_and_a_new_prompt_then_quit() -> None:
    result = runner.invoke(app, ["play", "--seed", "5"], input="bid 3H\nplay AS\n?\nquit\n")
    assert result.exit_code == 0, result.output
    assert "Your hand:" in result.output and "Bidding:" in result.output
    assert "Not allowed: not a bid: '3H'" in result.output
    assert "Not allowed: It is time to bid" in result.output
    assert "You may: pass, bid" in result.output
    assert result.output.count("Your bid (? for help) >") == 4
    assert "You leave the table" in result.output


def test_end_of_input_leaves_cleanly() -> None:
    result = runner.invoke(app, ["play", "--seed", "5"], input="pass\n")
    assert result.exit_code == 0, result.output
    assert "You leave the table" in result.output


def test_record_then_replay(tmp_path: Path) -> None:
    path = tmp_path / "match.txt"
    played = runner.invoke(app, ["play", "--auto", "--seed", "6", "--record", str(path)])
    assert played.exit_code == 0, played.output
    record = Record.load(path)
    assert Game.replay(record).is_over
    replayed = runner.invoke(app, ["replay", str(path)])
    assert replayed.exit_code == 0, replayed.output
    output = replayed.output
    for name in ("South", "West", "North", "East"):
        assert f"  {name}" in output  # every hand of the deal is shown
    assert "Trick 10:" in output and "takes the kitty:" in output
    assert "win the match" in output
    hands = len(Game.replay(record).history)
    assert output.count("Hand ") >= hands


@pytest.mark.parametrize("text", ["not a record\n", "# cardroom game record\ngame: 500\n"])
def test_replay_of_a_bad_file_exits_1(tmp_path: Path, text: str) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(text)
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 1
    assert "Error: cannot replay" in result.output


def test_replay_of_a_1000_match(tmp_path: Path) -> None:
    from cardroom.bots import make_bot
    from cardroom.games import thousand

    game = thousand.Game.new(thousand.Rules.preset("russian"), seed=4)
    bot = make_bot("rules")
    while len(game.history) < 2:
        game.apply(bot.choose(game.view(game.to_act)))
    path = tmp_path / "thousand.txt"
    game.record.save(path)
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert "Deal 1" in result.output and "Deal 3" in result.output
    assert result.output.count("trick: ") == sum(sum(hand.tricks) for hand in game.history)
    assert game.history[0].summary in result.output
    assert "The record ends before the match does." in result.output


def test_replay_of_a_record_with_an_illegal_action_names_it(tmp_path: Path) -> None:
    game = Game.new("online", seed=1)
    game.apply("pass")
    record = game.record
    record.actions.append("play 2X")
    record.seats.append(game.to_act)
    path = tmp_path / "broken.txt"
    record.save(path)
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 1
    assert "record action 2" in result.output


def test_replay_of_a_missing_file_exits_1(tmp_path: Path) -> None:
    result = runner.invoke(app, ["replay", str(tmp_path / "nowhere.txt")])
    assert result.exit_code == 1 and "Error" in result.output


def test_a_human_typing_shortcuts_plays_a_whole_match() -> None:
    """A scripted human types bare bids, cards and discards; the match runs to its end."""
    game = Game.new("online", seed=8)
    adviser = SimpleBot()

    def read(prompt: str) -> str:
        action = adviser.choose(game.view(0))
        return action if action == "pass" else action.split(None, 1)[1]

    output = io.StringIO()
    match = TerminalMatch(game, {s: SimpleBot() for s in (1, 2, 3)}, Console(file=output),
                          human=0, read=read)
    assert match.run()
    assert game.is_over
    assert "win the match" in output.getvalue()


@pytest.mark.parametrize(("phase", "text", "expected"), [
    ("bidding", "7H", "bid 7H"),
    ("bidding", "pass", "pass"),
    ("bidding", "bid 8NT", "bid 8NT"),
    ("play", "JH", "play JH"),
    ("play", "JK:H", "play JK:H"),
    ("discard", "4C 5C 6D", "discard 4C 5C 6D"),
    ("partner_discard", "4C", "discard 4C"),
    ("give", "4C", "give 4C"),
])
def test_interpret_expands_shortcuts(phase: str, text: str, expected: str) -> None:
    assert interpret(text, {"phase": phase}) == expected
