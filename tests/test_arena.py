"""The arena: duplicate deals, honest intervals, records that replay."""

from __future__ import annotations

import pytest

from cardroom.games.five_hundred import Game, Record, Rules
from cardroom.tools.arena import play_match, proportion, run_arena


def test_each_deal_is_played_twice_with_the_teams_swapped() -> None:
    report = run_arena(Rules.preset("classic"), "simple", "random", sets=3, seed=10)
    assert report.matches == 6
    pairs = [report.results[i:i + 2] for i in range(0, 6, 2)]
    for first, second in pairs:
        assert first.seed == second.seed
        assert first.a_seats == (0, 2) and second.a_seats == (1, 3)


def test_both_matches_of_a_pair_start_from_the_same_deal() -> None:
    rules = Rules.preset("online")
    starts = []
    for a_side in (0, 1):
        text = play_match(rules, 4, "simple", "random", a_side, keep_record=True).record
        record = Record.from_text(text)
        record.actions, record.seats = [], []
        starts.append(Game.replay(record))
    assert starts[0].hands == starts[1].hands and starts[0].kitty == starts[1].kitty


def test_simple_bots_beat_random_bots_clearly() -> None:
    report = run_arena(Rules.preset("online"), "simple", "random", sets=10, seed=1)
    assert report.win_rate("a").low > 0.8
    assert report.points_per_hand("a").value > report.points_per_hand("b").value
    assert report.head_to_head() == report.win_rate("a")  # two sides: the same thing


def test_head_to_head_counts_the_b_sides_a_finished_ahead_of() -> None:
    """At three players A is ahead of both others when it wins the match, behind the one
    that wins it otherwise, and ahead of the third when it has more points."""
    rules = Rules.preset("three-handed")
    report = run_arena(rules, "rules", "simple", sets=4, seed=3)
    for result in report.results:
        if result.a_won:
            assert result.a_ahead == 2
        else:
            assert result.a_ahead in (0, 0.5, 1)
    pairs = [1.0] * (2 * sum(r.a_won for r in report.results))
    for result in report.results:
        if not result.a_won:  # behind the winner; against the other, by the points
            pairs += [0.0, result.a_ahead]
    assert report.head_to_head().value == pytest.approx(sum(pairs) / len(pairs))
    assert report.head_to_head().value > 0.5  # the rules bot is ahead of the simple one
    summary = report.summary("three-handed")
    assert "head to head: A ahead of a B side" in summary
    assert report.to_dict()["a_head_to_head"][0] == report.head_to_head().value


def test_records_are_written_and_replay(tmp_path) -> None:
    run_arena(Rules.preset("american"), "simple", "simple", sets=2, seed=3, records=tmp_path)
    files = sorted(tmp_path.glob("*.txt"))
    assert len(files) == 4
    for path in files:
        assert Game.replay(Record.load(path)).is_over


def test_jobs_do_not_change_the_results() -> None:
    rules = Rules.preset("australian")
    alone = run_arena(rules, "simple", "random", sets=4, seed=7, jobs=1)
    pooled = run_arena(rules, "simple", "random", sets=4, seed=7, jobs=2)
    assert alone.results == pooled.results


def test_wilson_interval_matches_the_textbook_value() -> None:
    half = proportion(50, 100)
    assert round(half.low, 3) == 0.404 and round(half.high, 3) == 0.596
    assert proportion(10, 10).high == 1.0 and proportion(0, 10).low == 0.0
    assert str(proportion(0, 0)) == "–"


def test_matches_cut_to_single_deals_are_compared_pair_by_pair() -> None:
    report = run_arena(Rules.preset("online"), "simple", "random", sets=12, seed=30, hands=1)
    assert all(result.hands == 1 for result in report.results)
    edges = [(first.a_points - first.b_points + second.a_points - second.b_points) / 2
             for first, second in zip(report.results[0::2], report.results[1::2], strict=True)]
    edge = report.edge_per_hand()
    assert abs(edge.value - sum(edges) / len(edges)) < 1e-9
    assert edge.low < edge.value < edge.high
    assert edge.value > 0  # the simple bot out-scores random play on the same deals


def test_contracts_are_tallied_by_kind_for_both_sides_and_shown_by_the_command() -> None:
    from typer.testing import CliRunner

    from cardroom.cli import app

    report = run_arena(Rules.preset("online"), "simple", "random", sets=4, seed=3)
    for side in ("a", "b"):
        made, failed, _ = report.contracts(side)
        kinds = report.contracts_by_kind(side)
        assert sum(m for m, _, _ in kinds.values()) == made
        assert sum(f for _, f, _ in kinds.values()) == failed
    result = CliRunner().invoke(app, ["arena", "--team-a", "simple", "--team-b", "random",
                                      "--matches", "8", "--seed", "3"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    levels = set(report.contracts_by_level("a")) | set(report.contracts_by_level("b"))
    assert {"6", "7", "8", "9", "10"} <= levels
    for level in levels:
        named = f"level {level}" if level.isdigit() else level
        assert f"{named} made as contractor" in result.output


@pytest.mark.parametrize("preset", ["three-handed", "five-handed", "six-handed"])
def test_a_set_plays_the_same_deals_once_with_a_at_each_side(preset: str, tmp_path) -> None:
    """At a table of three or five players (each a side of its own) or of two teams of
    three, A takes each side in turn against B's bot everywhere else, and every record
    replays."""
    rules = Rules.preset(preset)
    report = run_arena(rules, "simple", "random", sets=2, seed=5, records=tmp_path, hands=2)
    sides = len(rules.teams)
    assert report.sides == sides and report.matches == 2 * sides
    for first in range(0, report.matches, sides):
        one_set = report.results[first:first + sides]
        assert {r.seed for r in one_set} == {one_set[0].seed}
        assert [r.a_seats for r in one_set] == [tuple(team) for team in rules.teams]
    assert len(list(tmp_path.iterdir())) == report.matches
    for path in tmp_path.iterdir():
        Game.replay(Record.from_text(path.read_text()))
    assert "an even match gives A 1 in" in report.summary(preset) or sides == 2


def test_contracts_are_tallied_by_level_with_the_made_share_per_level(tmp_path) -> None:
    """Trick contracts count by their number of tricks, six to ten always listed, the other
    kinds by name; the levels add up to the side's contracts, agree with each match's
    record, and show in the summary and the JSON the module's command writes."""
    import json

    from cardroom.games.five_hundred import Bid
    from cardroom.games.five_hundred.bids import level_of
    from cardroom.tools.arena import main

    rules = Rules.preset("online")
    report = run_arena(rules, "rules", "simple", sets=3, seed=2, records=tmp_path)
    for side in ("a", "b"):
        made, failed, _ = report.contracts(side)
        levels = report.contracts_by_level(side)
        assert list(levels)[:5] == ["6", "7", "8", "9", "10"]
        assert all(not level.isdigit() for level in list(levels)[5:])
        assert sum(m for m, _, _ in levels.values()) == made
        assert sum(f for _, f, _ in levels.values()) == failed
        kinds = report.contracts_by_kind(side)
        tricks = sum(m + f for level, (m, f, _) in levels.items() if level.isdigit())
        assert tricks == sum(m + f for kind, (m, f, _) in kinds.items()
                             if kind in ("tricks", "j5"))
    counted: dict[str, int] = {}
    for path in tmp_path.glob("*.txt"):
        game = Game.replay(Record.load(path))
        for hand in game.history:
            if hand.contractor is not None and hand.made is not None and hand.contract:
                level = level_of(Bid.parse(hand.contract))
                counted[level] = counted.get(level, 0) + 1
    tallied = {level: m + f for side in ("a", "b")
               for level, (m, f, _) in report.contracts_by_level(side).items()}
    both = {level: sum(m + f for side in ("a", "b")
                       for lvl, (m, f, _) in report.contracts_by_level(side).items()
                       if lvl == level) for level in tallied}
    assert {level: n for level, n in both.items() if n} == counted
    summary = report.summary("online")
    assert "A (rules) contracts by level:" in summary and "level 10:" in summary
    assert level_of(Bid.parse("8NT")) == "8" and level_of(Bid.parse("misere")) == "misere"

    out = tmp_path / "figures.json"
    main(["--team-a", "rules", "--team-b", "simple", "--matches", "4", "--seed", "2",
          "--every", "1", "--json", str(out), "--deck", "46"])
    figures = json.loads(out.read_text())
    assert figures["deck"] == "46" and figures["matches"] == 4
    for side in ("a", "b"):
        by_level = figures[side]["by_level"]
        assert list(by_level)[:5] == ["6", "7", "8", "9", "10"]
        contracts = figures[side]["contracts"]
        assert sum(t["made"] for t in by_level.values()) == contracts["made"]
        assert sum(t["failed"] for t in by_level.values()) == contracts["failed"]


def test_1000_plays_a_set_with_a_in_each_seat_and_tallies_its_bets(tmp_path) -> None:
    """The arena plays 1000 through the game registry: three matches a set from the same
    deal, A in each seat in turn; each side's points are its score in the record; contracts
    are tallied by bet and by kind (``bet``, ``blind``), and they add up."""
    from cardroom.games import thousand
    from cardroom.games.registry import replay

    rules = thousand.Rules.preset("seed")
    report = run_arena(rules, "rules", "random", sets=2, seed=5, records=tmp_path, hands=4)
    assert report.game == "1000" and report.sides == 3 and report.matches == 6
    assert [r.a_seats for r in report.results[:3]] == [(0,), (1,), (2,)]
    assert report.edge_per_hand().value > 0  # the rules bot out-scores random play
    for result in report.results:
        game = replay(thousand.Record.from_text(
            (tmp_path / f"match-{result.seed}-a{result.a_seats[0]}.txt").read_text()))
        assert len(game.history) == result.hands == 4
        others = [score for seat, score in enumerate(game.scores) if seat != result.a_seats[0]]
        assert result.a_points == game.scores[result.a_seats[0]]
        assert result.b_points == sum(others) / 2
    for side in ("a", "b"):
        made, failed, _ = report.contracts(side)
        kinds, levels = report.contracts_by_kind(side), report.contracts_by_level(side)
        assert set(kinds) <= {"bet", "blind"} and all(level.isdigit() for level in levels)
        assert list(levels) == sorted(levels, key=int)
        for table in (kinds, levels):
            assert sum(m for m, _, _ in table.values()) == made
            assert sum(f for _, f, _ in table.values()) == failed
    assert made + failed > 0


def test_the_command_plays_1000_by_its_preset_or_game_and_names_bad_ones() -> None:
    from typer.testing import CliRunner

    from cardroom.cli import app
    from cardroom.tools.arena import main

    runner = CliRunner()
    for choice in (["--preset", "russian"], ["--game", "1000"]):
        result = runner.invoke(app, ["arena", "--team-a", "rules", "--team-b", "random",
                                     "--matches", "3", "--hands", "1", *choice],
                               env={"COLUMNS": "200"})
        assert result.exit_code == 0, result.output
        assert "3 matches on duplicate deals" in result.output
    refused = runner.invoke(app, ["arena", "--preset", "nonesuch"])
    assert refused.exit_code == 1 and "1000: seed, russian" in refused.output
    with pytest.raises(SystemExit):
        main(["--game", "1000", "--preset", "online"])


def test_two_runs_on_the_same_deals_are_compared_set_by_set(tmp_path) -> None:
    """The JSON keeps A's edge in each set, in the order of the seeds, so that two runs of
    the same seeds can be paired (bench/arena_pairs.py); runs on other deals are refused."""
    import json

    import typer
    from bench.arena_pairs import load, paired

    from cardroom.tools.arena import main

    runs = {}
    for name, seed in (("first", 4), ("again", 4), ("other", 5)):
        out = tmp_path / f"{name}.json"
        main(["--team-a", "rules", "--team-b", "simple", "--matches", "6", "--seed", str(seed),
              "--hands", "2", "--json", str(out)])
        runs[name] = load(out)
    edges = runs["first"]["a_edges_by_set"]
    assert len(edges) == 3
    assert runs["first"]["a_edge_per_hand"][0] == pytest.approx(sum(edges) / len(edges))
    difference, sets = paired(runs["first"], runs["again"])
    assert sets == 3 and difference.value == 0  # the same bots on the same deals
    with pytest.raises(typer.BadParameter, match="seed"):
        paired(runs["first"], runs["other"])
    bare = tmp_path / "bare.json"
    bare.write_text(json.dumps({"seed": 4}))
    with pytest.raises(typer.BadParameter, match="no edges by set"):
        load(bare)
