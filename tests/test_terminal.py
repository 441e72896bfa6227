"""The terminal game: every preset of both games, a human at the prompt of 1000 and of
two-handed 500 (whose dead hand the table never shows, and a replay shows out of play), the
bids' points in the ``?`` list and the bowers marked in the hand."""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from cardroom import cli
from cardroom.bots import make_bot
from cardroom.cli import app
from cardroom.games import five_hundred, thousand
from cardroom.games.cards import Suit, cards_of
from cardroom.games.registry import GAMES
from cardroom.games.text import suits_as_symbols
from cardroom.tools.terminal import (
    Renderer,
    Seating,
    TerminalMatch,
    card_text,
    verb_of,
)

runner = CliRunner()
QUICK_PLAY = ["play", "--bot", "simple"]
"""`cardroom play` with quick bots: a whole match in a moment (the default bot thinks)."""
EVERY_PRESET = [(spec.name, preset) for spec in GAMES.values() for preset in spec.presets]


@pytest.mark.parametrize(("game", "preset"), EVERY_PRESET)
def test_every_preset_of_every_game_plays_to_the_end(game: str, preset: str) -> None:
    result = runner.invoke(app, [*QUICK_PLAY, "--auto", "--seed", "2", "--preset", preset])
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"{game}, preset {preset}")
    assert "the match, " in result.output


def test_play_offers_every_preset_of_both_games() -> None:
    result = runner.invoke(app, ["play", "--help"], terminal_width=200)
    for _, preset in EVERY_PRESET:
        assert preset in result.output


def test_a_game_without_a_preset_plays_its_default() -> None:
    result = runner.invoke(app, [*QUICK_PLAY, "--auto", "--seed", "1", "--game", "1000"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("1000, preset seed")
    refused = runner.invoke(app, [*QUICK_PLAY, "--game", "1000", "--preset", "online"])
    assert refused.exit_code == 1 and "unknown preset 'online'" in refused.output


def bare(action: str) -> str:
    """What a human types for an action: its verb left out where the verb is implied."""
    verb, _, rest = action.partition(" ")
    return rest if rest and verb in ("bid", "play", "bet", "give", "discard") else action


def test_a_human_plays_a_whole_match_of_1000_typing_bare_entries() -> None:
    game = thousand.Game.new(thousand.Rules.preset("seed"), seed=3)
    adviser = make_bot("rules", seed=9)
    typed: list[str] = []

    def read(prompt: str) -> str:
        view = game.view(0)
        typed.append(prompt)
        return bare(adviser.choose(view)) if verb_of(view) else adviser.choose(view)

    output = io.StringIO()
    bots = {seat: make_bot("simple", seed=seat) for seat in (1, 2)}
    assert TerminalMatch(game, bots, Console(file=output, width=100), human=0, read=read).run()
    assert game.is_over and "wins the match" in output.getvalue()
    assert "Your hand:" in output.getvalue()
    assert any(prompt.startswith("Your bid") for prompt in typed)
    assert any(prompt.startswith("Your card") for prompt in typed)


def test_the_help_list_shows_each_bids_points() -> None:
    result = runner.invoke(app, [*QUICK_PLAY, "--seed", "5"], input="?\nquit\n")
    assert result.exit_code == 0, result.output
    listed = " ".join(result.output.split())  # as one line, wherever the console wrapped it
    assert "pass, bid 6D (80), bid 6H (100)" in listed and "bid 10NT (520)" in listed


def test_the_bowers_are_marked_in_a_trump_hand() -> None:
    renderer = Renderer(Seating(("South",), ((0,),)), GAMES["500"].card_words)
    hand = renderer.hand(["JK", "JH", "JD", "AH", "JC", "AD"], Suit.HEARTS).plain
    assert hand == "Joker J♥(R) J♦(L) A♥   J♣   A♦"
    assert "(R)" not in renderer.hand(["JH", "JD"], None).plain  # no bowers in no trumps


def test_the_table_marks_the_bowers_and_says_what_the_marks_mean() -> None:
    game = laydown_hearts()
    output = io.StringIO()
    match = TerminalMatch(game, {}, Console(file=output, width=120), human=0)
    Console(file=output, width=120).print(match.renderer.table(game.view(0)))
    shown = output.getvalue()
    assert "J♥(R)" in shown and "J♦(L)" in shown and "right and left bowers" in shown


def test_two_players_sit_south_and_north() -> None:
    game = five_hundred.Game.new(five_hundred.Rules.preset("two-handed"), seed=1)
    seating = Seating.of(game, human=0)
    assert seating.names == ("South (you)", "North")
    assert seating.scores([120, -40]).plain == "South (you) 120 – North -40"


def dead_words(dead: int) -> set[str]:
    """The dead cards as the terminal writes them."""
    return {card_text(str(card)).plain for card in cards_of(dead)}


def test_a_human_plays_a_whole_two_handed_match_through_play(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``cardroom play --preset two-handed``: the human at South answers every prompt (the
    rules bot's choice, typed bare), a bot plays North, the match ends; the table the human
    sees never shows a dead card."""
    typed: list[str] = []
    shown_dead: list[str] = []

    class Advised(TerminalMatch):
        def __init__(self, game: five_hundred.Game, *args: object, **kwargs: object) -> None:
            adviser = make_bot("rules", seed=9)

            def read(prompt: str) -> str:
                view = game.view(0)
                typed.append(prompt)
                table = io.StringIO()
                Console(file=table, width=120).print(Renderer.of(game, 0).table(view))
                words = {word.split("(")[0] for word in table.getvalue().split()}
                shown_dead.extend(word for word in words & dead_words(game.dead))
                action = adviser.choose(view)
                return bare(action) if verb_of(view) else action

            kwargs["read"] = read
            super().__init__(game, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(cli, "TerminalMatch", Advised)
    result = runner.invoke(app, [*QUICK_PLAY, "--seed", "4", "--preset", "two-handed"],
                           terminal_width=120)
    assert result.exit_code == 0, result.output
    assert result.output.startswith("500, preset two-handed")
    assert "the match, " in result.output and "North" in result.output
    assert any(prompt.startswith("Your bid") for prompt in typed)
    assert any(prompt.startswith("Your card") for prompt in typed)
    assert not shown_dead
    assert "Out of play" not in result.output


def test_a_two_handed_replay_shows_the_dead_hand_out_of_play(tmp_path: Path) -> None:
    """Once the match is over a replay shows every hand, the dead one as out of play: the
    record holds it anyway, and it says where the rest of the deck went."""
    game = five_hundred.Game.new(five_hundred.Rules.preset("two-handed"), seed=6)
    bots = [make_bot("rules", seed=seat) for seat in range(2)]
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        game.apply(bots[seat].choose(game.view(seat)))
    first_dead = five_hundred.Game.replay(replace(game.record, actions=[])).dead
    path = tmp_path / "two.record"
    game.record.save(path)
    result = runner.invoke(app, ["replay", str(path)], terminal_width=200)
    assert result.exit_code == 0, result.output
    dead_line = next(line for line in result.output.splitlines() if "Out of play" in line)
    assert dead_line.split("Out of play")[1].split() == [
        suits_as_symbols(str(card)) if not card.is_joker else "Joker"
        for card in cards_of(first_dead)]
    deals = result.output.count("· dealer ")
    assert result.output.count("Out of play") == deals >= 1


def laydown_hearts() -> five_hundred.Game:
    """South (seat 0) holds every top heart and has bid 10H; the others passed."""
    hands = ["JK JH JD AH KH QH 10H 9H 8H 7H", "4S 5S 6S 7S 8S 9S 10S JS QS KS",
             "AS 4C 5C 6C 7C 8C 9C 10C JC QC", "KC AC 4D 5D 6D 7D 8D 9D 10D QD"]
    game = five_hundred.Game.from_deal("online", dealer=3, hands=[h.split() for h in hands],
                                       kitty=["KD", "AD", "4H", "5H", "6H"])
    for action in ("bid 10H", "pass", "pass", "pass"):
        game.apply(action)
    return game


def test_a_human_claims_in_the_terminal_and_the_solver_ends_the_hand() -> None:
    game = laydown_hearts()
    typed = iter(["claim 10", "discard KD AD 4H 5H 6H", "?", "claim 10 proven", "claim 10"])
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        return next(typed)

    output = io.StringIO()
    bots = {seat: make_bot("simple", seed=seat) for seat in (1, 2, 3)}
    match = TerminalMatch(game, bots, Console(file=output, width=200), human=0, read=read)
    assert match.run()  # 10H made: 520 wins the match
    shown = " ".join(output.getvalue().split())
    assert "Not allowed: It is time to discard" in shown  # no claims in the exchange
    assert "Not allowed: only the solver proves a claim" in shown
    assert "or claim the tricks your side takes of those left ('claim N', N 0 to 10)" in shown
    assert "South (you) claims all 10 tricks left" in shown and "the solver proves it" in shown
    assert "The claim stands: South (you)'s side takes 10, the other side 0" in shown
    assert game.history[0].tricks == (10, 0, 0, 0) and game.history[0].made


def test_a_bot_claims_the_rest_in_the_terminal_when_it_is_proven() -> None:
    game = laydown_hearts()
    game.apply("discard KD AD 4H 5H 6H")
    output = io.StringIO()
    bots = {seat: make_bot("simple", seed=seat) for seat in (0, 2, 3)}
    match = TerminalMatch(game, bots, Console(file=output, width=200), human=1)
    assert match.run()  # the bot's claim is the match's last action: 520 wins it
    assert "South claims all 10 tricks left" in " ".join(output.getvalue().split())
    assert [action.text for action in game.actions][-1:] == ["claim 10 proven"]
