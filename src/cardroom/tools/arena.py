"""Bot against bot on duplicate deals, with confidence intervals, in any game of the registry.

Every match is played once for each side of the table from the same seed: at 500 for four,
once with team A in seats 0 & 2 and once in seats 1 & 3; at 1000, once with A in each of the
three seats. Each side holds each set of cards once and the luck of the deal cancels out.
Matches run in worker processes (``jobs``); each set is independent and seeded, so results
do not depend on how many processes play them.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardroom.bots import Bot, make_bot
from cardroom.bots.levels import DEFAULT_BOT
from cardroom.games.registry import game_spec, pick_game, spec_for_rules

MAX_ACTIONS = 20_000
"""A match longer than this is a bug (bots that never finish), not a game."""


@dataclass(frozen=True)
class MatchResult:
    """One match from team A's point of view. A sits at one side of the table, B's bot at
    every other side (one side at a table of two teams; two, three or four where the table
    has more sides: three-handed, five-handed, three teams of two)."""

    seed: int
    a_seats: tuple[int, ...]
    a_won: bool
    hands: int
    a_points: int
    b_points: float
    """The points of B's sides, on average per side (one side: its points)."""
    a_contracts: tuple[int, int]
    """(made, failed) of contracts team A won in the bidding.

    Points are each side's score when the match stopped (1000's penalties included)."""
    b_contracts: tuple[int, int]
    """(made, failed) of contracts B's sides won, A defending."""
    record: str | None = None
    a_kinds: tuple[tuple[str, int, int], ...] = ()
    """Team A's contracts by kind (the game's ``contract_kind``: ``tricks``, ``misere``,
    ``open-misere`` … in 500, ``bet`` or ``blind`` in 1000): (kind, made, failed); team B's
    contracts are the ones team A defended."""
    b_kinds: tuple[tuple[str, int, int], ...] = ()
    a_levels: tuple[tuple[str, int, int], ...] = ()
    """Team A's contracts by level (the game's ``contract_label``): 500's trick contracts by
    their number of tricks (``"6"`` … ``"10"``), its others by kind as in ``a_kinds``;
    1000's by the bet (``"120"``): (level, made, failed)."""
    b_levels: tuple[tuple[str, int, int], ...] = ()
    a_ahead: float = 0.0
    """Of the B sides, how many team A finished ahead of: every one when A won the match,
    none that won it, and the others by the score (a tie counts half). At a table of two
    sides, 1 for a win."""
    a_tactics: tuple[tuple[str, str, int, int], ...] = ()
    """Team A's contracts whose winning call a match tactic made, by tactic and level: a
    bot's ``call_tactic`` (``stop``: bid over the other side's match-winning bid, expecting
    to go down more often than not): (tactic, level, made, failed). They are counted in
    ``a_levels`` too."""
    b_tactics: tuple[tuple[str, str, int, int], ...] = ()


BotChoice = str | Callable[[int], Bot]
"""A bot's registry name, or a function making a bot from a seed (say, a bot with options
of its own)."""


def play_match(rules: Any, seed: int, bot_a: BotChoice, bot_b: BotChoice, a_side: int,
               keep_record: bool = False, hands: int | None = None) -> MatchResult:
    """Play one match of the game these rules belong to, with team A at side ``a_side``
    (the game's ``teams(rules)[a_side]``: seats 0 & 2 for side 0 at a 500 table of four,
    seat 0 in 1000) and B's bot everywhere else. With ``hands``, stop after that many hands
    (nobody wins): the same deals, compared hand by hand."""
    spec = spec_for_rules(rules)
    game = spec.new(rules, seed=seed)
    teams = spec.teams(rules)
    sides = len(teams)
    team_of = {seat: side for side, team in enumerate(teams) for seat in team}

    def make(choice: BotChoice, bot_seed: int) -> Bot:
        return make_bot(choice, seed=bot_seed) if isinstance(choice, str) else choice(bot_seed)

    bots = {seat: make(bot_a if team_of[seat] == a_side else bot_b,
                       seed * 8 * sides + seat + 8 * a_side)
            for seat in range(game.players)}
    call_tactics: dict[tuple[int, int], str | None] = {}
    """Per (place in the history of the hand being played, seat): the tactic of the seat's
    latest call, as its bot says (``None``: the hand's worth, or a bot that does not say)."""
    for _ in range(MAX_ACTIONS):
        if game.is_over or (hands is not None and len(game.history) >= hands):
            break
        seat = game.to_act
        assert seat is not None
        game.apply(bots[seat].choose(game.view(seat)), seat=seat)
        call_tactics[len(game.history), seat] = getattr(bots[seat], "call_tactic", None)
    else:
        raise RuntimeError(f"match with seed {seed} did not end in {MAX_ACTIONS} actions")
    contracts = {"a": [0, 0], "b": [0, 0]}
    kinds: dict[str, dict[str, list[int]]] = {"a": {}, "b": {}}
    levels: dict[str, dict[str, list[int]]] = {"a": {}, "b": {}}
    tactics: dict[str, dict[tuple[str, str], list[int]]] = {"a": {}, "b": {}}
    for place, hand in enumerate(result.to_dict() for result in game.history):
        kind, level = spec.contract_kind(hand), spec.contract_label(hand)
        if hand["contractor"] is None or hand["made"] is None or kind is None or level is None:
            continue
        team = "a" if team_of[hand["contractor"]] == a_side else "b"
        outcome = 0 if hand["made"] else 1
        contracts[team][outcome] += 1
        kinds[team].setdefault(kind, [0, 0])[outcome] += 1
        levels[team].setdefault(level, [0, 0])[outcome] += 1
        # card play leaves call_tactic alone, so the contractor's entry names the tactic of
        # its winning call (its last call of the hand; every contractor called)
        tactic = call_tactics.get((place, hand["contractor"]))
        if tactic is not None:
            tactics[team].setdefault((tactic, level), [0, 0])[outcome] += 1
    points = list(game.scores)
    return MatchResult(
        seed=seed, a_seats=tuple(teams[a_side]), a_won=game.winner == a_side,
        a_ahead=sum(_ahead(game.winner, points, a_side, other)
                    for other in range(sides) if other != a_side),
        hands=len(game.history), a_points=points[a_side],
        b_points=(sum(points) - points[a_side]) / (sides - 1),
        a_contracts=(contracts["a"][0], contracts["a"][1]),
        b_contracts=(contracts["b"][0], contracts["b"][1]),
        record=game.record.to_text() if keep_record else None,
        a_kinds=_tally(kinds["a"]), b_kinds=_tally(kinds["b"]),
        a_levels=_tally(levels["a"]), b_levels=_tally(levels["b"]),
        a_tactics=_tally_tactics(tactics["a"]), b_tactics=_tally_tactics(tactics["b"]))


def _ahead(winner: int | None, points: list[int], side: int, other: int) -> float:
    """1 if ``side`` finished the match ahead of ``other`` (won it, or the other did not and
    has fewer points), ½ for equal points, else 0."""
    if winner is not None and winner in (side, other):
        return float(winner == side)
    return 0.5 if points[side] == points[other] else float(points[side] > points[other])


def level_order(level: str) -> tuple[int, str]:
    """Numbered levels first, lowest first (500's six to ten, 1000's bets), then the other
    kinds by name."""
    return (int(level), "") if level.isdigit() else (sys.maxsize, level)


def _tally(kinds: dict[str, list[int]]) -> tuple[tuple[str, int, int], ...]:
    """Made and failed contracts by kind or level, in a fixed order (results compare
    equal)."""
    return tuple((kind, made, failed)
                 for kind, (made, failed) in sorted(kinds.items(),
                                                    key=lambda item: level_order(item[0])))


def _tally_tactics(tactics: dict[tuple[str, str], list[int]]
                   ) -> tuple[tuple[str, str, int, int], ...]:
    """Made and failed contracts by tactic and level, in a fixed order."""
    return tuple((tactic, level, made, failed)
                 for (tactic, level), (made, failed) in sorted(
                     tactics.items(), key=lambda item: (item[0][0], level_order(item[0][1]))))


_Work = tuple[str, dict, int, "BotChoice", "BotChoice", bool, int | None]
"""What a worker needs to play one duplicate set: the game, its rules, seed, bots, records?,
hands."""


def _play_set(args: _Work) -> tuple[MatchResult, ...]:
    """The same deals once with team A at each side of the table in turn (a pair at a table
    of two teams)."""
    game, rules_dict, seed, bot_a, bot_b, keep, hands = args
    spec = game_spec(game)
    rules = spec.rules_from_dict(rules_dict)
    return tuple(play_match(rules, seed, bot_a, bot_b, side, keep, hands)
                 for side in range(len(spec.teams(rules))))


@dataclass
class Interval:
    """An estimate with its 95% confidence interval; ``percent`` for shares."""

    value: float
    low: float
    high: float
    percent: bool = False

    def __str__(self) -> str:
        if math.isnan(self.value):
            return "–"
        if self.percent:
            return f"{self.value:.1%} [{self.low:.1%}, {self.high:.1%}]"
        return f"{self.value:.1f} [{self.low:.1f}, {self.high:.1f}]"


def proportion(successes: float, trials: int) -> Interval:
    """Wilson score interval of a proportion (good even near 0% or 100%)."""
    if trials == 0:
        return Interval(math.nan, math.nan, math.nan, percent=True)
    z = 1.96
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (
        1 + z * z / trials)
    return Interval(p, max(0.0, centre - half), min(1.0, centre + half), percent=True)


def mean(values: list[float]) -> Interval:
    """Mean with a normal-approximation 95% interval."""
    if not values:
        return Interval(math.nan, math.nan, math.nan)
    average = sum(values) / len(values)
    if len(values) < 2:
        return Interval(average, math.nan, math.nan)
    spread = math.sqrt(sum((v - average) ** 2 for v in values) / (len(values) - 1))
    half = 1.96 * spread / math.sqrt(len(values))
    return Interval(average, average - half, average + half)


@dataclass
class ArenaReport:
    """Everything the arena measured, from team A's side and team B's."""

    bot_a: BotChoice
    bot_b: BotChoice
    results: list[MatchResult] = field(default_factory=list)

    sides: int = 2
    """Matches in a duplicate set: the sides of the table (A takes each in turn)."""
    game: str = "500"
    """The game played (its registry name)."""

    @property
    def matches(self) -> int:
        """Matches played (``sides`` times the number of duplicate sets)."""
        return len(self.results)

    def win_rate(self, side: str) -> Interval:
        """Share of matches won by side ``"a"`` or ``"b"``."""
        wins = sum(r.a_won for r in self.results)
        return proportion(wins if side == "a" else self.matches - wins, self.matches)

    def head_to_head(self) -> Interval:
        """Share of (match, B side) pairs in which team A finished ahead of that B side
        (:attr:`MatchResult.a_ahead`, a tie counting half): at tables of more than two
        sides, how often A beats one of B's sides, where an even match gives a half (its
        win share, one in three at three players). The pairs of one match are not
        independent: the interval is a little narrow."""
        pairs = self.matches * (self.sides - 1)
        return proportion(sum(result.a_ahead for result in self.results), pairs)

    def points_per_hand(self, side: str) -> Interval:
        """Points a side scored per hand, match by match."""
        return mean([(r.a_points if side == "a" else r.b_points) / max(r.hands, 1)
                     for r in self.results])

    def edge_per_hand(self) -> Interval:
        """Team A's points minus B's (per B side) per hand, one figure per duplicate set (the
        matches of a set hold the same deals, so their luck cancels: the tightest measure
        of which bot plays better, and the one to use when matches are cut short)."""
        return mean(self.edges_by_set())

    def edges_by_set(self) -> list[float]:
        """Team A's edge per hand in each duplicate set, in the order of their seeds: two
        runs on the same seeds can be compared set by set (``bench/arena_pairs.py``)."""
        size = self.sides
        sets = [self.results[i:i + size] for i in range(0, len(self.results), size)]
        return [sum(r.a_points - r.b_points for r in one_set)
                / max(1, sum(r.hands for r in one_set)) for one_set in sets]

    def contracts(self, side: str) -> tuple[int, int, Interval]:
        """Contracts a side won in the bidding: made, failed, share made."""
        made = sum((r.a_contracts if side == "a" else r.b_contracts)[0] for r in self.results)
        failed = sum((r.a_contracts if side == "a" else r.b_contracts)[1]
                     for r in self.results)
        return made, failed, proportion(made, made + failed)

    def contracts_by_kind(self, side: str) -> dict[str, tuple[int, int, Interval]]:
        """Contracts a side won in the bidding, by kind of contract: made, failed, share
        made. The other side's figures are the same contracts seen from the defence."""
        rows = (row for result in self.results
                for row in (result.a_kinds if side == "a" else result.b_kinds))
        return _made_shares(rows, {}, key=lambda kind: kind)

    def contracts_by_level(self, side: str) -> dict[str, tuple[int, int, Interval]]:
        """Contracts a side won in the bidding, by level (the game's ``contract_label``):
        made, failed, share made; the game's ``contract_levels`` always (500's six to ten, 0
        of 0 where never bid), then the other levels and kinds of contract it played."""
        rows = (row for result in self.results
                for row in (result.a_levels if side == "a" else result.b_levels))
        always = game_spec(self.game).contract_levels
        return _made_shares(rows, {level: [0, 0] for level in always}, key=level_order)

    def contracts_by_tactic(self, side: str) -> dict[str, dict[str, tuple[int, int, Interval]]]:
        """Contracts a side won with a call a match tactic made (a stop bid …), by tactic
        then level: made, failed, share made. They are among :meth:`contracts_by_level`'s."""
        rows: dict[str, list[tuple[str, int, int]]] = {}
        for result in self.results:
            for tactic, level, made, failed in (result.a_tactics if side == "a"
                                                else result.b_tactics):
                rows.setdefault(tactic, []).append((level, made, failed))
        return {tactic: _made_shares(tallies, {}, key=level_order)
                for tactic, tallies in sorted(rows.items())}

    def level_lines(self, side: str) -> list[str]:
        """The side's contract-level distribution as text: per level, how many contracts
        (and their share of all the side's contracts), how many were made and the share
        made, with its interval; then the contracts a match tactic called, by tactic, and
        the rest (the hand's own bids) level by level."""
        levels = self.contracts_by_level(side)
        total = sum(made + failed for made, failed, _ in levels.values())
        lines = [f"  level {level}: {made + failed}"
                 + (f" ({(made + failed) / total:.0%} of its contracts)" if total else "")
                 + f", {made} made, {failed} failed, made {share}"
                 for level, (made, failed, share) in levels.items()]
        by_tactic = self.contracts_by_tactic(side)
        own = {level: [made, failed] for level, (made, failed, _) in levels.items()}
        for tactic, tallies in by_tactic.items():
            lines.append(f"  of these, called by the match tactics ({tactic}): "
                         + _level_list(tallies))
            for level, (made, failed, _) in tallies.items():
                own[level][0] -= made
                own[level][1] -= failed
        if by_tactic:
            rest = _made_shares(((level, made, failed) for level, (made, failed) in own.items()
                                 if made + failed), {}, key=level_order)
            lines.append("  the rest, called on the hand's own worth: " + _level_list(rest))
        return lines

    def to_dict(self) -> dict[str, object]:
        """The report's figures as plain data (JSON-ready): per side, match wins, points,
        contracts made and failed, by kind and by level, with 95% intervals as
        ``[value, low, high]``."""

        def interval(figure: Interval) -> list[float | None]:
            return [None if math.isnan(x) else x for x in (figure.value, figure.low,
                                                            figure.high)]

        def tallies(table: dict[str, tuple[int, int, Interval]]) -> dict[str, object]:
            return {key: {"made": made, "failed": failed, "made_share": interval(share)}
                    for key, (made, failed, share) in table.items()}

        sides: dict[str, object] = {}
        for side, bot in (("a", self.bot_a), ("b", self.bot_b)):
            made, failed, share = self.contracts(side)
            sides[side] = {
                "bot": str(bot), "match_wins": interval(self.win_rate(side)),
                "points_per_hand": interval(self.points_per_hand(side)),
                "contracts": {"made": made, "failed": failed, "made_share": interval(share)},
                "by_kind": tallies(self.contracts_by_kind(side)),
                "by_level": tallies(self.contracts_by_level(side)),
                "by_tactic": {tactic: tallies(levels) for tactic, levels
                              in self.contracts_by_tactic(side).items()}}
        return {"game": self.game, "matches": self.matches, "sides_per_set": self.sides,
                "a_head_to_head": interval(self.head_to_head()),
                "a_edge_per_hand": interval(self.edge_per_hand()),
                "a_edges_by_set": self.edges_by_set(), **sides}

    def summary(self, preset: str) -> str:
        """The report as plain text: the command's figures, then every kind of contract
        made by each side as contractor (and so by the other side's defence)."""
        a, b = str(self.bot_a), str(self.bot_b)
        lines = [f"{self.matches} matches on duplicate deals, preset {preset} "
                 f"(95% confidence intervals); A: {a}, B: {b}",
                 f"match wins: A {self.win_rate('a')}, B {self.win_rate('b')}"
                 + (f" (B holds {self.sides - 1} of the {self.sides} sides: an even match "
                    f"gives A 1 in {self.sides})" if self.sides > 2 else ""),
                 *([f"head to head: A ahead of a B side at the match's end in "
                    f"{self.head_to_head()} of (match, B side) pairs (even: a half)"]
                   if self.sides > 2 else []),
                 f"points per hand: A {self.points_per_hand('a')}, "
                 f"B {self.points_per_hand('b')}",
                 f"A's edge per hand, same deals: {self.edge_per_hand()}"]
        for side, name, other in (("a", a, b), ("b", b, a)):
            made, failed, share = self.contracts(side)
            lines.append(f"{side.upper()} ({name}) as contractor, {other} defending: "
                         f"{made} made, {failed} failed, {share}")
            for kind, (made, failed, share) in self.contracts_by_kind(side).items():
                lines.append(f"  {kind}: {made} of {made + failed} made, {share}")
        for side, name in (("a", a), ("b", b)):
            lines.append(f"{side.upper()} ({name}) contracts by level:")
            lines.extend(self.level_lines(side))
        return "\n".join(lines)


def _made_shares(rows: Iterable[tuple[str, int, int]], totals: dict[str, list[int]],
                 key: Callable[[str], Any]) -> dict[str, tuple[int, int, Interval]]:
    """``(name, made, failed)`` rows added up by name (onto ``totals``, which may list names
    to show even at 0 of 0), each with its share made, in ``key``'s order."""
    for name, made, failed in rows:
        tally = totals.setdefault(name, [0, 0])
        tally[0] += made
        tally[1] += failed
    return {name: (made, failed, proportion(made, made + failed))
            for name, (made, failed) in sorted(totals.items(), key=lambda item: key(item[0]))}


def _level_list(tallies: dict[str, tuple[int, int, Interval]]) -> str:
    """Levels as one line of text: each with its made count and share."""
    return "; ".join(f"level {level}: {made} of {made + failed} made, {share}"
                     for level, (made, failed, share) in tallies.items()) or "none"


def duplicate_sets(rules: Any, matches: int) -> int:
    """Duplicate sets that play at least ``matches`` matches (a set is a match per side)."""
    sides = len(spec_for_rules(rules).teams(rules))
    return max(1, -(-matches // sides))


def run_arena(rules: Any, bot_a: BotChoice, bot_b: BotChoice, sets: int, seed: int,
              jobs: int = 1,
              records: Path | None = None,
              progress: Callable[[int], None] | None = None,
              hands: int | None = None, report: ArenaReport | None = None) -> ArenaReport:
    """Play ``sets`` duplicate sets of matches (of at most ``hands`` hands each, if given):
    each set plays the same deals once with A at each side of the table. ``progress(done)``
    after each set, with ``report`` (when given, filled in place) holding the sets done so
    far. With several ``jobs``, a bot given as a function must be one that pickles (a
    module-level function, class or ``functools.partial`` of one)."""
    spec = spec_for_rules(rules)
    report = ArenaReport(bot_a, bot_b) if report is None else report
    report.sides, report.game = len(spec.teams(rules)), spec.name
    work: list[_Work] = [(spec.name, rules.to_dict(), seed + n, bot_a, bot_b,
                          records is not None, hands) for n in range(sets)]
    for done, one_set in enumerate(_map(work, jobs), start=1):
        for result in one_set:
            report.results.append(result)
            if records is not None and result.record is not None:
                records.mkdir(parents=True, exist_ok=True)
                seats = "".join(map(str, result.a_seats))
                name = f"match-{result.seed}-a{seats}.txt"
                (records / name).write_text(result.record, encoding="utf-8")
        if progress is not None:
            progress(done)
    return report


def _map(work: list[_Work], jobs: int) -> Iterator[tuple[MatchResult, ...]]:
    if jobs <= 1:
        yield from map(_play_set, work)
        return
    with ProcessPoolExecutor(jobs) as pool:
        yield from pool.map(_play_set, work, chunksize=max(1, len(work) // (jobs * 8)))


def bot_choice(text: str, game: str = "500") -> BotChoice:
    """A team given on the command line: a registry name, or a search bot's name with a
    bidding style after ``@`` (``search@rules``: the default level bidding as the rules bot
    does; 500's :data:`~cardroom.bots.five_hundred.search.Bidding`, 1000's
    :data:`~cardroom.bots.thousand.search.Bidding`), and optionally a style of reading the
    calls after ``/`` (``search@valued/rules``: 500's
    :data:`~cardroom.bots.five_hundred.reading.ReadingStyle`, 1000's
    :data:`~cardroom.bots.thousand.reading.Reading`), for comparing bidding or reading with
    the same card play in ``game``."""
    if "@" not in text:
        return text
    from cardroom.bots import GAME_STYLED_SEARCH

    styled = GAME_STYLED_SEARCH[game]
    name, styles = text.split("@", 1)
    style, _, reading = styles.partition("/")
    level = "default" if name == "search" else name.removeprefix("search:")
    if (level not in styled.levels or style not in styled.biddings
            or (reading and reading not in styled.readings)):
        raise ValueError(f"{text!r}: a search level and a bidding style of {game} "
                         f"({', '.join(styled.biddings)}) and optionally a reading "
                         f"({', '.join(styled.readings)}) are needed, as in search@rules or "
                         f"search@valued/{styled.readings[0]}")
    return styled.make(level, style, reading or None)


def main(argv: list[str] | None = None) -> None:
    """``python -m cardroom.tools.arena``: the arena with its full text report, contracts made by
    kind included, printed again every ``--every`` sets so a long run that is stopped
    still leaves the figures of the sets it finished."""
    import argparse
    import json

    parser = argparse.ArgumentParser(prog="python -m cardroom.tools.arena",
                                     description=main.__doc__)
    parser.add_argument("--team-a", default=DEFAULT_BOT)
    parser.add_argument("--team-b", default="rules")
    parser.add_argument("--preset", default=None,
                        help="The rules preset; it names its game (default: the game's own).")
    parser.add_argument("--game", default=None,
                        help="The game, when no preset names it: its default preset is played.")
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--every", type=int, default=10)
    parser.add_argument("--json", type=Path, default=None,
                        help="Also write the figures here as JSON (ArenaReport.to_dict), "
                             "with the text report each time.")
    parser.add_argument("--deck", default=None,
                        help="Play the preset with this deck instead (say 46: two jokers).")
    parser.add_argument("--hands", type=int, default=None,
                        help="Stop every match after this many hands (1: duplicate single "
                             "deals, compared deal by deal).")
    args = parser.parse_args(argv)
    try:
        spec, preset = pick_game(args.game, args.preset)
        rules = spec.rules(preset, None if args.deck is None else {"deck": args.deck})
    except ValueError as error:  # no such game or preset, or no such deck (a RulesError)
        parser.error(str(error))
    try:
        team_a, team_b = bot_choice(args.team_a, spec.name), bot_choice(args.team_b, spec.name)
    except ValueError as error:
        parser.error(str(error))
    report = ArenaReport(args.team_a, args.team_b)
    table = preset if args.deck is None else f"{preset}, deck {args.deck}"

    def show(heading: str) -> None:
        print(f"-- {heading}\n{report.summary(table)}", flush=True)
        if args.json is not None:
            figures = {"preset": preset, "deck": rules.to_dict().get("deck"),
                       "seed": args.seed, **report.to_dict()}
            args.json.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")

    def progress(done: int) -> None:
        if done % args.every == 0:
            show(f"after {done} sets")

    run_arena(rules, team_a, team_b, duplicate_sets(rules, args.matches), args.seed,
              args.jobs, progress=progress, hands=args.hands, report=report)
    show("final")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
