"""The ``cardroom`` command: bot matches, a human at the prompt, records and replays."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from cardroom.bots import SimpleBot
from cardroom.cli import app
from cardroom.games.five_hundred import Game, Record
from cardroom.tools.terminal import TerminalMatch, interpret

runner = CliRunner()
QUICK_PLAY = ["play", "--bot", "simple"]
"""`cardroom play` with quick bots: a whole match in a moment (the default bot thinks)."""


def test_auto_match_finishes_with_a_winner() -> None:
    result = runner.invoke(app, [*QUICK_PLAY, "--auto", "--seed", "3"])
    assert result.exit_code == 0, result.output
    assert "win the match" in result.output
    assert "Hand 1:" in result.output
    assert "Trick" not in result.output  # concise unless --verbose


def test_auto_verbose_shows_bids_and_tricks() -> None:
    result = runner.invoke(app, [*QUICK_PLAY, "--auto", "--seed", "4", "--preset", "classic",
                                 "--verbose"])
    assert result.exit_code == 0, result.output
    assert "Trick  1:" in result.output and "wins the bidding" in result.output


def test_unknown_preset_is_refused() -> None:
    result = runner.invoke(app, [*QUICK_PLAY, "--auto", "--preset", "martian"])
    assert result.exit_code == 1
    assert "unknown preset" in result.output


def test_illegal_input_gets_the_reason_and_a_new_prompt_then_quit() -> None:
    result = runner.invoke(app, [*QUICK_PLAY, "--seed", "5"], input="bid 3H\nplay AS\n?\nquit\n")
    assert result.exit_code == 0, result.output
    assert "Your hand:" in result.output and "Bidding:" in result.output
    assert "Not allowed: not a bid: '3H'" in result.output
    assert "Not allowed: It is time to bid" in result.output
    assert "You may: pass, bid" in result.output
    assert result.output.count("Your bid (? for help) >") == 4
    assert "You leave the table" in result.output


def test_end_of_input_leaves_cleanly() -> None:
    result = runner.invoke(app, [*QUICK_PLAY, "--seed", "5"], input="pass\n")
    assert result.exit_code == 0, result.output
    assert "You leave the table" in result.output


def test_record_then_replay(tmp_path: Path) -> None:
    path = tmp_path / "match.txt"
    played = runner.invoke(app, [*QUICK_PLAY, "--auto", "--seed", "6", "--record", str(path)])
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


def assert_replay_fails(path: Path, message: str) -> None:
    """Replaying ``path`` exits with code 1 and an output that says ``message``."""
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 1
    assert message in result.output


@pytest.mark.parametrize("text", ["not a record\n", "# cardroom game record\ngame: 500\n"])
def test_replay_of_a_bad_file_exits_1(tmp_path: Path, text: str) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(text)
    assert_replay_fails(path, "Error: cannot replay")


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
    assert "Hand 1 · dealer" in result.output and "Hand 3 · dealer" in result.output
    assert result.output.count("Trick ") == sum(sum(hand.tricks) for hand in game.history)
    assert "♥" in result.output or "♦" in result.output  # cards as people write them
    assert "The record ends before the match does." in result.output


def test_replay_of_a_record_with_an_illegal_action_names_it(tmp_path: Path) -> None:
    game = Game.new("online", seed=1)
    game.apply("pass")
    record = game.record
    record.actions.append("play 2X")
    record.seats.append(game.to_act)
    path = tmp_path / "broken.txt"
    record.save(path)
    assert_replay_fails(path, "record action 2")


def test_replay_of_a_missing_file_exits_1(tmp_path: Path) -> None:
    assert_replay_fails(tmp_path / "nowhere.txt", "Error")


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


@pytest.mark.parametrize(("legal", "text", "expected"), [
    (["pass", "bid 6S", "bid 7H"], "7H", "bid 7H"),
    (["pass", "bid 6S"], "pass", "pass"),
    (["pass", "bid 8NT"], "bid 8NT", "bid 8NT"),
    (["play JH", "play JK:H"], "JH", "play JH"),
    (["play JH", "play JK:H"], "JK:H", "play JK:H"),
    (["give 4C", "give 5C"], "4C", "give 4C"),
    (["look", "pass", "bid 100", "bid 100 blind"], "120", "bid 120"),
    (["bet 120", "bet 130"], "130", "bet 130"),
    (["play KH", "play KH marriage"], "KH marriage", "play KH marriage"),
    (["bid 6S", "play 4C"], "4C", "4C"),
])
def test_interpret_gives_a_bare_entry_the_verb_the_legal_actions_share(
        legal: list[str], text: str, expected: str) -> None:
    assert interpret(text, {"legal_actions": legal}) == expected


def test_interpret_discards_while_the_legal_actions_are_too_many_to_list() -> None:
    view = {"legal_actions": [], "discard_count": 3}
    assert interpret("4C 5C 6D", view) == "discard 4C 5C 6D"


def command_help(*words: str) -> str:
    """The help of a command, wide enough that no line wraps."""
    result = runner.invoke(app, [*words, "--help"], env={"COLUMNS": "250"})
    assert result.exit_code == 0, result.output
    return result.output


def test_help_names_both_games_and_shows_flags_without_a_value() -> None:
    top = command_help()
    assert "500 and 1000" in top
    assert "<bool>" not in top and "--help" in top
    assert "<bool>" not in command_help("play") and "--auto" in command_help("play")


def test_every_command_summary_is_one_unbroken_sentence() -> None:
    import typer.main

    group = typer.main.get_command(app)
    for name, command in group.commands.items():  # type: ignore[attr-defined]
        first_paragraph = (command.help or "").split("\n\n")[0]
        assert "\n" not in first_paragraph.strip(), name


def test_every_serve_option_is_also_an_environment_variable_shown_in_help() -> None:
    import typer.main

    serve = typer.main.get_command(app).commands["serve"]  # type: ignore[attr-defined]
    options = [param for param in serve.params if param.name != "help"]
    missing = [param.name for param in options if not param.envvar]
    assert not missing
    shown = command_help("serve")
    for param in options:
        names = [param.envvar] if isinstance(param.envvar, str) else param.envvar
        assert all(name in shown for name in names), param.name


def test_an_environment_variable_sets_a_serve_option(monkeypatch: pytest.MonkeyPatch) -> None:
    import cardroom.web.server

    seen: dict[str, object] = {}

    def fake_serve(host: str, port: int, config: object, *args: object) -> None:
        seen.update(host=host, port=port, config=config)

    monkeypatch.setattr(cardroom.web.server, "serve", fake_serve)
    result = runner.invoke(app, ["serve"], env={"CARDROOM_BOT_DELAY": "0.25",
                                                "CARDROOM_DISCONNECT_GRACE": "7"})
    assert result.exit_code == 0, result.output
    room = seen["config"].room  # type: ignore[attr-defined]
    assert (room.bot_delay, room.disconnect_grace) == (0.25, 7.0)


def serve_config(monkeypatch: pytest.MonkeyPatch, args: list[str],
                 env: dict[str, str] | None = None) -> tuple[Any, object]:
    """The result of ``cardroom serve ARGS`` and the server config it would have served."""
    import cardroom.web.server

    seen: dict[str, object] = {}
    monkeypatch.setattr(cardroom.web.server, "serve",
                        lambda host, port, config, *rest: seen.update(config=config))
    result = runner.invoke(app, ["serve", *args], env=env)
    return result, seen.get("config")


def test_a_config_file_sets_options_and_flags_and_variables_win_over_it(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    config = tmp_path / "cardroom.toml"
    config.write_text('bot-delay = 0.3\ndisconnect_grace = 9\nmax-tables = 40\n'
                      'allowed-origin = ["https://club.example"]\n')
    result, served = serve_config(monkeypatch, ["--config", str(config)])
    assert result.exit_code == 0, result.output
    room = served.room  # type: ignore[attr-defined]
    assert (room.bot_delay, room.disconnect_grace, room.quotas.tables) == (0.3, 9.0, 40)
    assert served.allowed_origins == ("https://club.example",)  # type: ignore[attr-defined]
    result, served = serve_config(monkeypatch, ["--max-tables", "50"],
                                  env={"CARDROOM_CONFIG": str(config),
                                       "CARDROOM_BOT_DELAY": "0.5"})
    assert result.exit_code == 0, result.output
    room = served.room  # type: ignore[attr-defined]
    assert (room.bot_delay, room.disconnect_grace, room.quotas.tables) == (0.5, 9.0, 50)


def test_the_lease_of_a_shared_rooms_tables_is_an_option_of_more_than_a_second(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """An operator trades failover time against tables lost by a stalled process; a lease
    too short to renew in, or no number at all, is refused."""
    result, served = serve_config(monkeypatch, ["--lease-seconds", "3"])
    assert result.exit_code == 0, result.output
    assert served.room.lease_seconds == 3.0  # type: ignore[attr-defined]
    for refused in ("0", "0.5", "nan", "inf"):
        result, served = serve_config(monkeypatch, [],
                                      env={"CARDROOM_LEASE_SECONDS": refused})
        assert result.exit_code != 0 and served is None, refused
        assert "--lease-seconds: a number of seconds, more than 1" in result.output
    result, served = serve_config(monkeypatch, ["--request-read-timeout", "nan"])
    assert result.exit_code != 0 and served is None


@pytest.mark.parametrize(("text", "reason"), [
    ("bot-dleay = 1", "no option is called 'bot-dleay'"),
    ("bot-delay = ", "cannot read"),
    ("max-tables = 'many'", "max-tables must be a whole number"),
    ("max-tables = 2.5", "max-tables must be a whole number"),
    ("bot-delay = true", "bot-delay must be a number"),
    ("host = true", "host must be a text"),
    ('forwarded-allow-ips = ["127.0.0.1", "::1"]', "forwarded-allow-ips must be a text"),
    ("allowed-origin = [1, 2]", "allowed-origin must be a text or a list of texts"),
])
def test_a_config_file_with_a_wrong_line_is_refused_with_its_reason(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, text: str, reason: str) -> None:
    """Nothing a settings file says is turned into something it did not say."""
    config = tmp_path / "cardroom.toml"
    config.write_text(text + "\n")
    result, served = serve_config(monkeypatch, ["--config", str(config)], {"COLUMNS": "300"})
    assert result.exit_code == 2 and served is None
    assert reason in " ".join(result.output.split()), result.output


def test_a_repeatable_option_takes_one_text_or_a_list_from_the_file(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    config = tmp_path / "cardroom.toml"
    for line, origins in (('allowed-origin = "https://a.example"', ("https://a.example",)),
                          ('allowed-origin = ["https://a.example", "https://b.example"]',
                           ("https://a.example", "https://b.example"))):
        config.write_text(line + '\nforwarded-allow-ips = "127.0.0.1,::1"\n')
        result, served = serve_config(monkeypatch, ["--config", str(config)])
        assert result.exit_code == 0, result.output
        assert served.allowed_origins == origins  # type: ignore[attr-defined]


REPO = Path(__file__).resolve().parent.parent
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
"""A Markdown link's target (its anchor left out)."""
DOC_PATH = re.compile(r"`((?:\.\./|docs/|bench/|scripts/|src/)[^`\s]*\.(?:md|py|txt))`")
"""A path to a document or file written in backticks."""


@pytest.mark.parametrize("document", ["README.md", *(f"docs/{path.name}" for path in
                                                      (REPO / "docs").glob("*.md"))])
def test_every_link_of_the_readme_and_docs_resolves_inside_the_repository(document: str) -> None:
    """A clone has no shared/ folder beside it: every link and named file is the repo's own."""
    text = (REPO / document).read_text()
    targets = [t for t in LINK.findall(text) if "://" not in t and not t.startswith("mailto:")]
    for target in targets + DOC_PATH.findall(text):
        base = (REPO / document).parent if target in targets else REPO
        resolved = (base / target).resolve()
        assert resolved.is_relative_to(REPO) and resolved.exists(), f"{document}: {target}"


def test_play_and_serve_refuse_an_unknown_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    import cardroom.web.server

    monkeypatch.setattr(cardroom.web.server, "serve", lambda *args: None)
    for command in (["play", "--auto", "--bot", "grandmaster"],
                    ["serve", "--default-bot", "grandmaster"]):
        result = runner.invoke(app, command)
        assert result.exit_code != 0 and "unknown bot 'grandmaster'" in result.output, command


def test_evaluator_generate_goes_on_where_it_stopped_and_train_refuses_too_little(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cardroom.tools import evaluator_data

    monkeypatch.setattr(evaluator_data, "CHUNK_DEALS", 1)
    out = tmp_path / "data"
    args = ["evaluator", "generate", "--out", str(out), "--deals", "2", "--seed", "s"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "2 chunks written" in result.output
    result = runner.invoke(app, args)
    assert result.exit_code == 0 and "0 chunks written" in result.output
    other = runner.invoke(app, [*args[:-1], "another-seed"])
    assert other.exit_code == 1 and "holds deals of the seed 's'" in other.output
    trained = runner.invoke(app, ["evaluator", "train", "--data", str(out), "--model",
                                  str(tmp_path / "model.npz")])
    assert trained.exit_code == 1 and "too few chunks" in trained.output
    assert not (tmp_path / "model.npz").exists()
    # a folder of four-handed deals never becomes the three-handed model
    three = runner.invoke(app, ["evaluator", "train", "--players", "3", "--data", str(out),
                                "--model", str(tmp_path / "three.npz")])
    assert three.exit_code == 1 and "4-handed deals, not 3-handed" in three.output
    assert not (tmp_path / "three.npz").exists()
    unknown = runner.invoke(app, ["evaluator", "train", "--players", "6"])
    assert unknown.exit_code == 1 and "no evaluator is made for 500 at 6 players" in unknown.output
    # nor a 1000 model
    thousand = runner.invoke(app, ["evaluator", "train", "--game", "1000", "--data", str(out),
                                   "--model", str(tmp_path / "thousand.npz")])
    assert thousand.exit_code == 1 and "deals of 500, not 1000" in thousand.output
    # 1000's deals have their own folder label and the shipped model's seed by default
    thousand_out = tmp_path / "thousand"
    made = runner.invoke(app, ["evaluator", "generate", "--game", "1000", "--out",
                               str(thousand_out), "--deals", "1"])
    assert made.exit_code == 0 and "1 chunks written" in made.output, made.output
    assert (thousand_out / "seed.txt").read_text().strip() == "evaluator-1000 (1000)"
    four = runner.invoke(app, ["evaluator", "train", "--data", str(thousand_out),
                               "--model", str(tmp_path / "four.npz")])
    assert four.exit_code == 1 and "deals of 1000, not 500" in four.output
