"""Property tests of the 500 engine over thousands of random games, for every player count.

Every game here is derived from seeds that hypothesis draws: the deal comes from
``Game.new(preset, seed=...)`` and the moves from a ``random.Random`` seeded with a string built
from the same numbers, so any failure names a seed that reproduces it.

Uniformly random bidding nearly always runs up to 10NT and ends the match in one hand, so the
games are also driven by biased policies (see :data:`POLICIES`): passing often, bidding low, or
reaching for the special contracts. Together they exercise all-pass handling, long matches of
many hands, the kitty exchanges, Nello, misère, Spread and the Across contracts.

Every preset is played (three to six players), and so are a few rule sets that switch on
every optional contract and rule at once (see :data:`RULE_SETS`): two jokers, the red-trump-4
and jokerless decks, six players in three pairs, five and three players with every contract
that needs no fixed partner.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.five_hundred.random_games import (
    EXCHANGE_PHASES,
    GAMES_PLAYED,
    MANY,
    MATCH_ACTION_LIMIT,
    MIXED,
    PRESET_NAMES,
    RULE_SETS,
    SEEDS,
    assert_no_seed,
    called_mask,
    cards_in_view,
    check_all_views,
    check_bidding,
    check_hand_sizes,
    check_turn,
    choose_action,
    conservation_problems,
    game_plan,
    on_every_rule_set,
    play_out,
    played_mask,
    random_game,
    sampled,
    scaled,
    snapshot,
    texts_mask,
    viewers,
)

from cardroom.games.cards import CARDS, cards_of, mask_of
from cardroom.games.five_hundred import (
    Action,
    Contract,
    Game,
    IllegalAction,
    Record,
)
from cardroom.games.five_hundred.actions import (
    BID_ACTIONS,
    BLACK_JOKER_LEADS,
    CALL_ACTIONS,
    GIVE_ACTIONS,
    JOKER_LEADS,
    JOKER_SUIT_ACTIONS,
    MISDEAL_ACTION,
    PASS_ACTION,
    PLAY_ACTIONS,
    SLAM_ACTION,
)
from cardroom.games.five_hundred.bids import TRICK_BIDS, Bid

# -- property 1 and 2: turns and cards --------------------------------------------------------


@on_every_rule_set(20)
def test_someone_may_act_until_the_match_is_over(preset: str, seed: int) -> None:
    for policy, game_seed in game_plan(seed, MANY):
        for game in random_game(preset, game_seed, policy):
            check_turn(game)
            check_bidding(game)
            check_hand_sizes(game)
        assert game.is_over


@on_every_rule_set(20)
def test_every_card_is_in_exactly_one_place(preset: str, seed: int) -> None:
    for policy, game_seed in game_plan(seed, MIXED):
        for game in random_game(preset, game_seed, policy, max_actions=1500):
            problems = conservation_problems(game)
            assert not problems, (f"{preset} seed {game_seed} {policy}, after "
                                  f"{len(game.actions)} actions: {problems}")


def _across_the_table_game(seed: int) -> Game:
    """An online game where seat 3 bids Across The Table after its partner bid No Tricks."""
    game = Game.new("online", seed=seed, dealer=0)
    for text in ("bid misere", "pass", "bid across-the-table", "pass", "pass"):
        game.apply(text)
    assert game.phase == "discard" and game.to_act == 3
    return game


@settings(max_examples=scaled(30), deadline=None)
@given(seed=SEEDS, picks=st.tuples(SEEDS, SEEDS))
def test_across_the_table_passes_discards_without_copying_them(
        seed: int, picks: tuple[int, int]) -> None:
    game = _across_the_table_game(seed)
    for pick in picks:
        choices = game.legal_actions()
        game.apply(choices[pick % len(choices)])
    assert game.phase == "play"
    assert not conservation_problems(game)


@on_every_rule_set(15)
def test_special_contracts_keep_the_cards(preset: str, seed: int) -> None:
    """Misère, Spread, Nello and the Across contracts move hands and widows correctly."""
    for policy, game_seed in game_plan(seed, {"special": 6}):
        for game in random_game(preset, game_seed, policy, max_actions=600):
            assert not conservation_problems(game)


# -- property 3: views ----------------------------------------------------------------------


@on_every_rule_set(8)
def test_views_show_only_what_the_viewer_may_see(preset: str, seed: int) -> None:
    """Every step of one short match, and sampled steps of four more, all five views each."""
    plan = game_plan(seed, {"uniform": 1, "passive": 1, "special": 2, "low": 1})
    for number, (policy, game_seed) in enumerate(plan):
        wants = sampled(random.Random(game_seed), 0.04)
        for game in random_game(preset, game_seed, policy, max_actions=400):
            if number == 0 or wants(game):
                check_all_views(game)


@on_every_rule_set(10)
def test_views_of_the_special_contracts_show_only_what_they_may(preset: str, seed: int) -> None:
    """Every step of the hands played under a special contract, in up to three matches."""
    for policy, game_seed in game_plan(seed, {"special": 3}):
        for game in random_game(preset, game_seed, policy, max_actions=300):
            if game.contract is not None and game.contract.is_misere_type:
                check_all_views(game)


@on_every_rule_set(10)
def test_events_reveal_only_the_card_played(preset: str, seed: int) -> None:
    """``apply`` returns public events (sent to every seat): no hidden card may be in them."""
    for policy, game_seed in game_plan(seed, {"uniform": 2, "passive": 1, "special": 2}):
        GAMES_PLAYED[0] += 1
        game = Game.new(RULE_SETS[preset], seed=game_seed)
        rng = random.Random(f"events:{game_seed}:{policy}")
        while not game.is_over and len(game.actions) < 600:
            action = choose_action(game, rng, policy)
            public = (played_mask(game) | called_mask(game)
                      | (action.mask if action.kind in ("play", "call") else 0))
            text = json.dumps(game.apply(action))
            shown = texts_mask(cards_in_view(text))
            assert not shown & ~public, (
                f"{preset} seed {game_seed} {policy}: '{action}' gave events showing "
                f"{cards_of(shown & ~public)}: {text}")
            assert_no_seed(text, game.seed)


def test_spread_hand_is_shown_to_everybody_after_the_first_trick() -> None:
    """Seeds until a Spread is played: its hand must appear in every other view, once open."""
    opened = 0
    for seed in range(200):
        for game in random_game("australian", seed, "special", max_actions=400):
            spread = (game.phase == "play" and game.contract is not None
                      and game.contract.contract is Contract.OPEN_MISERE)
            if not spread:
                continue
            seat = game.contractor
            assert seat is not None
            if game.completed:
                opened += 1
                assert game.open_hand == seat
                for viewer in viewers(game):
                    view = game.view(viewer)
                    if viewer != seat:
                        shown = view["open_hands"][str(seat)]
                        assert mask_of(shown) == game.hands[seat]
            else:
                for viewer in viewers(game):
                    assert str(seat) not in game.view(viewer)["open_hands"]
        if opened >= 20:
            break
    assert opened >= 20


def test_kitty_is_shown_only_to_the_seat_exchanging() -> None:
    checked = 0
    for preset in PRESET_NAMES:
        for seed in range(30):
            for game in random_game(preset, seed, "passive", max_actions=300):
                if game.phase not in EXCHANGE_PHASES:
                    continue
                checked += 1
                seat = game.to_act
                assert game.view(seat)["exchange"]
                assert mask_of(game.view(seat)["exchange"]) & ~game.hands[seat] == 0
                for viewer in viewers(game):
                    if viewer != seat:
                        assert game.view(viewer)["exchange"] is None
    assert checked > 50


# -- property 4: scores ---------------------------------------------------------------------


def check_scores(game: Game) -> None:
    """Property 4: the score of each side is the sum of its hand results."""
    sides = range(len(game.teams))
    running = [0] * len(game.teams)
    for number, result in enumerate(game.history, start=1):
        assert result.number == number
        running = [running[side] + result.points[side] for side in sides]
        assert list(result.scores) == running
    assert game.scores == running
    assert game.scores == [sum(h.points[side] for h in game.history) for side in sides]


def expected_points(game: Game, result: Any) -> tuple[list[int], bool | None]:
    """Independent scoring of one hand (RULES.md 1.4 and 1.5) from its contract and tricks.

    The sides of the hand come from the result (``contract_side``); everything else from the
    rules, the bid and the tricks of each seat."""
    rules = game.rules
    tricks = result.tricks
    teams = game.teams
    team = [sum(tricks[s] for s in seats) for seats in teams]
    before = [score - gained for score, gained in zip(result.scores, result.points,
                                                       strict=True)]

    def defence(side: int, points: int) -> int:
        cap = {"always": None, "none": 0, "not_over_490": 490, "not_over_400": 400}[
            rules.defender_points]
        if cap is None:
            return points
        return 0 if cap == 0 else max(0, min(points, cap - before[side]))

    if result.contract is None:
        if rules.all_pass == "play_no_trump" and sum(tricks):
            return [10 * t for t in team], None
        assert sum(tricks) == 0
        return [0] * len(teams), None
    bid = Bid.parse(result.contract)
    seat = result.contractor
    side = game.team_of[seat]
    makers_sides = {game.team_of[s] for s in result.contract_side}
    assert seat in result.contract_side
    if game.players in (4, 6):
        assert set(result.contract_side) == set(teams[side])
    points = [0] * len(teams)
    if bid.contract is Contract.ACROSS_THE_CORNER:
        mine = tricks[seat]
        theirs = sum(tricks) - mine  # only one opponent plays: the one who bid No Tricks
        if mine == theirs:
            return points, None
        if mine < theirs:
            fewer = side
        elif theirs:
            fewer = game.team_of[next(s for s in range(game.players) if tricks[s] and s != seat)]
        elif len(teams) == 2:
            fewer = 1 - side
        else:  # the opponent took nothing: which of the other pairs it was is not in the result
            fewer = next(t for t, p in enumerate(result.points) if p)
            assert fewer != side
        points[fewer] = bid.value
        return points, mine < theirs
    pair = (Contract.ACROSS_THE_TABLE, Contract.DOUBLE_NULLO, Contract.SHIELDS_DOUBLE,
            Contract.PATASTROPHE)
    if bid.is_misere_type:
        makers = result.contract_side if bid.contract in pair else [seat]
        taken = sum(tricks[s] for s in makers)
        made = taken == 0
        for t in range(len(teams)):
            points[t] = ((bid.value if made else -bid.value) if t in makers_sides
                         else defence(t, 10 * taken))
        return points, made
    if bid.contract is Contract.HI_LO:
        made = tricks[seat] == 5
        value = bid.value
    else:
        taken = sum(tricks[s] for s in result.contract_side)
        slam = "slam called" in result.summary
        if slam:
            made = taken == 10
            eight = TRICK_BIDS[(8, bid.trump)].value
            value = eight if made else bid.value + 100
        else:
            made = taken >= bid.tricks
            value = bid.value
            if made and taken == 10:
                if rules.all_tricks_bonus == "slam_250":
                    value = max(value, 250)
                elif rules.all_tricks_bonus == "sweep_plus_50" and bid.tricks < 10:
                    value += 50
    for t in range(len(teams)):
        points[t] = (value if made else -value) if t in makers_sides else defence(t, 10 * team[t])
    return points, made


def check_hand_results(game: Game) -> None:
    for result in game.history:
        points, made = expected_points(game, result)
        assert list(result.points) == points, result
        assert result.made == made, result
        played = sum(result.tricks)
        assert played <= 10
        stopped = (game.rules.misere_failure == "stop" and result.contract is not None
                   and Bid.parse(result.contract).is_misere_type and result.made is False)
        if result.contract is not None and not stopped:
            assert played == 10, result


@on_every_rule_set(20)
def test_scores_are_the_sum_of_hand_results(preset: str, seed: int) -> None:
    for policy, game_seed in game_plan(seed, MANY):
        game = play_out(preset, game_seed, policy)
        check_scores(game)
        check_hand_results(game)


# -- property 5: replay ---------------------------------------------------------------------


@on_every_rule_set(6)
def test_replay_of_the_record_gives_the_same_game(preset: str, seed: int) -> None:
    plan = game_plan(seed, {"uniform": 2, "passive": 1, "special": 2, "low": 1})
    for policy, game_seed in plan:
        rng = random.Random(game_seed)
        stop_at = rng.randrange(1, 400)
        midway: tuple[Record, tuple[Any, ...]] | None = None
        for game in random_game(preset, game_seed, policy, max_actions=3000):
            if len(game.actions) == stop_at:
                midway = (game.record, snapshot(game))
        final = snapshot(game)
        records = [game.record, Record.from_text(game.record.to_text()),
                   Record.from_dict(game.record.to_dict())]
        if midway is not None:
            records.append(midway[0])
        for record in records:
            expected = midway[1] if midway and record is midway[0] else final
            assert snapshot(Game.replay(record)) == expected


# -- property 6: illegal actions --------------------------------------------------------------

GARBAGE: tuple[Any, ...] = (
    "", "   ", "fold", "bye bye", "bid", "bid 11H", "bid 5S", "bid 7X", "bid 7H now", "play",
    "play ZZ", "play 1H", "play 2", "play AS:H", "play JK:X", "play AS KS", "discard",
    "discard 99", "give", "give AS KS", "pass 7H", "BID SEVEN HEARTS", "\n", "#", "0: pass",
    None, 42, 3.5, ["pass"], {"kind": "pass"}, b"pass",
)


def illegal_candidates(game: Game, rng: random.Random) -> list[Any]:
    """Actions (and junk) that the rules should refuse now, of every kind."""
    phase = game.phase
    seat = game.to_act
    candidates: list[Any] = list(rng.sample(GARBAGE, 4))
    others = [PASS_ACTION, rng.choice(list(BID_ACTIONS.values())), rng.choice(PLAY_ACTIONS),
              rng.choice(GIVE_ACTIONS), "discard " + " ".join(c.text for c in rng.sample(CARDS, 5)),
              MISDEAL_ACTION, SLAM_ACTION, rng.choice(CALL_ACTIONS),
              rng.choice(list(JOKER_SUIT_ACTIONS.values()))]
    candidates += others
    if seat is None:
        return candidates
    hand = game.hands[seat]
    held = cards_of(hand)
    if phase == "bidding":
        candidates += list(BID_ACTIONS.values())
    elif phase == "play":
        candidates += [rng.choice(PLAY_ACTIONS) for _ in range(6)]
        candidates += [PLAY_ACTIONS[card.index] for card in held]
        candidates += [*JOKER_LEADS.values(), *BLACK_JOKER_LEADS.values(), "play JK", "play JK2"]
        candidates += [f"play {card.text}:H" for card in held[:2]]
    elif phase in EXCHANGE_PHASES:
        count = game.exchange_count
        for size in {count - 1, count + 1, 0, len(held)} - {count}:
            if 0 < size <= len(held):
                candidates.append(Action("discard", cards=rng.sample(held, size)))
        strangers = [card for card in CARDS if not hand & card.mask]
        mixed = [*rng.sample(held, count - 1), rng.choice(strangers)]
        candidates.append("discard " + " ".join(card.text for card in mixed))
        candidates.append("discard " + " ".join([held[0].text] * count))
    elif phase == "give":
        candidates += [GIVE_ACTIONS[card.index] for card in CARDS if not hand & card.mask][:5]
    elif phase == "call":
        candidates += [CALL_ACTIONS[card.index] for card in held[:3]]
        candidates += [CALL_ACTIONS[index] for index in game.called]
        candidates += [CALL_ACTIONS[card.index] for card in CARDS
                       if not game.rules.deck_spec.mask & card.mask][:3]
    elif phase == "joker":
        candidates += [PLAY_ACTIONS[card.index] for card in held[:2]]
    return candidates


def is_listed(game: Game, candidate: Any) -> bool:
    """Whether ``candidate`` is one of the legal actions the game lists."""
    legal = game.legal_actions()
    if isinstance(candidate, str):
        try:
            candidate = Action.parse(candidate)
        except ValueError:
            return False
    if not isinstance(candidate, Action):
        return False
    if game.phase in EXCHANGE_PHASES:
        return candidate in legal
    return candidate.text in {action.text for action in legal}


@on_every_rule_set(8, suppress_health_check=[HealthCheck.too_slow])
def test_illegal_actions_are_refused_and_change_nothing(preset: str, seed: int) -> None:
    tried = 0
    for policy, game_seed in game_plan(seed, {"uniform": 1, "passive": 1, "special": 1}):
        rng = random.Random(game_seed)
        wants = sampled(rng, 0.05)
        for game in random_game(preset, game_seed, policy, max_actions=500):
            if not wants(game):
                continue
            before = snapshot(game)
            for candidate in illegal_candidates(game, rng):
                if is_listed(game, candidate):
                    continue
                with pytest.raises(IllegalAction):
                    game.apply(candidate)
                tried += 1
            if not game.is_over:
                legal = game.legal_actions()
                action = legal[rng.randrange(len(legal))]
                for wrong in range(1, game.players):
                    other = (game.to_act + wrong) % game.players  # type: ignore[operator]
                    with pytest.raises(IllegalAction):
                        game.apply(action, seat=other)
                    with pytest.raises(IllegalAction):
                        game.apply(action.text, seat=other)
            assert snapshot(game) == before
    assert tried > 0


@on_every_rule_set(6)
def test_an_action_is_accepted_exactly_when_it_is_listed(preset: str, seed: int) -> None:
    """Every pass, bid, play and give is tried at sampled steps: accepted iff legal."""
    universe: list[Action] = [PASS_ACTION, *BID_ACTIONS.values(), *PLAY_ACTIONS,
                              *JOKER_LEADS.values(), *BLACK_JOKER_LEADS.values(),
                              *GIVE_ACTIONS, MISDEAL_ACTION, SLAM_ACTION, *CALL_ACTIONS,
                              *JOKER_SUIT_ACTIONS.values()]
    for policy, game_seed in game_plan(seed, {"passive": 1, "special": 1}):
        wants = sampled(random.Random(game_seed), 0.05)
        for game in random_game(preset, game_seed, policy, max_actions=500):
            if game.is_over or not wants(game):
                continue
            if game.phase in EXCHANGE_PHASES:
                continue  # discards are covered by the illegal-action test
            listed = {action.text for action in game.legal_actions()}
            for action in universe:
                twin = game.copy()
                try:
                    twin.apply(action)
                except IllegalAction:
                    accepted = False
                else:
                    accepted = True
                assert accepted == (action.text in listed), (
                    f"{preset} seed {game_seed} {policy}: {action} in phase {game.phase} "
                    f"after {len(game.actions)} actions: listed={action.text in listed}")


# -- property 7: copies ---------------------------------------------------------------------


@on_every_rule_set(6)
def test_a_copy_is_independent_of_the_original(preset: str, seed: int) -> None:
    for policy, game_seed in game_plan(seed, {"uniform": 1, "special": 1, "low": 1}):
        rng = random.Random(game_seed)
        wants = sampled(rng, 0.03, phase_changes=policy != "low")
        for game in random_game(preset, game_seed, policy, max_actions=300):
            if game.is_over or not wants(game):
                continue
            before = snapshot(game)
            twin = game.copy()
            assert snapshot(twin) == before
            for _ in range(rng.randrange(1, 80)):
                if twin.is_over:
                    break
                twin.apply(choose_action(twin, rng, policy))
            assert snapshot(game) == before
            twin_state = snapshot(twin)
            other = game.copy()
            for _ in range(rng.randrange(1, 80)):
                if other.is_over:
                    break
                other.apply(choose_action(other, rng, "uniform"))
            assert snapshot(twin) == twin_state
            assert snapshot(game) == before


def test_editing_a_view_leaves_the_game_alone() -> None:
    game = Game.new("classic", seed=3)
    rng = random.Random(3)
    while not game.completed:
        game.apply(choose_action(game, rng, "uniform"))
    before = snapshot(game)
    view = game.view(0)
    view["tricks"][0]["cards"].append("AS")
    view["tricks"][0]["seats"].clear()
    view["hand"].clear()
    view["scores"].append(1)
    assert snapshot(game) == before


def test_editing_the_events_leaves_the_game_alone() -> None:
    game = Game.new("classic", seed=3)
    rng = random.Random(3)
    while True:
        events = game.apply(choose_action(game, rng, "uniform"))
        tricks = [event for event in events if event["type"] == "trick"]
        if tricks:
            break
    before = snapshot(game)
    for event in events:
        for value in event.values():
            if isinstance(value, list):
                value.append("AS")
    assert tricks[0]["cards"][-1] == "AS"
    assert snapshot(game) == before


# -- property 8: every match ends -------------------------------------------------------------


def tied_at_the_top(game: Game, result: Any, won: list[int]) -> bool:
    """Whether the sides past the target after ``result`` are tied at the top with no
    winner by the rules: neither the one that reached it with the contract
    (``both_reach_target``) nor the contractor's side among the tied (``target_tie``)."""
    rules = game.rules
    side = None if result.contractor is None else game.team_of[result.contractor]
    if len(won) < 2 or (rules.both_reach_target == "contractor" and side in won):
        return False
    top = max(result.scores[s] for s in won)
    tied = [s for s in won if result.scores[s] == top]
    return len(tied) > 1 and not (rules.target_tie == "contractor" and side in tied)


def check_match_end(game: Game) -> None:
    """The match ended exactly at the first hand after which the rules name a winner."""
    rules = game.rules
    sides = range(len(game.teams))
    assert game.is_over and game.winner in sides

    def reached(score: int) -> bool:
        return score > rules.target if rules.target_strict else score >= rules.target

    for number, result in enumerate(game.history, start=1):
        last = number == len(game.history)
        lost = [side for side in sides
                if rules.lose_at is not None and result.scores[side] <= rules.lose_at]
        won = [side for side in sides if reached(result.scores[side])]
        if rules.win_needs_bid:
            contract_sides = {game.team_of[s] for s in result.contract_side}
            won = [side for side in won if side in contract_sides and result.made]
        if tied_at_the_top(game, result, won):
            won = []  # another hand settles it
        if not last:
            assert not won and not lost, f"hand {number} should have ended the match"
            continue
        assert won or lost, "the match ended without a winner by the rules"
        if len(won) == 1:
            assert game.winner == won[0]
        elif not won and len(lost) == 1 and len(game.teams) == 2:
            assert game.winner == 1 - lost[0]
        elif not won:
            standing = [side for side in sides if side not in lost]
            if standing:
                assert game.winner in standing
                assert result.scores[game.winner] == max(result.scores[s] for s in standing)


@on_every_rule_set(20)
def test_every_match_ends_with_a_winner(preset: str, seed: int) -> None:
    for policy, game_seed in game_plan(seed, MANY):
        game = play_out(preset, game_seed, policy)
        assert game.is_over, f"{preset} seed {game_seed} {policy}: no winner after " \
                             f"{MATCH_ACTION_LIMIT} actions"
        assert game.winner in range(len(game.teams))
        check_match_end(game)
        with pytest.raises(IllegalAction):
            game.apply(PASS_ACTION)
