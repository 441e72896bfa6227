"""Game records of 500: the text form, files, replays, given deals and tampered records."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.games.cards import cards_of
from cardroom.games.five_hundred import PRESET_NAMES, Action, Game, Record, Rules
from cardroom.games.record import HEADER

SEEDS = st.integers(min_value=0, max_value=2**40)


def random_match(preset: str, seed: int, pass_often: bool = True,
                 max_actions: int = 5000) -> Game:
    """A match of random legal actions (passing 70% of the time in the bidding, if asked)."""
    game = Game.new(preset, seed=seed)
    rng = random.Random(f"record-moves:{preset}:{seed}:{pass_often}")
    while not game.is_over and len(game.actions) < max_actions:
        legal = game.legal_actions()
        action = legal[rng.randrange(len(legal))]
        if pass_often and game.phase == "bidding" and rng.random() < 0.7:
            action = next((a for a in legal if a.kind == "pass"), action)
        game.apply(action)
    return game


def same_game(one: Game, other: Game) -> None:
    assert one.scores == other.scores
    assert one.history == other.history
    assert (one.phase, one.to_act, one.winner) == (other.phase, other.to_act, other.winner)
    assert one.hands == other.hands
    assert one.kitty == other.kitty
    for seat in (0, 1, 2, 3, None):
        assert one.view(seat) == other.view(seat)


def shuffled_deal(rules: Rules, seed: int) -> tuple[list[list[str]], list[str]]:
    cards = [card.text for card in cards_of(rules.deck_spec.mask)]
    random.Random(seed).shuffle(cards)
    hands = [cards[10 * seat:10 * seat + 10] for seat in range(4)]
    return hands, cards[40:]


# -- the text form ----------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESET_NAMES)
@settings(max_examples=10, deadline=None)
@given(seed=SEEDS)
def test_text_form_round_trips(preset: str, seed: int) -> None:
    game = random_match(preset, seed, max_actions=300)
    record = game.record
    parsed = Record.from_text(record.to_text())
    assert parsed.game == record.game == "500"
    assert parsed.rules == record.rules
    assert parsed.seed == record.seed == seed
    assert parsed.dealer == record.dealer
    assert parsed.deal == record.deal is None
    assert parsed.actions == record.actions
    assert parsed.seats == record.seats
    assert parsed.notes == record.notes
    assert Record.from_text(parsed.to_text()) == record


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_text_form_round_trips_byte_for_byte(preset: str) -> None:
    record = random_match(preset, 5).record
    text = record.to_text()
    parsed = Record.from_text(text)
    assert parsed.to_text() == text
    assert parsed.notes == record.notes
    assert parsed == record


def test_dict_form_round_trips_and_replays() -> None:
    game = random_match("online", 11, max_actions=400)
    data = json.loads(json.dumps(game.record.to_dict()))
    record = Record.from_dict(data)
    assert record.actions == game.record.actions
    assert record.seats == game.record.seats
    same_game(Game.replay(record), game)


def test_text_form_is_readable() -> None:
    game = next(game for game in (random_match("australian", seed) for seed in range(100))
                if len(game.history) >= 3)
    text = game.record.to_text()
    lines = text.splitlines()
    assert lines[0] == HEADER
    assert "game: 500" in lines
    assert f"seed: {game.seed}" in lines
    assert f"dealer: {game.first_dealer}" in lines
    assert json.loads(next(line for line in lines if line.startswith("rules: "))[7:]) == \
        game.rules.to_dict()
    body = lines[lines.index("actions:") + 1:]
    comments = [line for line in body if line.startswith("#")]
    moves = [line for line in body if not line.startswith("#")]
    assert [re.match(r"# hand (\d+), dealer [0-3]$", line)[1]  # type: ignore[index]
            for line in comments] == [str(n) for n in range(1, game.hand_number + 1)]
    assert len(moves) == len(game.actions)
    for line, action, seat in zip(moves, game.actions, game.action_seats, strict=True):
        assert line == f"{seat}: {action.text}"
        assert Action.parse(line.split(": ", 1)[1]) == action


def test_hand_comment_stands_before_the_first_action_of_its_hand() -> None:
    game = random_match("classic", 8)
    body = game.record.to_text().splitlines()
    body = body[body.index("actions:") + 1:]
    position = 0
    first_action_of_hand = {}
    for line in body:
        if line.startswith("# hand "):
            first_action_of_hand[int(line.split()[2].rstrip(","))] = position
        else:
            position += 1
    for number in range(1, game.hand_number + 1):
        replayed = Game.replay(Record(**{**vars(game.record), "notes": {},
                                         "actions": game.record.actions[
                                             :first_action_of_hand[number]],
                                         "seats": game.record.seats[
                                             :first_action_of_hand[number]]}))
        assert replayed.hand_number == number
        assert replayed.phase == "bidding"
        assert replayed.bids == []


# -- files ------------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_save_and_load_a_file(preset: str, tmp_path: Path) -> None:
    game = random_match(preset, 99)
    path = tmp_path / f"{preset}.txt"
    game.record.save(path)
    assert path.read_text(encoding="utf-8") == game.record.to_text()
    loaded = Record.load(path)
    assert loaded.actions == game.record.actions
    same_game(Game.replay(loaded), game)


def test_load_of_a_path_given_as_text(tmp_path: Path) -> None:
    game = random_match("american", 4)
    path = str(tmp_path / "match.record")
    game.record.save(path)
    same_game(Game.replay(Record.load(path)), game)


# -- replays ----------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESET_NAMES)
@settings(max_examples=8, deadline=None)
@given(seed=SEEDS)
def test_replay_reproduces_the_scores_hand_by_hand(preset: str, seed: int) -> None:
    game = random_match(preset, seed)
    record = game.record
    hand_starts = sorted(record.notes)  # a note stands before the first action of each hand
    assert len(hand_starts) == game.hand_number
    for number, start in enumerate(hand_starts[1:], start=1):
        partial = Record(game=record.game, rules=record.rules, seed=record.seed,
                         dealer=record.dealer, actions=record.actions[:start],
                         seats=record.seats[:start])
        replayed = Game.replay(partial)
        assert replayed.history == game.history[:number]
        assert replayed.scores == list(game.history[number - 1].scores)
        assert replayed.hand_number == number + 1
    same_game(Game.replay(record), game)
    same_game(Game.replay(Record.from_text(record.to_text())), game)


def test_replay_of_an_empty_record_is_a_new_game() -> None:
    fresh = Game.new("online", seed=77)
    same_game(Game.replay(fresh.record), fresh)
    assert Game.replay(fresh.record).actions == []


def test_replay_of_a_record_without_seats_still_works() -> None:
    game = random_match("classic", 3)
    record = game.record
    record.seats = []
    same_game(Game.replay(record), game)
    text = "\n".join(re.sub(r"^[0-3]: ", "", line) for line in record.to_text().splitlines())
    same_game(Game.replay(Record.from_text(text)), game)


# -- a given first deal -----------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_record_of_a_given_deal_keeps_the_deal(preset: str) -> None:
    rules = Rules.preset(preset)
    hands, kitty = shuffled_deal(rules, 2024)
    game = Game.from_deal(preset, dealer=2, hands=hands, kitty=kitty, seed=5)
    assert [set(map(str, cards_of(mask))) for mask in game.hands] == [set(h) for h in hands]
    rng = random.Random(1)
    while not game.is_over and game.hand_number < 3:
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    record = game.record
    assert record.deal is not None
    assert [set(hand) for hand in record.deal["hands"]] == [set(hand) for hand in hands]
    assert set(record.deal["kitty"]) == set(kitty)
    assert record.dealer == 2
    parsed = Record.from_text(record.to_text())
    assert parsed.deal == record.deal
    assert "deal: " in record.to_text()
    same_game(Game.replay(record), game)
    same_game(Game.replay(parsed), game)
    first = Game.replay(Record(game="500", rules=record.rules, seed=5, dealer=2,
                               deal=record.deal))
    assert [set(map(str, cards_of(mask))) for mask in first.hands] == [set(h) for h in hands]
    assert set(map(str, cards_of(first.kitty))) == set(kitty)


def test_later_deals_of_a_given_deal_come_from_the_seed() -> None:
    rules = Rules.preset("classic")
    hands, kitty = shuffled_deal(rules, 7)
    one = Game.from_deal(rules, dealer=0, hands=hands, kitty=kitty, seed=1)
    other = Game.from_deal(rules, dealer=0, hands=hands, kitty=kitty, seed=1)
    for game in (one, other):
        for _ in range(4):
            game.apply("pass")  # all pass: classic redeals
        assert game.hand_number == 2
    assert one.hands == other.hands
    assert [set(map(str, cards_of(mask))) for mask in one.hands] != [set(h) for h in hands]


# -- tampered records -------------------------------------------------------------------------


def _played_record() -> Record:
    return random_match("classic", 12).record


def test_record_with_an_illegal_action_is_refused() -> None:
    record = _played_record()
    position = next(i for i, text in enumerate(record.actions) if text.startswith("play "))
    record.actions[position] = "play 4S"  # not even in the 43-card deck
    with pytest.raises(ValueError, match=rf"record action {position + 1} \(play 4S\): "
                                         "You do not hold 4S"):
        Game.replay(record)


def test_record_with_a_bad_bid_says_why() -> None:
    game = Game.new("classic", seed=1)
    game.apply("bid 8H")
    text = game.record.to_text() + f"{game.to_act}: bid 7S\n"
    with pytest.raises(ValueError, match=r"record action 2 \(bid 7S\): A bid must beat"):
        Game.replay(Record.from_text(text))


def test_record_with_garbage_action_is_refused() -> None:
    game = Game.new("online", seed=2)
    text = game.record.to_text() + f"{game.to_act}: dance a jig\n"
    with pytest.raises(ValueError, match=r"record action 1 \(dance a jig\): not an action"):
        Game.replay(Record.from_text(text))


def test_record_with_the_wrong_seat_is_refused() -> None:
    record = _played_record()
    wrong = (record.seats[3] + 1) % 4  # type: ignore[operator]
    lines = record.to_text().splitlines()
    body_start = lines.index("actions:") + 1
    moves = [n for n in range(body_start, len(lines)) if not lines[n].startswith("#")]
    lines[moves[3]] = re.sub(r"^\d", str(wrong), lines[moves[3]])
    with pytest.raises(ValueError, match=rf"record action 4 .* is by seat {wrong}, but seat "
                                         rf"{record.seats[3]} was to act"):
        Game.replay(Record.from_text("\n".join(lines)))


def test_record_with_actions_after_the_end_is_refused() -> None:
    game = random_match("online", 6)
    assert game.is_over
    text = game.record.to_text() + "pass\n"
    with pytest.raises(ValueError, match="The match is over"):
        Game.replay(Record.from_text(text))


@pytest.mark.parametrize("missing", ["game", "rules", "seed", "dealer"])
def test_record_missing_a_header_line_is_refused(missing: str) -> None:
    text = Game.new("classic", seed=4).record.to_text()
    lines = [line for line in text.splitlines() if not line.startswith(f"{missing}: ")]
    with pytest.raises(ValueError, match=f"record is missing: {missing}"):
        Record.from_text("\n".join(lines))


def test_record_without_anything_is_refused() -> None:
    with pytest.raises(ValueError, match="record is missing: dealer, game, rules, seed"):
        Record.from_text("")


@pytest.mark.parametrize(("line", "message"), [
    ("seed: forty-two", "record header is malformed"),
    ("rules: {not json", "record header is malformed"),
    ("the cards were shuffled", r"record line \d+: expected 'key: value'"),
])
def test_record_with_a_malformed_header_is_refused(line: str, message: str) -> None:
    lines = Game.new("classic", seed=4).record.to_text().splitlines()
    key = line.split(":")[0] + ":"
    lines = [entry for entry in lines if not entry.startswith(key)]
    lines.insert(2, line)
    with pytest.raises(ValueError, match=message):
        Record.from_text("\n".join(lines))


def test_record_of_another_game_is_refused() -> None:
    record = Game.new("classic", seed=4).record
    record.game = "1000"
    with pytest.raises(ValueError, match="not a 500 record"):
        Game.replay(record)


def test_record_with_impossible_rules_or_dealer_is_refused() -> None:
    record = Game.new("classic", seed=4).record
    with pytest.raises(ValueError, match="seat must be 0 to 3"):
        Game.replay(Record(**{**vars(record), "dealer": 7}))
    with pytest.raises(ValueError, match="unknown rules option"):
        Game.replay(Record(**{**vars(record), "rules": {**record.rules, "jokers": 2}}))


def test_record_with_a_bad_deal_is_refused() -> None:
    rules = Rules.preset("classic")
    hands, kitty = shuffled_deal(rules, 3)
    record = Game.from_deal(rules, dealer=1, hands=hands, kitty=kitty).record
    assert record.deal is not None
    record.deal["kitty"] = [record.deal["hands"][0][0], *record.deal["kitty"][1:]]
    with pytest.raises(ValueError, match="dealt twice"):
        Game.replay(record)


def test_extra_header_lines_are_kept_and_leave_the_replay_alone() -> None:
    game = random_match("online", 11, max_actions=40)
    record = game.record
    record.extra = {"table": '"t1"', "result": '{"scores": [1, 2]}'}
    text = record.to_text()
    assert 'table: "t1"' in text.split("actions:")[0]
    again = Record.from_text(text)
    assert again.extra == record.extra
    assert Game.replay(again).view(0) == game.view(0)
    with pytest.raises(ValueError, match="seed"):
        Record(game="500", rules={}, seed=1, dealer=0, extra={"seed": "2"}).to_text()
    with pytest.raises(ValueError):
        Record(game="500", rules={}, seed=1, dealer=0, extra={"chat": "a\nb"}).to_text()
