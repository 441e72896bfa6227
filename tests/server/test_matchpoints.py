"""Duplicate scoring of the daily challenge, by worked examples: matchpoints on a deal (ties
count half), a day's totals and ranks (equal totals and points share a rank), deals not
played, and the result a deal's points are made of."""

from __future__ import annotations

import pytest

from cardroom.tables.matchpoints import NO_FIELD, Entrant, deal_points, matchpoints, standings


def test_a_deals_points_are_the_sides_points_less_the_others_average() -> None:
    assert deal_points([520, -30], 0) == 550  # made ten no trumps, the others took a trick
    assert deal_points([-100, 40], 0) == -140
    assert deal_points([120, 60, -20], 0) == 100  # 1000: 120 less the mean of 60 and -20
    assert deal_points([120, 60, -20], 1) == 10


def test_matchpoints_count_the_results_beaten_and_half_the_ties() -> None:
    field = sorted([-140.0, 80.0, 80.0, 400.0])
    assert matchpoints(80.0, field) == pytest.approx(100 * (1 + 1) / 4)  # beats one, ties two
    assert matchpoints(80.0, field, own=True) == pytest.approx(100 * (1 + 0.5) / 3)
    assert matchpoints(400.0, field, own=True) == 100.0
    assert matchpoints(-140.0, field, own=True) == 0.0
    assert matchpoints(10.0, [], own=False) == NO_FIELD
    assert matchpoints(10.0, [10.0], own=True) == NO_FIELD  # alone on the deal


def test_a_days_standings_rank_by_total_matchpoints_then_points() -> None:
    # Three deals. Ann and Bob tie deal 1 above Cat; deal 2 Bob beats both; deal 3 Cat has
    # not played. The bots are one more result on each deal.
    entrants = [
        Entrant("ann", "Ann", {1: 100.0, 2: 40.0, 3: -60.0}),
        Entrant("bob", "Bob", {1: 100.0, 2: 300.0, 3: -60.0}),
        Entrant("cat", "Cat", {1: -40.0, 2: 40.0}),
        Entrant("bots", "bots", {1: 60.0, 2: 40.0, 3: 20.0}),
    ]
    table = {row.id: row for row in standings(entrants, 3)}
    # Deal 1: Ann 100 against Bob 100, Cat -40 and the bots' 60: one tie, two beaten.
    assert table["ann"].deals[0] == (100.0, round(100 * 2.5 / 3, 2))
    # Deal 2: Ann's 40 ties Cat and the bots, below Bob: (0 + 1) of 3.
    assert table["ann"].deals[1] == (40.0, round(100 * 1 / 3, 2))
    # Deal 3: Ann and Bob tie each other below the bots: half a tie of 2 results.
    assert table["ann"].deals[2] == (-60.0, 25.0)
    assert table["bob"].deals[1] == (300.0, 100.0)
    assert table["cat"].deals[2] is None and table["cat"].played == 2
    assert table["cat"].total == round(0.0 + 100 * 1 / 3, 2)
    order = [row.id for row in standings(entrants, 3)]
    assert order == ["bob", "bots", "ann", "cat"]
    assert [row.rank for row in standings(entrants, 3)] == [1, 2, 3, 4]


def test_equal_totals_and_points_share_a_rank_and_the_next_skips() -> None:
    entrants = [Entrant("a", "Ann", {1: 50.0}), Entrant("b", "Bob", {1: 50.0}),
                Entrant("c", "Cat", {1: 10.0}), Entrant("d", "Dan", {1: 90.0})]
    rows = standings(entrants, 1)
    assert [(row.name, row.rank) for row in rows] == [
        ("Dan", 1), ("Ann", 2), ("Bob", 2), ("Cat", 4)]
    assert rows[1].total == rows[2].total == 50.0  # one beaten, one tie, of three


def test_equal_totals_are_ordered_by_points() -> None:
    # Each wins one deal and loses the other; Bob's points are higher.
    entrants = [Entrant("a", "Ann", {1: 200.0, 2: -100.0}),
                Entrant("b", "Bob", {1: 100.0, 2: 300.0})]
    rows = standings(entrants, 2)
    assert [row.total for row in rows] == [100.0, 100.0]
    assert [(row.name, row.rank) for row in rows] == [("Bob", 1), ("Ann", 2)]


def test_standings_of_a_thousand_players_stay_exact() -> None:
    entrants = [Entrant(str(n), f"P{n}", {d: float((n * 7 + d * 13) % 41) for d in range(1, 9)})
                for n in range(1000)]
    rows = standings(entrants, 8)
    assert len(rows) == 1000 and rows[0].rank == 1
    assert all(0.0 <= mp <= 100.0 for row in rows for _, mp in filter(None, row.deals))
    totals = [row.total for row in rows]
    assert totals == sorted(totals, reverse=True)
    # Every deal's matchpoints add up to half the comparisons, as they must.
    for deal in range(8):
        assert sum(row.deals[deal][1] for row in rows) == pytest.approx(50.0 * 1000, rel=1e-4)
